/**
 * The Socket.IO `/markets` namespace of exchange-facts §5: HMAC handshake auth (failures reported as an
 * `exception` event, the connection stays usable for public data), `subscribe_market_prices` and
 * `subscribe_positions` (each call REPLACES the previous set), `subscribe_order_events`, `system`
 * confirmations, and the pushes `orderbookUpdate` (full book, coalesced per market), `orderEvent`,
 * `positions`, `marketResolved`, and in the crypto world `oraclePriceData` (the underlying's published price, once a
 * second to each market's `subscribe_market_prices` subscribers, as the official client's types list it beside the
 * market-price events). The market lifecycle channel (`marketCreated`, `marketResolved`) is socket-lifecycle.ts; the
 * official client's generic `unsubscribe {channel, …options}` (with an acknowledgement) leaves any of them.
 *
 * Owns: subscriptions (as Socket.IO rooms), feed coalescing, and the feed faults (freeze, drop, injected
 * frames). Invariants: at most one `orderbookUpdate` per market per coalescing tick, always the full
 * current book; while frozen no `orderbookUpdate` leaves (connections stay open); unfreezing sends the
 * current book of every subscribed market; a bad client payload answers `exception`, never throws.
 * Coalescing is leading-edge: a change after a quiet period goes out at once, bursts are held to one
 * frame per market per `coalesceMs`. The `orders` freeze stops only `orderEvent` pushes (an account's order stream
 * gone silent while the connection and the books look healthy).
 */
import type { Server, Socket } from 'socket.io';
import { z } from 'zod';
import { SOCKET_HANDSHAKE_PATH } from '../../exchange/auth.js';
import type { MarketResolvedFrame, OrderEventFrame, SimClock, SimEngine, SimMarket } from '../engine/index.js';
import { hasAuthHeaders, verifyHmac, type ApiTokenRegistry } from './hmac-verify.js';
import { DEFAULT_SOCKET_BOOK_SIZE_UNIT, positionsFrame, wireOrderbook, type SocketBookSizeUnit, type WireOrderbook } from './wire-format.js';
import { DEFAULT_SIM_SETTINGS, type SimSettings } from './settings.js';
import { LifecycleChannel, SUBSCRIBE_LIFECYCLE, UNSUBSCRIBE_LIFECYCLE } from './socket-lifecycle.js';

export const MARKETS_NAMESPACE = '/markets';
const MAX_SUBSCRIBED_SLUGS = 1000;
/** Cadence of `oraclePriceData` pushes (Pyth publishes about once a second). */
const ORACLE_EVERY_MS = 1000;

export interface ClientToServerEvents {
  subscribe_market_prices: (payload: unknown) => void;
  subscribe_positions: (payload: unknown) => void;
  subscribe_order_events: (payload?: unknown) => void;
  subscribe_market_lifecycle: (payload?: unknown) => void;
  unsubscribe_market_lifecycle: (payload?: unknown) => void;
  /** The official client's `unsubscribe(channel, options)`: `{channel, ...options}`, acknowledged. */
  unsubscribe: (payload: unknown, ack?: unknown) => void;
}

/** Events to the client: orderbookUpdate, orderEvent, positions, marketCreated, marketResolved, system, exception
 * (and any name for an injected custom frame). */
export type ServerToClientEvents = Record<string, (frame: unknown) => void>;

export interface SocketData {
  profileId: number | null;
  account: string | null;
  authError: string | null;
}

export type FeedServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type FeedSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * `books`: no orderbookUpdate; `orders`: no orderEvent (a silent order stream, books still flowing); `oracle`: no
 * oraclePriceData (the underlying's price goes stale, books still flowing); `all`: no push at all.
 */
export type FreezeScope = 'books' | 'orders' | 'oracle' | 'all';
export type DropKind = 'transport' | 'server';

export type InjectedFrame =
  | { readonly kind: 'malformed'; readonly marketSlug: string }
  | { readonly kind: 'crossed'; readonly marketSlug: string }
  | { readonly kind: 'custom'; readonly marketSlug: string; readonly event?: string; readonly payload: unknown };

export interface SocketFeedHooks {
  onSocketConnection?(authenticated: boolean): void;
  onSocketAuthFailure?(reason: string): void;
  onFeedFrame?(event: string): void;
}

export interface SocketFeedOptions {
  readonly io: FeedServer;
  readonly engine: SimEngine;
  readonly clock: SimClock;
  readonly tokens: ApiTokenRegistry;
  readonly headerPrefix: string;
  /** Coalescing tick for orderbookUpdate and positions pushes (ms). */
  readonly coalesceMs: number;
  /** Unit of `orderbookUpdate` level sizes (default `shares`; see wire-format.ts). */
  readonly bookSizeUnit?: SocketBookSizeUnit;
  /** The venue-behaviour settings in force (settings.ts); read at each decision. Default: DEFAULT_SIM_SETTINGS. */
  readonly settings?: () => SimSettings;
  readonly hooks?: SocketFeedHooks;
}

const slugsPayload = z.object({
  marketSlugs: z.array(z.string()).max(MAX_SUBSCRIBED_SLUGS),
});

const unsubscribePayload = z.object({
  channel: z.string().min(1),
  marketSlugs: z.array(z.string()).max(MAX_SUBSCRIBED_SLUGS).optional(),
});

const pricesRoom = (slug: string): string => `prices:${slug}`;
const ordersRoom = (profileId: number): string => `orders:${profileId}`;
const positionsRoom = (profileId: number, slug: string): string => `positions:${profileId}:${slug}`;

export class SocketFeed {
  private readonly nsp;
  private readonly dirtyBooks = new Set<string>();
  private readonly dirtyPositions = new Map<string, { profileId: number; slug: string }>();
  private cancelFlush: (() => void) | null = null;
  private lastFlushMs = Number.NEGATIVE_INFINITY;
  private frozenScope: FreezeScope | null = null;
  private sizeUnit: SocketBookSizeUnit;
  private readonly unsubscribeEngine: () => void;
  private cancelOracle: (() => void) | null = null;
  private readonly lifecycle: LifecycleChannel;

  constructor(private readonly options: SocketFeedOptions) {
    this.sizeUnit = options.bookSizeUnit ?? DEFAULT_SOCKET_BOOK_SIZE_UNIT;
    this.nsp = options.io.of(MARKETS_NAMESPACE);
    this.lifecycle = new LifecycleChannel(this.nsp, options.settings ?? (() => DEFAULT_SIM_SETTINGS), (event) => this.options.hooks?.onFeedFrame?.(event));
    this.nsp.use((socket, next) => {
      this.authenticate(socket);
      next();
    });
    this.nsp.on('connection', (socket) => this.onConnection(socket));
    this.unsubscribeEngine = options.engine.on({
      bookChanged: (slug) => this.markBook(slug),
      orderEvent: (profileId, frame) => this.pushOrderEvent(profileId, frame),
      positionsChanged: (profileId, slug) => this.markPositions(profileId, slug),
      marketResolved: (frame) => this.pushResolved(frame),
      marketCreated: (frame) => {
        if (this.frozenScope !== 'all') this.lifecycle.pushCreated(frame);
      },
    });
    if (options.engine.underlying() !== null) this.scheduleOracle();
  }

  /** Once a second: each crypto market's subscribers get the underlying's published price. */
  private scheduleOracle(): void {
    this.cancelOracle = this.options.clock.schedule(ORACLE_EVERY_MS, () => {
      this.pushOracle();
      this.scheduleOracle();
    });
  }

  private pushOracle(): void {
    const world = this.options.engine.underlying();
    if (world === null || this.frozenScope === 'all' || this.frozenScope === 'oracle') return;
    const now = this.options.clock.now();
    world.advanceTo(now);
    for (const market of this.options.engine.markets()) {
      if (!market.oracle || !market.tradable || !this.hasMembers(pricesRoom(market.slug))) continue;
      const value = world.publishedAt(market.oracle.ticker, now);
      if (value === null) continue;
      // The SDK types `marketAddress: string | null`; a CLOB market has no market contract of its own: null.
      this.nsp.to(pricesRoom(market.slug)).emit('oraclePriceData', { marketAddress: null, marketSlug: market.slug, timestamp: now, value });
      this.options.hooks?.onFeedFrame?.('oraclePriceData');
    }
  }

  get frozen(): FreezeScope | null {
    return this.frozenScope;
  }

  /** Unit of `orderbookUpdate` level sizes. */
  get bookSizeUnit(): SocketBookSizeUnit {
    return this.sizeUnit;
  }

  /** Switches the unit of `orderbookUpdate` sizes; takes effect with the next frame. */
  setBookSizeUnit(unit: SocketBookSizeUnit): void {
    this.sizeUnit = unit;
  }

  connectionCount(): number {
    return this.nsp.sockets.size;
  }

  freeze(scope: FreezeScope = 'books'): void {
    this.frozenScope = scope;
  }

  private get booksFrozen(): boolean {
    return this.frozenScope === 'books' || this.frozenScope === 'all';
  }

  /** Resumes the feed and pushes the current book of every subscribed market. */
  unfreeze(): void {
    if (this.frozenScope === null) return;
    const booksWereFrozen = this.booksFrozen;
    this.frozenScope = null;
    if (!booksWereFrozen) return;
    for (const room of this.nsp.adapter.rooms.keys()) {
      if (room.startsWith('prices:')) this.dirtyBooks.add(room.slice('prices:'.length));
    }
    this.scheduleFlush();
  }

  /**
   * Drops every connection. `transport` (default): the underlying connection closes without a goodbye,
   * as a network failure would (clients see `transport close` and reconnect by themselves). `server`: a
   * server-side disconnect (clients see `io server disconnect` and must reconnect explicitly).
   */
  dropAll(kind: DropKind = 'transport'): number {
    const sockets = [...this.nsp.sockets.values()];
    for (const socket of sockets) {
      if (kind === 'server') socket.disconnect(true);
      else socket.conn.close();
    }
    return sockets.length;
  }

  /** Emits a deliberately bad frame to the subscribers of one market. Returns how many sockets got it. */
  inject(frame: InjectedFrame): number {
    const room = pricesRoom(frame.marketSlug);
    const reached = this.nsp.adapter.rooms.get(room)?.size ?? 0;
    const target = this.nsp.to(room);
    if (frame.kind === 'custom') {
      target.emit(frame.event ?? 'orderbookUpdate', frame.payload);
    } else {
      target.emit('orderbookUpdate', frame.kind === 'malformed' ? malformedBook(frame.marketSlug) : this.crossedBook(frame.marketSlug));
    }
    return reached;
  }

  close(): void {
    this.unsubscribeEngine();
    this.cancelOracle?.();
    this.cancelOracle = null;
    this.cancelFlush?.();
    this.cancelFlush = null;
  }

  // ───────────── connection and subscriptions ─────────────

  private authenticate(socket: FeedSocket): void {
    socket.data.profileId = null;
    socket.data.account = null;
    socket.data.authError = null;
    const headers = socket.handshake.headers;
    if (!hasAuthHeaders(headers, this.options.headerPrefix)) return;
    const verdict = verifyHmac(this.options.tokens, this.options.headerPrefix, {
      headers,
      method: 'GET',
      pathWithQuery: SOCKET_HANDSHAKE_PATH,
      body: '',
      nowMs: this.options.clock.now(),
    });
    if (!verdict.ok) {
      socket.data.authError = verdict.message;
      this.options.hooks?.onSocketAuthFailure?.(verdict.reason);
      return;
    }
    const account = this.options.engine.account(verdict.token.profileId);
    if (!account) {
      socket.data.authError = 'Profile not found';
      return;
    }
    socket.data.profileId = account.profileId;
    socket.data.account = account.address;
  }

  private onConnection(socket: FeedSocket): void {
    const authenticated = socket.data.profileId !== null;
    this.options.hooks?.onSocketConnection?.(authenticated);
    if (socket.data.authError !== null) this.exception(socket, `Authentication failed: ${socket.data.authError}`);
    socket.emit('system', { message: 'Connected', authenticated });
    socket.on('subscribe_market_prices', (payload) => this.onSubscribePrices(socket, payload));
    socket.on('subscribe_positions', (payload) => this.onSubscribePositions(socket, payload));
    socket.on('subscribe_order_events', () => this.onSubscribeOrders(socket));
    socket.on(SUBSCRIBE_LIFECYCLE, (payload) => this.lifecycle.subscribe(socket, payload));
    socket.on(UNSUBSCRIBE_LIFECYCLE, (payload) => this.lifecycle.unsubscribe(socket, payload));
    socket.on('unsubscribe', (payload, ack) => this.onUnsubscribe(socket, payload, ack));
  }

  /**
   * The official client's `unsubscribe(channel, options)`: `{channel, ...options}` with an acknowledgement, answered
   * `{channel, unsubscribed: true}` or `{error}` (the client treats an answer with `error` as a failure). Market
   * prices and positions leave the named `marketSlugs`, or every market when none are named.
   */
  private onUnsubscribe(socket: FeedSocket, payload: unknown, ack: unknown): void {
    const parsed = unsubscribePayload.safeParse(payload);
    const answer = (body: Record<string, unknown>): void => {
      if (typeof ack === 'function') Reflect.apply(ack, undefined, [body]);
      else if ('error' in body) this.exception(socket, String(body['error']));
      else socket.emit('system', { message: 'Unsubscribed', event: 'unsubscribe', ...body });
    };
    if (!parsed.success) {
      answer({ error: 'unsubscribe: payload must be {channel: string, marketSlugs?: string[]}' });
      return;
    }
    const { channel, marketSlugs } = parsed.data;
    const leave = (prefix: string, room: (slug: string) => string): void => {
      const named = marketSlugs === undefined ? null : new Set(marketSlugs.map(room));
      for (const r of [...socket.rooms]) if (r.startsWith(prefix) && (named === null || named.has(r))) void socket.leave(r);
    };
    const profileId = socket.data.profileId;
    if (channel === SUBSCRIBE_LIFECYCLE || channel === UNSUBSCRIBE_LIFECYCLE) this.lifecycle.leave(socket);
    else if (channel === 'subscribe_market_prices') leave('prices:', pricesRoom);
    else if (channel === 'subscribe_positions') {
      if (profileId !== null) leave(`positions:${profileId}:`, (slug) => positionsRoom(profileId, slug));
    } else if (channel === 'subscribe_order_events') {
      if (profileId !== null) void socket.leave(ordersRoom(profileId));
    } else {
      answer({ error: `unsubscribe: unknown channel ${JSON.stringify(channel)}` });
      return;
    }
    answer({ channel, unsubscribed: true });
  }

  private parseSlugs(socket: FeedSocket, event: string, payload: unknown): { known: string[]; unknown: string[] } | null {
    const parsed = slugsPayload.safeParse(payload);
    if (!parsed.success) {
      this.exception(socket, `${event}: payload must be {marketSlugs: string[]} with at most ${MAX_SUBSCRIBED_SLUGS} slugs`);
      return null;
    }
    const unique = [...new Set(parsed.data.marketSlugs)];
    const known = unique.filter((slug) => this.options.engine.market(slug) !== undefined);
    return { known, unknown: unique.filter((slug) => !known.includes(slug)) };
  }

  private replaceRooms(socket: FeedSocket, prefix: string, rooms: readonly string[]): void {
    for (const room of [...socket.rooms]) {
      if (room.startsWith(prefix) && !rooms.includes(room)) void socket.leave(room);
    }
    for (const room of rooms) void socket.join(room);
  }

  private onSubscribePrices(socket: FeedSocket, payload: unknown): void {
    const slugs = this.parseSlugs(socket, 'subscribe_market_prices', payload);
    if (!slugs) return;
    this.replaceRooms(socket, 'prices:', slugs.known.map(pricesRoom));
    socket.emit('system', { message: 'Subscribed to market prices', event: 'subscribe_market_prices', marketSlugs: slugs.known, unknownMarketSlugs: slugs.unknown });
    if (this.booksFrozen) return;
    for (const slug of slugs.known) {
      const frame = this.bookFrame(slug);
      if (frame) this.emitCounted(socket, 'orderbookUpdate', frame);
    }
  }

  private onSubscribePositions(socket: FeedSocket, payload: unknown): void {
    const profileId = socket.data.profileId;
    if (profileId === null) {
      this.exception(socket, 'subscribe_positions requires an authenticated connection');
      return;
    }
    const slugs = this.parseSlugs(socket, 'subscribe_positions', payload);
    if (!slugs) return;
    this.replaceRooms(socket, `positions:${profileId}:`, slugs.known.map((slug) => positionsRoom(profileId, slug)));
    socket.emit('system', { message: 'Subscribed to positions', event: 'subscribe_positions', marketSlugs: slugs.known, unknownMarketSlugs: slugs.unknown });
    if (this.frozenScope === 'all') return;
    for (const slug of slugs.known) {
      const frame = this.positionsFrameOf(profileId, slug);
      if (frame) socket.emit('positions', frame);
    }
  }

  private onSubscribeOrders(socket: FeedSocket): void {
    const profileId = socket.data.profileId;
    if (profileId === null) {
      this.exception(socket, 'subscribe_order_events requires an authenticated connection');
      return;
    }
    void socket.join(ordersRoom(profileId));
    socket.emit('system', { message: 'Subscribed to order events', event: 'subscribe_order_events' });
  }

  private exception(socket: FeedSocket, message: string): void {
    socket.emit('exception', { status: 'error', message });
  }

  // ───────────── pushes ─────────────

  private hasMembers(room: string): boolean {
    return (this.nsp.adapter.rooms.get(room)?.size ?? 0) > 0;
  }

  private markBook(slug: string): void {
    if (!this.hasMembers(pricesRoom(slug))) return;
    this.dirtyBooks.add(slug);
    this.scheduleFlush();
  }

  private markPositions(profileId: number, slug: string): void {
    if (!this.hasMembers(positionsRoom(profileId, slug))) return;
    this.dirtyPositions.set(`${profileId}|${slug}`, { profileId, slug });
    this.scheduleFlush();
  }

  private pushOrderEvent(profileId: number, frame: OrderEventFrame): void {
    if (this.frozenScope === 'all' || this.frozenScope === 'orders') return;
    this.nsp.to(ordersRoom(profileId)).emit('orderEvent', frame);
    this.options.hooks?.onFeedFrame?.('orderEvent');
  }

  private pushResolved(frame: MarketResolvedFrame): void {
    if (this.frozenScope === 'all') return;
    this.lifecycle.pushResolved(frame, pricesRoom(frame.slug));
  }

  /**
   * Leading-edge coalescing: the first change after a quiet period flushes on the next turn of the event
   * loop (so one engine command's burst is one frame); later changes wait until `coalesceMs` after the
   * previous flush.
   */
  private scheduleFlush(): void {
    if (this.cancelFlush !== null) return;
    const delay = Math.max(0, this.lastFlushMs + this.options.coalesceMs - this.options.clock.now());
    this.cancelFlush = this.options.clock.schedule(delay, () => {
      this.cancelFlush = null;
      this.flush();
    });
  }

  private flush(): void {
    this.lastFlushMs = this.options.clock.now();
    if (!this.booksFrozen) {
      for (const slug of this.dirtyBooks) {
        const frame = this.bookFrame(slug);
        if (frame) {
          this.nsp.to(pricesRoom(slug)).emit('orderbookUpdate', frame);
          this.options.hooks?.onFeedFrame?.('orderbookUpdate');
        }
      }
      this.dirtyBooks.clear();
    }
    if (this.frozenScope !== 'all') {
      for (const { profileId, slug } of this.dirtyPositions.values()) {
        const frame = this.positionsFrameOf(profileId, slug);
        if (frame) this.nsp.to(positionsRoom(profileId, slug)).emit('positions', frame);
      }
    }
    this.dirtyPositions.clear();
  }

  private emitCounted(socket: FeedSocket, event: 'orderbookUpdate', frame: BookFrame): void {
    socket.emit(event, frame);
    this.options.hooks?.onFeedFrame?.(event);
  }

  private bookFrame(slug: string): BookFrame | null {
    const market = this.options.engine.market(slug);
    const book = this.options.engine.book(slug);
    if (!market || !book) return null;
    return { marketSlug: slug, orderbook: wireOrderbook(market, book, this.sizeUnit), timestamp: this.options.clock.now() };
  }

  private positionsFrameOf(profileId: number, slug: string): Record<string, unknown> | null {
    const market = this.options.engine.market(slug);
    const account = this.options.engine.account(profileId);
    if (!market || !account) return null;
    const summary = this.options.engine.positions(profileId).find((p) => p.marketSlug === slug);
    return positionsFrame(account.address, summary, market, this.options.engine.book(slug));
  }

  private crossedBook(slug: string): BookFrame | Record<string, unknown> {
    const market = this.options.engine.market(slug);
    if (!market) return { marketSlug: slug, orderbook: { bids: [{ price: 0.6, size: 100 }], asks: [{ price: 0.4, size: 100 }] }, timestamp: this.options.clock.now() };
    return { marketSlug: slug, orderbook: crossedOrderbook(market, this.sizeUnit), timestamp: this.options.clock.now() };
  }
}

interface BookFrame {
  readonly marketSlug: string;
  readonly orderbook: WireOrderbook;
  readonly timestamp: number;
}

function crossedOrderbook(market: SimMarket, unit: SocketBookSizeUnit): WireOrderbook {
  const size = (shares: number): number => (unit === 'raw' ? shares * 1_000_000 : shares);
  return {
    bids: [{ price: 0.6, size: size(100), side: 'BUY' }, { price: 0.55, size: size(50), side: 'BUY' }],
    asks: [{ price: 0.4, size: size(100), side: 'SELL' }, { price: 0.45, size: size(50), side: 'SELL' }],
    tokenId: market.yesTokenId,
    adjustedMidpoint: 0.5,
    maxSpread: market.settings.maxSpreadTicks / 1000,
    minSize: market.settings.minSizeRaw,
  };
}

function malformedBook(slug: string): Record<string, unknown> {
  return {
    marketSlug: slug,
    orderbook: { bids: 'not-an-array', asks: [{ price: 'abc', size: -5 }, { price: 1.5 }], tokenId: 12, adjustedMidpoint: 'NaN', maxSpread: null, minSize: {} },
    timestamp: 'not-a-time',
  };
}
