/**
 * Mid-price history helpers: cleaning the view's `midHistory` and looking up the mid at a time.
 *
 * Invariants of a cleaned history: every mid is finite and strictly inside (0, 1); times are finite and
 * strictly increasing (of several points at the same time, the last wins); input order is not trusted.
 */
import type { MarketView } from './contract.js';

export interface MidPoint {
  readonly atMs: number;
  readonly mid: number;
}

export function cleanMidHistory(history: MarketView['midHistory']): MidPoint[] {
  const points = history.filter(
    (p) => Number.isFinite(p.atMs) && Number.isFinite(p.mid) && p.mid > 0 && p.mid < 1,
  );
  const sorted = isSorted(points) ? points : [...points].sort((a, b) => a.atMs - b.atMs);
  const out: MidPoint[] = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && last.atMs === p.atMs) out[out.length - 1] = { atMs: p.atMs, mid: p.mid };
    else out.push({ atMs: p.atMs, mid: p.mid });
  }
  return out;
}

/** The mid in force at `atMs`: the last point at or before it; null when the history starts later. */
export function midAt(history: readonly MidPoint[], atMs: number): number | null {
  let lo = 0;
  let hi = history.length - 1;
  let found: MidPoint | undefined;
  while (lo <= hi) {
    const middle = (lo + hi) >> 1;
    const point = history[middle];
    if (point === undefined) break;
    if (point.atMs <= atMs) {
      found = point;
      lo = middle + 1;
    } else {
      hi = middle - 1;
    }
  }
  return found?.mid ?? null;
}

function isSorted(points: readonly MidPoint[]): boolean {
  for (let i = 1; i < points.length; i += 1) {
    const a = points[i - 1];
    const b = points[i];
    if (a !== undefined && b !== undefined && b.atMs < a.atMs) return false;
  }
  return true;
}
