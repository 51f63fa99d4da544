/**
 * Seeds for the chaos suite: one base seed per run, printed so a failure can be replayed, and a sub-seed per
 * scenario derived from it (so replaying one file replays every scenario in it the same way).
 *
 * Without `OM_CHAOS_SEED` the suite plays one fixed schedule (`DEFAULT_CHAOS_SEED`), so `npm test` and CI are
 * deterministic; `OM_CHAOS_SEED=random` draws a fresh seed per run to explore new schedules, and `OM_CHAOS_SEED=<n>`
 * replays one. The scenario's random choices (fault timings, counts, kinds) all come from its PRNG; the processes'
 * timing is not under the seed's control, so a replay reproduces the schedule, not every interleaving.
 */
import { randomInt } from 'node:crypto';
import { seededRandom } from './fake-time.js';

/** The schedule `npm test` plays. */
export const DEFAULT_CHAOS_SEED = 20_261_121;

const fromEnv = process.env['OM_CHAOS_SEED'];
const BASE_SEED =
  fromEnv === 'random' ? randomInt(1, 1_000_000_000) : fromEnv !== undefined && /^\d{1,9}$/.test(fromEnv) ? Number(fromEnv) : DEFAULT_CHAOS_SEED;

/** True when the long randomized run is requested (OM_CHAOS_LONG=1). */
export const CHAOS_LONG = process.env['OM_CHAOS_LONG'] === '1';

/** Minutes of the long run (OM_CHAOS_MINUTES, default 5). */
export const CHAOS_LONG_MINUTES = Math.max(1, Number(process.env['OM_CHAOS_MINUTES'] ?? 5) || 5);

/** FNV-1a of the scenario name mixed with the base seed. */
function derive(base: number, name: string): number {
  let hash = 0x811c9dc5 ^ base;
  for (let i = 0; i < name.length; i += 1) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % 1_000_000_000 || 1;
}

export interface ScenarioRandom {
  readonly seed: number;
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** The scenario's seeded randomness; prints the base seed and how to replay. */
export function scenarioRandom(name: string): ScenarioRandom {
  const seed = derive(BASE_SEED, name);
  console.log(`[chaos] ${name}: base seed ${BASE_SEED} (scenario seed ${seed}); replay with OM_CHAOS_SEED=${BASE_SEED}`);
  const next = seededRandom(seed);
  return {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
  };
}
