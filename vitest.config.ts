/**
 * Test projects. Every test file belongs to exactly one of three projects, run in two groups one after the other:
 *
 * - group 0, 2 workers (the machine's 2 cores: these files only compute):
 *   - `unit`: pure modules under test/unit and test/sim/engine, in worker threads without isolation (the modules
 *     are imported once per worker, not once per file). `npm run test:quick` runs this project alone.
 *   - `backtest`: the strategy backtests (BACKTEST_FILES), ten virtual minutes each on the real engine: pure too, but
 *     seconds of CPU each, so they run beside the unit files and never among the integration files they would starve.
 *   Neither may open a socket, listen on a port or start a child process (test/setup/no-io.ts makes each throw).
 * - group 1, `integration`, INTEGRATION_WORKERS forked workers: everything else (simulator conformance, contract,
 *   integration, chaos, bad input, and the unit-folder files in IO_UNIT_FILES). These files mostly wait (the
 *   simulator's rate limit, socket round trips, timers, child processes), so more workers than cores run at once;
 *   each file keeps its own process.
 *
 * Partition invariant: `unit` is every *.test.ts under UNIT_DIRS but IO_UNIT_FILES (the list unitFiles() computes);
 * `integration` includes every test file and excludes that list and BACKTEST_FILES, so a new file can never fall
 * through all three. Workers: OM_TEST_WORKERS overrides the integration project's count.
 */
import { readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const UNIT_DIRS = ['test/unit', 'test/sim/engine'];

/** Files under UNIT_DIRS that start a server, connect to one or spawn a process: they run in `integration`. */
const IO_UNIT_FILES = [
  'test/unit/app/markets.test.ts',
  'test/unit/app/venue-adapter.test.ts',
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

/** The CPU-bound strategy backtests of test/integration (virtual time, no I/O). */
const BACKTEST_FILES = ['test/integration/strategies-*.test.ts'];

/**
 * One integration file at a time by default (CI, `npm test`); `OM_TEST_WORKERS=3` runs three side by side (about 8 min
 * instead of 17 on 2 cores). Each integration file runs a simulator and often a bot in real time, and several checks
 * judge the simulator's own arrival stamps (no 429, no second order in a slot): with files side by side on 2 cores
 * the simulators' event loops starve, arrivals bunch and real 429s follow. Measured on clean-clone `.ci/run`s of an
 * otherwise idle machine: 3 workers, 491 s, 2 such failures in 2,004 tests; 2 workers, 615 s, 2 other ones.
 */
const INTEGRATION_WORKERS = 1;

/** The `unit` project's files: every *.test.ts under UNIT_DIRS but IO_UNIT_FILES (paths relative to the root). */
function unitFiles(): string[] {
  const io = new Set(IO_UNIT_FILES);
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
 * Files that measure the venue's rate limit across several real processes with the simulator in yet another one: a
 * sibling file loading the 2 cores makes that simulator stamp arrivals late and answer real 429s (measured: 3 in 35 s
 * with three files beside it, none alone). They run after everything else, one at a time.
 */
const SOLO_FILES = ['test/integration/multi-bot.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    setupFiles: ['test/setup/fast-check-seed.ts'],
    reporters: process.env['VITEST_JSON'] ? ['default', ['json', { outputFile: process.env['VITEST_JSON'] }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          pool: 'threads',
          isolate: false,
          maxWorkers: 2,
          setupFiles: ['test/setup/no-io.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'backtest',
          include: BACKTEST_FILES,
          pool: 'forks',
          maxWorkers: 2,
          setupFiles: ['test/setup/no-io.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // A timeout here only catches a hang: with files side by side, a bot or CLI process compiling its sources
          // (tsx) takes several times its unloaded start-up, so the bound is twice the unit files'.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...BACKTEST_FILES, ...SOLO_FILES],
          pool: 'forks',
          maxWorkers: workerCount(),
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'solo',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          include: SOLO_FILES,
          pool: 'forks',
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
