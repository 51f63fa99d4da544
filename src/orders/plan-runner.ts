/**
 * Plan running: turns a market's latest quote intents into a plan (reconcile.ts over its open orders, through the
 * trading-mode gate) and carries it out (plan-requests.ts, replacements.ts, batch-placements.ts), one run at a time per
 * market.
 *
 * Owns: submissions and their supersede, the re-runs (`kick`: after a cancel resolves, a mode relaxes, a cool-off
 * ends) and the review timer, the two passes of a run, and its report.
 *
 * Invariants: one plan in flight per market (the market's queue); a newer submission SUPERSEDES a queued one (the
 * older caller gets `superseded` at once); the plan is computed when the run starts, from the state at that moment;
 * cancels go first and a slot is re-placed only once its previous order is confirmed gone (the second pass plans
 * again over the state after the cancels); with cross-market batch placements, placements into slots that hold no
 * open order when the run starts go in the first pass, beside the replacements (they wait on no cancel); no run starts in a market before it is ready, nor once stopping, nor in a
 * retired market (one being left: src/orders/market-membership.ts).
 */
import { errorText } from '../core/errors.js';
import type { QuoteIntent } from '../strategy/contract.js';
import { isActive, type ExecutorContext } from './executor-context.js';
import type { AbortReason, PlanOutcome, PlanReport } from './executor-types.js';
import type { MarketState, PendingRun, Submission } from './market-state.js';
import { emptyTally, type PlanRequests, type PlanTally } from './plan-requests.js';
import { pairReplacements, type Replacement } from './cancel-replace.js';
import { reconcile, type Plan, type PlannedCancel } from './reconcile.js';
import type { Replacements } from './replacements.js';
import type { BatchPlacements } from './batch-placements.js';

export class PlanRunner {
  constructor(
    private readonly ctx: ExecutorContext,
    private readonly requests: PlanRequests,
    private readonly replacements: Replacements,
    private readonly placements: BatchPlacements,
  ) {}

  /** Queues a run of `intents`; a run of an older submission still waiting resolves `superseded`. */
  submit(market: MarketState, intents: readonly QuoteIntent[], issuedAtMs: number): Promise<PlanOutcome> {
    const submission: Submission = { intents: [...intents], issuedAtMs };
    market.noteSubmission(submission);
    return new Promise<PlanOutcome>((resolve) => {
      const pending = market.pending;
      if (pending !== null) {
        if (pending.resolve !== null) {
          pending.resolve({ status: 'superseded' });
          this.ctx.observer.onSuperseded(market.slug);
        }
        market.setPending({ submission, resolve });
        return;
      }
      this.enqueueRun(market, { submission, resolve });
    });
  }

  /** Re-runs the market's latest intents (after a cancel resolves, a mode relaxes, a cool-off ends). */
  kick(market: MarketState): void {
    const submission = market.lastSubmission;
    if (!isActive(this.ctx.lifecycle()) || market.retired || submission === null || market.pending !== null) return;
    this.enqueueRun(market, { submission, resolve: null });
  }

  /** Shutdown or a leave: the waiting run resolves `stopped` and the review timer is disarmed. */
  stop(market: MarketState): void {
    market.takePending()?.resolve?.({ status: 'stopped' });
    market.disarmReview();
  }

  private enqueueRun(market: MarketState, pending: PendingRun): void {
    market.setPending(pending);
    void market.queue.add(async () => {
      const run = market.takePending();
      if (run === null) return;
      let outcome: PlanOutcome;
      try {
        outcome = await this.runPlan(market, run.submission);
      } catch (error) {
        this.ctx.log.error({ market: market.slug, err: errorText(error, { withName: true }) }, 'plan failed');
        outcome = { status: 'failed', error: errorText(error, { withName: true }) };
      }
      run.resolve?.(outcome);
    });
  }

  /** Reconcile of the submission over the market's open orders (less `without`, as if those were gone). */
  private planFor(market: MarketState, submission: Submission, without: ReadonlySet<string> = new Set()): Plan {
    const orders = this.ctx.orders.openInMarket(market.slug).filter((o) => !without.has(o.clientOrderId));
    return reconcile(submission.intents, orders, {
      nowMs: this.ctx.scheduler.now(),
      ...this.ctx.settings.reconcile,
      lastFillAtBySlot: market.lastFillAtBySlot,
      intentsIssuedAtMs: submission.issuedAtMs,
    });
  }

  /** The plan's cancels split into replacements (cancel + place in one slot) and plain cancels. */
  private replacementsOf(market: MarketState, submission: Submission, plan: Plan): { readonly replacements: readonly Replacement[]; readonly cancels: readonly PlannedCancel[] } {
    if (!this.replacements.enabled() || plan.cancels.length === 0 || this.ctx.lifecycle() !== 'running') return { replacements: [], cancels: plan.cancels };
    const after = this.ctx.gate.gate(this.planFor(market, submission, new Set(plan.cancels.map((c) => c.clientOrderId))));
    return pairReplacements(plan, after.plan);
  }

  private async runPlan(market: MarketState, submission: Submission): Promise<PlanOutcome> {
    const { scheduler, gate, settings } = this.ctx;
    const lifecycle = this.ctx.lifecycle();
    if (lifecycle === 'stopping' || lifecycle === 'stopped' || market.retired) return { status: 'stopped' };
    if (!market.ready) return { status: 'not-ready' };
    const started = scheduler.now();
    this.ctx.writer.pruneTerminal(market.slug, started - settings.retainTerminalMs);
    const tally = emptyTally();
    let blockedPlaces = 0;
    let blockedCancels = 0;
    let converted = 0;

    const first = gate.gate(this.planFor(market, submission));
    blockedCancels += first.blockedCancels;
    const split = this.replacementsOf(market, submission, first.plan);
    let aborted = await this.requests.executeCancels(market, split.cancels, tally);
    if (aborted === null) aborted = await this.firstPass(market, split.replacements, first.plan.places, tally);
    let plan = first.plan;
    if (aborted === null) {
      const second = gate.gate(this.planFor(market, submission));
      plan = second.plan;
      blockedPlaces += second.blockedPlaces;
      blockedCancels += second.blockedCancels;
      converted += second.convertedToPostOnly;
      const fresh = second.plan.cancels.filter((c) => !tally.attemptedCancels.has(c.clientOrderId));
      aborted = await this.requests.executeCancels(market, fresh, tally);
      if (aborted === null) aborted = await this.placements.execute(market, second.plan.places, tally);
      // Slots emptied by those late cancels, or by unknown placements canceled by clientOrderId, are filled by a
      // follow-up run (after this one ends).
      if (aborted === null && (fresh.length > 0 || tally.canceledUnknown.size > 0)) this.kick(market);
    }
    this.scheduleReview(market, plan.nextReviewAtMs);
    market.notePlanDone();
    const report: PlanReport = {
      marketSlug: market.slug,
      durationMs: scheduler.now() - started,
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
    this.ctx.observer.onPlan(report);
    if (plan.invalid.length > 0) this.ctx.log.warn({ market: market.slug, invalid: plan.invalid.map((i) => i.reason) }, 'invalid intents dropped');
    return {
      status: 'executed',
      marketSlug: market.slug,
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

  /**
   * The replacements, and — when placements go in cross-market batches — the placements into slots empty already:
   * both batches are handed over at once, so they ride the same request instead of the placements waiting for the
   * replacements' answer (a slot emptied by a fill is quoted again one round trip sooner). Without batch placements,
   * the placements wait for the second pass as before.
   */
  private async firstPass(market: MarketState, replacements: readonly Replacement[], places: Plan['places'], tally: PlanTally): Promise<AbortReason | null> {
    const early = places.length > 0 && this.placements.enabled() && this.ctx.lifecycle() === 'running' ? places : [];
    const [replaced, placed] = await Promise.all([
      replacements.length > 0 ? this.replacements.execute(market, replacements, tally) : null,
      early.length > 0 ? this.placements.execute(market, early, tally) : null,
    ]);
    return replaced ?? placed;
  }

  private scheduleReview(market: MarketState, atMs: number | null): void {
    market.disarmReview();
    if (atMs === null) return;
    market.armReview(this.ctx.scheduler, Math.max(0, atMs - this.ctx.scheduler.now()), () => this.kick(market));
  }
}
