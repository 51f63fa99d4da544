/**
 * A plan's venue requests: its cancels (in batches) and its placements (one at a time), and how each answer or
 * failure changes the orders.
 *
 * Owns: the plan tally, the new-order request (pending-new, inserted before it is sent), the last-moment check of a
 * placement (`beforeSend`), the reading of a cancel answer, and the application of the verdicts on a cancel error
 * (cancel-errors.ts) and a placement error (placement-errors.ts).
 *
 * Invariants: every request is checked against the trading-mode gate first (cancels in every mode the gate allows,
 * placements only when it allows their shape); no placement or replacement of a market leaves at or after its stop
 * before settlement (`ctx.stopAtMs`), checked at the moment it would leave the rate limiter: one planned before the stop
 * is withheld unsent and the plan starts no further placement, so it ends at once and the halt's cancels (at cancel
 * priority) follow; a placement of a market left while it waited is withheld the same way; a cancel whose outcome is uncertain keeps its order pending-cancel
 * and looks it up; a placement without an answer makes its order unknown, never rejected, and is canceled by its
 * clientOrderId at once (outcome-resolver.ts `cancelUnknown`); a slot is re-checked just
 * before its placement (an event may have filled it meanwhile); every change goes through the executor's writer with
 * origin `plan` (or `plan-lookup` for the lookups the plan makes itself).
 */
import { chunks } from '../core/maps.js';
import { errorText } from '../core/errors.js';
import type { QuoteIntent } from '../strategy/contract.js';
import { heldAfterUnavailable, isActive, refusedByMode, type ExecutorContext } from './executor-context.js';
import type { AbortReason } from './executor-types.js';
import type { MarketState } from './market-state.js';
import { confirmCancel, markRejected, markUnknown, newOrder, refuseCancel, requestCancel, type TrackedOrder } from './order-record.js';
import { isResting } from './order-state.js';
import { applyVenueReport, type OutcomeResolver } from './outcome-resolver.js';
import { classifyCancelError } from './cancel-errors.js';
import { classifyPlacementError } from './placement-errors.js';
import type { PlannedCancel, PlannedPlace } from './reconcile.js';
import { isPostOnlyCross, OrderRejectedError, PlacementWithheldError, type CancelResult, type PlaceRequest, type PlaceResult } from './venue-port.js';

/** What one plan run did, by clientOrderId. */
export interface PlanTally {
  readonly placed: string[];
  readonly canceled: string[];
  readonly rejected: string[];
  readonly unknown: string[];
  readonly attemptedCancels: Set<string>;
  /** Slots whose replacement the venue refused in this run: not placed again before the next run. */
  readonly refusedSlots: Set<string>;
  /** Unknown placements of this run the venue canceled by clientOrderId: their slots are free for a follow-up run. */
  readonly canceledUnknown: Set<string>;
}

export function emptyTally(): PlanTally {
  return { placed: [], canceled: [], rejected: [], unknown: [], attemptedCancels: new Set(), refusedSlots: new Set(), canceledUnknown: new Set() };
}

export class PlanRequests {
  constructor(
    private readonly ctx: ExecutorContext,
    private readonly resolver: OutcomeResolver,
  ) {}

  async executeCancels(market: MarketState, cancels: readonly PlannedCancel[], tally: PlanTally): Promise<AbortReason | null> {
    const { orders, writer, scheduler, gate, venue, observer, log, settings } = this.ctx;
    for (const batch of chunks(cancels, settings.cancelBatchSize)) {
      if (!gate.allowsCancel()) return 'trading-mode';
      const targets: TrackedOrder[] = [];
      for (const cancel of batch) {
        const order = orders.get(cancel.clientOrderId);
        if (order === undefined || order.orderId === null || !isResting(order.state)) continue;
        tally.attemptedCancels.add(order.clientOrderId);
        targets.push(writer.commit(order, requestCancel(order, scheduler.now()), 'plan'));
      }
      if (targets.length === 0) continue;
      const slug = market.slug;
      let result: CancelResult;
      try {
        const ids = targets.flatMap((t) => (t.orderId === null ? [] : [t.orderId]));
        result = await this.ctx.requestsOut.track(slug, () => this.withholdCancelWhenSweeping(), (beforeSend) => venue.cancelOrders(slug, ids, { beforeSend }));
      } catch (error) {
        // What the failure means: cancel-errors.ts (withheld because the bot is stopping: the targets rest again, and the
        // shutdown sweep cancels them with every other order of the bot).
        const verdict = classifyCancelError(error);
        if (verdict.sent) observer.onRequestError('cancelOrders', slug, error);
        if (verdict.modeRefusal) refusedByMode(this.ctx, error, 'cancel');
        if (verdict.orders === 'look-up') {
          // The cancels may or may not have taken: keep them pending-cancel and look them up.
          for (const target of targets) market.markForLookup(target.clientOrderId);
          this.resolver.scheduleResolve(market);
          continue;
        }
        if (!verdict.modeRefusal && verdict.kind !== 'withheld') log.warn({ market: slug, err: errorText(error, { withName: true }) }, 'cancel refused');
        this.refuseAll(targets);
        return verdict.abort;
      }
      const uncertain: TrackedOrder[] = [];
      const canceled = new Set(result.canceled);
      for (const target of targets) {
        const current = orders.get(target.clientOrderId) ?? target;
        if (canceled.has(target.orderId ?? '')) {
          const applied = writer.commit(current, confirmCancel(current, 'canceled by the bot', scheduler.now()), 'plan');
          if (applied.state === 'canceled') tally.canceled.push(applied.clientOrderId);
        } else {
          uncertain.push(current);
        }
      }
      if (uncertain.length > 0) {
        // Refused ("not found", "already canceled") or missing from the answer: ask the venue what it holds.
        for (const order of uncertain) market.markForLookup(order.clientOrderId);
        await this.resolver.lookupNow(market, uncertain, 'plan-lookup');
        for (const order of uncertain) {
          const after = orders.get(order.clientOrderId);
          if (after?.state === 'canceled') tally.canceled.push(after.clientOrderId);
        }
      }
    }
    return null;
  }

  async executePlaces(market: MarketState, places: readonly PlannedPlace[], tally: PlanTally): Promise<AbortReason | null> {
    for (const place of places) {
      // Stopping, the market is being left, or past its stop: no new placement starts (the leave or the halt cancels what rests).
      if (!isActive(this.ctx.lifecycle()) || market.retired || this.pastStop(market)) return null;
      const postOnly = place.intent.postOnly ?? this.ctx.settings.defaultPostOnly;
      if (!this.ctx.gate.allowsPlacement({ postOnly, orderType: 'GTC' })) return 'trading-mode';
      // Re-check the slot: an event may have changed it while earlier requests were in flight.
      if (tally.refusedSlots.has(place.slot) || this.ctx.orders.openInMarket(market.slug).some((o) => o.slot === place.slot)) continue;
      const result = await this.placeOne(market, place.intent, postOnly, tally);
      if (result !== null) return result;
    }
    return null;
  }

  /** A new order for `intent`, inserted pending-new, and its request (not sent). */
  newPlacement(market: MarketState, intent: QuoteIntent, postOnly: boolean): { readonly order: TrackedOrder; readonly request: Omit<PlaceRequest, 'beforeSend'> } {
    const slug = market.slug;
    const tokenId = intent.token === 'YES' ? market.ref.tokens.yes : market.ref.tokens.no;
    const clientOrderId = this.ctx.ids.next(slug, intent.slot);
    const request = { marketSlug: slug, clientOrderId, token: intent.token, tokenId, side: intent.side, priceTicks: intent.priceTicks, sizeRaw: intent.sizeRaw, postOnly, orderType: 'GTC' } as const;
    const order = newOrder({ ...request, slot: intent.slot }, this.ctx.scheduler.now());
    this.ctx.writer.insert(order);
    return { order, request };
  }

  /** The request may wait in the rate limiter behind others: re-checked at the moment it would leave (stopping, the market left, its stop, the trading mode). */
  withholdUnlessAllowed(market: MarketState, postOnly: boolean): void {
    if (!isActive(this.ctx.lifecycle())) throw new PlacementWithheldError('stopping');
    // A market left while the request waited (its leave cancels what rests; its stop is no longer known once it left).
    if (market.retired) throw new PlacementWithheldError('market left', { abortsPlan: false });
    const stopAt = this.ctx.stopAtMs(market.slug);
    if (stopAt !== null && this.ctx.scheduler.now() >= stopAt) throw new PlacementWithheldError(`past its stop before settlement at ${new Date(stopAt).toISOString()}`, { abortsPlan: false });
    if (!this.ctx.gate.allowsPlacement({ postOnly, orderType: 'GTC' })) throw new PlacementWithheldError(`trading mode ${this.ctx.gate.mode}`);
  }

  /**
   * A plan's cancel, re-checked as it leaves the rate limiter: once the shutdown sweeps (it cancels every order of the
   * bot, in 50-id requests across markets), the plan's own cancel is withheld unsent rather than take a start before
   * the sweep's.
   */
  private withholdCancelWhenSweeping(): void {
    if (this.ctx.sweeping()) throw new PlacementWithheldError('stopping', { operation: 'cancelOrders' });
  }

  /** Whether the market's stop before settlement has come. */
  private pastStop(market: MarketState): boolean {
    const stopAt = this.ctx.stopAtMs(market.slug);
    return stopAt !== null && this.ctx.scheduler.now() >= stopAt;
  }

  /** Applies a placement answer to the new order and tallies it. */
  applyPlaced(clientOrderId: string, answer: PlaceResult, tally: PlanTally): void {
    applyVenueReport(this.ctx, clientOrderId, { orderId: answer.orderId, status: answer.status, remainingRaw: answer.remainingRaw, reason: answer.reason }, answer.fills, 'plan', { atPlacement: true });
    const after = this.ctx.orders.get(clientOrderId);
    if (after?.state === 'rejected') tally.rejected.push(clientOrderId);
    else tally.placed.push(clientOrderId);
  }

  private refuseAll(targets: readonly TrackedOrder[]): void {
    for (const order of targets) {
      const current = this.ctx.orders.get(order.clientOrderId) ?? order;
      this.ctx.writer.commit(current, refuseCancel(current, this.ctx.scheduler.now()), 'plan');
    }
  }

  private async placeOne(market: MarketState, intent: QuoteIntent, postOnly: boolean, tally: PlanTally): Promise<AbortReason | null> {
    const { order: created, request } = this.newPlacement(market, intent, postOnly);
    try {
      const check = (): void => this.withholdUnlessAllowed(market, postOnly);
      const answer = await this.ctx.requestsOut.track(market.slug, check, (beforeSend) => this.ctx.venue.placeOrder({ ...request, beforeSend }));
      this.applyPlaced(created.clientOrderId, answer, tally);
      return null;
    } catch (error) {
      return this.placementFailed(market, created, error, postOnly, tally);
    }
  }

  /** Applies the verdict of placement-errors.ts on a failed placement to its order and the tally. */
  private async placementFailed(market: MarketState, created: TrackedOrder, error: unknown, postOnly: boolean, tally: PlanTally): Promise<AbortReason | null> {
    const { orders, writer, scheduler, observer, log } = this.ctx;
    const slug = market.slug;
    const clientOrderId = created.clientOrderId;
    const current = orders.get(clientOrderId) ?? created;
    const verdict = classifyPlacementError(error);
    if (verdict.sent) observer.onRequestError('placeOrder', slug, error);
    if (verdict.modeRefusal) refusedByMode(this.ctx, error, 'place', { postOnly });
    if (verdict.to === 'rejected') {
      writer.commit(current, markRejected(current, verdict.reason, scheduler.now()), 'plan');
      if (verdict.sent) tally.rejected.push(clientOrderId);
      if (error instanceof OrderRejectedError) {
        const level = isPostOnlyCross(error) ? 'info' : 'warn';
        log[level]({ market: slug, clientOrderId, reason: error.reason, detail: error.detail }, 'placement rejected');
      }
      return verdict.abort;
    }
    if (verdict.lookUp === 'now') {
      const unknown = writer.commit(current, markUnknown(current, scheduler.now()), 'plan');
      await this.resolver.lookupNow(market, [unknown], 'plan-lookup');
      if (orders.get(clientOrderId)?.state === 'unknown') tally.unknown.push(clientOrderId);
      else tally.placed.push(clientOrderId);
      return verdict.abort;
    }
    log.warn({ market: slug, clientOrderId, err: errorText(error, { withName: true }) }, 'placement outcome unknown');
    heldAfterUnavailable(this.ctx, error);
    const unknown = writer.commit(current, markUnknown(current, scheduler.now()), 'plan');
    tally.unknown.push(clientOrderId);
    // Not waited for: whatever the venue holds under this clientOrderId is canceled, then looked up.
    for (const id of await this.resolver.cancelUnknown(market, [unknown], 'plan-lookup')) tally.canceledUnknown.add(id);
    this.resolver.scheduleResolve(market);
    return verdict.abort;
  }
}
