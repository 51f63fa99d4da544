/**
 * Test projects. Every test file belongs to exactly one of four projects. `npm test` (test/run-all/run-all.mjs) runs
 * them as three vitest runs: `unit` beside the checks (typecheck, build and eslint in one TypeScript program:
 * test/run-all/checks.mjs); once it has ended and dist/ is written, `arrival-timing` + `integration`, with `backtest`
 * beside them (OM_TEST_BACKGROUND=1: one worker), taking the CPU the waiting files leave.
 *
 * - the compute-only files, 2 workers (the machine's 2 cores), one in the background:
 *   - `unit`: pure modules under test/unit and test/sim/engine, in worker threads without isolation (the modules
 *     are imported once per worker, not once per file). `npm run test:quick` runs this project alone.
 *   - `backtest`: the strategy backtests and the heaviest pure files (BACKTEST_FILES): pure too, but seconds of CPU
 *     each, so they run beside the integration run (a vitest run of their own, one worker) and never as peers of
 *     the integration files in their workers.
 *   Neither may open a socket, listen on a port or start a child process (test/setup/no-io.ts makes each throw).
 * - group 1, INTEGRATION_WORKERS forked workers (more than cores: these files mostly wait):
 *   - `arrival-timing`: ARRIVAL_TIMING_FILES, which measure request spacing against the real clock, each in its own
 *     process. They start first: vitest runs a group's projects in the order of their names, and the multi-bot run
 *     is the longest file of the suite (so the name sorts before `integration`).
 *   - `integration`: everything else (simulator conformance, contract, integration, chaos, bad input, and the
 *     unit-folder files in IO_UNIT_FILES). They wait on the simulator's rate limit, socket round trips, timers and
 *     child processes. A worker keeps its module cache from file to file (no isolation: measured, 254 s of the
 *     files' time went to importing the sources with isolation, 19 s without), so a file leaves no global state
 *     behind: no module mocks, fake timers, stubbed globals or writes to process.env (none does).
 *   Every process runs at the priority it was started with: a test that judges a gap against the real clock explains
 *   a late stamp by the stalls of its own event loop (test/support/chaos-invariants.ts), not by a priority, and a
 *   worker that lowered its priority lost the CPU to everything else on a shared machine (docs/testing.md).
 *
 * Partition invariant: `unit` is every *.test.ts under UNIT_DIRS but IO_UNIT_FILES and HEAVY_UNIT_FILES (the list
 * unitFiles() computes);
 * `integration` includes every test file and excludes that list, BACKTEST_FILES and ARRIVAL_TIMING_FILES, so a new file
 * can never fall through. Workers: OM_TEST_WORKERS overrides the group-1 count (vitest wants one count per group).
 */
import { readdirSync } from 'node:fs';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const UNIT_DIRS = ['test/unit', 'test/sim/engine'];

/** Files under UNIT_DIRS that start a server, connect to one or spawn a process: they run in `integration`. */
const IO_UNIT_FILES = [
  'test/unit/markets/venue-markets.test.ts',
  'test/unit/venue/venue-adapter.test.ts',
  'test/unit/venue/venue-adapter-cross-market.test.ts',
  'test/unit/cli/child-process.test.ts',
  'test/unit/cli/cli.test.ts',
  'test/unit/cli/price.test.ts',
  'test/unit/core/clock.test.ts',
  'test/unit/doctor/sim-account-checks.test.ts',
  'test/unit/exchange/api.test.ts',
  'test/unit/exchange/http.test.ts',
  'test/unit/exchange/invalid-answers.test.ts',
  'test/unit/exchange/limiter-shared.test.ts',
  'test/unit/exchange/limiter.test.ts',
  'test/unit/exchange/retry-table.test.ts',
  'test/unit/exchange/socket.test.ts',
  'test/unit/ledger/crash.test.ts',
  'test/unit/metrics/metrics.test.ts',
  'test/unit/metrics/ops-files.test.ts',
  'test/unit/metrics/server.test.ts',
  'test/unit/replay/underlying-import.test.ts',
];

/**
 * The `backtest` project: the CPU-bound strategy backtests of test/integration (virtual time, no I/O), the config's own
 * selection in the synthetic and replay backtests (`backtest-config-selection`: 13.5 s of CPU in-process, the largest of
 * any integration file, measured in docs/testing.md, session 39), and the two longest pure files of UNIT_DIRS, a replay
 * backtest of listed markets and the pricer's calibration run (10–20 s of CPU each: in `unit` they made its run a
 * quarter longer; beside the integration files they take the CPU those leave).
 */
const HEAVY_UNIT_FILES = ['test/unit/replay/replay-listed.test.ts', 'test/sim/engine/calibration.test.ts'];
const BACKTEST_FILES = [
  'test/integration/strategies-*.test.ts',
  'test/integration/backtest-rolling-*.test.ts',
  'test/integration/backtest-config-selection.test.ts',
  ...HEAVY_UNIT_FILES,
];

/**
 * Five group-1 files side by side by default (CI, `npm test`): a file takes about a third of a core on average
 * (measured: 206 s of CPU in all for 805 s of per-file time, CLI children started from dist/, which `npm test`
 * builds), and group 1 is bound by its files' waiting (per-file times over workers), not by the CPU. With six the
 * limiter's real-clock test once saw a gap of 269 ms where ≥ 295 is asserted (before it judged gaps by its loop's
 * stalls); five measured in docs/testing.md ("How long it takes").
 */
const INTEGRATION_WORKERS = 5;

/** The `unit` project's files: every *.test.ts under UNIT_DIRS but IO_UNIT_FILES and HEAVY_UNIT_FILES (paths relative to the root). */
function unitFiles(): string[] {
  const io = new Set([...IO_UNIT_FILES, ...HEAVY_UNIT_FILES]);
  return UNIT_DIRS.flatMap((dir) =>
    readdirSync(new URL(dir, import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `${dir}/${name.split('\\').join('/')}`),
  )
    .filter((file) => !io.has(file))
    .sort();
}

function workerCount(): number {
  const raw = process.env['OM_TEST_WORKERS'];
  if (raw === undefined || raw === '') return INTEGRATION_WORKERS;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`OM_TEST_WORKERS must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

const UNIT = unitFiles();

/**
 * `npm test` runs `backtest` (and with OM_TEST_SIDE_BY_SIDE=1 `unit` too) beside the integration run
 * (test/run-all/run-all.mjs, OM_TEST_BACKGROUND=1): they share the CPU with it, in stretches, so their hang bounds are
 * five times the default (a test's own bound: test/support/hang-bound.ts). A timeout only catches a hang; no assertion
 * of theirs is about time.
 */
const BACKGROUND = process.env['OM_TEST_BACKGROUND'] === '1';
const BACKGROUND_TIMEOUTS = BACKGROUND ? { testTimeout: 150_000, hookTimeout: 150_000 } : {};
/**
 * Workers of each compute-only project: the cores alone; one in the background, where the run is bound by the CPU of
 * the whole suite and a second worker only imports the same modules again (the waiting files keep the cores busy).
 */
const COMPUTE_WORKERS = BACKGROUND ? 1 : 2;

/**
 * Files that measure request spacing against the real clock: the multi-bot run (three bot processes on one account,
 * the simulator stamping arrivals) and the limiter's own timing test. Each runs in a fresh process of the
 * `arrival-timing` project, started first; a sibling's CPU burst that makes their simulator stamp late shows as a
 * stall of its loop, which their checks tell from a short gap (chaos-invariants.ts `rateLimitViolations`).
 */
const ARRIVAL_TIMING_FILES = ['test/integration/multi-bot.test.ts', 'test/unit/exchange/limiter.test.ts'];

/**
 * The group-1 files that take 30 s or more (docs/testing.md), longest first. On a fresh clone (CI) vitest has no
 * record of earlier durations and starts the largest files first; these would then start last and stretch the run by
 * their own length (measured: crash-restart started at 231 s of a 273 s run). Keep the list to the few long ones.
 */
const LONG_FILES = [
  'test/integration/multi-bot.test.ts',
  'test/integration/bot-rolling-markets.test.ts',
  'test/integration/load-rate-limit.test.ts',
  'test/integration/doctor.test.ts',
  'test/chaos/network.test.ts',
  'test/chaos/http-faults.test.ts',
  'test/integration/ops-stop-while-starting.test.ts',
  'test/chaos/crash-restart.test.ts',
];

/** vitest's order (by recorded duration, else by size), with LONG_FILES moved to the front in their listed order. */
class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = LONG_FILES.indexOf(relative(spec.project.config.root, spec.moduleId).split('\\').join('/'));
      return index === -1 ? LONG_FILES.length : index;
    };
    return sorted
      .map((spec, position) => ({ spec, position }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.position - b.position)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    setupFiles: ['test/setup/fast-check-seed.ts'],
    sequence: { sequencer: LongFilesFirst },
    // The modules vitest transforms (TypeScript to JavaScript) are kept on disk (node_modules/.experimental-vitest-cache,
    // keyed by each file's content and the config; `npx vitest --clearCache` empties it), so `npm test`'s three vitest
    // runs transform a source module once, not once each: on a fresh clone 48 s less CPU (docs/testing.md, session 40).
    experimental: { fsModuleCache: true },
    reporters: process.env['VITEST_JSON'] ? ['default', ['json', { outputFile: process.env['VITEST_JSON'] }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          ...BACKGROUND_TIMEOUTS,
          include: UNIT,
          pool: 'threads',
          isolate: false,
          maxWorkers: COMPUTE_WORKERS,
          setupFiles: ['test/setup/no-io.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'backtest',
          ...BACKGROUND_TIMEOUTS,
          include: BACKTEST_FILES,
          pool: 'forks',
          maxWorkers: COMPUTE_WORKERS,
          setupFiles: ['test/setup/no-io.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'arrival-timing',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          include: ARRIVAL_TIMING_FILES,
          pool: 'forks',
          maxWorkers: workerCount(),
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // A timeout here only catches a hang: with files side by side, a bot or CLI process takes several times its
          // unloaded start-up, so the bound is twice the unit files'.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...BACKTEST_FILES, ...ARRIVAL_TIMING_FILES],
          pool: 'forks',
          isolate: false,
          maxWorkers: workerCount(),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
