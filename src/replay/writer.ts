/**
 * Writes a replay stream to disk as gzip-compressed NDJSON parts: `<dir>/<name>-<part>.ndjson.gz`, each part
 * starting with the header (so every part reads on its own). A new part starts when the current one has taken
 * `maxPartBytes` of compressed output or when an event's UTC day differs from the part's.
 *
 * Owns: the open part, its byte count and the flush timer. Invariants: the compressor is flushed (Z_SYNC_FLUSH)
 * at least every `flushEveryMs`, so a crash loses at most that much (the reader accepts a part cut off after a
 * flush); events are written in the order given; `close` ends the part with a complete gzip trailer; a market added
 * with `addMarket` (format v3: joined while recording, after its `listed` event was written) is in the header of every
 * later part, so each part lists every market joined so far (the reader refuses a later part that drops one).
 */
import { createWriteStream, mkdirSync, renameSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { constants, createGzip, gzipSync, type Gzip } from 'node:zlib';
import type { CancelTimer, Scheduler } from '../core/clock.js';
import { eventLine, headerLine, type ReplayEvent, type ReplayHeader, type ReplayMarket } from './format.js';

export interface ReplayWriterOptions {
  readonly dir: string;
  /** File name stem of every part. */
  readonly name: string;
  readonly header: Omit<ReplayHeader, 'part'>;
  readonly scheduler: Scheduler;
  /** Default 1000: the most a crash can lose. */
  readonly flushEveryMs?: number;
  /** Default 64 MiB of compressed output per part. */
  readonly maxPartBytes?: number;
}

const DAY_MS = 86_400_000;

interface OpenPart {
  readonly gzip: Gzip;
  readonly file: WriteStream;
  readonly done: Promise<void>;
  readonly day: number;
  bytes: number;
  dirty: boolean;
}

export class ReplayWriter {
  private part: OpenPart | null = null;
  private partIndex = -1;
  private timer: CancelTimer | null = null;
  private closed = false;
  private readonly files: string[] = [];
  private eventCount = 0;
  /** Parts ended but maybe not yet on disk (close waits for them). */
  private readonly ending: Promise<void>[] = [];
  /** The header's markets, with those joined since (written into the next parts' headers). */
  private readonly markets: ReplayMarket[];

  constructor(private readonly options: ReplayWriterOptions) {
    mkdirSync(options.dir, { recursive: true });
    this.markets = [...options.header.markets];
  }

  /** A market joined while writing (its `listed` event written first): in the header of every later part. */
  addMarket(entry: ReplayMarket): void {
    if (!this.markets.some((m) => m.slug === entry.slug)) this.markets.push(entry);
  }

  /** Every part file written so far, in order. */
  paths(): readonly string[] {
    return this.files;
  }

  get events(): number {
    return this.eventCount;
  }

  write(event: ReplayEvent): void {
    if (this.closed) throw new Error('replay writer: write after close');
    const day = Math.floor(event.t / DAY_MS);
    const current = this.part;
    const full = current !== null && current.bytes >= (this.options.maxPartBytes ?? 64 * 1024 * 1024);
    const part = current === null || current.day !== day || full ? this.rotate(day) : current;
    part.gzip.write(eventLine(event));
    part.dirty = true;
    this.eventCount += 1;
    this.armFlush();
  }

  /** Flushes what was written so far to the file (a crash after this loses nothing before it). */
  flush(): Promise<void> {
    const part = this.part;
    if (part === null || !part.dirty) return Promise.resolve();
    part.dirty = false;
    return new Promise((resolve) => part.gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.timer?.();
    this.timer = null;
    this.endPart();
    await Promise.all(this.ending);
  }

  private rotate(day: number): OpenPart {
    this.endPart();
    this.partIndex += 1;
    const path = join(this.options.dir, `${this.options.name}-${String(this.partIndex).padStart(4, '0')}.ndjson.gz`);
    const gzip = createGzip();
    const file = createWriteStream(path);
    const done = new Promise<void>((resolve, reject) => {
      file.on('finish', () => resolve());
      file.on('error', reject);
      gzip.on('error', reject);
    });
    const part: OpenPart = { gzip, file, done, day, bytes: 0, dirty: true };
    gzip.on('data', (chunk: Buffer) => {
      part.bytes += chunk.length;
    });
    gzip.pipe(file);
    gzip.write(headerLine({ ...this.options.header, markets: [...this.markets], part: this.partIndex }));
    this.files.push(path);
    this.part = part;
    return part;
  }

  private endPart(): void {
    const part = this.part;
    if (part === null) return;
    this.part = null;
    part.gzip.end();
    this.ending.push(part.done);
  }

  private armFlush(): void {
    if (this.timer !== null) return;
    this.timer = this.options.scheduler.schedule(this.options.flushEveryMs ?? 1000, () => {
      this.timer = null;
      void this.flush();
    });
  }
}

/**
 * Writes a whole stream as one part at `path` (an import: everything is in memory already), into a temporary file
 * beside it renamed at the end: `path` is either the whole stream or untouched, never half-written.
 */
export function writeReplayFile(path: string, header: Omit<ReplayHeader, 'part'>, events: readonly ReplayEvent[]): void {
  const text = headerLine({ ...header, part: 0 }) + events.map(eventLine).join('');
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.partial`;
  try {
    writeFileSync(temporary, path.endsWith('.gz') ? gzipSync(text) : text);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
