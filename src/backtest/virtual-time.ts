/**
 * Virtual time for the backtest: the project's ManualClock (src/core/clock.ts) behind a Scheduler that also knows
 * when its next timer is due, and `runUntil`, which moves the clock timer by timer and lets the promise work each
 * timer started (the order executor, the latency decorator) settle before the next one runs.
 *
 * Owns: nothing but the stepping (the clock owns its timers). Invariants: nothing here reads wall time; timers run in
 * (due time, creation order) order, as ManualClock runs them; before each timer and at the end of `runUntil`,
 * pending promise work is drained to quiescence (a macrotask turn runs every queued microtask, and nothing else in
 * a backtest queues macrotasks), so results do not depend on the machine.
 */
import { ManualClock, type CancelTimer, type Scheduler } from '../core/clock.js';

export class VirtualTime implements Scheduler {
  readonly clock: ManualClock;

  constructor(startMs: number) {
    this.clock = new ManualClock(startMs);
  }

  now(): number {
    return this.clock.now();
  }

  schedule(delayMs: number, callback: () => void): CancelTimer {
    return this.clock.schedule(delayMs, callback);
  }

  /** When the next timer is due; null when none is pending. */
  nextDueMs(): number | null {
    return this.clock.nextDueMs();
  }

  /** Runs every timer due up to `targetMs`, one due time at a time, settling promise work before each, then settles. */
  async runUntil(targetMs: number): Promise<void> {
    for (;;) {
      await settle();
      const next = this.nextDueMs();
      if (next === null || next > targetMs) break;
      this.clock.advanceTo(next);
    }
    this.clock.advanceTo(targetMs);
    await settle();
  }
}

/** Lets every queued microtask (and those they queue) run: one macrotask turn. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
