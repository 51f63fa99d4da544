/**
 * The command outputs quoted in README.md and docs/*.md, tagged so a test keeps them true: a fenced block right after
 *
 *   <!-- output-of: outcome-maker <args> -->                       the docs test runs the command and compares, or
 *   <!-- output-of: outcome-maker <args> | checked by: <test file> -->   an expensive one: that test compares the
 *                                                                   block with the output of its own run of it.
 *
 * The block holds lines the command prints, in their order; a line `…` stands for lines left out. Only deterministic
 * commands may be tagged (seeded backtests, replays of a recording in the repository, a fixture's report).
 *
 * Every other output quoted (a fenced block without a language: what a program printed) is labelled: the line right
 * before its fence says `dated example` (wall-clock runs, measurements, live answers: figures no test can reproduce).
 * A block that is not an output says what it is by its language (`text` for a diagram or a synopsis, `sh`, `yaml`…).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface QuotedOutput {
  /** The file (relative to the repository) and the tag's line (1-based). */
  readonly file: string;
  readonly line: number;
  /** The command's arguments after `outcome-maker`. */
  readonly args: readonly string[];
  readonly command: string;
  /** The test file that checks it (expensive commands), else null (the docs test runs it). */
  readonly checkedBy: string | null;
  /** The block's lines. */
  readonly lines: readonly string[];
}

const TAG = /^<!-- output-of: (.+?)(?: \| checked by: (\S+))? -->$/;

/** README.md and every docs/*.md. */
export function documentFiles(): string[] {
  return ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** Every tagged block of `files`; a tag not followed by a fenced block is an error naming the file and the line. */
export function quotedOutputs(files: readonly string[] = documentFiles()): QuotedOutput[] {
  return files.flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8').split('\n');
    const found: QuotedOutput[] = [];
    // A tag inside a fenced block is an example of one (docs/testing.md), not a tag.
    let fenced = false;
    text.forEach((line, index) => {
      if (line.startsWith('```')) fenced = !fenced;
      const tag = fenced ? null : TAG.exec(line.trim());
      if (tag === null) return;
      const command = (tag[1] ?? '').trim();
      if (!command.startsWith('outcome-maker ')) throw new Error(`${file}:${index + 1}: an output-of tag names an outcome-maker command, not "${command}"`);
      if (!(text[index + 1] ?? '').startsWith('```')) throw new Error(`${file}:${index + 1}: an output-of tag must be followed by a fenced block`);
      const end = text.findIndex((l, i) => i > index + 1 && l.startsWith('```'));
      if (end < 0) throw new Error(`${file}:${index + 1}: the fenced block after the tag is not closed`);
      found.push({ file, line: index + 1, command, args: command.split(/\s+/).slice(1), checkedBy: tag[2] ?? null, lines: text.slice(index + 2, end) });
    });
    return found;
  });
}

/** The block's lines missing from `output`, in order (each found after the previous one; `…` skips). Empty: true. */
export function missingLines(block: readonly string[], output: string): string[] {
  const printed = output.split('\n').map((l) => l.trimEnd());
  const missing: string[] = [];
  let from = 0;
  for (const line of block) {
    const wanted = line.trimEnd();
    if (wanted === '…' || wanted === '') continue;
    const at = printed.indexOf(wanted, from);
    if (at < 0) missing.push(wanted);
    else from = at + 1;
  }
  return missing;
}

/** The tagged blocks a test file checks itself (`checked by:` it). */
export function quotedOutputsCheckedBy(testFile: string): QuotedOutput[] {
  return quotedOutputs().filter((q) => q.checkedBy === testFile);
}

const LABEL = /dated example/i;

/** A fenced block without a language that is neither tagged nor labelled (`untaggedOutputs`). */
export interface UntaggedOutput {
  readonly file: string;
  /** The fence's line (1-based). */
  readonly line: number;
  readonly first: string;
}

/**
 * Every fenced block of `files` whose fence has no language and whose nearest non-blank line before it is neither an
 * `output-of` tag nor a `dated example` label: each is a quoted output nobody keeps true or dates.
 */
export function untaggedOutputs(files: readonly string[] = documentFiles()): UntaggedOutput[] {
  return files.flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8').split('\n');
    const found: UntaggedOutput[] = [];
    let fenced = false;
    text.forEach((line, index) => {
      if (!line.startsWith('```')) return;
      fenced = !fenced;
      if (!fenced || line.trim() !== '```') return;
      const before = text.slice(0, index).reverse().find((l) => l.trim() !== '') ?? '';
      if (TAG.test(before.trim()) || LABEL.test(before)) return;
      found.push({ file, line: index + 1, first: (text[index + 1] ?? '').slice(0, 80) });
    });
    return found;
  });
}
