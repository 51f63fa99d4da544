/**
 * A plan's placements into empty slots, sent as cancel-replace operations when the venue port gathers batches across
 * markets (src/orders/cross-market-venue.ts), so many markets' placements share requests — first quotes at start-up
 * above all. Each operation's cancel target is the new order's own clientOrderId (no such order exists yet: the cancel
 * half fails and touches nothing) and its mode ALLOW_FAILURE (the venue places it anyway). Otherwise, and once the venue
 * refused that, one POST /orders per placement (plan-requests.ts).
 *
 * Owns: whether placements go in batches (`orders.batchPlacements: auto`, cancel-replace in use, a port gathering across
 * markets, not refused yet) and the application of each operation's outcome (cancel-replace.ts `placementEffects`,
 * applied by replacements.ts `applyFresh`; a failed request: cancel-errors.ts).
 *
 * Invariants: the checks of a single placement hold (the trading mode allows the placement's shape, checked first and
 * again right before the request leaves; the slot is still empty and was not refused in this run); a placement without
 * a definite answer is unknown and looked up by clientOrderId before the slot is used again; a refusal — a 400 of the
 * request, or a NOT_ATTEMPTED replacement — turns batch placements off for good (logged once, reported) and the refused
 * placements, which never existed, go as POST /orders in the same run; every change goes through the executor's writer
 * with origin `plan`.
 */
import { chunks } from '../core/maps.js';
import { errorText } from '../core/errors.js';
import { batchUrgency } from './batch-urgency.js';
import { placementEffects } from './cancel-replace.js';
import { classifyCancelError } from './cancel-errors.js';
import { heldAfterUnavailable, isActive, refusedByMode, type ExecutorContext } from './executor-context.js';
import type { AbortReason } from './executor-types.js';
import type { MarketState } from './market-state.js';
import type { TrackedOrder } from './order-record.js';
import type { OutcomeResolver } from './outcome-resolver.js';
import type { PlanRequests, PlanTally } from './plan-requests.js';
import type { PlannedPlace } from './reconcile.js';
import type { Replacements } from './replacements.js';
import { VenueRequestError, type CancelReplaceItem, type CancelReplaceItemResult } from './venue-port.js';

interface Sent {
  readonly place: PlannedPlace;
  readonly order: TrackedOrder;
  readonly request: CancelReplaceItem['place'];
}

export class BatchPlacements {
  /** True once the venue refused placements sent as cancel-replace operations. */
  private refused = false;

  constructor(
    private readonly ctx: ExecutorContext,
    private readonly requests: PlanRequests,
    private readonly replacements: Replacements,
    private readonly resolver: OutcomeResolver,
  ) {}

  /** True when placements go as cancel-replace operations. */
  enabled(): boolean {
    return this.ctx.settings.batchPlacements === 'auto' && !this.refused && this.ctx.venue.gathersAcrossMarkets === true && this.replacements.enabled();
  }

  /** Carries the plan's placements out: in cancel-replace batches when enabled, else (and after a refusal) one by one. */
  async execute(market: MarketState, places: readonly PlannedPlace[], tally: PlanTally): Promise<AbortReason | null> {
    if (!this.enabled() || places.length === 0) return this.requests.executePlaces(market, places, tally);
    const { abort, eligible } = this.eligible(market, places, tally);
    const batches = chunks(eligible, this.ctx.settings.replaceBatchSize);
    for (const [index, batch] of batches.entries()) {
      const outcome = await this.send(market, batch, tally);
      if (outcome.abort !== null) return outcome.abort;
      if (outcome.fallback.length > 0) return (await this.requests.executePlaces(market, [...outcome.fallback, ...batches.slice(index + 1).flat()], tally)) ?? abort;
    }
    return abort;
  }

  /**
   * The placements that may go now, in plan order: the trading mode allows their shape (the first it does not ends the
   * list with `trading-mode`, as a single placement would), their slot is empty and not refused in this run.
   */
  private eligible(market: MarketState, places: readonly PlannedPlace[], tally: PlanTally): { readonly abort: AbortReason | null; readonly eligible: PlannedPlace[] } {
    const { gate, orders, settings } = this.ctx;
    const eligible: PlannedPlace[] = [];
    const open = new Set(orders.openInMarket(market.slug).map((o) => o.slot));
    for (const place of places) {
      if (!isActive(this.ctx.lifecycle())) return { abort: null, eligible };
      const postOnly = place.intent.postOnly ?? settings.defaultPostOnly;
      if (!gate.allowsPlacement({ postOnly, orderType: 'GTC' })) return { abort: 'trading-mode', eligible };
      if (tally.refusedSlots.has(place.slot) || open.has(place.slot)) continue;
      open.add(place.slot);
      eligible.push(place);
    }
    return { abort: null, eligible };
  }

  /** One batch: sent, its outcomes applied; what must go as POST /orders instead, or why the plan stops. */
  private async send(market: MarketState, batch: readonly PlannedPlace[], tally: PlanTally): Promise<{ readonly fallback: PlannedPlace[]; readonly abort: AbortReason | null }> {
    const { venue, observer, settings, log } = this.ctx;
    const slug = market.slug;
    let postOnlyAll = true;
    const sent: Sent[] = batch.map((place) => {
      const postOnly = place.intent.postOnly ?? settings.defaultPostOnly;
      postOnlyAll &&= postOnly;
      const { order, request } = this.requests.newPlacement(market, place.intent, postOnly);
      return { place, order, request };
    });
    let results: readonly CancelReplaceItemResult[];
    try {
      const check = (): void => this.requests.withholdUnlessAllowed(market, postOnlyAll);
      results = await this.ctx.requestsOut.track(slug, check, (beforeSend) =>
        venue.cancelReplace!({
          marketSlug: slug,
          items: sent.map(({ request }) => ({ cancelOrderId: null, place: request })),
          mode: 'STOP_ON_FAILURE',
          beforeSend,
          urgency: batchUrgency(sent.map(({ request }) => ({ fromPriceTicks: null, toPriceTicks: request.priceTicks, sizeRaw: request.sizeRaw }))),
        }),
      );
    } catch (error) {
      const verdict = classifyCancelError(error);
      if (verdict.sent) observer.onRequestError('cancelReplace', slug, error);
      const refusal = error instanceof VenueRequestError && error.status === 400;
      const failure = verdict.orders === 'restore' ? 'not-sent' : 'unknown';
      for (const { order } of sent) this.replacements.applyFresh(market, order, placementEffects(failure).fresh, null, errorText(error, { withName: true }), tally, failure === 'not-sent');
      if (refusal || verdict.cancelReplaceOff) {
        if (refusal) this.refuse(slug, errorText(error));
        else this.replacements.markUnsupported(slug, error);
        return { fallback: [...batch], abort: null };
      }
      if (verdict.modeRefusal) refusedByMode(this.ctx, error, 'place', { postOnly: postOnlyAll });
      if (verdict.orders === 'look-up') {
        log.warn({ market: slug, items: sent.length, err: errorText(error, { withName: true }) }, 'batch placement outcome unknown: looking the orders up');
        heldAfterUnavailable(this.ctx, error);
        for (const id of await this.resolver.cancelUnknown(market, sent.map(({ order }) => order), 'plan-lookup')) tally.canceledUnknown.add(id);
        return { fallback: [], abort: null };
      }
      return { fallback: [], abort: verdict.abort };
    }
    const fallback: PlannedPlace[] = [];
    sent.forEach(({ place, order }, i) => {
      const result = results[i];
      const effects = placementEffects(result?.replacement.status ?? 'UNKNOWN');
      const reason = result === undefined ? 'no result' : (result.replacement.reason ?? result.replacement.status);
      this.replacements.applyFresh(market, order, effects.fresh, result?.replacement.placed ?? null, reason, tally, effects.refused);
      if (effects.refused) fallback.push(place);
      if (result?.cancel.status === 'SUCCESS') log.warn({ market: slug, clientOrderId: order.clientOrderId }, 'batch placement: the venue reports canceling an order with the new clientOrderId (none should exist)');
    });
    if (fallback.length > 0) this.refuse(slug, 'a placement operation was NOT_ATTEMPTED under ALLOW_FAILURE');
    // A placement whose outcome is unknown: canceled by its clientOrderId, not waited for.
    for (const id of await this.resolver.cancelUnknown(market, sent.map(({ order }) => order), 'plan-lookup')) tally.canceledUnknown.add(id);
    return { fallback, abort: null };
  }

  private refuse(slug: string, detail: string): void {
    if (this.refused) return;
    this.refused = true;
    this.ctx.observer.onBatchPlacementsRefused(slug);
    this.ctx.log.warn({ market: slug, detail }, 'the venue refused placements sent as cancel-replace operations: one POST /orders per placement from now on');
  }
}
