import { describe, expect, it } from 'vitest';
import { BookStore, type BookStoreObserver, type FetchOutcome, type FetchPurpose } from '../../../src/book/book-store.js';
import type { BookRejectedError } from '../../../src/book/errors.js';
import { ManualClock } from '../../../src/core/clock.js';
import type { SnapshotSource } from '../../../src/book/snapshot.js';
import type { WatchdogConfig } from '../../../src/book/watchdog.js';
import { snap } from './helpers/books.js';
import { FakeFeed, ScriptedRest, settle } from './helpers/fakes.js';

const WATCHDOG: Partial<WatchdogConfig> = {
  intervalMs: 1_000,
  quietAfterMs: 5_000,
  staleAfterMs: 20_000,
  maxProbesPerTick: 1,
  socketDownGraceMs: 3_000,
  frozenConfirmMs: 500,
  fetchTimeoutMs: 4_000,
};

const BOOK_A = snap([[500, 10]], [[510, 10]]);
const BOOK_B = snap([[501, 10]], [[510, 10]]);
const BOOK_C = snap([[502, 10]], [[509, 3]]);

class Recorder implements BookStoreObserver {
  readonly applied: Array<[string, SnapshotSource, boolean]> = [];
  readonly rejected: Array<[string, SnapshotSource, string]> = [];
  readonly ignored: Array<[string, string]> = [];
  readonly fetches: Array<[string, FetchPurpose, FetchOutcome]> = [];
  readonly frozen: string[] = [];
  readonly staleChanges: Array<[string, boolean, string | null]> = [];
  onSnapshotApplied(slug: string, source: SnapshotSource, changed: boolean): void {
    this.applied.push([slug, source, changed]);
  }
  onSnapshotRejected(slug: string, source: SnapshotSource, error: BookRejectedError): void {
    this.rejected.push([slug, source, error.field]);
  }
  onFrameIgnored(slug: string, reason: string): void {
    this.ignored.push([slug, reason]);
  }
  onFetch(slug: string, purpose: FetchPurpose, outcome: FetchOutcome): void {
    this.fetches.push([slug, purpose, outcome]);
  }
  onFrozenFeed(slug: string): void {
    this.frozen.push(slug);
  }
  onStaleChange(slug: string, stale: boolean, reason: string | null): void {
    this.staleChanges.push([slug, stale, reason]);
  }
}

function setup(options: { connected?: boolean; markets?: string[] } = {}) {
  const scheduler = new ManualClock(1_000_000);
  const feed = new FakeFeed(scheduler);
  const rest = new ScriptedRest();
  const observer = new Recorder();
  const warnings: string[] = [];
  const store = new BookStore({
    fetchSnapshot: rest.fetchSnapshot,
    feed,
    scheduler,
    watchdog: WATCHDOG,
    observer,
    logger: { info: () => undefined, warn: (_obj, msg) => warnings.push(msg) },
  });
  const changes: string[] = [];
  store.onChange((slug) => changes.push(slug));
  if (options.connected ?? true) feed.setStatus('connected');
  store.setMarkets(options.markets ?? ['m']);
  store.start();
  return { scheduler, feed, rest, observer, store, changes, warnings };
}

/** A store with market `m` synced to BOOK_A and the change notification delivered. */
async function synced() {
  const ctx = setup();
  ctx.rest.answer('m', BOOK_A);
  await settle();
  ctx.scheduler.flush();
  return ctx;
}

describe('BookStore: subscription and first snapshot', () => {
  it('fetches on subscribe, forwards the full set to the feed, and is stale until the first snapshot', async () => {
    const { rest, feed, store, observer, changes, scheduler } = setup({ markets: ['m', 'n'] });
    expect(rest.inFlight()).toEqual(['m', 'n']);
    expect(feed.subscriptions.at(-1)).toEqual(['m', 'n']);
    expect(store.isStale('m')).toBe(true);
    expect(store.status('m')!.staleReason).toBe('no-snapshot');
    rest.answer('m', BOOK_A);
    await settle();
    scheduler.flush();
    expect(store.isStale('m')).toBe(false);
    expect(store.books('m')!.yes.bestBidTicks).toBe(500);
    expect(store.books('m')!.no.bestBidTicks).toBe(490);
    expect(changes).toEqual(['m']);
    expect(observer.staleChanges).toEqual([['m', false, null]]);
    expect(observer.fetches).toEqual([['m', 'sync', 'applied']]);
  });

  it('ignores feed frames until the first REST snapshot, then replays the newest one received during the fetch', async () => {
    const { rest, feed, store, observer } = setup();
    feed.push('m', BOOK_B);
    feed.push('m', BOOK_C);
    expect(store.books('m')).toBeNull();
    expect(observer.ignored).toEqual([
      ['m', 'before-snapshot'],
      ['m', 'before-snapshot'],
    ]);
    rest.answer('m', BOOK_A);
    await settle();
    // The frames arrived after the fetch began, so the newest of them is at least as current.
    expect(store.books('m')!.yes.sameLevels(BOOK_C)).toBe(true);
    expect(observer.applied.map(([, source]) => source)).toEqual(['rest', 'feed']);
  });

  it('discards a frame held from before the fetch began', async () => {
    const { rest, feed, store } = setup({ connected: false });
    expect(rest.inFlight()).toEqual([]); // no fetch until the feed connects
    feed.push('m', BOOK_B); // (a frame from an earlier subscription)
    feed.setStatus('connected');
    expect(rest.inFlight()).toEqual(['m']);
    rest.answer('m', BOOK_A);
    await settle();
    expect(store.books('m')!.yes.sameLevels(BOOK_A)).toBe(true);
  });

  it('ignores frames for markets it does not hold', async () => {
    const { feed, observer } = await synced();
    feed.push('other', BOOK_A);
    expect(observer.ignored).toEqual([['other', 'unsubscribed']]);
  });

  it('forgets removed markets (reporting them stale) and fetches only the added ones', async () => {
    const { store, rest, feed, observer } = await synced();
    store.setMarkets(['n']);
    expect(store.books('m')).toBeNull();
    expect(store.isStale('m')).toBe(true);
    expect(observer.staleChanges.at(-1)).toEqual(['m', true, 'unsubscribed']);
    expect(store.markets()).toEqual(['n']);
    expect(feed.subscriptions.at(-1)).toEqual(['n']);
    expect(rest.inFlight()).toEqual(['n']);
  });

  it('names a bad slug', () => {
    const { store } = setup();
    expect(() => store.setMarkets(['ok', ''])).toThrow(/markets\[1\]/);
  });
});

describe('BookStore: feed frames', () => {
  it('applies full books from the feed and coalesces a burst into one notification', async () => {
    const { feed, store, changes, scheduler } = await synced();
    changes.length = 0;
    feed.push('m', BOOK_B);
    feed.push('m', BOOK_C);
    feed.push('m', BOOK_B);
    expect(changes).toEqual([]);
    scheduler.flush();
    expect(changes).toEqual(['m']);
    expect(store.books('m')!.yes.sameLevels(BOOK_B)).toBe(true);
  });

  it('does not notify for a frame that repeats the book, but counts it as confirmation', async () => {
    const { feed, store, changes, scheduler } = await synced();
    changes.length = 0;
    scheduler.advance(4_000);
    feed.push('m', BOOK_A);
    scheduler.flush();
    expect(changes).toEqual([]);
    expect(store.status('m')!.lastFreshMs).toBe(scheduler.now());
    expect(store.status('m')!.lastUpdateMs).toBe(scheduler.now() - 4_000);
  });

  it('rejects a crossed book: previous book stays, counted, market stale until a valid book', async () => {
    const { feed, store, observer, scheduler } = await synced();
    feed.push('m', snap([[520, 1]], [[510, 1]]));
    expect(store.books('m')!.yes.sameLevels(BOOK_A)).toBe(true);
    expect(observer.rejected).toEqual([['m', 'feed', 'asks[0].priceTicks']]);
    expect(store.isStale('m')).toBe(true);
    expect(store.status('m')!.staleReason).toBe('rejected');
    // The watchdog goes after a market holding an outdated book at once, not after quietAfterMs.
    scheduler.advance(1_000);
    expect(observer.fetches).toEqual([['m', 'sync', 'applied']]);
    feed.push('m', BOOK_B);
    expect(store.isStale('m')).toBe(false);
    expect(observer.staleChanges.map(([, stale, reason]) => [stale, reason])).toEqual([
      [false, null],
      [true, 'rejected'],
      [false, null],
    ]);
  });

  it('a rejected frame starts the REST sync at once (not at the next watchdog tick), at most once per watchdog interval', async () => {
    const { feed, rest, scheduler } = await synced();
    const crossed = snap([[520, 1]], [[510, 1]]);
    const before = rest.calls.length;
    feed.push('m', crossed);
    expect(rest.calls.length - before).toBe(1);
    expect(rest.inFlight()).toEqual(['m']);
    rest.answer('m', BOOK_A);
    await settle();
    // Another bad frame right after: no second immediate fetch within the interval.
    feed.push('m', crossed);
    expect(rest.inFlight()).toEqual([]);
    scheduler.advance(WATCHDOG.intervalMs ?? 1_000);
    expect(rest.inFlight()).toEqual(['m']);
  });

  it('recovers over REST from a feed that keeps sending invalid books', async () => {
    const { feed, store, rest, scheduler, observer } = await synced();
    const crossed = snap([[520, 1]], [[510, 1]]);
    feed.push('m', crossed);
    scheduler.advance(1_000); // the watchdog syncs the market at once
    feed.push('m', crossed); // more junk while the REST answer is in flight does not supersede it
    rest.answer('m', BOOK_B);
    await settle();
    expect(observer.fetches.at(-1)).toEqual(['m', 'sync', 'applied']);
    expect(store.books('m')!.yes.sameLevels(BOOK_B)).toBe(true);
    expect(store.isStale('m')).toBe(false);
  });

  it('survives a throwing change listener', async () => {
    const { feed, store, scheduler } = await synced();
    const seen: string[] = [];
    store.onChange(() => {
      throw new Error('listener bug');
    });
    store.onChange((slug) => seen.push(slug));
    feed.push('m', BOOK_B);
    scheduler.flush();
    expect(seen).toEqual(['m']);
  });
});

describe('BookStore: staleness watchdog', () => {
  it('does not probe a market that is not yet quiet', async () => {
    const { rest, scheduler } = await synced();
    scheduler.advance(4_000);
    expect(rest.inFlight()).toEqual([]);
  });

  it('asks for a snapshot urgently (ahead of placements) only while the market has no usable book', async () => {
    const { rest, scheduler } = await synced();
    expect(rest.urgent).toEqual([true]);
    scheduler.advance(5_000);
    expect(rest.inFlight()).toEqual(['m']);
    expect(rest.urgent).toEqual([true, false]);
  });

  it('equal REST book → confirmed fresh, no resync, no reconnect', async () => {
    const { rest, scheduler, store, feed, observer, changes } = await synced();
    changes.length = 0;
    scheduler.advance(5_000);
    expect(rest.inFlight()).toEqual(['m']);
    rest.answer('m', BOOK_A);
    await settle();
    expect(observer.fetches.at(-1)).toEqual(['m', 'probe', 'confirmed']);
    expect(store.status('m')!.lastFreshMs).toBe(scheduler.now());
    scheduler.advance(10_000);
    expect(feed.reconnects).toEqual([]);
    expect(changes).toEqual([]);
    expect(store.isStale('m')).toBe(false);
  });

  it('different REST book → resync at once, frozen feed counted and reconnect requested when no frame follows', async () => {
    const { rest, scheduler, store, feed, observer, changes } = await synced();
    changes.length = 0;
    scheduler.advance(5_000);
    rest.answer('m', BOOK_B);
    await settle();
    expect(store.books('m')!.yes.sameLevels(BOOK_B)).toBe(true);
    scheduler.flush();
    expect(changes).toEqual(['m']);
    expect(observer.fetches.at(-1)).toEqual(['m', 'probe', 'mismatch']);
    expect(store.status('m')!.frozenSuspected).toBe(true);
    scheduler.advance(499);
    expect(feed.reconnects).toEqual([]);
    scheduler.advance(1);
    expect(observer.frozen).toEqual(['m']);
    expect(feed.reconnects).toEqual(['frozen feed detected on m']);
  });

  it('different REST book followed promptly by a feed frame → no frozen-feed alarm', async () => {
    const { rest, scheduler, feed, observer } = await synced();
    scheduler.advance(5_000);
    rest.answer('m', BOOK_B);
    await settle();
    scheduler.advance(100);
    feed.push('m', BOOK_B); // the frame was merely in flight
    scheduler.advance(5_000);
    expect(observer.frozen).toEqual([]);
    expect(feed.reconnects).toEqual([]);
  });

  it('a frame during the probe makes it inconclusive: the feed frame stands', async () => {
    const { rest, scheduler, feed, store, observer } = await synced();
    scheduler.advance(5_000);
    feed.push('m', BOOK_C);
    rest.answer('m', BOOK_B);
    await settle();
    expect(observer.fetches.at(-1)).toEqual(['m', 'probe', 'superseded']);
    expect(store.books('m')!.yes.sameLevels(BOOK_C)).toBe(true);
    scheduler.advance(2_000);
    expect(feed.reconnects).toEqual([]);
  });

  it('REST failing → stale after staleAfterMs, fresh again when REST answers', async () => {
    const { rest, scheduler, store, observer } = await synced();
    const syncedAt = scheduler.now();
    for (let t = 0; t < 20; t++) {
      scheduler.advance(1_000);
      for (const slug of rest.inFlight()) rest.fail(slug);
      await settle();
    }
    expect(observer.fetches.filter(([, , o]) => o === 'error').length).toBeGreaterThan(10);
    expect(scheduler.now() - syncedAt).toBe(20_000);
    expect(store.isStale('m')).toBe(false);
    scheduler.advance(1_000);
    expect(store.isStale('m')).toBe(true);
    expect(store.status('m')!.staleReason).toBe('unconfirmed');
    expect(observer.staleChanges.at(-1)).toEqual(['m', true, 'unconfirmed']);
    for (const slug of rest.inFlight()) rest.answer(slug, BOOK_A);
    await settle();
    expect(store.isStale('m')).toBe(false);
    expect(observer.staleChanges.at(-1)).toEqual(['m', false, null]);
  });

  it('abandons a fetch that never answers (timeout) and probes again', async () => {
    const { rest, scheduler, observer } = await synced();
    scheduler.advance(5_000); // probe #1 goes out and hangs
    scheduler.advance(4_000);
    expect(observer.fetches.at(-1)).toEqual(['m', 'probe', 'timeout']);
    scheduler.advance(1_000);
    expect(rest.calls.filter((s) => s === 'm')).toHaveLength(3); // sync, probe, probe again
    rest.answer('m', BOOK_B); // the late answer to the abandoned probe is ignored
    await settle();
    expect(observer.fetches.at(-1)).toEqual(['m', 'probe', 'timeout']);
  });

  it('a probe that waited in the client’s own queue is not timed out for it: the timeout counts from when it is sent', async () => {
    const { rest, scheduler, observer } = await synced();
    scheduler.advance(5_000); // probe #1 goes out, and waits in the bot's queue behind its requotes
    expect(rest.purposes.at(-1)).toBe('probe');
    scheduler.advance(3_500);
    rest.send('m'); // it leaves the queue 3.5 s later: the 4 s timeout starts now
    scheduler.advance(3_000);
    rest.answer('m', BOOK_A);
    await settle();
    expect(observer.fetches.at(-1)).toEqual(['m', 'probe', 'confirmed']);
    expect(observer.fetches.some(([, , outcome]) => outcome === 'timeout')).toBe(false);
  });

  it('spends at most maxProbesPerTick REST calls per tick, round-robin over quiet markets', async () => {
    const markets = ['a', 'b', 'c', 'd'];
    const { rest, scheduler } = setup({ markets });
    for (const m of markets) rest.answer(m, BOOK_A);
    await settle();
    rest.calls.length = 0;
    scheduler.advance(4_000);
    for (let tick = 0; tick < 8; tick++) {
      scheduler.advance(1_000);
      expect(rest.inFlight().length).toBeLessThanOrEqual(1);
      for (const slug of rest.inFlight()) rest.answer(slug, BOOK_A);
      await settle();
    }
    // Every market got its turn, in order, before any was probed twice.
    expect(rest.calls.slice(0, 4)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('feed down past the grace period → every market stale; reconnect → full resync', async () => {
    const { feed, scheduler, store, rest, observer } = setup({ markets: ['m', 'n'] });
    rest.answer('m', BOOK_A);
    rest.answer('n', BOOK_B);
    await settle();
    feed.setStatus('disconnected');
    feed.setStatus('connecting');
    scheduler.advance(3_000);
    expect(store.isStale('m')).toBe(false);
    scheduler.advance(1_000);
    expect(store.isStale('m')).toBe(true);
    expect(store.status('n')!.staleReason).toBe('feed-down');
    expect(rest.inFlight()).toEqual([]); // no probing while the feed is down
    feed.setStatus('connected');
    expect(rest.inFlight()).toEqual(['m', 'n']);
    expect(store.isStale('m')).toBe(false); // the feed is back; the books are confirmed recently enough
    rest.answer('m', BOOK_C);
    rest.answer('n', BOOK_B);
    await settle();
    expect(store.books('m')!.yes.sameLevels(BOOK_C)).toBe(true);
    expect(observer.staleChanges.filter(([, stale]) => stale)).toHaveLength(2);
  });

  it('runs a sync asked for while a fetch is in flight after that fetch', async () => {
    const { rest, store, feed } = setup();
    store.resync('m');
    expect(rest.inFlight()).toEqual(['m']);
    feed.setStatus('disconnected');
    feed.setStatus('connected');
    expect(rest.inFlight()).toEqual(['m']);
    rest.answer('m', BOOK_A);
    await settle();
    expect(rest.inFlight()).toEqual(['m']);
    rest.answer('m', BOOK_B);
    await settle();
    expect(store.books('m')!.yes.sameLevels(BOOK_B)).toBe(true);
  });

  it('warns once when the probe budget cannot cover the markets before they go stale', () => {
    const markets = Array.from({ length: 30 }, (_, i) => `m${i}`);
    const { warnings } = setup({ markets });
    expect(warnings.filter((w) => w.includes('watchdog budget'))).toHaveLength(1);
  });

  it('stop() cancels timers and ignores late answers', async () => {
    const { store, rest, scheduler, observer } = setup();
    store.stop();
    rest.answer('m', BOOK_A);
    await settle();
    scheduler.advance(60_000);
    expect(observer.fetches).toEqual([]);
    expect(scheduler.pending()).toBe(0);
  });
});

describe('BookStore without a feed', () => {
  it('syncs over REST and keeps quiet markets confirmed by probes', async () => {
    const scheduler = new ManualClock(0);
    const rest = new ScriptedRest();
    const store = new BookStore({ fetchSnapshot: rest.fetchSnapshot, scheduler, watchdog: WATCHDOG });
    store.setMarkets(['m']);
    store.start();
    rest.answer('m', BOOK_A);
    await settle();
    for (let t = 0; t < 30; t++) {
      scheduler.advance(1_000);
      for (const slug of rest.inFlight()) rest.answer(slug, BOOK_A);
      await settle();
    }
    expect(store.isStale('m')).toBe(false);
  });

  it('treats a fetchSnapshot that throws synchronously as a failed fetch', async () => {
    const scheduler = new ManualClock(0);
    const outcomes: FetchOutcome[] = [];
    const store = new BookStore({
      fetchSnapshot: () => {
        throw new Error('not configured');
      },
      scheduler,
      watchdog: WATCHDOG,
      observer: { onFetch: (_s, _p, outcome) => outcomes.push(outcome) },
    });
    store.setMarkets(['m']);
    store.start();
    await settle();
    expect(outcomes).toEqual(['error']);
    expect(store.isStale('m')).toBe(true);
  });
});
