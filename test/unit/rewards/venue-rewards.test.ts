/**
 * The venue's own reward figures (src/rewards/venue-rewards.ts) through the poller's public entry, on an injected clock
 * and a real ledger: today's figure on its slow timer (the day's last reading wins, the total under '*'); the paid
 * epochs read after each payout boundary of the cycle, booked once however often they are reported, reconciled into
 * the metrics; the names the unconfirmed epoch lists matched logged once; a failing read logged and retried.
 * `venueRewardsOf` reads the portfolio answer (through the real wire parser) in the documented shape and in another.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { openLedger } from '../../../src/ledger/store.js';
import { parsePortfolio } from '../../../src/exchange/wire.js';
import { TransportClosedError } from '../../../src/exchange/errors.js';
import { DEFAULT_EPOCH_FIELDS } from '../../../src/exchange/wire-reward-epochs.js';
import { DEFAULT_EPOCH_JUDGING, latestPayoutMs, nextPayoutReadMs, venueRewardsOf, VenueRewardsPoller, type VenueRewardsMetrics, type VenueRewardsReport } from '../../../src/rewards/venue-rewards.js';

const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const DAY0 = Date.UTC(2025, 0, 15);
const EP = { method: 'GET', pathTemplate: '/portfolio/positions' } as const;

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

function recorder(): { metrics: VenueRewardsMetrics; gauges: [string, number][]; reconciled: [string, string, number, number | null][]; unreadable: number[] } {
  const gauges: [string, number][] = [];
  const reconciled: [string, string, number, number | null][] = [];
  const unreadable: number[] = [];
  return {
    gauges,
    reconciled,
    unreadable,
    metrics: {
      venueRewards: (market, raw) => void gauges.push([market, raw]),
      rewardReconciled: (market, kind, est, paid) => void reconciled.push([market, kind, est, paid]),
      venueEpochsUnreadable: (count) => void unreadable.push(count),
    },
  };
}

function logLines(): { log: ReturnType<typeof pino>; lines: string[] } {
  const lines: string[] = [];
  return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(String((JSON.parse(line) as { msg?: unknown }).msg)) }) };
}

/** A poller reading today's figure every 15 minutes only (no payout cycle). */
function slowPoller(
  parts: { clock: ManualClock; ledger: ReturnType<typeof openLedger>; metrics: VenueRewardsMetrics; log: ReturnType<typeof pino> },
  read: () => Promise<VenueRewardsReport>,
): VenueRewardsPoller {
  return new VenueRewardsPoller({ read, ledger: parts.ledger, scheduler: parts.clock, intervalMs: 900_000, payoutCycleMs: 0, payoutReadDelayMs: 0, payoutAtUtcMs: 0, metrics: parts.metrics, log: parts.log });
}

describe('venue rewards poller', () => {
  it("stores today's figure on its timer, the latest reading winning; a failed read is logged and retried", async () => {
    const clock = new ManualClock(T0);
    const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
    const answers: (VenueRewardsReport | Error)[] = [
      { todayTotalRaw: 1_000_000, markets: [{ marketSlug: 'btc-above', todayRaw: 600_000 }] },
      new Error('503 from the venue'),
      { todayTotalRaw: 2_500_000, markets: [] },
    ];
    const { metrics, gauges } = recorder();
    const { log, lines } = logLines();
    const poller = slowPoller({ clock, ledger, metrics, log }, async () => {
      const next = answers.shift();
      if (next === undefined || next instanceof Error) throw next ?? new Error('no answer');
      return next;
    });
    poller.start();
    clock.advance(900_000);
    await settle();
    expect(ledger.rewards.venueRewards()).toEqual([
      { dayStartMs: DAY0, marketSlug: '*', rewardRaw: 1_000_000, readAtMs: T0 + 900_000 },
      { dayStartMs: DAY0, marketSlug: 'btc-above', rewardRaw: 600_000, readAtMs: T0 + 900_000 },
    ]);
    expect(gauges).toEqual([['btc-above', 600_000], ['*', 1_000_000]]);
    clock.advance(900_000);
    await settle();
    expect(lines).toEqual(['venue rewards: read or write failed; tried again at the next poll']);
    clock.advance(900_000);
    await settle();
    expect(ledger.rewards.venueRewards().find((r) => r.marketSlug === '*')).toEqual({ dayStartMs: DAY0, marketSlug: '*', rewardRaw: 2_500_000, readAtMs: T0 + 2_700_000 });
    poller.stop();
    clock.advance(900_000);
    await settle();
    // Stopped: no further read (it would have failed and warned).
    expect(lines).toHaveLength(1);
    ledger.close();
  });

  it('a read the stop catches (the client closed under it) is no failure: nothing logged, nothing written', async () => {
    const clock = new ManualClock(T0);
    const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
    const { metrics, gauges } = recorder();
    const { log, lines } = logLines();
    const poller = slowPoller({ clock, ledger, metrics, log }, () => Promise.reject(new Error('poll failed', { cause: new TransportClosedError(EP) })));
    await poller.poll();
    expect(lines).toEqual([]);
    expect(gauges).toEqual([]);
    expect(ledger.rewards.venueRewards()).toEqual([]);
    ledger.close();
  });

  it('an answer that comes after the stop is not written, nor warned about (the ledger closes after the stop)', async () => {
    const clock = new ManualClock(T0);
    const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
    const { metrics, gauges } = recorder();
    const { log, lines } = logLines();
    let answer: (report: VenueRewardsReport) => void = () => undefined;
    const poller = slowPoller({ clock, ledger, metrics, log }, () => new Promise((resolve) => (answer = resolve)));
    const polled = poller.poll();
    poller.stop();
    ledger.close();
    answer({ todayTotalRaw: 1_000_000, markets: [{ marketSlug: 'btc-above', todayRaw: 600_000 }] });
    await polled;
    expect(lines).toEqual([]);
    expect(gauges).toEqual([]);
  });

  it('reads after each payout boundary, books each paid epoch once, reconciles it in the metrics and logs the shape once', async () => {
    const cycle = 15_000;
    const clock = new ManualClock(T0 + 4_000);
    const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
    // The estimate: two samples of 0.1 USDC in the first epoch [T0, T0 + 15 s), one of a failed-free rebate.
    ledger.rewards.recordMinuteSample({ marketSlug: 'a', minuteMs: T0, sampleMs: T0 + 5_000, strategy: 's', botScore: 1, othersScore: 0, share: 1, poolRaw: 1_200_000, weight: 1 / 12, rewardRaw: 100_000, minGapMs: 2_500 });
    ledger.rewards.recordMinuteSample({ marketSlug: 'a', minuteMs: T0, sampleMs: T0 + 10_000, strategy: 's', botScore: 1, othersScore: 0, share: 1, poolRaw: 1_200_000, weight: 1 / 12, rewardRaw: 100_000, minGapMs: 2_500 });
    const epoch = { marketSlug: 'a', epochStartMs: T0, epochEndMs: T0 + cycle, rewardsRaw: 190_000, rebatesRaw: null, paidAtMs: T0 + cycle, source: 'clob.rewards.epochs' } as const;
    const total = { ...epoch, marketSlug: '*', source: 'rewardsByEpoch' } as const;
    const reads: number[] = [];
    const { metrics, reconciled } = recorder();
    const { log, lines } = logLines();
    const poller = new VenueRewardsPoller({
      read: async () => {
        reads.push(clock.now());
        return { todayTotalRaw: null, markets: [], paid: clock.now() > T0 + cycle ? [epoch, total] : [], shapes: { account: 'end=epochEnd rewards=rewards', market: null }, unreadableEpochs: 0 };
      },
      ledger,
      scheduler: clock,
      intervalMs: 0,
      payoutCycleMs: cycle,
      payoutReadDelayMs: 2_000,
      payoutAtUtcMs: 0,
      metrics,
      log,
    });
    poller.start();
    for (let i = 0; i < 8; i += 1) {
      clock.advance(5_000);
      await settle();
    }
    poller.stop();
    // Boundaries at T0 + 15 s and + 30 s, each read 2 s after; the second read reports the same epoch: nothing new.
    expect(reads).toEqual([T0 + 17_000, T0 + 32_000]);
    expect(ledger.payouts.payouts().map((p) => [p.marketSlug, p.rewardsRaw])).toEqual([['*', 190_000], ['a', 190_000]]);
    expect(reconciled.filter(([market, kind]) => market === 'a' && kind === 'rewards')).toHaveLength(1);
    // Estimated 0.2, paid 0.19: the error is +0.01 USDC; rebates unknown (null).
    expect(reconciled).toContainEqual(['a', 'rewards', 200_000, 190_000]);
    expect(reconciled).toContainEqual(['*', 'rebates', 0, null]);
    expect(lines.filter((l) => l.includes('read under these names'))).toHaveLength(1);
    ledger.close();
  });

  it('the next read follows the cycle: the boundary after now, plus the delay', () => {
    expect(nextPayoutReadMs(T0 + 4_000, 15_000, 2_000)).toBe(T0 + 17_000);
    expect(nextPayoutReadMs(T0 + 17_000, 15_000, 2_000)).toBe(T0 + 32_000);
    expect(nextPayoutReadMs(T0 + 1_000, 15_000, 2_000)).toBe(T0 + 2_000);
    expect(nextPayoutReadMs(T0, 86_400_000, 300_000)).toBe(DAY0 + 86_400_000 + 300_000);
  });

  it('follows the venue\'s daily payout at 22:30 UTC: the read comes the delay after 22:30, and a read before it waits for it', () => {
    const at = 22.5 * 3_600_000;
    expect(nextPayoutReadMs(T0, 86_400_000, 300_000, at)).toBe(DAY0 + at + 300_000);
    expect(nextPayoutReadMs(DAY0 + at + 300_000, 86_400_000, 300_000, at)).toBe(DAY0 + 86_400_000 + at + 300_000);
    expect(latestPayoutMs(T0, 86_400_000, at)).toBe(DAY0 - 86_400_000 + at);
    // A 15 s cycle anchored at 22:30 falls on the same instants as one anchored at midnight (81 000 s = 5400 × 15 s).
    expect(nextPayoutReadMs(T0 + 4_000, 15_000, 2_000, at)).toBe(T0 + 17_000);
  });
});


describe('venueRewardsOf: the portfolio answer as the poller reads it', () => {
  const DAY = 86_400_000;
  const D15 = Date.UTC(2025, 0, 15);
  const D16 = Date.UTC(2025, 0, 16);
  const epoch = (id: number, startMs: number, user: string, pool: string, rebates?: string): Record<string, unknown> => ({
    epochId: id,
    timestamp: new Date(startMs).toISOString(),
    totalRewards: pool,
    userRewards: user,
    earnedPercent: Number(user) / Number(pool),
    ...(rebates === undefined ? {} : { userRebates: rebates }),
  });
  /** The documented shape (raw amounts; `userRewards` the account's), per market as the simulator also sends it. */
  const DOCUMENTED = {
    clob: [{ market: { slug: 'a' }, tokensBalance: { yes: '0', no: '0' }, rewards: { isEarning: true, epochs: [epoch(7, D15, '5000000', '20000000', '250000'), epoch(8, D16, '1250000', '1250000', '0')] } }],
    rewards: {
      todaysRewards: '2500000',
      rewardsByEpoch: [epoch(8, D16, '2500000', '2500000'), epoch(7, D15, '9000000', '90000000', '500000')],
      rewardsChartData: [{ timestamp: D16, userRewards: '9000000', totalRewards: '90000000' }],
      totalUnpaidRewards: '2500000',
      totalUserRewardsLastEpoch: '9000000',
    },
  };
  // The epoch of the 15th ends at 00:00 on the 16th and is paid at 22:30 UTC that day; the epoch of the 16th is open.
  const READ_AT = D16 + 23 * 3_600_000;

  it("the documented shape: today's figures, the paid epochs per market and in total, userRewards (never the pool) as the account's", () => {
    const report = venueRewardsOf(parsePortfolio(DOCUMENTED, EP, 200), READ_AT);
    const day = { epochStartMs: D15, epochEndMs: D16 };
    expect(report.todayTotalRaw).toBe(2_500_000);
    expect(report.markets).toEqual([{ marketSlug: 'a', todayRaw: 1_250_000 }]);
    expect(report.paid).toEqual([
      { marketSlug: 'a', ...day, rewardsRaw: 5_000_000, rebatesRaw: 250_000, paidAtMs: null, source: 'clob.rewards.epochs' },
      { marketSlug: '*', ...day, rewardsRaw: 9_000_000, rebatesRaw: 500_000, paidAtMs: null, source: 'rewardsByEpoch' },
    ]);
    expect(report.shapes).toEqual({ account: 'start=timestamp rewards=userRewards rebates=userRebates', market: 'start=timestamp rewards=userRewards rebates=userRebates' });
    expect(report.unreadableEpochs).toBe(0);
    // Before 22:30 UTC on the 16th nothing is paid yet: the venue pays then.
    expect(venueRewardsOf(parsePortfolio(DOCUMENTED, EP, 200), D16 + 22 * 3_600_000).paid).toEqual([]);
  });

  it('reads an amount past 2^53 as unreadable (named with its path), never rounded; a bad total is left out, the rest stands', () => {
    const huge = '9007199254740993';
    const body = { ...DOCUMENTED, rewards: { ...DOCUMENTED.rewards, todaysRewards: huge, rewardsByEpoch: [epoch(7, D15, huge, huge), epoch(6, D15 - DAY, '1000000', '2000000')] } };
    const portfolio = parsePortfolio(body, EP, 200);
    expect(portfolio.rewards?.todaysRewardsRaw).toBeNull();
    expect(portfolio.skipped).toEqual([{ path: 'rewards.todaysRewards', reason: `raw amount ${huge} exceeds 2^53 - 1 (not read, never rounded)` }]);
    const report = venueRewardsOf(portfolio, READ_AT);
    expect(report.unreadablePaths).toEqual([`rewards.rewardsByEpoch[0]: userRewards: raw amount ${huge} exceeds 2^53 - 1 (not read, never rounded)`]);
    expect(report.paid?.filter((p) => p.marketSlug === '*').map((p) => p.rewardsRaw)).toEqual([1_000_000]);
  });

  it('another shape (end instants, a status, other names) is detected, not guessed; names configured away read nothing, counted', () => {
    const other = {
      clob: [],
      rewards: {
        todaysRewards: '0',
        rewardsByEpoch: [
          { startDate: 1736899200, endDate: 1736985600, status: 'DISTRIBUTED', rewardAmount: 7_000_000 },
          { startDate: 1736985600, endDate: 1737072000, status: 'PENDING', rewardAmount: 1_000_000 },
          { note: 'no amount in any known name' },
        ],
      },
    };
    const report = venueRewardsOf(parsePortfolio(other, EP, 200), READ_AT);
    expect(report.paid).toEqual([{ marketSlug: '*', epochStartMs: D15, epochEndMs: D16, rewardsRaw: 7_000_000, rebatesRaw: null, paidAtMs: null, source: 'rewardsByEpoch' }]);
    expect(report.shapes?.account).toBe('start=startDate end=endDate status=status rewards=rewardAmount');
    expect(report.unreadableEpochs).toBe(1);
    const narrow = venueRewardsOf(parsePortfolio(other, EP, 200), READ_AT, { ...DEFAULT_EPOCH_JUDGING, read: { ...DEFAULT_EPOCH_JUDGING.read, fields: { ...DEFAULT_EPOCH_FIELDS, rewards: ['payout'], rebates: ['rebatePayout'] } } });
    expect(narrow.paid).toEqual([]);
    expect(narrow.unreadableEpochs).toBe(3);
  });

  it('an answer without rewards reads as nothing known (null total), not as zero', () => {
    expect(venueRewardsOf(parsePortfolio({ clob: [{ market: { slug: 'a' }, tokensBalance: { yes: '0', no: '0' } }] }, EP, 200), READ_AT)).toMatchObject({ todayTotalRaw: null, markets: [], paid: [] });
  });
});
