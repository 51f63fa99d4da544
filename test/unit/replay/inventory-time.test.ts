/**
 * The replay's time-weighted |inventory| (src/replay/inventory-time.ts) with known values: a market joined at 0 and
 * left at 10 s, sampled every second to the end of a 30 s replay (as the replay samples a market after it left), holding
 * 0 shares for 5 s, then 10; then 10 shares to the end (held until settlement). The mean is over the traded 10 s.
 */
import { describe, expect, it } from 'vitest';
import { inventoryStepRawMs, timeWeightedInventoryRaw } from '../../../src/replay/inventory-time.js';

const SHARE = 1_000_000;

/** The replay's sampling: each second, the |net| at that moment over the second before; traded before the leave. */
function replay(netAt: (s: number) => number, leftAtS: number, endS: number): { mean: number; max: number } {
  let integral = 0;
  let max = 0;
  for (let s = 1; s <= endS; s += 1) {
    const net = netAt(s);
    max = Math.max(max, Math.abs(net));
    // The leave samples at its moment first (traded up to it), then the market is no longer traded.
    integral += inventoryStepRawMs(net, 1_000, s <= leftAtS);
  }
  return { mean: timeWeightedInventoryRaw(integral, leftAtS * 1_000), max };
}

describe('time-weighted |inventory|', () => {
  it('is the mean over the traded time: 5 s at 0 and 5 s at 10 shares → 5, below the max of 10', () => {
    const { mean, max } = replay((s) => (s <= 5 ? 0 : -10 * SHARE), 10, 30);
    expect(mean).toBe(5 * SHARE);
    expect(max).toBe(10 * SHARE);
    expect(mean).toBeLessThanOrEqual(max);
    // Counting the 20 s after the leave against the 10 s traded gave (5·10 + 20·10) / 10 = 25 shares: above the max.
    expect((5 * 10 + 20 * 10) / 10).toBeGreaterThan(10);
  });

  it('never exceeds the max |inventory| of the samples, whatever the path and the leave', () => {
    for (let seed = 1; seed <= 50; seed += 1) {
      const path = (s: number): number => (((s * 7919 + seed * 104_729) % 41) - 20) * SHARE;
      const leftAt = 1 + (seed % 29);
      const { mean, max } = replay(path, leftAt, 30);
      expect(mean).toBeLessThanOrEqual(max);
    }
  });

  it('adds nothing for an empty interval or once the market has left; a market traded under 1 ms counts 1 ms', () => {
    expect(inventoryStepRawMs(-3 * SHARE, 0, true)).toBe(0);
    expect(inventoryStepRawMs(-3 * SHARE, 500, false)).toBe(0);
    expect(inventoryStepRawMs(-3 * SHARE, 500, true)).toBe(1_500 * SHARE);
    expect(timeWeightedInventoryRaw(2 * SHARE, 0)).toBe(2 * SHARE);
  });
});
