/**
 * Position and PnL arithmetic, pure and exact (raw integers, BigInt for products).
 *
 * Average-cost method, per (market, token). State: signed position q (raw tokens) and the signed cost
 * basis C of that position (raw USDC; a short's basis is negative: the proceeds received). The average
 * cost is the rational C / q, never stored as a float.
 * - A trade that grows |q| (or opens from flat) adds its collateral to C.
 * - A trade that shrinks |q| removes the closed share of the basis, C × closed / |q|, rounded to the
 *   nearest raw unit (half away from zero); closing the whole position takes exactly C, so rounding
 *   never accumulates past one raw unit per partial close and vanishes when flat. Realized PnL is the
 *   closed collateral minus the closed basis (long), or the closed basis minus the paid collateral (short).
 * - A trade larger than |q| closes q and opens the rest in the other direction; its collateral is split
 *   pro rata (nearest raw unit), the remainder exactly to the new position.
 * - An `adjustment` (reconciliation) moves q like a trade but realizes nothing: a decrease removes basis
 *   at the average cost; an increase adds the collateral the repair priced it at. One exception, a merge leg: an
 *   adjustment that shrinks a long with collateral > 0 (its share of the USDC a complete-set merge paid, see
 *   `mergeLegCollateral`) realizes that collateral minus the closed basis, as a sale would (a reconciliation's
 *   decrease carries no collateral, so it still realizes nothing).
 * Invariant (cash conservation): Σ signed cash flows of trades = Σ realized + C, exactly.
 *
 * Valuation: a YES+NO pair is worth exactly 1 USDC (it can be merged), so pairs = min(YES, NO) are
 * valued at 1 without a mark; the rest is marked at the YES mid (YES) or 1 − mid (NO). Resolution pays
 * q × numerator / (yes + no numerators), rounded down as the chain does.
 */
import type { Side } from '../core/venue-rules/index.js';
import { RAW_PER_UNIT } from '../core/venue-rules/index.js';
import type { FillKind } from './types.js';

export interface PositionState {
  readonly positionRaw: number;
  readonly costRaw: number;
}

export const FLAT: PositionState = { positionRaw: 0, costRaw: 0 };

export interface PositionEvent {
  readonly kind: FillKind;
  readonly side: Side;
  readonly sizeRaw: number;
  /** Trade: collateral paid or received. Adjustment: the cost added when it grows the position. */
  readonly collateralRaw: number;
}

export interface PositionStep {
  readonly state: PositionState;
  readonly realizedRaw: number;
}

/** a / b rounded to the nearest integer, halves away from zero; b > 0. */
export function roundDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  const twiceRemainder = (a % b) * 2n;
  if (twiceRemainder >= b) return quotient + 1n;
  if (-twiceRemainder >= b) return quotient - 1n;
  return quotient;
}

export function toSafe(value: bigint, what: string): number {
  const result = Number(value);
  if (!Number.isSafeInteger(result)) throw new RangeError(`${what} exceeds the safe integer range: ${value}`);
  return result;
}

/** round(numerator × multiplier / divisor) in raw units. */
function share(value: number, multiplier: number, divisor: number): number {
  return toSafe(roundDiv(BigInt(value) * BigInt(multiplier), BigInt(divisor)), 'share');
}

export function applyPositionEvent(state: PositionState, event: PositionEvent): PositionStep {
  const delta = event.side === 'BUY' ? event.sizeRaw : -event.sizeRaw;
  const q = state.positionRaw;
  const signedCollateral = event.side === 'BUY' ? event.collateralRaw : -event.collateralRaw;
  if (q === 0 || Math.sign(delta) === Math.sign(q)) {
    return { state: { positionRaw: q + delta, costRaw: state.costRaw + signedCollateral }, realizedRaw: 0 };
  }
  const absQ = Math.abs(q);
  const closed = Math.min(event.sizeRaw, absQ);
  const closedBasis = closed === absQ ? state.costRaw : share(state.costRaw, closed, absQ);
  const closedCollateral =
    closed === event.sizeRaw ? event.collateralRaw : share(event.collateralRaw, closed, event.sizeRaw);
  let realizedRaw = 0;
  const mergeLeg = event.kind === 'adjustment' && event.side === 'SELL' && q > 0 && event.collateralRaw > 0;
  if (event.kind === 'trade' || mergeLeg) {
    // Long (q > 0) sells: receive collateral, give up basis. Short (q < 0, basis negative) buys back.
    realizedRaw = q > 0 ? closedCollateral - closedBasis : -closedBasis - closedCollateral;
  }
  const opened = event.sizeRaw - closed;
  if (opened === 0) {
    return { state: { positionRaw: q + delta, costRaw: state.costRaw - closedBasis }, realizedRaw };
  }
  const openedCollateral = event.collateralRaw - closedCollateral;
  const openedCost = event.side === 'BUY' ? openedCollateral : -openedCollateral;
  return { state: { positionRaw: q + delta, costRaw: openedCost }, realizedRaw };
}

export interface ReplayStep extends PositionStep {
  readonly before: PositionState;
}

/** Folds events in order from flat; returns the final state, total realized and each step. */
export function replayPosition(events: readonly PositionEvent[]): {
  state: PositionState;
  realizedRaw: number;
  steps: ReplayStep[];
} {
  let state = FLAT;
  let realizedRaw = 0;
  const steps: ReplayStep[] = [];
  for (const event of events) {
    const step = applyPositionEvent(state, event);
    steps.push({ ...step, before: state });
    state = step.state;
    realizedRaw += step.realizedRaw;
  }
  return { state, realizedRaw, steps };
}

/** Average cost in price units (display and strategy maths only); null when flat. */
export function averageCost(state: PositionState): number | null {
  return state.positionRaw === 0 ? null : state.costRaw / state.positionRaw;
}

/** Average cost in millionths of a unit (C / q × 1e6, nearest), exact integer arithmetic; q ≠ 0. */
export function averageCostMicros(state: PositionState): bigint {
  const sign = state.positionRaw < 0 ? -1n : 1n;
  return roundDiv(sign * BigInt(state.costRaw) * BigInt(RAW_PER_UNIT), sign * BigInt(state.positionRaw));
}

/** Average cost as an exact-to-1e-6 decimal string ("0.512345"), rounded to nearest; null when flat. */
export function averageCostDecimal(state: PositionState): string | null {
  if (state.positionRaw === 0) return null;
  const micros = averageCostMicros(state);
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const whole = abs / 1_000_000n;
  const fraction = (abs % 1_000_000n).toString().padStart(6, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Value of q raw tokens at a price in millionths, nearest raw unit. */
export function markValue(positionRaw: number, priceMicros: number): number {
  return share(positionRaw, priceMicros, RAW_PER_UNIT);
}

/**
 * Market value of a YES/NO holding: pairs at 1 each, the rest at the mark (YES at mid, NO at 1 − mid).
 * null when part of the holding needs a mark and there is none.
 */
export function holdingValue(yesRaw: number, noRaw: number, midMicros: number | null): number | null {
  const pairs = Math.max(0, Math.min(yesRaw, noRaw));
  const restYes = yesRaw - pairs;
  const restNo = noRaw - pairs;
  if (restYes === 0 && restNo === 0) return pairs;
  if (midMicros === null) return null;
  return pairs + markValue(restYes, midMicros) + markValue(restNo, RAW_PER_UNIT - midMicros);
}

/** What q raw tokens pay at resolution: floor(q × numerator / (yes + no)); negative q mirrors it. */
export function resolutionPayout(positionRaw: number, numerator: number, denominator: number): number {
  const magnitude = (BigInt(Math.abs(positionRaw)) * BigInt(numerator)) / BigInt(denominator);
  return toSafe(positionRaw < 0 ? -magnitude : magnitude, 'payout');
}

/** The basis `closed` tokens of a position carry (what applyPositionEvent removes when they leave it). */
export function closedBasis(state: PositionState, closed: number): number {
  const absQ = Math.abs(state.positionRaw);
  if (closed <= 0 || absQ === 0) return 0;
  return closed >= absQ ? state.costRaw : share(state.costRaw, closed, absQ);
}

/**
 * How the USDC of a merge of `sets` complete sets (exactly `sets` raw: 1 per set) splits between its YES and NO legs:
 * pro rata to the basis each leg gives up (half each when neither has a positive basis), so each leg realizes its
 * share of the pairs' unrealized gain. Needs sets ≤ both long positions. The two shares sum to `sets` exactly.
 */
export function mergeLegCollateral(yes: PositionState, no: PositionState, sets: number): { readonly yesRaw: number; readonly noRaw: number } {
  if (!Number.isSafeInteger(sets) || sets <= 0 || sets > yes.positionRaw || sets > no.positionRaw) {
    throw new RangeError(`merge of ${sets} sets needs that many YES and NO held (YES ${yes.positionRaw}, NO ${no.positionRaw})`);
  }
  const basisYes = Math.max(0, closedBasis(yes, sets));
  const basisNo = Math.max(0, closedBasis(no, sets));
  const total = basisYes + basisNo;
  const yesRaw = total > 0 ? share(sets, basisYes, total) : Math.ceil(sets / 2);
  return { yesRaw, noRaw: sets - yesRaw };
}
