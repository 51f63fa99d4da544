/**
 * The paper session's clock (`venue.startBeforeHourSec`, simulator only): the embedded simulator and the bot share a
 * clock that starts that many seconds before the next UTC hour boundary and then runs at the real pace, so a paper run
 * (or a process test of `npm start`) sees an hourly market settle, its payout posted and its winnings come back within
 * seconds. The simulator's engine (market expiries, the underlying, the payout), the bot's scheduler and the ledger's
 * recorded times all read it; log lines keep the wall time.
 *
 * Owns: the offset, fixed once per process (`sessionClockFor`), and the shifted scheduler. Invariants: the offset is in
 * [0, 1 h) and never changes during a run; timers fire after the same real delays as the system clock's (only `now`
 * is shifted); absent the setting there is no session clock (the caller uses its own).
 */
import { systemScheduler, type Scheduler } from '../core/clock.js';

const HOUR_MS = 3_600_000;

/** The offset that puts `realNowMs` at `beforeHourMs` before the next hour boundary after it. Pure. */
export function offsetBeforeHour(realNowMs: number, beforeHourMs: number): number {
  const boundary = (Math.floor(realNowMs / HOUR_MS) + 1) * HOUR_MS;
  let start = boundary - beforeHourMs;
  if (start < realNowMs) start += HOUR_MS; // the next boundary is nearer than asked: take the one after it
  return start - realNowMs;
}

/** A scheduler whose `now` is `base.now() + offsetMs`; its timers are the base's (the same delays). */
export function shiftedScheduler(base: Scheduler, offsetMs: number): Scheduler {
  return { now: () => base.now() + offsetMs, schedule: (delayMs, callback) => base.schedule(delayMs, callback) };
}

/** The session clock of a config, or null (real time): built once per run, shared by the simulator, the bot and its ledger. */
export function sessionClockFor(venue: { readonly kind: string; readonly startBeforeHourMs?: number }, base: Scheduler = systemScheduler): Scheduler | null {
  if (venue.kind !== 'sim' || venue.startBeforeHourMs === undefined) return null;
  return shiftedScheduler(base, offsetBeforeHour(base.now(), venue.startBeforeHourMs));
}
