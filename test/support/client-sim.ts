/**
 * Test helper (tests only): the bot's real REST client (src/exchange: connectExchange → HttpTransport, limiter,
 * OrderSigner, ExchangeApi) wired to an embedded simulator (src/sim) on 127.0.0.1, port 0.
 *
 * What it owns:
 * - JumpClock: the simulator's clock for these tests. Real time plus an offset that only `jump` moves, forward,
 *   at once; scheduled tasks run on real timers and, on a jump, every task then due runs at once in due order.
 *   It lets a test age a request in transit (receive window), post a payout or settle a trade without waiting.
 *   The clients read the same clock for their HMAC and body timestamps, so client and venue agree on the time
 *   the way two NTP-synced hosts do.
 * - startClientSim: a simulator (rate limits on) with the demo account and a counterparty account (profile 2,
 *   not a server-managed wallet), and one connected client per account, each with a recording observer. Clients
 *   of the same API token share one RequestLimiter (as the bot's `sharedLimiters` does); no state is shared
 *   between harnesses.
 * - clientSimPerTest: one harness per test, checked (zero 429s from the simulator's limiter, optionally the
 *   simulator's invariants) and closed after each test.
 * - small helpers: sign/place a limit order, read the simulator's request log for one token, await a rejection
 *   of a given error class.
 *
 * Invariants: every server listens on 127.0.0.1 only and is closed by `close()`; nothing here sleeps a fixed
 * time (tests poll with waitUntil from sim-http.ts).
 */
import { afterEach, expect } from 'vitest';
import type { Side } from '../../src/core/venue-rules/index.js';
import { connectExchange, type ExchangeClient } from '../../src/exchange/client.js';
import type { FetchLike, TransportObserver } from '../../src/exchange/http.js';
import type { RetryPolicy } from '../../src/exchange/retry-table.js';
import { RequestLimiter, type LimiterConfig } from '../../src/exchange/limiter.js';
import { signingMarketOf, type SignedOrder, type SigningMarket } from '../../src/exchange/signer.js';
import { formatClientOrderId, marketKey } from '../../src/orders/client-order-id.js';
import type { Market, PlacementResult } from '../../src/exchange/wire.js';
import type { SimClock, SimMarket } from '../../src/sim/engine/index.js';
import {
  deriveAccountCredentials,
  startSimulator,
  type AccountConfigInput,
  type DemoAccount,
  type RateLimitOptions,
  type RequestLogEntry,
  type RunningSimulator,
  type StartSimulatorOptions,
} from '../../src/sim/index.js';
import { seededRandom } from './fake-time.js';

// ─────────────────────────────────────────── clock ───────────────────────────────────────────

/** Node's longest timer; a longer wait is re-armed when it fires early. */
const MAX_TIMER_MS = 2_147_483_647;

interface JumpTask {
  readonly due: number;
  readonly fn: () => void;
  timer: NodeJS.Timeout | null;
  done: boolean;
}

/** Real time plus a forward-only offset moved by `jump`; see the module header. */
export class JumpClock implements SimClock {
  private offsetMs = 0;
  private readonly tasks = new Set<JumpTask>();

  now(): number {
    return Date.now() + this.offsetMs;
  }

  schedule(delayMs: number, fn: () => void): () => void {
    const task: JumpTask = { due: this.now() + Math.max(0, delayMs), fn, timer: null, done: false };
    this.tasks.add(task);
    this.arm(task);
    return () => this.retire(task);
  }

  /** Moves the clock forward by `ms` at once and runs every task due by then, earliest first. */
  jump(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`JumpClock.jump: ms must be >= 0 (got ${ms})`);
    this.offsetMs += ms;
    const now = this.now();
    const due = [...this.tasks].filter((t) => t.due <= now).sort((a, b) => a.due - b.due);
    for (const task of due) this.run(task);
    for (const task of this.tasks) this.arm(task);
  }

  private arm(task: JumpTask): void {
    if (task.timer !== null) clearTimeout(task.timer);
    const wait = Math.min(Math.max(0, task.due - this.now()), MAX_TIMER_MS);
    task.timer = setTimeout(() => {
      task.timer = null;
      if (this.now() >= task.due) this.run(task);
      else this.arm(task);
    }, wait);
    task.timer.unref();
  }

  private run(task: JumpTask): void {
    if (task.done) return;
    this.retire(task);
    task.fn();
  }

  private retire(task: JumpTask): void {
    task.done = true;
    if (task.timer !== null) clearTimeout(task.timer);
    task.timer = null;
    this.tasks.delete(task);
  }
}

// ─────────────────────────────────────────── limits ───────────────────────────────────────────

/**
 * Shortened limits for the functional tests (the brief allows a shorter interval in both): the simulator admits
 * a request 20 ms after the previous one; the client spaces its sends 50 ms apart. The 30 ms difference is the
 * same kind of margin the real-limits test gives (see ARRIVAL_MARGIN_MS): the simulator measures arrivals, the
 * client can only measure sends.
 */
export const FAST_SIM_LIMITS: Partial<RateLimitOptions> = { enabled: true, maxConcurrent: 2, minIntervalMs: 20 };
export const FAST_CLIENT_LIMITS: Partial<LimiterConfig> = { maxConcurrent: 2, minTimeMs: 50 };

/**
 * What a client must add to the venue's 300 ms so that arrival jitter (a request that spends longer between
 * "sent" and "counted" than the next one) cannot make two arrivals closer than 300 ms. docs/simulator.md asks
 * for 320 ms; measured in-process, a cold first request arrives up to ~15 ms later than it was marked sent.
 */
export const ARRIVAL_MARGIN_MS = 20;

// ─────────────────────────────────────────── harness ───────────────────────────────────────────

export const COUNTERPARTY_PROFILE_ID = 2;

export type ObservedEvent =
  | { readonly kind: 'start'; readonly endpoint: string; readonly attempt: number }
  | { readonly kind: 'end'; readonly endpoint: string; readonly status: number | 'timeout' | 'network'; readonly attempt: number }
  | { readonly kind: 'retry'; readonly endpoint: string; readonly reason: string; readonly attempt: number; readonly delayMs: number };

/** A transport observer that records what the client did; `onStart` lets a test act at the moment of sending. */
export class RecordingObserver implements TransportObserver {
  readonly events: ObservedEvent[] = [];
  onStart: ((endpoint: string, attempt: number) => void) | null = null;

  onRequestStart(endpoint: string, attempt: number): void {
    this.events.push({ kind: 'start', endpoint, attempt });
    this.onStart?.(endpoint, attempt);
  }

  onRequestEnd(endpoint: string, status: number | 'timeout' | 'network', _ms: number, attempt: number): void {
    this.events.push({ kind: 'end', endpoint, status, attempt });
  }

  onRetry(endpoint: string, reason: string, attempt: number, delayMs: number): void {
    this.events.push({ kind: 'retry', endpoint, reason, attempt, delayMs });
  }

  /** HTTP statuses the client received, in order (optionally for one endpoint label). */
  statuses(endpoint?: string): (number | 'timeout' | 'network')[] {
    return this.events.flatMap((e) => (e.kind === 'end' && (endpoint === undefined || e.endpoint === endpoint) ? [e.status] : []));
  }

  retries(endpoint?: string): { reason: string; attempt: number; delayMs: number }[] {
    return this.events.flatMap((e) =>
      e.kind === 'retry' && (endpoint === undefined || e.endpoint === endpoint) ? [{ reason: e.reason, attempt: e.attempt, delayMs: e.delayMs }] : [],
    );
  }
}

export interface TestClient {
  readonly client: ExchangeClient;
  readonly observer: RecordingObserver;
  readonly account: DemoAccount;
}

export interface ClientSim {
  readonly sim: RunningSimulator;
  readonly clock: JumpClock;
  readonly demo: TestClient;
  readonly counterparty: TestClient;
  /** The first single (non-group) market, as the engine holds it. */
  readonly simMarket: SimMarket;
  /** The same market read through the client (GET /markets/{slug}). */
  readonly market: Market;
  readonly signing: SigningMarket;
  /** Another single market. */
  readonly otherMarket: Market;
  /**
   * Connects one more client (closed with the harness): `account.tokenId`/`secret` authenticate (sharing that
   * token's limiter), `account.privateKey` signs the orders, `options` may delegate.
   */
  connect(account: DemoAccount, options?: ConnectOptions): Promise<TestClient>;
  close(): Promise<void>;
}

export interface ClientSimOptions {
  readonly seed?: number;
  /** The simulator's rate limits (default FAST_SIM_LIMITS). */
  readonly simLimits?: Partial<RateLimitOptions>;
  /** Each API token's client-side limiter (default FAST_CLIENT_LIMITS). */
  readonly clientLimits?: Partial<LimiterConfig>;
  readonly retry?: Partial<RetryPolicy>;
  /** The clients' EIP-712 domain (default: the signer's defaults). */
  readonly signerDomain?: { readonly domainName?: string; readonly chainId?: number };
  /** Accounts besides the demo account and the counterparty (profile ids other than 1 and 2). */
  readonly accounts?: readonly AccountConfigInput[];
  /** Further simulator options (markets, delays, demo...). */
  readonly sim?: Omit<StartSimulatorOptions, 'port' | 'clock' | 'rateLimit' | 'accounts' | 'seed'>;
}

export interface ConnectOptions {
  /** A managed sub-account to act for. */
  readonly onBehalfOf?: number;
  /** Send through this fetch instead of node:http (e.g. to model a slow network path). */
  readonly fetch?: FetchLike;
  /** This token's limiter config, when it is the first client of the token (else the harness default). */
  readonly limits?: Partial<LimiterConfig>;
}

/**
 * One RequestLimiter per API token, shared by every client of that token (as `sharedLimiters` does in the bot),
 * but private to one harness so tests do not share limiter state.
 */
export class TokenLimiters {
  private readonly byToken = new Map<string, RequestLimiter>();
  constructor(private readonly config: Partial<LimiterConfig>) {}

  of(tokenId: string, config: Partial<LimiterConfig> = this.config): RequestLimiter {
    let limiter = this.byToken.get(tokenId);
    if (limiter === undefined) {
      limiter = new RequestLimiter(config);
      this.byToken.set(tokenId, limiter);
    }
    return limiter;
  }
}

/** Connects a client for `account` (its wallet key signs the orders) through the simulator, on `clock`. */
export async function connectClient(
  sim: RunningSimulator,
  clock: JumpClock,
  limiters: TokenLimiters,
  account: DemoAccount,
  options: ClientSimOptions = {},
  randomSeed = 1,
  connectOptions: ConnectOptions = {},
): Promise<TestClient> {
  const observer = new RecordingObserver();
  const credentials = { tokenId: account.tokenId, secret: account.secret };
  const client = await connectExchange({
    baseUrl: sim.baseUrl,
    headerPrefix: sim.headerPrefix,
    credentials,
    signer: { privateKey: account.privateKey, ...options.signerDomain },
    ...(connectOptions.onBehalfOf === undefined ? {} : { onBehalfOf: connectOptions.onBehalfOf }),
    transport: {
      limiter: limiters.of(credentials.tokenId, connectOptions.limits),
      ...(connectOptions.fetch === undefined ? {} : { fetch: connectOptions.fetch }),
      now: () => clock.now(),
      random: seededRandom(randomSeed),
      observer,
      ...(options.retry === undefined ? {} : { retry: options.retry }),
    },
  });
  return { client, observer, account };
}

/**
 * For a test file whose tests each start one harness: registers an afterEach that checks that the client's limiter
 * kept both tokens (demo and counterparty) inside the simulator's limits throughout (zero 429s from its rate
 * limiter), with `invariants` also that the simulator's own invariants hold, and then closes the harness. Returns
 * what the tests start their harness with, in place of `startClientSim`.
 */
export function clientSimPerTest(checks: { readonly invariants: boolean }): (options?: ClientSimOptions) => Promise<ClientSim> {
  let current: ClientSim | null = null;
  afterEach(async () => {
    if (current === null) return;
    const h = current;
    try {
      const { sim, demo, counterparty } = h;
      expect(rateLimitedCount(sim, demo.account.tokenId)).toBe(0);
      expect(rateLimitedCount(sim, counterparty.account.tokenId)).toBe(0);
      if (checks.invariants) expect(sim.control.invariants()).toEqual([]);
    } finally {
      current = null;
      await h.close();
    }
  });
  return async (options = {}) => {
    current = await startClientSim(options);
    return current;
  };
}

/** A simulator with rate limits on, and connected clients for the demo account and a counterparty. */
export async function startClientSim(options: ClientSimOptions = {}): Promise<ClientSim> {
  const seed = options.seed ?? 11;
  const clock = new JumpClock();
  const cp = deriveAccountCredentials(seed, 'counterparty', COUNTERPARTY_PROFILE_ID);
  const sim = await startSimulator({
    settlementDelayMs: 1_000,
    payoutDelayMs: 60_000,
    ...options.sim,
    seed,
    clock,
    rateLimit: options.simLimits ?? FAST_SIM_LIMITS,
    accounts: [
      {
        profileId: cp.profileId,
        address: cp.address,
        usdc: '5000',
        apiTokens: [{ tokenId: cp.tokenId, secret: cp.secret, scopes: ['trading'] }],
      },
      ...(options.accounts ?? []),
    ],
  });
  const limiters = new TokenLimiters(options.clientLimits ?? FAST_CLIENT_LIMITS);
  const opened: TestClient[] = [];
  const close = async (): Promise<void> => {
    for (const c of opened) c.client.transport.close();
    await sim.close();
  };
  try {
    const demo = await connectClient(sim, clock, limiters, sim.demoAccount, options, seed);
    opened.push(demo);
    const counterparty = await connectClient(sim, clock, limiters, cp, options, seed + 1);
    opened.push(counterparty);
    const singles = sim.engine.markets().filter((m) => m.groupSlug === undefined && m.tradable);
    const simMarket = singles[0];
    const other = singles[1];
    if (simMarket === undefined || other === undefined) throw new Error('the simulator generated fewer than two single markets');
    const market = await demo.client.api.getMarket(simMarket.slug);
    const otherMarket = await demo.client.api.getMarket(other.slug);
    const connect = async (account: DemoAccount, connectOptions: ConnectOptions = {}): Promise<TestClient> => {
      const extra = await connectClient(sim, clock, limiters, account, options, seed + 1 + opened.length, connectOptions);
      opened.push(extra);
      return extra;
    };
    return { sim, clock, demo, counterparty, simMarket, market, signing: signingMarketOf(market), otherMarket, connect, close };
  } catch (error) {
    await close();
    throw error;
  }
}

// ─────────────────────────────────────────── orders ───────────────────────────────────────────

export interface LimitInput {
  readonly outcome: 'YES' | 'NO';
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly postOnly?: boolean;
  readonly clientOrderId?: string;
  readonly recvWindowMs?: number;
}

/** Builds and signs a GTC limit order with the client's signer. */
export async function signLimit(client: ExchangeClient, market: SigningMarket, input: LimitInput): Promise<SignedOrder> {
  return client.signer.createOrder({
    market,
    tokenId: input.outcome === 'YES' ? market.tokens.yes : market.tokens.no,
    side: input.side,
    orderType: 'GTC',
    priceTicks: input.priceTicks,
    sizeRaw: input.sizeRaw,
    ...(input.postOnly === undefined ? {} : { postOnly: input.postOnly }),
    ...(input.clientOrderId === undefined ? {} : { clientOrderId: input.clientOrderId }),
    ...(input.recvWindowMs === undefined ? {} : { recvWindowMs: input.recvWindowMs }),
  });
}

/** Signs and places a GTC limit order through the client. */
export async function placeLimit(client: ExchangeClient, market: SigningMarket, input: LimitInput): Promise<PlacementResult> {
  return client.api.placeOrder(await signLimit(client, market, input));
}

/** The demo account's post-only BUY YES of 10 at 0.40 in the first market, tagged `botTag` in slot bid-0: a bot's resting quote. */
export async function placeRestingBid(
  cs: ClientSim,
  botTag: string,
): Promise<{ readonly slug: string; readonly tokens: SigningMarket['tokens']; readonly clientOrderId: string; readonly answer: PlacementResult }> {
  const slug = cs.market.slug;
  const clientOrderId = formatClientOrderId({ botTag, marketKey: marketKey(slug), slot: 'bid-0', sequence: 1 });
  const answer = await placeLimit(cs.demo.client, cs.signing, { outcome: 'YES', side: 'BUY', priceTicks: 400, sizeRaw: 10e6, postOnly: true, clientOrderId });
  return { slug, tokens: cs.signing.tokens, clientOrderId, answer };
}

// ─────────────────────────────────────────── inspection ───────────────────────────────────────────

/** The simulator's request log entries of one API token (requests sent unsigned carry no token). */
export function tokenLog(sim: RunningSimulator, tokenId: string, sinceSeq = 0): RequestLogEntry[] {
  return sim.control.requestLog({ sinceSeq }).filter((e) => e.tokenId === tokenId);
}

/** The last sequence number in the simulator's request log (0 when empty). */
export function lastSeq(sim: RunningSimulator): number {
  return sim.control.requestLog({ limit: 1 })[0]?.seq ?? 0;
}

/** 429s the simulator's rate limiter served to a token (injected faults are counted separately). */
export function rateLimitedCount(sim: RunningSimulator, tokenId: string): number {
  return sim.control.requestStats()[tokenId]?.rateLimited ?? 0;
}

/** Awaits `promise`, which must reject with an instance of `type`; returns the error, narrowed. */
export async function rejectionOf<T extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  let outcome: unknown;
  try {
    outcome = await promise;
  } catch (error) {
    if (error instanceof type) return error;
    throw new Error(`expected ${type.name}, got ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  throw new Error(`expected ${type.name}, but the call resolved with ${JSON.stringify(outcome)}`);
}
