/**
 * Taker fees: the flat rate (the order's signed `feeRateBps`) or the venue's dynamic curve in the price, and the fee
 * of each fill of a taker order. Pure.
 *
 * The venue's fee guide (exchange-facts §8) gives ranges only: on the order book a taker BUY pays 0.40–3.00 %, highest
 * for low-probability tokens and falling as the price rises; a taker SELL pays 0.42–1.50 %, highest near 0.50 and
 * tapering towards either end; makers pay nothing. The exact curve is NOT published: the simulator's approximation is
 *   buy  bps(p) = buyMin  + (buyMax  − buyMin)  × (1 − p)²
 *   sell bps(p) = sellMin + (sellMax − sellMin) × 4p(1 − p)
 * (p the fill's price of the taker's own token), rounded to whole basis points, and never above the order's signed
 * `feeRateBps` (the official client's Execution.feeRateBps: "fee rate ceiling"). The venue takes a BUY's fee in outcome
 * tokens; the simulator takes every fee in USDC (on top of a BUY, out of a SELL's proceeds), its value at the fill price.
 *
 * Invariants: integer arithmetic throughout; a fee is rounded up to the raw unit (per fill on the curve, once per
 * execution at the flat rate); the fees of a plan's fills sum to the order's fee.
 */
import { TICKS_PER_UNIT, type Side } from '../../core/venue-rules/index.js';
import { EngineConfigError } from './errors.js';
import type { FeeCurve, FeeModel, FeeOptions } from './types-rewards.js';

export const FEE_MODELS: readonly FeeModel[] = ['curve', 'flat'];

/** The documented ranges: buys 0.40–3.00 %, sells 0.42–1.50 %. */
export const VENUE_FEE_CURVE: FeeCurve = { buyMinBps: 40, buyMaxBps: 300, sellMinBps: 42, sellMaxBps: 150 };

export interface ResolvedFees {
  readonly model: FeeModel;
  readonly curve: FeeCurve;
}

export function resolveFees(options: FeeOptions | undefined, fallback: FeeModel): ResolvedFees {
  const model = options?.model ?? fallback;
  if (!FEE_MODELS.includes(model)) throw new EngineConfigError('fees.model', model, `must be one of ${FEE_MODELS.join(', ')}`);
  const curve = { ...VENUE_FEE_CURVE, ...options?.curve };
  for (const [key, value] of Object.entries(curve)) {
    if (!Number.isInteger(value) || value < 0 || value > 10_000) throw new EngineConfigError(`fees.curve.${key}`, value, 'must be an integer number of basis points in [0, 10000]');
  }
  if (curve.buyMinBps > curve.buyMaxBps) throw new EngineConfigError('fees.curve.buyMinBps', curve.buyMinBps, `must not exceed buyMaxBps ${curve.buyMaxBps}`);
  if (curve.sellMinBps > curve.sellMaxBps) throw new EngineConfigError('fees.curve.sellMinBps', curve.sellMinBps, `must not exceed sellMaxBps ${curve.sellMaxBps}`);
  return { model, curve };
}

const T = TICKS_PER_UNIT;

/** The curve's rate for a taker `side` at `priceTicks` (its own token's price), whole basis points. */
export function curveFeeBps(side: Side, priceTicks: number, curve: FeeCurve = VENUE_FEE_CURVE): number {
  const p = Math.min(T, Math.max(0, priceTicks));
  if (side === 'BUY') {
    const q = T - p;
    return curve.buyMinBps + Math.round(((curve.buyMaxBps - curve.buyMinBps) * q * q) / (T * T));
  }
  return curve.sellMinBps + Math.round(((curve.sellMaxBps - curve.sellMinBps) * 4 * p * (T - p)) / (T * T));
}

/** The rate a taker fill pays: the signed ceiling (flat), or the curve's rate capped by it. */
export function takerFeeBps(fees: ResolvedFees, side: Side, priceTicks: number, ceilingBps: number): number {
  if (fees.model === 'flat') return ceilingBps;
  return Math.min(ceilingBps, curveFeeBps(side, priceTicks, fees.curve));
}

/** Taker fee on `notionalRaw` at `bps`, rounded up. */
export function takerFee(notionalRaw: number, bps: number): number {
  return Number((BigInt(notionalRaw) * BigInt(bps) + 9_999n) / 10_000n);
}

/** One fill as the fee needs it: its price in the taker's token and the taker's collateral. */
export interface FeeFill {
  readonly takerTicks: number;
  readonly takerCollateralRaw: number;
}

/**
 * The fee of each fill of a taker order, in order. On the curve each fill pays the rate at its own price; at the flat
 * rate the fee is charged once over the whole execution and spread over the fills pro rata to their collateral (the
 * last takes the remainder), as the simulator always did.
 */
export function fillFees(fees: ResolvedFees, side: Side, fills: readonly FeeFill[], ceilingBps: number): number[] {
  if (fees.model === 'curve') return fills.map((f) => takerFee(f.takerCollateralRaw, takerFeeBps(fees, side, f.takerTicks, ceilingBps)));
  const collateral = fills.reduce((sum, f) => sum + f.takerCollateralRaw, 0);
  const total = takerFee(collateral, ceilingBps);
  let left = total;
  return fills.map((f, index) => {
    const fee = index === fills.length - 1 ? left : Number((BigInt(total) * BigInt(f.takerCollateralRaw)) / BigInt(Math.max(1, collateral)));
    left -= fee;
    return fee;
  });
}
