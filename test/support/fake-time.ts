/**
 * Deterministic time for client tests: a clock that moves only when told (or when `sleep` or a timer is used:
 * `sleep` records the requested delay and advances the clock at once), and a seeded random source (mulberry32).
 *
 * Two kinds of timer: `setTimer` (the limiter's waits) advances the clock by its delay and fires on the next
 * microtask; `deadline` (the transport's answer timeout) never moves the clock and fires only when the clock is moved
 * to its due time (`advance`, `sleep` or a `setTimer`), so a slow machine never makes an answer late.
 */
export interface FakeTime {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Moves the clock forward, firing the deadlines now due (in due order). */
  advance(ms: number): void;
  /** A timer for code under test: advances the clock by `ms` and fires on the next microtask. */
  setTimer(fn: () => void, ms: number): () => void;
  /** A timer that fires when the clock reaches now + `ms` (and never by itself); returns its cancel. */
  deadline(fn: () => void, ms: number): () => void;
  /** Every delay passed to `sleep`, in order. */
  readonly sleeps: number[];
}

export function fakeTime(startMs = Date.parse('2026-03-23T12:00:00.000Z')): FakeTime {
  let now = startMs;
  const sleeps: number[] = [];
  const deadlines: { readonly dueMs: number; readonly fn: () => void }[] = [];
  const moveBy = (ms: number): void => {
    now += ms;
    for (;;) {
      const due = deadlines.filter((d) => d.dueMs <= now).sort((a, b) => a.dueMs - b.dueMs)[0];
      if (due === undefined) return;
      deadlines.splice(deadlines.indexOf(due), 1);
      due.fn();
    }
  };
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      moveBy(ms);
    },
    advance: moveBy,
    setTimer: (fn: () => void, ms: number) => {
      let cancelled = false;
      queueMicrotask(() => {
        if (cancelled) return;
        moveBy(ms);
        fn();
      });
      return () => {
        cancelled = true;
      };
    },
    deadline: (fn: () => void, ms: number) => {
      const entry = { dueMs: now + ms, fn };
      deadlines.push(entry);
      return () => {
        const index = deadlines.indexOf(entry);
        if (index !== -1) deadlines.splice(index, 1);
      };
    },
    sleeps,
  };
}

/** mulberry32 (src/core/random.ts): a small seeded PRNG returning floats in [0, 1). */
export { mulberry32 as seededRandom } from '../../src/core/random.js';
