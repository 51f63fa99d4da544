/**
 * Feed + book store end to end against a venue-like Socket.IO server on 127.0.0.1:0 (real sockets, real
 * timers, short watchdog settings): reconnect and resync, frozen-feed detection, bad frames.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BookStore, type FetchOutcome } from '../../src/book/book-store.js';
import type { BookSnapshot } from '../../src/book/snapshot.js';
import { MarketFeed } from '../../src/exchange/socket.js';
import { snap } from '../unit/book/helpers/books.js';
import { TestSocketServer, waitFor } from '../unit/book/helpers/socket-server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Harness {
  srv: TestSocketServer;
  feed: MarketFeed;
  store: BookStore;
  fetches: Array<[string, FetchOutcome]>;
  frozen: string[];
  rejected: string[];
  malformed: string[];
  changes: string[];
  staleChanges: Array<[string, boolean, string | null]>;
}

async function harness(markets: string[], books: Record<string, BookSnapshot>): Promise<Harness> {
  const srv = await TestSocketServer.start();
  cleanups.push(() => srv.close());
  for (const [slug, book] of Object.entries(books)) srv.setBook(slug, book, false);
  const malformed: string[] = [];
  const feed = new MarketFeed({
    url: srv.url,
    backoff: { initialMs: 20, maxMs: 200, seed: 3 },
    observer: { onMalformedFrame: (event, path) => malformed.push(`${event}:${path}`) },
  });
  cleanups.push(() => feed.close());
  const fetches: Array<[string, FetchOutcome]> = [];
  const frozen: string[] = [];
  const rejected: string[] = [];
  const staleChanges: Array<[string, boolean, string | null]> = [];
  const store = new BookStore({
    // Plays REST GET /markets/{slug}/orderbook against the server's current state.
    fetchSnapshot: async (slug) => srv.snapshot(slug),
    feed,
    watchdog: {
      intervalMs: 40,
      quietAfterMs: 150,
      staleAfterMs: 3_000,
      maxProbesPerTick: 2,
      socketDownGraceMs: 1_000,
      frozenConfirmMs: 100,
      fetchTimeoutMs: 1_000,
    },
    observer: {
      onFetch: (slug, _purpose, outcome) => fetches.push([slug, outcome]),
      onFrozenFeed: (slug) => frozen.push(slug),
      onSnapshotRejected: (slug, _source, error) => rejected.push(`${slug}:${error.field}`),
      onStaleChange: (slug, stale, reason) => staleChanges.push([slug, stale, reason]),
    },
  });
  cleanups.push(() => store.stop());
  const changes: string[] = [];
  store.onChange((slug) => changes.push(slug));
  store.setMarkets(markets);
  store.start();
  feed.start();
  await waitFor(() => markets.every((m) => store.books(m) !== null && !store.isStale(m)), 3_000, 'initial sync');
  // The REST sync is in-process and can beat the server's handling of the subscribe emit.
  await waitFor(() => srv.emitsOf('subscribe_market_prices').length >= 1, 3_000, 'subscription registered');
  return { srv, feed, store, fetches, frozen, rejected, malformed, changes, staleChanges };
}

const A = snap([[500, 10]], [[510, 10]]);
const B = snap([[505, 10]], [[510, 4]]);
const C = snap([[490, 1]], [[495, 2]]);

describe('market data over a live socket', () => {
  it('syncs over REST on connect, then follows pushed books with coalesced notifications', async () => {
    const h = await harness(['m1', 'm2'], { m1: A, m2: C });
    expect(h.store.books('m1')!.yes.sameLevels(A)).toBe(true);
    expect(h.store.books('m2')!.no.bestBidTicks).toBe(505);
    h.changes.length = 0;
    h.srv.setBook('m1', B);
    await waitFor(() => h.store.books('m1')!.yes.sameLevels(B));
    await waitFor(() => h.changes.includes('m1'));
    expect(h.store.isStale('m1')).toBe(false);
  });

  it('server drops every connection while the book moves: client reconnects, resubscribes the full set, store resyncs within a bound', async () => {
    const h = await harness(['m1', 'm2'], { m1: A, m2: C });
    const subscribesBefore = h.srv.emitsOf('subscribe_market_prices').length;
    const droppedAt = Date.now();
    h.srv.dropAll();
    h.srv.setBook('m1', B); // nobody is subscribed at this instant: the change is never pushed
    await waitFor(() => h.feed.connectionState().connects === 2, 2_000, 'reconnect');
    // (The watchdog may already have caught B over REST before the client noticed the drop; either way
    // the store must hold B, confirmed, soon after the reconnect.)
    await waitFor(() => h.store.books('m1')!.yes.sameLevels(B) && !h.store.isStale('m1'), 2_000, 'resync after reconnect');
    const elapsed = Date.now() - droppedAt;
    expect(elapsed).toBeLessThan(2_000);
    await waitFor(() => h.fetches.filter(([slug]) => slug === 'm2').length >= 2, 2_000, 'm2 resynced after the reconnect');
    await waitFor(() => h.srv.emitsOf('subscribe_market_prices').length === subscribesBefore + 1, 2_000, 'resubscribed');
    expect(h.srv.emitsOf('subscribe_market_prices').at(-1)).toEqual({ marketSlugs: ['m1', 'm2'] });
    expect(h.store.isStale('m1')).toBe(false);
    expect(h.store.isStale('m2')).toBe(false);
  });

  it('detects a frozen feed (connection up, no pushes, REST moved): resyncs, counts it, reconnects', async () => {
    const h = await harness(['m1'], { m1: A });
    h.srv.frozen = true;
    h.srv.setBook('m1', B); // REST sees it, the socket never pushes it
    await waitFor(() => h.frozen.length === 1, 3_000, 'frozen-feed detection');
    expect(h.store.books('m1')!.yes.sameLevels(B)).toBe(true);
    expect(h.fetches.some(([, outcome]) => outcome === 'mismatch')).toBe(true);
    await waitFor(() => h.feed.connectionState().connects === 2, 2_000, 'reconnect after frozen feed');
    expect(h.store.isStale('m1')).toBe(false);
  });

  it('a crossed book frame is rejected and the previous book stays; malformed frames never reach a book', async () => {
    const h = await harness(['m1'], { m1: A });
    h.srv.emitToSubscribers('m1', 'orderbookUpdate', {
      marketSlug: 'm1',
      orderbook: { bids: [{ price: '0.6', size: '1' }], asks: [{ price: '0.55', size: '1' }] },
    });
    await waitFor(() => h.rejected.length === 1);
    expect(h.rejected).toEqual(['m1:asks[0].priceTicks']);
    expect(h.store.books('m1')!.yes.sameLevels(A)).toBe(true);
    // Stale at once (the watchdog may already have re-confirmed the book over REST by now).
    expect(h.staleChanges).toContainEqual(['m1', true, 'rejected']);
    h.srv.emitToSubscribers('m1', 'orderbookUpdate', { marketSlug: 'm1', orderbook: { bids: [{ price: '0.5001', size: '1' }], asks: [] } });
    h.srv.emitToSubscribers('m1', 'orderbookUpdate', { marketSlug: 'm1' });
    await waitFor(() => h.malformed.length === 2);
    expect(h.malformed).toEqual(['orderbookUpdate:orderbook.bids[0].price', 'orderbookUpdate:orderbook']);
    expect(h.store.books('m1')!.yes.sameLevels(A)).toBe(true);
    // The watchdog recovers the market from REST (the venue's real book) without waiting for a push.
    await waitFor(() => !h.store.isStale('m1'), 2_000, 'recovered from REST');
    expect(h.feed.connectionState().status).toBe('connected');
  });
});
