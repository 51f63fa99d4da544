import { describe, expect, it } from 'vitest';
import { RAW_PER_UNIT } from '../../../src/core/venue-rules/index.js';
import type { MarketView, QuoteIntent } from '../../../src/strategy/contract.js';
import fixedSpread, { fixedSpreadParamsSchema } from '../../../strategies/fixed-spread.js';
import type { FixedSpreadParams } from '../../../strategies/fixed-spread.js';
import { HOUR, T0, view } from '../../support/views.js';

const shares = (n: number): number => n * RAW_PER_UNIT;

function quote(params: Partial<FixedSpreadParams>, v: MarketView): QuoteIntent[] {
  return fixedSpread.create(fixedSpreadParamsSchema.parse(params)).quote(v);
}

function table(intents: readonly QuoteIntent[]): [string, string, string, number, number][] {
  return intents.map((i) => [i.slot, i.token, i.side, i.priceTicks, i.sizeRaw / RAW_PER_UNIT]);
}

describe('fixed-spread', () => {
  it('quotes a bid and an ask (as BUY NO when no YES is held) around the mid', () => {
    const intents = quote({}, view());
    expect(intents).toEqual([
      { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 480, sizeRaw: shares(10), postOnly: true },
      { slot: 'ask-0', token: 'NO', side: 'BUY', priceTicks: 480, sizeRaw: shares(10), postOnly: true },
    ]);
  });

  it('builds N levels with spacing and size increments', () => {
    const intents = quote({ levels: 3, levelSpacing: 0.01, sizeIncrement: 5, bidSpread: 0.03, askSpread: 0.04 }, view());
    expect(table(intents)).toEqual([
      ['bid-0', 'YES', 'BUY', 470, 10],
      ['bid-1', 'YES', 'BUY', 460, 15],
      ['bid-2', 'YES', 'BUY', 450, 20],
      ['ask-0', 'NO', 'BUY', 460, 10],
      ['ask-1', 'NO', 'BUY', 450, 15],
      ['ask-2', 'NO', 'BUY', 440, 20],
    ]);
  });

  it('rounds once at the boundary: bids down, asks up', () => {
    // mid 0.5005; bid 0.5005 − 0.0102 = 0.4903 → 490; ask 0.5005 + 0.0102 = 0.5107 → 511 → BUY NO 489
    const v = view({ book: { bids: [[500, 10]], asks: [[501, 10]] } });
    expect(table(quote({ bidSpread: 0.0102, askSpread: 0.0102, minSpread: 0 }, v))).toEqual([
      ['bid-0', 'YES', 'BUY', 490, 10],
      ['ask-0', 'NO', 'BUY', 489, 10],
    ]);
  });

  it('sells held YES for asks it covers and buys NO for the rest (same slots)', () => {
    const v = view({ position: { yesRaw: shares(15) } });
    const intents = quote({ levels: 2, sizeSkew: 0, maxPriceShift: 0 }, v);
    expect(table(intents)).toEqual([
      ['bid-0', 'YES', 'BUY', 480, 10],
      ['bid-1', 'YES', 'BUY', 470, 10],
      ['ask-0', 'YES', 'SELL', 520, 10],
      ['ask-1', 'NO', 'BUY', 470, 10],
    ]);
  });

  it('skews sizes and shifts prices toward the inventory target, bounded', () => {
    // net +50 of range 100: d = 0.5 → centre 0.5 − 0.005; bid size 10·0.5, ask size 10·1.5
    const long = view({ position: { yesRaw: shares(50) } });
    expect(table(quote({}, long))).toEqual([
      ['bid-0', 'YES', 'BUY', 475, 5],
      ['ask-0', 'YES', 'SELL', 515, 15],
    ]);
    // far beyond the range: d = 1 → no bid at all, shift capped at maxPriceShift
    const veryLong = view({ position: { yesRaw: shares(5000) } });
    expect(table(quote({}, veryLong))).toEqual([['ask-0', 'YES', 'SELL', 510, 20]]);
    // short (NO held) mirrors it: the bid sells held NO
    const short = view({ position: { noRaw: shares(50) } });
    expect(table(quote({}, short))).toEqual([
      ['bid-0', 'NO', 'SELL', 515, 15],
      ['ask-0', 'NO', 'BUY', 475, 5],
    ]);
    // a target: holding exactly the target means no skew
    expect(table(quote({ inventoryTarget: 50 }, long))).toEqual([
      ['bid-0', 'YES', 'BUY', 480, 10],
      ['ask-0', 'YES', 'SELL', 520, 10],
    ]);
  });

  it('never quotes closer than minSpread to the centre', () => {
    expect(table(quote({ bidSpread: 0.001, askSpread: 0.002, minSpread: 0.005 }, view()))).toEqual([
      ['bid-0', 'YES', 'BUY', 495, 10],
      ['ask-0', 'NO', 'BUY', 495, 10],
    ]);
  });

  it('uses the configured reference with fallback, and quotes nothing without one', () => {
    const imbalanced = view({ book: { bids: [[480, 10]], asks: [[520, 90]], adjustedMidpoint: 0.45 } });
    // microprice = (480·90 + 520·10)/100 = 484
    expect(quote({ referencePrice: ['microprice'], minSpread: 0 }, imbalanced).map((i) => i.priceTicks)).toEqual([464, 496]);
    // around 0.45: bid 0.43; ask 0.47 would cross the best bid 0.48, so post-only keeps it at 0.481 (BUY NO 519)
    expect(quote({ referencePrice: ['adjustedMidpoint', 'mid'], minSpread: 0 }, imbalanced).map((i) => i.priceTicks)).toEqual([430, 519]);
    const oneSided = view({ book: { bids: [[480, 10]], adjustedMidpoint: 0.47 } });
    expect(quote({}, oneSided).map((i) => i.priceTicks)).toEqual([450, 510]);
    expect(quote({ referencePrice: ['mid', 'microprice'] }, oneSided)).toEqual([]);
    expect(quote({}, view({ book: { adjustedMidpoint: null } }))).toEqual([]);
    expect(quote({}, view({ book: { bids: [[530, 10]], asks: [[520, 10]] } }))).toEqual([]);
  });

  it('does not chase its own quotes: the reference excludes the bot\'s orders', () => {
    const strategy = fixedSpread.create(fixedSpreadParamsSchema.parse({ bidSpread: 0.005, askSpread: 0.005, minSpread: 0 }));
    const first = strategy.quote(view({ book: { bids: [[450, 100]], asks: [[550, 100]] }, position: { yesRaw: shares(30) } }));
    expect(table(first)).toEqual([
      ['bid-0', 'YES', 'BUY', 492, 7],
      ['ask-0', 'YES', 'SELL', 502, 13],
    ]);
    // Those orders now rest on the book and are its touch; the next quote must not move.
    const withOwn = view({ book: { bids: [[492, 7], [450, 100]], asks: [[502, 13], [550, 100]] }, position: { yesRaw: shares(30) } });
    expect(strategy.quote(withOwn)).toEqual(first);
    // The same with the runner passing the live orders explicitly.
    const fresh = fixedSpread.create(fixedSpreadParamsSchema.parse({ bidSpread: 0.005, askSpread: 0.005, minSpread: 0 }));
    expect(fresh.quote(view({ ...withOwn, yes: withOwn.yes, ownOrders: first }))).toEqual(first);
  });

  it('only sells at or above the ceiling and only buys at or below the floor', () => {
    expect(quote({ priceCeiling: 0.5 }, view()).map((i) => i.slot)).toEqual(['ask-0']);
    expect(quote({ priceFloor: 0.5 }, view()).map((i) => i.slot)).toEqual(['bid-0']);
    expect(quote({ priceCeiling: 0.6, priceFloor: 0.4 }, view()).map((i) => i.slot)).toEqual(['bid-0', 'ask-0']);
  });

  it('keeps within the market band and drops what cannot be placed as asked', () => {
    const v = view({ book: { bids: [[100, 10]], asks: [[120, 10]] }, market: { band: { minTicks: 100, maxTicks: 900 } } });
    // bid 0.11 − 0.02 = 0.09 < band: dropped; ask 0.13 as BUY NO 0.87: fine
    expect(table(quote({}, v))).toEqual([['ask-0', 'NO', 'BUY', 870, 10]]);
  });

  it('keeps post-only quotes behind the touch', () => {
    const v = view({ book: { bids: [[480, 10]], asks: [[490, 10]], adjustedMidpoint: 0.6 } });
    expect(quote({ referencePrice: ['adjustedMidpoint'] }, v).map((i) => [i.slot, i.priceTicks])).toEqual([
      ['bid-0', 489],
      ['ask-0', 380],
    ]);
    expect(quote({ referencePrice: ['adjustedMidpoint'], postOnly: false }, v).map((i) => [i.slot, i.priceTicks, i.postOnly])).toEqual([
      ['bid-0', 580, false],
      ['ask-0', 380, false],
    ]);
  });

  it('drops sizes below minOrderSize and quotes nothing after expiry', () => {
    const long = view({ position: { yesRaw: shares(80) } });
    expect(quote({ minOrderSize: 5 }, long).map((i) => i.slot)).toEqual(['ask-0']);
    expect(quote({}, view({ now: T0 + 31 * 24 * HOUR }))).toEqual([]);
  });

  it('reports diagnostics consistent with the last quote', () => {
    const strategy = fixedSpread.create(fixedSpreadParamsSchema.parse({}));
    const v = view({ position: { yesRaw: shares(50) } });
    strategy.quote(v);
    const d = strategy.diagnostics?.(v);
    expect(d).toMatchObject({ quoting: 1, referencePrice: 0.5, inventorySkew: 0.5 });
    expect(d?.['centre']).toBeCloseTo(0.495, 12);
    expect(d?.['expectedRewardPerDay']).toBeGreaterThan(0);
    expect(strategy.diagnostics?.(view({ book: { adjustedMidpoint: null } }))).toEqual({ quoting: 0 });
  });

  it('rejects inconsistent params by name', () => {
    const floorAbove = fixedSpreadParamsSchema.safeParse({ priceCeiling: 0.4, priceFloor: 0.6 });
    expect(floorAbove.success).toBe(false);
    expect(floorAbove.error?.issues[0]?.path).toEqual(['priceFloor']);
    expect(fixedSpreadParamsSchema.safeParse({ bidSpread: 0, askSpread: 0, minSpread: 0 }).success).toBe(false);
    expect(fixedSpreadParamsSchema.safeParse({ levels: 0 }).success).toBe(false);
    expect(fixedSpreadParamsSchema.safeParse({ spread: 0.1 }).success).toBe(false);
  });
});
