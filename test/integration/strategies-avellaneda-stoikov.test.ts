/**
 * avellaneda-stoikov on the simulator: ten virtual minutes of synthetic flow (informed takers on) through
 * the real matching engine and the bot's own gate and reconcile (src/backtest). It must quote both sides
 * most of the time, get filled, and keep |net YES| within its own `maxInventory` and the risk limits —
 * checked after every fill. The horizon is capped at one hour: with the engine's volatility (0.6 log-odds
 * per √hour, which the strategy's online estimate finds) a 24-hour horizon quotes far outside the book.
 */
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import avellanedaStoikov from '../../strategies/avellaneda-stoikov.js';
import { expectSoundRun, InventoryWatch, LIMITS, scenario, SHARES } from './strategies-fixtures.js';

const MAX_INVENTORY_SHARES = 30;
const PARAMS = { horizonCapHours: 1, orderSize: 10, maxInventory: MAX_INVENTORY_SHARES };

describe('avellaneda-stoikov backtest on the simulator (10 virtual minutes, informed flow on)', () => {
  it('quotes both sides most of the time, gets filled, and keeps inventory within its own limit and the risk limits', async () => {
    const maxNetRaw = MAX_INVENTORY_SHARES * SHARES;
    const watch = new InventoryWatch(maxNetRaw, LIMITS.maxPositionPerTokenRaw);
    const result = await runBacktest({ ...scenario(avellanedaStoikov, PARAMS, 2), observer: { onFill: watch.onFill } });

    expectSoundRun(result, watch, { maxNetRaw, maxTokenRaw: LIMITS.maxPositionPerTokenRaw });
    expect(result.quotingFraction).toBeGreaterThan(0.8);
    expect(result.twoSidedFraction).toBeGreaterThan(0.5);
    expect(result.fills).toBeGreaterThanOrEqual(5);
    expect(result.feesRaw).toBe(0);
  });

  it('the GLFT variant also quotes, fills and stays within its limit', async () => {
    const maxNetRaw = MAX_INVENTORY_SHARES * SHARES;
    const watch = new InventoryWatch(maxNetRaw, LIMITS.maxPositionPerTokenRaw);
    const result = await runBacktest({ ...scenario(avellanedaStoikov, { model: 'glft', maxInventory: MAX_INVENTORY_SHARES }, 5), observer: { onFill: watch.onFill } });

    expectSoundRun(result, watch, { maxNetRaw, maxTokenRaw: LIMITS.maxPositionPerTokenRaw });
    expect(result.twoSidedFraction).toBeGreaterThan(0.5);
    expect(result.fills).toBeGreaterThanOrEqual(5);
  });

  it('is deterministic: the same seed gives the identical result', async () => {
    const first = await runBacktest(scenario(avellanedaStoikov, PARAMS, 6));
    const again = await runBacktest(scenario(avellanedaStoikov, PARAMS, 6));
    expect(again).toEqual(first);
  });
});
