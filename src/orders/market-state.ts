/**
 * The executor's state for one market, and the registry of markets.
 *
 * Owns: a market's work queue (p-queue, concurrency 1: plans, start-up, resync, stray cancels and shutdown work of
 * the market run one at a time), its pending run and latest submission, whether it may be quoted (`ready`), its
 * review and status-lookup timers, its lookup backoff, the resync flag, whether foreign orders were seen, the last
 * fill time per slot, the orders awaiting a lookup and the stray venue ids awaiting a cancel; and its membership
 * (src/orders/market-membership.ts): whether it is retired (left: no plan accepted), the leave in progress, the
 * budget it was left with, the drop timer and the report of its first sync. Everything is changed through the
 * named operations below; nothing else holds a market's state.
 *
 * Invariants: at most one pending run (not yet started) per market: a newer one replaces it; at most one review
 * timer, one lookup timer and one drop timer are armed; a fired or disarmed timer is forgotten before its callback
 * runs; the last fill time of a slot never goes back; a stray id is handed out by `takeStrays` once (and may be put
 * back); a retired market has no latest submission (a re-run has nothing to run); the registry maps a slug and its
 * key to one market, and `remove` forgets both.
 */
import PQueue from 'p-queue';
import type { CancelTimer, Scheduler } from '../core/clock.js';
import type { QuoteIntent } from '../strategy/contract.js';
import { signal } from '../core/signal.js';
import type { MarketRef, MarketSyncReport, PlanOutcome } from './executor-types.js';

/** What leaving a market came to: confirmed clean, and how many of its orders were still open (not terminal). */
export interface LeaveReport {
  readonly clean: boolean;
  readonly left: number;
}

export interface Submission {
  readonly intents: readonly QuoteIntent[];
  readonly issuedAtMs: number;
}

/** A run waiting in the queue; `resolve` is null for a re-run nobody waits on (a kick). */
export interface PendingRun {
  readonly submission: Submission;
  readonly resolve: ((outcome: PlanOutcome) => void) | null;
}

/** One optional timer: forgotten before its callback runs, and when disarmed. */
class Timer {
  private cancel: CancelTimer | null = null;

  get armed(): boolean {
    return this.cancel !== null;
  }

  arm(scheduler: Scheduler, delayMs: number, onFire: () => void): void {
    this.cancel = scheduler.schedule(delayMs, () => {
      this.cancel = null;
      onFire();
    });
  }

  disarm(): void {
    this.cancel?.();
    this.cancel = null;
  }
}

export class MarketState {
  readonly queue = new PQueue({ concurrency: 1 });
  private pendingRun: PendingRun | null = null;
  private latest: Submission | null = null;
  private quotable = false;
  private readonly reviewTimer = new Timer();
  private readonly lookupTimer = new Timer();
  private resolveAttempt = 0;
  private resolving = false;
  private resyncQueued = false;
  private foreign = false;
  private readonly fillAtBySlot = new Map<string, number>();
  /** Orders whose cancel outcome is uncertain or that vanished from a listing: resolve by lookup. */
  private readonly lookups = new Set<string>();
  /** Venue ids of the bot's orders found resting although given up: canceled as soon as the mode allows. */
  private readonly strays = new Set<string>();
  private retiredFlag = false;
  private leaveRun: Promise<LeaveReport> | null = null;
  private leaveBudget = 0;
  private readonly dropTimer = new Timer();
  private firstSync: MarketSyncReport | null = null;
  private readonly firstPlan = signal();

  constructor(readonly ref: MarketRef) {}

  get slug(): string {
    return this.ref.slug;
  }

  // ── submissions ──

  /** The latest submission (re-run by a kick). */
  get lastSubmission(): Submission | null {
    return this.latest;
  }

  noteSubmission(submission: Submission): void {
    this.latest = submission;
  }

  get pending(): PendingRun | null {
    return this.pendingRun;
  }

  setPending(run: PendingRun): void {
    this.pendingRun = run;
  }

  /** Removes and returns the pending run (the queue starts it, or shutdown drops it). */
  takePending(): PendingRun | null {
    const run = this.pendingRun;
    this.pendingRun = null;
    return run;
  }

  // ── readiness and resync ──

  /** Adopted: plans may run. */
  get ready(): boolean {
    return this.quotable;
  }

  markReady(): void {
    this.quotable = true;
  }

  /** Start-up could not list the live orders: no plan runs until a resync succeeds. */
  block(): void {
    this.quotable = false;
  }

  /** Notes that a resync is queued; false when one already was (nothing to add). */
  claimResync(): boolean {
    if (this.resyncQueued) return false;
    this.resyncQueued = true;
    return true;
  }

  /** A resync is queued (whether or not one already was). */
  queueResync(): void {
    this.resyncQueued = true;
  }

  /** The queued sync starts: a later request queues another. */
  syncStarted(): void {
    this.resyncQueued = false;
  }

  get hasForeign(): boolean {
    return this.foreign;
  }

  noteForeign(present: boolean): void {
    this.foreign = present;
  }

  // ── timers ──

  /** Arms the review timer (replacing an armed one); it is forgotten before `onFire` runs. */
  armReview(scheduler: Scheduler, delayMs: number, onFire: () => void): void {
    this.reviewTimer.disarm();
    this.reviewTimer.arm(scheduler, delayMs, onFire);
  }

  disarmReview(): void {
    this.reviewTimer.disarm();
  }

  get lookupArmed(): boolean {
    return this.lookupTimer.armed;
  }

  /** Arms the lookup timer unless it is armed already; it is forgotten before `onFire` runs. */
  armLookup(scheduler: Scheduler, delayMs: number, onFire: () => void): void {
    if (!this.lookupTimer.armed) this.lookupTimer.arm(scheduler, delayMs, onFire);
  }

  // ── the lookup loop ──

  /** Enters the lookup loop; false when a pass is already running. */
  beginLookupPass(): boolean {
    if (this.resolving) return false;
    this.resolving = true;
    return true;
  }

  endLookupPass(): void {
    this.resolving = false;
  }

  /** Counts one more failed or unfinished pass and returns the count (for the backoff). */
  nextLookupAttempt(): number {
    this.resolveAttempt += 1;
    return this.resolveAttempt;
  }

  resetLookupAttempts(): void {
    this.resolveAttempt = 0;
  }

  /** Marks an order for a status lookup (uncertain cancel, vanished from a listing). */
  markForLookup(clientOrderId: string): void {
    this.lookups.add(clientOrderId);
  }

  awaitsLookup(clientOrderId: string): boolean {
    return this.lookups.has(clientOrderId);
  }

  lookupSettled(clientOrderId: string): void {
    this.lookups.delete(clientOrderId);
  }

  // ── fills and strays ──

  /** Last fill time per slot (for the cool-off of reconcile). */
  get lastFillAtBySlot(): ReadonlyMap<string, number> {
    return this.fillAtBySlot;
  }

  noteFill(slot: string, nowMs: number): void {
    this.fillAtBySlot.set(slot, Math.max(this.fillAtBySlot.get(slot) ?? nowMs, nowMs));
  }

  addStray(orderId: string): void {
    this.strays.add(orderId);
  }

  get hasStrays(): boolean {
    return this.strays.size > 0;
  }

  /** Hands out every stray id (removed; put back with `addStray` when the cancel was refused). */
  takeStrays(): string[] {
    const ids = [...this.strays];
    this.strays.clear();
    return ids;
  }

  // ── membership ──

  /** Left: no plan is accepted (its orders' events and fills still are). */
  get retired(): boolean {
    return this.retiredFlag;
  }

  /** Retires the market for a leave with `budgetMs`: the latest submission is forgotten (nothing to re-run). */
  retire(budgetMs: number): void {
    this.retiredFlag = true;
    this.leaveBudget = budgetMs;
    this.latest = null;
  }

  /** Joined again before it was dropped: plans are accepted again (once a sync made it ready). */
  rejoin(): void {
    this.retiredFlag = false;
    this.dropTimer.disarm();
  }

  /** The budget of the last leave (a background re-sweep uses it again). */
  get leaveBudgetMs(): number {
    return this.leaveBudget;
  }

  /** The leave in progress; null when none is. */
  get leaving(): Promise<LeaveReport> | null {
    return this.leaveRun;
  }

  setLeaving(run: Promise<LeaveReport> | null): void {
    this.leaveRun = run;
  }

  /** Arms the drop check (replacing an armed one); it is forgotten before `onFire` runs. */
  armDrop(scheduler: Scheduler, delayMs: number, onFire: () => void): void {
    this.dropTimer.disarm();
    this.dropTimer.arm(scheduler, delayMs, onFire);
  }

  get dropArmed(): boolean {
    return this.dropTimer.armed;
  }

  /** Every timer of the market disarmed (shutdown, or the market dropped). */
  disarmAll(): void {
    this.reviewTimer.disarm();
    this.lookupTimer.disarm();
    this.dropTimer.disarm();
  }

  /** The report of the market's first sync (start-up or join); null before it ran. */
  get firstSyncReport(): MarketSyncReport | null {
    return this.firstSync;
  }

  noteFirstSync(report: MarketSyncReport): void {
    this.firstSync ??= report;
  }

  /** Resolves once a plan of the market ran to its end (its first quotes, if it had any, answered). */
  get firstPlanDone(): Promise<void> {
    return this.firstPlan.promise;
  }

  /** A plan ran to its end (plan-runner.ts): the first call releases `firstPlanDone`. */
  notePlanDone(): void {
    this.firstPlan.fire();
  }
}

/** The registered markets, by slug and by the market key inside the bot's clientOrderIds. */
export class MarketRegistry {
  private readonly bySlug = new Map<string, MarketState>();
  private readonly byKey = new Map<string, MarketState>();

  /** Registers a market under its slug and `keyOf(slug)`; false (and nothing changes) when the slug is known. */
  add(ref: MarketRef, keyOf: (slug: string) => string): boolean {
    if (this.bySlug.has(ref.slug)) return false;
    const market = new MarketState(ref);
    this.bySlug.set(ref.slug, market);
    this.byKey.set(keyOf(ref.slug), market);
    return true;
  }

  get(slug: string): MarketState | undefined {
    return this.bySlug.get(slug);
  }

  withKey(key: string): MarketState | undefined {
    return this.byKey.get(key);
  }

  all(): MarketState[] {
    return [...this.bySlug.values()];
  }

  slugs(): string[] {
    return [...this.bySlug.keys()];
  }

  /** Markets that are not retired (the ones plans may run in). */
  active(): MarketState[] {
    return this.all().filter((m) => !m.retired);
  }

  /** Forgets a market under its slug and its key; false when the slug is not registered. */
  remove(slug: string, keyOf: (slug: string) => string): boolean {
    const market = this.bySlug.get(slug);
    if (market === undefined) return false;
    this.bySlug.delete(slug);
    const key = keyOf(slug);
    if (this.byKey.get(key) === market) this.byKey.delete(key);
    return true;
  }

  /** How many markets are registered, and how many of them are retired. */
  counts(): { readonly markets: number; readonly retired: number } {
    let retired = 0;
    for (const market of this.bySlug.values()) if (market.retired) retired += 1;
    return { markets: this.bySlug.size, retired };
  }
}

