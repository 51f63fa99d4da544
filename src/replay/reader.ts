/**
 * Reads a replay stream: one `.ndjson.gz` (or plain `.ndjson`) file, or a directory of rotated parts read in name
 * order. Every line is validated (src/replay/format.ts).
 *
 * Owns: decompression, line splitting, the merge of parts, and saying where a part that does not read to its end
 * stops. Invariants: the parts must agree on the markets (version 1-2: exactly the first part's; version 3: every
 * market of the first part and of the earlier parts, plus any joined since — a market a later header adds that no
 * `listed` event has listed yet is read as listed at that part's `createdAtMs`, so `header` keeps the first part's
 * markets, the ones there from the start); a part cut off (no gzip end, a
 * partial last line) or corrupt (its compressed data stops decoding) is a ReplayTruncatedError naming the file, the
 * byte where its readable data ends and its last complete line — unless the caller allows truncation
 * (`allowTruncated`, the CLI's `--allow-truncated`): then everything up to that last complete line is read and the
 * part is listed in `truncated`, each with the sentence the reports print; a `.gz` file that is not gzip is a
 * ReplayFormatError naming the file, allowed or not; any other bad line is a ReplayFormatError naming the file and
 * line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { parseEventLine, parseHeaderLine, ReplayFormatError, type ListedEvent, type ReplayEvent, type ReplayHeader } from './format.js';

/** Why a part does not read to its end. */
export type TruncationReason = 'no-gzip-end' | 'corrupt' | 'partial-line';

/** A part that does not read to its end, and where its readable data stops. */
export interface TruncatedPart {
  /** The part's path as given (a file, or a part of a directory). */
  readonly file: string;
  readonly reason: TruncationReason;
  /** Byte of the file where the readable data ends (the file's size when the gzip end is missing). */
  readonly atByte: number;
  /** The file's size in bytes. */
  readonly fileBytes: number;
  /** The last complete line kept (1 = the header); 0 when none is. */
  readonly lastLine: number;
}

export interface ReplayStream {
  readonly header: ReplayHeader;
  readonly events: readonly ReplayEvent[];
  readonly files: readonly string[];
  /** Parts that do not read to their end (only with `allowTruncated`; otherwise reading throws). */
  readonly truncated: readonly TruncatedPart[];
}

export interface ReadReplayOptions {
  /** Read a truncated or corrupt part up to its last complete line instead of throwing (default false). */
  readonly allowTruncated?: boolean;
}

const REASON_TEXT: Readonly<Record<TruncationReason, string>> = {
  'no-gzip-end': 'the gzip data stops without its end, as a crash or a copy cut short leaves it',
  corrupt: 'the gzip data does not decode past it',
  'partial-line': 'its last line has no end',
};

/** The sentence reports print: `rec-0000.ndjson.gz truncated at byte 3000 of 3000 (…), after line 41`. Pure. */
export function describeTruncation(part: TruncatedPart): string {
  return `${basename(part.file)} truncated at byte ${part.atByte} of ${part.fileBytes} (${REASON_TEXT[part.reason]}), after line ${part.lastLine}`;
}

/** A part that does not read to its end, while truncation is not allowed. */
export class ReplayTruncatedError extends Error {
  override readonly name = 'ReplayTruncatedError';
  constructor(readonly part: TruncatedPart) {
    super(`${part.file}: ${describeTruncation(part)}; lines 1-${part.lastLine} can be read: replay them with --allow-truncated`);
  }
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

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** Whether `bytes` decode (as far as they go) without a data error. */
function decodesPartially(bytes: Buffer): boolean {
  try {
    gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
    return true;
  } catch {
    return false;
  }
}

/**
 * The text of one part and, when it does not decode to its end, where its data stops: the file's end for a stream
 * cut short (no gzip end), else the longest prefix that still decodes (found by bisection: at most ~log2(size)
 * decompressions, only for a corrupt file).
 */
function decompress(file: string, bytes: Buffer): { text: string; stop: { reason: 'no-gzip-end' | 'corrupt'; atByte: number } | null } {
  if (!file.endsWith('.gz')) return { text: bytes.toString('utf8'), stop: null };
  if (bytes.length === 0) return { text: '', stop: { reason: 'no-gzip-end', atByte: 0 } };
  if (bytes.length < 2 || bytes[0] !== GZIP_MAGIC[0] || bytes[1] !== GZIP_MAGIC[1]) {
    const first = [...bytes.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new ReplayFormatError(file, 0, `not a gzip file (it starts with bytes ${first}, gzip with 1f 8b): a .gz part must be gzip-compressed NDJSON`);
  }
  try {
    return { text: gunzipSync(bytes).toString('utf8'), stop: null };
  } catch {
    // Cut off (a crash, a partial copy): everything up to the last flush still decodes.
  }
  if (decodesPartially(bytes)) {
    return { text: gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8'), stop: { reason: 'no-gzip-end', atByte: bytes.length } };
  }
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (decodesPartially(bytes.subarray(0, mid))) good = mid;
    else bad = mid;
  }
  return { text: gunzipSync(bytes.subarray(0, good), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8'), stop: { reason: 'corrupt', atByte: good } };
}

export function readReplay(path: string, options: ReadReplayOptions = {}): ReplayStream {
  const files = replayFiles(path);
  const events: ReplayEvent[] = [];
  const truncated: TruncatedPart[] = [];
  let first: ReplayHeader | null = null;
  const known = new Set<string>();
  for (const file of files) {
    const bytes = readFileSync(file);
    const { text, stop } = decompress(file, bytes);
    const lines = text.split('\n');
    const tail = lines.pop() ?? '';
    if (stop !== null || tail !== '') {
      const part: TruncatedPart = {
        file,
        reason: stop?.reason ?? 'partial-line',
        // A plain file's partial line starts where its complete lines end; a whole gzip stream ends at the file's end.
        atByte: stop?.atByte ?? (file.endsWith('.gz') ? bytes.length : bytes.length - Buffer.byteLength(tail)),
        fileBytes: bytes.length,
        lastLine: lines.length,
      };
      if (options.allowTruncated !== true) throw new ReplayTruncatedError(part);
      truncated.push(part);
    }
    lines.forEach((line, index) => {
      if (line === '') return;
      const number = index + 1;
      if (number === 1) {
        const header = parseHeaderLine(basename(file), number, line);
        if (first === null) {
          first = header;
          for (const market of header.markets) known.add(market.slug);
        } else {
          events.push(...joinedSince(first, header, known, basename(file)));
        }
        return;
      }
      const event = parseEventLine(basename(file), number, line);
      if (event.kind === 'listed') known.add(event.entry.slug);
      events.push(event);
    });
    if (lines.length === 0 && tail === '' && stop === null) throw new ReplayFormatError(basename(file), 1, 'empty part (no header)');
  }
  if (first === null) throw new ReplayFormatError(path, 1, 'no header');
  return { header: first, events, files, truncated };
}

/**
 * A later part's header against the stream so far: the `listed` events of the markets it adds that nothing listed
 * yet (version 3), or a ReplayFormatError when it drops a market known so far or (version 1-2) differs from the first.
 */
function joinedSince(first: ReplayHeader, next: ReplayHeader, known: Set<string>, file: string): ListedEvent[] {
  const slugs = (h: ReplayHeader): string => h.markets.map((m) => m.slug).join(',');
  if (first.version < 3 || next.version < 3) {
    if (slugs(first) !== slugs(next)) throw new ReplayFormatError(file, 1, `markets ${slugs(next)} differ from the first part's ${slugs(first)}`);
    return [];
  }
  const listed = new Set(next.markets.map((m) => m.slug));
  const dropped = [...known].filter((slug) => !listed.has(slug));
  if (dropped.length > 0) throw new ReplayFormatError(file, 1, `markets: ${dropped.join(', ')} of the earlier parts missing (a later part lists every market joined so far)`);
  const added = next.markets.filter((m) => !known.has(m.slug));
  for (const market of added) known.add(market.slug);
  return added.map((entry) => ({ kind: 'listed', t: next.createdAtMs, entry }));
}
