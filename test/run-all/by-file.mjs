// The slowest test files of two vitest JSON reports side by side, as a markdown table (docs/testing.md, "How long it
// takes"): each file's wall time from its start to its end, in the first report and the second, and each report's
// wall time from its start to its last file's end. Files are matched by their path from the checkout's root (the
// `test/` part on), so reports of two clones compare. Usage:
//   node test/run-all/by-file.mjs <before.json> <after.json> [count, default 20]
import { readFileSync } from 'node:fs';

function files(path) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const byFile = new Map(report.testResults.map((file) => [file.name.replace(/^.*?\/(test\/)/, '$1'), (file.endTime - file.startTime) / 1000]));
  const wall = (Math.max(...report.testResults.map((file) => file.endTime)) - report.startTime) / 1000;
  return { byFile, wall, passed: report.numPassedTests, failed: report.numFailedTests };
}

const [beforePath, afterPath, countArg = '20'] = process.argv.slice(2);
if (beforePath === undefined || afterPath === undefined) {
  console.error('usage: node test/run-all/by-file.mjs <before.json> <after.json> [count]');
  process.exit(2);
}
const [before, after] = [files(beforePath), files(afterPath)];
const count = Number(countArg);
const slowest = [...before.byFile.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
const cell = (seconds) => (seconds === undefined ? '–' : seconds.toFixed(1));
console.log('| file | before (s) | after (s) |');
console.log('|---|---|---|');
for (const [name, seconds] of slowest) console.log(`| ${name} | ${cell(seconds)} | ${cell(after.byFile.get(name))} |`);
const sum = (report) => [...report.byFile.values()].reduce((total, seconds) => total + seconds, 0);
console.log(`| all ${before.byFile.size} / ${after.byFile.size} files, summed | ${sum(before).toFixed(0)} | ${sum(after).toFixed(0)} |`);
console.log(`| vitest, first file's start to last file's end | ${before.wall.toFixed(0)} | ${after.wall.toFixed(0)} |`);
console.log(`| tests passed / failed | ${before.passed} / ${before.failed} | ${after.passed} / ${after.failed} |`);
