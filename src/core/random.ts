/**
 * The one seeded pseudo-random generator (mulberry32): small, fast, uniforms in [0, 1). Used where randomness must
 * replay exactly from a seed (socket backoff jitter in tests, benchmarks, test fixtures). Not for anything secret.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
