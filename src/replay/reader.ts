/**
 * Reads a replay stream: one `.ndjson.gz` (or plain `.ndjson`) file, or a directory of rotated parts read in name
 * order. Every line is validated (src/replay/format.ts).
 *
 * Owns: decompression, line splitting and the merge of parts. Invariants: the parts must agree on the format
 * version and the markets; a part cut off by a crash (no gzip trailer, a partial last line) yields everything up
 * to its last complete line and is reported as truncated, never as an error; any other bad line is a
 * ReplayFormatError naming the file and line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { parseEventLine, parseHeaderLine, ReplayFormatError, type ReplayEvent, type ReplayHeader } from './format.js';

export interface ReplayStream {
  readonly header: ReplayHeader;
  readonly events: readonly ReplayEvent[];
  readonly files: readonly string[];
  /** Parts that ended without a complete last line or gzip trailer (a crash). */
  readonly truncated: readonly string[];
}

/** The part files of `path`, in order: the file itself, or a directory's `*.ndjson(.gz)` by name. */
export function replayFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const files = readdirSync(path)
    .filter((name) => name.endsWith('.ndjson.gz') || name.endsWith('.ndjson'))
    .sort()
    .map((name) => join(path, name));
  if (files.length === 0) throw new ReplayFormatError(path, 0, 'no .ndjson.gz parts in this directory');
  return files;
}

function decompress(file: string): { text: string; cut: boolean } {
  const bytes = readFileSync(file);
  if (!file.endsWith('.gz')) return { text: bytes.toString('utf8'), cut: false };
  try {
    return { text: gunzipSync(bytes).toString('utf8'), cut: false };
  } catch {
    // A part cut off by a crash: everything up to the last sync flush is still readable.
    return { text: gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8'), cut: true };
  }
}

export function readReplay(path: string): ReplayStream {
  const files = replayFiles(path);
  const events: ReplayEvent[] = [];
  const truncated: string[] = [];
  let first: ReplayHeader | null = null;
  for (const file of files) {
    const { text, cut } = decompress(file);
    const lines = text.split('\n');
    const tail = lines.pop() ?? '';
    if (tail !== '' || cut) truncated.push(file);
    lines.forEach((line, index) => {
      if (line === '') return;
      const number = index + 1;
      if (number === 1) {
        const header = parseHeaderLine(basename(file), number, line);
        if (first === null) first = header;
        else checkSameStream(first, header, basename(file));
        return;
      }
      events.push(parseEventLine(basename(file), number, line));
    });
    if (lines.length === 0 && tail === '') throw new ReplayFormatError(basename(file), 1, 'empty part (no header)');
  }
  if (first === null) throw new ReplayFormatError(path, 1, 'no header');
  return { header: first, events, files, truncated };
}

function checkSameStream(first: ReplayHeader, next: ReplayHeader, file: string): void {
  const slugs = (h: ReplayHeader): string => h.markets.map((m) => m.slug).join(',');
  if (slugs(first) !== slugs(next)) throw new ReplayFormatError(file, 1, `markets ${slugs(next)} differ from the first part's ${slugs(first)}`);
}
