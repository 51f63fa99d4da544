/**
 * The bot's periodic and one-shot timers on the injected clock (src/core/clock.ts), canceled together at stop.
 *
 * Owns: every timer the composition root arms (position marks, ledger check, order-stream sweep, freshness
 * confirmation, expiry stops, the strategy runner's requote interval). Invariants: after `cancelAll` no timer of this
 * set runs again, including one re-armed by a running callback; a periodic callback that throws is still re-armed.
 */
import type { Scheduler } from '../core/clock.js';

/** Node's setTimeout limit: an expiry stop further away than this is re-armed in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export class Timers {
  private readonly cancels: (() => void)[] = [];
  private canceled = false;

  constructor(private readonly scheduler: Scheduler) {}

  /** Runs `fn` every `ms` until canceled (the returned function, or `cancelAll`). */
  every(ms: number, fn: () => void): () => void {
    let stopped = false;
    let cancel: () => void = () => undefined;
    const arm = (): void => {
      if (stopped || this.canceled) return;
      cancel = this.scheduler.schedule(ms, () => {
        if (stopped || this.canceled) return;
        try {
          fn();
        } finally {
          arm();
        }
      });
    };
    arm();
    const stop = (): void => {
      stopped = true;
      cancel();
    };
    this.cancels.push(stop);
    return stop;
  }

  /** Runs `fn` once at `atMs` (clock time); nothing when that time has passed. Long delays re-arm in steps. */
  at(atMs: number, fn: () => void): void {
    const arm = (): void => {
      const delayMs = atMs - this.scheduler.now();
      if (delayMs < 0 || this.canceled) return;
      this.cancels.push(this.scheduler.schedule(Math.min(delayMs, MAX_DELAY_MS), () => (this.scheduler.now() >= atMs ? fn() : arm())));
    };
    arm();
  }

  cancelAll(): void {
    this.canceled = true;
    for (const cancel of this.cancels.splice(0)) cancel();
  }
}
