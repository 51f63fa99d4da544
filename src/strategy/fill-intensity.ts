/**
 * Fill intensity λ(δ) = A·e^(−k·δ) (fills per time unit of a quote at distance δ from the mid),
 * estimated from the bot's own recent fills, with bounds and a configured fallback.
 *
 * Estimator: δᵢ is each fill's distance from the mid in force when it filled (the caller chooses the
 * metric: ticks, log-odds, …). k̂ = n / Σδᵢ (maximum likelihood of an exponential distance law) and
 * Â = (n / T)·e^(k̂·δ̄), the touch intensity that makes the observed rate fit at the mean distance,
 * with T the observed window. Own fills only show where the bot quoted, so this is a rough estimate:
 * it is used only with at least `minFills` fills, and k and A are limited to their bounds.
 */
import type { FillView, MarketView } from './contract.js';
import { cleanMidHistory, midAt } from './mid-history.js';
import { toYesTerms } from './yes-terms.js';

export interface IntensityBounds {
  readonly kMin: number;
  readonly kMax: number;
  readonly aMin: number;
  readonly aMax: number;
}

export interface IntensityOptions {
  readonly timeUnitMs: number;
  /** Only fills this recent count; the window is also cut to the span the mid history covers. */
  readonly windowMs: number;
  readonly minFills: number;
  readonly fallback: { readonly k: number; readonly a: number };
  readonly bounds: IntensityBounds;
  /** Distance (≥ 0) of a fill at YES ticks `fillYesTicks` from a YES mid `mid` (price units). */
  readonly distance: (fillYesTicks: number, mid: number) => number;
}

export interface IntensityEstimate {
  readonly k: number;
  readonly a: number;
  /** Fills that entered the fit. */
  readonly fills: number;
  /** False when the fallback was used. */
  readonly estimated: boolean;
}

export function estimateFillIntensity(
  fills: readonly FillView[],
  midHistory: MarketView['midHistory'],
  now: number,
  options: IntensityOptions,
): IntensityEstimate {
  const history = cleanMidHistory(midHistory);
  const first = history[0];
  const fallback: IntensityEstimate = { k: options.fallback.k, a: options.fallback.a, fills: 0, estimated: false };
  if (first === undefined) return fallback;
  const start = Math.max(now - options.windowMs, first.atMs);
  const span = (now - start) / options.timeUnitMs;
  if (!(span > 0)) return fallback;

  let n = 0;
  let sum = 0;
  for (const fill of fills) {
    if (!usableFill(fill, start, now)) continue;
    const mid = midAt(history, fill.atMs);
    if (mid === null) continue;
    const yes = toYesTerms(fill.token, fill.side, fill.priceTicks);
    const d = options.distance(yes.priceTicks, mid);
    if (!Number.isFinite(d) || d < 0) continue;
    n += 1;
    sum += d;
  }
  if (n < Math.max(1, options.minFills)) return { ...fallback, fills: n };
  const { kMin, kMax, aMin, aMax } = options.bounds;
  const k = clamp(sum > 0 ? n / sum : kMax, kMin, kMax);
  const a = clamp((n / span) * Math.exp(k * (sum / n)), aMin, aMax);
  return { k, a, fills: n, estimated: true };
}

function usableFill(fill: FillView, start: number, now: number): boolean {
  return (
    Number.isFinite(fill.atMs) &&
    fill.atMs >= start &&
    fill.atMs <= now &&
    Number.isInteger(fill.priceTicks) &&
    fill.priceTicks >= 1 &&
    fill.priceTicks <= 999
  );
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
