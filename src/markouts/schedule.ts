/**
 * When a fill's markouts fall due: the horizons the live bot records (0 — the edge at fill time — then 1 s, 10 s,
 * 60 s and 5 min), how late a sample may be taken and still count, and which of a fill's open horizons to sample,
 * to give up on, or to keep waiting for at a given instant. Pure.
 *
 * Invariants: a horizon is sampled at or after its due instant (fill time + horizon), never before; a horizon whose
 * due instant passed by more than its tolerance is never sampled (its reference price then is unknown, and a later
 * one would be a different horizon): it is recorded as missing, never guessed.
 */

/** The horizons of the ledger's markouts, ms: 0 (realized spread, the edge at fill time), 1 s, 10 s, 60 s, 5 min. */
export const LEDGER_MARKOUT_HORIZONS_MS: readonly number[] = [0, 1_000, 10_000, 60_000, 300_000];

/** The horizon that adverse selection is measured at (the report's "lost to adverse selection"). */
export const ADVERSE_SELECTION_HORIZON_MS = 60_000;

/** The sampler looks for due horizons this often by default. */
export const DEFAULT_SAMPLE_EVERY_MS = 250;

/**
 * How late a horizon may be sampled and still count, ms: two sampler periods, or a tenth of the horizon when that is
 * longer (a 60 s markout taken at 61 s says the same; a 1 s markout taken at 3 s does not).
 */
export function lateToleranceMs(horizonMs: number, sampleEveryMs: number): number {
  return Math.max(2 * sampleEveryMs, Math.floor(horizonMs / 10));
}

/** The last instant any horizon of a fill made at `atMs` can still be sampled. */
export function lastSampleMs(atMs: number, horizonsMs: readonly number[], sampleEveryMs: number): number {
  return Math.max(...horizonsMs.map((h) => atMs + h + lateToleranceMs(h, sampleEveryMs)));
}

export interface DueHorizons {
  /** Due now and within tolerance: snapshot the reference now. */
  readonly sample: readonly number[];
  /** Due too long ago: recorded as missing. */
  readonly missed: readonly number[];
  /** Not yet due. */
  readonly waiting: readonly number[];
}

/** Splits a fill's open horizons (`openMs`) by what to do with them at `nowMs`. */
export function dueHorizons(atMs: number, openMs: readonly number[], nowMs: number, sampleEveryMs: number): DueHorizons {
  const sample: number[] = [];
  const missed: number[] = [];
  const waiting: number[] = [];
  for (const horizonMs of openMs) {
    const dueMs = atMs + horizonMs;
    if (nowMs < dueMs) waiting.push(horizonMs);
    else if (nowMs - dueMs <= lateToleranceMs(horizonMs, sampleEveryMs)) sample.push(horizonMs);
    else missed.push(horizonMs);
  }
  return { sample, missed, waiting };
}
