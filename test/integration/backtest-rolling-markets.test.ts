/**
 * Markets that come and go, through the backtest's public entry (runBacktest): a 24-hour virtual soak shows the memory
 * of the trading core (the executor's markets and tracked orders, the runner's and the account's markets, the feed's
 * books, the cached market keys) bounded while 24 ladders roll; no placement leaves past its market's stop; `admits`
 * picks the markets joined. `backtest --synthetic` on rolling ladders: backtest-rolling-synthetic.test.ts (a file of
 * its own so the two `backtest` workers run them side by side). CPU-bound (the `backtest` project).
 */
import { describe, expect, it } from 'vitest';
import { runBacktest, type BacktestOptions } from '../../src/backtest/index.js';
import { DEFAULT_PRICER_SETTINGS } from '../../src/pricing/market-pricer.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS } from '../../src/sim/engine/index.js';
import fixedSpread from '../../strategies/fixed-spread.js';
import { hangBound } from '../support/hang-bound.js';

const HOUR_MS = 3_600_000;
const START_MS = Date.UTC(2026, 0, 1);

/**
 * Recurring hourly BTC ladders of `strikes` on coarse steps and requotes (these runs are about markets coming and
 * going, not quoting): 24 h in a few seconds of CPU.
 */
function coarse(hours: number, strikes: number, overrides: Partial<BacktestOptions> = {}): BacktestOptions {
  return {
    strategy: { module: fixedSpread, params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 10, inventoryRange: 50 } },
    seed: 3,
    startMs: START_MS,
    durationMs: hours * HOUR_MS,
    stepMs: 10_000,
    requoteIntervalMs: 20_000,
    quoteOnBookChange: false,
    world: {
      underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC'), leadMs: 1500 },
      markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['hourly'], strikesPerExpiry: strikes, recurring: true },
    },
    pricing: DEFAULT_PRICER_SETTINGS,
    risk: { stopBeforeExpiryMs: DEFAULT_PRICER_SETTINGS.stopBeforeSettlementMs },
    ...overrides,
  };
}

describe('rolling markets in the backtest', () => {
  it('24 virtual hours: 24 ladders roll through, and the core’s memory at hour 24 is what it was at hour 2', async () => {
    const result = await runBacktest(coarse(24, 1));
    expect(result.engineInvariantViolations).toEqual([]);
    expect(result.roll).toMatchObject({ joined: 24, left: 24, refused: 0, uncleanLeaves: 0 });
    expect(result.markets.filter((m) => m.fills > 0).length).toBeGreaterThanOrEqual(20);
    // Every ladder settled within the run: valued at its payout (YES paid 1 or 0), nothing left unrealized.
    for (const market of result.markets) {
      expect([0, 1000], market.slug).toContain(market.finalFairTicks);
      expect(market.unrealizedRaw, market.slug).toBe(0);
    }
    const hourly = result.roll.state.slice(0, 24);
    expect(hourly.map((s) => s.atMs)).toEqual(Array.from({ length: 24 }, (_, h) => START_MS + h * HOUR_MS + HOUR_MS / 2));
    const [atHour2, atHour24] = [hourly[1]!, hourly[23]!];
    for (const sample of hourly) {
      // One ladder traded (one strike); at most one left market still waiting to be dropped beside it.
      expect([sample.markets, sample.runnerMarkets, sample.accountMarkets, sample.feedMarkets], new Date(sample.atMs).toISOString()).toEqual([1, 1, 1, 1]);
      expect(sample.executorMarkets).toBeLessThanOrEqual(2);
      expect(sample.orderIndexMarkets).toBeLessThanOrEqual(2);
      expect(sample.marketKeys).toBeLessThanOrEqual(2);
      expect(sample.membershipOps).toBe(0);
      // Terminal orders are kept a minute past their settlement (RETAIN_TERMINAL_MS): a bound set by the quoting rate.
      expect(sample.trackedOrders).toBeLessThanOrEqual(60);
    }
    expect(atHour24.executorMarkets).toBeLessThanOrEqual(atHour2.executorMarkets);
    expect(atHour24.trackedOrders).toBeLessThanOrEqual(Math.max(2 * atHour2.trackedOrders, 60));
    // Its speed (about 13 s of CPU, docs/backtest.md) is a measurement, not an assertion: a timed test fails on a
    // loaded machine and proves nothing on an idle one.
  }, hangBound(180_000));

  it('under a saturated limit no placement leaves at or after its market\'s stop: those queued then are withheld and counted', async () => {
    const stopBeforeMs = DEFAULT_PRICER_SETTINGS.stopBeforeSettlementMs;
    const stops = new Map<string, number>();
    const landed: { slug: string; atMs: number }[] = [];
    const seen = new Set<string>();
    // BTC and ETH ladders of 2 strikes, 2 levels a side, settling 4 minutes in; requotes as a cancel and a placement
    // each (no cancel-replace, no cross-market batches): every placement is a request of its own in the queue.
    const result = await runBacktest(
      coarse(5 / 60, 2, {
        startMs: START_MS + HOUR_MS - 4 * 60_000,
        stepMs: 1000,
        requoteIntervalMs: 5000,
        quoteOnBookChange: true,
        strategy: { module: fixedSpread, params: { bidSpread: 0.01, askSpread: 0.01, levels: 2, orderSize: 10, inventoryRange: 50 } },
        seed: 11,
        crossMarketBatches: false,
        orders: { cancelReplace: { enabled: false } },
        world: {
          underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC' || u.ticker === 'ETH'), leadMs: 1500 },
          markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['hourly'], strikesPerExpiry: 2, recurring: false },
        },
        observer: {
          onStart: (view) => {
            for (const market of view.markets) stops.set(market.slug, market.expirationMs - stopBeforeMs);
            view.onOrderChange((slug) => {
              for (const order of view.restingOrders(slug)) {
                if (!seen.has(order.id)) landed.push({ slug, atMs: order.createdAtMs });
                seen.add(order.id);
              }
            });
          },
        },
      }),
    );
    expect(stops.size).toBe(4);
    expect(result.roll).toMatchObject({ joined: 4, left: 4, uncleanLeaves: 0 });
    expect(landed.length).toBeGreaterThan(20);
    // A placement lands one way (50 ms) after it left the limiter: none left at or after its market's stop.
    for (const order of landed) expect(order.atMs, order.slug).toBeLessThan((stops.get(order.slug) ?? 0) + 50);
    // The placements waiting in the queue at the stops were withheld as they left, counted apart from the requests sent.
    expect(result.requests.withheld).toBeGreaterThan(0);
    expect(result.engineInvariantViolations).toEqual([]);
  }, hangBound(60_000));

  it('admits(market, nowMs) picks the markets joined: asked once per market as it is listed; the others are never traded', async () => {
    const asked: string[] = [];
    const result = await runBacktest(
      coarse(3, 2, {
        admits: (market, nowMs) => {
          asked.push(`${new Date(nowMs).toISOString().slice(11, 16)} settles ${new Date(market.expiresAtMs ?? 0).toISOString().slice(11, 16)}`);
          // Not the ladder listed at the start; of each later one, the second listed (the higher strike).
          return nowMs > START_MS && asked.length % 2 === 0;
        },
      }),
    );
    expect(asked).toEqual(['00:00 settles 01:00', '00:00 settles 01:00', '01:00 settles 02:00', '01:00 settles 02:00', '02:00 settles 03:00', '02:00 settles 03:00']);
    expect(result.roll).toMatchObject({ joined: 2, left: 2, refused: 4, uncleanLeaves: 0 });
    expect(result.markets.map((m) => new Date(m.expiresAtMs ?? 0).toISOString().slice(11, 16))).toEqual(['02:00', '03:00']);
    expect(result.requests.placements).toBeGreaterThan(0);
    expect(result.engineInvariantViolations).toEqual([]);
  }, hangBound(120_000));
});
