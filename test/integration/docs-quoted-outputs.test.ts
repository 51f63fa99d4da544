/**
 * Every command output quoted in README.md and docs/*.md under an `output-of` tag (test/support/quoted-outputs.ts) is
 * what the command prints now: the cheap ones are run here (in process, each once) and compared line by line; an
 * expensive one names the test that compares it with its own run, which must exist and do so. Every other quoted
 * output (a fenced block without a language) is labelled `dated example` on the line before it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-process.js';
import { missingLines, quotedOutputs, ROOT, untaggedOutputs } from '../support/quoted-outputs.js';

const quoted = quotedOutputs();
const run = quoted.filter((q) => q.checkedBy === null);

describe('quoted outputs in the README and docs/', () => {
  it('are tagged (at least the replay of the example recording and the report of the fixture)', () => {
    expect(quoted.map((q) => q.file)).toEqual(expect.arrayContaining(['docs/replay.md', 'docs/ledger.md']));
  });

  it('a quoted line the output lacks, or one out of order, is reported; `…` skips lines', () => {
    expect(missingLines(['total PnL 78.54', '…', 'fills 51'], 'total PnL 58.18\nfills 37')).toEqual(['total PnL 78.54', 'fills 51']);
    expect(missingLines(['a', '…', 'c'], 'a\nb\nc  ')).toEqual([]);
    expect(missingLines(['c', 'a'], 'a\nc')).toEqual(['a']);
  });

  it.each(run.map((q) => [`${q.file}:${q.line}`, q] as const))('%s: the command prints the quoted lines', async (_where, q) => {
    const result = await runCliInProcess(q.args);
    expect(result.code, result.err).toBe(0);
    expect(missingLines(q.lines, `${result.out}\n${result.err}`), `${q.file}:${q.line} \`${q.command}\` printed:\n${result.out}`).toEqual([]);
  }, 120_000);

  it('an expensive one names a test that exists and compares the block with its own run', () => {
    for (const q of quoted.filter((x) => x.checkedBy !== null)) {
      const file = join(ROOT, q.checkedBy ?? '');
      expect(existsSync(file), `${q.file}:${q.line}: ${q.checkedBy} does not exist`).toBe(true);
      expect(readFileSync(file, 'utf8'), `${q.checkedBy} must compare the block (quotedOutputsCheckedBy)`).toContain('quotedOutputsCheckedBy(');
    }
  });

  it('every other quoted output (a fenced block without a language) is labelled a dated example on the line before it', () => {
    expect(untaggedOutputs().map((b) => `${b.file}:${b.line} ${b.first}`)).toEqual([]);
  });

  it('finds an output block neither tagged nor labelled, and passes a tagged, a labelled and a typed one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'om-untagged-'));
    try {
      const file = join(dir, 'x.md');
      writeFileSync(file, ['Untagged:', '', '```', 'total PnL 1.00', '```', '(dated example, 2026-11-29)', '```', 'a', '```', '```text', 'diagram', '```', '<!-- output-of: outcome-maker report -->', '```', 'b', '```', ''].join('\n'));
      expect(untaggedOutputs([relative(ROOT, file)])).toEqual([{ file: relative(ROOT, file), line: 3, first: 'total PnL 1.00' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
