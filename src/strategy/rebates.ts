/**
 * Maker rebate estimate (exchange-facts §8), pure: the venue pays makers a share (`rebateRate`) of the taker fees of
 * eligible markets. The taker of a maker fill traded the same token on the other side (a maker BUY met a taker SELL;
 * complementary matches — a taker buying the other token — are not visible to the maker and are estimated the same
 * way). The taker's fee is the rate its fill's report carried (`effectiveFeeBps`, source 'event') where present, else
 * the fee curve (src/core/venue-rules/fees.ts, source 'curve'), on the fill's notional (size × price, raw USDC); the
 * rebate is fee × rebateRate, rounded to a raw unit. Both the formula and the rate are unconfirmed: an ESTIMATE.
 */
import { collateralRaw, DEFAULT_FEE_CURVE, feeOfNotional, takerFeeBps } from '../core/venue-rules/index.js';
import type { FeeCurve, Side } from '../core/venue-rules/index.js';

export interface MakerFillForRebate {
  /** The maker's (the bot's) side. */
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
}

export interface RebateEstimate {
  readonly takerSide: Side;
  readonly takerFeeBps: number;
  readonly feeSource: 'event' | 'curve';
  /** The taker's fee valued in USDC, raw. */
  readonly takerFeeRaw: number;
  readonly rebateRate: number;
  readonly rebateRaw: number;
}

/** The rebate estimate of one maker fill; `reportedTakerFeeBps` is used when it is a positive finite number. */
export function estimateMakerRebate(
  fill: MakerFillForRebate,
  rebateRate: number,
  options: { readonly reportedTakerFeeBps?: number | undefined; readonly curve?: FeeCurve | undefined } = {},
): RebateEstimate {
  const takerSide: Side = fill.side === 'BUY' ? 'SELL' : 'BUY';
  const reported = options.reportedTakerFeeBps;
  const fromEvent = reported !== undefined && Number.isFinite(reported) && reported > 0;
  const bps = fromEvent ? reported : takerFeeBps(takerSide, fill.priceTicks, options.curve ?? DEFAULT_FEE_CURVE);
  const takerFeeRaw = feeOfNotional(collateralRaw(fill.sizeRaw, fill.priceTicks, 'SELL'), bps);
  const rate = Number.isFinite(rebateRate) ? Math.min(1, Math.max(0, rebateRate)) : 0;
  return { takerSide, takerFeeBps: bps, feeSource: fromEvent ? 'event' : 'curve', takerFeeRaw, rebateRate: rate, rebateRaw: Math.round(takerFeeRaw * rate) };
}
