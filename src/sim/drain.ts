/**
 * Draining the standalone simulator after a stop signal: when the simulator and its bots are stopped together
 * (`pm2 delete all` signals every app at once), the bots still have orders to cancel. With `--drain-ms N` the
 * simulator keeps serving after the signal until its clients are done: no socket client connected and no request
 * for `idleMs` — or until N ms have passed.
 *
 * Owns: the decision when a drain is over (a pure function) and the polling loop around it.
 * Invariants: a drain never lasts longer than `drainMs` after the signal; `drainMs` 0 closes at once.
 */
import type { RunningSimulator } from './index.js';

export interface DrainFacts {
  readonly nowMs: number;
  readonly signalAtMs: number;
  readonly socketConnections: number;
  /** When the last request arrived (the signal's time if none came since). */
  readonly lastRequestAtMs: number;
}

export interface DrainPolicy {
  /** Longest drain after the signal; 0 = none. */
  readonly drainMs: number;
  /** Quiet time (no request, no socket) that ends the drain early. */
  readonly idleMs: number;
}

export function drainOver(facts: DrainFacts, policy: DrainPolicy): boolean {
  if (facts.nowMs - facts.signalAtMs >= policy.drainMs) return true;
  const quietSince = Math.max(facts.lastRequestAtMs, facts.signalAtMs);
  return facts.socketConnections === 0 && facts.nowMs - quietSince >= policy.idleMs;
}

/** Waits (polling every `pollMs`, wall clock) until `drainOver`. */
export async function drainClients(sim: RunningSimulator, policy: DrainPolicy, pollMs = 200): Promise<void> {
  const signalAtMs = Date.now();
  const signalSimMs = sim.clock.now();
  for (;;) {
    const last = sim.control.requestLog({ limit: 1 })[0];
    // The request log is stamped on the simulator's clock: carry its age over to the wall clock.
    const lastRequestAtMs = last === undefined || last.atMs < signalSimMs ? signalAtMs : Date.now() - (sim.clock.now() - last.atMs);
    const facts: DrainFacts = { nowMs: Date.now(), signalAtMs, socketConnections: sim.control.state().socketConnections, lastRequestAtMs };
    if (drainOver(facts, policy)) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
