/**
 * Stopping a bot that is still starting: every wait of the start-up sequence (a start-up read's backoff, each step of
 * opening resources and of the boot order) ends at once when the bot is asked to stop, and the sequence goes no
 * further. What was opened is then closed by the stop (src/app/bot.ts).
 *
 * Owns: the typed error that ends an aborted start, and the two helpers every start-up step uses. Invariants: an
 * aborted start throws StartAbortedError naming the step it reached, never anything else; a wait never outlives the
 * abort by more than a turn of the event loop; no timer is left armed by an aborted wait.
 */
import type { Scheduler } from '../core/clock.js';

export class StartAbortedError extends Error {
  override readonly name = 'StartAbortedError';
  constructor(readonly step: string) {
    super(`start-up stopped at ${step}: a stop was requested`);
  }
}

/** Throws StartAbortedError when `signal` is aborted. */
export function throwIfStopping(signal: AbortSignal | undefined, step: string): void {
  if (signal?.aborted === true) throw new StartAbortedError(step);
}

/** Waits `ms` on the scheduler; rejects with StartAbortedError as soon as `signal` aborts (its timer canceled). */
export function abortableSleep(scheduler: Scheduler, ms: number, signal: AbortSignal | undefined, step: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new StartAbortedError(step));
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(new StartAbortedError(step));
    };
    const cancel = scheduler.schedule(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
