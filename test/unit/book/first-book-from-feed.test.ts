/**
 * The book store's first book from the feed (`firstBookFromFeedMs`): a market without a book takes the feed's first
 * frame (a full book) instead of a REST read, falls back to REST when no frame comes in time, and — while the socket's
 * book-size unit is unsettled — reads one market over REST for the unit's evidence, then applies every frame the other
 * markets held in the settled unit.
 */
import { describe, expect, it } from 'vitest';
import { BookStore } from '../../../src/book/book-store.js';
import { SocketUnits, type BookCandidates } from '../../../src/book/size-units.js';
import { ManualClock } from '../../../src/core/clock.js';
import { snap } from './helpers/books.js';
import { FakeFeed, ScriptedRest, settle, UnitFeed } from './helpers/fakes.js';

const WAIT_MS = 2_000;

function setup(options: { units?: SocketUnits; markets?: string[] } = {}) {
  const scheduler = new ManualClock(1_000_000);
  const feed = new UnitFeed(scheduler);
  const rest = new ScriptedRest();
  const store = new BookStore({
    fetchSnapshot: rest.fetchSnapshot,
    feed,
    scheduler,
    ...(options.units === undefined ? {} : { units: options.units }),
    firstBookFromFeedMs: WAIT_MS,
    watchdog: { intervalMs: 500, quietAfterMs: 5_000, staleAfterMs: 20_000 },
  });
  store.setMarkets(options.markets ?? ['a', 'b', 'c']);
  store.start();
  feed.setStatus('connected');
  return { scheduler, feed, rest, store };
}

const BOOK = snap([[480, 10]], [[520, 5]]);

describe('BookStore: the first book from the feed', () => {
  it('takes each market\'s first frame as its book: no REST read, fresh at once', () => {
    const { feed, rest, store, scheduler } = setup({ units: new SocketUnits({ socketBookSize: 'shares', socketAmounts: 'auto' }) });
    expect(rest.calls, 'nothing read over REST while the frames may still come').toEqual([]);
    for (const slug of ['a', 'b', 'c']) feed.push(slug, BOOK);
    for (const slug of ['a', 'b', 'c']) expect(store.isStale(slug)).toBe(false);
    expect(store.books('b')?.yes.bestBidTicks).toBe(480);
    scheduler.advance(WAIT_MS + 1);
    expect(rest.calls, 'no fallback and no watchdog sync once the frames came').toEqual([]);
  });

  it('a market whose frame does not come in time is synced over REST, and stays stale until then', async () => {
    const { feed, rest, store, scheduler } = setup({ units: new SocketUnits({ socketBookSize: 'shares', socketAmounts: 'auto' }) });
    feed.push('a', BOOK);
    scheduler.advance(WAIT_MS - 1);
    expect(rest.calls).toEqual([]);
    expect(store.status('b')?.staleReason).toBe('no-snapshot');
    scheduler.advance(1);
    expect(rest.calls.sort()).toEqual(['b', 'c']);
    rest.answer('b', BOOK);
    rest.answer('c', BOOK);
    await settle();
    expect(store.isStale('b')).toBe(false);
    expect(store.isStale('c')).toBe(false);
  });

  it('with the unit unsettled: one market is read over REST, its frame settles the unit, the others\' held frames apply', async () => {
    const units = new SocketUnits();
    const { feed, rest, store } = setup({ units });
    expect(rest.calls, 'one REST book for the unit\'s evidence, not one per market').toEqual(['a']);
    const asShares: BookCandidates = { raw: snap([[480, 10e-6]], [[520, 5e-6]]), shares: BOOK };
    const otherBook = snap([[470, 2]], [[530, 3]]);
    feed.pushUnsettled('b', { raw: snap([[470, 2e-6]], [[530, 3e-6]]), shares: otherBook });
    feed.pushUnsettled('c', { raw: null, shares: otherBook });
    expect(store.isStale('b'), 'a frame of unknown unit is not a book').toBe(true);
    expect(rest.calls, 'a held frame of a waiting market asks nothing of REST').toEqual(['a']);
    feed.pushUnsettled('a', asShares);
    rest.answer('a', BOOK);
    await settle();
    expect(units.bookSize()).toBe('shares');
    for (const slug of ['a', 'b', 'c']) expect(store.isStale(slug)).toBe(false);
    expect(store.books('b')?.yes.bestBidTicks).toBe(470);
    expect(store.books('c')?.yes.bestAskTicks).toBe(530);
    expect(rest.calls).toEqual(['a']);
  });

  it('a market joined later waits for its frame too; removing a waiting market cancels its fallback', () => {
    const { feed, rest, store, scheduler } = setup({ units: new SocketUnits({ socketBookSize: 'shares', socketAmounts: 'auto' }), markets: ['a'] });
    feed.push('a', BOOK);
    store.setMarkets(['a', 'n1', 'n2']);
    expect(feed.subscriptions.at(-1)).toEqual(['a', 'n1', 'n2']);
    feed.push('n1', BOOK);
    expect(store.isStale('n1')).toBe(false);
    store.setMarkets(['a', 'n1']);
    scheduler.advance(WAIT_MS + 1);
    expect(rest.calls).toEqual([]);
  });

  it('without the option, frames before the first REST snapshot are held as before', async () => {
    const scheduler = new ManualClock(1_000_000);
    const feed = new FakeFeed(scheduler);
    const rest = new ScriptedRest();
    const store = new BookStore({ fetchSnapshot: rest.fetchSnapshot, feed, scheduler });
    store.setMarkets(['a']);
    store.start();
    feed.setStatus('connected');
    feed.push('a', BOOK);
    expect(store.isStale('a')).toBe(true);
    expect(rest.calls).toEqual(['a']);
    rest.answer('a', BOOK);
    await settle();
    expect(store.isStale('a')).toBe(false);
  });
});
