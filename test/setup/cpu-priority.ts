/**
 * Setup file of the `integration` project (vitest.config.ts): its worker processes yield the CPU (nice
 * +YIELD_NICENESS, inherited by the simulators, bots and CLIs they spawn) to the `arrival-timing` project's files,
 * which run beside them at the priority they were started with.
 *
 * Why: the group-1 files run side by side on a 2-core machine and mostly wait, but the `arrival-timing` files measure
 * request spacing against the real clock (a simulator process stamping arrivals, bots spacing by their own clocks):
 * when a sibling's burst takes the CPU, that simulator stamps arrivals late and answers real 429s. Lowering the
 * siblings' priority (always permitted, unlike raising one's own) leaves those files the CPU whenever they want it.
 *
 * Invariant: the priority is only ever lowered, to the same value, however many files a worker runs.
 */
import { setPriority } from 'node:os';

/** The niceness the integration workers take: CFS then gives a nice-0 process about nine times their share of a core. */
export const YIELD_NICENESS = 10;

try {
  setPriority(YIELD_NICENESS);
} catch (error) {
  // A platform without priorities: the files still run, only less shielded from each other.
  console.warn(`cpu-priority: could not lower this worker's priority: ${String(error)}`);
}
