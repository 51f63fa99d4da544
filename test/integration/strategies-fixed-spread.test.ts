/**
 * fixed-spread on the simulator: ten virtual minutes of synthetic flow (informed takers on) through the
 * real matching engine and the bot's own gate and reconcile (src/backtest). It must quote both sides most
 * of the time, get filled, and never hold more than the risk limits allow — checked after every fill.
 */
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import fixedSpread from '../../strategies/fixed-spread.js';
import { expectSoundRun, InventoryWatch, LIMITS, scenario, SHARES } from './strategies-fixtures.js';

const PARAMS = { bidSpread: 0.01, askSpread: 0.01, orderSize: 10 };

describe('fixed-spread backtest on the simulator (10 virtual minutes, informed flow on)', () => {
  it('quotes both sides most of the time, gets filled, and keeps inventory within the risk limits', async () => {
    const watch = new InventoryWatch(LIMITS.maxNetPositionRaw, LIMITS.maxPositionPerTokenRaw);
    const result = await runBacktest({ ...scenario(fixedSpread, PARAMS, 1), observer: { onFill: watch.onFill } });

    expectSoundRun(result, watch, { maxNetRaw: LIMITS.maxNetPositionRaw, maxTokenRaw: LIMITS.maxPositionPerTokenRaw });
    expect(result.quotingFraction).toBeGreaterThan(0.85);
    expect(result.twoSidedFraction).toBeGreaterThan(0.5);
    for (const market of result.markets) {
      expect(market.twoSidedFraction).toBeGreaterThan(0.5);
      expect(market.fills).toBeGreaterThan(0);
    }
    expect(result.fills).toBeGreaterThanOrEqual(10);
    expect(result.volumeRaw).toBeGreaterThan(0);
    // Maker only (post-only quotes): no taker fee was ever paid.
    expect(result.feesRaw).toBe(0);
  });

  it('holds a tight net limit: the gate trims and drops the side that would breach it, never more', async () => {
    const tight = { maxPositionPerTokenRaw: 60 * SHARES, maxNetPositionRaw: 30 * SHARES };
    const watch = new InventoryWatch(tight.maxNetPositionRaw, tight.maxPositionPerTokenRaw);
    const result = await runBacktest({ ...scenario(fixedSpread, PARAMS, 2, { risk: tight }), observer: { onFill: watch.onFill } });

    expectSoundRun(result, watch, { maxNetRaw: tight.maxNetPositionRaw, maxTokenRaw: tight.maxPositionPerTokenRaw });
    // The limit was reached and did the work (not a vacuous pass).
    expect(result.maxAbsInventoryRaw).toBe(tight.maxNetPositionRaw);
    expect((result.counters.riskDrops['max-net-position'] ?? 0) + (result.counters.riskTrims['max-net-position'] ?? 0)).toBeGreaterThan(0);
  });

  it('is deterministic: the same seed gives the identical result, another seed another', async () => {
    const first = await runBacktest(scenario(fixedSpread, PARAMS, 3));
    const again = await runBacktest(scenario(fixedSpread, PARAMS, 3));
    const other = await runBacktest(scenario(fixedSpread, PARAMS, 4));
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(other.fills === first.fills && other.pnlRaw === first.pnlRaw && other.requests.total === first.requests.total).toBe(false);
  });
});
