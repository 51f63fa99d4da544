import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BookState } from '../../../src/book/book-state.js';
import { BookRejectedError } from '../../../src/book/errors.js';
import { OrderBook } from '../../../src/book/order-book.js';
import type { BookSnapshot } from '../../../src/book/snapshot.js';
import { UnitError, type Level } from '../../../src/core/venue-rules/index.js';
import { ladder, levels, snap } from './helpers/books.js';

function rejection(snapshot: BookSnapshot): BookRejectedError {
  try {
    BookState.fromSnapshot(snapshot);
  } catch (error) {
    if (error instanceof BookRejectedError) return error;
    throw error;
  }
  throw new Error('snapshot was accepted');
}

describe('BookState.fromSnapshot: validation', () => {
  it('accepts a well-formed book and copies its levels', () => {
    const input = snap([[500, 10], [490, 20]], [[510, 5], [520, 7]], 0.505);
    const book = BookState.fromSnapshot(input);
    expect(book.bids).toEqual(input.bids);
    expect(book.asks).toEqual(input.asks);
    expect(book.bids).not.toBe(input.bids);
    expect(book.bestBidTicks).toBe(500);
    expect(book.bestAskTicks).toBe(510);
    expect(book.adjustedMidpoint).toBe(0.505);
  });

  it('accepts empty and one-sided books', () => {
    const empty = BookState.fromSnapshot(snap([], []));
    expect(empty.isEmpty).toBe(true);
    expect(empty.mid).toBeNull();
    expect(empty.microprice).toBeNull();
    expect(empty.depthWithin(5)).toEqual({ bidRaw: 0, askRaw: 0 });
    const bidsOnly = BookState.fromSnapshot(snap([[300, 1]], []));
    expect(bidsOnly.bestBidTicks).toBe(300);
    expect(bidsOnly.bestAskTicks).toBeNull();
    expect(bidsOnly.mid).toBeNull();
  });

  it.each([
    ['crossed', snap([[510, 1]], [[500, 1]]), 'asks[0].priceTicks', /crossed/],
    ['locked', snap([[500, 1]], [[500, 1]]), 'asks[0].priceTicks', /locked/],
    ['bids not descending', snap([[490, 1], [495, 1]], [[510, 1]]), 'bids[1].priceTicks', /strictly descending/],
    ['asks not ascending', snap([[490, 1]], [[520, 1], [510, 1]]), 'asks[1].priceTicks', /strictly ascending/],
    ['duplicate bid price', snap([[490, 1], [490, 2]], [[510, 1]]), 'bids[1].priceTicks', /duplicate/],
    ['duplicate ask price', snap([[490, 1]], [[510, 1], [510, 2]]), 'asks[1].priceTicks', /duplicate/],
    ['price 0', snap([[0, 1]], []), 'bids[0].priceTicks', /integer tick in \[1, 999\]/],
    ['price 1.0 (1000 ticks)', snap([], [[1000, 1]]), 'asks[0].priceTicks', /integer tick/],
    ['off-tick price', { bids: [{ priceTicks: 500.5, sizeRaw: 1 }], asks: [] }, 'bids[0].priceTicks', /integer tick/],
    ['NaN price', { bids: [], asks: [{ priceTicks: Number.NaN, sizeRaw: 1 }] }, 'asks[0].priceTicks', /integer tick/],
    ['zero size', { bids: [{ priceTicks: 500, sizeRaw: 0 }], asks: [] }, 'bids[0].sizeRaw', /positive integer/],
    ['negative size', { bids: [], asks: [{ priceTicks: 500, sizeRaw: -5 }] }, 'asks[0].sizeRaw', /positive integer/],
    ['fractional raw size', { bids: [{ priceTicks: 500, sizeRaw: 1.5 }], asks: [] }, 'bids[0].sizeRaw', /positive integer/],
    ['adjusted midpoint > 1', { ...snap([[500, 1]], []), adjustedMidpoint: 1.2 }, 'adjustedMidpoint', /\[0, 1\]/],
  ] satisfies Array<[string, BookSnapshot, string, RegExp]>)('rejects %s, naming the field and value', (_name, snapshot, field, reason) => {
    const error = rejection(snapshot);
    expect(error.field).toBe(field);
    expect(error.reason).toMatch(reason);
    expect(error.message).toContain(field);
  });

  it('rejects a side whose total size is not a safe integer', () => {
    const huge = Number.MAX_SAFE_INTEGER - 10;
    const error = rejection({ bids: [{ priceTicks: 500, sizeRaw: huge }, { priceTicks: 499, sizeRaw: huge }], asks: [] });
    expect(error.field).toBe('bids[1].sizeRaw');
  });
});

describe('BookState reads', () => {
  const book = BookState.fromSnapshot(snap([[500, 10], [498, 20], [490, 40]], [[510, 30], [511, 5], [530, 1]], 0.504));

  it('computes mid and microprice in price units', () => {
    expect(book.mid).toBeCloseTo(0.505, 12);
    // microprice = (bid × askSize + ask × bidSize) / (bidSize + askSize)
    expect(book.microprice).toBeCloseTo((0.5 * 30 + 0.51 * 10) / 40, 12);
  });

  it('sums depth within N ticks of each touch, inclusive', () => {
    expect(book.depthWithin(0)).toEqual({ bidRaw: 10_000_000, askRaw: 30_000_000 });
    expect(book.depthWithin(1)).toEqual({ bidRaw: 10_000_000, askRaw: 35_000_000 });
    expect(book.depthWithin(2)).toEqual({ bidRaw: 30_000_000, askRaw: 35_000_000 });
    expect(book.depthWithin(10)).toEqual({ bidRaw: 70_000_000, askRaw: 35_000_000 });
    expect(book.depthWithin(999)).toEqual({ bidRaw: 70_000_000, askRaw: 36_000_000 });
    expect(book.totalBidRaw).toBe(70_000_000);
    expect(book.totalAskRaw).toBe(36_000_000);
  });

  it('rejects a bad depth distance with a typed error', () => {
    expect(() => book.depthWithin(-1)).toThrow(UnitError);
    expect(() => book.depthWithin(1.5)).toThrow(/non-negative integer/);
  });
});

describe('NO view', () => {
  const yes = BookState.fromSnapshot(snap([[400, 10], [390, 20]], [[420, 5], [450, 7]], 0.41));
  const no = yes.complement();

  it('puts NO bids at 1 − YES asks and NO asks at 1 − YES bids, sizes carried over, best first', () => {
    expect(no.bids).toEqual(levels([[580, 5], [550, 7]]));
    expect(no.asks).toEqual(levels([[600, 10], [610, 20]]));
    expect(no.bestBidTicks).toBe(580);
    expect(no.bestAskTicks).toBe(600);
    expect(no.mid).toBeCloseTo(1 - yes.mid!, 12);
    expect(no.microprice).toBeCloseTo(1 - yes.microprice!, 12);
    expect(no.adjustedMidpoint).toBeCloseTo(0.59, 12);
    expect(no.depthWithin(30)).toEqual({ bidRaw: 12_000_000, askRaw: 30_000_000 });
  });

  it('is cached, and its complement is the YES book itself', () => {
    expect(yes.complement()).toBe(no);
    expect(no.complement()).toBe(yes);
  });

  it('property: rebuilding a snapshot from the NO view and taking its complement gives the YES book back', () => {
    const side = fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { maxLength: 60 });
    fc.assert(
      fc.property(side, fc.array(fc.integer({ min: 1, max: 5_000_000_000 }), { minLength: 120, maxLength: 120 }), (prices, sizes) => {
        // Split the unique prices into a non-crossed book: the lower half bids, the upper half asks.
        const sorted = [...prices].sort((a, b) => a - b);
        const cut = Math.floor(sorted.length / 2);
        const bids: Level[] = sorted.slice(0, cut).reverse().map((p, i) => ({ priceTicks: p, sizeRaw: sizes[i]! }));
        const asks: Level[] = sorted.slice(cut).map((p, i) => ({ priceTicks: p, sizeRaw: sizes[60 + i]! }));
        const original = BookState.fromSnapshot({ bids, asks });
        const noView = original.complement();
        // The NO view is itself a valid book (validation passes on its levels).
        const rebuiltNo = BookState.fromSnapshot({ bids: noView.bids, asks: noView.asks });
        const back = rebuiltNo.complement();
        expect(back.sameLevels(original)).toBe(true);
        expect(back.bids).toEqual(original.bids);
        expect(back.asks).toEqual(original.asks);
        expect(back.bestBidTicks).toBe(original.bestBidTicks);
        expect(back.bestAskTicks).toBe(original.bestAskTicks);
        for (const ticks of [0, 3, 50, 998]) expect(back.depthWithin(ticks)).toEqual(original.depthWithin(ticks));
        if (original.mid !== null) expect(back.mid).toBeCloseTo(original.mid, 12);
        if (original.microprice !== null) expect(back.microprice).toBeCloseTo(original.microprice, 12);
      }),
      { seed: 20240601, numRuns: 300 },
    );
  });
});

describe('OrderBook', () => {
  it('has no book before the first snapshot', () => {
    const book = new OrderBook('m');
    expect(book.hasSnapshot).toBe(false);
    expect(book.yes).toBeNull();
    expect(book.no).toBeNull();
  });

  it('replaces the book wholesale and reports whether it changed', () => {
    const book = new OrderBook('m');
    expect(book.apply(ladder(3)).changed).toBe(true);
    const first = book.yes;
    const again = book.apply(ladder(3));
    expect(again.changed).toBe(false);
    expect(book.yes).toBe(first);
    expect(book.apply(ladder(2)).changed).toBe(true);
    expect(book.yes!.bids).toHaveLength(2);
    expect(book.no!.asks).toHaveLength(2);
  });

  it('keeps the previous book when a snapshot is rejected', () => {
    const book = new OrderBook('m');
    book.apply(snap([[500, 1]], [[510, 1]]));
    const before = book.yes;
    expect(() => book.apply(snap([[520, 1]], [[510, 1]]))).toThrow(BookRejectedError);
    expect(book.yes).toBe(before);
    expect(book.yes!.bestBidTicks).toBe(500);
  });

  it('counts an adjusted-midpoint change as a change', () => {
    const book = new OrderBook('m');
    book.apply(snap([[500, 1]], [[510, 1]], 0.505));
    expect(book.apply(snap([[500, 1]], [[510, 1]], 0.506)).changed).toBe(true);
  });
});
