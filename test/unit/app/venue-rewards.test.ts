/**
 * The venue's own reward figures (src/app/venue-rewards.ts) through the poller's public entry, on an injected clock
 * and a real ledger: read on its slow timer, stored per UTC day (the day's last reading wins, the total under '*'),
 * published as a gauge; a failing read is logged and tried again at the next poll; `report` sets the venue's figure
 * beside the estimate.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { openLedger } from '../../../src/ledger/store.js';
import { venueRewardsOf, VenueRewardsPoller, type VenueRewardsReport } from '../../../src/app/venue-rewards.js';

const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const DAY0 = Date.UTC(2025, 0, 15);

describe('venue rewards poller', () => {
  it('stores each poll under today, the latest reading winning; a failed read is logged and retried', async () => {
    const clock = new ManualClock(T0);
    const ledger = openLedger({ path: ':memory:', now: () => clock.now() });
    const answers: (VenueRewardsReport | Error)[] = [
      { todayTotalRaw: 1_000_000, markets: [{ marketSlug: 'btc-above', todayRaw: 600_000 }] },
      new Error('503 from the venue'),
      { todayTotalRaw: 2_500_000, markets: [] },
    ];
    const gauges: [string, number][] = [];
    const warnings: string[] = [];
    const poller = new VenueRewardsPoller({
      read: async () => {
        const next = answers.shift();
        if (next === undefined || next instanceof Error) throw next ?? new Error('no answer');
        return next;
      },
      ledger,
      scheduler: clock,
      intervalMs: 900_000,
      metrics: { venueRewards: (market, raw) => gauges.push([market, raw]) },
      log: pino({ level: 'warn' }, { write: (line: string) => void warnings.push(String((JSON.parse(line) as { msg?: unknown }).msg)) }),
    });
    poller.start();
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
    };
    clock.advance(900_000);
    await settle();
    expect(ledger.rewards.venueRewards()).toEqual([
      { dayStartMs: DAY0, marketSlug: '*', rewardRaw: 1_000_000, readAtMs: T0 + 900_000 },
      { dayStartMs: DAY0, marketSlug: 'btc-above', rewardRaw: 600_000, readAtMs: T0 + 900_000 },
    ]);
    expect(gauges).toEqual([['btc-above', 600_000], ['*', 1_000_000]]);
    clock.advance(900_000);
    await settle();
    expect(warnings).toEqual(['venue rewards: read or write failed; tried again at the next poll']);
    clock.advance(900_000);
    await settle();
    expect(ledger.rewards.venueRewards().find((r) => r.marketSlug === '*')).toEqual({ dayStartMs: DAY0, marketSlug: '*', rewardRaw: 2_500_000, readAtMs: T0 + 2_700_000 });
    poller.stop();
    clock.advance(900_000);
    await settle();
    // Stopped: no further read (it would have failed and warned).
    expect(warnings).toHaveLength(1);
    ledger.close();
  });
});

describe('venueRewardsOf: the portfolio answer as the poller reads it', () => {
  const epoch = (endMs: number | null, rewardsRaw: number | null) => ({ startMs: 0, endMs, rewardsRaw, rebatesRaw: 0, paid: endMs !== null });
  const rewardsOf = (todaysRewardsRaw: number | null) => ({
    todaysRewardsRaw,
    totalUnpaidRewardsRaw: null,
    lastEpochRewardsRaw: null,
    todaysRebatesRaw: null,
    totalUnpaidRebatesRaw: null,
    lastEpochRebatesRaw: null,
    totalPaidRewardsRaw: null,
    totalPaidRebatesRaw: null,
    epochs: [],
    unreadableEpochs: 0,
  });
  const position = (marketSlug: string, epochs: ReturnType<typeof epoch>[] | null) => ({
    marketSlug,
    yesBalanceRaw: 0,
    noBalanceRaw: 0,
    yes: null,
    no: null,
    collateralLockedRaw: null,
    ...(epochs === null ? {} : { rewards: { isEarning: true, epochs, unreadableEpochs: 0 } }),
  });

  it("today's total, and per market the open epoch's rewards (paid epochs and markets without figures left out)", () => {
    const report = venueRewardsOf({
      clob: [position('a', [epoch(1_000, 5_000_000), epoch(null, 1_250_000)]), position('b', [epoch(1_000, 9_000_000)]), position('c', null), position('d', [epoch(null, null)])],
      rewards: rewardsOf(2_500_000),
    });
    expect(report).toEqual({ todayTotalRaw: 2_500_000, markets: [{ marketSlug: 'a', todayRaw: 1_250_000 }] });
  });

  it('an answer without rewards reads as nothing known (null total), not as zero', () => {
    expect(venueRewardsOf({ clob: [position('a', null)] })).toEqual({ todayTotalRaw: null, markets: [] });
  });
});
