/**
 * `.ci/run`'s closing lines (.ci/summary.mjs, run as `.ci/run` runs it): the ten slowest test files from vitest's
 * JSON results, slowest first, the names of the failed tests with their messages' first lines (and of a file that failed in a hook), then
 * `N passed, N failed` as the very last line, a failed build and a file failed outside its tests counted as failures.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNodeScript } from '../support/cli-process.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, '.ci', 'summary.mjs');
const dir = mkdtempSync(join(tmpdir(), 'om-ci-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = 1_000_000;

/**
 * A vitest JSON report of twelve files; file i ran for (i + 1) × 1.5 s and holds i + 1 tests. In f03 two tests
 * failed (one in a nested describe); f07 failed in a hook, so its tests were skipped and vitest counts no failure.
 */
function report(): string {
  const testResults = Array.from({ length: 12 }, (_, i) => ({
    name: join(ROOT, 'test', `f${String(i).padStart(2, '0')}.test.ts`),
    startTime: START + 100 * i,
    endTime: START + 100 * i + (i + 1) * 1500,
    status: i === 3 || i === 7 ? 'failed' : 'passed',
    message: i === 7 ? 'Error: no matching line within 30000 ms; last lines:\n(none)' : '',
    assertionResults: Array.from({ length: i + 1 }, (_, k) => {
      if (i === 7) return { status: 'skipped', ancestorTitles: [], title: `t${k}`, fullName: `t${k}` };
      if (i === 3 && k === 0) {
        // A message in colour, with a stack, and longer than the lines kept.
        const failureMessages = ['\u001b[31mError: [chaos / verify, seed 7] invariants violated:\u001b[39m\n  fill o1#1 is in the ledger 2 times\n' + Array.from({ length: 9 }, (_, n) => `  line ${n}`).join('\n') + '\n    at verify (chaos-rig.ts:304:13)'];
        return { status: 'failed', ancestorTitles: [], title: 'keeps its spacing', fullName: 'keeps its spacing', failureMessages };
      }
      if (i === 3 && k === 1) return { status: 'failed', ancestorTitles: ['halts', 'expiry'], title: 'cancels at the stop', fullName: 'halts expiry cancels at the stop' };
      return { status: 'passed', ancestorTitles: [], title: `t${k}`, fullName: `t${k}` };
    }),
  }));
  return JSON.stringify({ numPassedTests: 68, numFailedTests: 2, startTime: START, success: false, testResults });
}

async function summary(args: readonly string[]): Promise<{ code: number | null; lines: string[] }> {
  const result = await runNodeScript(SCRIPT, args, { env: { PATH: process.env['PATH'] ?? '' }, until: 'close', timeoutMs: 20_000 });
  return { code: result.code, lines: result.stdout.trimEnd().split('\n') };
}

describe('.ci/summary.mjs', () => {
  it('prints the ten slowest files, slowest first, then the summary line last', async () => {
    const path = join(dir, 'vitest.json');
    writeFileSync(path, report());
    const { code, lines } = await summary([path, '1']);
    expect(code).toBe(0);
    expect(lines[0]).toBe('slowest 10 test files (wall s, tests):');
    expect(lines.slice(1, 11).map((line) => line.trim().split(/\s+/))).toEqual(
      Array.from({ length: 10 }, (_, k) => {
        const i = 11 - k;
        return [((i + 1) * 1.5).toFixed(1), String(i + 1), `test/f${String(i).padStart(2, '0')}.test.ts`];
      }),
    );
    // 1.5 × (1 + … + 12) = 117 s; the last file ends 1.1 s + 18 s after the start.
    expect(lines[11]).toBe('12 files: per-file times sum to 117.0 s; tests ran for 19.1 s from the first file\'s start');
    // The failed tests by name, and the file that failed outside its tests (counted: vitest counts none of it).
    expect(lines.slice(12)).toEqual([
      'failed (3):',
      '  test/f03.test.ts > keeps its spacing',
      // Why, in the first 8 lines of its message, colours and stack removed.
      '      Error: [chaos / verify, seed 7] invariants violated:',
      '        fill o1#1 is in the ledger 2 times',
      ...Array.from({ length: 6 }, (_, n) => `        line ${n}`),
      '  test/f03.test.ts > halts > expiry > cancels at the stop',
      '  test/f07.test.ts: failed outside its tests (Error: no matching line within 30000 ms; last lines:)',
      '1 failure outside the tests (the build: see `npm run build` above)',
      '68 passed, 4 failed',
    ]);
  });

  it('without results: why, then the summary line, counting the missing run as a failure, and exit 1', async () => {
    const { code, lines } = await summary([join(dir, 'missing.json'), '0']);
    expect(code).toBe(1);
    expect(lines).toEqual(['failed: no test ran (`npm test` stopped before vitest: the typecheck or lint above, or vitest did not start)', '0 passed, 1 failed']);
  });

  it('rejects a bad failure count, naming the arguments', async () => {
    const path = join(dir, 'vitest.json');
    writeFileSync(path, report());
    const result = await runNodeScript(SCRIPT, [path, 'x'], { env: { PATH: process.env['PATH'] ?? '' }, until: 'close', timeoutMs: 20_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"x"');
  });
});
