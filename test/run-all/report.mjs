// The one vitest JSON report `npm test` leaves for `.ci/summary.mjs`, made from the reports of its two vitest runs
// and the outcome of its checks. Pure: no file, no process. Invariants: every test a run reported is kept once; a run
// that left no report and a check that failed each become one failed entry outside the tests (a file entry with no
// test and status `failed`, which summary.mjs counts and names), so `N passed, N failed` never reads 0 failed when a
// part of `npm test` failed.

/** The counters of a vitest JSON report that add up across runs. */
const COUNTERS = [
  'numTotalTestSuites',
  'numPassedTestSuites',
  'numFailedTestSuites',
  'numPendingTestSuites',
  'numTotalTests',
  'numPassedTests',
  'numFailedTests',
  'numPendingTests',
  'numTodoTests',
];

/**
 * A failed entry outside the tests, shaped as a file of vitest's JSON report. `name` is absolute (summary.mjs prints
 * it relative to the root), `message` the first line of why, `atMs` when it was known.
 */
export function failedPart(name, message, atMs) {
  return { name, status: 'failed', message, startTime: atMs, endTime: atMs, assertionResults: [] };
}

/**
 * Merge the parts of one `npm test`: `runs` are the vitest runs in order, each `{ name, report }` with `report` the
 * parsed JSON or `undefined` when the run left none (it crashed, or never started), and `failures` the other failed
 * entries (from failedPart). `nowMs` stamps a missing run's entry.
 */
export function mergeReports(runs, failures, nowMs) {
  const reports = runs.map((run) => run.report).filter((report) => report !== undefined);
  const missing = runs.filter((run) => run.report === undefined).map((run) => failedPart(run.name, 'this vitest run left no results (see its output above)', nowMs));
  const merged = {};
  for (const key of COUNTERS) merged[key] = reports.reduce((sum, report) => sum + (Number.isFinite(report[key]) ? report[key] : 0), 0);
  merged.startTime = reports.length === 0 ? nowMs : Math.min(...reports.map((report) => report.startTime));
  merged.success = missing.length === 0 && failures.length === 0 && reports.every((report) => report.success === true);
  merged.testResults = [...reports.flatMap((report) => report.testResults ?? []), ...missing, ...failures];
  return merged;
}
