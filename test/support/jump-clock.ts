/**
 * Test helper: the system clock and timers, shifted by an offset the test moves forward with `jump` — for a whole
 * Bot (`BotOptions.scheduler`) whose scenario has a moment in it (a market's stop before expiry) that must come a
 * known time after the bot is ready, however long the start-up took on a loaded machine.
 *
 * Invariants: `now()` is Date.now() plus the offset, so it never goes back; a timer runs once, never before its due
 * time on this clock; after a jump every pending timer due by the new time runs at once (in due order, via the system
 * scheduler), the others wait for what is left. Only the bot's own clock moves: anything on the wall clock (the
 * simulator, HMAC timestamps, the rate limiter's monotonic clock) does not.
 */
import { systemScheduler, type CancelTimer, type Scheduler } from '../../src/core/clock.js';

interface Pending {
  readonly dueMs: number;
  readonly callback: () => void;
  cancel: CancelTimer;
}

export class JumpClock implements Scheduler {
  private offset = 0;
  private readonly pending = new Set<Pending>();

  /** How far this clock is ahead of the wall clock (ms). */
  get offsetMs(): number {
    return this.offset;
  }

  now(): number {
    return Date.now() + this.offset;
  }

  schedule(delayMs: number, callback: () => void): CancelTimer {
    const entry: Pending = { dueMs: this.now() + Math.max(0, delayMs), callback, cancel: () => undefined };
    this.pending.add(entry);
    this.arm(entry);
    return () => {
      entry.cancel();
      this.pending.delete(entry);
    };
  }

  /** Moves the clock `ms` forward: what falls due meanwhile runs at once, the rest keeps its due time. */
  jump(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`JumpClock.jump: ms must be >= 0, got ${ms}`);
    this.offset += ms;
    for (const entry of [...this.pending].sort((a, b) => a.dueMs - b.dueMs)) {
      entry.cancel();
      this.arm(entry);
    }
  }

  private arm(entry: Pending): void {
    entry.cancel = systemScheduler.schedule(entry.dueMs - this.now(), () => {
      this.pending.delete(entry);
      entry.callback();
    });
  }
}
