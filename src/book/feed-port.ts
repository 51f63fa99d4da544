/**
 * What the book store needs from a live market feed, as a port: the Socket.IO client
 * (src/exchange/socket.ts) implements it, and unit tests use a fake.
 *
 * Owns: the connection-state type shared by the feed, the store, the risk gate and metrics.
 * Invariant: `downSinceMs` is null exactly while connected, and otherwise holds the time the feed last
 * stopped being connected (or was created), unchanged across the connecting/disconnected flips of a
 * reconnect loop, so "down for longer than a grace period" is measurable.
 */
import type { Unsubscribe } from './listeners.js';
import type { BookCandidates } from './size-units.js';
import type { BookSnapshot } from './snapshot.js';

export type FeedStatus = 'connecting' | 'connected' | 'disconnected';

export interface FeedConnectionState {
  readonly status: FeedStatus;
  /** When the current status began (ms since epoch). */
  readonly sinceMs: number;
  /** Null while connected; otherwise since when the feed has not been connected. */
  readonly downSinceMs: number | null;
  /** When the last successful connection was made, or null if none yet. */
  readonly lastConnectedAtMs: number | null;
  /** Successful connections so far (the first connect counts as 1). */
  readonly connects: number;
  /** True after `close()`: the feed will not connect again. */
  readonly closed: boolean;
}

export interface FeedPort {
  /** Replaces the set of markets whose books the feed streams. */
  setMarkets(slugs: readonly string[]): void;
  /** Drops the current connection and connects again (used when the feed is found frozen). */
  reconnect(reason: string): void;
  connectionState(): FeedConnectionState;
  onBook(listener: (slug: string, snapshot: BookSnapshot) => void): Unsubscribe;
  onStateChange(listener: (state: FeedConnectionState) => void): Unsubscribe;
  /** Book frames read both ways while the socket's book-size unit is unsettled (src/book/size-units.ts); optional. */
  onUnsettledBook?(listener: (slug: string, candidates: BookCandidates) => void): Unsubscribe;
}
