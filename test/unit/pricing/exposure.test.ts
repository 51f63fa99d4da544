import { describe, expect, it } from 'vitest';
import { exposureByTicker, sidesUnderCap } from '../../../src/pricing/exposure.js';

describe('exposure per underlying', () => {
  it('sums net YES × delta over the markets of each ticker, in units and in USDC', () => {
    const e = exposureByTicker([
      { ticker: 'BTC', netYesShares: 100, delta: 0.001, spot: 90_000 }, // +0.1 BTC
      { ticker: 'BTC', netYesShares: -40, delta: 0.0005, spot: 90_000 }, // −0.02 BTC
      { ticker: 'ETH', netYesShares: 10, delta: 0.002, spot: 3_000 }, // +0.02 ETH
      { ticker: 'ETH', netYesShares: 10, delta: Number.NaN, spot: 3_000 }, // ignored
    ]);
    expect(e.get('BTC')?.units).toBeCloseTo(0.08, 12);
    expect(e.get('BTC')?.usdc).toBeCloseTo(7_200, 9);
    expect(e.get('ETH')).toEqual({ units: 0.02, usdc: 60 });
  });

  it('past the cap quotes only the side that reduces the exposure', () => {
    expect(sidesUnderCap(0, 1000)).toEqual({ bids: true, asks: true });
    expect(sidesUnderCap(1000, 1000)).toEqual({ bids: false, asks: true });
    expect(sidesUnderCap(-1500, 1000)).toEqual({ bids: true, asks: false });
  });
});
