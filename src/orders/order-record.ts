/**
 * One tracked order and the pure functions that move it: each takes an order and an observation and returns
 * the next order, the transition made (if any) and the fills to emit. Only the executor commits the results.
 *
 * Invariants:
 * - remainingRaw only goes down (out-of-order frames cannot un-fill an order); it never exceeds
 *   sizeRaw − filledRaw once fills are known; a report without a remaining size (unknown) leaves it as it is;
 * - a fill is recorded once per tradeEventId; a later settlement state (provisional → mined | failed)
 *   updates it and is emitted again, never the same state twice;
 * - fills are recorded whatever the state (money moved), while an illegal state change is refused and
 *   returned as an `IllegalTransitionError` with the order's state untouched;
 * - a canceled order reported resting keeps canceled: the report (an OME frame, a placement answer) was made
 *   before the cancel; its remaining size is still taken. A REJECTED (lost) order reported resting is an illegal
 *   transition: the executor then cancels that order as a stray;
 * - after a FAILED settlement the order's remaining size is not raised back (the venue's next frame or
 *   lookup says what rests); the fill is emitted as failed so the ledger reverses it;
 * - `lost` is set (a `LostReason`) exactly when the order was given up as lost (rejected by cause `lost`).
 */
import { checkTransition, type IllegalTransitionError, type OrderState, type TransitionCause } from './order-state.js';
import type { PlaceRequest, SettlementState, VenueOrderStatus } from './venue-port.js';

export interface FillRecord {
  readonly tradeEventId: string;
  readonly sizeRaw: number;
  readonly priceTicks: number;
  readonly settlement: SettlementState;
  readonly atMs: number;
}

/** What the bot decides about an order before it is sent (the placement request less its transport hooks, plus its slot). */
export type NewOrderParams = Omit<PlaceRequest, 'beforeSend'> & { readonly slot: string };

export interface TrackedOrder extends NewOrderParams {
  /** The venue's id, null until an answer or a frame tells it. */
  readonly orderId: string | null;
  readonly state: OrderState;
  readonly remainingRaw: number;
  /** Sum of recorded fills that did not fail. */
  readonly filledRaw: number;
  readonly fills: readonly FillRecord[];
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly lastFillAtMs: number | null;
  /** Why it was rejected or canceled, when the venue or the bot said. */
  readonly reason: string | null;
  /** Found on the venue at start-up or resync rather than placed by this process. */
  readonly adopted: boolean;
  /** When the placement's outcome became unknown. */
  readonly unknownSinceMs: number | null;
  /** Status lookups that answered not_found. */
  readonly lookupMisses: number;
  /** Why the bot gave the order up as lost (a rejected order ended by cause `lost`); null for every other order. */
  readonly lost: LostReason | null;
}

/**
 * Why an order was given up as lost: a terminal `rejected` reached by cause `lost`, never by a venue refusal.
 * `not-found-after-grace`: an unknown placement that status lookups answered not_found enough times, after the grace
 * time (the executor's `notFoundLimit` / `notFoundGraceMs`).
 */
export const LOST_REASONS = ['not-found-after-grace'] as const;
export type LostReason = (typeof LOST_REASONS)[number];

/** The order's `reason` text for each lost reason (what the ledger and the logs show). */
const LOST_REASON_TEXT: Readonly<Record<LostReason, string>> = { 'not-found-after-grace': 'lost: not found on the venue' };

export interface Transition {
  readonly from: OrderState;
  readonly to: OrderState;
  readonly cause: TransitionCause;
}

export interface FillEmission {
  readonly fill: FillRecord;
  /** True when this updates the settlement state of a fill emitted before. */
  readonly update: boolean;
}

export interface Applied {
  readonly order: TrackedOrder;
  /** The state change made; null when the state did not change (or the change was illegal). */
  readonly transition: Transition | null;
  readonly illegal: IllegalTransitionError | null;
  readonly fills: readonly FillEmission[];
}

/** A placement about to be sent: pending-new. */
export function newOrder(params: NewOrderParams, nowMs: number): TrackedOrder {
  return {
    ...params,
    orderId: null,
    state: 'pending-new',
    remainingRaw: params.sizeRaw,
    filledRaw: 0,
    fills: [],
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    lastFillAtMs: null,
    reason: null,
    adopted: false,
    unknownSinceMs: null,
    lookupMisses: 0,
    lost: null,
  };
}

export interface AdoptParams extends NewOrderParams {
  readonly orderId: string;
  readonly remainingRaw: number;
  readonly createdAtMs: number;
}

/** A live order found on the venue (start-up, resync): live or partially-filled. */
export function adoptedOrder(params: AdoptParams, nowMs: number): TrackedOrder {
  const remainingRaw = Math.min(params.remainingRaw, params.sizeRaw);
  return {
    ...params,
    remainingRaw,
    state: remainingRaw < params.sizeRaw ? 'partially-filled' : 'live',
    filledRaw: 0,
    fills: [],
    updatedAtMs: nowMs,
    lastFillAtMs: null,
    reason: null,
    adopted: true,
    unknownSinceMs: null,
    lookupMisses: 0,
    lost: null,
  };
}

/** What the venue says of the order now (placement answer, status lookup, list, OME frame). */
export interface OrderReport {
  readonly orderId: string;
  readonly status: VenueOrderStatus;
  /** null: the venue did not say (unknown, never 0): the tracked remaining size stands. */
  readonly remainingRaw: number | null;
  readonly reason: string | null;
}

function restingState(order: TrackedOrder, remainingRaw: number): OrderState {
  if (remainingRaw === 0) return 'filled';
  return remainingRaw < order.sizeRaw || order.filledRaw > 0 ? 'partially-filled' : 'live';
}

function move(
  order: TrackedOrder,
  to: OrderState,
  cause: TransitionCause,
  patch: Partial<TrackedOrder>,
  nowMs: number,
  fills: readonly FillEmission[] = [],
): Applied {
  const illegal = checkTransition(order.clientOrderId, order.state, to, cause);
  if (illegal !== null) return { order, transition: null, illegal, fills };
  const next: TrackedOrder = { ...order, ...patch, state: to, updatedAtMs: nowMs };
  return { order: next, transition: order.state === to ? null : { from: order.state, to, cause }, illegal: null, fills };
}

export function applyReport(order: TrackedOrder, report: OrderReport, nowMs: number, options: { atPlacement?: boolean } = {}): Applied {
  const applied = reportTransition(order, report, nowMs, options);
  // Even when the state change is refused, learn the venue id (so the caller can act on that order).
  if (applied.illegal !== null && order.orderId === null) return { ...applied, order: { ...order, orderId: report.orderId, updatedAtMs: nowMs } };
  return applied;
}

/**
 * A report showing more traded than the order's fills account for: the order traded at a time no fill told us
 * (e.g. a maker fill whose frames were lost), at the latest now. `lastFillAtMs` then says now, so the cool-off and
 * reconcile's "filled since the quote" rule hold for that slot as for a fill we saw.
 */
function unseenTrade(order: TrackedOrder, remainingAfterRaw: number, nowMs: number): Partial<TrackedOrder> {
  return order.sizeRaw - remainingAfterRaw > order.filledRaw ? { lastFillAtMs: Math.max(order.lastFillAtMs ?? nowMs, nowMs) } : {};
}

function reportTransition(order: TrackedOrder, report: OrderReport, nowMs: number, options: { atPlacement?: boolean }): Applied {
  const orderId = order.orderId ?? report.orderId;
  const remainingRaw = report.remainingRaw === null ? order.remainingRaw : Math.max(0, Math.min(order.remainingRaw, report.remainingRaw));
  const reason = report.reason ?? order.reason;
  switch (report.status) {
    case 'LIVE': {
      const resting = restingState(order, remainingRaw);
      // Canceled stays canceled: a frame or answer saying "resting" was generated before the cancel (late).
      const keep = order.state === 'canceled' || (order.state === 'pending-cancel' && resting !== 'filled');
      const to = keep ? order.state : resting;
      return move(order, to, 'venue-report', { orderId, remainingRaw, ...unseenTrade(order, remainingRaw, nowMs) }, nowMs);
    }
    case 'MATCHED':
      return move(order, 'filled', 'venue-report', { orderId, remainingRaw: 0, ...unseenTrade(order, 0, nowMs) }, nowMs);
    case 'CANCELED':
    case 'UNMATCHED': {
      if (remainingRaw === 0) return move(order, 'filled', 'venue-report', { orderId, remainingRaw, ...unseenTrade(order, 0, nowMs) }, nowMs);
      const untouched = order.filledRaw === 0 && remainingRaw === order.sizeRaw;
      if (options.atPlacement === true && untouched && (order.state === 'pending-new' || order.state === 'unknown')) {
        return move(order, 'rejected', 'rejected', { orderId, remainingRaw, reason: reason ?? 'not-resting-at-placement' }, nowMs);
      }
      return move(order, 'canceled', 'venue-canceled', { orderId, remainingRaw, reason }, nowMs);
    }
  }
}

const SETTLEMENT_RANK: Readonly<Record<SettlementState, number>> = { provisional: 0, mined: 1, failed: 1 };

export function applyFill(
  order: TrackedOrder,
  fill: { readonly tradeEventId: string; readonly sizeRaw: number; readonly priceTicks: number; readonly settlement: SettlementState },
  atMs: number,
  nowMs: number,
): Applied {
  const existing = order.fills.find((f) => f.tradeEventId === fill.tradeEventId);
  let fills: readonly FillRecord[];
  let emission: FillEmission;
  if (existing !== undefined) {
    if (existing.settlement !== 'provisional' || SETTLEMENT_RANK[fill.settlement] <= SETTLEMENT_RANK[existing.settlement]) {
      return { order, transition: null, illegal: null, fills: [] };
    }
    const updated: FillRecord = { ...existing, settlement: fill.settlement };
    fills = order.fills.map((f) => (f === existing ? updated : f));
    emission = { fill: updated, update: true };
  } else {
    const record: FillRecord = { tradeEventId: fill.tradeEventId, sizeRaw: fill.sizeRaw, priceTicks: fill.priceTicks, settlement: fill.settlement, atMs };
    fills = [...order.fills, record];
    emission = { fill: record, update: false };
  }
  const filledRaw = fills.reduce((sum, f) => (f.settlement === 'failed' ? sum : sum + f.sizeRaw), 0);
  const traded = fill.settlement !== 'failed';
  const remainingRaw = traded ? Math.max(0, Math.min(order.remainingRaw, order.sizeRaw - filledRaw)) : order.remainingRaw;
  const lastFillAtMs = traded && existing === undefined ? Math.max(order.lastFillAtMs ?? atMs, atMs) : order.lastFillAtMs;
  const patch: Partial<TrackedOrder> = { fills, filledRaw, remainingRaw, lastFillAtMs };
  let to: OrderState;
  if (order.state === 'canceled' || order.state === 'rejected' || order.state === 'filled') to = order.state;
  else if (order.state === 'pending-cancel') to = remainingRaw === 0 ? 'filled' : 'pending-cancel';
  else to = restingState({ ...order, filledRaw }, remainingRaw);
  const applied = move(order, to, 'fill', patch, nowMs, [emission]);
  // Money moved even if the state change is refused: keep the fill, leave the state.
  if (applied.illegal !== null) return { ...applied, order: { ...order, ...patch, updatedAtMs: nowMs } };
  return applied;
}

export function requestCancel(order: TrackedOrder, nowMs: number): Applied {
  return move(order, 'pending-cancel', 'cancel-requested', {}, nowMs);
}

/** The cancel did not take and the order still rests. */
export function refuseCancel(order: TrackedOrder, nowMs: number): Applied {
  if (order.state !== 'pending-cancel') return { order, transition: null, illegal: null, fills: [] };
  return move(order, restingState(order, order.remainingRaw), 'cancel-refused', {}, nowMs);
}

export function confirmCancel(order: TrackedOrder, reason: string | null, nowMs: number): Applied {
  return move(order, 'canceled', 'venue-canceled', { reason: reason ?? order.reason }, nowMs);
}

export function markUnknown(order: TrackedOrder, nowMs: number): Applied {
  return move(order, 'unknown', 'outcome-unknown', { unknownSinceMs: nowMs, lookupMisses: 0 }, nowMs);
}

export function markRejected(order: TrackedOrder, reason: string, nowMs: number): Applied {
  return move(order, 'rejected', 'rejected', { reason }, nowMs);
}

/** Gives an unknown order up as lost: rejected, with its typed `lost` reason (and that reason's text as `reason`). */
export function markLost(order: TrackedOrder, nowMs: number, lost: LostReason = 'not-found-after-grace'): Applied {
  return move(order, 'rejected', 'lost', { reason: LOST_REASON_TEXT[lost], lost }, nowMs);
}

/** A status lookup answered not_found (no state change). */
export function recordLookupMiss(order: TrackedOrder, nowMs: number): TrackedOrder {
  return { ...order, lookupMisses: order.lookupMisses + 1, updatedAtMs: nowMs };
}
