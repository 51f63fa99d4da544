/**
 * `npm test`'s orchestration (test/run-all/run-all.mjs) on stand-in parts (small node scripts in place of vitest,
 * tsc and eslint): the second vitest run starts after the first and runs beside the checks, the exit code is non-zero
 * when any part fails, and the merged JSON report makes `.ci/summary.mjs` count every failed part in its last line.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { runNodeScript } from '../support/cli-process.js';
import { poll } from '../support/poll.js';
// @ts-expect-error: a plain ES module of the test runner, without types
import { buildIsCurrent, READY_LINE as untypedReadyLine } from '../run-all/run-all.mjs';

const READY_LINE = untypedReadyLine as string;

const ROOT = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'om-run-all-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the plan given as JSON (argv[2]) with runAll, exit code as its result. */
const DRIVER = join(dir, 'driver.mjs');
writeFileSync(DRIVER, `import { runAll } from ${JSON.stringify(join(ROOT, 'test', 'run-all', 'run-all.mjs'))};\nprocess.exitCode = await runAll(JSON.parse(process.argv[2]));\n`);

/**
 * A stand-in vitest run: waits for `waitFor` (a file, polled every 20 ms, at most 20 s: exit 4 if it never comes),
 * writes a report of `passed` and `failed` tests to VITEST_JSON (unless `noReport`), touches `marker` as it ends,
 * exits 1 if a test failed.
 */
const FAKE_VITEST = `
const fs = require('node:fs');
const [passed, failed, waitFor, marker, noReport] = process.argv.slice(1);
const deadline = Date.now() + 20000;
const finish = () => {
  const now = Date.now();
  const tests = [...Array(Number(passed)).fill('passed'), ...Array(Number(failed)).fill('failed')].map((status, i) => ({ status, title: 't' + i, ancestorTitles: [] }));
  if (process.env.VITEST_JSON && noReport !== 'yes') fs.writeFileSync(process.env.VITEST_JSON, JSON.stringify({
    numTotalTests: tests.length, numPassedTests: Number(passed), numFailedTests: Number(failed), startTime: now - 10, success: Number(failed) === 0,
    testResults: [{ name: ${JSON.stringify(ROOT)} + '/test/fake-' + marker + '.test.ts', status: Number(failed) === 0 ? 'passed' : 'failed', startTime: now - 10, endTime: now, message: '', assertionResults: tests }],
  }));
  fs.writeFileSync(marker, 'done');
  process.exit(Number(failed) === 0 ? 0 : 1);
};
const poll = () => (waitFor === '-' || fs.existsSync(waitFor) ? finish() : Date.now() > deadline ? process.exit(4) : setTimeout(poll, 20));
poll();
`;

/**
 * A stand-in check (or build): exit 3 unless `mustExist` ('-': nothing) exists as it starts; touches `marker`; prints
 * a line; exits `code`.
 */
const FAKE_CHECK = `
const fs = require('node:fs');
const [mustExist, marker, code] = process.argv.slice(1);
if (mustExist !== '-' && !fs.existsSync(mustExist)) { console.log('started before the first run ended'); process.exit(3); }
fs.writeFileSync(marker, 'started');
console.log(Number(code) === 0 ? 'all clean' : 'src/x.ts(1,1): error TS2322: bad');
process.exit(Number(code));
`;

/**
 * A stand-in for the checks of test/run-all/checks.mjs: prints the line READY_LINE, then ends (exit 0) only once
 * `waitFor` exists (polled every 20 ms, at most 20 s: exit 4 if it never comes).
 */
const FAKE_READY = `
const fs = require('node:fs');
const [readyLine, waitFor] = process.argv.slice(1);
console.log('checking');
console.log(readyLine);
const deadline = Date.now() + 20000;
const poll = () => (fs.existsSync(waitFor) ? process.exit(0) : Date.now() > deadline ? process.exit(4) : setTimeout(poll, 20));
poll();
`;

interface Case {
  readonly firstFailed?: number;
  readonly buildCode?: number;
  readonly lintCode?: number;
  readonly secondNoReport?: boolean;
}

/** One orchestrated run in a fresh folder: its exit code, output, merged report and `.ci/summary.mjs`'s last line. */
async function orchestrate(name: string, c: Case = {}): Promise<{ code: number | null; out: string; report: { numPassedTests: number; testResults: { name: string; status: string }[] }; last: string }> {
  const at = (file: string): string => join(dir, `${name}-${file}`);
  const part = (partName: string, script: string, args: readonly string[], report?: string): object => ({
    name: partName,
    command: process.execPath,
    args: ['-e', script, ...args],
    cwd: ROOT,
    ...(report ? { report } : {}),
  });
  const plan = {
    // The first run finishes only once the build has started: the build runs beside it.
    first: part('vitest first', FAKE_VITEST, ['5', String(c.firstFailed ?? 0), at('build-started'), at('first-ended')], at('first.json')),
    beside: [part('build', FAKE_CHECK, ['-', at('build-started'), String(c.buildCode ?? 0)])],
    // The second run finishes only once the typecheck has started: it runs beside the checks, or never ends (exit 4).
    second: part('vitest second', FAKE_VITEST, ['7', '0', at('typecheck-started'), at('second-ended'), c.secondNoReport ? 'yes' : 'no'], at('second.json')),
    checks: [
      part('typecheck', FAKE_CHECK, [at('first-ended'), at('typecheck-started'), '0']),
      part('lint', FAKE_CHECK, [at('first-ended'), at('lint-started'), String(c.lintCode ?? 0)]),
    ],
    jsonPath: at('merged.json'),
  };
  const run = await runNodeScript(DRIVER, [JSON.stringify(plan)], { env: { PATH: process.env['PATH'] ?? '' }, until: 'close', timeoutMs: 40_000 });
  expect(existsSync(at('second-ended')), run.stdout + run.stderr).toBe(true);
  const summary = await runNodeScript(join(ROOT, '.ci', 'summary.mjs'), [at('merged.json'), '0'], { env: { PATH: process.env['PATH'] ?? '' }, until: 'close', timeoutMs: 20_000 });
  const report = JSON.parse(readFileSync(at('merged.json'), 'utf8')) as { numPassedTests: number; testResults: { name: string; status: string }[] };
  return { code: run.code, out: run.stdout, report, last: summary.stdout.trimEnd().split('\n').at(-1) ?? '' };
}

/**
 * A script expression: the process's nice and, where Linux has autogroups (/proc/self/autogroup), its session group's
 * nice after a space ("7 7"): a part leads a session of its own, and without the group's nice its own orders it only
 * within that session (run-all.mjs `renice`).
 */
const NICE_OF_SELF = `(String(require('node:os').getPriority()) + (require('node:fs').existsSync('/proc/self/autogroup') ? ' ' + require('node:fs').readFileSync('/proc/self/autogroup', 'utf8').trim().split(' nice ')[1] : ''))`;
/**
 * A script statement: records NICE_OF_SELF in `path` once the part has been reniced (run-all lowers a part's priority
 * just after starting it; on a loaded machine the part can reach this line first), or as it is after 10 s.
 */
const recordNice = (path: string): string =>
  `{ const until = Date.now() + 10000; let nice = ${NICE_OF_SELF}; while (nice.split(' ').includes('0') && Date.now() < until) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); nice = ${NICE_OF_SELF}; } require('node:fs').writeFileSync(${JSON.stringify(path)}, nice); }`;
/** What NICE_OF_SELF says of a part reniced to `nice`. */
const reniced = (nice: number): string => (existsSync('/proc/self/autogroup') ? `${nice} ${nice}` : String(nice));

describe('npm test orchestration (test/run-all/run-all.mjs)', () => {
  it('a part beside the first run that prints its ready line lets the second run start, and goes on beside it', async () => {
    const at = (file: string): string => join(dir, `ready-${file}`);
    const part = (name: string, script: string, args: readonly string[], report?: string): object => ({ name, command: process.execPath, args: ['-e', script, ...args], cwd: ROOT, ...(report ? { report } : {}) });
    const plan = {
      first: part('vitest first', FAKE_VITEST, ['5', '0', '-', at('first-ended')], at('first.json')),
      // It ends only after the second run has ended: the second run must start on its ready line, not on its end.
      beside: [{ ...part('checks', FAKE_READY, [READY_LINE, at('second-ended')]), ready: READY_LINE }],
      second: part('vitest second', FAKE_VITEST, ['7', '0', at('first-ended'), at('second-ended')], at('second.json')),
      checks: [],
      jsonPath: at('merged.json'),
    };
    const run = await runNodeScript(DRIVER, [JSON.stringify(plan)], { env: { PATH: process.env['PATH'] ?? '' }, until: 'close', timeoutMs: 40_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/ok {4} checks \(/);
    expect(run.stdout).toContain(`── checks: ok`);
    expect(run.stdout).toContain('checking');
    expect((JSON.parse(readFileSync(at('merged.json'), 'utf8')) as { numPassedTests: number }).numPassedTests).toBe(12);
  });

  it('secondWaitsForFirst false: the second run starts on the ready line while the first goes on; `nice` from a part\'s start, `niceWhenReady` from its ready line', async () => {
    const at = (file: string): string => join(dir, `overlap-${file}`);
    const part = (name: string, script: string, args: readonly string[], report?: string): object => ({ name, command: process.execPath, args: ['-e', script, ...args], cwd: ROOT, ...(report ? { report } : {}) });
    // The first run records its priority, then ends only after the second run has ended: it must not be waited for.
    const firstScript = `${recordNice(at('first-nice'))} ${FAKE_VITEST}`;
    // The checks print the ready line, then wait until their priority has been lowered, record it, and end once the
    // second run has ended.
    const checksScript = `
      const fs = require('node:fs'), os = require('node:os');
      console.log(${JSON.stringify(READY_LINE)});
      const deadline = Date.now() + 20000;
      const poll = () => {
        const nice = ${NICE_OF_SELF};
        if (!nice.split(' ').includes('0') && !fs.existsSync(${JSON.stringify(at('checks-nice'))})) fs.writeFileSync(${JSON.stringify(at('checks-nice'))}, nice);
        if (fs.existsSync(${JSON.stringify(at('checks-nice'))}) && fs.existsSync(${JSON.stringify(at('second-ended'))})) process.exit(0);
        if (Date.now() > deadline) process.exit(4);
        setTimeout(poll, 20);
      };
      poll();`;
    const plan = {
      first: { ...part('vitest first', firstScript, ['5', '0', at('second-ended'), at('first-ended')], at('first.json')), nice: 7 },
      beside: [{ ...part('checks', checksScript, []), ready: READY_LINE, niceWhenReady: 9 }],
      second: part('vitest second', FAKE_VITEST, ['7', '0', '-', at('second-ended')], at('second.json')),
      secondWaitsForFirst: false,
      checks: [],
      jsonPath: at('merged.json'),
    };
    const run = await runNodeScript(DRIVER, [JSON.stringify(plan)], { env: { PATH: process.env['PATH'] ?? '' }, until: 'close', timeoutMs: 40_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(at('first-nice'), 'utf8')).toBe(reniced(7));
    expect(readFileSync(at('checks-nice'), 'utf8')).toBe(reniced(9));
    expect((JSON.parse(readFileSync(at('merged.json'), 'utf8')) as { numPassedTests: number }).numPassedTests).toBe(12);
  });

  it('runs the build beside the first vitest run, the checks beside the second, after the first; every part passed: exit 0, one merged report', async () => {
    const { code, out, report, last } = await orchestrate('green');
    expect(code, out).toBe(0);
    expect(report.numPassedTests).toBe(12);
    expect(report.testResults.map((file) => file.status)).toEqual(['passed', 'passed']);
    expect(last).toBe('12 passed, 0 failed');
    // A check's output is printed whole as it ends, and the closing table names every part.
    expect(out).toContain('── lint: ok');
    expect(out).toMatch(/ok {4} typecheck \(/);
    expect(out).toMatch(/ok {4} vitest second \(/);
    expect(out).toMatch(/ok {4} build \(/);
  });

  it('a failed build: exit 1, counted as a failure in the summary', async () => {
    const { code, last } = await orchestrate('build-failed', { buildCode: 1 });
    expect(code).toBe(1);
    expect(last).toBe('12 passed, 1 failed');
  });

  it('a failed check: exit 1, the tests still ran, and the summary counts the check as a failure and names it', async () => {
    const { code, out, report, last } = await orchestrate('lint-failed', { lintCode: 2 });
    expect(code).toBe(1);
    expect(out).toContain('FAILED lint');
    expect(out).toContain('error TS2322');
    expect(report.numPassedTests).toBe(12);
    expect(report.testResults.at(-1)).toMatchObject({ name: join(ROOT, 'lint'), status: 'failed' });
    expect(last).toBe('12 passed, 1 failed');
  });

  it('a failed test in the first run: the second run and the checks still run; exit 1', async () => {
    const { code, last } = await orchestrate('test-failed', { firstFailed: 2 });
    expect(code).toBe(1);
    expect(last).toBe('12 passed, 2 failed');
  });

  it('a vitest run beside the second one (the background backtests): its tests join the merged report, its failures are counted once, and it may start niced', async () => {
    const at = (file: string): string => join(dir, `third-${file}`);
    const part = (name: string, script: string, args: readonly string[], report?: string): object => ({ name, command: process.execPath, args: ['-e', script, ...args], cwd: ROOT, ...(report ? { report } : {}) });
    // The third run records its priority, then reports 3 passed and 2 failed tests (exit 1).
    const thirdScript = `${recordNice(at('nice'))} ${FAKE_VITEST}`;
    const plan = {
      first: part('vitest first', FAKE_VITEST, ['5', '0', '-', at('first-ended')], at('first.json')),
      second: part('vitest second', FAKE_VITEST, ['7', '0', '-', at('second-ended')], at('second.json')),
      checks: [{ ...part('vitest third', thirdScript, ['3', '2', '-', at('third-ended')], at('third.json')), nice: 6 }],
      jsonPath: at('merged.json'),
    };
    const run = await runNodeScript(DRIVER, [JSON.stringify(plan)], { env: { PATH: process.env['PATH'] ?? '' }, until: 'close', timeoutMs: 40_000 });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('FAILED vitest third');
    expect(readFileSync(at('nice'), 'utf8')).toBe(reniced(6));
    const summary = await runNodeScript(join(ROOT, '.ci', 'summary.mjs'), [at('merged.json'), '0'], { env: { PATH: process.env['PATH'] ?? '' }, until: 'close', timeoutMs: 20_000 });
    expect(summary.stdout.trimEnd().split('\n').at(-1)).toBe('15 passed, 2 failed');
  });

  it('a vitest run that left no results is a failure of its own', async () => {
    const { code, report, last } = await orchestrate('no-report', { secondNoReport: true });
    expect(code).toBe(1);
    expect(report.testResults.at(-1)).toMatchObject({ name: join(ROOT, 'vitest second'), status: 'failed' });
    expect(last).toBe('5 passed, 1 failed');
  });
});

/** Whether a process of this id is alive (signal 0 probes without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm test under a signal', () => {
  it('SIGTERM reaches every process a part started (a grandchild too), nothing starts after it, and the run exits non-zero', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    // A part that starts a grandchild in its own process group's way (a plain child), records its id and waits.
    const waiting = `const { spawn } = require('node:child_process'); const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(g.pid)); setInterval(() => {}, 1000);`;
    const part = (name: string): object => ({ name, command: process.execPath, args: ['-e', waiting], cwd: ROOT, report: join(dir, `${name}.json`) });
    const plan = { first: part('signalled-first'), second: part('signalled-second'), checks: [] };
    const driver = spawn(process.execPath, [DRIVER, JSON.stringify(plan)], { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise<number | null>((done) => driver.once('exit', (code) => done(code)));
    const grandchild = await poll(() => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) || undefined : undefined), { timeoutMs: 20_000, intervalMs: 20, failure: () => 'the part never started its grandchild' });
    expect(alive(grandchild)).toBe(true);
    driver.kill('SIGTERM');
    await poll(() => (alive(grandchild) ? undefined : true), { timeoutMs: 10_000, intervalMs: 20, failure: () => `grandchild ${grandchild} still alive after SIGTERM to npm test` });
    expect(await exited).toBe(1);
    // Nothing started after the signal: the second part never recorded a grandchild.
    expect(Number(readFileSync(pidFile, 'utf8'))).toBe(grandchild);
  });
});

describe('npm test builds only when dist/ is not a build of the sources', () => {
  it('every .ts of src/ and strategies/ needs a compiled twin at least as new, and the bundle must be as new as the compiled CLI', () => {
    const root = join(dir, 'checkout');
    for (const folder of ['src/a', 'strategies', 'dist/src/a', 'dist/strategies', 'dist/bundle']) mkdirSync(join(root, folder), { recursive: true });
    const current = buildIsCurrent as (root: string) => boolean;
    writeFileSync(join(root, 'src/a/x.ts'), '');
    writeFileSync(join(root, 'src/cli.ts'), '');
    writeFileSync(join(root, 'strategies/y.ts'), '');
    expect(current(root)).toBe(false);
    writeFileSync(join(root, 'dist/src/a/x.js'), '');
    writeFileSync(join(root, 'dist/src/cli.js'), '');
    writeFileSync(join(root, 'dist/strategies/y.js'), '');
    expect(current(root), 'no bundle').toBe(false);
    writeFileSync(join(root, 'dist/bundle/cli.js'), '');
    expect(current(root)).toBe(true);
    // `tsc` alone after the bundle: the bundle is older than the CLI it was made from.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'dist/src/cli.js'), later, later);
    expect(current(root), 'a bundle older than dist/src/cli.js').toBe(false);
    utimesSync(join(root, 'dist/bundle/cli.js'), later, later);
    expect(current(root)).toBe(true);
    // An edit after the build: the twin is older.
    const evenLater = new Date(Date.now() + 120_000);
    utimesSync(join(root, 'strategies/y.ts'), evenLater, evenLater);
    expect(current(root)).toBe(false);
  });
});
