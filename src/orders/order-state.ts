/**
 * Order states and the transition table, as data.
 *
 * Owns: which state changes are legal and why (`cause`). Everything else (what the venue said, how much
 * filled) lives in order-record.ts; this module only answers "may an order go from A to B because of C".
 *
 * Invariants:
 * - filled, canceled and rejected are terminal: nothing leaves them (a fill after a cancel is recorded as a
 *   fill, the order stays canceled);
 * - unknown is never rejected by a venue report: only a placement refusal ('rejected') or repeated
 *   not-found answers after a grace time ('lost') end an unknown order as rejected;
 * - a repeat of the current state is always legal and changes nothing (duplicate and stale events);
 * - a partial fill while a cancel is in flight keeps pending-cancel (the cancel is still coming; the slot
 *   stays frozen), a full fill ends it as filled.
 */

export const ORDER_STATES = [
  'pending-new',
  'live',
  'partially-filled',
  'filled',
  'pending-cancel',
  'canceled',
  'rejected',
  'unknown',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export const TRANSITION_CAUSES = [
  /** The venue reports the order resting or (partly) matched: placement answer, status lookup, OME frame. */
  'venue-report',
  /** A settlement (or placement answer) reports a fill of this order. */
  'fill',
  /** The bot sends a cancel. */
  'cancel-requested',
  /** The cancel did not take: the venue still holds the order resting. */
  'cancel-refused',
  /** The venue reports the order canceled (ours, STP, cancel-all, FAK remainder killed...). */
  'venue-canceled',
  /** The venue refused the placement (validation, post-only crossing, STP taker reject, mode block). */
  'rejected',
  /** The placement got no answer (timeout, 5xx, dropped connection). */
  'outcome-unknown',
  /** An unknown placement was looked up and not found, enough times after the grace time. */
  'lost',
] as const;
export type TransitionCause = (typeof TRANSITION_CAUSES)[number];

export interface TransitionRule {
  readonly from: OrderState;
  readonly to: OrderState;
  readonly on: TransitionCause;
}

const rules = (on: TransitionCause, pairs: readonly (readonly [OrderState, OrderState])[]): TransitionRule[] =>
  pairs.map(([from, to]) => ({ from, to, on }));

/** Every legal change of state (a repeat of the current state is legal too and not listed). */
export const TRANSITIONS: readonly TransitionRule[] = Object.freeze([
  ...rules('venue-report', [
    ['pending-new', 'live'],
    ['pending-new', 'partially-filled'],
    ['pending-new', 'filled'],
    ['unknown', 'live'],
    ['unknown', 'partially-filled'],
    ['unknown', 'filled'],
    ['live', 'partially-filled'],
    ['live', 'filled'],
    ['partially-filled', 'filled'],
    ['pending-cancel', 'filled'],
  ]),
  ...rules('fill', [
    ['pending-new', 'partially-filled'],
    ['pending-new', 'filled'],
    ['unknown', 'partially-filled'],
    ['unknown', 'filled'],
    ['live', 'partially-filled'],
    ['live', 'filled'],
    ['partially-filled', 'filled'],
    ['pending-cancel', 'filled'],
  ]),
  ...rules('cancel-requested', [
    ['live', 'pending-cancel'],
    ['partially-filled', 'pending-cancel'],
  ]),
  ...rules('cancel-refused', [
    ['pending-cancel', 'live'],
    ['pending-cancel', 'partially-filled'],
  ]),
  ...rules('venue-canceled', [
    ['pending-new', 'canceled'],
    ['unknown', 'canceled'],
    ['live', 'canceled'],
    ['partially-filled', 'canceled'],
    ['pending-cancel', 'canceled'],
  ]),
  ...rules('rejected', [
    ['pending-new', 'rejected'],
    ['unknown', 'rejected'],
  ]),
  ...rules('outcome-unknown', [['pending-new', 'unknown']]),
  ...rules('lost', [['unknown', 'rejected']]),
]);

const LEGAL = new Set(TRANSITIONS.map((rule) => `${rule.from}>${rule.to}>${rule.on}`));

export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
  constructor(
    readonly clientOrderId: string,
    readonly from: OrderState,
    readonly to: OrderState,
    readonly trigger: TransitionCause,
  ) {
    super(`order ${clientOrderId}: illegal transition ${from} → ${to} on ${trigger}`);
  }
}

export function isLegalTransition(from: OrderState, to: OrderState, cause: TransitionCause): boolean {
  return from === to || LEGAL.has(`${from}>${to}>${cause}`);
}

/** Null when legal, else the typed error (for the caller to log and ignore). */
export function checkTransition(
  clientOrderId: string,
  from: OrderState,
  to: OrderState,
  cause: TransitionCause,
): IllegalTransitionError | null {
  return isLegalTransition(from, to, cause) ? null : new IllegalTransitionError(clientOrderId, from, to, cause);
}

const TERMINAL: ReadonlySet<OrderState> = new Set(['filled', 'canceled', 'rejected']);
const RESTING: ReadonlySet<OrderState> = new Set(['live', 'partially-filled']);
const FROZEN: ReadonlySet<OrderState> = new Set(['pending-new', 'pending-cancel', 'unknown']);

/** Nothing leaves a terminal state. */
export function isTerminal(state: OrderState): boolean {
  return TERMINAL.has(state);
}

/** Open = not terminal: the order may be on the book (or may become so). */
export function isOpen(state: OrderState): boolean {
  return !TERMINAL.has(state);
}

/** Known to be resting on the book and not being canceled. */
export function isResting(state: OrderState): boolean {
  return RESTING.has(state);
}

/** Waiting on the venue: no new placement in the slot until it resolves. */
export function isFrozen(state: OrderState): boolean {
  return FROZEN.has(state);
}

/**
 * The size an order may still trade, for limits and budgets: an order whose placement is unanswered
 * (pending-new, unknown) counts at its full size; a resting or cancelling one at its remaining size;
 * a terminal one not at all.
 */
export function exposureSizeRaw(order: { readonly state: OrderState; readonly sizeRaw: number; readonly remainingRaw: number }): number {
  if (isTerminal(order.state)) return 0;
  if (order.state === 'pending-new' || order.state === 'unknown') return order.sizeRaw;
  return order.remainingRaw;
}
