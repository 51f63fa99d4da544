/**
 * Clock and timers behind one small interface, so the market-data code (book store, watchdog, change
 * coalescing, feed reconnection) runs the same on wall time and on a manual clock in tests and replays.
 *
 * Owns: `Scheduler` (now + one-shot timers returning a cancel function), the system implementation
 * (Date.now, setTimeout; a zero delay runs on setImmediate so a burst in one macrotask coalesces), and
 * `ManualScheduler`, a deterministic clock that only moves when told to.
 *
 * Invariants: a cancelled timer never runs; a timer never runs before its due time; ManualScheduler runs
 * due timers in (due time, creation order) order and never runs a timer scheduled for later than `advance`
 * reaches. System timers with a delay are unref'd so market data never keeps a finished process alive; zero-delay
 * immediates stay ref'd (they run in the same loop turn, and an unref'd immediate waits for unrelated I/O).
 */

export type CancelTimer = () => void;

export interface Scheduler {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `delayMs` (clamped to ≥ 0). Returns a function that cancels it. */
  schedule(delayMs: number, callback: () => void): CancelTimer;
}

export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  schedule(delayMs, callback) {
    if (!(delayMs > 0)) {
      // Not unref'd: libuv starts the check phase only for ref'd immediates, so an unref'd one waits for the next
      // unrelated I/O or timer (measured: up to seconds with nothing else pending). It runs within this loop turn.
      const handle = setImmediate(callback);
      return () => clearImmediate(handle);
    }
    const handle = setTimeout(callback, delayMs);
    handle.unref();
    return () => clearTimeout(handle);
  },
};

interface ManualTimer {
  readonly dueMs: number;
  readonly order: number;
  readonly callback: () => void;
  cancelled: boolean;
}

/** A clock that moves only through `advance`/`set`; due timers run synchronously inside those calls. */
export class ManualScheduler implements Scheduler {
  private nowMs: number;
  private timers: ManualTimer[] = [];
  private created = 0;

  constructor(startMs = 0) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  schedule(delayMs: number, callback: () => void): CancelTimer {
    const timer: ManualTimer = {
      dueMs: this.nowMs + Math.max(0, Number.isFinite(delayMs) ? delayMs : 0),
      order: this.created++,
      callback,
      cancelled: false,
    };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Timers not yet run or cancelled. */
  pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves the clock forward by `ms`, running every timer that falls due on the way, in order. */
  advance(ms: number): void {
    this.runUntil(this.nowMs + Math.max(0, ms));
  }

  /** Runs timers already due at the current time (including zero-delay ones scheduled by them). */
  flush(): void {
    this.runUntil(this.nowMs);
  }

  private runUntil(targetMs: number): void {
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      let next: ManualTimer | undefined;
      for (const t of this.timers) {
        if (t.dueMs > targetMs) continue;
        if (next === undefined || t.dueMs < next.dueMs || (t.dueMs === next.dueMs && t.order < next.order)) next = t;
      }
      if (next === undefined) break;
      next.cancelled = true;
      if (next.dueMs > this.nowMs) this.nowMs = next.dueMs;
      next.callback();
    }
    this.nowMs = Math.max(this.nowMs, targetMs);
  }
}
