// `npm test`: the suite and the checks, arranged so the wall time is about the suite's alone (docs/testing.md,
// "How long it takes"). Three vitest runs. The pure unit files and the checks in one TypeScript program (checks.mjs:
// the build of dist/ first, unless dist/ is already a build of the sources or OM_TEST_BUILD=0, then the typecheck and
// the lint) start at once; once the unit run has ended and dist/ is written (so that the CLI child processes start
// from dist/: half the CPU of compiling the sources with tsx at each start) the files that mostly wait
// (`arrival-timing`, `integration`) start, with the CPU-bound `backtest` run beside them: the compute-only work takes
// the CPU the waiting files leave. Every part runs at the priority `npm test` has, each a session of its own: where
// Linux groups the CPU by session (autogroup, the default of most kernels) the sessions that want it share it equally,
// whatever the processes' nice; measured, that ended sooner than the compute-only parts niced for real, which then
// only ran once the waiting files were done (docs/testing.md, session 40). With OM_TEST_SIDE_BY_SIDE=1 the waiting
// files start as soon as dist/ is written and the unit and backtest files run beside them from the start.
// Invariants: every part runs whatever another's outcome; the exit code is 0 only if every part exited 0 (and, with
// VITEST_JSON set, every vitest run left its results); a check's or a background run's
// output is held and printed whole when it ends (the other runs stream as they go); with VITEST_JSON set, one merged
// report is written there (test/run-all/report.mjs), in which a failed check or a run without results is a failed
// entry, so `.ci/summary.mjs` still ends with `N passed, N failed`. SIGINT/SIGTERM go on to the running parts, each a
// process group of its own (every process a part started gets it), and nothing starts after them.
// Usage: node test/run-all/run-all.mjs [vitest arguments, e.g. files: given to every vitest run]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedPart, mergeReports } from './report.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHECKS = join(ROOT, 'test', 'run-all', 'checks.mjs');
/** What checks.mjs prints once dist/ is written: the second vitest run may start. */
export const READY_LINE = 'checks: dist/ written';
/**
 * Lowers the priority of a part (a process that leads a session of its own: `detached`): the process's own nice (its
 * threads and the processes it starts later inherit it) and, where Linux groups the CPU by session (autogroup, the
 * default of most kernels: /proc/sys/kernel/sched_autogroup_enabled), the nice of its session's group. Without the
 * second, a process's nice only orders it within its own session, and each part, a session of its own, took an equal
 * share of the CPU whatever its nice (measured: the niced checks took a whole core beside the unit run, docs/testing.md,
 * session 40). A refusal, or a kernel without autogroups, changes nothing.
 */
function renice(pid, nice) {
  try {
    setPriority(pid, nice);
  } catch {
    // Not permitted here: the part runs at the priority it has.
  }
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // No autogroups here (or not permitted): the process's nice is all there is.
  }
}

/**
 * A part's outcome: `code` 0 is success; a part killed by a signal, or that could not start, has a non-zero code.
 * `onReady` is called once: when the part prints a line equal to `part.ready` (a held part), or else as it ends.
 */
function runPart(part, running, onReady = () => {}) {
  return new Promise((done) => {
    const started = Date.now();
    const held = [];
    const child = spawn(part.command, part.args, {
      cwd: part.cwd,
      env: { ...process.env, ...part.env, ...(part.hold && process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
      stdio: ['ignore', part.hold ? 'pipe' : 'inherit', part.hold ? 'pipe' : 'inherit'],
      // A process group of its own, so that a signal reaches the whole part (npm, the tool it runs, vitest's workers
      // and their bot processes): signalled alone, `npm run` and vitest exit and leave their children running.
      detached: true,
    });
    running.add(child);
    // Before the part has started anything: vitest's workers, forked or threads, inherit it.
    if (part.nice !== undefined && child.pid !== undefined) renice(child.pid, part.nice);
    const ready = () => {
      if (part.niceWhenReady !== undefined && child.pid !== undefined) renice(child.pid, part.niceWhenReady);
      onReady();
    };
    if (part.hold) {
      let seen = '';
      child.stdout.on('data', (chunk) => {
        held.push(chunk);
        if (part.ready === undefined || seen === undefined) return;
        seen += chunk.toString('utf8');
        if (seen.split('\n').slice(0, -1).includes(part.ready)) {
          seen = undefined;
          ready();
        }
      });
      child.stderr.on('data', (chunk) => held.push(chunk));
    }
    let error;
    child.on('error', (e) => (error = e));
    child.on('close', (code, signal) => {
      running.delete(child);
      const seconds = (Date.now() - started) / 1000;
      const why = error ? `could not start: ${error.message}` : signal ? `killed by ${signal}` : `exit code ${code}`;
      const outcome = { name: part.name, code: error || signal ? 1 : code, why, seconds, output: Buffer.concat(held).toString('utf8') };
      if (part.hold) process.stdout.write(`\n── ${part.name}: ${outcome.code === 0 ? 'ok' : `failed (${why})`} in ${seconds.toFixed(1)} s ──\n${outcome.output}`);
      onReady();
      done(outcome);
    });
  });
}

function readReport(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Whether dist/ is a build of the sources as they are: every .ts file of src/ and strategies/ has its compiled twin,
 * at least as new (the rule test/support/cli-process.ts applies before a child runs the build), and the bundle made
 * from it is at least as new as dist/src/cli.js (the rule bin/outcome-maker.mjs applies before running it).
 */
export function buildIsCurrent(root) {
  const bundled = statSync(join(root, 'dist', 'bundle', 'cli.js'), { throwIfNoEntry: false });
  const compiled = statSync(join(root, 'dist', 'src', 'cli.js'), { throwIfNoEntry: false });
  if (bundled === undefined || compiled === undefined || bundled.mtimeMs < compiled.mtimeMs) return false;
  for (const dir of ['src', 'strategies']) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const source = join(entry.parentPath, entry.name);
      const built = statSync(join(root, 'dist', relative(root, source)).replace(/\.ts$/, '.js'), { throwIfNoEntry: false });
      if (built === undefined || built.mtimeMs < statSync(source).mtimeMs) return false;
    }
  }
  return true;
}

/**
 * Run the plan: `first` (a vitest run) beside every part of `beside` (held output, like a check), then `second` (a
 * vitest run) beside every part of `checks`. `second` starts once every part of `beside` has ended or, if it has
 * `ready` (a line), printed that line (it goes on beside `second`), and, unless `secondWaitsForFirst` is false, once
 * `first` has ended. Each part is `{ name, command, args, cwd, env?, hold?, ready?, nice?, niceWhenReady? }`: `nice` is
 * its priority from its start, `niceWhenReady` from its ready line (or its end); a vitest part (`first`, `second`, or
 * one of `checks`: a third run beside the second, its output held) also has `report`, the file its JSON goes to (given
 * to it as VITEST_JSON when `jsonPath` is set). Resolves to the exit code; writes the merged report to `jsonPath` if
 * set, a failed part of `beside` or `checks` that is not a vitest run a failed entry.
 */
export async function runAll({ first, beside = [], second, checks, jsonPath, secondWaitsForFirst = true }) {
  const running = new Set();
  let interrupted;
  const forward = (signal) => {
    interrupted = signal;
    for (const child of running) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
    }
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const started = Date.now();
  const withJson = (part) => (jsonPath ? { ...part, env: { ...part.env, VITEST_JSON: part.report } } : part);
  try {
    const readiness = [];
    const firstParts = [
      runPart(withJson(first), running),
      ...beside.map((part) => {
        let onReady = () => {};
        readiness.push(new Promise((resolve) => (onReady = resolve)));
        return runPart({ ...part, hold: true }, running, onReady);
      }),
    ];
    await Promise.all(secondWaitsForFirst ? [firstParts[0], ...readiness] : readiness);
    // After a signal nothing more starts: the parts not started are failures.
    const notStarted = (part) => ({ name: part.name, code: 1, why: `not started: ${interrupted}`, seconds: 0, output: '' });
    const then = [{ ...withJson(second) }, ...checks.map((check) => ({ ...(check.report ? withJson(check) : check), hold: true }))];
    const secondParts = then.map((part) => (interrupted ? notStarted(part) : runPart(part, running)));
    const outcomes = [...(await Promise.all(firstParts)), ...(await Promise.all(secondParts))];
    const failed = outcomes.filter((outcome) => outcome.code !== 0);
    process.stdout.write(
      [
        '',
        `npm test: ${((Date.now() - started) / 1000).toFixed(1)} s wall`,
        ...outcomes.map((o) => `  ${o.code === 0 ? 'ok    ' : 'FAILED'} ${o.name} (${o.seconds.toFixed(1)} s${o.code === 0 ? '' : `, ${o.why}`})`),
        '',
      ].join('\n'),
    );
    let reportsMissing = false;
    if (jsonPath) {
      const runs = [first, second, ...checks.filter((part) => part.report)].map((part) => ({ name: join(first.cwd, part.name), report: readReport(part.report) }));
      reportsMissing = runs.some((run) => run.report === undefined);
      // A vitest run's failures are in its report (or it is missing there): only the other parts add an entry.
      const checkFailures = failed
        .filter((outcome) => [...beside, ...checks].some((part) => part.name === outcome.name && !part.report))
        .map((outcome) => failedPart(join(first.cwd, outcome.name), `${outcome.name} failed (${outcome.why}): ${outcome.output.trim().split('\n')[0] ?? ''}`, Date.now()));
      writeFileSync(jsonPath, JSON.stringify(mergeReports(runs, checkFailures, Date.now())));
    }
    return failed.length === 0 && !reportsMissing ? 0 : 1;
  } finally {
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
  }
}

async function main() {
  const extra = process.argv.slice(2);
  const dir = mkdtempSync(join(tmpdir(), 'om-npm-test-'));
  const vitest = join(ROOT, 'node_modules', '.bin', 'vitest');
  // With files named, a run whose projects hold none of them passes (the other run has them).
  const vitestArgs = (projects) => ['run', ...projects.flatMap((p) => ['--project', p]), ...(extra.length > 0 ? ['--passWithNoTests', ...extra] : [])];
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  try {
    // Default: the unit files beside the checks; once both the unit run has ended and dist/ is written, the waiting
    // files, with the CPU-bound backtests (a third vitest run, one worker) and the rest of the checks beside them: they
    // take the CPU the waiting files leave, mostly in the first minute and a half of the integration run, when its
    // longest files only wait (docs/testing.md, session 37). No part is niced: with the compute-only parts niced (their
    // session's group too), they waited for the integration run to end and `npm test` took 359 s against 318–325 s at
    // equal shares (docs/testing.md, session 40).
    // OM_TEST_SIDE_BY_SIDE=1: the integration run starts as soon as dist/ is written, the unit and backtest files beside
    // it from the start (both cores stay busy throughout and the real-time tests meet more stalls: docs/testing.md,
    // session 36).
    const sideBySide = process.env['OM_TEST_SIDE_BY_SIDE'] === '1';
    const checks = { command: process.execPath, cwd: ROOT, ready: READY_LINE };
    // One worker each, and the hang bounds of a run that shares the CPU (vitest.config.ts, OM_TEST_BACKGROUND).
    const background = { env: { OM_TEST_BACKGROUND: '1' } };
    const backtests = { name: 'vitest backtest', command: vitest, args: vitestArgs(['backtest']), cwd: ROOT, report: join(dir, 'backtest.json'), ...background };
    const code = await runAll({
      // The compute-only files (side by side: in the background from the start).
      first: sideBySide
        ? { name: 'vitest unit + backtest', command: vitest, args: vitestArgs(['unit', 'backtest']), cwd: ROOT, report: join(dir, 'first.json'), ...background }
        : { name: 'vitest unit', command: vitest, args: vitestArgs(['unit']), cwd: ROOT, report: join(dir, 'first.json') },
      // The typecheck, the build (unless dist/ is current or OM_TEST_BUILD=0) and the lint in one TypeScript program
      // (checks.mjs), the build first: the second run may start once dist/ is written; the typecheck and the lint go
      // on in the background.
      beside: [
        process.env['OM_TEST_BUILD'] === '0' || buildIsCurrent(ROOT)
          ? { ...checks, name: 'typecheck + lint', args: [CHECKS, '--no-build', ROOT] }
          : { ...checks, name: 'typecheck + build + lint', args: [CHECKS, ROOT] },
      ],
      second: { name: 'vitest arrival-timing + integration', command: vitest, args: vitestArgs(['arrival-timing', 'integration']), cwd: ROOT, report: join(dir, 'second.json') },
      secondWaitsForFirst: !sideBySide,
      checks: sideBySide ? [] : [backtests],
      jsonPath: process.env['VITEST_JSON'] || undefined,
    });
    process.exitCode = code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
