/**
 * Where a run's time went, for the run summary and the "nothing quoted" alert: time QUOTING (at least one order of the
 * bot on the book), time WAITING (markets expected to be quoted — traded and before their stop before settlement — but
 * no order: joining, no book yet, halted, blocked, the kill switch) and time IDLE (nothing to quote: no market traded,
 * or only markets past their stop, as between two hourly ladders).
 *
 * Owns: the accumulation (`QuotingClock`, pure: observations in, totals out), the state of a moment
 * (`quotingStateOf`) and the split as printed to the tenth of a second (`tenthsOf`). Invariants: one clock (the one
 * the observations are read from) and integer ms (an observation is floored to the ms); the three totals add up
 * EXACTLY to `toMs - fromMs`, the time from the first observation to the last, which is the run's time as the summary
 * says it (it reads both ends from the totals, never from another clock); an interval is counted in the state
 * observed at its START (a sample sees what held since the previous one); the waiting stretch (`waitingForMs`, the
 * alert's gauge) is the time since the state last was anything but waiting, and 0 while quoting or idle; time never
 * runs backwards (an observation older than the last one counts nothing).
 */

export type QuotingState = 'quoting' | 'waiting' | 'idle';

/** The state of a moment: quoting with any open order; else waiting when a market is expected to be quoted; else idle. Pure. */
export function quotingStateOf(openOrders: number, expectedMarkets: number): QuotingState {
  if (openOrders > 0) return 'quoting';
  return expectedMarkets > 0 ? 'waiting' : 'idle';
}

export interface QuotingTotals {
  readonly quotingMs: number;
  readonly waitingMs: number;
  readonly idleMs: number;
  /** How long the current waiting stretch has lasted (0 unless the last state observed is waiting). */
  readonly waitingForMs: number;
  /** The first and the last observation (the clock's ms): quotingMs + waitingMs + idleMs === toMs - fromMs. */
  readonly fromMs: number;
  readonly toMs: number;
}

export class QuotingClock {
  private first: number | null = null;
  private last: { readonly atMs: number; readonly state: QuotingState } | null = null;
  private quotingMs = 0;
  private waitingMs = 0;
  private idleMs = 0;
  private waitingSinceMs: number | null = null;

  /** The state seen at `nowMs`: the time since the previous observation is counted in the previous state. */
  observe(clockMs: number, state: QuotingState): void {
    const nowMs = Math.floor(clockMs);
    const last = this.last;
    if (last !== null && nowMs < last.atMs) return;
    if (last !== null) this.add(last.state, nowMs - last.atMs);
    if (state !== 'waiting') this.waitingSinceMs = null;
    else this.waitingSinceMs ??= nowMs;
    this.first ??= nowMs;
    this.last = { atMs: nowMs, state };
  }

  totals(): QuotingTotals {
    const atMs = this.last?.atMs ?? 0;
    return {
      quotingMs: this.quotingMs,
      waitingMs: this.waitingMs,
      idleMs: this.idleMs,
      waitingForMs: this.waitingSinceMs === null ? 0 : atMs - this.waitingSinceMs,
      fromMs: this.first ?? 0,
      toMs: atMs,
    };
  }

  private add(state: QuotingState, ms: number): void {
    if (state === 'quoting') this.quotingMs += ms;
    else if (state === 'waiting') this.waitingMs += ms;
    else this.idleMs += ms;
  }
}

/**
 * `parts` (ms) in tenths of a second that add up to `totalTenths` exactly: each floored, the tenths left given one
 * each to the largest remainders (ties: the earlier part). `totalTenths` must lie between the floors' sum and that
 * sum plus the number of parts, as it does for the rounded ends of a window the parts fill. Pure.
 */
export function tenthsOf(parts: readonly number[], totalTenths: number): number[] {
  const floors = parts.map((ms) => Math.floor(ms / 100));
  const left = totalTenths - floors.reduce((a, b) => a + b, 0);
  if (left < 0 || left > parts.length) throw new RangeError(`tenthsOf: ${totalTenths} tenths cannot be split from ${parts.join(', ')} ms`);
  const order = parts.map((ms, i) => ({ i, rest: ms - (floors[i] ?? 0) * 100 })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order.slice(0, left)) floors[i] = (floors[i] ?? 0) + 1;
  return floors;
}
