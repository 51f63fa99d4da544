/**
 * Calibration scores of probability forecasts against resolved outcomes: log-loss and the Brier score (lower is
 * better for both). Used to judge the model's fair values against the book's mids on resolved markets.
 *
 * Owns: the two scores (pure). Invariants: an empty list is an error (a score of nothing means nothing); p is
 * clipped to [1e-15, 1 − 1e-15] in the log-loss so a confident miss costs a large, finite amount.
 */
export interface Prediction {
  /** Forecast probability of YES, 0..1. */
  readonly p: number;
  /** 1 when the market resolved YES, else 0. */
  readonly outcome: 0 | 1;
}

const EPS = 1e-15;

function checked(predictions: readonly Prediction[]): void {
  if (predictions.length === 0) throw new RangeError('calibration: no predictions');
  for (const [i, { p }] of predictions.entries()) {
    if (!Number.isFinite(p) || p < 0 || p > 1) throw new RangeError(`calibration: predictions[${i}].p must be within [0, 1] (got ${p})`);
  }
}

/** Mean of −[y·ln p + (1−y)·ln(1−p)]. */
export function logLoss(predictions: readonly Prediction[]): number {
  checked(predictions);
  let total = 0;
  for (const { p, outcome } of predictions) {
    const q = Math.min(1 - EPS, Math.max(EPS, p));
    total -= outcome === 1 ? Math.log(q) : Math.log(1 - q);
  }
  return total / predictions.length;
}

/** Mean of (p − y)². */
export function brierScore(predictions: readonly Prediction[]): number {
  checked(predictions);
  return predictions.reduce((sum, { p, outcome }) => sum + (p - outcome) ** 2, 0) / predictions.length;
}
