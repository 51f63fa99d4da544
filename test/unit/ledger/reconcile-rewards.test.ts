/**
 * The venue's PAID epochs in the ledger (migration 5: `venue_payouts`) and their reconciliation against the estimates
 * of the same spans, through the public entries: the ledger's `payouts` and `rewards` repos (a payout booked once per
 * market and epoch, a time-weighted reward minute built from samples, each sample once), `reconcileRewards` (pure:
 * pro-rata minutes at an epoch's edge, a missing start taken from the previous epoch, a market the account's epoch
 * does not list paid 0 there, an unsent figure without error) and `runReport` (table and JSON).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LedgerInputError } from '../../../src/ledger/errors.js';
import { minuteRewardIn, reconcileRewards } from '../../../src/ledger/reconcile-rewards.js';
import type { VenuePayoutRow } from '../../../src/ledger/payouts-repo.js';
import { runReport } from '../../../src/ledger/report.js';
import { openLedger } from '../../../src/ledger/store.js';
import { fillInput, makeTempDir } from '../../support/ledger-fixtures.js';

const temp = makeTempDir('reconcile-rewards-');
afterAll(() => temp.cleanup());
const M0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const sample = (market: string, at: number, share = 1) => ({
  marketSlug: market,
  minuteMs: at - (at % 60_000),
  sampleMs: at,
  strategy: 'fixed-spread',
  botScore: 10,
  othersScore: 0,
  share,
  poolRaw: 1_200_000,
  weight: 1 / 12,
  rewardRaw: Math.floor(share * 100_000),
  minGapMs: 2_500,
});
const payout = (market: string, startMs: number | null, endMs: number, rewardsRaw: number | null, rebatesRaw: number | null = null): VenuePayoutRow => ({
  marketSlug: market,
  epochStartMs: startMs,
  epochEndMs: endMs,
  rewardsRaw,
  rebatesRaw,
  paidAtMs: endMs,
  source: market === '*' ? 'rewardsByEpoch' : 'clob.rewards.epochs',
  recordedAtMs: endMs,
});

describe('ledger: time-weighted reward minutes and paid epochs', () => {
  it('adds each sample to its minute once, at most a minute of weight; books a paid epoch once; names bad input', () => {
    const ledger = openLedger({ path: join(temp.dir, 'samples.sqlite'), now: () => M0 });
    try {
      expect(ledger.rewards.recordMinuteSample(sample('a', M0 + 1_000))).toBe(true);
      expect(ledger.rewards.recordMinuteSample(sample('a', M0 + 1_000))).toBe(false); // the same sample again (a restart)
      expect(ledger.rewards.recordMinuteSample(sample('a', M0 + 3_000))).toBe(false); // inside the last sample's 5 s
      expect(ledger.rewards.recordMinuteSample(sample('a', M0 + 6_000, 0.5))).toBe(true);
      const [row] = ledger.payouts.minutesBetween(M0, M0 + 60_000);
      expect(row).toEqual({ marketSlug: 'a', minuteMs: M0, rewardRaw: 150_000, samples: 2, coveredFromMs: M0 + 1_000, coveredToMs: M0 + 11_000 });
      // Twelve samples fill the minute; a thirteenth is refused (its share would pass 1).
      for (let i = 0; i < 12; i += 1) ledger.rewards.recordMinuteSample(sample('b', M0 + 60_000 + i * 5_000));
      expect(ledger.rewards.recordMinuteSample(sample('b', M0 + 60_000 + 59_999))).toBe(false);
      expect(ledger.payouts.minutesBetween(M0 + 60_000, M0 + 120_000, 'b')[0]).toMatchObject({ samples: 12, rewardRaw: 1_200_000 });
      expect(() => ledger.rewards.recordMinuteSample({ ...sample('a', M0), sampleMs: M0 + 60_000 })).toThrow(/rewardSample.sampleMs/);

      const epoch = { marketSlug: '*', epochStartMs: M0, epochEndMs: M0 + 15_000, rewardsRaw: 140_000, rebatesRaw: 20_000, paidAtMs: M0 + 15_000, source: 'rewardsByEpoch' };
      expect(ledger.payouts.recordPayout(epoch)).toBe(true);
      expect(ledger.payouts.recordPayout({ ...epoch, rewardsRaw: 999 })).toBe(false);
      expect(ledger.payouts.payouts()).toEqual([{ ...epoch, recordedAtMs: M0 }]);
      expect(() => ledger.payouts.recordPayout({ ...epoch, epochEndMs: M0 + 30_000, rewardsRaw: null, rebatesRaw: null })).toThrow(LedgerInputError);
      expect(() => ledger.payouts.recordPayout({ ...epoch, epochStartMs: M0 + 40_000 })).toThrow(/venuePayout.epochStartMs/);
      expect(() => ledger.payouts.recordPayout({ ...epoch, epochEndMs: M0 + 45_000, rewardsRaw: -1 })).toThrow(/venuePayout.rewardsRaw/);
    } finally {
      ledger.close();
    }
  });
});

describe('reconcileRewards', () => {
  const minute = { marketSlug: 'a', minuteMs: M0, rewardRaw: 120_000, samples: 12, coveredFromMs: M0, coveredToMs: M0 + 60_000 };

  it('counts a minute pro rata to the part of its covered span inside the epoch (a one-sample minute: the whole minute)', () => {
    expect(minuteRewardIn(minute, { startMs: M0, endMs: M0 + 15_000 })).toBe(30_000);
    expect(minuteRewardIn(minute, { startMs: M0 - 1, endMs: M0 + 61_000 })).toBe(120_000);
    expect(minuteRewardIn({ ...minute, coveredFromMs: M0 + 30_000, coveredToMs: M0 + 40_000 }, { startMs: M0, endMs: M0 + 35_000 })).toBe(60_000);
    expect(minuteRewardIn({ ...minute, samples: 1, coveredFromMs: null, coveredToMs: null }, { startMs: M0 + 45_000, endMs: M0 + 60_000 })).toBe(30_000);
    expect(minuteRewardIn(minute, { startMs: M0 + 60_000, endMs: M0 + 90_000 })).toBe(0);
  });

  it('per day and market, estimate vs paid with the error in USDC and %; the total; unlisted markets paid 0; an unsent figure has no error', () => {
    const result = reconcileRewards({
      payouts: [
        payout('*', M0, M0 + 30_000, 70_000, 5_000),
        payout('a', M0, M0 + 30_000, 70_000, 5_000),
        payout('*', null, M0 + 60_000, 50_000, null), // no start: the previous epoch's end
        payout('a', null, M0 + 60_000, 50_000, null),
        payout('x', null, M0 + 90_000, 1, null), // nothing before it: left out
      ],
      minutes: [minute, { ...minute, marketSlug: 'b', rewardRaw: 12_000 }],
      rebates: [{ marketSlug: 'a', atMs: M0 + 1_000, rebateRaw: 4_000 }, { marketSlug: 'b', atMs: M0 + 2_000, rebateRaw: 500 }],
    });
    expect(result.unspanned).toBe(1);
    const byMarket = new Map(result.markets.map((r) => [r.marketSlug, r]));
    expect(byMarket.get('a')).toMatchObject({ epochs: 2, rewards: { estimateRaw: 120_000, paidRaw: 120_000, errorRaw: 0, errorPct: 0 }, rebates: { estimateRaw: 4_000, paidRaw: null, errorRaw: null } });
    // b earned an estimate but the account's epochs list it nowhere: paid 0, its whole estimate is the error (no %).
    expect(byMarket.get('b')).toMatchObject({ epochs: 2, rewards: { estimateRaw: 12_000, paidRaw: 0, errorRaw: 12_000, errorPct: null } });
    expect(byMarket.get('*')).toMatchObject({ epochs: 2, rewards: { estimateRaw: 132_000, paidRaw: 120_000, errorRaw: 12_000, errorPct: 10 } });
    expect(result.rows.map((r) => r.marketSlug)).toEqual(['a', 'b', '*']);
    expect(result.rows.every((r) => r.dayStartMs === Date.UTC(2026, 0, 15))).toBe(true);
  });
});

describe('report: the reconciliation section', () => {
  it('shows estimate vs paid per day and market in the table and the JSON once anything was paid', async () => {
    const path = join(temp.dir, 'report.sqlite');
    const ledger = openLedger({ path, now: () => M0 });
    ledger.recordFill(fillInput({ tradeEventId: 't1', marketSlug: 'a', atMs: M0 + 1_000 }));
    for (let i = 0; i < 6; i += 1) ledger.rewards.recordMinuteSample(sample('a', M0 + i * 5_000));
    ledger.payouts.recordPayout({ marketSlug: '*', epochStartMs: M0, epochEndMs: M0 + 30_000, rewardsRaw: 500_000, rebatesRaw: 0, paidAtMs: M0 + 30_000, source: 'rewardsByEpoch' });
    ledger.close();
    const before = await runReport({ db: join(temp.dir, 'report.sqlite'), nowMs: M0 + 60_000, wide: true });
    expect(before).toContain('Reconciliation: what the venue PAID per epoch beside the ESTIMATES of the same epochs');
    expect(before).toMatch(/2026-01-15\s+TOTAL \(venue \*\)\s+1\s+0\.6\s+0\.5\s+0\.1\s+\+20\.0%/);
    const doc = JSON.parse(await runReport({ db: path, format: 'json', nowMs: M0 + 60_000 })) as { reconciliation: { days: { market: string; rewards: { estimate: string; paid: string; error: string; errorPct: number } }[] } };
    expect(doc.reconciliation.days.find((d) => d.market === '*')?.rewards).toEqual({ estimate: '0.6', paid: '0.5', error: '0.1', errorPct: 20 });
    const html = await runReport({ db: path, format: 'html', nowMs: M0 + 60_000 });
    expect(html).toContain('Reconciliation: what the venue PAID');
  });
});
