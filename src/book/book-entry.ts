/**
 * The book store's record of one market (`MarketEntry`: its book, update and confirmation times, the feed frames
 * seen, the fetch in flight, the frame held before the first snapshot, the stale reason last reported) and of one
 * REST fetch in flight; `newEntry` makes a market's record, `facts` what the watchdog reads of it.
 *
 * Owns: these records, mutated by BookStore alone (src/book/book-store.ts). Invariants: a new market has no
 * snapshot and starts reported stale ('no-snapshot'), so only its transition to fresh is announced.
 */
import type { CancelTimer } from '../core/clock.js';
import type { FetchPurpose, MarketStaleReason } from './book-store-types.js';
import { OrderBook } from './order-book.js';
import type { BookCandidates } from './size-units.js';
import type { BookSnapshot } from './snapshot.js';
import type { FreshnessFacts } from './watchdog.js';

export interface FetchInFlight {
  readonly purpose: FetchPurpose;
  readonly startedMs: number;
  readonly framesAtStart: number;
  readonly appliedAtStart: number;
  cancelTimeout: CancelTimer;
}

export interface MarketEntry {
  readonly slug: string;
  readonly book: OrderBook;
  lastUpdateMs: number | null;
  lastFreshMs: number | null;
  /** The latest snapshot received for this market was rejected; the book in place is outdated. */
  invalid: boolean;
  /** Feed frames received for this market (applied, held or rejected): evidence the feed is alive. */
  feedFrames: number;
  /** Feed frames applied to the book: evidence of a newer valid book than a REST answer in flight. */
  feedApplied: number;
  /** Newest frame received before the first REST snapshot. */
  heldFrame: BookSnapshot | null;
  fetch: FetchInFlight | null;
  /** A sync was asked for while a fetch was in flight. */
  resyncAfterFetch: boolean;
  /** When a rejected feed frame last started a REST sync at once (at most one per watchdog interval). */
  lastRejectSyncMs: number | null;
  frozenSuspicion: CancelTimer | null;
  reportedReason: MarketStaleReason | null;
  /** Latest REST book received, and latest feed frame read both ways, while the socket's book unit is unsettled. */
  lastRest: BookSnapshot | null;
  unitFrame: BookCandidates | null;
  /** Waiting for the feed's first frame as the first book (`firstBookFromFeedMs`): the REST sync due at its end. */
  awaitingFrame: CancelTimer | null;
}

export type FetchResult = { readonly ok: true; readonly snapshot: BookSnapshot } | { readonly ok: false; readonly error: unknown; readonly timedOut: boolean };

export function newEntry(slug: string): MarketEntry {
  return {
    slug,
    book: new OrderBook(slug),
    lastUpdateMs: null,
    lastFreshMs: null,
    invalid: false,
    feedFrames: 0,
    feedApplied: 0,
    heldFrame: null,
    fetch: null,
    resyncAfterFetch: false,
    lastRejectSyncMs: null,
    frozenSuspicion: null,
    // A market starts stale (no snapshot); only the transition to fresh is announced.
    reportedReason: 'no-snapshot',
    lastRest: null,
    unitFrame: null,
    awaitingFrame: null,
  };
}

export function facts(entry: MarketEntry): FreshnessFacts {
  return { hasBook: entry.book.hasSnapshot, lastFreshMs: entry.lastFreshMs };
}
