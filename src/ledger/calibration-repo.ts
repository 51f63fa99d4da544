/**
 * The ledger's calibration tables (migration 3): the model's and the book mid's predictions of YES taken at fixed
 * offsets before each priced market's settlement (`calibration_predictions`), and, once the market resolved, the
 * scored rows (`calibration_scores`: the outcome and each prediction's log-loss and Brier score, in millionths).
 *
 * Owns: the SQL of calibration. Invariants: a prediction is written once per (market, offset) and never changed (a
 * second write of the key is ignored and reported as not inserted), so a restart or a repeated tick cannot take it
 * twice; it holds a value or the reason it is missing, for each of model and mid; a scored row is written once per
 * (market, offset) and only for a market whose recorded resolution pays one side (a split payout is never scored);
 * every write is one transaction; probabilities are integer millionths (0..1,000,000), scores integer millionths.
 */
import { z } from 'zod';
import type { LedgerContext } from './context.js';
import { LedgerInputError } from './errors.js';
import { checkId, checkTimeMs } from './validate.js';

export const CALIBRATION_SOURCES = ['model', 'mid'] as const;
export type CalibrationSource = (typeof CALIBRATION_SOURCES)[number];

/** Which market and offset a prediction is of, with the labels it is reported under. */
export interface CalibrationKey {
  readonly marketSlug: string;
  /** How long before the settlement instant, ms (> 0). */
  readonly offsetMs: number;
  /** The underlying's ticker (`BTC`). */
  readonly underlying: string;
  /** `hourly`, `daily`, `weekly`, `15m` or `other`. */
  readonly cadence: string;
  readonly settlesAtMs: number;
}

/** One prediction of a market at one offset before its settlement, as the sampler took it. */
export interface NewPrediction extends CalibrationKey {
  /** P(YES) in millionths, or null with the reason in `modelMissing`. */
  readonly modelMicros: number | null;
  readonly modelMissing: string | null;
  readonly midMicros: number | null;
  readonly midMissing: string | null;
  readonly takenAtMs: number;
}

/** A prediction whose market resolved to one side and is not scored yet. */
export interface ResolvedPrediction extends CalibrationKey {
  readonly modelMicros: number | null;
  readonly midMicros: number | null;
  readonly outcome: 0 | 1;
}

/** One scored (market, offset); a score is null where its prediction was missing. */
export interface ScoredRow extends ResolvedPrediction {
  readonly modelLogLossMicro: number | null;
  readonly modelBrierMicro: number | null;
  readonly midLogLossMicro: number | null;
  readonly midBrierMicro: number | null;
  readonly scoredAtMs: number;
}

/** Sums of the scored rows of one (underlying, cadence, offset). `paired`: rows with both predictions. */
export interface CalibrationGroup {
  readonly underlying: string;
  readonly cadence: string;
  readonly offsetMs: number;
  readonly rows: number;
  readonly paired: number;
  /** Σ over the paired rows, millionths. */
  readonly modelLogLossMicro: number;
  readonly modelBrierMicro: number;
  readonly midLogLossMicro: number;
  readonly midBrierMicro: number;
  /** Rows with only the model's prediction, and only the mid's. */
  readonly modelOnly: number;
  readonly midOnly: number;
}

export interface CalibrationQuery {
  /** Markets settling at or after this time. */
  readonly sinceMs?: number | undefined;
  readonly marketSlug?: string | undefined;
}

const resolvedRowSchema = z.object({
  market_slug: z.string(),
  offset_ms: z.number().int(),
  underlying: z.string(),
  cadence: z.string(),
  settles_at_ms: z.number().int(),
  model_micros: z.number().int().nullable(),
  mid_micros: z.number().int().nullable(),
  payout_yes: z.number().int(),
});
const offsetRowSchema = z.object({ offset_ms: z.number().int() });
const groupRowSchema = z.object({
  underlying: z.string(),
  cadence: z.string(),
  offset_ms: z.number().int(),
  rows: z.number().int(),
  paired: z.number().int().nullable(),
  model_ll: z.number().int().nullable(),
  model_brier: z.number().int().nullable(),
  mid_ll: z.number().int().nullable(),
  mid_brier: z.number().int().nullable(),
  model_only: z.number().int().nullable(),
  mid_only: z.number().int().nullable(),
});

function checkMicros(field: string, value: number | null, missing: string | null): void {
  if (value !== null && (!Number.isSafeInteger(value) || value < 0 || value > 1_000_000)) {
    throw new LedgerInputError(field, value, 'must be an integer in 0..1000000 or null');
  }
  if ((value === null) === (missing === null)) {
    throw new LedgerInputError(`${field}.missing`, missing, 'a prediction holds a value or the reason it is missing, not both or neither');
  }
}

function checkPrediction(p: NewPrediction): NewPrediction {
  checkId('calibration.marketSlug', p.marketSlug);
  if (!Number.isSafeInteger(p.offsetMs) || p.offsetMs <= 0) throw new LedgerInputError('calibration.offsetMs', p.offsetMs, 'must be a positive integer');
  checkId('calibration.underlying', p.underlying);
  checkId('calibration.cadence', p.cadence);
  checkTimeMs('calibration.settlesAtMs', p.settlesAtMs);
  checkTimeMs('calibration.takenAtMs', p.takenAtMs);
  checkMicros('calibration.modelMicros', p.modelMicros, p.modelMissing);
  checkMicros('calibration.midMicros', p.midMicros, p.midMissing);
  return p;
}

function checkScore(field: string, value: number | null, brier: boolean): void {
  if (value === null) return;
  if (!Number.isSafeInteger(value) || value < 0 || (brier && value > 1_000_000)) throw new LedgerInputError(field, value, `must be a non-negative integer${brier ? ' ≤ 1000000' : ''}`);
}

export class CalibrationRepo {
  private readonly insertPrediction;
  private readonly takenOffsets;
  private readonly resolvedRows;
  private readonly insertScore;
  private readonly groups;

  constructor(private readonly ctx: LedgerContext) {
    const db = ctx.db;
    this.insertPrediction = db.prepare(
      `INSERT INTO calibration_predictions (market_slug, offset_ms, underlying, cadence, settles_at_ms, model_micros, model_missing,
         mid_micros, mid_missing, taken_at_ms)
       VALUES (@marketSlug, @offsetMs, @underlying, @cadence, @settlesAtMs, @modelMicros, @modelMissing, @midMicros, @midMissing, @takenAtMs)
       ON CONFLICT (market_slug, offset_ms) DO NOTHING`,
    );
    this.takenOffsets = db.prepare(`SELECT offset_ms FROM calibration_predictions WHERE market_slug = ? ORDER BY offset_ms`);
    // A resolution pays one side: that side is the outcome. Split payouts (both > 0) are never scored.
    this.resolvedRows = db.prepare(
      `SELECT p.market_slug, p.offset_ms, p.underlying, p.cadence, p.settles_at_ms, p.model_micros, p.mid_micros, r.payout_yes
         FROM calibration_predictions p
         JOIN resolutions r ON r.market_slug = p.market_slug
        WHERE (r.payout_yes = 0) <> (r.payout_no = 0)
          AND (p.model_micros IS NOT NULL OR p.mid_micros IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM calibration_scores s WHERE s.market_slug = p.market_slug AND s.offset_ms = p.offset_ms)
        ORDER BY p.settles_at_ms, p.market_slug, p.offset_ms DESC
        LIMIT ?`,
    );
    this.insertScore = db.prepare(
      `INSERT INTO calibration_scores (market_slug, offset_ms, underlying, cadence, settles_at_ms, outcome, model_micros,
         model_log_loss_micro, model_brier_micro, mid_micros, mid_log_loss_micro, mid_brier_micro, scored_at_ms)
       VALUES (@marketSlug, @offsetMs, @underlying, @cadence, @settlesAtMs, @outcome, @modelMicros, @modelLogLossMicro,
         @modelBrierMicro, @midMicros, @midLogLossMicro, @midBrierMicro, @scoredAtMs)
       ON CONFLICT (market_slug, offset_ms) DO NOTHING`,
    );
    const paired = `model_micros IS NOT NULL AND mid_micros IS NOT NULL`;
    this.groups = db.prepare(
      `SELECT underlying, cadence, offset_ms, COUNT(*) AS rows,
              SUM(CASE WHEN ${paired} THEN 1 ELSE 0 END) AS paired,
              SUM(CASE WHEN ${paired} THEN model_log_loss_micro ELSE 0 END) AS model_ll,
              SUM(CASE WHEN ${paired} THEN model_brier_micro ELSE 0 END) AS model_brier,
              SUM(CASE WHEN ${paired} THEN mid_log_loss_micro ELSE 0 END) AS mid_ll,
              SUM(CASE WHEN ${paired} THEN mid_brier_micro ELSE 0 END) AS mid_brier,
              SUM(CASE WHEN model_micros IS NOT NULL AND mid_micros IS NULL THEN 1 ELSE 0 END) AS model_only,
              SUM(CASE WHEN mid_micros IS NOT NULL AND model_micros IS NULL THEN 1 ELSE 0 END) AS mid_only
         FROM calibration_scores
        WHERE settles_at_ms >= @since AND (@market IS NULL OR market_slug = @market)
        GROUP BY underlying, cadence, offset_ms
        ORDER BY underlying, cadence, offset_ms DESC`,
    );
  }

  /** Stores a prediction once; false when one was already stored for this (market, offset). */
  recordPrediction(prediction: NewPrediction): boolean {
    const p = checkPrediction(prediction);
    return this.ctx.write('calibrationPrediction', () => this.insertPrediction.run(p).changes === 1);
  }

  /** The offsets already taken for a market (a restarted sampler skips them). */
  takenOffsetsOf(marketSlug: string): number[] {
    return this.takenOffsets.all(checkId('marketSlug', marketSlug)).map((row) => offsetRowSchema.parse(row).offset_ms);
  }

  /** Predictions of markets resolved to one side and not yet scored, oldest settlement first, at most `limit`. */
  resolvedUnscored(limit = 1000): ResolvedPrediction[] {
    return this.resolvedRows.all(limit).map((raw) => {
      const row = resolvedRowSchema.parse(raw);
      return {
        marketSlug: row.market_slug,
        offsetMs: row.offset_ms,
        underlying: row.underlying,
        cadence: row.cadence,
        settlesAtMs: row.settles_at_ms,
        modelMicros: row.model_micros,
        midMicros: row.mid_micros,
        outcome: row.payout_yes > 0 ? 1 : 0,
      };
    });
  }

  /** Writes scored rows in one transaction; returns the rows actually inserted (a row already scored is skipped). */
  writeScores(rows: readonly ScoredRow[]): ScoredRow[] {
    rows.forEach((row, i) => {
      checkId(`calibration.scores[${i}].marketSlug`, row.marketSlug);
      checkScore(`calibration.scores[${i}].modelLogLossMicro`, row.modelLogLossMicro, false);
      checkScore(`calibration.scores[${i}].midLogLossMicro`, row.midLogLossMicro, false);
      checkScore(`calibration.scores[${i}].modelBrierMicro`, row.modelBrierMicro, true);
      checkScore(`calibration.scores[${i}].midBrierMicro`, row.midBrierMicro, true);
      if ((row.modelMicros === null) !== (row.modelLogLossMicro === null) || (row.midMicros === null) !== (row.midLogLossMicro === null)) {
        throw new LedgerInputError(`calibration.scores[${i}]`, row.marketSlug, 'a score exists exactly when its prediction does');
      }
      checkTimeMs(`calibration.scores[${i}].scoredAtMs`, row.scoredAtMs);
    });
    return this.ctx.write('calibrationScores', () => rows.filter((row) => this.insertScore.run(row).changes === 1));
  }

  /** Sums of the scored rows per (underlying, cadence, offset). */
  groupsOf(query: CalibrationQuery = {}): CalibrationGroup[] {
    const since = query.sinceMs === undefined ? 0 : checkTimeMs('sinceMs', query.sinceMs);
    const market = query.marketSlug === undefined ? null : checkId('marketSlug', query.marketSlug);
    return this.groups.all({ since, market }).map((raw) => {
      const row = groupRowSchema.parse(raw);
      return {
        underlying: row.underlying,
        cadence: row.cadence,
        offsetMs: row.offset_ms,
        rows: row.rows,
        paired: row.paired ?? 0,
        modelLogLossMicro: row.model_ll ?? 0,
        modelBrierMicro: row.model_brier ?? 0,
        midLogLossMicro: row.mid_ll ?? 0,
        midBrierMicro: row.mid_brier ?? 0,
        modelOnly: row.model_only ?? 0,
        midOnly: row.mid_only ?? 0,
      };
    });
  }
}
