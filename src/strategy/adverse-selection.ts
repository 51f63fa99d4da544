/**
 * Expected adverse selection per minute of quoting, from the markouts of past fills (the ledger's live, the backtests'
 * own), with a prior for markets with few fills. Pure.
 *
 * The view (`AdverseSelectionView`, put on `MarketView.adverseSelection` by the runner from a provider,
 * src/markouts/adverse-provider.ts) carries, per YES side, the sums of the market's fills and of the other markets of
 * its cadence over a lookback: fills, their exposure (minutes the bot quoted), and of the fills whose markouts at 0 and
 * at the horizon (60 s) are both known, their shares and Σ adverse selection = Σ (markout at 0 − markout at 60 s), USDC
 * (positive: the price ran through the fills).
 *
 * The estimate for quoting `size` shares on a side (docs/rewards.md states it):
 *
 *     perShare = (A + k·s·p₀) / (S + k·s)       rate = (F + M·r₀) / (E + M)       perMinute = rate × size × max(0, perShare)
 *
 * with A, S, F, E the group's adverse USDC, judged shares, fills and exposure minutes, k = `priorFills`, M =
 * `priorMinutes`, s = size, and (p₀, r₀) the prior: for the cadence, the strategy's own view; for the market, the
 * cadence's estimate. A market with no fills is quoted at its cadence's figures, a cadence with none at the strategy's.
 *
 * Invariants: every figure is finite; with no data at all the estimate is exactly the prior; the per-minute cost is
 * never negative (favourable fills do not pay for a quote: they only lower the cost towards 0).
 */
/** A YES side (src/strategy/yes-terms.ts `YesSide`; named here, as the contract imports this module). */
export type YesSide = 'bid' | 'ask';

/** Sums over a group of fills (one market, or the other markets of a cadence) on one YES side. */
export interface AdverseStats {
  /** Fills in the window (the fill rate's numerator). */
  readonly fills: number;
  /** Minutes the bot quoted the group in the window (the fill rate's denominator). */
  readonly exposureMinutes: number;
  /** Fills whose markouts at 0 and at the horizon are both known. */
  readonly judgedFills: number;
  /** Shares of those fills. */
  readonly judgedShares: number;
  /** Σ (markout at 0 − markout at the horizon) over those fills, USDC: positive = adverse selection. */
  readonly adverseUsdc: number;
}

export const NO_ADVERSE_STATS: AdverseStats = { fills: 0, exposureMinutes: 0, judgedFills: 0, judgedShares: 0, adverseUsdc: 0 };

/** What the markouts say about one market, for the strategy. */
export interface AdverseSelectionView {
  /** The horizon adverse selection is measured at, ms (60 s). */
  readonly horizonMs: number;
  /** The market's cadence (15m, hourly, daily, weekly), null when unknown (then `cadence` holds no data). */
  readonly cadenceName: string | null;
  readonly market: Readonly<Record<YesSide, AdverseStats>>;
  /** The OTHER markets of the same cadence (this market's fills are not counted twice). */
  readonly cadence: Readonly<Record<YesSide, AdverseStats>>;
}

export interface AdversePrior {
  /** Adverse selection per share filled, USDC (price units). */
  readonly perShareUsdc: number;
  readonly fillsPerMinute: number;
}

export interface AdverseWeights {
  /** The prior's weight in fills of `size` shares. */
  readonly priorFills: number;
  /** The prior's weight in minutes of exposure. */
  readonly priorMinutes: number;
}

export type AdverseSource = 'market' | 'cadence' | 'strategy';

export interface AdverseEstimate {
  readonly perShareUsdc: number;
  readonly fillsPerMinute: number;
  /** fillsPerMinute × size × max(0, perShareUsdc), USDC per minute. */
  readonly perMinuteUsdc: number;
  /** The most specific level with at least `priorFills` judged fills (else 'strategy'): what mostly decided it. */
  readonly source: AdverseSource;
}

/** A group's figures shrunk toward `prior` (the formula in the header). */
export function shrinkAdverse(stats: AdverseStats, prior: AdversePrior, sizeShares: number, weights: AdverseWeights): AdversePrior {
  const k = Math.max(0, weights.priorFills) * Math.max(0, sizeShares);
  const m = Math.max(0, weights.priorMinutes);
  const shares = Math.max(0, stats.judgedShares);
  const minutes = Math.max(0, stats.exposureMinutes);
  const perShareUsdc = shares + k > 0 ? (stats.adverseUsdc + k * prior.perShareUsdc) / (shares + k) : prior.perShareUsdc;
  const fillsPerMinute = minutes + m > 0 ? (stats.fills + m * prior.fillsPerMinute) / (minutes + m) : prior.fillsPerMinute;
  return { perShareUsdc: finite(perShareUsdc, prior.perShareUsdc), fillsPerMinute: finite(fillsPerMinute, prior.fillsPerMinute) };
}

/** The expected adverse selection per minute of keeping `sizeShares` on `side`: strategy → cadence → market. */
export function expectedAdverseSelection(
  view: AdverseSelectionView,
  side: YesSide,
  strategyPrior: AdversePrior,
  sizeShares: number,
  weights: AdverseWeights,
): AdverseEstimate {
  const cadence = shrinkAdverse(view.cadence[side], strategyPrior, sizeShares, weights);
  const market = shrinkAdverse(view.market[side], cadence, sizeShares, weights);
  const enough = (s: AdverseStats): boolean => s.judgedFills > 0 && s.judgedFills >= weights.priorFills;
  const source: AdverseSource = enough(view.market[side]) ? 'market' : enough(view.cadence[side]) ? 'cadence' : 'strategy';
  const perMinuteUsdc = Math.max(0, market.fillsPerMinute) * Math.max(0, sizeShares) * Math.max(0, market.perShareUsdc);
  return { perShareUsdc: market.perShareUsdc, fillsPerMinute: market.fillsPerMinute, perMinuteUsdc, source };
}

function finite(value: number, fallback: number): number {
  return Number.isFinite(value) ? value : fallback;
}
