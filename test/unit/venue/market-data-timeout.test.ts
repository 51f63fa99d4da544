/** The REST book fetch timeout for the number of markets (src/venue/market-data.ts `snapshotFetchTimeoutMs`). */
import { describe, expect, it } from 'vitest';
import { snapshotFetchTimeoutMs } from '../../../src/venue/market-data.js';

describe('snapshotFetchTimeoutMs', () => {
  it('is 10 s plus two request spacings per market: a first book waits behind a sync of every market', () => {
    expect(snapshotFetchTimeoutMs(50, 320)).toBe(10_000 + 2 * 50 * 320);
    expect(snapshotFetchTimeoutMs(1, 320)).toBe(10_640);
  });

  it('counts at least one market and no negative spacing', () => {
    expect(snapshotFetchTimeoutMs(0, 320)).toBe(10_640);
    expect(snapshotFetchTimeoutMs(3, -5)).toBe(10_000);
  });
});
