/**
 * A loopback stand-in for Pyth's Hermes price service, serving the crypto world's underlyings in Hermes's own wire
 * shape, so the real `@pythnetwork/hermes-client` is tested against it: `GET <base>/v2/updates/price/latest?ids[]=…`
 * and the server-sent-events stream `GET <base>/v2/updates/price/stream?ids[]=…`, under the base path `/hermes`.
 *
 * Owns: those two routes, their auth (`Authorization: Bearer <key>` when a key is configured: 401 otherwise), their
 * rate limit (Hermes: 10 requests per 10 s per client address, 429 beyond), and the open streams (one `data:` event a
 * second with every requested feed, closed after `streamMaxMs` as Hermes closes streams after 24 h, and at close).
 * Invariants: prices are the world's PUBLISHED ones (`leadMs` late), as integers scaled by 10^expo (expo −8) in
 * decimal strings, publish times in seconds; ids answer without the 0x prefix; an unknown id is a 404 naming it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimClock, SimEngine } from '../engine/index.js';

export const HERMES_BASE_PATH = '/hermes';
const EXPO = -8;

export interface HermesOptions {
  /** Required bearer token; null: any request is accepted. */
  readonly apiKey: string | null;
  /** Requests per window per client address (Hermes: 10 per 10 s). */
  readonly rateLimit: { readonly requests: number; readonly windowMs: number };
  /** A stream is closed by the server after this long (Hermes: 24 h). */
  readonly streamMaxMs: number;
  /** Stream cadence (Hermes: about one update a second per feed). */
  readonly streamEveryMs: number;
}

export const DEFAULT_HERMES_OPTIONS: HermesOptions = { apiKey: null, rateLimit: { requests: 10, windowMs: 10_000 }, streamMaxMs: 24 * 3_600_000, streamEveryMs: 1000 };

interface ParsedEntry {
  readonly id: string;
  readonly price: { readonly price: string; readonly conf: string; readonly expo: number; readonly publish_time: number };
  readonly ema_price: { readonly price: string; readonly conf: string; readonly expo: number; readonly publish_time: number };
  readonly metadata: { readonly slot: number; readonly proof_available_time: number; readonly prev_publish_time: number };
}

export class HermesStandIn {
  private readonly hits = new Map<string, number[]>();
  private readonly streams = new Set<() => void>();
  private options: HermesOptions;

  constructor(
    private readonly engine: SimEngine,
    private readonly clock: SimClock,
    options: Partial<HermesOptions> = {},
  ) {
    this.options = { ...DEFAULT_HERMES_OPTIONS, ...options };
  }

  /** Requires this bearer token from now on (null: none). */
  setApiKey(key: string | null): void {
    this.options = { ...this.options, apiKey: key };
  }

  /** Whether `path` is a Hermes route (the caller then hands the request over). */
  static owns(path: string): boolean {
    return path === HERMES_BASE_PATH || path.startsWith(`${HERMES_BASE_PATH}/`);
  }

  /** Open streams (for tests and the server's close). */
  openStreams(): number {
    return this.streams.size;
  }

  /** Closes every open stream (the server is closing). */
  close(): void {
    for (const end of [...this.streams]) end();
  }

  handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): void {
    const now = this.clock.now();
    if ((req.method ?? 'GET').toUpperCase() !== 'GET') return json(res, 405, { message: 'Method not allowed' });
    const key = this.options.apiKey;
    if (key !== null && req.headers['authorization'] !== `Bearer ${key}`) return json(res, 401, { message: 'Unauthorized: a valid API key is required (Authorization: Bearer <key>)' });
    if (!this.admit(req.socket.remoteAddress ?? 'unknown', now)) {
      res.setHeader('retry-after', '60');
      return json(res, 429, { message: 'Too many requests' });
    }
    const route = path.slice(HERMES_BASE_PATH.length);
    const ids = query.getAll('ids[]').map((id) => id.toLowerCase().replace(/^0x/, ''));
    if (ids.length === 0) return json(res, 400, { message: 'ids[] is required' });
    const unknown = ids.filter((id) => this.tickerOf(id) === null);
    if (unknown.length > 0) return json(res, 404, { message: `Price ids not found: ${unknown.join(', ')}` });
    if (route === '/v2/updates/price/latest') return json(res, 200, this.update(ids, now));
    if (route === '/v2/updates/price/stream') return this.stream(res, ids);
    return json(res, 404, { message: `Cannot GET ${path}` });
  }

  private admit(client: string, now: number): boolean {
    const { requests, windowMs } = this.options.rateLimit;
    const recent = (this.hits.get(client) ?? []).filter((t) => t > now - windowMs);
    if (recent.length >= requests) {
      this.hits.set(client, recent);
      return false;
    }
    recent.push(now);
    this.hits.set(client, recent);
    return true;
  }

  private tickerOf(id: string): string | null {
    const world = this.engine.underlying();
    return world?.tickers().find((u) => u.pythFeedId.toLowerCase().replace(/^0x/, '') === id)?.ticker ?? null;
  }

  private update(ids: readonly string[], now: number): { binary: { encoding: 'hex'; data: string[] }; parsed: ParsedEntry[] } {
    const world = this.engine.underlying();
    world?.advanceTo(now);
    const publishTime = Math.floor((now - (world?.leadMs ?? 0)) / 1000);
    const parsed = ids.flatMap((id): ParsedEntry[] => {
      const ticker = this.tickerOf(id);
      const price = ticker === null || world === null ? null : world.publishedAt(ticker, now);
      if (price === null) return [];
      const scaled = (x: number): string => String(Math.round(x * 10 ** -EXPO));
      const rpc = { price: scaled(price), conf: scaled(price * 5e-5), expo: EXPO, publish_time: publishTime };
      return [{ id, price: rpc, ema_price: rpc, metadata: { slot: publishTime * 2, proof_available_time: publishTime, prev_publish_time: publishTime - 1 } }];
    });
    return { binary: { encoding: 'hex', data: [] }, parsed };
  }

  private stream(res: ServerResponse, ids: readonly string[]): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const openedAt = this.clock.now();
    let cancel: () => void = () => undefined;
    const end = (): void => {
      cancel();
      this.streams.delete(end);
      if (!res.writableEnded) res.end();
    };
    const tick = (): void => {
      const now = this.clock.now();
      if (now - openedAt >= this.options.streamMaxMs) return end();
      res.write(`data: ${JSON.stringify(this.update(ids, now))}\n\n`);
      cancel = this.clock.schedule(this.options.streamEveryMs, tick);
    };
    this.streams.add(end);
    res.on('close', end);
    tick();
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
