/**
 * A test's hang bound (its vitest timeout), stretched when `OM_TEST_SIDE_BY_SIDE=1 npm test` runs the compute-only projects in the background
 * (OM_TEST_BACKGROUND=1, test/run-all/run-all.mjs: at a lower priority beside the integration run, so a CPU-bound
 * test gets the cores only in the stretches the waiting files leave). A timeout only catches a hang; no assertion is
 * about time, so stretching it weakens nothing.
 */
export const BACKGROUND_STRETCH = 5;

export function hangBound(ms: number, env: NodeJS.ProcessEnv = process.env): number {
  return env['OM_TEST_BACKGROUND'] === '1' ? ms * BACKGROUND_STRETCH : ms;
}
