/**
 * The order executor: the ONLY writer of order state. It turns a market's latest quote intents into venue
 * requests (through `VenuePort`), applies every answer and socket order event to the tracked orders, resolves
 * unknown outcomes by clientOrderId, adopts the bot's orders at start-up and cancels them at shutdown.
 *
 * Owns: the public API, the lifecycle, the tracked orders (order-store.ts) and the commit path (store, report,
 * emit fills, react). The work is done by collaborators that read through `ExecutorContext` and write only through
 * the `OrderWriter` this class gives them (executor-context.ts): plan-runner.ts (queue, supersede, re-runs, review
 * timer) with plan-requests.ts, replacements.ts, batch-placements.ts and placement-errors.ts; outcome-resolver.ts (lookups, backoff,
 * lost orders); event-router.ts (dedupe, orphans, strays); market-sync.ts (start-up, resync); shutdown-sweep.ts;
 * market-state.ts holds each market's state.
 *
 * Invariants:
 * - one plan in flight per market (a p-queue of concurrency 1 per market, shared with start-up, resync and
 *   shutdown work for that market); a newer submission SUPERSEDES a queued one (the older caller gets
 *   `superseded` at once); the plan is computed when it starts, from the state at that moment;
 * - cancels go first; a slot is re-placed only once its previous order is confirmed gone (reconcile re-runs on
 *   the state after the cancels), so at most one order per (market, slot) can rest; with cancel-replace, a slot's
 *   (cancel old, place new) pair goes as one operation with STOP_ON_FAILURE (the venue places only once the cancel
 *   succeeded), several slots per batch request; the pairing and the outcome mapping are cancel-replace.ts; when the
 *   venue port gathers batches across markets (cross-market-venue.ts), placements into empty slots go as operations
 *   too (their cancel half names the new order's own clientOrderId and touches nothing: batch-placements.ts);
 * - a placement without an answer is UNKNOWN, never rejected: its slot stays frozen until a status lookup by
 *   clientOrderId (with backoff) or a socket frame resolves it; only `notFoundLimit` not_found answers after
 *   `notFoundGraceMs` mark it lost (rejected, with the typed reason `lost`);
 * - every venue request is first checked against the trading-mode gate; a TradingModeError updates the gate and
 *   drops the rest of the plan; cancels are attempted in every mode (also `disabled`: the bot never blocks its own
 *   cancels), and one the venue refused (425) is held by the gate and re-run when the gate releases it; a 425
 *   without the trading-mode body refreshes the maintenance status (never a blind retry);
 * - every fill reaches `onFill` once per (order, tradeEventId, settlement state), including late fills of a
 *   canceled order; socket events are deduplicated (bounded memory) and may come in any order;
 * - every commit names its origin; only news from outside a plan re-runs the market's intents;
 * - nothing here throws into the caller for venue trouble: failures become outcomes, observations and logs.
 */
import {
  ExecutorError,
  guardObserver,
  type ExecutorObserver,
  type ExecutorOptions,
  type FillEvent,
  type MarketRef,
  type MarketSyncReport,
  type OrderLog,
  type PlanOutcome,
  type ShutdownOptions,
  type ShutdownReport,
} from './executor-types.js';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { QuoteIntent } from '../strategy/contract.js';
import { executorSettings, isActive, isFromOutside, untilDeadline, type CommitOrigin, type ExecutorContext, type Lifecycle } from './executor-context.js';
import type { OrderEventInput } from './order-events.js';
import type { Applied, TrackedOrder } from './order-record.js';
import { isFrozen, isOpen, isTerminal } from './order-state.js';
import { OrderStore } from './order-store.js';
import { MarketRegistry } from './market-state.js';
import { EventRouter } from './event-router.js';
import { MarketSync } from './market-sync.js';
import { OutcomeResolver } from './outcome-resolver.js';
import { PlanRequests } from './plan-requests.js';
import { PlanRunner } from './plan-runner.js';
import { Replacements } from './replacements.js';
import { BatchPlacements } from './batch-placements.js';
import { ShutdownSweep } from './shutdown-sweep.js';
import type { TradingModeGate } from './trading-mode.js';

export { ExecutorError } from './executor-types.js';
export type {
  AbortReason,
  ExecutorObserver,
  ExecutorOptions,
  FillEvent,
  MarketRef,
  MarketSyncReport,
  OrderLog,
  PlanOutcome,
  PlanReport,
  ShutdownOptions,
  ShutdownReport,
  UntrackedReason,
} from './executor-types.js';

const NOOP_LOG: OrderLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

export class OrderExecutor {
  private readonly scheduler: Scheduler;
  private readonly gate: TradingModeGate;
  private readonly log: OrderLog;
  private readonly observer: Required<ExecutorObserver>;
  private readonly store = new OrderStore();
  private readonly markets = new MarketRegistry();
  private readonly resolver: OutcomeResolver;
  private readonly plans: PlanRunner;
  private readonly events: EventRouter;
  private readonly sync: MarketSync;
  private readonly sweep: ShutdownSweep;
  private lifecycle: Lifecycle = 'created';
  private readonly unsubscribeMode: () => void;

  constructor(private readonly options: ExecutorOptions) {
    this.scheduler = options.scheduler;
    this.gate = options.modeGate;
    this.log = options.log ?? NOOP_LOG;
    this.observer = guardObserver(options.observer ?? {}, (hook, error) => this.log.error({ hook, err: errorText(error, { withName: true }) }, 'observer hook failed'));
    const ctx: ExecutorContext = {
      venue: options.venue,
      scheduler: this.scheduler,
      gate: this.gate,
      ids: options.ids,
      log: this.log,
      observer: this.observer,
      settings: executorSettings(options),
      markets: this.markets,
      orders: this.store,
      writer: {
        commit: (order, applied, origin) => this.commit(order, applied, origin),
        insert: (order) => this.insert(order),
        linkOrderId: (order, orderId) => this.linkOrderId(order, orderId),
        noteLookupMiss: (order) => void this.store.put(order),
        pruneTerminal: (marketSlug, olderThanMs) => void this.store.pruneTerminal(marketSlug, olderThanMs),
      },
      lifecycle: () => this.lifecycle,
    };
    this.resolver = new OutcomeResolver(ctx);
    const requests = new PlanRequests(ctx, this.resolver);
    const replacements = new Replacements(ctx, requests, this.resolver);
    this.plans = new PlanRunner(ctx, requests, replacements, new BatchPlacements(ctx, requests, replacements));
    this.sync = new MarketSync(ctx, this.resolver, (market) => this.plans.kick(market));
    this.events = new EventRouter(ctx, {
      dedupeCapacity: options.dedupeCapacity ?? 10_000,
      orphanCapacity: options.orphanEvents?.capacity ?? 1000,
      orphanTtlMs: options.orphanEvents?.ttlMs ?? 60_000,
      requestResync: (market) => this.sync.requestResync(market),
    });
    this.sweep = new ShutdownSweep(ctx, this.sync, this.resolver);
    for (const market of options.markets) this.registerMarket(market);
    this.unsubscribeMode = this.gate.onRelease(() => {
      for (const market of this.markets.all()) {
        this.events.flushStrays(market);
        this.plans.kick(market);
      }
    });
  }

  // ───────────────────────────── public API ─────────────────────────────

  registerMarket(ref: MarketRef): void {
    if (!this.markets.add(ref, (slug) => this.options.ids.keyOf(slug))) return;
    if (isActive(this.lifecycle)) {
      this.resync(ref.slug).catch((error: unknown) => this.log.error({ market: ref.slug, err: errorText(error, { withName: true }) }, 'resync failed'));
    }
  }

  get state(): Lifecycle {
    return this.lifecycle;
  }

  /** Adopts the bot's live orders in every market (no plan runs in a market before its adoption is done). */
  async start(): Promise<readonly MarketSyncReport[]> {
    if (this.lifecycle !== 'created') throw new ExecutorError('lifecycle', this.lifecycle, 'start() may be called once, before anything else');
    this.lifecycle = 'starting';
    await this.gate.refresh();
    const reports = await Promise.all(this.markets.all().map((market) => market.queue.add(() => this.sync.syncMarket(market, 'startup'))));
    if (this.lifecycle === 'starting') this.lifecycle = 'running';
    return reports.filter((r): r is MarketSyncReport => r !== undefined);
  }

  /**
   * Submits the latest intents for a market. The plan is computed when the market's queue reaches it; a
   * submission still waiting when a newer one arrives resolves `superseded`.
   */
  submit(marketSlug: string, intents: readonly QuoteIntent[], options: { readonly issuedAtMs?: number } = {}): Promise<PlanOutcome> {
    const market = this.markets.get(marketSlug);
    if (market === undefined) return Promise.reject(new ExecutorError('marketSlug', marketSlug, 'market not registered'));
    if (this.lifecycle === 'created') return Promise.resolve({ status: 'not-ready' });
    if (this.lifecycle === 'stopping' || this.lifecycle === 'stopped') return Promise.resolve({ status: 'stopped' });
    return this.plans.submit(market, intents, options.issuedAtMs ?? this.scheduler.now());
  }

  /** Cancels every quote of the bot in every market (submits empty intents everywhere). */
  haltAll(): Promise<PlanOutcome[]> {
    return Promise.all(this.markets.slugs().map((slug) => this.submit(slug, [])));
  }

  /** Applies one socket order event. Never throws. */
  onOrderEvent(event: OrderEventInput): void {
    this.events.route(event);
  }

  /** Re-reads the market's live orders from the venue (after a reconnect): adopts, cancels strays, looks up vanished ones. */
  async resync(marketSlug: string): Promise<MarketSyncReport> {
    const market = this.markets.get(marketSlug);
    if (market === undefined) throw new ExecutorError('marketSlug', marketSlug, 'market not registered');
    market.queueResync();
    const report = await market.queue.add(() => this.sync.syncMarket(market, 'resync'));
    return report ?? { marketSlug, ok: false, adopted: 0, canceled: 0, foreign: 0, error: 'not run' };
  }

  /** Open (non-terminal) orders, of one market or all. Unknown and pending orders included. */
  openOrders(marketSlug?: string): TrackedOrder[] {
    if (marketSlug !== undefined) return this.store.openInMarket(marketSlug);
    return this.store.all().filter((o) => isOpen(o.state));
  }

  order(clientOrderId: string): TrackedOrder | undefined {
    return this.store.get(clientOrderId);
  }

  /** Stops quoting, waits for plans in flight, cancels every order of the bot and confirms, within the budget. */
  async shutdown(options: ShutdownOptions = {}): Promise<ShutdownReport> {
    const started = this.scheduler.now();
    const deadline = started + Math.max(0, options.budgetMs ?? 10_000);
    this.lifecycle = 'stopping';
    const markets = this.markets.all();
    for (const market of markets) this.plans.stop(market);
    // Plans in flight get a third of the budget to finish (no new placement starts once stopping); the
    // cancels then go out regardless, and the confirmation loop catches anything that lands after them.
    const budget = deadline - started;
    await untilDeadline(this.scheduler, Promise.all(markets.map((m) => m.queue.onIdle())), started + Math.floor(budget / 3));
    const results = await Promise.all(
      markets.map(async (market) => {
        const confirmed = options.leaveOrdersResting === true ? await untilDeadline(this.scheduler, this.resolver.resolveOnce(market), deadline).then(() => true) : await this.sweep.cancelEverything(market, deadline);
        return { market, confirmed };
      }),
    );
    const withLive = results.filter((r) => !r.confirmed).map((r) => r.market.slug);
    const timedOut = withLive.length > 0 && this.scheduler.now() >= deadline;
    for (const market of markets) market.disarmLookup();
    this.unsubscribeMode();
    this.lifecycle = 'stopped';
    const unresolved = this.store.all().filter((o) => o.state === 'unknown' || o.state === 'pending-new').map((o) => o.clientOrderId);
    return {
      clean: withLive.length === 0,
      timedOut,
      marketsWithLiveOrders: withLive,
      unresolved,
      durationMs: this.scheduler.now() - started,
    };
  }

  // ───────────────────────────── the single writer ─────────────────────────────

  private emitChange(order: TrackedOrder, previous: TrackedOrder | null): void {
    try {
      this.options.onOrderChange?.(order, previous);
    } catch (error) {
      this.log.error({ clientOrderId: order.clientOrderId, state: order.state, err: errorText(error, { withName: true }) }, 'onOrderChange failed');
    }
  }

  private emitFill(fill: FillEvent): void {
    try {
      this.options.onFill(fill);
    } catch (error) {
      // The fill is logged in full so it can be recovered; order handling goes on.
      this.log.error({ fill, err: errorText(error, { withName: true }) }, 'onFill failed');
    }
  }

  private insert(order: TrackedOrder): void {
    const linked = this.store.put(order);
    this.emitChange(order, null);
    if (linked && order.orderId !== null) this.events.replayOrphans(order.orderId);
  }

  /** Links the venue id a frame named before the placement answer (the caller replays the orphans after its fill). */
  private linkOrderId(order: TrackedOrder, orderId: string): TrackedOrder {
    const linked: TrackedOrder = { ...order, orderId };
    this.store.put(linked);
    this.emitChange(linked, order);
    return linked;
  }

  /**
   * Commits an applied change: stores it, reports the transition or the illegal one, emits fills, and (for news from
   * outside a plan, by its origin) re-runs the market's intents when a slot was freed or unfrozen.
   */
  private commit(previous: TrackedOrder, applied: Applied, origin: CommitOrigin): TrackedOrder {
    const next = applied.order;
    const slug = previous.marketSlug;
    if (applied.illegal !== null) {
      this.observer.onIllegalTransition(applied.illegal);
      this.log.warn({ market: slug, clientOrderId: previous.clientOrderId, err: applied.illegal.message }, 'illegal order transition ignored');
    }
    let linked = false;
    if (next !== previous) {
      linked = this.store.put(next);
      this.emitChange(next, previous);
    }
    const transition = applied.transition;
    if (transition !== null) this.observer.onTransition(slug, next.clientOrderId, transition);
    const market = this.markets.get(slug);
    // A report of a trade no fill told of (src/orders/order-record.ts `unseenTrade`) holds the slot as a fill does.
    if (applied.fills.length === 0 && next.lastFillAtMs !== null && next.lastFillAtMs !== previous.lastFillAtMs) market?.noteFill(next.slot, next.lastFillAtMs);
    for (const emission of applied.fills) {
      if (!emission.update && emission.fill.settlement !== 'failed' && market !== undefined) market.noteFill(next.slot, this.scheduler.now());
      this.emitFill({
        tradeEventId: emission.fill.tradeEventId,
        orderId: next.orderId,
        clientOrderId: next.clientOrderId,
        marketSlug: slug,
        slot: next.slot,
        token: next.token,
        tokenId: next.tokenId,
        side: next.side,
        priceTicks: emission.fill.priceTicks,
        sizeRaw: emission.fill.sizeRaw,
        state: emission.fill.settlement,
        update: emission.update,
        atMs: emission.fill.atMs,
      });
    }
    if (applied.illegal !== null) this.events.handleIllegal(next, applied.illegal);
    // A slot freed or unfrozen by news from outside a plan: re-run the intents (a pending-new order's own plan is still running).
    if (isFromOutside(origin) && transition !== null && market !== undefined && transition.from !== 'pending-new' && (isTerminal(transition.to) || isFrozen(transition.from))) this.plans.kick(market);
    if (linked && next.orderId !== null) this.events.replayOrphans(next.orderId);
    if (next.state !== 'pending-cancel' && next.state !== 'unknown' && market !== undefined) market.lookupSettled(next.clientOrderId);
    return next;
  }
}
