/**
 * Records stalls of this process's event loop (a 2 ms interval timer that fired late), with the wall-clock time the
 * loop ran again. A simulator in this process stamps request arrivals when its loop gets to them, so a stall makes
 * it stamp late; chaos-invariants.ts `rateLimitViolations` uses these records to tell such noise from a real 429.
 */
import type { LoopStall } from './chaos-invariants.js';

export interface StallRecorder {
  readonly stalls: readonly LoopStall[];
  stop(): void;
}

/** Starts recording; a tick later than `probeMs + minStallMs` is a stall of (lateness) ms. */
export function startStallRecorder(probeMs = 2, minStallMs = 3): StallRecorder {
  const stalls: LoopStall[] = [];
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    if (now - last > probeMs + minStallMs) stalls.push({ endMs: now, ms: now - last - probeMs });
    last = now;
  }, probeMs);
  timer.unref();
  return { stalls, stop: () => clearInterval(timer) };
}
