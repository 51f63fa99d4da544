/**
 * Reward and rebate accruals in the ledger (migration 3) and `report`'s earnings section, through their public
 * entries (the ledger's `rewards` repo, runReport on a ledger file): exactly-once rows (a minute per market, a rebate
 * per fill), the venue's day figure replaced by a later reading, a failed fill's rebate left out, typed errors on bad
 * input, and the report's rows per market, strategy and day (table and JSON) with totals that include them.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerInputError } from '../../../src/ledger/errors.js';
import { runReport } from '../../../src/ledger/report.js';
import { openLedger } from '../../../src/ledger/store.js';
import { VENUE_TOTAL_MARKET } from '../../../src/ledger/rewards-repo.js';
import { earningsReport } from '../../../src/ledger/report-rewards.js';
import { summarizeJudgedFills } from '../../../src/markouts/summary.js';
import { fillInput, makeTempDir, T0 } from '../../support/ledger-fixtures.js';

const temp = makeTempDir('report-rewards-');
afterAll(() => temp.cleanup());
let db = '';
const DAY0 = T0 - (T0 % 86_400_000);
const minute = (n: number) => ({ marketSlug: 'btc-above', minuteMs: T0 + n * 60_000, strategy: 'liquidity-rewards', botScore: 30, othersScore: 70, share: 0.3, poolRaw: 694_444, rewardRaw: 208_333 });

beforeAll(() => {
  db = join(temp.dir, 'ledger.sqlite');
  let now = T0;
  const ledger = openLedger({ path: db, now: () => now });
  // Buy 10 at 0.50 and sell 10 at 0.52: +0.20 realized; a third fill fails later.
  ledger.recordFill(fillInput({ tradeEventId: 't1', marketSlug: 'btc-above' }));
  ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'order-2', marketSlug: 'btc-above', side: 'SELL', priceTicks: 520 }));
  ledger.recordFill(fillInput({ tradeEventId: 't3', orderId: 'order-3', marketSlug: 'btc-above', state: 'provisional', atMs: T0 + 5 }));
  for (let n = 0; n < 3; n += 1) expect(ledger.rewards.recordMinute(minute(n))).toBe(true);
  // The next day: one more minute.
  expect(ledger.rewards.recordMinute({ ...minute(0), minuteMs: DAY0 + 86_400_000 + 60_000 })).toBe(true);
  const rebate = { marketSlug: 'btc-above', strategy: 'liquidity-rewards', atMs: T0, takerFeeBps: 100, feeSource: 'curve' as const, takerFeeRaw: 50_000, rebateRate: 0.2, rebateRaw: 10_000 };
  for (const fillId of [1, 2, 3]) expect(ledger.rewards.recordRebate({ ...rebate, fillId })).toBe(true);
  ledger.failFill({ tradeEventId: 't3', orderId: 'order-3' }, { reason: 'settlement failed', atMs: T0 + 6 });
  // Markouts against the mid: the buy at 0.50 with the mid at 0.51 then 0.48 (+0.1 at the fill, −0.2 at 60 s: 0.3
  // adverse), the sell at 0.52 with the mid at 0.51 both times (none): 0.3 USDC of adverse selection.
  const mid = (fillId: number, horizonMs: number, refMicros: number) => ({ fillId, horizonMs, reference: 'mid' as const, refMicros, missingReason: null, sampledAtMs: T0 + horizonMs });
  ledger.markouts.write({
    register: [1, 2].map((fillId) => ({ fillId, strategy: 'liquidity-rewards', references: ['mid' as const] })),
    rows: [mid(1, 0, 510_000), mid(1, 60_000, 480_000), mid(2, 0, 510_000), mid(2, 60_000, 510_000)],
    complete: [],
  });
  ledger.rewards.recordVenueReward({ dayStartMs: DAY0, marketSlug: VENUE_TOTAL_MARKET, rewardRaw: 500_000, readAtMs: T0 });
  now = T0 + 1000;
  ledger.rewards.recordVenueReward({ dayStartMs: DAY0, marketSlug: VENUE_TOTAL_MARKET, rewardRaw: 700_000, readAtMs: T0 + 1000 });
  ledger.close();
});

describe('ledger: reward and rebate accruals', () => {
  it('writes a minute and a rebate once (restarts included), refuses bad input by name, sums without failed fills', () => {
    const ledger = openLedger({ path: db, now: () => T0 + 2000 });
    try {
      expect(ledger.rewards.recordMinute(minute(0))).toBe(false);
      expect(ledger.rewards.recordRebate({ fillId: 1, marketSlug: 'btc-above', strategy: 's', atMs: T0, takerFeeBps: 1, feeSource: 'event', takerFeeRaw: 1, rebateRate: 0.5, rebateRaw: 1 })).toBe(false);
      // A fill the ledger does not hold gets no rebate row.
      expect(ledger.rewards.recordRebate({ fillId: 99, marketSlug: 'btc-above', strategy: 's', atMs: T0, takerFeeBps: 1, feeSource: 'event', takerFeeRaw: 1, rebateRate: 0.5, rebateRaw: 1 })).toBe(false);
      expect(() => ledger.rewards.recordMinute({ ...minute(0), minuteMs: T0 + 1 })).toThrow(LedgerInputError);
      expect(() => ledger.rewards.recordMinute({ ...minute(9), share: 1.5 })).toThrow(/rewardMinute.share/);
      expect(() => ledger.rewards.recordVenueReward({ dayStartMs: T0, marketSlug: '*', rewardRaw: 1, readAtMs: T0 })).toThrow(/venueReward.dayStartMs/);
      expect(ledger.rewards.totals()).toEqual({ rewardRaw: 4 * 208_333, rebateRaw: 20_000 });
      expect(ledger.rewards.unrebatedMakerFills(['btc-above'])).toEqual([]);
      expect(ledger.rewards.venueRewards()).toEqual([{ dayStartMs: DAY0, marketSlug: '*', rewardRaw: 700_000, readAtMs: T0 + 1000 }]);
    } finally {
      ledger.close();
    }
  });

  it('report table: trading, rewards, rebates and total per market, strategy and day, beside the venue', async () => {
    const text = await runReport({ db, nowMs: T0 + 86_400_000 * 2, wide: true });
    const section = text.slice(text.indexOf('Earnings'));
    expect(section).toContain('rewards and rebates are ESTIMATES');
    // 0.2 trading + 0.833332 rewards + 0.02 rebates.
    expect(section).toMatch(/btc-above\s+0\.2\s+0\.833332\s+0\.02\s+1\.053332\s+-/);
    expect(section).toMatch(/TOTAL\s+0\.2\s+0\.833332\s+0\.02\s+1\.053332\s+0\.7/);
    // The reward earned per dollar of adverse selection: 0.833332 / 0.3, per market and in total.
    expect(section).toMatch(/btc-above\s+0\.2\s+0\.833332\s+0\.02\s+1\.053332\s+-\s+0\.3\s+2\.78$/m);
    expect(section).toMatch(/TOTAL\s+0\.2\s+0\.833332\s+0\.02\s+1\.053332\s+0\.7\s+0\.3\s+2\.78$/m);
    expect(section).toMatch(/liquidity-rewards\s+0\.833332\s+4\s+0\.02\s+2/);
    expect(section).toMatch(/2025-01-15\s+0\.624999\s+0\.02\s+0\.7\s+0\.075001/);
    expect(section).toMatch(/2025-01-16\s+0\.208333\s+0\s+-\s+-/);
  });

  it('report JSON: the same rows, marked as estimates; --since and --market narrow them', async () => {
    const doc = JSON.parse(await runReport({ db, format: 'json', nowMs: T0 + 86_400_000 * 2 })) as { earnings: Record<string, unknown> };
    expect(doc.earnings).toMatchObject({
      estimated: ['rewards', 'rebates'],
      markets: [{ market: 'btc-above', trading: '0.2', rewards: '0.833332', rebates: '0.02', total: '1.053332', venueRewards: null, adverseSelection60s: '0.3' }],
      totals: { trading: '0.2', rewards: '0.833332', rebates: '0.02', total: '1.053332', venueRewards: '0.7', adverseSelection60s: '0.3' },
    });
    const totals = (doc.earnings as { totals: { rewardPerAdverse: number } }).totals;
    expect(totals.rewardPerAdverse).toBeCloseTo(0.833332 / 0.3, 9);
    const later = JSON.parse(await runReport({ db, format: 'json', sinceMs: DAY0 + 86_400_000, nowMs: T0 + 86_400_000 * 2 })) as { earnings: { days: unknown[] } };
    expect(later.earnings.days).toEqual([{ day: '2025-01-16', rewards: '0.208333', rebates: '0', venueRewards: null, venueMinusEstimate: null }]);
    const other = JSON.parse(await runReport({ db, format: 'json', market: 'eth-5k', nowMs: T0 })) as { earnings: { markets: unknown[] } };
    expect(other.earnings.markets).toEqual([]);
  });

  it('a market whose fills have no 60 s markout yet shows no adverse selection (not 0), nor a ratio', () => {
    const fill = { marketSlug: 'm', strategy: 's', terms: { token: 'YES' as const, side: 'BUY' as const, priceTicks: 500, sizeRaw: 10_000_000 }, feeRaw: 0, references: ['mid' as const], samples: [{ horizonMs: 0, reference: 'mid' as const, refMicros: 510_000 }] };
    const pnl = { markets: [], totals: { realizedRaw: 0, feesRaw: 0, volumeRaw: 0, fillCount: 0, unrealizedRaw: 0, netPnlRaw: 0, receivableRaw: 0, unmarkedMarkets: [] } };
    const accrual = { marketSlug: 'm', strategy: 's', dayStartMs: DAY0, rewardRaw: 100_000, rewardMinutes: 1, rebateRaw: 0, rebatedFills: 0 };
    const pending = earningsReport(pnl, [accrual], [], summarizeJudgedFills([fill], (f) => f.marketSlug));
    expect(pending.markets[0]).toMatchObject({ adverseSelectionRaw: null, rewardPerAdverseUsdc: null });
    expect(pending.totals).toMatchObject({ adverseSelectionRaw: null, rewardPerAdverseUsdc: null });
    const judged = { ...fill, samples: [...fill.samples, { horizonMs: 60_000, reference: 'mid' as const, refMicros: 500_000 }] };
    const known = earningsReport(pnl, [accrual], [], summarizeJudgedFills([judged], (f) => f.marketSlug));
    // 0.1 at the fill, 0 at 60 s: 0.1 USDC adverse, 0.1 USDC of rewards → 1 per dollar.
    expect(known.markets[0]).toMatchObject({ adverseSelectionRaw: 100_000, rewardPerAdverseUsdc: 1 });
  });
});
