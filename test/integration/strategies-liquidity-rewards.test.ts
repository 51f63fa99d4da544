/**
 * liquidity-rewards on the simulator: ten virtual minutes of synthetic flow (informed takers on) through
 * the real matching engine and the bot's own gate and reconcile (src/backtest). It must quote both sides
 * most of the time inside the reward band (so its resting orders score under the venue's formula), get
 * filled, and keep inventory within the risk limits — checked after every fill. The cool-off after a fill
 * is 2 s instead of the bot's default 10 s: a rewards maker wants its quotes back at once (with 10 s the
 * frequent fills leave it one-sided a third of the time; that trade-off is visible in the backtest).
 */
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import liquidityRewards from '../../strategies/liquidity-rewards.js';
import { expectSoundRun, InventoryWatch, LIMITS, scenario, VIRTUAL_MINUTES } from './strategies-fixtures.js';

const ORDERS = { coolOffMs: 2000 };

describe('liquidity-rewards backtest on the simulator (10 virtual minutes, informed flow on)', () => {
  it('quotes both sides most of the time inside the reward band, gets filled, and keeps inventory within the risk limits', async () => {
    const watch = new InventoryWatch(LIMITS.maxNetPositionRaw, LIMITS.maxPositionPerTokenRaw);
    const result = await runBacktest({ ...scenario(liquidityRewards, {}, 3, { orders: ORDERS }), observer: { onFill: watch.onFill } });

    expectSoundRun(result, watch, { maxNetRaw: LIMITS.maxNetPositionRaw, maxTokenRaw: LIMITS.maxPositionPerTokenRaw });
    expect(result.quotingFraction).toBeGreaterThan(0.85);
    expect(result.twoSidedFraction).toBeGreaterThan(0.6);
    expect(result.fills).toBeGreaterThanOrEqual(10);
    // Its orders rest inside the band at or above the minimum size: they score, and the strategy expects it.
    for (const market of result.markets) {
      expect(market.expectedRewardPerDay).toBeGreaterThan(0);
      expect(market.scoredRewardUsdc).toBeGreaterThan(0);
      // Never more than the whole pool over the run.
      expect(market.scoredRewardUsdc).toBeLessThanOrEqual((market.dailyRewardRaw / 1e6) * (VIRTUAL_MINUTES / 1440) + 1e-9);
    }
  });

  it('quotes nothing where the market pays no reward', async () => {
    const markets = scenario(liquidityRewards, {}, 3).markets;
    const unpaid = Array.isArray(markets) ? markets.map((m) => ({ ...m, isRewardable: false, settings: { ...m.settings, dailyRewardRaw: 0 } })) : [];
    const result = await runBacktest({ ...scenario(liquidityRewards, {}, 3), markets: unpaid });
    expect(unpaid).toHaveLength(2);
    expect(result.requests.placements).toBe(0);
    expect(result.fills).toBe(0);
    expect(result.quotingFraction).toBe(0);
    expect(result.engineInvariantViolations).toEqual([]);
  });

  it('is deterministic: the same seed gives the identical result', async () => {
    const first = await runBacktest(scenario(liquidityRewards, {}, 7, { orders: ORDERS }));
    const again = await runBacktest(scenario(liquidityRewards, {}, 7, { orders: ORDERS }));
    expect(again).toEqual(first);
  });
});
