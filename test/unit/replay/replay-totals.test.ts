/** The replay report's totals (src/replay/replay-totals.ts): known values of the pooled inventory; no market, no total. */
import { describe, expect, it } from 'vitest';
import { pooledTimeWeightedInventoryRaw, ReplayTotalsError, totalFigures } from '../../../src/replay/replay-totals.js';

describe('the whole run\'s time-weighted |inventory|', () => {
  it('weights each market\'s mean by its time (known values), so it stays within the largest max', () => {
    // 100 shares held over 1 s of one market, 200 over 3 s of another: (100·1 + 200·3) / 4 = 175 (the sum was 300).
    expect(pooledTimeWeightedInventoryRaw([
      { timeWeightedInventoryRaw: 100e6, marketTimeMs: 1_000 },
      { timeWeightedInventoryRaw: 200e6, marketTimeMs: 3_000 },
    ])).toBe(175e6);
    expect(pooledTimeWeightedInventoryRaw([{ timeWeightedInventoryRaw: 5e6, marketTimeMs: 0 }])).toBe(5e6);
    expect(pooledTimeWeightedInventoryRaw([])).toBe(0);
  });
});

describe('totals of no market', () => {
  it('is an error, not a report of zeros', () => {
    expect(() => totalFigures([], { requests: 0, placedRaw: 0, underlyingPrices: 0, refusedPrices: 0, runs: [] })).toThrow(ReplayTotalsError);
  });
});
