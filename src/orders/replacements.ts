/**
 * A plan's replacements: a changed quote's (cancel old, place new) pair sent as one cancel-replace operation with
 * STOP_ON_FAILURE (the venue places only once the cancel succeeded), several slots per batch request.
 *
 * Owns: whether cancel-replace is used (configured, offered by the port, and not refused with a 404 yet), each batch's
 * urgency (batch-urgency.ts: the cross-market batcher sends the most urgent first) and the application of each
 * operation's effects (cancel-replace.ts maps the venue's statuses to effects, cancel-errors.ts a failed request to a
 * verdict; batch-placements.ts applies a placement operation's effect with `applyFresh`).
 *
 * Invariants: a pair is sent only when its old order rests and no other open order holds the slot; an operation
 * without a result, or whose cancel half is uncertain, leaves the old order to a lookup before the slot is used
 * again — unless the feed reported it terminal meanwhile (a fill before the cancel landed: known gone, no lookup); a
 * replacement whose placement outcome is unknown is canceled by its clientOrderId at once; a 404 turns cancel-replace off for good and the remaining pairs go as plain cancels (their slots are placed
 * by the plan's second pass); every change goes through the executor's writer with origin `plan`.
 */
import { chunks } from '../core/maps.js';
import { errorText } from '../core/errors.js';
import { batchUrgency, type OperationFacts } from './batch-urgency.js';
import { outcomeEffects, type NewOrderEffect, type OutcomeEffects, type Replacement } from './cancel-replace.js';
import { heldAfterUnavailable, refusedByMode, type ExecutorContext } from './executor-context.js';
import type { AbortReason } from './executor-types.js';
import type { MarketState } from './market-state.js';
import { confirmCancel, markRejected, markUnknown, refuseCancel, requestCancel, type TrackedOrder } from './order-record.js';
import { isResting, isTerminal } from './order-state.js';
import type { OutcomeResolver } from './outcome-resolver.js';
import type { PlanRequests, PlanTally } from './plan-requests.js';
import { classifyCancelError } from './cancel-errors.js';
import { TradingModeError, type CancelReplaceItem, type PlaceResult } from './venue-port.js';

export class Replacements {
  /** False once the venue answered 404 for cancel-replace. */
  private offered = true;

  constructor(
    private readonly ctx: ExecutorContext,
    private readonly requests: PlanRequests,
    private readonly resolver: OutcomeResolver,
  ) {}

  /** True when replacements go as cancel-replace operations. */
  enabled(): boolean {
    return this.ctx.settings.cancelReplace && this.offered && this.ctx.venue.cancelReplace !== undefined;
  }

  /** Carries replacements out as cancel-replace batches (STOP_ON_FAILURE); falls back to cancels on a 404. */
  async execute(market: MarketState, replacements: readonly Replacement[], tally: PlanTally): Promise<AbortReason | null> {
    const { orders, writer, scheduler, gate, venue, observer, log, settings } = this.ctx;
    const slug = market.slug;
    const batches = chunks(replacements, settings.replaceBatchSize);
    for (const [index, batch] of batches.entries()) {
      if (!this.enabled()) return this.requests.executeCancels(market, batches.slice(index).flat().map((r) => r.cancel), tally);
      if (!gate.allowsCancel()) return 'trading-mode';
      const pairs: { old: TrackedOrder; fresh: TrackedOrder }[] = [];
      const items: CancelReplaceItem[] = [];
      const facts: OperationFacts[] = [];
      let postOnlyAll = true;
      for (const { cancel, place } of batch) {
        const old = orders.get(cancel.clientOrderId);
        if (old === undefined || old.orderId === null || !isResting(old.state)) continue;
        if (orders.openInMarket(slug).some((o) => o.slot === place.slot && o.clientOrderId !== old.clientOrderId)) continue;
        const postOnly = place.intent.postOnly ?? settings.defaultPostOnly;
        postOnlyAll &&= postOnly;
        tally.attemptedCancels.add(old.clientOrderId);
        const pending = writer.commit(old, requestCancel(old, scheduler.now()), 'plan');
        const { order: fresh, request } = this.requests.newPlacement(market, place.intent, postOnly);
        pairs.push({ old: pending, fresh });
        items.push({ cancelOrderId: old.orderId, place: request });
        facts.push({ fromPriceTicks: old.priceTicks, toPriceTicks: request.priceTicks, sizeRaw: request.sizeRaw });
      }
      if (items.length === 0) continue;
      let results;
      try {
        const check = (): void => this.requests.withholdUnlessAllowed(market, postOnlyAll);
        results = await this.ctx.requestsOut.track(slug, check, (beforeSend) => venue.cancelReplace!({ marketSlug: slug, items, mode: 'STOP_ON_FAILURE', beforeSend, urgency: batchUrgency(facts) }));
      } catch (error) {
        // What the failure means: cancel-errors.ts (restored: the request took no effect, nothing was placed).
        const verdict = classifyCancelError(error);
        const failure = verdict.orders === 'restore' ? 'not-sent' : 'unknown';
        if (verdict.sent) observer.onRequestError('cancelReplace', slug, error);
        for (const pair of pairs) this.applyOutcome(market, pair.old, pair.fresh, outcomeEffects(failure), null, errorText(error, { withName: true }), tally, failure === 'not-sent');
        if (verdict.orders === 'look-up') {
          log.warn({ market: slug, items: items.length, err: errorText(error, { withName: true }) }, 'cancel-replace outcome unknown: looking the orders up');
          heldAfterUnavailable(this.ctx, error);
          for (const id of await this.resolver.cancelUnknown(market, pairs.map((p) => p.fresh), 'plan-lookup')) tally.canceledUnknown.add(id);
          this.resolver.scheduleResolve(market);
          continue;
        }
        if (verdict.cancelReplaceOff) {
          this.markUnsupported(slug, error);
          for (const pair of pairs) tally.attemptedCancels.delete(pair.old.clientOrderId);
          return this.requests.executeCancels(market, batches.slice(index).flat().map((r) => r.cancel), tally);
        }
        // Refused by the mode: of its cancels only in `disabled`; else of its placements (the cancels may go alone).
        if (verdict.modeRefusal) {
          if (error instanceof TradingModeError && error.mode !== 'disabled') refusedByMode(this.ctx, error, 'place', { postOnly: postOnlyAll });
          else refusedByMode(this.ctx, error, 'cancel');
        }
        return verdict.abort;
      }
      const lookups: TrackedOrder[] = [];
      pairs.forEach((pair, i) => {
        const result = results[i];
        const effects = result === undefined ? outcomeEffects('unknown') : outcomeEffects(result.cancel.status, result.replacement.status);
        const reason = result === undefined ? 'no result' : (result.replacement.reason ?? result.cancel.reason ?? result.replacement.status);
        const notAttempted = result?.replacement.status === 'NOT_ATTEMPTED';
        this.applyOutcome(market, pair.old, pair.fresh, effects, result?.replacement.placed ?? null, reason, tally, notAttempted);
        const old = orders.get(pair.old.clientOrderId) ?? pair.old;
        if (effects.old.kind === 'look-up' && !isTerminal(old.state)) lookups.push(old);
      });
      if (lookups.length > 0) await this.resolver.lookupNow(market, lookups, 'plan-lookup');
      // A replacement whose placement outcome is unknown: canceled by its clientOrderId, not waited for.
      for (const id of await this.resolver.cancelUnknown(market, pairs.map((p) => p.fresh), 'plan-lookup')) tally.canceledUnknown.add(id);
    }
    return null;
  }

  /** Applies one operation's effects (cancel-replace.ts) to the old order and its replacement. */
  private applyOutcome(market: MarketState, old: TrackedOrder, fresh: TrackedOrder, effects: OutcomeEffects, placed: PlaceResult | null, reason: string, tally: PlanTally, neverSent: boolean): void {
    const { orders, writer, scheduler, log } = this.ctx;
    const now = scheduler.now();
    const current = orders.get(old.clientOrderId) ?? old;
    if (effects.old.kind === 'canceled') {
      const applied = writer.commit(current, confirmCancel(current, 'canceled by cancel-replace', now), 'plan');
      if (applied.state === 'canceled') tally.canceled.push(applied.clientOrderId);
    } else if (effects.old.kind === 'restored') {
      writer.commit(current, refuseCancel(current, now), 'plan');
    } else if (!isTerminal(current.state)) {
      // Its end is not known yet (a fill the feed already reported makes it terminal: nothing to look up).
      market.markForLookup(current.clientOrderId);
    }
    this.applyFresh(market, fresh, effects.fresh, placed, reason, tally, neverSent);
    if (effects.slotAtRisk && !isTerminal(current.state)) log.warn({ market: market.slug, slot: fresh.slot, old: old.clientOrderId, fresh: fresh.clientOrderId }, 'cancel-replace: old order not confirmed gone; looked up before the slot is used again');
  }

  /**
   * Applies an operation's effect on its new order (inserted pending-new before sending): the placement answer, unknown
   * (looked up by clientOrderId), or rejected (`neverSent`: it never existed, so it is not tallied and its slot is not
   * held back in this run).
   */
  applyFresh(market: MarketState, fresh: TrackedOrder, effect: NewOrderEffect, placed: PlaceResult | null, reason: string, tally: PlanTally, neverSent: boolean): void {
    const { orders, writer, scheduler } = this.ctx;
    const now = scheduler.now();
    const newer = orders.get(fresh.clientOrderId) ?? fresh;
    if (effect.kind === 'apply-answer' && placed !== null) {
      this.requests.applyPlaced(fresh.clientOrderId, placed, tally);
    } else if (effect.kind === 'unknown' || (effect.kind === 'apply-answer' && placed === null)) {
      writer.commit(newer, markUnknown(newer, now), 'plan');
      tally.unknown.push(fresh.clientOrderId);
      this.resolver.scheduleResolve(market);
    } else {
      writer.commit(newer, markRejected(newer, neverSent ? `not sent: ${reason}` : reason, now), 'plan');
      if (!neverSent) {
        tally.rejected.push(fresh.clientOrderId);
        tally.refusedSlots.add(fresh.slot);
      }
    }
  }

  /** The venue answered 404 for cancel-replace: off for good (said once per market it is learned in). */
  markUnsupported(slug: string, error: unknown): void {
    this.offered = false;
    this.ctx.observer.onCancelReplaceUnsupported(slug);
    this.ctx.log.warn({ market: slug, err: errorText(error) }, 'the venue does not offer cancel-replace (404): replacing by cancel, then placement, from now on');
  }
}
