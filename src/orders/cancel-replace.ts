/**
 * Cancel-replace, the pure part: which cancels of a plan pair with a placement in the same slot (one cancel-replace
 * operation each), and what each per-operation outcome does to the two orders, in terms of the transition table
 * (order-state.ts).
 *
 * Owns: `pairReplacements` (plan → replacements + plain cancels), `outcomeEffects` (outcome pair → transitions) and
 * `placementEffects` (the outcome of a placement sent as a cancel-replace operation). The executor only applies them.
 *
 * Invariants:
 * - reconcile stays a pure diff: a slot's replacement is exactly what reconcile would place there once its one
 *   cancel is confirmed (the caller passes that second plan), so every rule of reconcile (frozen slots, cool-off,
 *   fills since the quote, the trading mode) holds for replacements too;
 * - a slot with more than one cancel is never paired (the duplicates go as plain cancels first);
 * - an outcome that does not say the old order is gone leaves it pending-cancel and looked up; a replacement that
 *   got no definite answer is unknown and looked up by clientOrderId, exactly as a placement; a replacement that was
 *   never sent (NOT_ATTEMPTED, or the request not sent) is rejected: the order never existed;
 * - a placement sent as an operation (cancel target: its own clientOrderId, ALLOW_FAILURE) is read from its
 *   replacement half alone: cancel FAILURE + replacement SUCCESS = placed; the cancel half names no real order, so
 *   whatever it says changes no order; NOT_ATTEMPTED means the venue does not place that way: the order never existed
 *   and batch placements are refused.
 */
import type { OrderState, TransitionCause } from './order-state.js';
import type { Plan, PlannedCancel, PlannedPlace } from './reconcile.js';
import type { CancelHalfStatus, ReplacementHalfStatus } from './venue-port.js';

export interface Replacement {
  readonly cancel: PlannedCancel;
  readonly place: PlannedPlace;
}

export interface ReplacementSplit {
  readonly replacements: readonly Replacement[];
  /** Cancels that are not part of a replacement (no intent in the slot, a duplicate, nothing to place after). */
  readonly cancels: readonly PlannedCancel[];
}

/**
 * Pairs each slot's single cancel of `plan` with the placement that `afterCancels` (reconcile of the same intents over
 * the same orders less the canceled ones, gated by the trading mode) makes in that slot.
 */
export function pairReplacements(plan: Pick<Plan, 'cancels'>, afterCancels: Pick<Plan, 'places'>): ReplacementSplit {
  const cancelsPerSlot = new Map<string, number>();
  for (const cancel of plan.cancels) cancelsPerSlot.set(cancel.slot, (cancelsPerSlot.get(cancel.slot) ?? 0) + 1);
  const placeBySlot = new Map(afterCancels.places.map((place) => [place.slot, place]));
  const replacements: Replacement[] = [];
  const cancels: PlannedCancel[] = [];
  for (const cancel of plan.cancels) {
    const place = placeBySlot.get(cancel.slot);
    if (place !== undefined && cancelsPerSlot.get(cancel.slot) === 1) replacements.push({ cancel, place });
    else cancels.push(cancel);
  }
  return { replacements, cancels };
}

/** What happens to the old order (which the executor moved to pending-cancel before sending). */
export type OldOrderEffect =
  /** The venue canceled it: pending-cancel → canceled. */
  | { readonly kind: 'canceled'; readonly to: 'canceled'; readonly cause: TransitionCause }
  /** The cancel was refused or its outcome is unknown: stays pending-cancel until a lookup says what it is. */
  | { readonly kind: 'look-up'; readonly to: 'pending-cancel'; readonly cause: null }
  /** Nothing reached the venue: pending-cancel → back to resting. */
  | { readonly kind: 'restored'; readonly to: 'live'; readonly cause: TransitionCause };

/** What happens to the replacement (which the executor inserted as pending-new before sending). */
export type NewOrderEffect =
  /** Accepted: the placement answer is applied (live, partially filled, filled or canceled by the venue). */
  | { readonly kind: 'apply-answer'; readonly to: OrderState; readonly cause: TransitionCause }
  /** Refused, not attempted or never sent: pending-new → rejected (it never existed). */
  | { readonly kind: 'rejected'; readonly to: 'rejected'; readonly cause: TransitionCause }
  /** No definite answer: pending-new → unknown, resolved by clientOrderId before the slot is used again. */
  | { readonly kind: 'unknown'; readonly to: 'unknown'; readonly cause: TransitionCause };

export interface OutcomeEffects {
  readonly old: OldOrderEffect;
  readonly fresh: NewOrderEffect;
  /** Both the old order and the replacement may rest in the slot until the lookup resolves (reconcile then cancels one). */
  readonly slotAtRisk: boolean;
}

/** A whole request that failed: `not-sent` (nothing took effect) or `unknown` (no answer: anything may have). */
export type RequestFailure = 'not-sent' | 'unknown';

const CANCELED: OldOrderEffect = { kind: 'canceled', to: 'canceled', cause: 'venue-canceled' };
const LOOK_UP: OldOrderEffect = { kind: 'look-up', to: 'pending-cancel', cause: null };
const RESTORED: OldOrderEffect = { kind: 'restored', to: 'live', cause: 'cancel-refused' };
const ACCEPTED: NewOrderEffect = { kind: 'apply-answer', to: 'live', cause: 'venue-report' };
const REJECTED: NewOrderEffect = { kind: 'rejected', to: 'rejected', cause: 'rejected' };
const UNKNOWN: NewOrderEffect = { kind: 'unknown', to: 'unknown', cause: 'outcome-unknown' };

/** The effects of one operation's outcome pair, or of a whole request that failed. */
export function outcomeEffects(cancel: CancelHalfStatus, replacement: ReplacementHalfStatus): OutcomeEffects;
export function outcomeEffects(failure: RequestFailure): OutcomeEffects;
export function outcomeEffects(cancel: CancelHalfStatus | RequestFailure, replacement?: ReplacementHalfStatus): OutcomeEffects {
  if (cancel === 'not-sent') return { old: RESTORED, fresh: REJECTED, slotAtRisk: false };
  if (cancel === 'unknown') return { old: LOOK_UP, fresh: UNKNOWN, slotAtRisk: true };
  const old = cancel === 'SUCCESS' ? CANCELED : LOOK_UP;
  const fresh = replacement === 'SUCCESS' ? ACCEPTED : replacement === 'UNKNOWN' ? UNKNOWN : REJECTED;
  return { old, fresh, slotAtRisk: cancel !== 'SUCCESS' && (fresh.kind === 'apply-answer' || fresh.kind === 'unknown') };
}

/** What a placement sent as a cancel-replace operation does to its new order (inserted pending-new before sending). */
export interface PlacementEffects {
  readonly fresh: NewOrderEffect;
  /** The venue did not place it although the mode allowed it (NOT_ATTEMPTED): placements go as POST /orders from now on. */
  readonly refused: boolean;
}

/** The effects of a placement operation's replacement half, or of a whole request that failed. */
export function placementEffects(outcome: ReplacementHalfStatus | RequestFailure): PlacementEffects {
  switch (outcome) {
    case 'SUCCESS':
      return { fresh: ACCEPTED, refused: false };
    case 'UNKNOWN':
    case 'unknown':
      return { fresh: UNKNOWN, refused: false };
    case 'NOT_ATTEMPTED':
      return { fresh: REJECTED, refused: true };
    case 'FAILURE':
    case 'not-sent':
      return { fresh: REJECTED, refused: false };
  }
}
