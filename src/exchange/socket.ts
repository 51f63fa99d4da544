/**
 * The venue's Socket.IO market feed (exchange-facts §5): one connection to namespace `/markets`,
 * websocket transport only, public or HMAC-authenticated.
 *
 * Owns: the connection and its reconnection (driven here, not by socket.io-client, so every attempt gets
 * freshly signed handshake headers and a seedable, jittered exponential backoff); the subscription set,
 * re-emitted in full on every connect and on every change (each subscribe call replaces the previous set on
 * the server, and the server forgets subscriptions on disconnect); validation of every incoming frame
 * (src/exchange/socket-wire.ts); typed outputs to listeners; the connection state for the risk gate.
 *
 * Parts: the reconnection backoff (socket-backoff.ts), the reading of the venue's word on authentication
 * (feed-auth.ts), the options and observer shapes (socket-options.ts); this module re-exports what callers use.
 *
 * Invariants:
 * - Handshake headers are computed from the injected clock at each attempt; a timestamp is never reused.
 * - Subscriptions are emitted only from the `connect` handler or while connected, always as the full set.
 * - A malformed frame is dropped, counted (observer) every time, logged once per (event, field path);
 *   unknown events are counted and ignored. Nothing a frame or a listener does throws out of a handler.
 * - After `close()` nothing reconnects, no timer stays armed and no listener is called.
 * - Secrets never reach a log line: only the token id's presence is ever mentioned, never headers.
 * - An authenticated feed whose authentication the venue refuses (an `exception` naming authentication, or a
 *   `system` frame saying `authenticated: false`) is no feed of the account's order events: the auth state turns
 *   `failed` (listeners halt quoting), the connection is dropped and retried with freshly computed headers and the
 *   usual backoff. It turns `ok` again on a later connection once the venue shows the account authenticated (a
 *   `system` frame with `authenticated: true`, an order event or a positions frame) or no refusal came within
 *   `authConfirmMs` of connecting.
 * - An `orderEvent` frame that fails validation is reported to the unreadable-order-event listeners with its raw
 *   payload (the account's order stream has a gap).
 */
import { Manager, type Socket } from 'socket.io-client';
import { MarketDataConfigError } from '../book/errors.js';
import type { FeedConnectionState, FeedPort, FeedStatus } from '../book/feed-port.js';
import { ListenerSet, type Unsubscribe } from '../book/listeners.js';
import { OnceLog, safeLog, silentLogger, type MarketDataLogger } from '../book/log.js';
import type { BookCandidates } from '../book/size-units.js';
import type { BookSnapshot } from '../book/snapshot.js';
import { systemScheduler, type CancelTimer, type Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import { mulberry32 } from '../core/random.js';
import { describeValue, type OrderEvent } from '../core/venue-rules/index.js';
import { socketHandshakeHeaders } from './auth.js';
import { authEvidence, authRefusalText, isAuthFailureNotice, type FeedAuthState } from './feed-auth.js';
import type { MarketCreatedFrame } from './lifecycle-wire.js';
import { backoffDelay, resolveBackoff, type BackoffOptions } from './socket-backoff.js';
import type { MarketFeedObserver, MarketFeedOptions, UnreadableOrderEvent } from './socket-options.js';
import { frameParsers, isFeedEventName, type FrameParsers, type MarketResolvedFrame, type NoticeFrame, type OraclePriceFrame, type OrderbookFrame, type ParsedFrame, type PositionsFrame } from './socket-wire.js';

export { isAuthFailureNotice, type FeedAuthState } from './feed-auth.js';
export { backoffDelay, DEFAULT_BACKOFF, resolveBackoff, type BackoffOptions } from './socket-backoff.js';
export type { MarketFeedObserver, MarketFeedOptions, UnreadableOrderEvent } from './socket-options.js';

export const MARKETS_NAMESPACE = '/markets';

interface Connection {
  readonly id: number;
  readonly socket: Socket;
  connected: boolean;
  connectedAtMs: number | null;
  cancelConnectTimeout: CancelTimer | null;
  cancelAuthConfirm: CancelTimer | null;
}

export class MarketFeed implements FeedPort {
  private readonly scheduler: Scheduler;
  private readonly logger: MarketDataLogger;
  private readonly onceLog: OnceLog;
  private readonly observer: MarketFeedObserver;
  private readonly parsers: FrameParsers;
  private readonly backoff: BackoffOptions;
  private readonly random: () => number;
  private readonly namespace: string;
  private readonly connectTimeoutMs: number;
  private markets: readonly string[] = [];
  private connection: Connection | null = null;
  private nextConnectionId = 1;
  private failures = 0;
  private cancelRetry: CancelTimer | null = null;
  private started = false;
  private state: FeedConnectionState;
  private auth: FeedAuthState = 'ok';
  private readonly authConfirmMs: number;

  private readonly bookListeners: ListenerSet<[slug: string, snapshot: BookSnapshot, frame: OrderbookFrame]>;
  private readonly orderEventListeners: ListenerSet<[event: OrderEvent]>;
  private readonly positionsListeners: ListenerSet<[frame: PositionsFrame]>;
  private readonly resolvedListeners: ListenerSet<[frame: MarketResolvedFrame]>;
  private readonly createdListeners: ListenerSet<[frame: MarketCreatedFrame]>;
  private readonly oracleListeners: ListenerSet<[frame: OraclePriceFrame]>;
  private oracleSeen = false;
  private readonly systemListeners: ListenerSet<[frame: NoticeFrame]>;
  private readonly exceptionListeners: ListenerSet<[frame: NoticeFrame]>;
  private readonly stateListeners: ListenerSet<[state: FeedConnectionState]>;
  private readonly authListeners: ListenerSet<[state: FeedAuthState, message: string | null]>;
  private readonly unreadableListeners: ListenerSet<[event: UnreadableOrderEvent]>;
  private readonly unsettledBookListeners: ListenerSet<[slug: string, candidates: BookCandidates]>;

  constructor(private readonly options: MarketFeedOptions) {
    if (typeof options.url !== 'string' || !/^(wss?|https?):\/\//i.test(options.url)) {
      throw new MarketDataConfigError('feed.url', options.url, 'must be a ws(s):// or http(s):// URL');
    }
    this.backoff = resolveBackoff(options.backoff);
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    if (!Number.isSafeInteger(this.connectTimeoutMs) || this.connectTimeoutMs <= 0) {
      throw new MarketDataConfigError('feed.connectTimeoutMs', options.connectTimeoutMs, 'must be a positive integer');
    }
    this.authConfirmMs = options.authConfirmMs ?? 3_000;
    if (!Number.isSafeInteger(this.authConfirmMs) || this.authConfirmMs <= 0) {
      throw new MarketDataConfigError('feed.authConfirmMs', options.authConfirmMs, 'must be a positive integer');
    }
    this.namespace = options.namespace ?? MARKETS_NAMESPACE;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.logger = options.logger ?? silentLogger;
    this.onceLog = new OnceLog(this.logger);
    this.observer = options.observer ?? {};
    this.parsers = frameParsers({
      ...(options.amountUnit === undefined ? {} : { amountUnit: options.amountUnit }),
      ...(options.bookSizeUnit === undefined ? {} : { bookSizeUnit: options.bookSizeUnit }),
    });
    this.random = mulberry32(this.backoff.seed);
    const now = this.scheduler.now();
    this.state = { status: 'disconnected', sinceMs: now, downSinceMs: now, lastConnectedAtMs: null, connects: 0, closed: false };
    const listenerError = (event: string) => (error: unknown) => {
      this.notify(() => this.observer.onListenerError?.(event));
      this.onceLog.warnOnce(`listener:${event}`, { event, err: describeError(error) }, 'market feed listener threw; continuing');
    };
    this.bookListeners = new ListenerSet(listenerError('orderbookUpdate'));
    this.orderEventListeners = new ListenerSet(listenerError('orderEvent'));
    this.positionsListeners = new ListenerSet(listenerError('positions'));
    this.resolvedListeners = new ListenerSet(listenerError('marketResolved'));
    this.createdListeners = new ListenerSet(listenerError('marketCreated'));
    this.oracleListeners = new ListenerSet(listenerError('oraclePriceData'));
    this.systemListeners = new ListenerSet(listenerError('system'));
    this.exceptionListeners = new ListenerSet(listenerError('exception'));
    this.stateListeners = new ListenerSet(listenerError('state'));
    this.authListeners = new ListenerSet(listenerError('auth'));
    this.unreadableListeners = new ListenerSet(listenerError('orderEvent'));
    this.unsettledBookListeners = new ListenerSet(listenerError('orderbookUpdate'));
  }

  get authenticated(): boolean {
    return this.options.credentials !== undefined;
  }

  /** Starts connecting (idempotent). */
  start(): void {
    if (this.started || this.state.closed) return;
    this.started = true;
    safeLog(() =>
      this.logger.info(
        {
          url: urlForLog(this.options.url),
          namespace: this.namespace,
          authenticated: this.authenticated,
          ...(this.options.units === undefined
            ? { amountUnit: this.options.amountUnit ?? 'raw', bookSizeUnit: this.options.bookSizeUnit ?? 'shares' }
            : this.options.units.describe()),
        },
        'market feed starting',
      ),
    );
    this.connect();
  }

  /** Disconnects for good: no reconnection, no timers, no more callbacks. */
  close(): void {
    if (this.state.closed) return;
    this.cancelRetry?.();
    this.cancelRetry = null;
    const connection = this.connection;
    this.connection = null;
    if (connection !== null) this.teardown(connection);
    this.setState('disconnected', true);
    for (const set of [
      this.bookListeners,
      this.orderEventListeners,
      this.positionsListeners,
      this.resolvedListeners,
      this.createdListeners,
      this.oracleListeners,
      this.systemListeners,
      this.exceptionListeners,
      this.stateListeners,
      this.authListeners,
      this.unreadableListeners,
      this.unsettledBookListeners,
    ]) {
      set.clear();
    }
  }

  /** Replaces the subscribed market set; sent at once (full set) when connected, else on the next connect. */
  setMarkets(slugs: readonly string[]): void {
    const unique: string[] = [];
    for (const [index, slug] of slugs.entries()) {
      if (typeof slug !== 'string' || slug.trim() === '') {
        throw new MarketDataConfigError(`markets[${index}]`, slug, 'must be a non-empty market slug');
      }
      if (!unique.includes(slug)) unique.push(slug);
    }
    const changed = unique.length !== this.markets.length || unique.some((slug, i) => slug !== this.markets[i]);
    this.markets = Object.freeze(unique);
    const connection = this.connection;
    if (changed && connection !== null && connection.connected) this.emitMarketSubscriptions(connection.socket);
  }

  subscribedMarkets(): readonly string[] {
    return this.markets;
  }

  /**
   * Drops the live connection and connects again with fresh headers (the staleness watchdog calls this on
   * a frozen feed). A no-op unless connected: a feed that is not connected is already reconnecting.
   */
  reconnect(reason: string): void {
    const connection = this.connection;
    if (this.state.closed || connection === null || !connection.connected) return;
    this.notify(() => this.observer.onReconnectRequested?.(reason));
    safeLog(() => this.logger.warn({ reason }, 'market feed reconnect requested'));
    this.lose(connection, `reconnect requested: ${reason}`);
  }

  connectionState(): FeedConnectionState {
    return this.state;
  }

  onBook(listener: (slug: string, snapshot: BookSnapshot, frame: OrderbookFrame) => void): Unsubscribe {
    return this.bookListeners.add(listener);
  }

  onOrderEvent(listener: (event: OrderEvent) => void): Unsubscribe {
    return this.orderEventListeners.add(listener);
  }

  onPositions(listener: (frame: PositionsFrame) => void): Unsubscribe {
    return this.positionsListeners.add(listener);
  }

  /** The venue's `oraclePriceData` frames (the underlying's price per market), parsed for shape only. */
  onOraclePrice(listener: (frame: OraclePriceFrame) => void): Unsubscribe {
    return this.oracleListeners.add(listener);
  }

  onMarketResolved(listener: (frame: MarketResolvedFrame) => void): Unsubscribe {
    return this.resolvedListeners.add(listener);
  }

  /** The lifecycle channel's `marketCreated` frames (only with `subscribeLifecycle`). */
  onMarketCreated(listener: (frame: MarketCreatedFrame) => void): Unsubscribe {
    return this.createdListeners.add(listener);
  }

  onSystem(listener: (frame: NoticeFrame) => void): Unsubscribe {
    return this.systemListeners.add(listener);
  }

  onException(listener: (frame: NoticeFrame) => void): Unsubscribe {
    return this.exceptionListeners.add(listener);
  }

  onStateChange(listener: (state: FeedConnectionState) => void): Unsubscribe {
    return this.stateListeners.add(listener);
  }

  /** The venue's verdict on the socket's authentication (always `ok` for a public feed). */
  authState(): FeedAuthState {
    return this.auth;
  }

  /** Authentication refused (`failed`, with the venue's message) or accepted again (`ok`). */
  onAuthChange(listener: (state: FeedAuthState, message: string | null) => void): Unsubscribe {
    return this.authListeners.add(listener);
  }

  /** Book frames read both ways while the book-size unit is unsettled (see `MarketFeedOptions.units`). */
  onUnsettledBook(listener: (slug: string, candidates: BookCandidates) => void): Unsubscribe {
    return this.unsettledBookListeners.add(listener);
  }

  /** An `orderEvent` frame that failed validation (the frame is dropped; the account's order stream has a gap). */
  onUnreadableOrderEvent(listener: (event: UnreadableOrderEvent) => void): Unsubscribe {
    return this.unreadableListeners.add(listener);
  }

  // -------------------------------------------------------------------------------------------------------

  private connect(): void {
    this.cancelRetry = null;
    if (this.state.closed) return;
    const attempt = this.failures;
    this.notify(() => this.observer.onConnectAttempt?.(attempt));
    this.setState('connecting');
    const credentials = this.options.credentials;
    const extraHeaders =
      credentials === undefined ? undefined : socketHandshakeHeaders(credentials, this.scheduler.now(), this.options.headerPrefix);
    let socket: Socket;
    try {
      const manager = new Manager(this.options.url, {
        transports: ['websocket'],
        reconnection: false,
        autoConnect: false,
        timeout: this.connectTimeoutMs,
        path: this.options.socketPath ?? '/socket.io',
        ...(extraHeaders === undefined ? {} : { extraHeaders }),
      });
      socket = manager.socket(this.namespace);
    } catch (error) {
      this.failed(null, `could not create the connection: ${describeError(error)}`);
      return;
    }
    const connection: Connection = {
      id: this.nextConnectionId++,
      socket,
      connected: false,
      connectedAtMs: null,
      cancelConnectTimeout: null,
      cancelAuthConfirm: null,
    };
    this.connection = connection;
    socket.on('connect', () => this.guard(connection, () => this.connected(connection)));
    socket.on('connect_error', (error: Error) => this.guard(connection, () => this.failed(connection, error.message)));
    socket.on('disconnect', (reason: string) => this.guard(connection, () => this.lose(connection, reason)));
    socket.onAny((event: unknown, ...args: unknown[]) =>
      this.guard(connection, () => this.handleFrame(connection, typeof event === 'string' ? event : String(event), args[0])),
    );
    connection.cancelConnectTimeout = this.scheduler.schedule(this.connectTimeoutMs, () =>
      this.guard(connection, () => {
        if (!connection.connected) this.failed(connection, `no connection after ${this.connectTimeoutMs} ms`);
      }),
    );
    socket.connect();
  }

  /** Runs a socket callback only for the current connection, and never lets it throw. */
  private guard(connection: Connection, run: () => void): void {
    if (this.connection !== connection || this.state.closed) return;
    try {
      run();
    } catch (error) {
      this.onceLog.warnOnce('handler-error', { err: describeError(error) }, 'market feed handler failed; continuing');
    }
  }

  private connected(connection: Connection): void {
    connection.cancelConnectTimeout?.();
    connection.cancelConnectTimeout = null;
    connection.connected = true;
    connection.connectedAtMs = this.scheduler.now();
    // Subscribe first, so whoever reacts to "connected" (the book store's REST resync) starts after it.
    this.emitAllSubscriptions(connection.socket);
    this.setState('connected');
    safeLog(() => this.logger.info({ connects: this.state.connects, markets: this.markets.length }, 'market feed connected'));
    if (this.auth === 'failed' && this.connection === connection) {
      connection.cancelAuthConfirm = this.scheduler.schedule(this.authConfirmMs, () =>
        this.guard(connection, () => this.authAccepted(`no refusal within ${this.authConfirmMs} ms`)),
      );
    }
  }

  /** The venue refused the authentication: halt (listeners), drop the connection, retry with fresh headers. */
  private authRefused(connection: Connection, message: string): void {
    this.notify(() => this.observer.onAuthFailure?.(message));
    safeLog(() => this.logger.warn({ message: message.slice(0, 300) }, 'market feed authentication refused: no order events; reconnecting with fresh headers'));
    if (this.auth !== 'failed') {
      this.auth = 'failed';
      this.authListeners.emit('failed', message);
    }
    if (this.connection === connection) this.lose(connection, `authentication refused: ${message.slice(0, 200)}`);
  }

  private authAccepted(evidence: string): void {
    const connection = this.connection;
    if (connection !== null) {
      connection.cancelAuthConfirm?.();
      connection.cancelAuthConfirm = null;
    }
    if (this.auth === 'ok') return;
    this.auth = 'ok';
    safeLog(() => this.logger.info({ evidence }, 'market feed authenticated again'));
    this.authListeners.emit('ok', null);
  }

  private failed(connection: Connection | null, message: string): void {
    this.notify(() => this.observer.onConnectError?.(message));
    // Once per kind of failure (digits masked: ports, ages, counts); every failure is counted by the observer.
    this.onceLog.warnOnce(`connect-error:${message.replace(/\d+/g, '#')}`, { err: message }, 'market feed connection attempt failed');
    if (connection !== null) {
      this.connection = null;
      this.teardown(connection);
    }
    this.scheduleRetry();
  }

  private lose(connection: Connection, reason: string): void {
    this.notify(() => this.observer.onDisconnect?.(reason));
    safeLog(() => this.logger.warn({ reason }, 'market feed disconnected'));
    const livedMs = connection.connectedAtMs === null ? 0 : this.scheduler.now() - connection.connectedAtMs;
    if (livedMs >= this.backoff.resetAfterMs) this.failures = 0;
    this.connection = null;
    this.teardown(connection);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.state.closed) return;
    this.setState('disconnected');
    const delay = backoffDelay(this.backoff, this.failures, this.random());
    this.failures++;
    this.cancelRetry?.();
    this.cancelRetry = this.scheduler.schedule(delay, () => this.connect());
  }

  private teardown(connection: Connection): void {
    connection.cancelConnectTimeout?.();
    connection.cancelConnectTimeout = null;
    connection.cancelAuthConfirm?.();
    connection.cancelAuthConfirm = null;
    connection.connected = false;
    const socket = connection.socket;
    try {
      socket.offAny();
      socket.off();
      socket.disconnect();
    } catch (error) {
      this.onceLog.warnOnce('teardown-error', { err: describeError(error) }, 'market feed socket teardown failed');
    }
  }

  private emitAllSubscriptions(socket: Socket): void {
    if (this.markets.length > 0) this.emitMarketSubscriptions(socket);
    if (this.authenticated && (this.options.subscribeOrderEvents ?? true)) socket.emit('subscribe_order_events');
    if (this.options.subscribeLifecycle === true) socket.emit('subscribe_market_lifecycle');
  }

  private emitMarketSubscriptions(socket: Socket): void {
    const marketSlugs = [...this.markets];
    socket.emit('subscribe_market_prices', { marketSlugs });
    if (this.authenticated) socket.emit('subscribe_positions', { marketSlugs: [...marketSlugs] });
  }

  private handleFrame(connection: Connection, event: string, payload: unknown): void {
    if (!isFeedEventName(event)) {
      this.notify(() => this.observer.onUnknownEvent?.(event));
      this.onceLog.warnOnce(`unknown:${event}`, { event }, 'market feed: unknown event ignored');
      return;
    }
    const units = this.options.units;
    if (units !== undefined && event === 'orderbookUpdate' && units.bookSize() === null) {
      this.handleUnsettledBook(payload);
      return;
    }
    if (units !== undefined && event === 'orderEvent' && !units.amountsSettledByEvidence() && this.options.amountEvidence !== undefined) {
      const shown = this.options.amountEvidence(payload);
      if (shown !== null) units.settleAmounts(shown.unit, shown.evidence);
    }
    const result = this.currentParsers().parse(event, payload);
    if (!result.ok) {
      const path = result.path;
      this.notify(() => this.observer.onMalformedFrame?.(event, path));
      this.onceLog.warnOnce(
        `malformed:${event}:${path.replace(/\[\d+\]/g, '[]')}`,
        { event, path, value: describeValue(result.value), reason: result.message },
        'market feed: malformed frame dropped (logged once per event and field)',
      );
      if (event === 'orderEvent') this.unreadableListeners.emit({ path, reason: result.message, payload });
      return;
    }
    this.notify(() => this.observer.onFrame?.(event));
    const parsed = result.value;
    if (this.authenticated) {
      if ((parsed.event === 'exception' || parsed.event === 'system') && isAuthFailureNotice(parsed.frame)) {
        this.dispatch(parsed);
        this.authRefused(connection, authRefusalText(parsed.event, parsed.frame));
        return;
      }
      if (this.auth === 'failed' && authEvidence(parsed)) this.authAccepted(parsed.event);
    }
    this.dispatch(parsed);
  }

  private currentParsers(): FrameParsers {
    const units = this.options.units;
    if (units === undefined) return this.parsers;
    return frameParsers({ amountUnit: units.amounts(), bookSizeUnit: units.bookSize() ?? 'raw' });
  }

  /** A book frame while its unit is unsettled: read both ways, for the book store to compare with REST. */
  private handleUnsettledBook(payload: unknown): void {
    const raw = frameParsers({ bookSizeUnit: 'raw' }).parse('orderbookUpdate', payload);
    const shares = frameParsers({ bookSizeUnit: 'shares' }).parse('orderbookUpdate', payload);
    const rawFrame = raw.ok && raw.value.event === 'orderbookUpdate' ? raw.value.frame : null;
    const sharesFrame = shares.ok && shares.value.event === 'orderbookUpdate' ? shares.value.frame : null;
    const slug = rawFrame?.slug ?? sharesFrame?.slug;
    if (slug === undefined) {
      const failure = raw.ok ? shares : raw;
      const path = failure.ok ? '(frame)' : failure.path;
      this.notify(() => this.observer.onMalformedFrame?.('orderbookUpdate', path));
      this.onceLog.warnOnce(
        `malformed:orderbookUpdate:${path.replace(/\[\d+\]/g, '[]')}`,
        { event: 'orderbookUpdate', path, value: failure.ok ? undefined : describeValue(failure.value), reason: failure.ok ? 'invalid' : failure.message },
        'market feed: malformed frame dropped (logged once per event and field)',
      );
      return;
    }
    this.notify(() => this.observer.onFrame?.('orderbookUpdate'));
    this.unsettledBookListeners.emit(slug, { raw: rawFrame?.snapshot ?? null, shares: sharesFrame?.snapshot ?? null });
  }

  private dispatch(parsed: ParsedFrame): void {
    switch (parsed.event) {
      case 'orderbookUpdate':
        this.bookListeners.emit(parsed.frame.slug, parsed.frame.snapshot, parsed.frame);
        return;
      case 'orderEvent':
        this.orderEventListeners.emit(parsed.frame);
        return;
      case 'positions':
        this.positionsListeners.emit(parsed.frame);
        return;
      case 'marketResolved':
        safeLog(() => this.logger.info({ market: parsed.frame.slug, outcome: parsed.frame.winningOutcome }, 'market resolved'));
        this.resolvedListeners.emit(parsed.frame);
        return;
      case 'marketCreated':
        this.createdListeners.emit(parsed.frame);
        return;
      case 'system':
        this.systemListeners.emit(parsed.frame);
        return;
      case 'oraclePriceData':
        if (!this.oracleSeen) {
          // Which subscription delivers these is unconfirmed (exchange-facts §9): say once that they came, and on what.
          this.oracleSeen = true;
          safeLog(() => this.logger.info({ market: parsed.frame.slug }, 'venue oracle frames seen on subscribe_market_prices'));
        }
        this.oracleListeners.emit(parsed.frame);
        return;
      case 'exception': {
        const message = parsed.frame.message ?? '(no message)';
        this.onceLog.warnOnce(
          `exception:${message.slice(0, 200).replace(/\d+/g, '#')}`,
          { message: message.slice(0, 500) },
          'market feed: exception from the venue',
        );
        this.exceptionListeners.emit(parsed.frame);
        return;
      }
    }
  }

  private setState(status: FeedStatus, closed = false): void {
    const previous = this.state;
    if (previous.status === status && previous.closed === closed) return;
    const now = this.scheduler.now();
    const connected = status === 'connected';
    this.state = Object.freeze({
      status,
      sinceMs: now,
      downSinceMs: connected ? null : (previous.downSinceMs ?? now),
      lastConnectedAtMs: connected ? now : previous.lastConnectedAtMs,
      connects: connected ? previous.connects + 1 : previous.connects,
      closed,
    });
    const state = this.state;
    this.notify(() => this.observer.onStateChange?.(state));
    this.stateListeners.emit(state);
  }

  private notify(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.onceLog.warnOnce('observer-error', { err: describeError(error) }, 'market feed observer threw; continuing');
    }
  }
}

/** The URL without any user-info part (never log credentials embedded in a URL). */
function urlForLog(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(unparseable url)';
  }
}

function describeError(error: unknown): string {
  return errorText(error, { withName: true });
}
