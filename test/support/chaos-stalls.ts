/**
 * Records stalls of this process's event loop (a 2 ms interval timer that fired late), each as the stretch
 * endMs - ms .. endMs in which the loop did not come round to its timers. A simulator or server in this process
 * stamps request arrivals when its loop gets to them, so a stall makes it stamp late; chaos-invariants.ts
 * `rateLimitViolations` (and `stalledMs`) use these records to tell such noise from a real short gap.
 */
import type { LoopStall } from './chaos-invariants.js';

export interface StallRecorder {
  readonly stalls: readonly LoopStall[];
  stop(): void;
}

export interface StallRecorderOptions {
  /** The timer's period (default 2 ms). */
  readonly probeMs?: number;
  /** A tick later than probeMs + minStallMs is a stall of (lateness) ms (default 3 ms). */
  readonly minStallMs?: number;
  /** The clock the stamps to be explained are on (default Date.now, the simulator's; a server may stamp on performance.now). */
  readonly now?: () => number;
}

/** Starts recording (an unref'd timer: it never keeps the process alive). */
export function startStallRecorder(options: StallRecorderOptions = {}): StallRecorder {
  const probeMs = options.probeMs ?? 2;
  const minStallMs = options.minStallMs ?? 3;
  const now = options.now ?? Date.now;
  const stalls: LoopStall[] = [];
  let last = now();
  const timer = setInterval(() => {
    const at = now();
    if (at - last > probeMs + minStallMs) stalls.push({ endMs: at, ms: at - last - probeMs });
    last = at;
  }, probeMs);
  timer.unref();
  return { stalls, stop: () => clearInterval(timer) };
}
