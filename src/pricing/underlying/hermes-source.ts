/**
 * Pyth Hermes as a source of underlying prices, through the official client (`@pythnetwork/hermes-client`): one
 * server-sent-events stream for every feed the bot prices, a latest-price read at start and after every gap, and a
 * reconnect with exponential backoff and jitter when the stream errors or the server closes it (Hermes closes streams
 * after 24 h and drops slow readers).
 *
 * Owns: the stream's life and the translation of Hermes's parsed entries (`price` and `conf` as integers scaled by
 * 10^expo, `publish_time` in seconds) into store updates. Invariants: at most `budget.requests` requests (reads and
 * stream opens) start in any `budget.windowMs` (Hermes allows 10 per 10 s per IP and blocks for 60 s beyond); the API
 * key is sent as a bearer token and never logged (a 401/403 is reported as "the key in $NAME was refused"); every
 * price goes through the store's validation; timers come from the injected scheduler; after `stop` nothing reconnects.
 */
import type { HermesClient } from '@pythnetwork/hermes-client';
import { z } from 'zod';
import type { Scheduler } from '../../core/clock.js';
import { errorText } from '../../core/errors.js';
import type { UnderlyingStore } from './store.js';

export interface HermesSourceLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface HermesSourceOptions {
  readonly endpoint: string;
  /** The bearer token; null sends none. */
  readonly apiKey: string | null;
  /** The environment variable the key came from (named in errors, never its value). */
  readonly apiKeyEnv: string;
  /** Feed id (lower-case hex, no 0x) → ticker. */
  readonly feeds: ReadonlyMap<string, string>;
  readonly store: UnderlyingStore;
  readonly scheduler: Scheduler;
  readonly log: HermesSourceLog;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  readonly budget?: { readonly requests: number; readonly windowMs: number };
  /** Uniform [0, 1), for the backoff's jitter (seeded in tests). */
  readonly random?: () => number;
  readonly observer?: { onRequest?(kind: 'latest' | 'stream', ok: boolean): void };
}

const RpcPrice = z.object({ price: z.string(), conf: z.string(), expo: z.number().int(), publish_time: z.number().int() });
const Update = z.object({ parsed: z.array(z.object({ id: z.string(), price: RpcPrice })).nullish() });

interface StreamHandle {
  close(): void;
}

export class HermesSource {
  /** Made at the first read: the client (and its HTTP stack) is loaded only by a bot that reads Hermes. */
  private client: Promise<HermesClient> | null = null;
  private readonly starts: number[] = [];
  private stream: StreamHandle | null = null;
  private cancelTimer: (() => void) | null = null;
  private attempt = 0;
  private stopped = false;
  private keyRefusedLogged = false;

  constructor(private readonly o: HermesSourceOptions) {}

  private hermes(): Promise<HermesClient> {
    this.client ??= import('@pythnetwork/hermes-client').then(({ HermesClient }) => {
      // No retries inside the client: its own backoff sleeps on the wall clock; ours runs on the injected scheduler.
      return new HermesClient(this.o.endpoint, { httpRetries: 0, timeout: 10_000, ...(this.o.apiKey === null ? {} : { accessToken: this.o.apiKey }) });
    });
    return this.client;
  }

  /** Reads the latest prices, then opens the stream. */
  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.stream?.close();
    this.stream = null;
  }

  /** Requests started in the current window (for tests and the doctor). */
  requestsInWindow(): number {
    this.trim();
    return this.starts.length;
  }

  private ids(): string[] {
    return [...this.o.feeds.keys()];
  }

  private connect(): void {
    if (this.stopped) return;
    const wait = this.budgetWaitMs();
    if (wait > 0) {
      this.later(wait, () => this.connect());
      return;
    }
    this.note();
    void this.readLatest().then(() => {
      if (this.stopped) return;
      const streamWait = this.budgetWaitMs();
      if (streamWait > 0) this.later(streamWait, () => this.openStream());
      else this.openStream();
    });
  }

  private async readLatest(): Promise<void> {
    try {
      const update = await (await this.hermes()).getLatestPriceUpdates(this.ids(), { parsed: true });
      this.o.observer?.onRequest?.('latest', true);
      this.accept(update);
    } catch (error) {
      this.o.observer?.onRequest?.('latest', false);
      this.report('latest', error);
    }
  }

  private openStream(): void {
    if (this.stopped) return;
    this.note();
    this.hermes()
      .then((client) => client.getPriceUpdatesStream(this.ids(), { parsed: true }))
      .then((source) => {
        if (this.stopped) {
          source.close();
          return;
        }
        this.o.observer?.onRequest?.('stream', true);
        this.stream = source;
        source.onopen = () => {
          this.attempt = 0;
          this.o.log.info({ endpoint: this.o.endpoint, feeds: this.o.feeds.size }, 'Pyth Hermes stream open');
        };
        source.onmessage = (event: { readonly data: unknown }) => {
          try {
            this.accept(JSON.parse(String(event.data)));
          } catch (error) {
            this.o.log.warn({ err: errorText(error) }, 'Pyth Hermes: unreadable stream event dropped');
          }
        };
        source.onerror = (event: { readonly code?: number | undefined; readonly message?: string | undefined }) => {
          source.close();
          if (this.stream === source) this.stream = null;
          this.report('stream', new Error(`stream error${event.code === undefined ? '' : ` (status ${event.code})`}${event.message ? `: ${event.message}` : ''}`));
          this.reconnect();
        };
      })
      .catch((error: unknown) => {
        this.o.observer?.onRequest?.('stream', false);
        this.report('stream', error);
        this.reconnect();
      });
  }

  /** After a gap: back off, then read the latest prices again and reopen the stream. */
  private reconnect(): void {
    if (this.stopped) return;
    const { initialMs, maxMs } = this.o.backoff ?? { initialMs: 1_000, maxMs: 60_000 };
    const base = Math.min(maxMs, initialMs * 2 ** this.attempt);
    this.attempt += 1;
    const delay = Math.round(base * (0.5 + (this.o.random ?? Math.random)() * 0.5));
    this.later(delay, () => this.connect());
  }

  private accept(update: unknown): void {
    const parsed = Update.safeParse(update);
    if (!parsed.success) {
      this.o.log.warn({ issue: parsed.error.issues[0]?.message }, 'Pyth Hermes: an update not in Hermes\'s shape was dropped');
      return;
    }
    for (const entry of parsed.data.parsed ?? []) {
      const ticker = this.o.feeds.get(entry.id.toLowerCase().replace(/^0x/, ''));
      if (ticker === undefined) continue;
      const scale = 10 ** entry.price.expo;
      this.o.store.accept('hermes', { ticker, price: Number(entry.price.price) * scale, conf: Number(entry.price.conf) * scale, publishTimeMs: entry.price.publish_time * 1000 });
    }
  }

  private report(kind: 'latest' | 'stream', error: unknown): void {
    const text = this.redact(errorText(error));
    if (/\b(401|403)\b/.test(text)) {
      if (!this.keyRefusedLogged) this.o.log.error({ endpoint: this.o.endpoint, env: this.o.apiKeyEnv }, `Pyth Hermes refused the API key in $${this.o.apiKeyEnv} (${/\b403\b/.test(text) ? 403 : 401}): set a valid key; pricing uses the venue's oracle frames meanwhile`);
      this.keyRefusedLogged = true;
      return;
    }
    this.o.log.warn({ endpoint: this.o.endpoint, kind, err: text }, 'Pyth Hermes unreachable; retrying with backoff');
  }

  private redact(text: string): string {
    const key = this.o.apiKey;
    return key === null || key === '' ? text : text.split(key).join('[redacted]');
  }

  private later(ms: number, fn: () => void): void {
    this.cancelTimer?.();
    this.cancelTimer = this.o.scheduler.schedule(ms, () => {
      this.cancelTimer = null;
      fn();
    });
  }

  private trim(): void {
    const windowMs = (this.o.budget ?? DEFAULT_BUDGET).windowMs;
    const now = this.o.scheduler.now();
    while (this.starts.length > 0 && (this.starts[0] ?? 0) <= now - windowMs) this.starts.shift();
  }

  private budgetWaitMs(): number {
    this.trim();
    const { requests, windowMs } = this.o.budget ?? DEFAULT_BUDGET;
    if (this.starts.length < requests) return 0;
    return (this.starts[0] ?? 0) + windowMs - this.o.scheduler.now() + 1;
  }

  private note(): void {
    this.starts.push(this.o.scheduler.now());
  }
}

/** Half of Hermes's 10 requests per 10 s per IP: room for the doctor and a second process. */
export const DEFAULT_BUDGET = { requests: 5, windowMs: 10_000 } as const;
