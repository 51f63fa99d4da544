/**
 * Maker rebate estimate (exchange-facts §8), pure: the venue pays makers a share (`rebateRate`) of the taker fees of
 * eligible markets. The rebate is the taker's fee × rebateRate, rounded to a raw unit; the taker's fee is its rate
 * (the rate its fill's report carried, `effectiveFeeBps`, where present, else the fee curve of
 * src/core/venue-rules/fees.ts) on the TAKER's notional. Who the taker was decides both:
 * - a same-token match: the taker traded the maker's token on the other side at the maker's price p (a maker BUY met
 *   a taker SELL): its fee branch is the opposite of the maker's side, its notional size × p;
 * - a complementary match: the taker traded the OTHER token on the maker's side at 1 − p (a maker BUY of NO met a
 *   taker BUY of YES, matched by minting; a maker SELL met a taker SELL of the other token, by merging): its fee
 *   branch is the maker's side, its notional size × (1 − p). About p / (1 − p) times smaller on a bid near 0.95.
 * The maker's own fill does not say which (its report carries effectiveFeeBps 0). The public trade feed does (the
 * trade's taker `side` and `tokenId`, matched by txHash): `estimateRebateFromTrade` (source 'trade'). Until then
 * `estimateMakerRebate` blends both kinds with a prior share of buying takers (`rewards.takerBuyShare`): a maker BUY
 * is complementary when its taker bought, a maker SELL when its taker sold. With no prior share: the same-token
 * estimate. The formula, the curve and the rate are unconfirmed: every figure here is an ESTIMATE.
 */
import { collateralRaw, DEFAULT_FEE_CURVE, feeOfNotional, TICKS_PER_UNIT, takerFeeBps } from '../core/venue-rules/index.js';
import type { FeeCurve, Side } from '../core/venue-rules/index.js';

export interface MakerFillForRebate {
  /** The maker's (the bot's) side. */
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
}

/** Whether the taker traded the maker's token ('same') or the other one ('complementary'). */
export type MatchKind = 'same' | 'complementary';
export type RebateFeeSource = 'event' | 'curve' | 'trade';

export interface RebateEstimate {
  /** The taker's fee branch; null for the prior's blend of both kinds of match. */
  readonly takerSide: Side | null;
  /** null for the prior's blend. */
  readonly match: MatchKind | null;
  /** The taker's rate (the reported one where given); for a curve blend, the fee's rate on the maker's notional (two decimals). */
  readonly takerFeeBps: number;
  readonly feeSource: RebateFeeSource;
  /** The taker's fee valued in USDC, raw. */
  readonly takerFeeRaw: number;
  readonly rebateRate: number;
  readonly rebateRaw: number;
  /** The share of buying takers the blend assumed; null when none (one kind of match). */
  readonly priorShare: number | null;
}

export interface RebateOptions {
  /** The taker's rate its fill's report carried; used when a positive finite number. */
  readonly reportedTakerFeeBps?: number | undefined;
  readonly curve?: FeeCurve | undefined;
  /** The prior share of buying takers (0..1); absent or null: the same-token estimate alone. */
  readonly takerBuyShare?: number | null | undefined;
}

interface Branch {
  readonly takerSide: Side;
  readonly bps: number;
  readonly feeRaw: number;
}

function clampRate(rate: number): number {
  return Number.isFinite(rate) ? Math.min(1, Math.max(0, rate)) : 0;
}

function reported(options: RebateOptions): number | null {
  const bps = options.reportedTakerFeeBps;
  return bps !== undefined && Number.isFinite(bps) && bps > 0 ? bps : null;
}

/** The taker's fee of one kind of match: its side and price follow from the maker's fill. */
function branch(fill: MakerFillForRebate, match: MatchKind, options: RebateOptions): Branch {
  const opposite: Side = fill.side === 'BUY' ? 'SELL' : 'BUY';
  const takerSide = match === 'same' ? opposite : fill.side;
  const takerTicks = match === 'same' ? fill.priceTicks : TICKS_PER_UNIT - fill.priceTicks;
  const bps = reported(options) ?? takerFeeBps(takerSide, takerTicks, options.curve ?? DEFAULT_FEE_CURVE);
  return { takerSide, bps, feeRaw: feeOfNotional(collateralRaw(fill.sizeRaw, takerTicks, 'SELL'), bps) };
}

function single(b: Branch, match: MatchKind, source: RebateFeeSource, rate: number): RebateEstimate {
  const r = clampRate(rate);
  return { takerSide: b.takerSide, match, takerFeeBps: b.bps, feeSource: source, takerFeeRaw: b.feeRaw, rebateRate: r, rebateRaw: Math.round(b.feeRaw * r), priorShare: null };
}

/** The chance that a maker fill on `side` was a complementary match, given the share of buying takers. */
export function complementaryChance(side: Side, takerBuyShare: number): number {
  const share = Math.min(1, Math.max(0, takerBuyShare));
  return side === 'BUY' ? share : 1 - share;
}

/**
 * The rebate estimate of one maker fill before its trade is known: the same-token estimate, or with a prior share of
 * buying takers the expected fee over both kinds of match.
 */
export function estimateMakerRebate(fill: MakerFillForRebate, rebateRate: number, options: RebateOptions = {}): RebateEstimate {
  const source: RebateFeeSource = reported(options) === null ? 'curve' : 'event';
  const same = branch(fill, 'same', options);
  const share = options.takerBuyShare;
  if (share === undefined || share === null || !Number.isFinite(share)) return single(same, 'same', source, rebateRate);
  const q = complementaryChance(fill.side, share);
  if (q === 0) return { ...single(same, 'same', source, rebateRate), priorShare: share };
  const comp = branch(fill, 'complementary', options);
  if (q === 1) return { ...single(comp, 'complementary', source, rebateRate), priorShare: share };
  const feeRaw = Math.round((1 - q) * same.feeRaw + q * comp.feeRaw);
  const notional = collateralRaw(fill.sizeRaw, fill.priceTicks, 'SELL');
  const bps = reported(options) ?? (notional > 0 ? Math.round((feeRaw * 1_000_000) / notional) / 100 : 0);
  const r = clampRate(rebateRate);
  return { takerSide: null, match: null, takerFeeBps: bps, feeSource: source, takerFeeRaw: feeRaw, rebateRate: r, rebateRaw: Math.round(feeRaw * r), priorShare: share };
}

/** The taker of a public trade as the feed reports it: its side and the token it traded. */
export interface TakerTrade {
  readonly side: Side;
  readonly tokenId: string;
}

/**
 * Which kind of match a maker fill of `fill.tokenId` on `fill.side` was, given its trade's taker; null when the two
 * cannot be one match (the same token on the same side, or the other token on the opposite side).
 */
export function matchKindOf(fill: { readonly tokenId: string; readonly side: Side }, taker: TakerTrade): MatchKind | null {
  if (taker.tokenId === fill.tokenId) return taker.side !== fill.side ? 'same' : null;
  return taker.side === fill.side ? 'complementary' : null;
}

/**
 * The rebate of a maker fill whose taker is known from the trade feed (source 'trade'): the taker's fee branch and
 * price from the kind of match (the taker's price of THIS fill is exact: p or 1 − p, where the trade's `price` is an
 * average over all its makers); null when the trade's taker cannot have met this fill.
 */
export function estimateRebateFromTrade(
  fill: MakerFillForRebate & { readonly tokenId: string },
  taker: TakerTrade,
  rebateRate: number,
  options: Pick<RebateOptions, 'curve' | 'reportedTakerFeeBps'> = {},
): RebateEstimate | null {
  const match = matchKindOf(fill, taker);
  if (match === null) return null;
  return single(branch(fill, match, options), match, 'trade', rebateRate);
}
