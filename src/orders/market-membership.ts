/**
 * Markets that come and go while the executor runs (src/trading/core.ts `addMarket` / `removeMarket`): a join, a
 * leave and the drop of a market that was left.
 *
 * Owns:
 * - the join: the market registered and its live orders adopted by the bot's tag as at start-up (market-sync.ts, on
 *   the market's queue) — or, new to the executor and with the caller's evidence that no order of the bot can be there
 *   (`MarketRef.noOwnOrders`), made ready without a listing — or, when `deferListing` lets it, made ready at once and
 *   listed afterwards (deferred-listing.ts); a market joined before `start()` is adopted by `start()`; one joined again
 *   before it was dropped is resynced; one joined and ready already is left as it is;
 * - the leave: the market retired at once (no plan accepted, its waiting run stopped, its review disarmed), then its
 *   orders canceled and confirmed gone by the shutdown sweep (shutdown-sweep.ts: cancels, lookups of unknown outcomes
 *   by clientOrderId, a confirmation listing, retries) on the market's queue — after the plan in flight — within the
 *   budget;
 * - the drop: a retired market's state (its queue and timers, its tracked orders, its key) is forgotten once every
 *   order of it is terminal and unchanged for `retainTerminalMs` (the executor's memory stays bounded however many
 *   markets come and go); until then its orders' late events and fills are applied and reported as any other's, and
 *   an order of it still resting (a leave that ran out of budget, a stray found later) is swept again in the
 *   background every RECHECK_MS at most, and at once when the trading-mode gate releases a held cancel.
 *
 * Invariants: at most one leave runs per market (a second call gets the first's promise); a join waits for a leave in
 * progress; nothing joins once the executor is stopping; a leave during shutdown is the shutdown's (it cancels every
 * market, this one included) and reports what is left; no drop check is armed once stopping; a market is dropped
 * only when retired, with no leave running, its queue idle, no lookup armed and no order open.
 */
import { untilDeadline, type ExecutorContext } from './executor-context.js';
import type { MarketRef, MarketSyncReport } from './executor-types.js';
import type { LeaveReport, MarketState } from './market-state.js';
import type { DeferredListings } from './deferred-listing.js';
import type { MarketSync } from './market-sync.js';
import { isOpen, isResting } from './order-state.js';
import type { PlanRunner } from './plan-runner.js';
import type { ShutdownSweep } from './shutdown-sweep.js';

export type { LeaveReport } from './market-state.js';

/** A retired market with orders still open is looked at again this often (at most). */
export const RECHECK_MS = 60_000;

/** What the membership needs of the executor besides its context. */
export interface MembershipHooks {
  /** Registers a market (new to the registry) and returns its state. */
  register(ref: MarketRef): MarketState;
  /** Forgets a market: its state, its tracked orders, its cached key. */
  forget(market: MarketState): void;
  /** Resolves once `start()` has adopted the markets registered before it (or the executor stopped instead). */
  started(): Promise<void>;
  /** Resolves once shutdown has finished. */
  stopped(): Promise<void>;
}

function notJoined(marketSlug: string, error: string): MarketSyncReport {
  return { marketSlug, ok: false, adopted: 0, canceled: 0, foreign: 0, error };
}

export class MarketMembership {
  constructor(
    private readonly ctx: ExecutorContext,
    private readonly sync: MarketSync,
    private readonly sweep: ShutdownSweep,
    private readonly plans: PlanRunner,
    private readonly deferred: DeferredListings,
    private readonly hooks: MembershipHooks,
  ) {}

  /** Joins a market: registered, its live orders adopted (the report says what was adopted and canceled). */
  async join(ref: MarketRef): Promise<MarketSyncReport> {
    for (;;) {
      const lifecycle = this.ctx.lifecycle();
      if (lifecycle === 'stopping' || lifecycle === 'stopped') return notJoined(ref.slug, 'the executor is stopping: market not joined');
      const known = this.ctx.markets.get(ref.slug);
      const leaving = known?.leaving ?? null;
      if (leaving !== null) {
        await leaving;
        continue;
      }
      if (lifecycle === 'created') {
        const market = known ?? this.hooks.register(ref);
        await this.hooks.started();
        return this.ctx.markets.get(ref.slug) === market ? (market.firstSyncReport ?? notJoined(ref.slug, 'not adopted')) : notJoined(ref.slug, 'left before the executor started');
      }
      if (known === undefined) {
        const market = this.hooks.register(ref);
        const evidence = ref.noOwnOrders;
        const deferred = evidence === undefined && this.ctx.deferListing(ref.slug);
        const report = await market.queue.add(() =>
          evidence !== undefined ? this.sync.readyWithoutListing(market, evidence) : deferred ? this.sync.readyBeforeListing(market) : this.sync.syncMarket(market, 'startup'),
        );
        market.noteFirstSync(report);
        if (deferred) this.deferred.schedule(market);
        return report;
      }
      if (known.retired) {
        known.rejoin();
        return known.queue.add(() => this.sync.syncMarket(known, 'resync'));
      }
      // Joined already: nothing to adopt again, unless its listing failed (blocked): then it is tried again.
      if (known.ready) return { marketSlug: ref.slug, ok: true, adopted: 0, canceled: 0, foreign: 0, error: null };
      return known.queue.add(() => this.sync.syncMarket(known, 'startup'));
    }
  }

  /** Leaves a market: retired at once, its orders canceled and confirmed gone within `budgetMs`. */
  leave(market: MarketState, budgetMs: number): Promise<LeaveReport> {
    const running = market.leaving;
    if (running !== null) return running;
    const run = this.runLeave(market, Math.max(0, budgetMs)).finally(() => {
      market.setLeaving(null);
      this.scheduleDrop(market);
    });
    market.setLeaving(run);
    return run;
  }

  /** News that a retired market may hold an order of ours (an untracked event, a failed stray cancel): sweep it. */
  requestResync(market: MarketState): void {
    if (!market.retired) {
      this.sync.requestResync(market);
      return;
    }
    this.leaveAgainWhileRunning(market);
  }

  /**
   * The gate released a held cancel (the trading mode relaxed, or its resumeAt passed): a retired market that still has
   * open orders (its leave ran out of budget while the venue refused cancels) is swept again at once, not at the next
   * drop check (RECHECK_MS).
   */
  sweepAfterRelease(market: MarketState): void {
    const running = market.leaving;
    if (running !== null) {
      // The release came while a leave runs (its held cancel may already be past its last attempt): looked at again after it.
      const again = (): void => this.sweepAfterRelease(market);
      void running.then(again, again);
      return;
    }
    if (market.retired && this.ctx.orders.openInMarket(market.slug).length > 0) this.leaveAgainWhileRunning(market);
  }

  /** A retired market swept again (its leave's cancels and confirmation), unless the executor is stopping (shutdown sweeps it). */
  private leaveAgainWhileRunning(market: MarketState): void {
    const lifecycle = this.ctx.lifecycle();
    if (lifecycle === 'running' || lifecycle === 'starting') void this.leave(market, market.leaveBudgetMs);
  }

  private async runLeave(market: MarketState, budgetMs: number): Promise<LeaveReport> {
    const { scheduler } = this.ctx;
    const deadline = scheduler.now() + budgetMs;
    market.retire(budgetMs);
    this.plans.stop(market);
    const lifecycle = this.ctx.lifecycle();
    if (lifecycle === 'created') {
      // Nothing adopted or placed yet: the market is simply forgotten (start() will not adopt it).
      this.hooks.forget(market);
      return { clean: true, left: 0 };
    }
    if (lifecycle === 'stopping' || lifecycle === 'stopped') {
      // Shutdown cancels every market's orders, this one's included: what it leaves is this leave's verdict.
      await untilDeadline(scheduler, this.hooks.stopped(), deadline);
      return this.report(market, true);
    }
    const confirmed = await untilDeadline(scheduler, market.queue.add(() => this.sweep.cancelEverything(market, deadline, false)), deadline);
    return this.report(market, confirmed === true);
  }

  private report(market: MarketState, confirmed: boolean): LeaveReport {
    const left = this.ctx.orders.openInMarket(market.slug).length;
    return { clean: confirmed && left === 0, left };
  }

  /** Arms the drop check: at once when nothing is open, when the newest order is old enough, else in RECHECK_MS. */
  private scheduleDrop(market: MarketState): void {
    if (!this.mayDrop(market)) return;
    const { scheduler, settings } = this.ctx;
    const orders = this.ctx.orders.inMarket(market.slug);
    const busy = orders.some((o) => isOpen(o.state)) || market.queue.size + market.queue.pending > 0 || market.lookupArmed;
    const newest = orders.reduce((latest, o) => Math.max(latest, o.updatedAtMs), Number.NEGATIVE_INFINITY);
    const due = busy ? Math.min(RECHECK_MS, Math.max(1000, settings.retainTerminalMs)) : Math.max(0, newest + settings.retainTerminalMs + 1 - scheduler.now());
    market.armDrop(scheduler, due, () => this.tryDrop(market));
  }

  private tryDrop(market: MarketState): void {
    if (!this.mayDrop(market)) return;
    const open = this.ctx.orders.openInMarket(market.slug);
    if (open.some((o) => isResting(o.state) || o.state === 'pending-cancel')) {
      // Still on the book (a leave out of budget, a cancel refused): swept again, and looked at after.
      void this.leave(market, market.leaveBudgetMs);
      return;
    }
    const olderThan = this.ctx.scheduler.now() - this.ctx.settings.retainTerminalMs;
    const idle = market.queue.size + market.queue.pending === 0 && !market.lookupArmed;
    if (open.length > 0 || !idle || this.ctx.orders.inMarket(market.slug).some((o) => o.updatedAtMs >= olderThan)) {
      this.scheduleDrop(market);
      return;
    }
    this.hooks.forget(market);
  }

  /** Retired, not leaving, still registered, and the executor not stopping. */
  private mayDrop(market: MarketState): boolean {
    const lifecycle = this.ctx.lifecycle();
    return market.retired && market.leaving === null && this.ctx.markets.get(market.slug) === market && (lifecycle === 'running' || lifecycle === 'starting');
  }
}
