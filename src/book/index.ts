/**
 * Public surface of the market-data layer (local order books, the book store and its staleness watchdog),
 * for the composition root and the strategy runner. The Socket.IO feed that fills it lives in
 * src/exchange/socket.ts (it implements `FeedPort`).
 */
export { BookState } from './book-state.js';
export {
  BookStore,
  type BookStoreObserver,
  type BookStoreOptions,
  type FetchOutcome,
  type FetchPurpose,
  type FrameIgnoredReason,
  type MarketBooks,
  type MarketBookStatus,
  type MarketStaleReason,
} from './book-store.js';
export { BookRejectedError, MarketDataConfigError } from './errors.js';
export type { FeedConnectionState, FeedPort, FeedStatus } from './feed-port.js';
export type { Unsubscribe } from './listeners.js';
export type { MarketDataLogger } from './log.js';
export { OrderBook, type ApplyResult } from './order-book.js';
export type { BookSnapshot, SnapshotSource } from './snapshot.js';
export {
  DEFAULT_WATCHDOG_CONFIG,
  resolveWatchdogConfig,
  worstCaseConfirmationAgeMs,
  type StaleReason,
  type WatchdogConfig,
} from './watchdog.js';
