/**
 * A writer process SIGKILLed at random (seeded) moments leaves a database that the next open completes:
 * migrations idempotent, no partial fill (each fill's event and order committed with it), every fill the
 * writer acknowledged is there, positions equal the replay of the fills, SQLite's integrity check passes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { latestVersion, schemaVersion } from '../../../src/ledger/migrations.js';
import { openLedger } from '../../../src/ledger/store.js';
import { seededRandom } from '../../support/fake-time.js';
import { makeTempDir } from '../../support/ledger-fixtures.js';

const WRITER = fileURLToPath(new URL('../../support/ledger-crash-writer.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SEED = 0x5eed_1ed9;

interface Run {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[];
  readonly stderr: string[];
  readonly exited: Promise<void>;
}

/** Every writer started; afterAll SIGKILLs any still running (a failed wait must not leave one writing forever). */
const started: Run[] = [];

function startWriter(path: string, seed: number): Run {
  // `node --import tsx` keeps the writer in ONE process, so SIGKILL hits the process that writes
  // (the tsx CLI would run it in a grandchild that a SIGKILL of the parent leaves running).
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, path, String(seed)], { cwd: REPO_ROOT });
  const lines: string[] = [];
  const stderr: string[] = [];
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const run = { child, lines, stderr, exited };
  started.push(run);
  return run;
}

/**
 * Waits for the writer's output. The bound only catches a writer that never gets there: its start (node, tsx
 * compiling the writer and the ledger, the migrations) takes seconds of CPU when the suite runs files in parallel.
 */
async function until(condition: () => boolean, run: Run, timeoutMs = 25_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (run.child.exitCode !== null) throw new Error(`writer exited early: ${run.stderr.join('')}`);
    if (Date.now() > deadline) throw new Error(`writer too slow; stderr: ${run.stderr.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const acknowledged = (lines: readonly string[]): number =>
  lines.filter((line) => /^\d+$/.test(line)).reduce((max, line) => Math.max(max, Number(line)), -1);

const temp = makeTempDir('ledger-crash-');
afterAll(async () => {
  for (const run of started.filter((r) => r.child.exitCode === null && r.child.signalCode === null)) {
    run.child.kill('SIGKILL');
    await run.exited;
  }
  temp.cleanup();
});

describe('crash safety', () => {
  it('SIGKILL at random moments never leaves a partial or inconsistent ledger', async () => {
    const random = seededRandom(SEED);
    const path = join(temp.dir, 'crash.sqlite');
    // Round 0 kills while the database is being opened/migrated; the others mid-stream.
    const rounds = 3;
    let previous = -1;
    for (let round = 0; round < rounds; round += 1) {
      const run = startWriter(path, SEED + round);
      if (round === 0) {
        await until(() => run.lines.includes('open'), run);
      } else {
        const target = previous + 1 + Math.floor(random() * 25);
        await until(() => acknowledged(run.lines) >= target, run);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * (round === 0 ? 4 : 12))));
      run.child.kill('SIGKILL');
      await run.exited;
      expect(run.child.signalCode).toBe('SIGKILL');
      const acked = acknowledged(run.lines);

      const ledger = openLedger({ path });
      try {
        expect(schemaVersion(ledger.db)).toBe(latestVersion());
        expect(ledger.db.pragma('integrity_check', { simple: true })).toBe('ok');
        const counts = ledger.counts();
        // No partial transaction: every fill came with its event and order.
        expect(counts.events).toBe(counts.fills);
        expect(counts.orders).toBe(counts.fills);
        // Every acknowledged fill is durable; at most the one being committed when killed is extra.
        expect(counts.fills).toBeGreaterThanOrEqual(acked + 1);
        expect(counts.fills).toBeLessThanOrEqual(Math.max(acked + 2, previous + 2));
        expect(ledger.verify()).toEqual([]);
        previous = counts.fills - 1;
      } finally {
        ledger.close();
      }
    }
    expect(previous).toBeGreaterThan(2);
  }, 90_000);
});
