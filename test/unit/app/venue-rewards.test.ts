/**
 * The venue's own reward figures (src/app/venue-rewards.ts) through the poller's public entry, on an injected clock
 * and a real ledger: today's figure on its slow timer (the day's last reading wins, the total under '*'); the paid
 * epochs read after each payout boundary of the cycle, booked once however often they are reported, reconciled into
 * the metrics; the names the unconfirmed epoch lists matched logged once; a failing read logged and retried.
 * `venueRewardsOf` reads the portfolio answer (through the real wire parser) in the simulator's shape and in another.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { openLedger } from '../../../src/ledger/store.js';
import { parsePortfolio } from '../../../src/exchange/wire.js';
import { TransportClosedError } from '../../../src/exchange/errors.js';
import { DEFAULT_EPOCH_READ } from '../../../src/exchange/wire-reward-epochs.js';
import { nextPayoutReadMs, venueRewardsOf, VenueRewardsPoller, type VenueRewardsMetrics, type VenueRewardsReport } from '../../../src/app/venue-rewards.js';

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
  return new VenueRewardsPoller({ read, ledger: parts.ledger, scheduler: parts.clock, intervalMs: 900_000, payoutCycleMs: 0, payoutReadDelayMs: 0, metrics: parts.metrics, log: parts.log });
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
});

describe('venueRewardsOf: the portfolio answer as the poller reads it', () => {
  const SIM_SHAPE = {
    clob: [
      {
        market: { slug: 'a' },
        tokensBalance: { yes: '0', no: '0' },
        rewards: {
          isEarning: true,
          epochs: [
            { epochStart: '2025-01-15T00:00:00.000Z', epochEnd: '2025-01-16T00:00:00.000Z', rewards: '5', rebates: '0.25', paid: true },
            { epochStart: '2025-01-16T00:00:00.000Z', epochEnd: null, rewards: '1.25', rebates: '0', paid: false },
          ],
        },
      },
    ],
    rewards: {
      todaysRewards: '2.5',
      rewardsByEpoch: [{ epochStart: '2025-01-15T00:00:00.000Z', epochEnd: '2025-01-16T00:00:00.000Z', paidAt: '2025-01-16T00:00:00.000Z', rewards: '9', rebates: '0.5', markets: [{ marketSlug: 'b', rewards: '4', rebates: '0.25' }] }],
      rewardsChartData: [],
      totalUnpaidRewards: '2.5',
      totalUserRewardsLastEpoch: '9',
    },
  };

  it("the simulator's shape: today's figures, the paid epochs per market and in total, the names that matched", () => {
    const report = venueRewardsOf(parsePortfolio(SIM_SHAPE, EP, 200));
    const day = { epochStartMs: Date.UTC(2025, 0, 15), epochEndMs: Date.UTC(2025, 0, 16) };
    expect(report.todayTotalRaw).toBe(2_500_000);
    expect(report.markets).toEqual([{ marketSlug: 'a', todayRaw: 1_250_000 }]);
    expect(report.paid).toEqual([
      { marketSlug: 'a', ...day, rewardsRaw: 5_000_000, rebatesRaw: 250_000, paidAtMs: null, source: 'clob.rewards.epochs' },
      { marketSlug: '*', ...day, rewardsRaw: 9_000_000, rebatesRaw: 500_000, paidAtMs: day.epochEndMs, source: 'rewardsByEpoch' },
      { marketSlug: 'b', ...day, rewardsRaw: 4_000_000, rebatesRaw: 250_000, paidAtMs: day.epochEndMs, source: 'rewardsByEpoch.markets' },
    ]);
    expect(report.shapes).toEqual({ account: 'start=epochStart end=epochEnd paidAt=paidAt rewards=rewards rebates=rebates markets=markets', market: 'start=epochStart end=epochEnd paid=paid rewards=rewards rebates=rebates' });
    expect(report.unreadableEpochs).toBe(0);
  });

  it('another shape (dates, a status, other amount names, raw units when configured) is detected, not guessed; the unreadable are counted', () => {
    const other = {
      clob: [],
      rewards: {
        todaysRewards: '0',
        rewardsByEpoch: [
          { startDate: 1736899200, endDate: 1736985600, status: 'DISTRIBUTED', rewardAmount: 7_000_000 },
          { startDate: 1736985600, endDate: 1737072000, status: 'PENDING', rewardAmount: 1_000_000 },
          { note: 'no amount in any known name' },
        ],
        rewardsChartData: [],
        totalUnpaidRewards: '0',
        totalUserRewardsLastEpoch: '7',
      },
    };
    const report = venueRewardsOf(parsePortfolio(other, EP, 200), { ...DEFAULT_EPOCH_READ, amountUnit: 'raw' });
    expect(report.paid).toEqual([{ marketSlug: '*', epochStartMs: Date.UTC(2025, 0, 15), epochEndMs: Date.UTC(2025, 0, 16), rewardsRaw: 7_000_000, rebatesRaw: null, paidAtMs: null, source: 'rewardsByEpoch' }]);
    expect(report.shapes?.account).toBe('start=startDate end=endDate status=status rewards=rewardAmount');
    expect(report.unreadableEpochs).toBe(1);
    // The same list under names configured away from the defaults reads nothing: every element counted unreadable.
    const narrow = venueRewardsOf(parsePortfolio(other, EP, 200), { amountUnit: 'raw', fields: { ...DEFAULT_EPOCH_READ.fields, rewards: ['payout'], rebates: ['rebatePayout'] } });
    expect(narrow.paid).toEqual([]);
    expect(narrow.unreadableEpochs).toBe(3);
  });

  it('an answer without rewards reads as nothing known (null total), not as zero', () => {
    expect(venueRewardsOf(parsePortfolio({ clob: [{ market: { slug: 'a' }, tokensBalance: { yes: '0', no: '0' } }] }, EP, 200))).toMatchObject({ todayTotalRaw: null, markets: [], paid: [] });
  });
});
