/**
 * A minimal venue-like Socket.IO server for market-data tests: namespace `/markets` on 127.0.0.1:0, the
 * subscribe_* emits of exchange-facts §5 (each call replaces the socket's set), full-book pushes to
 * subscribers, optional HMAC handshake verification against an injected clock, a "frozen" switch (REST
 * state moves on, no pushes), and a `snapshot(slug)` that plays the REST orderbook endpoint.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  authHeaderNames,
  computeSignature,
  signaturesEqual,
  signingMessage,
  SOCKET_HANDSHAKE_PATH,
  type ApiCredentials,
} from '../../../../src/exchange/auth.js';
import type { BookSnapshot } from '../../../../src/book/snapshot.js';
import { ticksToPrice, rawToDecimal } from '../../../../src/core/venue-rules/index.js';

export interface Handshake {
  readonly timestamp: string | undefined;
  readonly accepted: boolean;
  readonly reason: string | null;
}

export interface ReceivedEmit {
  readonly socketId: string;
  readonly event: string;
  readonly payload: unknown;
}

export interface TestServerOptions {
  readonly auth?: { readonly credentials: ApiCredentials; readonly now: () => number; readonly prefix?: string };
}

export class TestSocketServer {
  readonly handshakes: Handshake[] = [];
  readonly received: ReceivedEmit[] = [];
  frozen = false;
  private readonly books = new Map<string, BookSnapshot>();
  private readonly subscriptions = new Map<string, Set<string>>();

  private constructor(
    private readonly http: HttpServer,
    readonly io: Server,
    readonly url: string,
  ) {}

  static async start(options: TestServerOptions = {}): Promise<TestSocketServer> {
    const http = createServer();
    const io = new Server(http, { transports: ['websocket'] });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const address = http.address();
    if (address === null || typeof address === 'string') throw new Error('test server has no TCP address');
    const server = new TestSocketServer(http, io, `http://127.0.0.1:${address.port}`);
    server.install(options);
    return server;
  }

  private install(options: TestServerOptions): void {
    const nsp = this.io.of('/markets');
    nsp.use((socket, next) => {
      const auth = options.auth;
      if (auth === undefined) {
        this.handshakes.push({ timestamp: undefined, accepted: true, reason: null });
        next();
        return;
      }
      const names = authHeaderNames(auth.prefix);
      const header = (name: string): string | undefined => {
        const value = socket.handshake.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const timestamp = header(names.timestamp);
      const reason = verify(auth, header(names.apiKey), timestamp, header(names.signature));
      this.handshakes.push({ timestamp, accepted: reason === null, reason });
      if (reason === null) next();
      else next(new Error(reason));
    });
    nsp.on('connection', (socket: Socket) => {
      socket.onAny((event: string, ...args: unknown[]) => {
        this.received.push({ socketId: socket.id, event, payload: args[0] });
        if (event === 'subscribe_market_prices') {
          const slugs = marketSlugs(args[0]);
          this.subscriptions.set(socket.id, new Set(slugs));
          socket.emit('system', { message: 'subscribed', marketSlugs: slugs });
        }
      });
      socket.on('disconnect', () => this.subscriptions.delete(socket.id));
    });
  }

  /** Emits of one event name, in order. */
  emitsOf(event: string): unknown[] {
    return this.received.filter((r) => r.event === event).map((r) => r.payload);
  }

  connectedCount(): number {
    return this.io.of('/markets').sockets.size;
  }

  /** Sets the "REST" book and pushes it to subscribers (unless frozen or `push` is false). */
  setBook(slug: string, book: BookSnapshot, push = true): void {
    this.books.set(slug, book);
    if (push && !this.frozen) this.pushBook(slug);
  }

  /** The REST orderbook endpoint's answer. */
  snapshot(slug: string): BookSnapshot {
    const book = this.books.get(slug);
    if (book === undefined) throw new Error(`404 no market ${slug}`);
    return book;
  }

  pushBook(slug: string): void {
    const book = this.snapshot(slug);
    this.emitToSubscribers(slug, 'orderbookUpdate', toWire(slug, book));
  }

  emitToSubscribers(slug: string, event: string, payload: unknown): void {
    for (const [id, set] of this.subscriptions) {
      if (set.has(slug)) this.io.of('/markets').sockets.get(id)?.emit(event, payload);
    }
  }

  emitToAll(event: string, payload?: unknown): void {
    this.io.of('/markets').emit(event, payload);
  }

  /** Drops every connection (server-side disconnect). */
  dropAll(): void {
    this.io.of('/markets').disconnectSockets(true);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      void this.io.close(() => resolve());
    });
    this.http.closeAllConnections();
  }
}

function verify(
  auth: NonNullable<TestServerOptions['auth']>,
  apiKey: string | undefined,
  timestamp: string | undefined,
  signature: string | undefined,
): string | null {
  if (apiKey !== auth.credentials.tokenId) return 'bad api key';
  if (timestamp === undefined || signature === undefined) return 'missing headers';
  const age = Math.abs(auth.now() - Date.parse(timestamp));
  if (!(age <= 30_000)) return `timestamp outside 30 s (${age} ms)`;
  const expected = computeSignature(auth.credentials.secret, signingMessage(timestamp, 'GET', SOCKET_HANDSHAKE_PATH, ''));
  return signaturesEqual(expected, signature) ? null : 'bad signature';
}

function marketSlugs(payload: unknown): string[] {
  if (payload === null || typeof payload !== 'object') return [];
  const slugs: unknown = Reflect.get(payload, 'marketSlugs');
  return Array.isArray(slugs) ? slugs.filter((s): s is string => typeof s === 'string') : [];
}

/** The venue's wire form of a YES book: decimal prices, sizes in shares, as strings like the venue may send. */
export function toWire(slug: string, book: BookSnapshot): unknown {
  const side = (levels: BookSnapshot['bids']) =>
    levels.map((l) => ({ price: ticksToPrice(l.priceTicks), size: rawToDecimal(l.sizeRaw) }));
  return {
    marketSlug: slug,
    orderbook: {
      bids: side(book.bids),
      asks: side(book.asks),
      tokenId: '123',
      adjustedMidpoint: book.adjustedMidpoint ?? null,
      maxSpread: '0.05',
      minSize: '10',
    },
    timestamp: new Date(0).toISOString(),
  };
}

/** Polls `condition` every 5 ms until it holds, or fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 3_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
