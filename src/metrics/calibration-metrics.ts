/**
 * The calibration metrics (src/calibration/): predictions taken or missing per source and reason, and per underlying,
 * cadence and source the scored predictions with the sums of their log-loss and Brier score, so a dashboard reads the
 * mean as `increase(…_log_loss_total) / increase(…_scored_total)` over any window, model beside mid.
 *
 * Owns: these metrics' names, help and labels. Invariants: labels are bounded (underlyings at most 32, cadences the
 * known ones or `other`, missing reasons the known ones or `other`); a market's series start at 0 when it is first
 * tracked, so `increase()` sees its first score; a non-finite or negative score is dropped and counted by the caller's
 * `countable`.
 */
import { Counter, type Registry } from 'prom-client';
import { BoundedLabel } from './metric-labels.js';

export const CALIBRATION_SOURCES_LABELS = ['model', 'mid'] as const;
export type CalibrationSourceLabel = (typeof CALIBRATION_SOURCES_LABELS)[number];
/** Why a prediction is missing (src/calibration/live-calibration.ts, src/calibration/sampler.ts); others are `other`. */
export const CALIBRATION_RESULTS: readonly string[] = ['taken', 'late', 'no-underlying-price', 'stale-underlying', 'unpriced', 'no-book', 'stale-book', 'one-sided'];
const CADENCE_LABELS: readonly string[] = ['15m', 'hourly', 'daily', 'weekly', 'other'];

export interface CalibrationMetrics {
  /** A market is tracked: its scored series start at 0. */
  calibrationTracked(underlying: string, cadence: string): void;
  /** A prediction written: `taken`, or why it is missing. */
  calibrationPrediction(source: CalibrationSourceLabel, result: string): void;
  /** A prediction scored on its market's resolution: its log-loss (nats) and Brier score. */
  calibrationScored(underlying: string, cadence: string, source: CalibrationSourceLabel, logLoss: number, brier: number): void;
}

export function createCalibrationMetrics(registers: Registry[], countable: (metric: string, value: number) => boolean): CalibrationMetrics {
  const underlyings = new BoundedLabel(32);
  const cadenceOf = (cadence: string): string => (CADENCE_LABELS.includes(cadence) ? cadence : 'other');
  const predictions = new Counter({
    name: 'outcome_maker_calibration_predictions_total',
    help: 'Calibration predictions written to the ledger before a priced market\'s settlement, by source (model, mid) and result (taken, or why missing).',
    labelNames: ['source', 'result'] as const,
    registers,
  });
  const labels = ['underlying', 'cadence', 'source'] as const;
  const scored = new Counter({ name: 'outcome_maker_calibration_scored_total', help: 'Predictions scored on their market\'s resolution, by underlying, cadence and source (model, mid).', labelNames: labels, registers });
  const logLoss = new Counter({ name: 'outcome_maker_calibration_log_loss_total', help: 'Sum of the log-loss (nats) of the scored predictions; ÷ outcome_maker_calibration_scored_total gives the mean.', labelNames: labels, registers });
  const brier = new Counter({ name: 'outcome_maker_calibration_brier_total', help: 'Sum of the Brier scores of the scored predictions; ÷ outcome_maker_calibration_scored_total gives the mean.', labelNames: labels, registers });
  for (const source of CALIBRATION_SOURCES_LABELS) for (const result of CALIBRATION_RESULTS) predictions.inc({ source, result }, 0);
  return {
    calibrationTracked(underlying, cadence) {
      const at = { underlying: underlyings.value(underlying), cadence: cadenceOf(cadence) };
      for (const source of CALIBRATION_SOURCES_LABELS) for (const metric of [scored, logLoss, brier]) metric.inc({ ...at, source }, 0);
    },
    calibrationPrediction(source, result) {
      predictions.inc({ source, result: CALIBRATION_RESULTS.includes(result) ? result : 'other' });
    },
    calibrationScored(underlying, cadence, source, ll, b) {
      if (!countable('outcome_maker_calibration_log_loss_total', ll) || !countable('outcome_maker_calibration_brier_total', b)) return;
      const at = { underlying: underlyings.value(underlying), cadence: cadenceOf(cadence), source };
      scored.inc(at);
      logLoss.inc(at, ll);
      brier.inc(at, b);
    },
  };
}
