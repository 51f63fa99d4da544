/**
 * The market feed's options (`MarketFeedOptions`: the venue's address, credentials, units, subscriptions, backoff,
 * timeouts, clock, logger) and what it reports (`MarketFeedObserver`, `UnreadableOrderEvent`). socket.ts re-exports
 * them.
 *
 * Owns: these shapes. Invariants: types only, no behaviour.
 */
import type { FeedConnectionState } from '../book/feed-port.js';
import type { MarketDataLogger } from '../book/log.js';
import type { SizeUnit, SocketUnits } from '../book/size-units.js';
import type { Scheduler } from '../core/clock.js';
import type { ApiCredentials } from './auth.js';
import type { BackoffOptions } from './socket-backoff.js';
import type { AmountUnit, BookSizeUnit, FeedEventName } from './socket-wire.js';

/** Counters an operator wants; every hook optional, none may throw (errors are swallowed). */
export interface MarketFeedObserver {
  onStateChange?(state: FeedConnectionState): void;
  /** A connection attempt starts; `attempt` counts consecutive failures before it (0 = first try). */
  onConnectAttempt?(attempt: number): void;
  onConnectError?(message: string): void;
  onDisconnect?(reason: string): void;
  onReconnectRequested?(reason: string): void;
  /** A valid frame was received. */
  onFrame?(event: FeedEventName): void;
  onMalformedFrame?(event: FeedEventName, path: string): void;
  onUnknownEvent?(event: string): void;
  onListenerError?(event: string): void;
  /** The venue refused the socket's authentication (an `exception` or a `system` frame saying so). */
  onAuthFailure?(message: string): void;
}

/** An `orderEvent` frame that failed validation: the account's order stream has a gap. */
export interface UnreadableOrderEvent {
  readonly path: string;
  readonly reason: string;
  readonly payload: unknown;
}

export interface MarketFeedOptions {
  /** Socket base URL, e.g. wss://ws.venue.example or http://127.0.0.1:PORT. */
  readonly url: string;
  readonly namespace?: string;
  /** Authenticated mode when present: HMAC handshake, positions and order events. */
  readonly credentials?: ApiCredentials;
  /** Auth header prefix (exchange-facts §4). */
  readonly headerPrefix?: string;
  /** Units of order-event and position amounts (see socket-wire.ts). Default 'raw'. */
  readonly amountUnit?: AmountUnit;
  /** Units of book level sizes. Default 'shares' (exchange-facts §5). */
  readonly bookSizeUnit?: BookSizeUnit;
  /**
   * Units settled from evidence (src/book/size-units.ts); when given, it decides both units and the two options above
   * are ignored. While its book unit is unsettled, book frames are parsed both ways and go to the unsettled-book
   * listeners (the book store compares them with REST) instead of the book listeners.
   */
  readonly units?: SocketUnits;
  /** While `units` has no evidence for amounts: the unit an order frame's amounts show (an own order's placement). */
  readonly amountEvidence?: (payload: unknown) => { readonly unit: SizeUnit; readonly evidence: Readonly<Record<string, unknown>> } | null;
  /** Subscribe to the account's order events (authenticated only). Default true when authenticated. */
  readonly subscribeOrderEvents?: boolean;
  /**
   * Subscribe to the venue's market lifecycle channel (`subscribe_market_lifecycle`: `marketCreated`, `marketResolved`)
   * on every connect. Default false. Whether it needs authentication is unconfirmed (exchange-facts §5).
   */
  readonly subscribeLifecycle?: boolean;
  readonly backoff?: Partial<BackoffOptions>;
  /** An attempt that has not connected after this long is abandoned and retried. */
  readonly connectTimeoutMs?: number;
  /** After an authentication failure, a new connection with no refusal this long counts as authenticated. Default 3000. */
  readonly authConfirmMs?: number;
  /** Socket.IO HTTP path. Default '/socket.io'. */
  readonly socketPath?: string;
  /** Clock for handshake timestamps and state times, and timers for backoff and timeouts. */
  readonly scheduler?: Scheduler;
  readonly logger?: MarketDataLogger;
  readonly observer?: MarketFeedObserver;
}
