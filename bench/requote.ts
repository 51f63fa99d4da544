/**
 * Requote benchmark: the order manager (OrderExecutor: a per-slot diff, cancel-first replacement, unchanged
 * orders kept) against cancel-all-and-replace, on the same FIXED price path over 3 markets of the simulator.
 *
 * Set-up, identical for every policy: a fresh simulator (same seed; the venue's rate limits on: 2 in flight,
 * 300 ms apart) whose synthetic maker quotes a 3-level ladder around a fair value, with no takers and no random
 * walk: the book moves only along a seeded path (`pricePath`) of fair-value moves applied with
 * `control.setFairValue`, each followed half a cycle later by a one-sided touch change. The bot's
 * side is the real REST client (limiter 2 in flight / 320 ms, the Bot's defaults), the real VenueAdapter, and the
 * fixed-spread strategy (2 levels a side, 2 cents from the mid, 1 cent apart: 4 slots per market). A requote runs
 * when a market's intents change (the book without the bot's own orders moved) and every 5 s (the Bot's periodic
 * requote), one at a time per market; the policies differ only in what a requote sends:
 * - `naive`: cancel every order of the market (DELETE /orders/all/{slug}), then place every intent;
 * - `diff`: OrderExecutor.submit with cancel-replace off (per-order reconcile: a cancel batch, then one POST /orders
 *   per changed slot once the cancel is confirmed);
 * - `replace`: OrderExecutor.submit with cancel-replace on (the changed slots of a market in one
 *   POST /orders/cancel-replace/batch, STOP_ON_FAILURE);
 * - `allOrNothing` (not in the default table): naive, but a requote whose intents equal the orders it placed last
 *   is skipped (Hummingbot's refresh with a zero tolerance).
 * Then, per policy, the capacity: the most markets (1, 2, 3, 6, 12, tried upwards until one fails) one account
 * quotes at no more than 1 tick of mean quote error (BENCH_REQUOTE_CAPACITY_SECONDS per run, default 30).
 *
 * Figures per policy, over the measured window (after every slot is first quoted):
 * - requests per market-minute (every request of the account the simulator logged);
 * - time-weighted quote error per slot, in ticks: at each instant, for each slot the strategy wants, the distance
 *   between the live order in that slot (same token and side) and the intent's price; a slot with no such live
 *   order, or a live order in a slot the strategy does not want, counts PENALTY_TICKS. Integrated over time from
 *   the simulator's own state after every change, divided by slot-time. Also the same error over quoted slot-time
 *   only, and the unquoted share.
 *
 * Run: npx tsx bench/requote.ts            (BENCH_REQUOTE_SECONDS sets the window per policy, default 60)
 */
import { pathToFileURL } from 'node:url';
import fixedSpread from '../strategies/fixed-spread.js';
import { BookState } from '../src/book/book-state.js';
import { systemScheduler } from '../src/core/clock.js';
import { connectExchange, type ExchangeClient } from '../src/exchange/client.js';
import { signingMarketOf, type SigningMarket } from '../src/exchange/signer.js';
import { VenueAdapter } from '../src/venue/venue-adapter.js';
import { marketInfoOf } from '../src/markets/venue-markets.js';
import { ClientOrderIdFactory, tryParseClientOrderId } from '../src/orders/client-order-id.js';
import { OrderExecutor } from '../src/orders/executor.js';
import { TradingModeGate } from '../src/orders/trading-mode.js';
import type { VenuePort } from '../src/orders/venue-port.js';
import type { MarketInfo, MarketViewWithOwnOrders, QuoteIntent, Strategy } from '../src/strategy/contract.js';
import { validateIntents } from '../src/strategy/validate.js';
import { Prng } from '../src/sim/engine/prng.js';
import type { SimOrder } from '../src/sim/engine/index.js';
import { startSimulator, type RunningSimulator } from '../src/sim/index.js';
import { limitOrderAmounts } from '../src/core/venue-rules/index.js';

const SEED = 21;
const MARKETS = 3;
const PENALTY_TICKS = 20;
const REQUOTE_INTERVAL_MS = 5_000;
const CYCLE_MS = 12_000;
const START_FAIR_TICKS = [500, 420, 610] as const;
/** Market i's starting fair value (the first three as before; more markets spread around them). */
function startFair(i: number): number {
  return START_FAIR_TICKS[i % START_FAIR_TICKS.length]! + 10 * Math.floor(i / START_FAIR_TICKS.length);
}
const STRATEGY_PARAMS = { bidSpread: 0.02, askSpread: 0.02, levels: 2, levelSpacing: 0.01, orderSize: 10, postOnly: true };

/** naive: cancel-all + place all; diff: per-order reconcile, cancels then placements; replace: reconcile + cancel-replace batches. */
export type PolicyName = 'naive' | 'diff' | 'replace' | 'allOrNothing';

export type PathEvent =
  | { readonly atMs: number; readonly market: number; readonly kind: 'fair'; readonly fairTicks: number }
  | { readonly atMs: number; readonly market: number; readonly kind: 'touch'; readonly side: 'bid' | 'ask'; readonly fairTicks: number };

/**
 * The fixed, seeded path. Per market, every CYCLE_MS (markets staggered): a fair-value move of ±1..8 ticks (now
 * and then ±10..20), which moves every level of the synthetic maker's ladder; half a cycle later a "touch" event:
 * a small third-party order one tick inside the maker's best bid or ask, which moves the mid by half a tick, so
 * only one side's quotes change (bids round down, asks up). The touch order is withdrawn at the next fair move.
 */
export function pricePath(durationMs: number, seed = SEED, markets = MARKETS): PathEvent[] {
  const rng = new Prng(seed);
  const fair: number[] = Array.from({ length: markets }, (_, i) => startFair(i));
  const events: PathEvent[] = [];
  const step = CYCLE_MS / markets;
  for (let n = 0; 500 + n * step < durationMs; n += 1) {
    const market = n % markets;
    const atMs = Math.round(500 + n * step);
    let delta = Math.round(rng.normal() * 4);
    if (delta === 0) delta = rng.chance(0.5) ? 1 : -1;
    if (rng.chance(0.1)) delta = (rng.chance(0.5) ? 1 : -1) * rng.int(10, 20);
    const fairTicks = Math.min(850, Math.max(150, (fair[market] ?? 500) + delta));
    fair[market] = fairTicks;
    events.push({ atMs, market, kind: 'fair', fairTicks });
    const touchAt = atMs + CYCLE_MS / 2;
    if (touchAt < durationMs) events.push({ atMs: touchAt, market, kind: 'touch', side: rng.chance(0.5) ? 'bid' : 'ask', fairTicks });
  }
  return events.sort((a, b) => a.atMs - b.atMs);
}

const THIRD_PARTY = { profileId: 77, address: '0x00000000000000000000000000000000000000a7' } as const;

/** Applies one path event to the simulator (fair value through the admin control; touch orders straight into the engine). */
function applyEvent(sim: RunningSimulator, slugs: readonly string[], event: PathEvent, salt: number): void {
  const slug = slugs[event.market]!;
  for (const order of sim.engine.orders(THIRD_PARTY.profileId, slug, ['LIVE'])) sim.engine.cancel(THIRD_PARTY.profileId, order.id);
  if (event.kind === 'fair') {
    sim.control.setFairValue(slug, event.fairTicks);
    return;
  }
  const market = sim.engine.market(slug)!;
  // One tick inside the maker's best level: a YES bid at fair − 19, or a YES ask at fair + 19 (as BUY NO at 1 − p).
  const outcome = event.side === 'bid' ? 'YES' : 'NO';
  const priceTicks = event.side === 'bid' ? event.fairTicks - 19 : 1000 - (event.fairTicks + 19);
  const amounts = limitOrderAmounts('BUY', priceTicks, 5_000_000);
  sim.engine.place({
    profileId: THIRD_PARTY.profileId,
    marketSlug: slug,
    orderType: 'GTC',
    tokenId: outcome === 'YES' ? market.yesTokenId : market.noTokenId,
    side: 'BUY',
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    priceTicks,
    feeRateBps: 0,
    salt,
    postOnly: true,
    stpPolicy: 'cancel_maker',
    signature: '0x',
    signedOrderEcho: {},
  });
}

/** What a requote sends: the only thing that differs between policies. */
interface Policy {
  apply(slug: string, intents: readonly QuoteIntent[]): Promise<void>;
  shutdown(): Promise<void>;
}

class DiffPolicy implements Policy {
  constructor(private readonly executor: OrderExecutor) {}

  async apply(slug: string, intents: readonly QuoteIntent[]): Promise<void> {
    await this.executor.submit(slug, intents);
  }

  async shutdown(): Promise<void> {
    await this.executor.shutdown({ budgetMs: 5_000 });
  }
}

/** Cancel everything in the market, then place every intent; optionally skip a requote that changes nothing. */
class ReplaceAllPolicy implements Policy {
  private readonly placed = new Map<string, string>();
  errors = 0;

  constructor(
    private readonly venue: VenuePort,
    private readonly ids: ClientOrderIdFactory,
    private readonly tokens: ReadonlyMap<string, { readonly yes: string; readonly no: string }>,
    private readonly skipUnchanged: boolean,
  ) {}

  async apply(slug: string, intents: readonly QuoteIntent[]): Promise<void> {
    const key = intentsKey(intents);
    if (this.skipUnchanged && this.placed.get(slug) === key) return;
    this.placed.delete(slug);
    try {
      await this.venue.cancelAll(slug);
    } catch {
      this.errors += 1;
    }
    const tokens = this.tokens.get(slug)!;
    let ok = true;
    for (const intent of intents) {
      try {
        await this.venue.placeOrder({
          marketSlug: slug,
          clientOrderId: this.ids.next(slug, intent.slot),
          token: intent.token,
          tokenId: intent.token === 'YES' ? tokens.yes : tokens.no,
          side: intent.side,
          priceTicks: intent.priceTicks,
          sizeRaw: intent.sizeRaw,
          postOnly: intent.postOnly ?? true,
          orderType: 'GTC',
        });
      } catch {
        this.errors += 1;
        ok = false;
      }
    }
    if (ok) this.placed.set(slug, key);
  }

  async shutdown(): Promise<void> {
    for (const slug of this.tokens.keys()) await this.venue.cancelAll(slug).catch(() => undefined);
  }
}

function intentsKey(intents: readonly QuoteIntent[]): string {
  return intents
    .map((i) => `${i.slot}:${i.token}:${i.side}:${i.priceTicks}:${i.sizeRaw}`)
    .sort()
    .join('|');
}

/** The strategy's intents for a market from the simulator's book as it is now (own orders passed as such). */
class IntentSource {
  constructor(
    private readonly sim: RunningSimulator,
    private readonly strategy: Strategy,
    private readonly infos: ReadonlyMap<string, MarketInfo>,
  ) {}

  intents(slug: string): QuoteIntent[] {
    const info = this.infos.get(slug)!;
    const book = this.sim.engine.book(slug);
    const yes = BookState.fromSnapshot({ bids: book?.bids ?? [], asks: book?.asks ?? [], adjustedMidpoint: null });
    const own = this.sim.engine.orders(this.sim.demoAccount.profileId, slug, ['LIVE']).map((o) => ({
      token: o.outcome,
      side: o.side,
      priceTicks: o.priceTicks ?? 0,
      sizeRaw: o.remainingSizeRaw,
    }));
    const view: MarketViewWithOwnOrders = {
      market: info,
      yes,
      no: yes.complement(),
      position: { yesRaw: 0, noRaw: 0, yesAvgCost: null, noAvgCost: null, freeCollateralRaw: 1_000_000_000_000 },
      recentFills: [],
      midHistory: [],
      ownOrders: own,
      now: Date.now(),
    };
    return validateIntents(this.strategy.quote(view), info).valid;
  }
}

/** Integrates the per-slot quote error over time, from the simulator's state after every change. */
class QuoteErrorMeter {
  private lastAtMs: number | null = null;
  private current = { errorTicks: 0, diffTicks: 0, slots: 0, quoted: 0 };
  private totals = { errorTickMs: 0, diffTickMs: 0, slotMs: 0, quotedSlotMs: 0 };
  private measuring = false;

  constructor(
    private readonly sim: RunningSimulator,
    private readonly source: IntentSource,
    private readonly slugs: readonly string[],
  ) {}

  start(): void {
    this.measuring = true;
    this.lastAtMs = performance.now();
    this.recompute();
  }

  /** Accumulates the error held since the last change, then reads the new state. */
  update(): void {
    if (!this.measuring) return;
    const now = performance.now();
    if (this.lastAtMs !== null) {
      const dt = now - this.lastAtMs;
      this.totals.errorTickMs += this.current.errorTicks * dt;
      this.totals.diffTickMs += this.current.diffTicks * dt;
      this.totals.slotMs += this.current.slots * dt;
      this.totals.quotedSlotMs += this.current.quoted * dt;
    }
    this.lastAtMs = now;
    this.recompute();
  }

  stop(): { errorTicks: number; quotedErrorTicks: number; unquotedPct: number } {
    this.update();
    this.measuring = false;
    const t = this.totals;
    return {
      errorTicks: t.slotMs > 0 ? t.errorTickMs / t.slotMs : 0,
      quotedErrorTicks: t.quotedSlotMs > 0 ? t.diffTickMs / t.quotedSlotMs : 0,
      unquotedPct: t.slotMs > 0 ? (100 * (t.slotMs - t.quotedSlotMs)) / t.slotMs : 0,
    };
  }

  private recompute(): void {
    let errorTicks = 0;
    let diffTicks = 0;
    let slots = 0;
    let quoted = 0;
    for (const slug of this.slugs) {
      const live = new Map<string, SimOrder[]>();
      for (const order of this.sim.engine.orders(this.sim.demoAccount.profileId, slug, ['LIVE'])) {
        const slot = order.clientOrderId === null ? null : (tryParseClientOrderId(order.clientOrderId)?.slot ?? null);
        if (slot === null) continue;
        live.set(slot, [...(live.get(slot) ?? []), order]);
      }
      const intents = this.source.intents(slug);
      const wanted = new Set(intents.map((i) => i.slot));
      for (const intent of intents) {
        slots += 1;
        const match = (live.get(intent.slot) ?? []).find((o) => o.outcome === intent.token && o.side === intent.side);
        if (match === undefined) {
          errorTicks += PENALTY_TICKS;
          continue;
        }
        const diff = Math.abs((match.priceTicks ?? 0) - intent.priceTicks);
        quoted += 1;
        diffTicks += diff;
        errorTicks += diff;
      }
      for (const [slot, orders] of live) if (!wanted.has(slot)) errorTicks += PENALTY_TICKS * orders.length;
    }
    this.current = { errorTicks, diffTicks, slots, quoted };
  }
}

export interface PolicyFigures {
  readonly requestsPerMarketMinute: number;
  readonly placementsPerMarketMinute: number;
  readonly errorTicks: number;
  readonly quotedErrorTicks: number;
  readonly unquotedPct: number;
  readonly rateLimited: number;
}

async function connect(sim: RunningSimulator): Promise<ExchangeClient> {
  return connectExchange({
    baseUrl: sim.baseUrl,
    headerPrefix: sim.headerPrefix,
    credentials: { tokenId: sim.demoAccount.tokenId, secret: sim.demoAccount.secret },
    signer: { privateKey: sim.demoAccount.privateKey },
    transport: { limits: { maxConcurrent: 2, minTimeMs: 320 } },
  });
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** One policy over the fixed path, on a fresh simulator. */
export async function runPolicy(policyName: PolicyName, durationMs: number, marketCount = MARKETS): Promise<PolicyFigures> {
  const sim = await startSimulator({
    port: 0,
    seed: SEED,
    markets: marketCount,
    settlementDelayMs: 200,
    synthetic: {
      stepMs: 100,
      fairValue: { volatilityPerSqrtHour: 0, jumpsPerHour: 0 },
      makers: { levels: 3, spreadTicks: 20, levelStepTicks: 10, sizeRaw: 50_000_000, requoteThresholdTicks: 1 },
      noise: { ratePerMinute: 0 },
      informed: { ratePerMinute: 0 },
    },
  });
  const slugs = sim.engine.markets().map((m) => m.slug);
  slugs.forEach((slug, i) => sim.control.setFairValue(slug, startFair(i)));
  sim.control.addAccount({ profileId: THIRD_PARTY.profileId, address: THIRD_PARTY.address, feeRateBps: 0, usdc: '1000000' });
  const client = await connect(sim);
  const timers: NodeJS.Timeout[] = [];
  let policy: Policy | null = null;
  try {
    const signing = new Map<string, SigningMarket>();
    const infos = new Map<string, MarketInfo>();
    for (const slug of slugs) {
      const market = await client.api.getMarket(slug);
      signing.set(slug, signingMarketOf(market));
      infos.set(slug, marketInfoOf(market, { minTicks: 20, maxTicks: 980 }));
    }
    const venue = new VenueAdapter({ api: client.api, signer: client.signer, markets: signing, recvWindowMs: null });
    const reconciling = policyName === 'diff' || policyName === 'replace';
    const ids = new ClientOrderIdFactory(reconciling ? 'bench' : 'naive', () => Date.now());
    const tokens = new Map([...signing].map(([slug, m]) => [slug, m.tokens]));
    if (reconciling) {
      const executor = new OrderExecutor({
        venue,
        scheduler: systemScheduler,
        modeGate: new TradingModeGate({ scheduler: systemScheduler, pollIntervalMs: 3_600_000 }),
        ids,
        markets: slugs.map((slug) => ({ slug, tokens: tokens.get(slug)! })),
        onFill: () => undefined,
        reconcile: { priceToleranceTicks: 0, sizeTolerance: { kind: 'raw', raw: 0 }, maxOrderAgeMs: 0, coolOffMs: 0 },
        defaultPostOnly: true,
        cancelReplace: { enabled: policyName === 'replace', batchSize: 10 },
      });
      await executor.start();
      policy = new DiffPolicy(executor);
    } else {
      policy = new ReplaceAllPolicy(venue, ids, tokens, policyName === 'allOrNothing');
    }
    const active = policy;

    const strategy = fixedSpread.create(fixedSpread.paramsSchema.parse(STRATEGY_PARAMS));
    const source = new IntentSource(sim, strategy, infos);
    const meter = new QuoteErrorMeter(sim, source, slugs);

    // The requote loop: one requote at a time per market; a trigger during one runs exactly one more after it.
    const loops = new Map(slugs.map((slug) => [slug, { running: false, again: false, lastKey: '', applied: 0 }]));
    const trigger = (slug: string): void => {
      const loop = loops.get(slug)!;
      if (loop.running) {
        loop.again = true;
        return;
      }
      loop.running = true;
      void (async () => {
        do {
          loop.again = false;
          await active.apply(slug, source.intents(slug)).catch(() => undefined);
          loop.applied += 1;
        } while (loop.again);
        loop.running = false;
      })();
    };
    const unsubscribe = sim.engine.on({
      bookChanged: (slug) => {
        meter.update();
        const loop = loops.get(slug);
        if (loop === undefined) return;
        const key = intentsKey(source.intents(slug));
        if (key === loop.lastKey) return;
        loop.lastKey = key;
        trigger(slug);
      },
      orderEvent: (profileId) => {
        if (profileId === sim.demoAccount.profileId) meter.update();
      },
    });
    timers.push(setInterval(() => slugs.forEach(trigger), REQUOTE_INTERVAL_MS));
    for (const slug of slugs) trigger(slug);

    // Warm-up: every slot quoted once, then the measured window runs the path.
    await waitUntil(() => [...loops.values()].every((loop) => loop.applied > 0), 20_000);
    const statsBefore = sim.control.requestStats()[sim.demoAccount.tokenId] ?? { requests: 0, rateLimited: 0, injected: 0, errors: 0 };
    const placedBefore = slugs.reduce((n, slug) => n + sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE', 'CANCELED', 'MATCHED']).length, 0);
    meter.start();
    const started = performance.now();
    pricePath(durationMs, SEED, slugs.length).forEach((event, i) => timers.push(setTimeout(() => applyEvent(sim, slugs, event, i + 1), event.atMs)));
    await new Promise((resolve) => setTimeout(resolve, durationMs));
    const quality = meter.stop();
    const minutes = (performance.now() - started) / 60_000;
    const statsAfter = sim.control.requestStats()[sim.demoAccount.tokenId] ?? statsBefore;
    const placedAfter = slugs.reduce((n, slug) => n + sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE', 'CANCELED', 'MATCHED']).length, 0);
    unsubscribe();
    const marketMinutes = minutes * slugs.length;
    return {
      requestsPerMarketMinute: round((statsAfter.requests - statsBefore.requests) / marketMinutes, 1),
      placementsPerMarketMinute: round((placedAfter - placedBefore) / marketMinutes, 1),
      errorTicks: round(quality.errorTicks, 2),
      quotedErrorTicks: round(quality.quotedErrorTicks, 2),
      unquotedPct: round(quality.unquotedPct, 1),
      rateLimited: statsAfter.rateLimited - statsBefore.rateLimited,
    };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await policy?.shutdown().catch(() => undefined);
    client.transport.close();
    await sim.close();
  }
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

const POLICIES: readonly PolicyName[] = ['naive', 'diff', 'replace'];
/** Market counts tried for the capacity figure (markets one account quotes at ≤ 1 tick of mean quote error). */
const CAPACITY_STEPS: readonly number[] = [1, 2, 3, 6, 12];
const FIGURE_KEYS: readonly (keyof PolicyFigures)[] = ['requestsPerMarketMinute', 'placementsPerMarketMinute', 'errorTicks', 'quotedErrorTicks', 'unquotedPct', 'rateLimited'];

export async function run(): Promise<Record<string, number | string>> {
  const seconds = Number(process.env['BENCH_REQUOTE_SECONDS'] ?? 60);
  const durationMs = Math.max(10, Number.isFinite(seconds) ? seconds : 60) * 1000;
  const out: Record<string, number | string> = { windowSecondsPerPolicy: durationMs / 1000, markets: MARKETS, slotsPerMarket: 4, penaltyTicks: PENALTY_TICKS };
  for (const name of POLICIES) {
    const figures = await runPolicy(name, durationMs);
    for (const key of FIGURE_KEYS) out[`${name}.${key}`] = figures[key];
  }
  // Capacity: the most markets (of CAPACITY_STEPS, tried upwards until one fails) quoted at ≤ 1 tick mean error.
  const capacitySeconds = Number(process.env['BENCH_REQUOTE_CAPACITY_SECONDS'] ?? Math.min(30, durationMs / 1000));
  for (const name of POLICIES) {
    let capacity = 0;
    for (const count of CAPACITY_STEPS) {
      const figures = await runPolicy(name, capacitySeconds * 1000, count);
      out[`${name}.errorTicksAt${count}`] = figures.errorTicks;
      if (figures.errorTicks > 1) break;
      capacity = count;
    }
    out[`${name}.marketsAtOneTick`] = capacity;
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run();
  const rows: [string, keyof PolicyFigures][] = [
    ['requests / market-minute', 'requestsPerMarketMinute'],
    ['placements / market-minute', 'placementsPerMarketMinute'],
    ['quote error, ticks per slot', 'errorTicks'],
    ['  ... while quoted', 'quotedErrorTicks'],
    ['unquoted slot-time, %', 'unquotedPct'],
    ['429s from the venue limiter', 'rateLimited'],
  ];
  const most = CAPACITY_STEPS[CAPACITY_STEPS.length - 1]!;
  const capacityOf = (p: PolicyName): string => (figures[`${p}.marketsAtOneTick`] === most ? `>= ${most}` : String(figures[`${p}.marketsAtOneTick`]));
  const capacityRow = `${'markets at <= 1 tick mean error'.padEnd(30)}${POLICIES.map((p) => capacityOf(p).padStart(14)).join('')}`;
  console.log(`requote bench: ${MARKETS} markets x 4 slots, ${figures['windowSecondsPerPolicy']} s per policy, missing quote = ${PENALTY_TICKS} ticks`);
  console.log(`${''.padEnd(30)}${POLICIES.map((p) => p.padStart(14)).join('')}`);
  for (const [label, key] of rows) console.log(`${label.padEnd(30)}${POLICIES.map((p) => String(figures[`${p}.${key}`]).padStart(14)).join('')}`);
  console.log(capacityRow);
  const tried = Object.keys(figures).filter((k) => k.includes('.errorTicksAt'));
  console.log(`capacity runs (error ticks per slot by market count): ${tried.map((k) => `${k}=${String(figures[k])}`).join(' ')}`);
}
