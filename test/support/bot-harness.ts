/**
 * Test helper (tests only): the WHOLE bot (src/app/bot.ts, in-process) against the simulator (src/sim).
 *
 * What it owns:
 * - `testConfig`: a validated AppConfig for a test (through the real schema, `parseConfig`): the fixed-spread
 *   strategy with small sizes, metrics off, the ledger in memory (or a temp file), a 1 s maintenance poll,
 *   no fill cool-off; either the embedded simulator (`venue.kind: sim`, flow on or off) or a standalone one seen
 *   as a `live` venue with the demo account's credentials in an env object (`liveEnv`), so the simulator can
 *   outlive the bot (restarts).
 * - `startBot`: starts a Bot, waits for its first quote cycle, keeps its log lines in memory.
 * - the third party (`THIRD_PARTY`): another account that makes the book the bot quotes around (and takes the
 *   bot's quotes) through the engine directly: no signing, nothing the bot can see but the book and its fills.
 * - `VenueWatcher`: looks at the venue after EVERY order event of the bot's account (engine listener, state
 *   consistent) and keeps what it saw, so a test asserts "never", not just "at the end": at most one live order
 *   per (market, slot), every live order tagged, and any exposure figure a test computes over the samples.
 * - `slotOverlaps`: the same invariant from the venue's order history, for moments no watcher sampled.
 * - `waitFor`: polls a condition (never a fixed sleep) with a deadline and a message.
 * - the common scenario set-ups: `cleanupAfterTest`, `startBookedSim` (a simulator whose markets carry the third
 *   party's opening book), `watchVenue`, `startLiveBot`, and `startQuotingBot` (all of those, until the bot quotes
 *   `LADDER_500`), plus `moveBookUp` (to `LADDER_510`) and `laddersAndWarnings` (what a timeout shows).
 *
 * Invariants: every server listens on 127.0.0.1 port 0; everything started (bots, simulators, temp ledgers) is
 * stopped or removed by `Cleanup.run()`; every simulator gets its own seed, hence its own API token, so tests can
 * run concurrently (the REST client shares one rate limiter per token id in a process).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { TestContext } from 'vitest';
import { Bot, type BotOptions, type BotSummary } from '../../src/app/bot.js';
import type { AppConfig } from '../../src/config/index.js';
import { parseConfig } from '../../src/config/index.js';
import { isOwnClientOrderId, tryParseClientOrderId } from '../../src/orders/client-order-id.js';
import { type Outcome, type Side, limitOrderAmounts } from '../../src/core/venue-rules/index.js';
import type { MarketSpec, SimOrder, SyntheticOptions } from '../../src/sim/engine/index.js';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/sim/index.js';
import { rateLimitViolations } from './chaos-invariants.js';
import { startStallRecorder } from './chaos-stalls.js';
import { poll } from './poll.js';

// ─────────────────────────────────────────── waiting ───────────────────────────────────────────

/** Polls `probe` every 20 ms until it returns something other than undefined; throws after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  what: string,
  state?: () => unknown,
): Promise<T> {
  return poll(probe, {
    timeoutMs,
    intervalMs: 20,
    failure: (lastError) => {
      const detail = lastError instanceof Error ? `: ${lastError.message}` : '';
      const seen = state === undefined ? '' : `; last seen: ${JSON.stringify(state())}`;
      return `timed out after ${timeoutMs} ms waiting for ${what}${detail}${seen}`;
    },
  });
}

/** Turns a boolean probe into a waitFor probe. */
export const when = (condition: boolean): true | undefined => (condition ? true : undefined);

// ─────────────────────────────────────────── cleanup ───────────────────────────────────────────

/** Things to stop after a test, newest first (bots before the simulator they talk to). */
export class Cleanup {
  private readonly tasks: (() => Promise<unknown>)[] = [];

  add(task: () => Promise<unknown>): void {
    this.tasks.push(task);
  }

  async run(): Promise<void> {
    const errors: unknown[] = [];
    while (this.tasks.length > 0) {
      const task = this.tasks.pop();
      try {
        await task?.();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}

/** A Cleanup that runs when the current test finishes (pass the test context's `onTestFinished`). */
export function cleanupAfterTest(onTestFinished: TestContext['onTestFinished']): Cleanup {
  const cleanup = new Cleanup();
  onTestFinished(() => cleanup.run());
  return cleanup;
}

// ─────────────────────────────────────────── simulator ───────────────────────────────────────────

/** The account that makes the book around the bot (and takes its quotes). Fee rate 0, plenty of USDC. */
export const THIRD_PARTY = { profileId: 77, address: '0x00000000000000000000000000000000000000a7' } as const;

export interface HarnessSimOptions {
  readonly seed?: number;
  /** Generated markets (default 3: one single market and a two-market group), or explicit specs. */
  readonly markets?: number | readonly MarketSpec[];
  readonly synthetic?: SyntheticOptions | false;
  readonly settlementDelayMs?: number;
  /** Extra simulator options. */
  readonly extra?: Omit<StartSimulatorOptions, 'port' | 'seed' | 'markets' | 'synthetic' | 'settlementDelayMs'>;
}

let seedCounter = 1000;

/**
 * A fresh seed per simulator: the seed derives the demo account's API token, and the REST client shares one rate
 * limiter per token id in the process, so concurrent tests must not share credentials.
 */
export function nextSeed(): number {
  seedCounter += 1;
  return seedCounter;
}

/** A standalone simulator (spec rate limits ON) with the third-party account funded. */
export async function startHarnessSim(options: HarnessSimOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({
    port: 0,
    seed: options.seed ?? nextSeed(),
    markets: options.markets ?? 3,
    synthetic: options.synthetic ?? false,
    settlementDelayMs: options.settlementDelayMs ?? 100,
    ...options.extra,
  });
  addThirdParty(sim);
  return sim;
}

/** Registers the third party on a running simulator (embedded ones too). Idempotent. */
export function addThirdParty(sim: RunningSimulator): void {
  if (sim.engine.account(THIRD_PARTY.profileId) !== undefined) return;
  sim.control.addAccount({ profileId: THIRD_PARTY.profileId, address: THIRD_PARTY.address, feeRateBps: 0, usdc: '1000000' });
}

/** The single (non-group) tradable markets of a simulator. */
export function singleMarkets(sim: RunningSimulator): string[] {
  return sim.engine
    .markets()
    .filter((m) => m.groupSlug === undefined && m.tradable)
    .map((m) => m.slug);
}

let salt = 1;

export interface ThirdPartyOrder {
  readonly outcome: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly orderType?: 'GTC' | 'FAK';
  /** Another account than the third party's (registered by the test), and its fee rate (the signed one must match it). */
  readonly profileId?: number;
  readonly feeRateBps?: number;
}

/** Places an order for the third party straight into the engine; throws with the engine's message on failure. */
export function thirdPartyPlace(sim: RunningSimulator, slug: string, order: ThirdPartyOrder): SimOrder {
  const market = sim.engine.market(slug);
  if (market === undefined) throw new Error(`thirdPartyPlace: unknown market ${slug}`);
  const amounts = limitOrderAmounts(order.side, order.priceTicks, order.sizeRaw);
  const outcome = sim.engine.place({
    profileId: order.profileId ?? THIRD_PARTY.profileId,
    marketSlug: slug,
    orderType: order.orderType ?? 'GTC',
    tokenId: order.outcome === 'YES' ? market.yesTokenId : market.noTokenId,
    side: order.side,
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    priceTicks: order.priceTicks,
    feeRateBps: order.feeRateBps ?? 0,
    salt: salt++,
    postOnly: false,
    stpPolicy: 'cancel_maker',
    signature: '0x',
    signedOrderEcho: {},
  });
  if (!outcome.ok) throw new Error(`thirdPartyPlace ${JSON.stringify(order)}: ${JSON.stringify(outcome.body)}`);
  return outcome.order;
}

/**
 * Sets the third party's quotes in a market to a YES bid and a YES ask (the ask as BUY NO at 1 − p, so only
 * USDC is needed). New quotes go in BEFORE the old ones are canceled, one side at a time, so the book never
 * goes one-sided in between. Pass only the side that moves to leave the other one as it is.
 */
export function setThirdPartyQuotes(sim: RunningSimulator, slug: string, quotes: { readonly bidTicks?: number; readonly askTicks?: number; readonly sizeRaw?: number }): void {
  const sizeRaw = quotes.sizeRaw ?? 50_000_000;
  const market = sim.engine.market(slug);
  if (market === undefined) throw new Error(`setThirdPartyQuotes: unknown market ${slug}`);
  const live = sim.engine.orders(THIRD_PARTY.profileId, slug, ['LIVE']);
  const isBid = (o: SimOrder): boolean => o.outcome === 'YES' && o.side === 'BUY';
  const isAsk = (o: SimOrder): boolean => o.outcome === 'NO' && o.side === 'BUY';
  const replace = (old: readonly SimOrder[], place: () => SimOrder): void => {
    const fresh = place();
    for (const order of old) if (order.id !== fresh.id) sim.engine.cancel(THIRD_PARTY.profileId, order.id);
  };
  if (quotes.askTicks !== undefined) {
    const askTicks = quotes.askTicks;
    replace(live.filter(isAsk), () => thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 1000 - askTicks, sizeRaw }));
  }
  if (quotes.bidTicks !== undefined) {
    const bidTicks = quotes.bidTicks;
    replace(live.filter(isBid), () => thirdPartyPlace(sim, slug, { outcome: 'YES', side: 'BUY', priceTicks: bidTicks, sizeRaw }));
  }
}

// ─────────────────────────────────────────── config ───────────────────────────────────────────

type Section = Readonly<Record<string, unknown>>;

export type TestVenue =
  | { readonly kind: 'live'; readonly sim: RunningSimulator }
  | { readonly kind: 'sim'; readonly seed?: number; readonly markets?: number; readonly flow?: Section; readonly settlementDelayMs?: number };

export interface TestConfigOptions {
  readonly venue: TestVenue;
  /** Market slugs, or a whole `markets` section. Default (live): the simulator's first single market. */
  readonly markets?: readonly string[] | Section;
  /** fixed-spread params, merged over the defaults (1 level, 5 shares, 2 cents each side, no size skew). */
  readonly strategy?: Section;
  readonly orders?: Section;
  readonly risk?: Section;
  readonly shutdown?: Section;
  readonly maintenance?: Section;
  readonly rateLimits?: Section;
  readonly feed?: Section;
  readonly pricing?: Section;
  readonly rewards?: Section;
  /** ':memory:' (default) or a file path (see `tempDatabasePath`). */
  readonly database?: string;
}

export const CREDENTIAL_ENV = { apiTokenId: 'OM_IT_TOKEN_ID', apiSecret: 'OM_IT_SECRET', privateKey: 'OM_IT_PRIVATE_KEY' } as const;

export const DEFAULT_STRATEGY_PARAMS: Section = { bidSpread: 0.02, askSpread: 0.02, levels: 1, orderSize: 5, sizeSkew: 0, maxPriceShift: 0 };

/** A fresh temp dir's ledger path (for tests that restart the bot on the same ledger); removed by `cleanup`. */
export function tempDatabasePath(cleanup: Cleanup): string {
  const dir = mkdtempSync(join(tmpdir(), 'om-bot-it-'));
  cleanup.add(async () => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'bot.db');
}

/** Builds and validates the bot's config exactly as `check-config` would (strict schema, defaults filled in). */
export function testConfig(options: TestConfigOptions): AppConfig {
  const venue = options.venue;
  const venueSection: Section =
    venue.kind === 'live'
      ? { kind: 'live', baseUrl: venue.sim.baseUrl, socketUrl: venue.sim.socketUrl, headerPrefix: venue.sim.headerPrefix }
      : {
          kind: 'sim',
          seed: venue.seed ?? nextSeed(),
          markets: venue.markets ?? 3,
          flow: venue.flow ?? { enabled: false },
          settlementDelayMs: venue.settlementDelayMs ?? 100,
        };
  const markets = options.markets ?? (venue.kind === 'live' ? [singleMarkets(venue.sim)[0] ?? ''] : undefined);
  const data = {
    version: 1,
    venue: venueSection,
    ...(venue.kind === 'live' ? { credentials: { ...CREDENTIAL_ENV } } : {}),
    ...(markets === undefined ? {} : { markets: Array.isArray(markets) ? { slugs: markets } : markets }),
    strategy: { name: 'fixed-spread', params: { ...DEFAULT_STRATEGY_PARAMS, ...options.strategy } },
    orders: { botTag: 'it', filledOrderDelaySec: 0, ...options.orders },
    risk: { maxPositionPerToken: 1000, maxNetPosition: 1000, maxOpenOrders: 20, maxNotional: 1000, dailyLossLimit: 1000, ...options.risk },
    maintenance: { pollIntervalSec: 1, ...options.maintenance },
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(options.feed === undefined ? {} : { feed: options.feed }),
    ...(options.rewards === undefined ? {} : { rewards: options.rewards }),
    // A live-kind test venue is a simulator: Pyth Hermes is its /hermes stand-in, never the public service.
    ...(venue.kind === 'live' || options.pricing !== undefined
      ? { pricing: { ...(venue.kind === 'live' ? { hermes: { endpoint: venue.sim.hermesUrl } } : {}), ...options.pricing } }
      : {}),
    metrics: { enabled: false },
    database: { path: options.database ?? ':memory:' },
    log: { level: 'debug', pretty: false },
    shutdown: { budgetMs: 5000, ...options.shutdown },
  };
  return parseConfig(data, { source: '<bot-harness>', baseDir: tmpdir() });
}

/** The environment a `live` test config reads its credentials from: the simulator's demo account. */
export function liveEnv(sim: RunningSimulator): Record<string, string> {
  return {
    [CREDENTIAL_ENV.apiTokenId]: sim.demoAccount.tokenId,
    [CREDENTIAL_ENV.apiSecret]: sim.demoAccount.secret,
    [CREDENTIAL_ENV.privateKey]: sim.demoAccount.privateKey,
  };
}

// ─────────────────────────────────────────── the bot ───────────────────────────────────────────

export interface RunningBot {
  readonly bot: Bot;
  readonly config: AppConfig;
  /** Every log line (JSON) the bot wrote, for diagnostics. */
  readonly logs: string[];
  /** Log lines at warn or above, parsed `msg` fields only. */
  warnings(): string[];
  /** Stops the bot (idempotent). */
  stop(): Promise<{ clean: boolean; summary: BotSummary }>;
}

/** Starts a Bot and waits for its first quote cycle. Registers its stop with `cleanup`. */
export async function startBot(
  config: AppConfig,
  env: Readonly<Record<string, string | undefined>>,
  cleanup: Cleanup,
  botOptions: Pick<BotOptions, 'killSwitchCheckIntervalMs' | 'positionsPublishEveryMs' | 'scheduler'> = {},
): Promise<RunningBot> {
  const logs: string[] = [];
  const logger = pino({ level: 'debug', base: null }, { write: (line: string) => void logs.push(line) });
  const bot = new Bot(config, { dryRun: false, logger, env, ...botOptions });
  let stopped: Promise<{ clean: boolean; summary: BotSummary }> | null = null;
  const stop = (): Promise<{ clean: boolean; summary: BotSummary }> => {
    stopped ??= bot.stop();
    return stopped;
  };
  cleanup.add(stop);
  await bot.start();
  await bot.whenQuoting();
  return {
    bot,
    config,
    logs,
    warnings: () => logs.flatMap((line) => {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null || !('level' in parsed) || typeof parsed.level !== 'number' || parsed.level < 40) return [];
      return ['msg' in parsed && typeof parsed.msg === 'string' ? parsed.msg : line];
    }),
    stop,
  };
}

// ─────────────────────────────────────────── the venue's view ───────────────────────────────────────────

/** Stalls of this process's event loop, where the in-process simulator stamps request arrivals (unref'd timer). */
const loopStalls = startStallRecorder();

/**
 * The simulator's rate-limiter 429s to the bot's account that the bot is to blame for: all of them, except one a
 * recorded stall of this process's event loop explains (the simulator stamped the previous request late, so the
 * next one, sent on time, looked early — the chaos suite's rule, chaos-invariants.ts `rateLimitViolations`). A 429
 * that fell out of the simulator's request log counts as unexplained.
 */
export function unexplainedRateLimits(sim: RunningSimulator): string[] {
  const token = sim.demoAccount.tokenId;
  const entries = sim.control.requestLog().filter((entry) => entry.tokenId === token);
  const total = sim.control.requestStats()[token]?.rateLimited ?? 0;
  const logged = entries.filter((entry) => entry.outcome === 'rate_limited').length;
  const { violations } = rateLimitViolations(entries, { minIntervalMs: 300, stalls: loopStalls.stalls });
  return logged < total ? [...violations, `${total - logged} limiter 429s no longer in the request log`] : violations;
}

/** A live order of the bot as the venue holds it, with its slot parsed from the clientOrderId. */
export interface BotOrder {
  readonly order: SimOrder;
  readonly slot: string | null;
  readonly tagged: boolean;
}

/** The account's live orders in a market, newest first, with slots. */
export function liveOrders(sim: RunningSimulator, slug: string, botTag: string): BotOrder[] {
  return sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE']).map((order) => ({
    order,
    slot: order.clientOrderId === null ? null : (tryParseClientOrderId(order.clientOrderId)?.slot ?? null),
    tagged: isOwnClientOrderId(order.clientOrderId, botTag),
  }));
}

/** Every order the account ever had in a market (all statuses), oldest first. */
export function allOrders(sim: RunningSimulator, slug: string): SimOrder[] {
  return [...sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'])].reverse();
}

/** Live orders keyed by slot (throws if a slot holds two: that is the invariant under test). */
export function bySlot(orders: readonly BotOrder[]): Map<string, SimOrder> {
  const out = new Map<string, SimOrder>();
  for (const { order, slot } of orders) {
    const key = slot ?? `(untagged ${order.id})`;
    if (out.has(key)) throw new Error(`two live orders in slot ${key}`);
    out.set(key, order);
  }
  return out;
}

/** A compact description of an order for equality checks: `BUY YES 480 x 5000000`. */
export function orderText(order: Pick<SimOrder, 'side' | 'outcome' | 'priceTicks' | 'originalSizeRaw'>): string {
  return `${order.side} ${order.outcome} ${order.priceTicks ?? 'mkt'} x ${order.originalSizeRaw}`;
}

/** Slot → description of the live orders of the bot in a market, slots sorted (compare with `sameLadder`). */
export function ladderOf(sim: RunningSimulator, slug: string, botTag: string): Record<string, string> {
  const entries = [...bySlot(liveOrders(sim, slug, botTag))].map(([slot, order]): [string, string] => [slot, orderText(order)]);
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

/** Whether two slot → order descriptions are equal (same slots, same orders). */
export function sameLadder(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] !== undefined && a[key] === b[key]);
}

export interface VenueSample {
  readonly atMs: number;
  /** The bot account's live orders per watched market. */
  readonly live: ReadonlyMap<string, readonly BotOrder[]>;
  /** The account's token balances (total raw) by token id. */
  readonly tokensRaw: ReadonlyMap<string, number>;
}

/**
 * Samples the bot account's live orders after every order event of that account (the engine calls listeners once
 * its state is consistent), and checks the order-manager invariants on each sample.
 */
export class VenueWatcher {
  readonly samples: VenueSample[] = [];
  readonly violations: string[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    private readonly sim: RunningSimulator,
    private readonly slugs: readonly string[],
    private readonly botTag: string,
  ) {
    const profileId = sim.demoAccount.profileId;
    this.unsubscribe = sim.engine.on({
      orderEvent: (id) => {
        if (id === profileId) this.sample();
      },
    });
    this.sample();
  }

  sample(): VenueSample {
    const live = new Map<string, readonly BotOrder[]>();
    for (const slug of this.slugs) live.set(slug, liveOrders(this.sim, slug, this.botTag));
    const balances = this.sim.engine.balances(this.sim.demoAccount.profileId);
    const tokensRaw = new Map<string, number>();
    for (const [tokenId, entry] of Object.entries(balances?.tokens ?? {})) tokensRaw.set(tokenId, entry.totalRaw);
    const sample: VenueSample = { atMs: Date.now(), live, tokensRaw };
    this.samples.push(sample);
    for (const [slug, orders] of live) {
      const perSlot = new Map<string, number>();
      for (const { order, slot, tagged } of orders) {
        if (!tagged) this.violations.push(`${slug}: live order ${order.id} without the bot's tag (${order.clientOrderId ?? 'no clientOrderId'})`);
        const key = slot ?? order.id;
        perSlot.set(key, (perSlot.get(key) ?? 0) + 1);
      }
      for (const [slot, count] of perSlot) if (count > 1) this.violations.push(`${slug}: ${count} live orders in slot ${slot}`);
    }
    return sample;
  }

  /** The largest value of `measure` over every sample so far. */
  max(measure: (sample: VenueSample) => number): number {
    let max = Number.NEGATIVE_INFINITY;
    for (const sample of this.samples) max = Math.max(max, measure(sample));
    return max;
  }

  stop(): void {
    this.unsubscribe();
  }
}

/** Σ remaining raw of live orders matching `filter` in one sample. */
export function sumRemaining(sample: VenueSample, slug: string, filter: (order: SimOrder) => boolean): number {
  return (sample.live.get(slug) ?? []).filter(({ order }) => filter(order)).reduce((sum, { order }) => sum + order.remainingSizeRaw, 0);
}

/** Bot metrics gauge value for a label set (reads the bot's own Prometheus registry). */
export async function gaugeValue(bot: Bot, name: string, labels: Readonly<Record<string, string>>): Promise<number | undefined> {
  const metric = bot.registry.getSingleMetric(name);
  if (metric === undefined) return undefined;
  const data = await metric.get();
  const match = data.values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value));
  return match?.value;
}

/** A live order's place in the YES book: which side, at which YES price. */
export function yesTerms(order: Pick<SimOrder, 'outcome' | 'side' | 'priceTicks'>): { readonly side: 'bid' | 'ask'; readonly ticks: number } {
  const ticks = order.priceTicks ?? 0;
  if (order.outcome === 'YES') return { side: order.side === 'BUY' ? 'bid' : 'ask', ticks };
  return { side: order.side === 'BUY' ? 'ask' : 'bid', ticks: 1000 - ticks };
}

/** Best YES bid and ask of the book WITHOUT the bot account's own orders (what the strategy quotes around). */
export function othersTouch(sim: RunningSimulator, slug: string): { readonly bidTicks: number | null; readonly askTicks: number | null } {
  const book = sim.engine.book(slug);
  const own = { bid: new Map<number, number>(), ask: new Map<number, number>() };
  for (const order of sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE'])) {
    const { side, ticks } = yesTerms(order);
    own[side].set(ticks, (own[side].get(ticks) ?? 0) + order.remainingSizeRaw);
  }
  const best = (levels: readonly { readonly priceTicks: number; readonly sizeRaw: number }[], mine: Map<number, number>): number | null =>
    levels.find((level) => level.sizeRaw - (mine.get(level.priceTicks) ?? 0) > 0)?.priceTicks ?? null;
  return { bidTicks: best(book?.bids ?? [], own.bid), askTicks: best(book?.asks ?? [], own.ask) };
}

/**
 * From the venue's order history (every status): pairs of the bot's orders in one slot whose lifetimes overlapped
 * (created before the other ended; a live order has not ended). Catches a second order in a slot even for moments
 * no watcher sampled (e.g. before the watcher existed).
 */
export function slotOverlaps(sim: RunningSimulator, slug: string, botTag: string): string[] {
  const bySlotHistory = new Map<string, SimOrder[]>();
  for (const order of allOrders(sim, slug)) {
    if (!isOwnClientOrderId(order.clientOrderId, botTag) || order.clientOrderId === null) continue;
    const slot = tryParseClientOrderId(order.clientOrderId)?.slot ?? order.id;
    bySlotHistory.set(slot, [...(bySlotHistory.get(slot) ?? []), order]);
  }
  const end = (order: SimOrder): number => (order.status === 'LIVE' ? Number.POSITIVE_INFINITY : order.updatedAtMs);
  const overlaps: string[] = [];
  for (const [slot, orders] of bySlotHistory) {
    for (let i = 0; i < orders.length; i += 1) {
      for (let j = i + 1; j < orders.length; j += 1) {
        const a = orders[i]!;
        const b = orders[j]!;
        if (a.createdAtMs < end(b) && b.createdAtMs < end(a)) overlaps.push(`${slug} ${slot}: ${a.id} and ${b.id}`);
      }
    }
  }
  return overlaps;
}

// ─────────────────────────────────────────── scenario set-ups ───────────────────────────────────────────

/** The third party's opening book in a booked market: YES bid 0.460 / ask 0.540, mid 0.500. */
export const OPENING_BOOK = { bidTicks: 460, askTicks: 540 } as const;

/** The default ladder (one level, 5 shares, 2 cents each side) around the opening book's mid 0.500. */
export const LADDER_500: Readonly<Record<string, string>> = { 'ask-0': 'BUY NO 480 x 5000000', 'bid-0': 'BUY YES 480 x 5000000' };

/** The default ladder around mid 0.510, after `moveBookUp`. */
export const LADDER_510: Readonly<Record<string, string>> = { 'ask-0': 'BUY NO 470 x 5000000', 'bid-0': 'BUY YES 490 x 5000000' };

/**
 * A 2-share BUY YES order of the bot's own account placed behind the bot's back (straight into the engine): with a
 * clientOrderId of the bot's tag, an order a run this ledger did not see would have left; without one, someone else's.
 */
export function placeForAccount(sim: RunningSimulator, slug: string, priceTicks: number, clientOrderId: string | undefined): string {
  const market = sim.engine.market(slug);
  if (market === undefined) throw new Error(`placeForAccount: no market ${slug}`);
  const amounts = limitOrderAmounts('BUY', priceTicks, 2_000_000);
  const placed = sim.engine.place({
    profileId: sim.demoAccount.profileId,
    marketSlug: slug,
    orderType: 'GTC',
    tokenId: market.yesTokenId,
    side: 'BUY',
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    priceTicks,
    feeRateBps: 300,
    salt: 424242 + priceTicks,
    postOnly: true,
    stpPolicy: 'cancel_maker',
    signature: '0x',
    signedOrderEcho: {},
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed.body));
  return placed.order.id;
}

/** Moves the third party's book from mid 0.500 to mid 0.510 without ever leaving a side empty. */
export function moveBookUp(sim: RunningSimulator, slug: string): void {
  setThirdPartyQuotes(sim, slug, { askTicks: 550 });
  setThirdPartyQuotes(sim, slug, { bidTicks: 470 });
}

/** Picks the simulator's first `count` markets (group members included), in its order. */
export function firstMarkets(count: number): (sim: RunningSimulator) => string[] {
  return (sim) => sim.engine.markets().slice(0, count).map((m) => m.slug);
}

export interface BookedSimOptions {
  readonly sim?: HarnessSimOptions;
  /** The test's markets, picked from the simulator. Default: its first single market. */
  readonly markets?: (sim: RunningSimulator) => readonly string[];
  /** Which of them get the opening book: every one (default) or only the first. */
  readonly book?: 'all' | 'first';
}

export interface BookedSim {
  readonly sim: RunningSimulator;
  /** The test's markets, in the order picked. */
  readonly slugs: readonly string[];
  /** The first of `slugs`. */
  readonly slug: string;
}

/**
 * A standalone simulator (`startHarnessSim`, closed by `cleanup`) whose picked markets carry the third party's
 * opening book (`OPENING_BOOK`).
 */
export async function startBookedSim(cleanup: Cleanup, options: BookedSimOptions = {}): Promise<BookedSim> {
  const sim = await startHarnessSim(options.sim);
  cleanup.add(() => sim.close());
  const slugs = (options.markets ?? ((s: RunningSimulator) => singleMarkets(s).slice(0, 1)))(sim);
  const slug = slugs[0];
  if (slug === undefined) throw new Error('startBookedSim: no market picked');
  for (const booked of options.book === 'first' ? [slug] : slugs) setThirdPartyQuotes(sim, booked, OPENING_BOOK);
  return { sim, slugs, slug };
}

/** A VenueWatcher on the bot's orders (tag 'it') in `slugs`, stopped by `cleanup`. */
export function watchVenue(cleanup: Cleanup, sim: RunningSimulator, slugs: readonly string[]): VenueWatcher {
  const watcher = new VenueWatcher(sim, slugs, 'it');
  cleanup.add(async () => watcher.stop());
  return watcher;
}

/** `startBot` on `testConfig` with the standalone simulator as a `live` venue, and its demo account's credentials. */
export async function startLiveBot(sim: RunningSimulator, cleanup: Cleanup, options: Omit<TestConfigOptions, 'venue'> = {}): Promise<RunningBot> {
  return startBot(testConfig({ venue: { kind: 'live', sim }, ...options }), liveEnv(sim), cleanup);
}

export interface QuotingBot extends BookedSim {
  readonly watcher: VenueWatcher;
  readonly running: RunningBot;
}

/**
 * The usual start of a test: a booked market (mid 0.500) with a watcher, and a bot on it (config `options`: the
 * default one-level strategy unless they change it) that has placed `LADDER_500` at the venue.
 */
export async function startQuotingBot(cleanup: Cleanup, options: Omit<TestConfigOptions, 'venue' | 'markets'> = {}): Promise<QuotingBot> {
  const booked = await startBookedSim(cleanup);
  const { sim, slug } = booked;
  const watcher = watchVenue(cleanup, sim, [slug]);
  const running = await startLiveBot(sim, cleanup, { markets: [slug], ...options });
  await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_500)), 10_000, 'the first ladder', () => ladderOf(sim, slug, 'it'));
  return { ...booked, watcher, running };
}

/** What a multi-market `waitFor` shows on timeout: each market's ladder and the bot's last five warnings. */
export function laddersAndWarnings(sim: RunningSimulator, slugs: readonly string[], running: RunningBot): () => unknown {
  return () => ({ ladders: Object.fromEntries(slugs.map((slug) => [slug, ladderOf(sim, slug, 'it')])), warnings: running.warnings().slice(-5) });
}
