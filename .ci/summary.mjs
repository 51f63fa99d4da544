// The end of `.ci/run`'s output, from vitest's JSON results: the ten slowest test files (wall time of each file from
// its start to its end, tests in it), the sum of per-file times, the names of the failed tests with the first lines of
// each one's failure message (and the files that failed outside any test: a hook or the file's import), then the one summary line `N passed, N failed`, which is
// always the last line printed. Usage: node .ci/summary.mjs <vitest.json> <extra failures (a failed build)>.
// A missing or unreadable results file prints why, then `0 passed, <1 + extra> failed`, and exits 1.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const SLOWEST = 10;

/** At most this many failure names are printed (the count line still counts every failure). */
const MAX_FAILED_NAMES = 50;

/**
 * Under each failed test, the first lines of its failure message (ANSI colours removed), so a log that keeps only its
 * end still says why: at most this many lines, each cut to MAX_REASON_CHARS.
 */
const MAX_REASON_LINES = 8;
const MAX_REASON_CHARS = 240;

/** The first lines of a failure message, indented under the test's name. Pure. */
function reasonLines(message) {
  const text = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const lines = text.split('\n').map((line) => line.trimEnd()).filter((line) => line.trim() !== '' && !/^\s+at /.test(line));
  return lines.slice(0, MAX_REASON_LINES).map((line) => `      ${line.length > MAX_REASON_CHARS ? `${line.slice(0, MAX_REASON_CHARS)}…` : line}`);
}

/**
 * The failures of a report, one name each: every failed test (`file > describe > test`), and every failed file none
 * of whose tests failed (its hook or its import failed: vitest then counts no failed test, so it is counted here).
 */
function failures(report, root) {
  return report.testResults.flatMap((file) => {
    const name = relative(root, file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    if (failed.length > 0) {
      return failed.map((test) => ({ name: `${name} > ${[...(test.ancestorTitles ?? []), test.title ?? test.fullName ?? '?'].join(' > ')}`, reason: reasonLines(test.failureMessages?.[0]), counted: true }));
    }
    if (file.status !== 'failed') return [];
    const reason = (file.message ?? '').split('\n')[0]?.trim() || 'a hook failed';
    return [{ name: `${name}: failed outside its tests (${reason})`, reason: [], counted: false }];
  });
}

/** Lines to print for a parsed vitest JSON report; `root` makes file names relative. Pure. */
function summaryLines(report, extraFailures, root) {
  const files = report.testResults
    .map((file) => ({ name: relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000, tests: file.assertionResults.length }))
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
  const total = files.reduce((sum, file) => sum + file.seconds, 0);
  const wall = Math.max(0, ...report.testResults.map((file) => file.endTime)) - report.startTime;
  const failed = failures(report, root);
  const failedCount = report.numFailedTests + failed.filter((failure) => !failure.counted).length + extraFailures;
  const failedLines =
    failed.length === 0
      ? []
      : [
          `failed (${failed.length}):`,
          ...failed.slice(0, MAX_FAILED_NAMES).flatMap((failure) => [`  ${failure.name}`, ...failure.reason]),
          ...(failed.length > MAX_FAILED_NAMES ? [`  … and ${failed.length - MAX_FAILED_NAMES} more`] : []),
        ];
  return [
    `slowest ${Math.min(SLOWEST, files.length)} test files (wall s, tests):`,
    ...files.slice(0, SLOWEST).map((file) => `${file.seconds.toFixed(1).padStart(8)} ${String(file.tests).padStart(4)}  ${file.name}`),
    `${files.length} files: per-file times sum to ${total.toFixed(1)} s; tests ran for ${(wall / 1000).toFixed(1)} s from the first file's start`,
    ...failedLines,
    ...(extraFailures > 0 ? [`${extraFailures} failure${extraFailures === 1 ? '' : 's'} outside the tests (the build: see \`npm run build\` above)`] : []),
    `${report.numPassedTests} passed, ${failedCount} failed`,
  ];
}

function main() {
  const [path, extraArg = '0'] = process.argv.slice(2);
  const extra = Number(extraArg);
  if (path === undefined || !Number.isSafeInteger(extra) || extra < 0) {
    console.error(`usage: node .ci/summary.mjs <vitest.json> <extra failures>, got ${JSON.stringify(process.argv.slice(2))}`);
    process.exit(2);
  }
  let report;
  try {
    report = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    console.error(`no vitest results at ${path}: ${error instanceof Error ? error.message : String(error)}`);
    console.log('failed: no test ran (`npm test` stopped before vitest: the typecheck or lint above, or vitest did not start)');
    console.log(`0 passed, ${1 + extra} failed`);
    process.exit(1);
  }
  for (const line of summaryLines(report, extra, process.cwd())) console.log(line);
}

main();
