/**
 * The clock seam: one small interface for "now" and one-shot timers, so every module (books, watchdog, feed,
 * executor, settlement, the simulator's engine, the backtest) runs the same on wall time and on a manual clock.
 *
 * Owns: `Scheduler` (now + one-shot timers returning a cancel function), `systemScheduler` (Date.now and Node
 * timers; a zero delay runs on setImmediate so a burst in one macrotask coalesces; delays beyond Node's timer limit
 * are chained), and `ManualClock`, a deterministic clock that only moves when told to.
 *
 * Invariants: a cancelled timer never runs; a timer never runs before its due time; ManualClock runs due timers in
 * (due time, creation order) order, including ones scheduled while it runs, and never runs a timer due later than
 * `advance`/`advanceTo` reaches. System timers with a delay are unref'd so they never keep a finished process alive;
 * zero-delay immediates stay ref'd (they run in the same loop turn, and an unref'd immediate waits for unrelated I/O).
 */

export type CancelTimer = () => void;

export interface Scheduler {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `delayMs` (clamped to ≥ 0). Returns a function that cancels it. */
  schedule(delayMs: number, callback: () => void): CancelTimer;
}

/** Node's timer limit: longer delays would fire at once, so the system clock chains shorter timers. */
const MAX_TIMER_MS = 2_147_483_647;

export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  schedule(delayMs, callback) {
    if (!(delayMs > 0)) {
      // Not unref'd: libuv starts the check phase only for ref'd immediates, so an unref'd one waits for the next
      // unrelated I/O or timer (measured: up to seconds with nothing else pending). It runs within this loop turn.
      const handle = setImmediate(callback);
      return () => clearImmediate(handle);
    }
    const dueMs = Date.now() + delayMs;
    let handle: NodeJS.Timeout | undefined;
    let cancelled = false;
    const arm = (waitMs: number): void => {
      handle = setTimeout(
        () => {
          if (cancelled) return;
          const remaining = dueMs - Date.now();
          if (remaining > 0 && waitMs === MAX_TIMER_MS) arm(Math.min(remaining, MAX_TIMER_MS));
          else callback();
        },
        Math.min(waitMs, MAX_TIMER_MS),
      );
      handle.unref();
    };
    arm(Math.min(delayMs, MAX_TIMER_MS));
    return () => {
      cancelled = true;
      if (handle !== undefined) clearTimeout(handle);
    };
  },
};

interface ManualTask {
  readonly dueMs: number;
  readonly seq: number;
  readonly callback: () => void;
  cancelled: boolean;
}

function before(a: ManualTask, b: ManualTask): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}

/** A clock that moves only through `advance`/`advanceTo`/`flush`; due timers run synchronously inside those calls. */
export class ManualClock implements Scheduler {
  private current: number;
  private seq = 0;
  /** Binary min-heap on (dueMs, seq); cancelled tasks are dropped lazily. */
  private readonly heap: ManualTask[] = [];
  private live = 0;

  constructor(startMs = 0) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  schedule(delayMs: number, callback: () => void): CancelTimer {
    const wait = Number.isFinite(delayMs) ? Math.max(0, delayMs) : 0;
    const task: ManualTask = { dueMs: this.current + wait, seq: this.seq++, callback, cancelled: false };
    this.push(task);
    this.live += 1;
    return () => {
      if (task.cancelled) return;
      task.cancelled = true;
      this.live -= 1;
    };
  }

  /** Timers not yet run or cancelled. */
  pending(): number {
    return this.live;
  }

  /** When the next pending timer is due; null when none is. */
  nextDueMs(): number | null {
    for (;;) {
      const next = this.heap[0];
      if (next === undefined) return null;
      if (!next.cancelled) return next.dueMs;
      this.pop();
    }
  }

  /** Moves the clock forward by `ms`, running every timer that falls due on the way (including ones scheduled meanwhile). */
  advance(ms: number): void {
    this.advanceTo(this.current + Math.max(0, ms));
  }

  /** Runs timers already due at the current time (including zero-delay ones scheduled by them). */
  flush(): void {
    this.advanceTo(this.current);
  }

  advanceTo(targetMs: number): void {
    for (;;) {
      const next = this.heap[0];
      if (next === undefined || next.dueMs > targetMs) break;
      this.pop();
      if (next.cancelled) continue;
      next.cancelled = true;
      this.live -= 1;
      this.current = Math.max(this.current, next.dueMs);
      next.callback();
    }
    this.current = Math.max(this.current, targetMs);
  }

  private push(task: ManualTask): void {
    const h = this.heap;
    h.push(task);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = h[parent];
      if (p === undefined || !before(task, p)) break;
      h[i] = p;
      i = parent;
    }
    h[i] = task;
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = last;
      let at = -1;
      const left = h[l];
      const right = h[r];
      if (left !== undefined && before(left, smallest)) {
        smallest = left;
        at = l;
      }
      if (right !== undefined && before(right, smallest)) {
        smallest = right;
        at = r;
      }
      if (at < 0) break;
      h[i] = smallest;
      i = at;
    }
    h[i] = last;
  }
}
