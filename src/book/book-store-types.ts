/**
 * The book store's public types (src/book/book-store.ts re-exports them): its options and observer, why a REST
 * fetch ran and how it ended, why a feed frame was ignored or a market is stale, and what a caller reads of one
 * market (its books, its freshness status).
 *
 * Owns: these shapes. Invariants: types only, no behaviour.
 */
import type { Scheduler } from '../core/clock.js';
import type { BookState } from './book-state.js';
import type { BookRejectedError } from './errors.js';
import type { FeedPort } from './feed-port.js';
import type { MarketDataLogger } from './log.js';
import type { SocketUnits } from './size-units.js';
import type { BookSnapshot, SnapshotSource } from './snapshot.js';
import type { StaleReason, WatchdogConfig } from './watchdog.js';

export type FetchPurpose = 'sync' | 'probe';

/**
 * What became of one REST snapshot fetch:
 * applied (sync installed), confirmed (probe matched the local book), mismatch (probe differed: resynced),
 * superseded (a feed frame arrived during the fetch, so the answer was not used), rejected (the answer was
 * not a valid book), error (fetch failed), timeout (no answer within fetchTimeoutMs).
 */
export type FetchOutcome = 'applied' | 'confirmed' | 'mismatch' | 'superseded' | 'rejected' | 'error' | 'timeout';

export type FrameIgnoredReason = 'unsubscribed' | 'before-snapshot';

/** Why a market is stale: see `staleReason` (watchdog.ts), plus a rejected latest snapshot, or removal. */
export type MarketStaleReason = StaleReason | 'rejected' | 'unsubscribed' | 'units-unsettled';

/** Everything an operator would want counted; every hook is optional and must not throw (errors are swallowed). */
export interface BookStoreObserver {
  onSnapshotApplied?(slug: string, source: SnapshotSource, changed: boolean): void;
  onSnapshotRejected?(slug: string, source: SnapshotSource, error: BookRejectedError): void;
  /** A snapshot for another token than the market's YES token (also reported as rejected). */
  onTokenMismatch?(slug: string, source: SnapshotSource, tokenId: string, yesTokenId: string): void;
  onFrameIgnored?(slug: string, reason: FrameIgnoredReason): void;
  onFetch?(slug: string, purpose: FetchPurpose, outcome: FetchOutcome, durationMs: number): void;
  onFrozenFeed?(slug: string): void;
  onStaleChange?(slug: string, stale: boolean, reason: MarketStaleReason | null): void;
}

export interface BookStoreOptions {
  /**
   * REST `GET /markets/{slug}/orderbook`, adapted to a snapshot. Every call spends rate-limit budget. `urgent`: the
   * market has no usable book (none yet, stale or rejected), so nothing can be quoted there until this answers (the
   * bot then sends it ahead of placements); otherwise it is a routine check of a fresh book.
   */
  /**
   * Reads a market's book over REST. `purpose`: 'sync' (a book to start from) or 'probe' (the watchdog's check of a
   * quiet book); `urgent` when the market is stale or has no book. The fetcher calls `onSent` when the request leaves the
   * client's own queue: the fetch timeout counts from then (a wait behind the bot's own requests is not the venue's).
   */
  readonly fetchSnapshot: (slug: string, request: { readonly urgent: boolean; readonly purpose: FetchPurpose; readonly onSent: () => void }) => Promise<BookSnapshot>;
  /**
   * The market's YES token id, when known: a snapshot naming another token is rejected. A snapshot without a token
   * id is accepted (the venue may leave it out).
   */
  readonly yesTokenOf?: (slug: string) => string | null;
  /** The socket's units; while its book-size unit is unsettled, the store settles it from REST (see the header). */
  readonly units?: SocketUnits;
  /** The live feed. Without one the store runs on REST alone (every market is then probed when quiet). */
  readonly feed?: FeedPort;
  /**
   * A market without a book waits this long (ms, from its subscription or the feed's connection) for the feed's first
   * frame — a full book — and takes it as its first book; only then is it synced over REST. Absent: synced over REST at
   * once and frames before that snapshot are held (the venue's push on subscribe is unconfirmed). While the socket's
   * book-size unit is unsettled, one market at a time is synced over REST at once (its unit evidence); the frames the
   * others hold are applied once the unit settles.
   */
  readonly firstBookFromFeedMs?: number;
  readonly scheduler?: Scheduler;
  readonly watchdog?: Partial<WatchdogConfig>;
  /** Minimum time between two change notifications for one market (0 = coalesce within one macrotask). */
  readonly notifyMinIntervalMs?: number;
  readonly observer?: BookStoreObserver;
  readonly logger?: MarketDataLogger;
}

/** A market's books as a consumer reads them: immutable, so safe to hold while quoting. */
export interface MarketBooks {
  readonly slug: string;
  readonly yes: BookState;
  readonly no: BookState;
  readonly lastUpdateMs: number;
  readonly lastFreshMs: number;
}

export interface MarketBookStatus {
  readonly slug: string;
  readonly hasBook: boolean;
  readonly stale: boolean;
  readonly staleReason: MarketStaleReason | null;
  /** Last time the book's content changed, or null before the first snapshot. */
  readonly lastUpdateMs: number | null;
  /** Last time the book was confirmed current (frame, REST snapshot or matching probe). */
  readonly lastFreshMs: number | null;
  readonly fetchInFlight: boolean;
  /** A probe found the book wrong and the store is waiting to see whether the feed is frozen. */
  readonly frozenSuspected: boolean;
}
