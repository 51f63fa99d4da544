/**
 * Socket units from evidence: the pure comparisons (book against REST, amount against a known order size), the
 * settle-once rules of SocketUnits, and the book store holding every non-empty market stale until the book unit is
 * settled, then applying nothing read in the wrong unit.
 */
import { describe, expect, it } from 'vitest';
import { BookStore } from '../../../src/book/book-store.js';
import { ManualClock } from '../../../src/core/clock.js';
import { amountUnitFromSize, bookUnitFromEvidence, SocketUnits, type BookCandidates, type UnitSettlement } from '../../../src/book/size-units.js';
import type { BookSnapshot } from '../../../src/book/snapshot.js';
import { snap } from './helpers/books.js';
import { ScriptedRest, settle, UnitFeed } from './helpers/fakes.js';

const REST = snap([[480, 100]], [[520, 495.326974]]);
/** The same book read as raw integers: what a socket sending raw sizes gives under each reading. */
const asRaw: BookCandidates = { raw: REST, shares: scale(REST, 1_000_000) };
/** A socket sending shares ("100"): the raw reading is 1e6 times too small (and 495.326974 is no integer). */
const asShares: BookCandidates = { raw: null, shares: REST };

function scale(book: BookSnapshot, factor: number): BookSnapshot {
  const side = (levels: BookSnapshot['bids']) => levels.map((l) => ({ priceTicks: l.priceTicks, sizeRaw: l.sizeRaw * factor }));
  return { bids: side(book.bids), asks: side(book.asks) };
}

describe('bookUnitFromEvidence', () => {
  it('settles raw when the sizes equal REST, shares when they are exactly 1e6 apart', () => {
    expect(bookUnitFromEvidence(asRaw, REST)).toMatchObject({ unit: 'raw', evidence: { socketSize: 100_000_000, restSizeRaw: 100_000_000 } });
    expect(bookUnitFromEvidence(asShares, REST)).toMatchObject({ unit: 'shares', evidence: { socketSize: 100, restSizeRaw: 100_000_000 } });
  });

  it('proves nothing from an empty book or a book that moved', () => {
    expect(bookUnitFromEvidence({ raw: snap([], []), shares: snap([], []) }, snap([], []))).toBeNull();
    expect(bookUnitFromEvidence(asRaw, snap([[481, 100]], [[520, 495.326974]]))).toBeNull();
  });
});

describe('amountUnitFromSize', () => {
  it('reads the sent amount both ways against a known size', () => {
    expect(amountUnitFromSize('5000000', 5_000_000)).toBe('raw');
    expect(amountUnitFromSize(5_000_000, 5_000_000)).toBe('raw');
    expect(amountUnitFromSize('5', 5_000_000)).toBe('shares');
    expect(amountUnitFromSize(7.5, 7_500_000)).toBe('shares');
    expect(amountUnitFromSize('4', 5_000_000)).toBeNull();
    expect(amountUnitFromSize({ x: 1 }, 5_000_000)).toBeNull();
  });
});

describe('SocketUnits', () => {
  it('auto: book unsettled, amounts assumed raw; each settles once and is heard once', () => {
    const units = new SocketUnits();
    const heard: UnitSettlement[] = [];
    units.onSettled((s) => heard.push(s));
    expect(units.bookSize()).toBeNull();
    expect(units.amounts()).toBe('raw');
    expect(units.settleBookSize('shares', { market: 'm' })).toBe(true);
    expect(units.settleBookSize('raw', { market: 'x' })).toBe(false);
    expect(units.settleAmounts('shares', { order: 'o' })).toBe(true);
    expect(units.settleAmounts('raw', { order: 'p' })).toBe(false);
    expect([units.bookSize(), units.amounts()]).toEqual(['shares', 'shares']);
    expect(heard.map((s) => [s.what, s.unit, s.switched])).toEqual([
      ['bookSize', 'shares', true],
      ['amounts', 'shares', true],
    ]);
  });

  it('configured units are settled from the start and never change', () => {
    const units = new SocketUnits({ socketBookSize: 'raw', socketAmounts: 'shares' });
    expect([units.bookSize(), units.amounts(), units.amountsSettledByEvidence()]).toEqual(['raw', 'shares', true]);
    expect(units.settleBookSize('shares', {})).toBe(false);
    expect(units.settleAmounts('raw', {})).toBe(false);
    expect(units.amounts()).toBe('shares');
  });
});

function setup() {
  const scheduler = new ManualClock(1_000_000);
  const feed = new UnitFeed(scheduler);
  const rest = new ScriptedRest();
  const units = new SocketUnits();
  const store = new BookStore({ fetchSnapshot: rest.fetchSnapshot, feed, scheduler, units, watchdog: { intervalMs: 1_000, quietAfterMs: 5_000, staleAfterMs: 20_000 } });
  store.setMarkets(['m', 'n']);
  store.start();
  feed.setStatus('connected');
  return { scheduler, feed, rest, store, units };
}

describe('BookStore with unsettled socket units', () => {
  it('a REST-only book is quoted; a frame matching REST under one unit settles it for every market', async () => {
    const { feed, rest, store, units } = setup();
    rest.answer('m', REST);
    rest.answer('n', snap([], []));
    await settle();
    expect(store.isStale('m'), 'no socket frame yet: the REST book has known units').toBe(false);
    expect(store.isStale('n')).toBe(false);
    feed.pushUnsettled('m', asShares);
    expect(units.bookSize()).toBe('shares');
    expect(store.isStale('m')).toBe(false);
    expect(store.books('m')?.yes.bids).toEqual(REST.bids);
  });

  it('a frame that matches neither reading leaves the unit unsettled, applies nothing and asks REST again', async () => {
    const { feed, rest, store, units, scheduler } = setup();
    rest.answer('m', REST);
    rest.answer('n', snap([], []));
    await settle();
    const moved = snap([[470, 10]], [[520, 1]]);
    scheduler.advance(2_000);
    feed.pushUnsettled('m', { raw: null, shares: moved });
    expect(units.bookSize()).toBeNull();
    expect(store.status('m')?.staleReason, 'an unapplied frame of unknown unit: not quoted').toBe('units-unsettled');
    expect(store.books('m')?.yes.bestBidTicks).toBe(480);
    expect(rest.inFlight()).toEqual(['m']);
    rest.answer('m', moved);
    await settle();
    expect(units.bookSize()).toBe('shares');
    expect(store.books('m')?.yes.bestBidTicks).toBe(470);
    expect(store.isStale('m')).toBe(false);
  });
});
