/**
 * Scores of one calibration row: each prediction's log-loss and Brier score against the outcome
 * (src/pricing/model/calibration.ts), in integer millionths for the ledger. Pure.
 *
 * Invariants: a score exists exactly when its prediction does (null otherwise).
 */
import type { ResolvedPrediction, ScoredRow } from '../ledger/calibration-repo.js';
import { brierScore, logLoss } from '../pricing/model/calibration.js';

const MICROS = 1_000_000;

/** A prediction's log-loss and Brier score in millionths (null: no prediction). */
export function scoreMicros(pMicros: number | null, outcome: 0 | 1): { readonly logLossMicro: number | null; readonly brierMicro: number | null } {
  if (pMicros === null) return { logLossMicro: null, brierMicro: null };
  const prediction = [{ p: pMicros / MICROS, outcome }];
  return { logLossMicro: Math.round(logLoss(prediction) * MICROS), brierMicro: Math.round(brierScore(prediction) * MICROS) };
}

/** The scored row of a resolved prediction. */
export function scoredRow(row: ResolvedPrediction, scoredAtMs: number): ScoredRow {
  const model = scoreMicros(row.modelMicros, row.outcome);
  const mid = scoreMicros(row.midMicros, row.outcome);
  return {
    ...row,
    modelLogLossMicro: model.logLossMicro,
    modelBrierMicro: model.brierMicro,
    midLogLossMicro: mid.logLossMicro,
    midBrierMicro: mid.brierMicro,
    scoredAtMs,
  };
}
