/**
 * A book whose `tokenId` is not the market's YES token (it would invert every quote) is rejected, from the feed and
 * from REST alike: counted, logged with both token ids, and the local book is left as it was.
 */
import { describe, expect, it } from 'vitest';
import { BookStore } from '../../../src/book/book-store.js';
import { ManualClock } from '../../../src/core/clock.js';
import type { SnapshotSource } from '../../../src/book/snapshot.js';
import { snap } from './helpers/books.js';
import { FakeFeed, ScriptedRest, settle } from './helpers/fakes.js';

const YES = '1111';
const NO = '2222';
const BOOK_A = { ...snap([[500, 10]], [[510, 10]]), tokenId: YES };
const BOOK_B = snap([[400, 10]], [[420, 10]]);

function setup() {
  const scheduler = new ManualClock(1_000_000);
  const feed = new FakeFeed(scheduler);
  const rest = new ScriptedRest();
  const mismatches: Array<[string, SnapshotSource, string, string]> = [];
  const logs: Array<Record<string, unknown>> = [];
  const store = new BookStore({
    fetchSnapshot: rest.fetchSnapshot,
    feed,
    scheduler,
    yesTokenOf: (slug) => (slug === 'm' ? YES : null),
    observer: { onTokenMismatch: (slug, source, tokenId, yesTokenId) => mismatches.push([slug, source, tokenId, yesTokenId]) },
    logger: { info: () => undefined, warn: (obj) => void logs.push(obj) },
  });
  store.setMarkets(['m']);
  store.start();
  feed.setStatus('connected');
  return { scheduler, feed, rest, store, mismatches, logs };
}

describe('book token check', () => {
  it('rejects a socket book of the NO token: nothing changes, counted, logged with both ids', async () => {
    const { feed, rest, store, mismatches, logs } = setup();
    rest.answer('m', BOOK_A);
    await settle();
    expect(store.books('m')?.yes.bestBidTicks).toBe(500);
    feed.push('m', { ...BOOK_B, tokenId: NO });
    expect(store.books('m')?.yes.bestBidTicks).toBe(500);
    expect(mismatches).toEqual([['m', 'feed', NO, YES]]);
    expect(logs).toContainEqual(expect.objectContaining({ market: 'm', source: 'feed', field: 'tokenId', tokenId: NO, yesTokenId: YES }));
    expect(store.isStale('m')).toBe(true);
  });

  it('rejects a REST book of another token; accepts the YES token and a book without a token id', async () => {
    const { feed, rest, store, mismatches } = setup();
    rest.answer('m', { ...BOOK_B, tokenId: NO });
    await settle();
    expect(store.books('m')).toBeNull();
    expect(mismatches).toEqual([['m', 'rest', NO, YES]]);
    store.resync('m');
    rest.answer('m', BOOK_A);
    await settle();
    expect(store.books('m')?.yes.bestBidTicks).toBe(500);
    feed.push('m', BOOK_B);
    expect(store.books('m')?.yes.bestBidTicks).toBe(400);
    expect(store.isStale('m')).toBe(false);
  });
});
