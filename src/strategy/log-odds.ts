/**
 * Log-odds: the coordinate in which prices in (0, 1) become unbounded, so model maths (reservation
 * prices, spreads, volatility) cannot push a quote across 0 or 1. logit maps (0, 1) → ℝ; logistic maps
 * back. Floats only: used inside strategy maths, never for anything sent.
 */

/** Prices are kept this far inside (0, 1) before taking the logit, so the result stays finite. */
export const LOGIT_EPSILON = 1e-9;

/** x = ln(p / (1 − p)); p is first limited to [ε, 1 − ε]. NaN in, NaN out. */
export function logit(p: number): number {
  const q = Math.min(1 - LOGIT_EPSILON, Math.max(LOGIT_EPSILON, p));
  return Math.log(q / (1 - q));
}

/** p = 1 / (1 + e^(−x)), computed without overflow for large |x|. NaN in, NaN out. */
export function logistic(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}
