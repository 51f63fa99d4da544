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
 * market-membership.ts (markets joined and left while running, and dropped once done with); market-state.ts holds
 * each market's state.
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
 *   too (their cancel half names the new order's own clientOrderId and touches nothing: batch-placements.ts), those
 *   into slots empty when the run starts in the same request as the run's replacements;
 * - a placement without an answer is UNKNOWN, never rejected: its slot stays frozen until a status lookup by
 *   clientOrderId (with backoff) or a socket frame resolves it; an order the feed already reported terminal (filled,
 *   canceled) is never looked up (a cancel refused because the order filled meanwhile costs no request); only `notFoundLimit` not_found answers after
 *   `notFoundGraceMs` mark it lost (rejected, with the typed reason `lost`);
 * - no placement or replacement of a market leaves at or after its stop before settlement (`stopAtMs`, checked when
 *   the request leaves the rate limiter: plan-requests.ts); a withheld one does not stop the plan, so the halt's
 *   cancels follow at once;
 * - every venue request is first checked against the trading-mode gate; a TradingModeError updates the gate and
 *   drops the rest of the plan; cancels are attempted in every mode (also `disabled`: the bot never blocks its own
 *   cancels), and one the venue refused (425) is held by the gate and re-run when the gate releases it; a 425
 *   without the trading-mode body refreshes the maintenance status (never a blind retry);
 * - every fill reaches `onFill` once per (order, tradeEventId, settlement state), including late fills of a
 *   canceled order; socket events are deduplicated (bounded memory) and may come in any order;
 * - every commit names its origin; only news from outside a plan re-runs the market's intents;
 * - a market joins (`addMarket`) with its live orders adopted first, as at start-up; a market left (`retireMarket`)
 *   accepts no plan (its submissions resolve `stopped`), has its orders canceled and confirmed gone on its queue after
 *   the plan in flight, still applies and reports its orders' late events and fills, and is dropped once every order
 *   of it is terminal and old enough; shutdown cancels every registered market's orders, retired ones included;
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
import { signal } from '../core/signal.js';
import type { QuoteIntent } from '../strategy/contract.js';
import { executorSettings, isFromOutside, untilDeadline, type CommitOrigin, type ExecutorContext, type Lifecycle } from './executor-context.js';
import type { OrderEventInput } from './order-events.js';
import type { Applied, TrackedOrder } from './order-record.js';
import { isFrozen, isTerminal } from './order-state.js';
import { OrderStore } from './order-store.js';
import type { OpenOrderLocksView } from './open-order-locks.js';
import { MarketRegistry, type LeaveReport, type MarketState } from './market-state.js';
import { MarketMembership } from './market-membership.js';
import { EventRouter } from './event-router.js';
import { MarketSync } from './market-sync.js';
import { DeferredListings } from './deferred-listing.js';
import { OutcomeResolver } from './outcome-resolver.js';
import { PlanRequests } from './plan-requests.js';
import { PlanRunner } from './plan-runner.js';
import { Replacements } from './replacements.js';
import { BatchPlacements } from './batch-placements.js';
import { ShutdownSweep } from './shutdown-sweep.js';
import { RequestsOut } from './requests-out.js';
import type { TradingModeGate } from './trading-mode.js';

export { ExecutorError } from './executor-types.js';
export type { LeaveReport } from './market-state.js';
export type {
  AbortReason,
  DeferredListingResult,
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

/** The executor's memory by part (`counts()`). */
export interface ExecutorCounts {
  readonly markets: number;
  readonly retiredMarkets: number;
  readonly trackedOrders: number;
  readonly openOrders: number;
  /** Markets with an index of tracked orders. */
  readonly orderIndexMarkets: number;
  /** Market keys cached by the clientOrderId factory. */
  readonly marketKeys: number;
}

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
  private readonly deferred: DeferredListings;
  private readonly sweep: ShutdownSweep;
  private readonly membership: MarketMembership;
  private lifecycle: Lifecycle = 'created';
  /** Set at shutdown when it cancels every order of the bot (ExecutorContext.sweeping). */
  private sweeping = false;
  private readonly requestsOut = new RequestsOut();
  private readonly unsubscribeMode: () => void;
  private readonly startedSignal = signal();
  private readonly stoppedSignal = signal();

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
      sweeping: () => this.sweeping,
      requestsOut: this.requestsOut,
      stopAtMs: (slug) => options.stopAtMs?.(slug) ?? null,
      deferListing: (slug) => options.deferListing?.(slug) ?? false,
    };
    this.resolver = new OutcomeResolver(ctx);
    const requests = new PlanRequests(ctx, this.resolver);
    const replacements = new Replacements(ctx, requests, this.resolver);
    this.plans = new PlanRunner(ctx, requests, replacements, new BatchPlacements(ctx, requests, replacements, this.resolver));
    this.sync = new MarketSync(ctx, this.resolver, (market) => this.plans.kick(market));
    this.deferred = new DeferredListings(ctx, this.sync, this.resolver);
    this.events = new EventRouter(ctx, {
      dedupeCapacity: options.dedupeCapacity ?? 10_000,
      orphanCapacity: options.orphanEvents?.capacity ?? 1000,
      orphanTtlMs: options.orphanEvents?.ttlMs ?? 60_000,
      requestResync: (market) => this.membership.requestResync(market),
    });
    this.sweep = new ShutdownSweep(ctx, this.sync, this.resolver);
    this.membership = new MarketMembership(ctx, this.sync, this.sweep, this.plans, this.deferred, {
      register: (ref) => this.register(ref),
      forget: (market) => this.forget(market),
      started: () => this.startedSignal.promise,
      stopped: () => this.stoppedSignal.promise,
    });
    for (const market of options.markets) this.register(market);
    this.unsubscribeMode = this.gate.onRelease(() => {
      for (const market of this.markets.all()) {
        this.events.flushStrays(market);
        if (market.retired) this.membership.sweepAfterRelease(market);
        else this.plans.kick(market);
      }
    });
  }

  // ───────────────────────────── public API ─────────────────────────────

  /**
   * Joins a market while running (or before `start()`, which adopts it): registered, the bot's live orders in it
   * adopted by its tag as at start-up; resolves once adopted (no plan runs in it before). Idempotent: a market joined
   * and ready already reports nothing adopted; one being left is joined again once the leave is done. Refused (ok
   * false, nothing registered) once stopping.
   */
  addMarket(ref: MarketRef): Promise<MarketSyncReport> {
    return this.membership.join(ref);
  }

  /**
   * Leaves a market: no plan is accepted from now on (the waiting one resolves `stopped`), its orders are canceled and
   * confirmed gone (unknown outcomes looked up by clientOrderId) after the plan in flight, within `budgetMs`. Late
   * events and fills of its orders are still applied and reported; its state is dropped once every order of it is
   * terminal and unchanged for `retainTerminalMs`. An unknown market reports clean.
   */
  retireMarket(marketSlug: string, options: { readonly budgetMs: number }): Promise<LeaveReport> {
    const market = this.markets.get(marketSlug);
    if (market === undefined) return Promise.resolve({ clean: true, left: 0 });
    return this.membership.leave(market, options.budgetMs);
  }

  /** Whether the market is registered and not being left (plans are accepted in it). */
  isActiveMarket(marketSlug: string): boolean {
    const market = this.markets.get(marketSlug);
    return market !== undefined && !market.retired;
  }

  /** Markets quoting before their own-order listing whose listing is not applied yet (deferred-listing.ts). */
  get deferredListings(): number {
    return this.deferred.outstanding;
  }

  /** Sizes of the executor's memory: markets registered (retired ones until dropped), orders tracked and open, indexes. */
  counts(): ExecutorCounts {
    const markets = this.markets.counts();
    const store = this.store.counts();
    return {
      markets: markets.markets,
      retiredMarkets: markets.retired,
      trackedOrders: store.orders,
      openOrders: this.openOrders().length,
      orderIndexMarkets: store.markets,
      marketKeys: this.options.ids.cachedKeys,
    };
  }

  get state(): Lifecycle {
    return this.lifecycle;
  }

  /**
   * Adopts the bot's live orders in every market (no plan runs in a market before its adoption is done). A market
   * `deferListing` lets quote first is ready at once and listed afterwards in the background (its report says
   * `deferred`); the others are listed first, their listings in the placement class.
   */
  async start(): Promise<readonly MarketSyncReport[]> {
    if (this.lifecycle !== 'created') throw new ExecutorError('lifecycle', this.lifecycle, 'start() may be called once, before anything else');
    this.lifecycle = 'starting';
    await this.gate.refresh();
    const reports = await Promise.all(
      this.markets.all().map(async (market) => {
        const deferred = this.options.deferListing?.(market.slug) === true;
        const report = await market.queue.add(() => (deferred ? this.sync.readyBeforeListing(market) : this.sync.syncMarket(market, 'startup')));
        market.noteFirstSync(report);
        if (deferred) this.deferred.schedule(market);
        return report;
      }),
    );
    if (this.lifecycle === 'starting') this.lifecycle = 'running';
    this.startedSignal.fire();
    return reports;
  }

  /** Resolves once `start()` has synced every market (adopting, and replaying the held events of, what it found), or at shutdown. */
  whenStarted(): Promise<void> {
    return this.startedSignal.promise;
  }

  /**
   * Submits the latest intents for a market. The plan is computed when the market's queue reaches it; a
   * submission still waiting when a newer one arrives resolves `superseded`.
   */
  submit(marketSlug: string, intents: readonly QuoteIntent[], options: { readonly issuedAtMs?: number } = {}): Promise<PlanOutcome> {
    const market = this.markets.get(marketSlug);
    if (market === undefined) return Promise.reject(new ExecutorError('marketSlug', marketSlug, 'market not registered'));
    if (this.lifecycle === 'created') return Promise.resolve({ status: 'not-ready' });
    if (this.lifecycle === 'stopping' || this.lifecycle === 'stopped' || market.retired) return Promise.resolve({ status: 'stopped' });
    return this.plans.submit(market, intents, options.issuedAtMs ?? this.scheduler.now());
  }

  /** Cancels every quote of the bot in every market it quotes (submits empty intents everywhere). */
  haltAll(): Promise<PlanOutcome[]> {
    return Promise.all(this.markets.active().map((market) => this.submit(market.slug, [])));
  }

  /** Applies one socket order event. Never throws. */
  onOrderEvent(event: OrderEventInput): void {
    this.events.route(event);
  }

  /**
   * Re-reads the market's live orders from the venue (after a reconnect): adopts, cancels strays, looks up vanished
   * ones. In a market being left, sweeps it again instead (cancels whatever of the bot's still rests there).
   */
  async resync(marketSlug: string): Promise<MarketSyncReport> {
    const market = this.markets.get(marketSlug);
    if (market === undefined) throw new ExecutorError('marketSlug', marketSlug, 'market not registered');
    if (market.retired) {
      const left = await this.membership.leave(market, market.leaveBudgetMs);
      return { marketSlug, ok: left.clean, adopted: 0, canceled: 0, foreign: 0, error: left.clean ? null : `${left.left} orders still open in a market being left` };
    }
    market.queueResync();
    const report = await market.queue.add(() => this.sync.syncMarket(market, 'resync'));
    return report ?? { marketSlug, ok: false, adopted: 0, canceled: 0, foreign: 0, error: 'not run' };
  }

  /** Open (non-terminal) orders, of one market or all. Unknown and pending orders included. */
  openOrders(marketSlug?: string): TrackedOrder[] {
    if (marketSlug !== undefined) return this.store.openInMarket(marketSlug);
    return this.store.open();
  }

  /** What the open orders lock, kept with every change (src/orders/open-order-locks.ts): read per quote, never a walk. */
  get locks(): OpenOrderLocksView {
    return this.store.locks;
  }

  order(clientOrderId: string): TrackedOrder | undefined {
    return this.store.get(clientOrderId);
  }

  /** Stops quoting, waits for plans in flight, cancels every order of the bot and confirms, within the budget. */
  async shutdown(options: ShutdownOptions = {}): Promise<ShutdownReport> {
    const started = this.scheduler.now();
    const deadline = started + Math.max(0, options.budgetMs ?? 10_000);
    this.sweeping = options.leaveOrdersResting !== true;
    this.lifecycle = 'stopping';
    const markets = this.markets.all();
    for (const market of markets) this.plans.stop(market);
    // Plans in flight get a third of the budget to finish (no new placement starts once stopping); the
    // cancels then go out regardless, and the confirmation loop catches anything that lands after them. When the sweep
    // cancels every order, a plan is waited for only while it has a request out (sent, unanswered): its requests still
    // queued in the limiter are withheld as they leave (placements, replacements, its own cancels), so they change
    // nothing at the venue, and the sweep's cancels across markets start ahead of them (limiter class `sweep`).
    const budget = deadline - started;
    const planDone = (m: MarketState): Promise<unknown> => (this.sweeping ? Promise.race([m.queue.onIdle(), this.requestsOut.none(m.slug)]) : m.queue.onIdle());
    await untilDeadline(this.scheduler, Promise.all(markets.map(planDone)), started + Math.floor(budget / 3));
    let withLive: string[];
    if (options.leaveOrdersResting === true) {
      await Promise.all(markets.map((market) => untilDeadline(this.scheduler, this.resolver.resolveOnce(market), deadline)));
      withLive = [];
    } else {
      // Markets where every order of the bot is tracked: cancels at once, confirmed by status lookups across markets;
      // the others (a listing not applied, a market being left) are listed as part of their sweep (shutdown-sweep.ts).
      const listed = markets.filter((m) => this.unlisted(m));
      const [known, byListing] = await Promise.all([
        this.sweep.sweepKnown(markets.filter((m) => !this.unlisted(m)), deadline),
        Promise.all(listed.map(async (m) => ((await this.sweep.cancelEverything(m, deadline)) ? m.slug : null))),
      ]);
      withLive = markets.map((m) => m.slug).filter((slug) => !known.has(slug) && !byListing.includes(slug));
      // The plans not waited for above end as their queued requests are withheld (taking no start, now behind nothing):
      // waited for within the deadline, so no order of theirs is left pending in the report and the summary.
      await untilDeadline(this.scheduler, Promise.all(markets.map((m) => m.queue.onIdle())), deadline);
    }
    const timedOut = withLive.length > 0 && this.scheduler.now() >= deadline;
    for (const market of markets) market.disarmAll();
    this.unsubscribeMode();
    this.lifecycle = 'stopped';
    this.startedSignal.fire();
    this.stoppedSignal.fire();
    const unresolved = this.store.all().filter((o) => o.state === 'unknown' || o.state === 'pending-new').map((o) => o.clientOrderId);
    return {
      clean: withLive.length === 0,
      timedOut,
      marketsWithLiveOrders: withLive,
      unresolved,
      durationMs: this.scheduler.now() - started,
    };
  }

  // ───────────────────────────── markets ─────────────────────────────

  /** The bot's orders in the market may not all be tracked: its listing was not applied, it failed, or it is being left. */
  private unlisted(market: MarketState): boolean {
    const first = market.firstSyncReport;
    return first === null || !first.ok || !market.ready || market.retired || this.deferred.isUnlisted(market.slug);
  }

  private register(ref: MarketRef): MarketState {
    const keyOf = (slug: string): string => this.options.ids.keyOf(slug);
    this.markets.add(ref, keyOf);
    const market = this.markets.get(ref.slug);
    if (market === undefined) throw new ExecutorError('marketSlug', ref.slug, 'not registered after add');
    return market;
  }

  /** A market dropped: its timers, its state, its tracked orders and its cached key forgotten. */
  private forget(market: MarketState): void {
    market.disarmAll();
    this.markets.remove(market.slug, (slug) => this.options.ids.keyOf(slug));
    this.store.dropMarket(market.slug);
    this.options.ids.forget(market.slug);
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
