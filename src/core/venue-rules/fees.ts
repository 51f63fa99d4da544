/**
 * The order book's taker fee curve (the venue's fee guide, exchange-facts §8), as an approximation: the guide gives the
 * ranges — buys 0.40–3.00 % (paid in outcome tokens), sells 0.42–1.50 % (paid in USDC), makers pay nothing — and
 * their direction (a buy's fee starts at its maximum on a long shot and falls as the probability rises; a sell's
 * peaks where the outcome is most uncertain), not the formula. This module's shape:
 *   buy  bps(t) = buyMin  + (buyMax  − buyMin)  · (999 − t) / 998            (t = the token's price in ticks)
 *   sell bps(t) = sellMin + (sellMax − sellMin) · 4 · t · (1000 − t) / 1e6
 * each rounded to a whole basis point. The bounds are settings (`FeeCurve`); the shape is this module's alone.
 *
 * Owns: the curve, and the value of a taker's fee in raw USDC (a fee in contracts at the fill's price). Invariants:
 * pure and exact (integers; the fee is rounded half up once), a price outside 1..999 ticks is a typed error.
 */
import { MAX_TICK, MIN_TICK } from './units.js';
import type { Side } from './units.js';

/** The curve's bounds in basis points (1 bp = 0.01 %). */
export interface FeeCurve {
  readonly buyMinBps: number;
  readonly buyMaxBps: number;
  readonly sellMinBps: number;
  readonly sellMaxBps: number;
}

/** The venue's fee guide: buys 0.40–3.00 %, sells 0.42–1.50 %. */
export const DEFAULT_FEE_CURVE: FeeCurve = { buyMinBps: 40, buyMaxBps: 300, sellMinBps: 42, sellMaxBps: 150 };

export class FeeCurveError extends Error {
  constructor(
    readonly field: string,
    readonly value: unknown,
    reason: string,
  ) {
    super(`${field} = ${String(value)}: ${reason}`);
    this.name = 'FeeCurveError';
  }
}

function checkTicks(ticks: number): void {
  if (!Number.isInteger(ticks) || ticks < MIN_TICK || ticks > MAX_TICK) throw new FeeCurveError('priceTicks', ticks, `expected an integer in ${MIN_TICK}..${MAX_TICK}`);
}

/** The taker's fee rate in basis points for a taker on `side` at `ticks` (the traded token's price). */
export function takerFeeBps(side: Side, ticks: number, curve: FeeCurve = DEFAULT_FEE_CURVE): number {
  checkTicks(ticks);
  if (side === 'BUY') return curve.buyMinBps + Math.round(((curve.buyMaxBps - curve.buyMinBps) * (MAX_TICK - ticks)) / (MAX_TICK - MIN_TICK));
  return curve.sellMinBps + Math.round(((curve.sellMaxBps - curve.sellMinBps) * 4 * ticks * (1000 - ticks)) / 1_000_000);
}

/** A fee of `bps` on `notionalRaw` (raw USDC), rounded half up. */
export function feeOfNotional(notionalRaw: number, bps: number): number {
  if (!Number.isSafeInteger(notionalRaw) || notionalRaw < 0) throw new FeeCurveError('notionalRaw', notionalRaw, 'expected a non-negative safe integer');
  if (!Number.isFinite(bps) || bps < 0) throw new FeeCurveError('bps', bps, 'expected a non-negative number');
  const scaled = BigInt(notionalRaw) * BigInt(Math.round(bps * 100));
  return Number((scaled + 500_000n) / 1_000_000n);
}
