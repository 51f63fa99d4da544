/**
 * When a market's calibration predictions fall due: the default offsets before settlement (50, 30, 10, 5 and 1
 * minutes), how late a prediction may be taken and still count, and which of a market's offsets to take, to give up
 * on, or to wait for at an instant. Pure.
 *
 * Invariants: an offset is taken at or after its due instant (settlement − offset), never before, and never at or
 * after the settlement; one due longer ago than its tolerance is never taken (a later value would be a different
 * offset): it is recorded as missing (`late`); an offset that fell due before the market was tracked is not this
 * run's to take (`untracked`: no row).
 */

/** The offsets before settlement the live bot records by default, ms: 50, 30, 10, 5 and 1 minutes. */
export const DEFAULT_CALIBRATION_OFFSETS_MS: readonly number[] = [3_000_000, 1_800_000, 600_000, 300_000, 60_000];

/** The sampler looks for due offsets this often by default. */
export const DEFAULT_CALIBRATION_EVERY_MS = 1_000;

/** How late an offset may be taken and still count: two sampler periods, or a tenth of the offset when longer. */
export function offsetToleranceMs(offsetMs: number, everyMs: number): number {
  return Math.min(offsetMs - 1, Math.max(2 * everyMs, Math.floor(offsetMs / 10)));
}

export interface DueOffsets {
  /** Due now and within tolerance: take the predictions now. */
  readonly take: readonly number[];
  /** Due while tracked but too long ago: recorded as missing. */
  readonly late: readonly number[];
  /** Due before the market was tracked: not taken, no row. */
  readonly untracked: readonly number[];
  /** Not yet due. */
  readonly waiting: readonly number[];
}

/** Splits the offsets not yet taken of a market settling at `settlesAtMs`, tracked since `trackedAtMs`, at `nowMs`. */
export function dueOffsets(open: readonly number[], settlesAtMs: number, trackedAtMs: number, nowMs: number, everyMs: number): DueOffsets {
  const take: number[] = [];
  const late: number[] = [];
  const untracked: number[] = [];
  const waiting: number[] = [];
  for (const offset of open) {
    const dueMs = settlesAtMs - offset;
    if (nowMs < dueMs) waiting.push(offset);
    else if (dueMs + offsetToleranceMs(offset, everyMs) < trackedAtMs) untracked.push(offset);
    else if (nowMs <= dueMs + offsetToleranceMs(offset, everyMs) && nowMs < settlesAtMs) take.push(offset);
    else late.push(offset);
  }
  return { take, late, untracked, waiting };
}
