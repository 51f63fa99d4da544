/**
 * The order executor: the ONLY writer of order state. It turns a market's latest quote intents into venue
 * requests (through `VenuePort`), applies every answer and socket order event to the tracked orders, resolves
 * unknown outcomes by clientOrderId, adopts the bot's orders at start-up and cancels them at shutdown.
 *
 * Invariants:
 * - one plan in flight per market (a p-queue of concurrency 1 per market, shared with start-up, resync and
 *   shutdown work for that market); a newer submission SUPERSEDES a queued one (the older caller gets
 *   `superseded` at once); the plan is computed when it starts, from the state at that moment;
 * - cancels go first; a slot is re-placed only once its previous order is confirmed gone (reconcile re-runs on
 *   the state after the cancels), so at most one order per (market, slot) can rest; with cancel-replace, a slot's
 *   (cancel old, place new) pair goes as one operation with STOP_ON_FAILURE (the venue places only once the cancel
 *   succeeded), several slots per batch request; the pairing and the outcome mapping are cancel-replace.ts;
 * - a placement without an answer is UNKNOWN, never rejected: its slot stays frozen until a status lookup by
 *   clientOrderId (with backoff) or a socket frame resolves it; only `notFoundLimit` not_found answers after
 *   `notFoundGraceMs` mark it lost;
 * - every venue request is first checked against the trading-mode gate; a TradingModeError updates the gate and
 *   drops the rest of the plan; cancels are attempted in every mode (also `disabled`: the bot never blocks its own
 *   cancels), and one the venue refused (425) is held by the gate and re-run when the gate releases it; a 425
 *   without the trading-mode body refreshes the maintenance status (never a blind retry);
 * - every fill reaches `onFill` once per (order, tradeEventId, settlement state), including late fills of a
 *   canceled order; socket events are deduplicated (bounded memory) and may come in any order;
 * - nothing here throws into the caller for venue trouble: failures become outcomes, observations and logs.
 */
import PQueue from 'p-queue';
import {
  ExecutorError,
  guardObserver,
  type AbortReason,
  type ExecutorObserver,
  type ExecutorOptions,
  type FillEvent,
  type MarketRef,
  type MarketSyncReport,
  type OrderLog,
  type PlanOutcome,
  type PlanReport,
  type ShutdownOptions,
  type ShutdownReport,
} from './executor-types.js';
import type { CancelTimer, Scheduler } from '../core/clock.js';
import type { Outcome } from '../core/units.js';
import { chunks } from '../core/maps.js';
import { errorText } from '../core/errors.js';
import type { QuoteIntent } from '../strategy/contract.js';
import { isOwnClientOrderId, tryParseClientOrderId, type ClientOrderIdFactory } from './client-order-id.js';
import { BoundedDedupe, eventKey, validateOrderEvent, type OmeEventInput, type OrderEventInput, type SettlementEventInput, type SettlementFillInput } from './order-events.js';
import {
  adoptedOrder,
  applyFill,
  applyReport,
  confirmCancel,
  markLost,
  markRejected,
  markUnknown,
  newOrder,
  recordLookupMiss,
  refuseCancel,
  requestCancel,
  type Applied,
  type OrderReport,
  type TrackedOrder,
} from './order-record.js';
import { isFrozen, isOpen, isResting, isTerminal, type IllegalTransitionError } from './order-state.js';
import { OrderStore } from './order-store.js';
import { OrphanEvents, type OrphanPart } from './orphan-events.js';
import { outcomeEffects, pairReplacements, type OutcomeEffects, type Replacement } from './cancel-replace.js';
import { reconcile, type Plan, type PlannedCancel, type PlannedPlace } from './reconcile.js';
import { adopt, type ForeignPolicy } from './startup.js';
import { formatFillPartId } from './fill-part-id.js';
import type { TradingModeGate } from './trading-mode.js';
import {
  CancelReplaceUnsupportedError,
  DuplicateClientOrderIdError,
  isVenueError,
  MaintenanceBlockError,
  OrderRejectedError,
  OutcomeUnknownError,
  PlacementWithheldError,
  RateLimitedError,
  STATUS_BATCH_MAX,
  TradingModeError,
  type CancelReplaceItem,
  type CancelResult,
  type PlaceRequest,
  type PlaceResult,
  type SettlementState,
  type StatusQuery,
  type StatusResult,
  type VenueOrderSnapshot,
  type VenuePort,
} from './venue-port.js';

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

type Lifecycle = 'created' | 'starting' | 'running' | 'stopping' | 'stopped';

interface Submission {
  readonly intents: readonly QuoteIntent[];
  readonly issuedAtMs: number;
}

interface PendingRun {
  submission: Submission;
  resolve: ((outcome: PlanOutcome) => void) | null;
}

interface MarketState {
  readonly ref: MarketRef;
  readonly queue: PQueue;
  pending: PendingRun | null;
  lastSubmission: Submission | null;
  ready: boolean;
  reviewTimer: CancelTimer | null;
  resolveTimer: CancelTimer | null;
  resolveAttempt: number;
  resolving: boolean;
  resyncQueued: boolean;
  hasForeign: boolean;
  readonly lastFillAtBySlot: Map<string, number>;
  /** Orders whose cancel outcome is uncertain or that vanished from a listing: resolve by lookup. */
  readonly lookups: Set<string>;
  /** Venue ids of the bot's orders found resting although given up: canceled as soon as the mode allows. */
  readonly strays: Set<string>;
}

interface PlanTally {
  placed: string[];
  canceled: string[];
  rejected: string[];
  unknown: string[];
  attemptedCancels: Set<string>;
  /** Slots whose replacement the venue refused in this run: not placed again before the next run. */
  refusedSlots: Set<string>;
}

const NOOP_LOG: OrderLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const SETTLEMENT_OF: Readonly<Record<SettlementEventInput['type'], SettlementState>> = { MATCHED: 'provisional', MINED: 'mined', FAILED: 'failed' };



/**
 * One part per order in a settlement frame. Should one order appear more than once in a trade (several matches),
 * its later entries are kept as separate fills under their part id (src/orders/fill-part-id.ts; stable for the MINED/FAILED frames as
 * long as the venue lists matches in the same order), so no size is lost to the per-trade deduplication.
 */
function splitSettlement(event: SettlementEventInput): [SettlementEventInput, SettlementFillInput][] {
  const seen = new Map<string, number>();
  return event.fills.map((fill) => {
    const key = fill.orderId ? `o:${fill.orderId}` : `c:${fill.clientOrderId ?? ''}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const tradeEventId = formatFillPartId(event.tradeEventId, n);
    return [{ ...event, tradeEventId, fills: [fill] }, fill];
  });
}

export class OrderExecutor {
  private readonly venue: VenuePort;
  private readonly scheduler: Scheduler;
  private readonly gate: TradingModeGate;
  private readonly ids: ClientOrderIdFactory;
  private readonly log: OrderLog;
  private readonly observer: Required<ExecutorObserver>;
  private readonly store = new OrderStore();
  private readonly marketsBySlug = new Map<string, MarketState>();
  private readonly marketsByKey = new Map<string, MarketState>();
  private readonly dedupe: BoundedDedupe;
  private readonly orphans: OrphanEvents;
  private readonly strayCancels = new BoundedDedupe(1000);
  private lifecycle: Lifecycle = 'created';
  /** False once the venue answered 404 for cancel-replace. */
  private cancelReplaceOffered = true;
  private readonly unsubscribeMode: () => void;
  private readonly cfg: {
    readonly defaultPostOnly: boolean;
    readonly initialBackoffMs: number;
    readonly maxBackoffMs: number;
    readonly notFoundLimit: number;
    readonly notFoundGraceMs: number;
    readonly foreignPolicy: ForeignPolicy;
    readonly exclusiveMarkets: boolean;
    readonly cancelBatchSize: number;
    readonly cancelReplace: boolean;
    readonly replaceBatchSize: number;
    readonly startupAttempts: number;
    readonly retainTerminalMs: number;
  };

  constructor(private readonly options: ExecutorOptions) {
    this.venue = options.venue;
    this.scheduler = options.scheduler;
    this.gate = options.modeGate;
    this.ids = options.ids;
    this.log = options.log ?? NOOP_LOG;
    this.observer = guardObserver(options.observer ?? {}, (hook, error) => this.log.error({ hook, err: errorText(error, { withName: true }) }, 'observer hook failed'));
    const unknown = options.unknownOrders ?? {};
    this.cfg = {
      defaultPostOnly: options.defaultPostOnly ?? false,
      initialBackoffMs: unknown.initialBackoffMs ?? 500,
      maxBackoffMs: unknown.maxBackoffMs ?? 10_000,
      notFoundLimit: unknown.notFoundLimit ?? 3,
      notFoundGraceMs: unknown.notFoundGraceMs ?? 10_000,
      foreignPolicy: options.foreignPolicy ?? 'leave',
      exclusiveMarkets: options.exclusiveMarkets ?? false,
      cancelBatchSize: Math.min(Math.max(1, options.cancelBatchSize ?? 50), 500),
      cancelReplace: options.cancelReplace?.enabled ?? true,
      replaceBatchSize: Math.min(Math.max(1, options.cancelReplace?.batchSize ?? 10), 50),
      startupAttempts: Math.max(1, options.startupAttempts ?? 3),
      retainTerminalMs: options.retainTerminalMs ?? 3_600_000,
    };
    this.dedupe = new BoundedDedupe(options.dedupeCapacity ?? 10_000);
    this.orphans = new OrphanEvents(options.orphanEvents?.capacity ?? 1000, options.orphanEvents?.ttlMs ?? 60_000);
    for (const market of options.markets) this.registerMarket(market);
    this.unsubscribeMode = this.gate.onRelease(() => {
      for (const market of this.marketsBySlug.values()) {
        this.flushStrays(market);
        this.kick(market);
      }
    });
  }

  // ───────────────────────────── public API ─────────────────────────────

  registerMarket(ref: MarketRef): void {
    if (this.marketsBySlug.has(ref.slug)) return;
    const market: MarketState = {
      ref,
      queue: new PQueue({ concurrency: 1 }),
      pending: null,
      lastSubmission: null,
      ready: false,
      reviewTimer: null,
      resolveTimer: null,
      resolveAttempt: 0,
      resolving: false,
      resyncQueued: false,
      hasForeign: false,
      lastFillAtBySlot: new Map(),
      lookups: new Set(),
      strays: new Set(),
    };
    this.marketsBySlug.set(ref.slug, market);
    this.marketsByKey.set(this.ids.keyOf(ref.slug), market);
    if (this.lifecycle === 'running' || this.lifecycle === 'starting') {
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
    const reports = await Promise.all([...this.marketsBySlug.values()].map((market) => market.queue.add(() => this.syncMarket(market, 'startup'))));
    if (this.lifecycle === 'starting') this.lifecycle = 'running';
    return reports.filter((r): r is MarketSyncReport => r !== undefined);
  }

  /**
   * Submits the latest intents for a market. The plan is computed when the market's queue reaches it; a
   * submission still waiting when a newer one arrives resolves `superseded`.
   */
  submit(marketSlug: string, intents: readonly QuoteIntent[], options: { readonly issuedAtMs?: number } = {}): Promise<PlanOutcome> {
    const market = this.marketsBySlug.get(marketSlug);
    if (market === undefined) return Promise.reject(new ExecutorError('marketSlug', marketSlug, 'market not registered'));
    if (this.lifecycle === 'created') return Promise.resolve({ status: 'not-ready' });
    if (this.lifecycle === 'stopping' || this.lifecycle === 'stopped') return Promise.resolve({ status: 'stopped' });
    const submission: Submission = { intents: [...intents], issuedAtMs: options.issuedAtMs ?? this.scheduler.now() };
    market.lastSubmission = submission;
    return new Promise<PlanOutcome>((resolve) => {
      const pending = market.pending;
      if (pending !== null) {
        if (pending.resolve !== null) {
          pending.resolve({ status: 'superseded' });
          this.observer.onSuperseded(marketSlug);
        }
        pending.submission = submission;
        pending.resolve = resolve;
        return;
      }
      this.enqueueRun(market, { submission, resolve });
    });
  }

  /** Cancels every quote of the bot in every market (submits empty intents everywhere). */
  haltAll(): Promise<PlanOutcome[]> {
    return Promise.all([...this.marketsBySlug.keys()].map((slug) => this.submit(slug, [])));
  }

  /** Applies one socket order event. Never throws. */
  onOrderEvent(event: OrderEventInput): void {
    try {
      const problem = validateOrderEvent(event);
      if (problem !== null) {
        this.observer.onUntrackedEvent('invalid', problem.message);
        this.log.warn({ err: problem.message }, 'order event dropped');
        return;
      }
      const key = eventKey(event);
      if (this.dedupe.seen(key)) {
        this.observer.onDuplicateEvent(key);
        return;
      }
      if (event.source === 'OME') this.routeOme(event);
      else for (const [part, fill] of splitSettlement(event)) this.routeSettlementFill(part, fill);
    } catch (error) {
      this.log.error({ err: errorText(error, { withName: true }) }, 'order event failed');
    }
  }

  /** Re-reads the market's live orders from the venue (after a reconnect): adopts, cancels strays, looks up vanished ones. */
  async resync(marketSlug: string): Promise<MarketSyncReport> {
    const market = this.marketsBySlug.get(marketSlug);
    if (market === undefined) throw new ExecutorError('marketSlug', marketSlug, 'market not registered');
    market.resyncQueued = true;
    const report = await market.queue.add(() => this.syncMarket(market, 'resync'));
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
    for (const market of this.marketsBySlug.values()) {
      const pending = market.pending;
      market.pending = null;
      pending?.resolve?.({ status: 'stopped' });
      market.reviewTimer?.();
      market.reviewTimer = null;
    }
    // Plans in flight get a third of the budget to finish (no new placement starts once stopping); the
    // cancels then go out regardless, and the confirmation loop catches anything that lands after them.
    const budget = deadline - started;
    await this.untilDeadline(Promise.all([...this.marketsBySlug.values()].map((m) => m.queue.onIdle())), started + Math.floor(budget / 3));
    const results = await Promise.all(
      [...this.marketsBySlug.values()].map(async (market) => {
        const confirmed = options.leaveOrdersResting === true ? await this.untilDeadline(this.resolveOnce(market), deadline).then(() => true) : await this.cancelEverything(market, deadline);
        return { market, confirmed };
      }),
    );
    const withLive = results.filter((r) => !r.confirmed).map((r) => r.market.ref.slug);
    const timedOut = withLive.length > 0 && this.scheduler.now() >= deadline;
    for (const market of this.marketsBySlug.values()) {
      market.resolveTimer?.();
      market.resolveTimer = null;
    }
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

  // ───────────────────────────── submissions and plans ─────────────────────────────

  private enqueueRun(market: MarketState, pending: PendingRun): void {
    market.pending = pending;
    void market.queue.add(async () => {
      const run = market.pending;
      market.pending = null;
      if (run === null) return;
      let outcome: PlanOutcome;
      try {
        outcome = await this.runPlan(market, run.submission);
      } catch (error) {
        this.log.error({ market: market.ref.slug, err: errorText(error, { withName: true }) }, 'plan failed');
        outcome = { status: 'failed', error: errorText(error, { withName: true }) };
      }
      run.resolve?.(outcome);
    });
  }

  /** Re-runs the market's latest intents (after a cancel resolves, a mode relaxes, a cool-off ends). */
  private kick(market: MarketState): void {
    if ((this.lifecycle !== 'running' && this.lifecycle !== 'starting') || market.lastSubmission === null || market.pending !== null) return;
    this.enqueueRun(market, { submission: market.lastSubmission, resolve: null });
  }

  /** Reconcile of the submission over the market's open orders (less `without`, as if those were gone). */
  private planFor(market: MarketState, submission: Submission, without: ReadonlySet<string> = new Set()): Plan {
    const settings = this.options.reconcile ?? {};
    const orders = this.store.openInMarket(market.ref.slug).filter((o) => !without.has(o.clientOrderId));
    return reconcile(submission.intents, orders, {
      nowMs: this.scheduler.now(),
      ...settings,
      lastFillAtBySlot: market.lastFillAtBySlot,
      intentsIssuedAtMs: submission.issuedAtMs,
    });
  }

  private async runPlan(market: MarketState, submission: Submission): Promise<PlanOutcome> {
    if (this.lifecycle === 'stopping' || this.lifecycle === 'stopped') return { status: 'stopped' };
    if (!market.ready) return { status: 'not-ready' };
    const started = this.scheduler.now();
    this.store.pruneTerminal(market.ref.slug, started - this.cfg.retainTerminalMs);
    const tally: PlanTally = { placed: [], canceled: [], rejected: [], unknown: [], attemptedCancels: new Set(), refusedSlots: new Set() };
    let blockedPlaces = 0;
    let blockedCancels = 0;
    let converted = 0;

    const first = this.gate.gate(this.planFor(market, submission));
    blockedCancels += first.blockedCancels;
    const split = this.replacementsOf(market, submission, first.plan);
    let aborted = await this.executeCancels(market, split.cancels, tally);
    if (aborted === null && split.replacements.length > 0) aborted = await this.executeReplacements(market, split.replacements, tally);
    let plan = first.plan;
    if (aborted === null) {
      const second = this.gate.gate(this.planFor(market, submission));
      plan = second.plan;
      blockedPlaces += second.blockedPlaces;
      blockedCancels += second.blockedCancels;
      converted += second.convertedToPostOnly;
      const fresh = second.plan.cancels.filter((c) => !tally.attemptedCancels.has(c.clientOrderId));
      aborted = await this.executeCancels(market, fresh, tally);
      if (aborted === null) aborted = await this.executePlaces(market, second.plan.places, tally);
      // Slots emptied by those late cancels are filled by a follow-up run (after this one ends).
      if (aborted === null && fresh.length > 0) this.kick(market);
    }
    this.scheduleReview(market, plan.nextReviewAtMs);
    const report: PlanReport = {
      marketSlug: market.ref.slug,
      durationMs: this.scheduler.now() - started,
      placed: tally.placed.length,
      canceled: tally.canceled.length,
      kept: plan.keeps.length,
      waiting: plan.waits.length,
      rejected: tally.rejected.length,
      unknown: tally.unknown.length,
      invalid: plan.invalid.length,
      blockedPlaces,
      blockedCancels,
      convertedToPostOnly: converted,
      aborted,
    };
    this.observer.onPlan(report);
    if (plan.invalid.length > 0) this.log.warn({ market: market.ref.slug, invalid: plan.invalid.map((i) => i.reason) }, 'invalid intents dropped');
    return {
      status: 'executed',
      marketSlug: market.ref.slug,
      placed: tally.placed,
      canceled: tally.canceled,
      kept: plan.keeps.length,
      waits: plan.waits,
      rejected: tally.rejected,
      unknown: tally.unknown,
      invalid: plan.invalid,
      aborted,
    };
  }

  private scheduleReview(market: MarketState, atMs: number | null): void {
    market.reviewTimer?.();
    market.reviewTimer = null;
    if (atMs === null) return;
    market.reviewTimer = this.scheduler.schedule(Math.max(0, atMs - this.scheduler.now()), () => {
      market.reviewTimer = null;
      this.kick(market);
    });
  }

  private async executeCancels(market: MarketState, cancels: readonly PlannedCancel[], tally: PlanTally): Promise<AbortReason | null> {
    for (const batch of chunks(cancels, this.cfg.cancelBatchSize)) {
      if (!this.gate.allowsCancel()) return 'trading-mode';
      const targets: TrackedOrder[] = [];
      for (const cancel of batch) {
        const order = this.store.get(cancel.clientOrderId);
        if (order === undefined || order.orderId === null || !isResting(order.state)) continue;
        tally.attemptedCancels.add(order.clientOrderId);
        targets.push(this.commit(order, requestCancel(order, this.scheduler.now()), false));
      }
      if (targets.length === 0) continue;
      const slug = market.ref.slug;
      let result: CancelResult;
      try {
        result = await this.venue.cancelOrders(
          slug,
          targets.flatMap((t) => (t.orderId === null ? [] : [t.orderId])),
        );
      } catch (error) {
        this.observer.onRequestError('cancelOrders', slug, error);
        if (this.refusedByMode(error, 'cancel')) {
          this.refuseAll(targets);
          return 'trading-mode';
        }
        if (error instanceof OutcomeUnknownError || !isVenueError(error)) {
          // The cancels may or may not have taken: keep them pending-cancel and look them up.
          for (const target of targets) market.lookups.add(target.clientOrderId);
          this.scheduleResolve(market, this.cfg.initialBackoffMs);
          continue;
        }
        this.log.warn({ market: slug, err: errorText(error, { withName: true }) }, 'cancel refused');
        this.refuseAll(targets);
        return error instanceof RateLimitedError ? 'rate-limited' : 'request-failed';
      }
      const uncertain: TrackedOrder[] = [];
      const canceled = new Set(result.canceled);
      for (const target of targets) {
        const current = this.store.get(target.clientOrderId) ?? target;
        if (canceled.has(target.orderId ?? '')) {
          const applied = this.commit(current, confirmCancel(current, 'canceled by the bot', this.scheduler.now()), false);
          if (applied.state === 'canceled') tally.canceled.push(applied.clientOrderId);
        } else {
          uncertain.push(current);
        }
      }
      if (uncertain.length > 0) {
        // Refused ("not found", "already canceled") or missing from the answer: ask the venue what it holds.
        for (const order of uncertain) market.lookups.add(order.clientOrderId);
        await this.lookupNow(market, uncertain);
        for (const order of uncertain) {
          const after = this.store.get(order.clientOrderId);
          if (after?.state === 'canceled') tally.canceled.push(after.clientOrderId);
        }
      }
    }
    return null;
  }

  private refuseAll(orders: readonly TrackedOrder[]): void {
    for (const order of orders) {
      const current = this.store.get(order.clientOrderId) ?? order;
      this.commit(current, refuseCancel(current, this.scheduler.now()), false);
    }
  }

  private async executePlaces(market: MarketState, places: readonly PlannedPlace[], tally: PlanTally): Promise<AbortReason | null> {
    for (const place of places) {
      if (this.lifecycle !== 'running' && this.lifecycle !== 'starting') return null;
      const postOnly = place.intent.postOnly ?? this.cfg.defaultPostOnly;
      if (!this.gate.allowsPlacement({ postOnly, orderType: 'GTC' })) return 'trading-mode';
      // Re-check the slot: an event may have changed it while earlier requests were in flight.
      if (tally.refusedSlots.has(place.slot) || this.store.openInMarket(market.ref.slug).some((o) => o.slot === place.slot)) continue;
      const result = await this.placeOne(market, place.intent, postOnly, tally);
      if (result !== null) return result;
    }
    return null;
  }

  /** A new order for `intent`, inserted pending-new, and its request (not sent). */
  private newPlacement(market: MarketState, intent: QuoteIntent, postOnly: boolean): { readonly order: TrackedOrder; readonly request: Omit<PlaceRequest, 'beforeSend'> } {
    const slug = market.ref.slug;
    const tokenId = intent.token === 'YES' ? market.ref.tokens.yes : market.ref.tokens.no;
    const clientOrderId = this.ids.next(slug, intent.slot);
    const request = { marketSlug: slug, clientOrderId, token: intent.token, tokenId, side: intent.side, priceTicks: intent.priceTicks, sizeRaw: intent.sizeRaw, postOnly, orderType: 'GTC' } as const;
    const order = newOrder({ ...request, slot: intent.slot }, this.scheduler.now());
    this.insert(order);
    return { order, request };
  }

  /** The request may wait in the rate limiter behind others: re-checked at the moment it would leave. */
  private withholdUnlessAllowed(postOnly: boolean): void {
    if (this.lifecycle !== 'running' && this.lifecycle !== 'starting') throw new PlacementWithheldError('stopping');
    if (!this.gate.allowsPlacement({ postOnly, orderType: 'GTC' })) throw new PlacementWithheldError(`trading mode ${this.gate.mode}`);
  }

  /** Applies a placement answer to the new order and tallies it. */
  private applyPlaced(clientOrderId: string, answer: PlaceResult, tally: PlanTally): void {
    this.applySnapshotLike(clientOrderId, { orderId: answer.orderId, status: answer.status, remainingRaw: answer.remainingRaw, reason: answer.reason }, answer.fills, true, false);
    const after = this.store.get(clientOrderId);
    if (after?.state === 'rejected') tally.rejected.push(clientOrderId);
    else tally.placed.push(clientOrderId);
  }

  private async placeOne(market: MarketState, intent: QuoteIntent, postOnly: boolean, tally: PlanTally): Promise<AbortReason | null> {
    const slug = market.ref.slug;
    const { order: created, request } = this.newPlacement(market, intent, postOnly);
    const clientOrderId = created.clientOrderId;
    try {
      const answer = await this.venue.placeOrder({ ...request, beforeSend: () => this.withholdUnlessAllowed(postOnly) });
      this.applyPlaced(clientOrderId, answer, tally);
      return null;
    } catch (error) {
      const current = this.store.get(clientOrderId) ?? created;
      if (error instanceof PlacementWithheldError) {
        // Withheld before it left: the order never existed.
        this.commit(current, markRejected(current, `withheld: ${error.reason}`, this.scheduler.now()), false);
        return error.reason === 'stopping' ? null : 'trading-mode';
      }
      this.observer.onRequestError('placeOrder', slug, error);
      if (error instanceof DuplicateClientOrderIdError) {
        // 409: the venue already holds this clientOrderId. Find it; until found it is unknown.
        const unknown = this.commit(current, markUnknown(current, this.scheduler.now()), false);
        await this.lookupNow(market, [unknown]);
        const after = this.store.get(clientOrderId);
        if (after?.state === 'unknown') {
          tally.unknown.push(clientOrderId);
        } else {
          tally.placed.push(clientOrderId);
        }
        return null;
      }
      if (this.refusedByMode(error, 'place', { postOnly })) {
        this.commit(current, markRejected(current, error instanceof TradingModeError ? `trading mode ${error.mode}` : 'maintenance block', this.scheduler.now()), false);
        tally.rejected.push(clientOrderId);
        return 'trading-mode';
      }
      if (error instanceof RateLimitedError) {
        this.commit(current, markRejected(current, 'rate limited', this.scheduler.now()), false);
        tally.rejected.push(clientOrderId);
        return 'rate-limited';
      }
      if (error instanceof OrderRejectedError) {
        this.commit(current, markRejected(current, error.reason, this.scheduler.now()), false);
        tally.rejected.push(clientOrderId);
        this.log.warn({ market: slug, clientOrderId, reason: error.reason, detail: error.detail }, 'placement rejected');
        return null;
      }
      if (isVenueError(error) && !(error instanceof OutcomeUnknownError)) {
        // A definite failure of another kind: the order was not accepted.
        this.commit(current, markRejected(current, error.kind, this.scheduler.now()), false);
        tally.rejected.push(clientOrderId);
        return 'request-failed';
      }
      // Timeout, 5xx, dropped connection, or anything unexpected: the outcome is unknown.
      this.log.warn({ market: slug, clientOrderId, err: errorText(error, { withName: true }) }, 'placement outcome unknown');
      this.commit(current, markUnknown(current, this.scheduler.now()), false);
      tally.unknown.push(clientOrderId);
      this.scheduleResolve(market, this.cfg.initialBackoffMs);
      return null;
    }
  }

  // ───────────────────────────── cancel-replace ─────────────────────────────

  private replacing(): boolean {
    return this.cfg.cancelReplace && this.cancelReplaceOffered && this.venue.cancelReplace !== undefined;
  }

  /** The plan's cancels split into replacements (cancel + place in one slot) and plain cancels. */
  private replacementsOf(market: MarketState, submission: Submission, plan: Plan): { readonly replacements: readonly Replacement[]; readonly cancels: readonly PlannedCancel[] } {
    if (!this.replacing() || plan.cancels.length === 0 || this.lifecycle !== 'running') return { replacements: [], cancels: plan.cancels };
    const after = this.gate.gate(this.planFor(market, submission, new Set(plan.cancels.map((c) => c.clientOrderId))));
    return pairReplacements(plan, after.plan);
  }

  /** Carries replacements out as cancel-replace batches (STOP_ON_FAILURE); falls back to cancels on a 404. */
  private async executeReplacements(market: MarketState, replacements: readonly Replacement[], tally: PlanTally): Promise<AbortReason | null> {
    const slug = market.ref.slug;
    const batches = chunks(replacements, this.cfg.replaceBatchSize);
    for (const [index, batch] of batches.entries()) {
      if (!this.replacing()) return this.executeCancels(market, batches.slice(index).flat().map((r) => r.cancel), tally);
      if (!this.gate.allowsCancel()) return 'trading-mode';
      const pairs: { old: TrackedOrder; fresh: TrackedOrder }[] = [];
      const items: CancelReplaceItem[] = [];
      let postOnlyAll = true;
      for (const { cancel, place } of batch) {
        const old = this.store.get(cancel.clientOrderId);
        if (old === undefined || old.orderId === null || !isResting(old.state)) continue;
        if (this.store.openInMarket(slug).some((o) => o.slot === place.slot && o.clientOrderId !== old.clientOrderId)) continue;
        const postOnly = place.intent.postOnly ?? this.cfg.defaultPostOnly;
        postOnlyAll &&= postOnly;
        tally.attemptedCancels.add(old.clientOrderId);
        const pending = this.commit(old, requestCancel(old, this.scheduler.now()), false);
        const { order: fresh, request } = this.newPlacement(market, place.intent, postOnly);
        pairs.push({ old: pending, fresh });
        items.push({ cancelOrderId: old.orderId, place: request });
      }
      if (items.length === 0) continue;
      let results;
      try {
        results = await this.venue.cancelReplace!({ marketSlug: slug, items, mode: 'STOP_ON_FAILURE', beforeSend: () => this.withholdUnlessAllowed(postOnlyAll) });
      } catch (error) {
        const failure = isVenueError(error) && !(error instanceof OutcomeUnknownError) ? 'not-sent' : 'unknown';
        if (!(error instanceof PlacementWithheldError)) this.observer.onRequestError('cancelReplace', slug, error);
        for (const pair of pairs) this.applyReplaceOutcome(market, pair.old, pair.fresh, outcomeEffects(failure), null, errorText(error, { withName: true }), tally, failure === 'not-sent');
        if (failure === 'unknown') {
          this.log.warn({ market: slug, items: items.length, err: errorText(error, { withName: true }) }, 'cancel-replace outcome unknown: looking the orders up');
          this.scheduleResolve(market, this.cfg.initialBackoffMs);
          continue;
        }
        if (error instanceof CancelReplaceUnsupportedError) {
          this.cancelReplaceOffered = false;
          this.observer.onCancelReplaceUnsupported(slug);
          this.log.warn({ market: slug, err: error.detail }, 'the venue does not offer cancel-replace (404): replacing by cancel, then placement, from now on');
          for (const pair of pairs) tally.attemptedCancels.delete(pair.old.clientOrderId);
          return this.executeCancels(market, batches.slice(index).flat().map((r) => r.cancel), tally);
        }
        if (error instanceof PlacementWithheldError) return error.reason === 'stopping' ? null : 'trading-mode';
        if (this.refusedByMode(error, 'cancel')) return 'trading-mode';
        return error instanceof RateLimitedError ? 'rate-limited' : 'request-failed';
      }
      const lookups: TrackedOrder[] = [];
      pairs.forEach((pair, i) => {
        const result = results[i];
        const effects = result === undefined ? outcomeEffects('unknown') : outcomeEffects(result.cancel.status, result.replacement.status);
        const reason = result === undefined ? 'no result' : (result.replacement.reason ?? result.cancel.reason ?? result.replacement.status);
        const notAttempted = result?.replacement.status === 'NOT_ATTEMPTED';
        this.applyReplaceOutcome(market, pair.old, pair.fresh, effects, result?.replacement.placed ?? null, reason, tally, notAttempted);
        if (effects.old.kind === 'look-up') lookups.push(this.store.get(pair.old.clientOrderId) ?? pair.old);
      });
      if (lookups.length > 0) await this.lookupNow(market, lookups);
    }
    return null;
  }

  /** Applies one operation's effects (cancel-replace.ts) to the old order and its replacement. */
  private applyReplaceOutcome(market: MarketState, old: TrackedOrder, fresh: TrackedOrder, effects: OutcomeEffects, placed: PlaceResult | null, reason: string, tally: PlanTally, neverSent: boolean): void {
    const now = this.scheduler.now();
    const current = this.store.get(old.clientOrderId) ?? old;
    if (effects.old.kind === 'canceled') {
      const applied = this.commit(current, confirmCancel(current, 'canceled by cancel-replace', now), false);
      if (applied.state === 'canceled') tally.canceled.push(applied.clientOrderId);
    } else if (effects.old.kind === 'restored') {
      this.commit(current, refuseCancel(current, now), false);
    } else {
      market.lookups.add(current.clientOrderId);
    }
    const newer = this.store.get(fresh.clientOrderId) ?? fresh;
    if (effects.fresh.kind === 'apply-answer' && placed !== null) {
      this.applyPlaced(fresh.clientOrderId, placed, tally);
    } else if (effects.fresh.kind === 'unknown' || (effects.fresh.kind === 'apply-answer' && placed === null)) {
      this.commit(newer, markUnknown(newer, now), false);
      tally.unknown.push(fresh.clientOrderId);
      this.scheduleResolve(market, this.cfg.initialBackoffMs);
    } else {
      this.commit(newer, markRejected(newer, neverSent ? `not sent: ${reason}` : reason, now), false);
      if (!neverSent) {
        tally.rejected.push(fresh.clientOrderId);
        tally.refusedSlots.add(fresh.slot);
      }
    }
    if (effects.slotAtRisk) this.log.warn({ market: market.ref.slug, slot: fresh.slot, old: old.clientOrderId, fresh: fresh.clientOrderId }, 'cancel-replace: old order not confirmed gone; looked up before the slot is used again');
  }

  // ───────────────────────────── state commits ─────────────────────────────

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
    if (linked && order.orderId !== null) this.replayOrphans(order.orderId);
  }

  /**
   * Commits an applied change: stores it, reports the transition or the illegal one, emits fills, and (for changes
   * that came from outside a plan) re-runs the market's intents when a slot was freed or unfrozen.
   */
  private commit(previous: TrackedOrder, applied: Applied, fromOutside: boolean): TrackedOrder {
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
    const market = this.marketsBySlug.get(slug);
    for (const emission of applied.fills) {
      if (!emission.update && emission.fill.settlement !== 'failed' && market !== undefined) {
        const now = this.scheduler.now();
        market.lastFillAtBySlot.set(next.slot, Math.max(market.lastFillAtBySlot.get(next.slot) ?? now, now));
      }
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
    if (applied.illegal !== null) this.handleIllegal(next, applied.illegal);
    // A slot freed or unfrozen by news from outside a plan: re-run the intents (a pending-new order's own plan is still running).
    if (fromOutside && transition !== null && market !== undefined && transition.from !== 'pending-new' && (isTerminal(transition.to) || isFrozen(transition.from))) this.kick(market);
    if (linked && next.orderId !== null) this.replayOrphans(next.orderId);
    if (next.state !== 'pending-cancel' && next.state !== 'unknown' && market !== undefined) market.lookups.delete(next.clientOrderId);
    return next;
  }

  /** The venue says an order we consider finished is resting: cancel it (no order of ours rests unknown to us). */
  private handleIllegal(order: TrackedOrder, error: IllegalTransitionError): void {
    if (!isTerminal(error.from) || !isResting(error.to) || order.orderId === null) return;
    this.cancelStray(order.marketSlug, order.orderId, `venue reports ${error.to} for a ${error.from} order`);
  }

  private cancelStray(marketSlug: string, orderId: string, reason: string): void {
    const market = this.marketsBySlug.get(marketSlug);
    if (market === undefined || this.strayCancels.seen(orderId)) return;
    this.observer.onStrayOrder(marketSlug, orderId, reason);
    this.log.warn({ market: marketSlug, orderId, reason }, 'canceling stray order');
    market.strays.add(orderId);
    this.flushStrays(market);
  }

  /** Cancels the market's strays when the mode allows (else they wait for the mode to relax). */
  private flushStrays(market: MarketState): void {
    if (market.strays.size === 0 || !this.gate.allowsCancel()) return;
    market.queue
      .add(async () => {
        const ids = [...market.strays];
        if (ids.length === 0 || !this.gate.allowsCancel()) return;
        for (const id of ids) market.strays.delete(id);
        try {
          await this.venue.cancelOrders(market.ref.slug, ids);
        } catch (error) {
          this.observer.onRequestError('cancelOrders', market.ref.slug, error);
          if (this.refusedByMode(error, 'cancel')) for (const id of ids) market.strays.add(id);
        }
      })
      .catch((error: unknown) => this.log.error({ market: market.ref.slug, err: errorText(error, { withName: true }) }, 'stray cancel failed'));
  }

  /** Applies a venue report (placement answer, lookup, listing) and its fills to the order `clientOrderId`. */
  private applySnapshotLike(
    clientOrderId: string,
    report: OrderReport,
    fills: readonly { readonly tradeEventId: string; readonly sizeRaw: number; readonly priceTicks: number; readonly settlement: SettlementState }[],
    atPlacement: boolean,
    fromOutside: boolean,
  ): void {
    let current = this.store.get(clientOrderId);
    if (current === undefined) return;
    if (current.state === 'pending-cancel' && report.status === 'LIVE' && current.orderId !== null && this.marketsBySlug.get(current.marketSlug)?.lookups.has(clientOrderId)) {
      // A lookup after a refused or uncertain cancel finds it resting: the cancel did not take.
      current = this.commit(current, applyReport(current, report, this.scheduler.now()), fromOutside);
      current = this.commit(current, refuseCancel(current, this.scheduler.now()), fromOutside);
    } else {
      current = this.commit(current, applyReport(current, report, this.scheduler.now(), { atPlacement }), fromOutside);
    }
    for (const fill of fills) {
      const latest = this.store.get(clientOrderId) ?? current;
      this.commit(latest, applyFill(latest, fill, this.scheduler.now(), this.scheduler.now()), fromOutside);
    }
  }

  // ───────────────────────────── socket events ─────────────────────────────

  private routeOme(event: OmeEventInput, replay = false): void {
    const order = this.store.find(event.orderId, event.clientOrderId);
    if (order === undefined) {
      this.park(event.orderId, event.clientOrderId ?? null, { kind: 'ome', event }, replay);
      return;
    }
    const status = event.type === 'CANCELLATION' || event.status === 'KILLED' ? 'CANCELED' : event.status === 'FILLED' ? 'MATCHED' : 'LIVE';
    const report: OrderReport = { orderId: event.orderId, status, remainingRaw: event.remainingRaw, reason: event.reason ?? null };
    this.commit(order, applyReport(order, report, this.scheduler.now()), true);
  }

  private routeSettlementFill(event: SettlementEventInput, fill: SettlementFillInput, replay = false): void {
    const order = this.store.find(fill.orderId, fill.clientOrderId);
    if (order === undefined) {
      this.park(fill.orderId ?? null, fill.clientOrderId ?? null, { kind: 'settlement', event, fill }, replay);
      return;
    }
    let current = order;
    if (current.orderId === null && fill.orderId) {
      // A taker fill that names both ids before the placement answer: link them now.
      const linked: TrackedOrder = { ...current, orderId: fill.orderId };
      this.store.put(linked);
      this.emitChange(linked, current);
      current = linked;
    }
    const settlement = SETTLEMENT_OF[event.type];
    const applied = applyFill(current, { tradeEventId: event.tradeEventId, sizeRaw: fill.sizeRaw, priceTicks: fill.priceTicks, settlement }, event.atMs, this.scheduler.now());
    this.commit(current, applied, true);
    if (current.state === 'rejected' && current.orderId !== null && settlement !== 'failed') {
      // An order given up as lost traded after all: it may still rest.
      this.cancelStray(current.marketSlug, current.orderId, 'fill for an order marked rejected');
    }
    if (current !== order && current.orderId !== null) this.replayOrphans(current.orderId);
  }

  /** An event for an order not (yet) tracked: foreign ones are counted, ours wait for their order to be linked. */
  private park(orderId: string | null, clientOrderId: string | null, part: OrphanPart, replay: boolean): void {
    if (clientOrderId !== null && !isOwnClientOrderId(clientOrderId, this.ids.botTag)) {
      this.observer.onUntrackedEvent('foreign', `clientOrderId ${clientOrderId}`);
      return;
    }
    if (clientOrderId !== null) {
      // One of ours that this process does not track (placed before a restart, or forgotten): resync its market.
      const market = this.marketsByKey.get(tryParseClientOrderId(clientOrderId)?.marketKey ?? '');
      if (market !== undefined && !replay) this.requestResync(market);
    }
    const key = orderId !== null ? `o:${orderId}` : `c:${clientOrderId ?? ''}`;
    const dropped = this.orphans.add(key, part, this.scheduler.now());
    for (const lost of dropped) this.observer.onUntrackedEvent('expired', `${lost.event.source} ${lost.event.eventId}`);
  }

  private replayOrphans(orderId: string): void {
    for (const part of this.orphans.take(`o:${orderId}`)) {
      if (part.kind === 'ome') this.routeOme(part.event, true);
      else this.routeSettlementFill(part.event, part.fill, true);
    }
  }

  private requestResync(market: MarketState): void {
    if (market.resyncQueued || this.lifecycle !== 'running') return;
    market.resyncQueued = true;
    market.queue
      .add(() => this.syncMarket(market, 'resync'))
      .catch((error: unknown) => this.log.error({ market: market.ref.slug, err: errorText(error, { withName: true }) }, 'resync failed'));
  }

  // ───────────────────────────── lookups (unknown outcomes) ─────────────────────────────

  private backoff(attempt: number): number {
    return Math.min(this.cfg.maxBackoffMs, this.cfg.initialBackoffMs * 2 ** Math.min(attempt, 30));
  }

  private scheduleResolve(market: MarketState, delayMs: number): void {
    if (market.resolveTimer !== null || this.lifecycle === 'stopped') return;
    market.resolveTimer = this.scheduler.schedule(delayMs, () => {
      market.resolveTimer = null;
      this.resolveLoop(market).catch((error: unknown) => this.log.error({ market: market.ref.slug, err: errorText(error, { withName: true }) }, 'status lookup loop failed'));
    });
  }

  private needsLookup(market: MarketState): TrackedOrder[] {
    return this.store.openInMarket(market.ref.slug).filter((o) => o.state === 'unknown' || market.lookups.has(o.clientOrderId));
  }

  private async resolveLoop(market: MarketState): Promise<void> {
    if (market.resolving) return;
    market.resolving = true;
    let ok = false;
    try {
      ok = await this.resolveOnce(market);
    } finally {
      market.resolving = false;
    }
    if (this.needsLookup(market).length > 0) {
      market.resolveAttempt += 1;
      if (!ok) this.log.warn({ market: market.ref.slug, attempt: market.resolveAttempt }, 'status lookup failed; retrying');
      this.scheduleResolve(market, this.backoff(market.resolveAttempt));
    } else {
      market.resolveAttempt = 0;
    }
  }

  /** One lookup pass over every order of the market that needs one. Resolves false if a lookup request failed. */
  private async resolveOnce(market: MarketState): Promise<boolean> {
    const targets = this.needsLookup(market);
    if (targets.length === 0) return true;
    return this.lookupNow(market, targets, { fromOutside: true, followUp: false });
  }

  /** Looks orders up (by orderId when known, else clientOrderId) and applies the answers. */
  private async lookupNow(market: MarketState, orders: readonly TrackedOrder[], options: { fromOutside?: boolean; followUp?: boolean } = {}): Promise<boolean> {
    const fromOutside = options.fromOutside ?? false;
    let ok = true;
    for (const batch of chunks(orders, STATUS_BATCH_MAX)) {
      const queries: StatusQuery[] = batch.map((o) => (o.orderId !== null ? { orderId: o.orderId } : { clientOrderId: o.clientOrderId }));
      let results: readonly StatusResult[];
      try {
        results = await this.venue.statusBatch(queries);
      } catch (error) {
        this.observer.onRequestError('statusBatch', market.ref.slug, error);
        ok = false;
        continue;
      }
      let found = 0;
      let notFound = 0;
      batch.forEach((order, index) => {
        const result = results[index];
        if (result === undefined) return;
        if (result.outcome === 'found') found += 1;
        else notFound += 1;
        this.applyLookup(market, order.clientOrderId, result, fromOutside);
      });
      this.observer.onLookup(market.ref.slug, found, notFound);
    }
    // Whatever is still unresolved goes to the background lookup loop (with backoff).
    if (options.followUp !== false && this.needsLookup(market).length > 0) this.scheduleResolve(market, this.cfg.initialBackoffMs);
    return ok;
  }

  private applyLookup(market: MarketState, clientOrderId: string, result: StatusResult, fromOutside: boolean): void {
    const current = this.store.get(clientOrderId);
    if (current === undefined || isTerminal(current.state)) return;
    const now = this.scheduler.now();
    if (result.outcome === 'found') {
      const snapshot = result.order;
      this.warnIfDifferent(current, snapshot);
      this.applySnapshotLike(clientOrderId, { orderId: snapshot.orderId, status: snapshot.status, remainingRaw: snapshot.remainingRaw, reason: null }, snapshot.fills, false, fromOutside);
      return;
    }
    if (result.outcome === 'invalid') this.log.warn({ market: market.ref.slug, clientOrderId, message: result.message }, 'status lookup answered invalid');
    if (current.state === 'unknown' || current.state === 'pending-new') {
      const missed = recordLookupMiss(current, now);
      this.store.put(missed);
      const since = missed.unknownSinceMs ?? now;
      if (missed.lookupMisses >= this.cfg.notFoundLimit && now - since >= this.cfg.notFoundGraceMs) {
        this.log.warn({ market: market.ref.slug, clientOrderId, misses: missed.lookupMisses }, 'unknown order not found: marked lost');
        this.commit(missed, markLost(missed, now), fromOutside);
      }
      return;
    }
    // An order with a venue id that the venue no longer knows is gone.
    this.commit(current, confirmCancel(current, 'not found on the venue', now), fromOutside);
  }

  private warnIfDifferent(order: TrackedOrder, snapshot: VenueOrderSnapshot): void {
    if (snapshot.tokenId === order.tokenId && snapshot.side === order.side && snapshot.priceTicks === order.priceTicks && snapshot.sizeRaw === order.sizeRaw) return;
    this.log.error(
      { clientOrderId: order.clientOrderId, orderId: snapshot.orderId, venue: { tokenId: snapshot.tokenId, side: snapshot.side, priceTicks: snapshot.priceTicks, sizeRaw: snapshot.sizeRaw } },
      'venue order under this clientOrderId differs from what was sent',
    );
  }

  // ───────────────────────────── start-up, resync, shutdown ─────────────────────────────

  private async listWithRetry(market: MarketState, attempts: number): Promise<readonly VenueOrderSnapshot[] | Error> {
    let lastError: Error = new Error('not attempted');
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      try {
        return await this.venue.listLiveOrders(market.ref.slug);
      } catch (error) {
        this.observer.onRequestError('listLiveOrders', market.ref.slug, error);
        lastError = error instanceof Error ? error : new Error(errorText(error, { withName: true }));
        if (attempt + 1 < attempts) await this.sleep(this.backoff(attempt));
      }
    }
    return lastError;
  }

  private async syncMarket(market: MarketState, reason: 'startup' | 'resync'): Promise<MarketSyncReport> {
    market.resyncQueued = false;
    const slug = market.ref.slug;
    const listed = await this.listWithRetry(market, reason === 'startup' ? this.cfg.startupAttempts : 1);
    if (listed instanceof Error) {
      this.log.error({ market: slug, err: errorText(listed, { withName: true }) }, `${reason}: could not list live orders; market not quoted until a resync succeeds`);
      if (reason === 'startup') market.ready = false;
      return { marketSlug: slug, ok: false, adopted: 0, canceled: 0, foreign: 0, error: errorText(listed, { withName: true }) };
    }
    const open = this.store.openInMarket(slug);
    const plan = adopt({
      marketSlug: slug,
      tokens: market.ref.tokens,
      botTag: this.ids.botTag,
      liveOrders: listed,
      foreignPolicy: this.cfg.foreignPolicy,
      trackedOrderIds: new Set(open.flatMap((o) => (o.orderId === null ? [] : [o.orderId]))),
      trackedClientOrderIds: new Set(open.map((o) => o.clientOrderId)),
      occupiedSlots: new Set(open.map((o) => o.slot)),
    });
    for (const snapshot of listed) if (snapshot.clientOrderId !== null) this.ids.observe(snapshot.clientOrderId);
    for (const adopted of plan.adopt) this.adoptSnapshot(slug, adopted.snapshot, adopted.clientOrderId, adopted.slot, adopted.token);
    for (const snapshot of plan.known) {
      const order = this.store.find(snapshot.orderId, snapshot.clientOrderId);
      if (order !== undefined) this.applySnapshotLike(order.clientOrderId, { orderId: snapshot.orderId, status: 'LIVE', remainingRaw: snapshot.remainingRaw, reason: null }, snapshot.fills, false, true);
    }
    if (reason === 'resync') {
      // Tracked orders the venue no longer lists ended while we were not looking: find out how.
      const listedIds = new Set(listed.map((s) => s.orderId));
      const vanished = this.store.openInMarket(slug).filter((o) => o.orderId !== null && (isResting(o.state) || o.state === 'pending-cancel') && !listedIds.has(o.orderId));
      for (const order of vanished) market.lookups.add(order.clientOrderId);
      if (vanished.length > 0) await this.lookupNow(market, vanished, { fromOutside: true });
    }
    market.hasForeign = plan.foreign.length > 0;
    let canceled = 0;
    if (plan.cancel.length > 0) {
      for (const item of plan.cancel) this.log.warn({ market: slug, orderId: item.snapshot.orderId, clientOrderId: item.snapshot.clientOrderId, reason: item.reason }, `${reason}: canceling order`);
      canceled = await this.cancelIds(market, plan.cancel.map((c) => c.snapshot.orderId));
    }
    market.ready = true;
    if (reason === 'resync') this.kick(market);
    return { marketSlug: slug, ok: true, adopted: plan.adopt.length, canceled, foreign: plan.foreign.length, error: null };
  }

  private adoptSnapshot(marketSlug: string, snapshot: VenueOrderSnapshot, clientOrderId: string, slot: string, token: Outcome): void {
    this.insert(
      adoptedOrder(
        {
          clientOrderId,
          orderId: snapshot.orderId,
          marketSlug,
          slot,
          token,
          tokenId: snapshot.tokenId,
          side: snapshot.side,
          priceTicks: snapshot.priceTicks,
          sizeRaw: snapshot.sizeRaw,
          remainingRaw: snapshot.remainingRaw,
          createdAtMs: snapshot.createdAtMs,
          postOnly: false,
          orderType: 'GTC',
        },
        this.scheduler.now(),
      ),
    );
  }

  /**
   * Best-effort cancel of venue ids (untracked or tracked); returns how many the venue confirmed. `evenIfHeld`: try
   * although the venue refused cancels before (shutdown's first attempt).
   */
  private async cancelIds(market: MarketState, orderIds: readonly string[], evenIfHeld = false): Promise<number> {
    let confirmed = 0;
    for (const batch of chunks(orderIds, this.cfg.cancelBatchSize)) {
      if (!evenIfHeld && !this.gate.allowsCancel()) break;
      try {
        const result = await this.venue.cancelOrders(market.ref.slug, batch);
        confirmed += result.canceled.length;
        this.applyCancelConfirmations(result);
      } catch (error) {
        this.observer.onRequestError('cancelOrders', market.ref.slug, error);
        if (this.refusedByMode(error, 'cancel')) break;
      }
    }
    return confirmed;
  }

  /**
   * A refusal by the venue's trading mode (425 with its body) or an unexplained 425 (maintenance block): the gate
   * learns it and holds `action`; the latter also refreshes the maintenance status. True when it was one of them.
   */
  private refusedByMode(error: unknown, action: 'cancel' | 'place', placement?: { readonly postOnly: boolean }): boolean {
    if (error instanceof TradingModeError) {
      this.gate.fromError(error, action, placement === undefined ? undefined : { postOnly: placement.postOnly, orderType: 'GTC' });
      return true;
    }
    if (error instanceof MaintenanceBlockError) {
      this.log.warn({ operation: error.operation, err: error.detail }, '425 without a trading-mode body: maintenance status refreshed, not retried');
      void this.gate.fromUnexplainedBlock(action);
      return true;
    }
    return false;
  }

  private applyCancelConfirmations(result: CancelResult): void {
    for (const orderId of result.canceled) {
      const order = this.store.getByOrderId(orderId);
      if (order !== undefined && isOpen(order.state)) this.commit(order, confirmCancel(order, 'canceled by the bot', this.scheduler.now()), false);
    }
  }

  /** Shutdown for one market: cancel, confirm by listing, retry until the deadline. True when confirmed empty. */
  private async cancelEverything(market: MarketState, deadline: number): Promise<boolean> {
    const slug = market.ref.slug;
    for (let attempt = 0; this.scheduler.now() < deadline; attempt += 1) {
      // The first attempt goes out whatever the venue refused before (its mode may have changed since); later ones
      // only once the gate releases a refused cancel.
      if (attempt === 0 || this.gate.allowsCancel()) {
        try {
          // Cancel-all takes every order of the ACCOUNT in the market (other bots' too): only when this bot owns it alone.
          if (!this.cfg.exclusiveMarkets || (market.hasForeign && this.cfg.foreignPolicy === 'leave')) {
            const ids = this.store.openInMarket(slug).flatMap((o) => (o.orderId === null ? [] : [o.orderId]));
            if (ids.length > 0) await this.untilDeadline(this.cancelIds(market, ids, attempt === 0), deadline);
          } else {
            const result = await this.untilDeadline(this.venue.cancelAll(slug), deadline);
            if (result !== false) this.applyCancelConfirmations(result);
          }
        } catch (error) {
          this.observer.onRequestError('cancelAll', slug, error);
          this.refusedByMode(error, 'cancel');
        }
      }
      await this.untilDeadline(this.resolveOnce(market), deadline);
      let listed: readonly VenueOrderSnapshot[] | false;
      try {
        listed = await this.untilDeadline(this.venue.listLiveOrders(slug), deadline);
      } catch (error) {
        this.observer.onRequestError('listLiveOrders', slug, error);
        listed = false;
      }
      if (listed !== false) {
        const own = listed.filter((s) => isOwnClientOrderId(s.clientOrderId, this.ids.botTag));
        const ownIds = new Set(own.map((s) => s.orderId));
        // Tracked orders no longer listed are gone (canceled, or filled: their fills still arrive as events).
        for (const order of this.store.openInMarket(slug)) {
          if (order.orderId !== null && !ownIds.has(order.orderId) && order.state !== 'unknown' && order.state !== 'pending-new') this.commit(order, confirmCancel(order, 'not listed at shutdown', this.scheduler.now()), false);
        }
        // A placement still in flight may land after this listing: not confirmed until it has answered.
        const inFlight = this.store.openInMarket(slug).some((o) => o.state === 'pending-new');
        if (own.length === 0 && !inFlight) return true;
        if (!this.cfg.exclusiveMarkets || (market.hasForeign && this.cfg.foreignPolicy === 'leave')) {
          // Ours but untracked: cancel by id next round.
          for (const snapshot of own) {
            if (this.store.getByOrderId(snapshot.orderId) === undefined && snapshot.clientOrderId !== null) {
              const slot = tryParseClientOrderId(snapshot.clientOrderId)?.slot ?? 'unknown';
              this.adoptSnapshot(slug, snapshot, snapshot.clientOrderId, slot, snapshot.tokenId === market.ref.tokens.no ? 'NO' : 'YES');
            }
          }
        }
      }
      const wait = Math.min(this.backoff(attempt), deadline - this.scheduler.now());
      if (wait > 0) await this.sleep(wait);
    }
    return false;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.scheduler.schedule(ms, resolve));
  }

  /** Resolves to the promise's value, or false when the deadline passes first. */
  private untilDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | false> {
    const remaining = deadline - this.scheduler.now();
    if (remaining <= 0) {
      promise.catch(() => undefined);
      return Promise.resolve(false);
    }
    let cancel: CancelTimer = () => undefined;
    const timeout = new Promise<false>((resolve) => {
      cancel = this.scheduler.schedule(remaining, () => resolve(false));
    });
    return Promise.race([promise, timeout]).finally(() => cancel());
  }
}
