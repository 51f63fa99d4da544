/**
 * Deterministic time for client tests: a clock that moves only when told (or when `sleep` or a timer is used:
 * `sleep` records the requested delay and advances the clock at once), and a seeded random source (mulberry32).
 */
export interface FakeTime {
  now(): number;
  sleep(ms: number): Promise<void>;
  advance(ms: number): void;
  /** A timer for code under test: advances the clock by `ms` and fires on the next microtask. */
  setTimer(fn: () => void, ms: number): () => void;
  /** Every delay passed to `sleep`, in order. */
  readonly sleeps: number[];
}

export function fakeTime(startMs = Date.parse('2026-03-23T12:00:00.000Z')): FakeTime {
  let now = startMs;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
    setTimer: (fn: () => void, ms: number) => {
      let cancelled = false;
      queueMicrotask(() => {
        if (cancelled) return;
        now += ms;
        fn();
      });
      return () => {
        cancelled = true;
      };
    },
    sleeps,
  };
}

/** mulberry32 (src/core/random.ts): a small seeded PRNG returning floats in [0, 1). */
export { mulberry32 as seededRandom } from '../../src/core/random.js';
