/**
 * Online volatility of the mid in log-odds, per √(time unit), from the view's mid history.
 *
 * Estimator: time-weighted realised variance with exponential decay, σ² = Σ wᵢ·Δxᵢ² / Σ wᵢ·Δtᵢ over
 * consecutive points (x = logit(mid), wᵢ = 2^(−age/halfLife)); it copes with irregular sampling.
 * Warm-up: with n < N observations the estimate is blended with the configured fallback,
 * σ² = (n·σ̂² + (N − n)·σ_fb²) / N, so a thin market quotes sensibly from the first minute and moves
 * smoothly onto its own estimate. The result is limited to [min, max].
 *
 * Pure: the same history and `now` always give the same σ.
 */
import type { MarketView } from './contract.js';
import { logit } from './log-odds.js';
import { cleanMidHistory } from './mid-history.js';

export interface VolatilityOptions {
  /** Length of the time unit σ is expressed per √ of, in ms (e.g. 3,600,000 for per √hour). */
  readonly timeUnitMs: number;
  readonly halfLifeMs: number;
  /** Observations (mid intervals) needed before the estimate stands alone. */
  readonly warmupObservations: number;
  readonly fallbackSigma: number;
  readonly minSigma: number;
  readonly maxSigma: number;
}

export interface VolatilityEstimate {
  /** σ to use, in log-odds per √(time unit). */
  readonly sigma: number;
  /** σ̂ from the history alone; null with no usable interval. */
  readonly estimated: number | null;
  readonly observations: number;
  /** True once observations ≥ warmupObservations. */
  readonly warm: boolean;
}

export function estimateLogOddsVolatility(
  midHistory: MarketView['midHistory'],
  now: number,
  options: VolatilityOptions,
): VolatilityEstimate {
  const history = cleanMidHistory(midHistory).filter((p) => p.atMs <= now);
  let weightedSq = 0;
  let weightedTime = 0;
  let observations = 0;
  for (let i = 1; i < history.length; i += 1) {
    const prev = history[i - 1];
    const cur = history[i];
    if (prev === undefined || cur === undefined) continue;
    const dt = (cur.atMs - prev.atMs) / options.timeUnitMs;
    if (!(dt > 0)) continue;
    const dx = logit(cur.mid) - logit(prev.mid);
    const weight = Math.pow(2, -(now - cur.atMs) / options.halfLifeMs);
    weightedSq += weight * dx * dx;
    weightedTime += weight * dt;
    observations += 1;
  }
  const estimatedVar = weightedTime > 0 ? weightedSq / weightedTime : null;
  const needed = Math.max(0, options.warmupObservations);
  const fallbackVar = options.fallbackSigma * options.fallbackSigma;
  let variance: number;
  if (estimatedVar === null) variance = fallbackVar;
  else if (observations >= needed) variance = estimatedVar;
  else variance = (observations * estimatedVar + (needed - observations) * fallbackVar) / needed;
  const sigma = Math.min(options.maxSigma, Math.max(options.minSigma, Math.sqrt(variance)));
  return {
    sigma: Number.isFinite(sigma) ? sigma : options.fallbackSigma,
    estimated: estimatedVar === null ? null : Math.sqrt(estimatedVar),
    observations,
    warm: observations >= needed,
  };
}
