import { describe, expect, it } from 'vitest';
import { RAW_PER_UNIT } from '../../../src/core/venue-rules/index.js';
import { buildYesLadder, effectiveBand, limitPrice, roundIntent, roundShares, yesTermsBand } from '../../../src/strategy/rounding.js';
import type { YesLadderSpec } from '../../../src/strategy/rounding.js';
import { market } from '../../support/views.js';

const m = market({ band: { minTicks: 10, maxTicks: 990 } });
const shares = (n: number): number => n * RAW_PER_UNIT;

function ladder(spec: Partial<YesLadderSpec>, info = m) {
  return buildYesLadder({ bids: [], asks: [], fair: null, postOnly: true, yesToSellRaw: 0, ...spec }, info);
}

describe('rounding boundary', () => {
  it('rounds sizes down to the step and drops what falls below the minimum', () => {
    expect(roundShares(10.0009)).toBe(10_000_000);
    expect(roundShares(7.123)).toBe(7_123_000);
    expect(roundShares(0.0009)).toBeNull();
    expect(roundShares(0)).toBeNull();
    expect(roundShares(-5)).toBeNull();
    expect(roundShares(Number.NaN)).toBeNull();
    expect(roundShares(Number.POSITIVE_INFINITY)).toBeNull();
    expect(roundShares(9.9999, shares(10))).toBeNull();
    expect(roundShares(10, shares(10))).toBe(shares(10));
  });

  it('rounds BUY down and SELL up, limits the aggressive side and drops (or clamps) the passive side', () => {
    expect(limitPrice(0.5555, 'BUY', 10, 990, 'drop')).toBe(555);
    expect(limitPrice(0.5551, 'SELL', 10, 990, 'drop')).toBe(556);
    expect(limitPrice(0.555, 'SELL', 10, 990, 'drop')).toBe(555);
    // aggressive overflow: always limited
    expect(limitPrice(0.995, 'BUY', 10, 990, 'drop')).toBe(990);
    expect(limitPrice(0.002, 'SELL', 10, 990, 'drop')).toBe(10);
    // passive overflow: the nearest legal price is more aggressive than asked
    expect(limitPrice(0.005, 'BUY', 10, 990, 'drop')).toBeNull();
    expect(limitPrice(0.005, 'BUY', 10, 990, 'clamp')).toBe(10);
    expect(limitPrice(-3, 'BUY', 10, 990, 'clamp')).toBe(10);
    expect(limitPrice(0.999, 'SELL', 10, 990, 'drop')).toBeNull();
    expect(limitPrice(7, 'SELL', 10, 990, 'clamp')).toBe(990);
    expect(limitPrice(Number.NaN, 'BUY', 10, 990, 'clamp')).toBeNull();
    expect(limitPrice(0.5, 'BUY', 600, 500, 'clamp')).toBeNull();
  });

  it('intersects the band with the venue range', () => {
    expect(effectiveBand(market({ band: { minTicks: 0, maxTicks: 1200 } }))).toEqual({ minTicks: 1, maxTicks: 999 });
    expect(effectiveBand(market({ band: { minTicks: 600, maxTicks: 500 } }))).toBeNull();
    expect(effectiveBand(market({ band: { minTicks: Number.NaN, maxTicks: 500 } }))).toBeNull();
    expect(yesTermsBand({ minTicks: 100, maxTicks: 950 }, 'NO')).toEqual({ minTicks: 50, maxTicks: 900 });
  });

  it('rounds one intent onto the grid', () => {
    expect(roundIntent({ slot: 'x', token: 'NO', side: 'BUY', price: 0.4019, shares: 3.0004, postOnly: true }, m)).toEqual({
      slot: 'x', token: 'NO', side: 'BUY', priceTicks: 401, sizeRaw: 3_000_000, postOnly: true,
    });
    expect(roundIntent({ slot: 'x', token: 'YES', side: 'SELL', price: 0.4011, shares: 1 }, m)).toEqual({
      slot: 'x', token: 'YES', side: 'SELL', priceTicks: 402, sizeRaw: 1_000_000,
    });
    expect(roundIntent({ slot: 'x', token: 'YES', side: 'SELL', price: 0.5, shares: 0.5 }, m, { minSizeRaw: shares(1) })).toBeNull();
    expect(roundIntent({ slot: 'x', token: 'YES', side: 'BUY', price: 0.001, shares: 5 }, m)).toBeNull();
    expect(roundIntent({ slot: 'x', token: 'YES', side: 'BUY', price: 0.001, shares: 5 }, m, { outOfBand: 'clamp' })?.priceTicks).toBe(10);
  });
});

describe('buildYesLadder', () => {
  it('quotes bids as BUY YES and uncovered asks as BUY NO at the exact complement, same slots', () => {
    const out = ladder({ bids: [{ price: 0.4807, shares: 10 }], asks: [{ price: 0.5203, shares: 10 }], fair: 0.5 });
    expect(out).toEqual([
      { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 480, sizeRaw: shares(10), postOnly: true },
      // YES ask 0.5203 rounds UP to 521 → BUY NO at 1000 − 521 = 479 (the NO BUY rounded down).
      { slot: 'ask-0', token: 'NO', side: 'BUY', priceTicks: 479, sizeRaw: shares(10), postOnly: true },
    ]);
  });

  it('sells held YES for asks it fully covers, best first, and buys NO for the rest', () => {
    const out = ladder({
      asks: [{ price: 0.52, shares: 10 }, { price: 0.53, shares: 10 }, { price: 0.54, shares: 3 }],
      fair: 0.5,
      yesToSellRaw: shares(15),
    });
    expect(out.map((i) => [i.slot, i.token, i.side, i.priceTicks])).toEqual([
      ['ask-0', 'YES', 'SELL', 520],
      ['ask-1', 'NO', 'BUY', 470],
      ['ask-2', 'YES', 'SELL', 540],
    ]);
  });

  it('sells held NO for bids it covers (SELL NO at 1 − p)', () => {
    const out = ladder({ bids: [{ price: 0.48, shares: 5 }, { price: 0.47, shares: 5 }], fair: 0.5, noToSellRaw: shares(5) });
    expect(out.map((i) => [i.slot, i.token, i.side, i.priceTicks])).toEqual([
      ['bid-0', 'NO', 'SELL', 520],
      ['bid-1', 'YES', 'BUY', 470],
    ]);
  });

  it('keeps bids strictly below and asks strictly above the fair price', () => {
    const onTick = ladder({ bids: [{ price: 0.5, shares: 1 }], asks: [{ price: 0.5, shares: 1 }], fair: 0.5 });
    expect(onTick.map((i) => [i.slot, i.priceTicks])).toEqual([['bid-0', 499], ['ask-0', 499]]); // ask 501 as BUY NO 499
    const between = ladder({ bids: [{ price: 0.5006, shares: 1 }], asks: [{ price: 0.5004, shares: 1 }], fair: 0.5005, yesToSellRaw: shares(1) });
    expect(between.map((i) => [i.slot, i.side, i.priceTicks])).toEqual([['bid-0', 'BUY', 500], ['ask-0', 'SELL', 501]]);
  });

  it('keeps post-only quotes behind the touch; not when post-only is off', () => {
    const touch = { bestBidTicks: 495, bestAskTicks: 497 };
    const base = { fair: null, yesToSellRaw: shares(2), touch };
    const bidThrough = { ...base, bids: [{ price: 0.499, shares: 1 }], asks: [{ price: 0.5, shares: 1 }] };
    expect(ladder(bidThrough).map((i) => i.priceTicks)).toEqual([496, 500]);
    expect(ladder({ ...bidThrough, postOnly: false }).map((i) => i.priceTicks)).toEqual([499, 500]);
    const askThrough = { ...base, bids: [{ price: 0.49, shares: 1 }], asks: [{ price: 0.493, shares: 1 }] };
    expect(ladder(askThrough).map((i) => i.priceTicks)).toEqual([490, 496]);
    expect(ladder({ ...askThrough, postOnly: false }).map((i) => i.priceTicks)).toEqual([490, 493]);
  });

  it('without a fair price, drops quotes that would cross each other', () => {
    const out = ladder({ bids: [{ price: 0.5, shares: 1 }, { price: 0.45, shares: 1 }], asks: [{ price: 0.48, shares: 1 }, { price: 0.55, shares: 1 }], postOnly: false, yesToSellRaw: shares(10) });
    expect(out.map((i) => i.slot)).toEqual(['bid-1', 'ask-1']);
  });

  it('applies the band in the order token\'s own prices, and keeps slot numbers when a level drops', () => {
    const asym = market({ band: { minTicks: 100, maxTicks: 950 } });
    // A YES ask at 0.96 is above the YES band, but as BUY NO at 0.04 it is below the NO band: dropped either way.
    // A YES ask at 0.92 as BUY NO at 0.08 is below 100: dropped; as SELL YES it is fine.
    const noInventory = ladder({ asks: [{ price: 0.92, shares: 1 }, { price: 0.5, shares: 1 }], fair: 0.4 }, asym);
    expect(noInventory.map((i) => [i.slot, i.token, i.priceTicks])).toEqual([['ask-1', 'NO', 500]]);
    const withYes = ladder({ asks: [{ price: 0.92, shares: 1 }], fair: 0.4, yesToSellRaw: shares(1) }, asym);
    expect(withYes.map((i) => [i.slot, i.token, i.priceTicks])).toEqual([['ask-0', 'YES', 920]]);
  });

  it('drops levels with no size, NaN prices, or sizes below the minimum, and a market with no band', () => {
    const out = ladder({
      bids: [{ price: Number.NaN, shares: 1 }, { price: 0.4, shares: 0 }, { price: 0.4, shares: 0.5 }, { price: 0.4, shares: 2 }],
      fair: 0.5,
      minSizeRaw: shares(1),
    });
    expect(out.map((i) => i.slot)).toEqual(['bid-3']);
    expect(ladder({ bids: [{ price: 0.4, shares: 2 }], fair: 0.5 }, market({ band: { minTicks: 700, maxTicks: 300 } }))).toEqual([]);
  });

  it('gives every intent the post-only flag of the spec', () => {
    const out = ladder({ bids: [{ price: 0.4, shares: 2 }], fair: 0.5, postOnly: false });
    expect(out[0]?.postOnly).toBe(false);
  });
});
