/**
 * Child processes of the CLI and operations tests: a Node script run to completion with its output collected
 * (`runNodeScript`), and the real CLI run that way (`runCliProcess`: the build when it is current, else the sources).
 *
 * Every child gets only the environment it is given (no inherited secrets) and runs in the checkout's root.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The checkout's root (where bin/, config/ and node_modules/ are). */
const ROOT = resolve(import.meta.dirname, '..', '..');

export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** The child's whole environment. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * When the run counts as done: 'close' (its output streams closed too, so all of it is collected) or 'exit'
   * (the process exited; for launchers whose daemons inherit the streams and hold them open).
   */
  readonly until: 'close' | 'exit';
  /** Kill it (SIGKILL) and reject when it has not finished by then; no limit without it. */
  readonly timeoutMs?: number;
  /** How a timeout names the command (default: the script's path and the args). */
  readonly name?: string;
}

/** Runs `node <script> <args>` from the checkout's root to completion, collecting stdout and stderr. */
export function runNodeScript(script: string, args: readonly string[], options: RunOptions): Promise<ProcessResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timeoutMs = options.timeoutMs;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`${options.name ?? [script, ...args].join(' ')} did not finish within ${timeoutMs} ms`));
          }, timeoutMs);
    child.once('error', reject);
    child.once(options.until, (code: number | null) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

/** Whether every TypeScript file under `dir` (recursively) has its compiled twin in dist/, at least as new as it. */
function builtTwinsFresh(dir: string): boolean {
  for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const source = join(entry.parentPath, entry.name);
    const built = join(ROOT, 'dist', relative(ROOT, source)).replace(/\.ts$/, '.js');
    const builtStat = statSync(built, { throwIfNoEntry: false });
    if (builtStat === undefined || builtStat.mtimeMs < statSync(source).mtimeMs) return false;
  }
  return true;
}

let buildIsCurrent: boolean | undefined;

/**
 * Whether dist/ (`npm run build`, which `.ci/run` does first) is a build of the sources as they are now: each
 * src/ and strategies/ file has a compiled twin at least as new. A child then runs the build (half the CPU of
 * compiling the sources with tsx at start-up); after any edit it runs the sources, so a test never sees stale code.
 */
export function builtCliIsCurrent(): boolean {
  buildIsCurrent ??= builtTwinsFresh('src') && builtTwinsFresh('strategies');
  return buildIsCurrent;
}

/**
 * The form of the code a child started through bin/outcome-maker.mjs runs (`outcome_maker_build_info{code}`): the
 * sources when dist/ is not current (the children are then told to run them), else the bundle when it is at least as
 * new as dist/src/cli.js (bin's own rule), else the compiled build.
 */
export function expectedRunningCode(): 'source' | 'compiled' | 'bundle' {
  if (!builtCliIsCurrent()) return 'source';
  const bundled = statSync(join(ROOT, 'dist', 'bundle', 'cli.js'), { throwIfNoEntry: false });
  return bundled !== undefined && bundled.mtimeMs >= statSync(join(ROOT, 'dist', 'src', 'cli.js')).mtimeMs ? 'bundle' : 'compiled';
}

/** What a child of the CLI needs in its environment to run this checkout's code as it is now: `{}` when dist/ is current. */
export function currentCodeEnv(): Record<string, string> {
  return builtCliIsCurrent() ? {} : { OUTCOME_MAKER_FROM_SOURCE: '1' };
}

/**
 * Runs `outcome-maker <args>` (this checkout's bin/outcome-maker.mjs) with only PATH, HOME (`home`) and `env` in its
 * environment; resolves once its output is complete. It runs the build when dist/ is current (`builtCliIsCurrent`),
 * otherwise the TypeScript sources.
 */
export function runCliProcess(args: readonly string[], home: string, env: Readonly<Record<string, string>> = {}): Promise<ProcessResult> {
  return runNodeScript(join(ROOT, 'bin', 'outcome-maker.mjs'), args, {
    env: { PATH: process.env['PATH'] ?? '', HOME: home, ...currentCodeEnv(), ...env },
    until: 'close',
  });
}

/** Runs `outcome-maker <args>` in this process through the CLI's `main`, collecting what it prints (no environment). */
export async function runCliInProcess(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const { main } = await import('../../src/cli.js');
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args], { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} });
  return { code, out: out.join(''), err: err.join('') };
}
