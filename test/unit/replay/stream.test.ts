/**
 * The replay stream on disk: what ReplayWriter writes, readReplay reads back event for event; parts rotate by
 * size and by UTC day, each with its own header; a part cut off by a crash is an error naming the file, the byte
 * and the last complete line, and with `allowTruncated` yields everything up to its last flush; a corrupt part says
 * the byte where it stops decoding; a `.gz` that is not gzip names the file; a bad line is an error naming the file,
 * the line and the field.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { REPLAY_FORMAT, REPLAY_UNITS, REPLAY_VERSION, ReplayFormatError, type ReplayEvent, type ReplayHeader } from '../../../src/replay/format.js';
import { describeTruncation, readReplay, ReplayTruncatedError } from '../../../src/replay/reader.js';
import { ReplayWriter, writeReplayFile } from '../../../src/replay/writer.js';
import { poll } from '../../support/poll.js';

const root = mkdtempSync(join(tmpdir(), 'om-replay-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `d${(n += 1)}`);

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 24, 23, 59, 0);
const header: Omit<ReplayHeader, 'part'> = {
  kind: 'header',
  format: REPLAY_FORMAT,
  version: REPLAY_VERSION,
  venue: { name: 'sim', baseUrl: 'http://127.0.0.1:1' },
  source: { tool: 'record', version: '0.1.0' },
  units: REPLAY_UNITS,
  markets: [{ slug: 'm', yesTokenId: '1', noTokenId: '2', tickTicks: 1 }],
  createdAtMs: T0,
};

function book(t: number, bid: number): ReplayEvent {
  return { kind: 'book', t, venueTs: t - 5, market: 'm', bids: [[bid, 1_000_000], [bid - 1, 2_000_000]], asks: [[bid + 10, 3_000_000]] };
}

describe('ReplayWriter and readReplay', () => {
  it('round-trips every event kind in order', async () => {
    const dir = freshDir();
    const writer = new ReplayWriter({ dir, name: 'rec', header, scheduler: new ManualClock(T0) });
    const events: ReplayEvent[] = [
      { kind: 'gap', t: T0, market: null, cause: 'recorder-start' },
      book(T0 + 1, 500),
      { kind: 'trade', t: T0 + 2, venueTs: null, market: 'm', priceTicks: 510, sizeRaw: 5_000_000, takerSide: 'BUY', id: 'tr-1' },
      { kind: 'mode', t: T0 + 3, mode: 'post_only' },
      { kind: 'resolved', t: T0 + 4, market: 'm', winner: 'YES' },
      { kind: 'underlying', t: T0 + 5, ticker: 'BTC', source: 'venue', price: 91234.56, conf: null, publishTs: T0 + 4, market: 'm' },
      { kind: 'underlying', t: T0 + 6, ticker: 'BTC', source: 'hermes', price: 91234.6, conf: 12.5, publishTs: T0 + 5, market: null },
    ];
    events.forEach((e) => writer.write(e));
    await writer.close();
    const stream = readReplay(dir);
    expect(stream.header).toEqual({ ...header, part: 0 });
    expect(stream.events).toEqual(events);
    expect(stream.truncated).toEqual([]);
  });

  it('starts a new part at a UTC day boundary and when a part is full; each part has its header', async () => {
    const dir = freshDir();
    const writer = new ReplayWriter({ dir, name: 'rec', header, scheduler: new ManualClock(T0), maxPartBytes: 1 });
    writer.write(book(T0, 500));
    await writer.flush();
    writer.write(book(T0 + 1, 501)); // the first part already holds ≥ 1 compressed byte: a new part
    writer.write(book(T0 + DAY, 502)); // another day
    await writer.close();
    expect(readdirSync(dir).sort()).toEqual(['rec-0000.ndjson.gz', 'rec-0001.ndjson.gz', 'rec-0002.ndjson.gz']);
    const stream = readReplay(dir);
    expect(stream.events.map((e) => (e.kind === 'book' ? e.bids[0]?.[0] : null))).toEqual([500, 501, 502]);

    const byDay = freshDir();
    const daily = new ReplayWriter({ dir: byDay, name: 'rec', header, scheduler: new ManualClock(T0) });
    daily.write(book(T0, 500));
    daily.write(book(T0 + 30_000, 501));
    daily.write(book(T0 + 90_000, 502)); // 00:00:30 UTC next day
    await daily.close();
    expect(readdirSync(byDay)).toHaveLength(2);
    expect(readReplay(byDay).events).toHaveLength(3);
  });

  it('a market joined while writing is in the header of every later part, its listing read once at its own time', async () => {
    const dir = freshDir();
    const writer = new ReplayWriter({ dir, name: 'rec', header, scheduler: new ManualClock(T0), maxPartBytes: 1 });
    const late = { slug: 'late', yesTokenId: '3', noTokenId: '4', tickTicks: 1, expiresAtMs: T0 + 3_600_000 };
    writer.write(book(T0, 500));
    await writer.flush();
    writer.write({ kind: 'listed', t: T0 + 10, entry: late }); // a new part (the first is full): its header is the first's
    writer.addMarket(late);
    await writer.flush();
    writer.write(book(T0 + 20, 501)); // another part: its header lists the market joined
    await writer.close();
    const parts = readdirSync(dir).sort();
    expect(parts).toHaveLength(3);
    const headerOf = (file: string): ReplayHeader => JSON.parse(gunzipSync(readFileSync(join(dir, file))).toString('utf8').split('\n')[0] ?? '') as ReplayHeader;
    expect(parts.map((file) => headerOf(file).markets.map((m) => m.slug))).toEqual([['m'], ['m'], ['m', 'late']]);
    const stream = readReplay(dir);
    expect(stream.header.markets.map((m) => m.slug)).toEqual(['m']);
    expect(stream.events.filter((e) => e.kind === 'listed')).toEqual([{ kind: 'listed', t: T0 + 10, entry: late }]);
  });

  it('a crash loses at most what came after the last periodic flush', async () => {
    const dir = freshDir();
    const clock = new ManualClock(T0);
    const writer = new ReplayWriter({ dir, name: 'rec', header, scheduler: clock, flushEveryMs: 1000 });
    writer.write(book(T0, 500));
    writer.write(book(T0 + 10, 501));
    clock.advance(1000); // the periodic flush
    const path = join(dir, 'rec-0000.ndjson.gz');
    // what a crash now would leave: the part without its gzip trailer, once the flushed bytes reached the file
    const onDisk = await poll(
      () => {
        const bytes = readFileSync(path);
        const text = bytes.length === 0 ? '' : gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
        return text.split('\n').length === 4 ? bytes : undefined;
      },
      { timeoutMs: 5000, intervalMs: 10, failure: () => 'the periodic flush never reached the file' },
    );
    writer.write(book(T0 + 2000, 502));
    await writer.close();
    const crashDir = freshDir();
    mkdirSync(crashDir, { recursive: true });
    const crashed = join(crashDir, 'crashed.ndjson.gz');
    writeFileSync(crashed, onDisk);
    expect(() => readReplay(crashed)).toThrow(ReplayTruncatedError);
    expect(() => readReplay(crashed)).toThrow(`${crashed}: crashed.ndjson.gz truncated at byte ${onDisk.length} of ${onDisk.length} (the gzip data stops without its end`);
    expect(() => readReplay(crashed)).toThrow('after line 3; lines 1-3 can be read: replay them with --allow-truncated');
    const stream = readReplay(crashed, { allowTruncated: true });
    expect(stream.events.map((e) => (e.kind === 'book' ? e.bids[0]?.[0] : null))).toEqual([500, 501]);
    expect(stream.truncated).toEqual([{ file: crashed, reason: 'no-gzip-end', atByte: onDisk.length, fileBytes: onDisk.length, lastLine: 3 }]);
  });

  it('a recording cut at any byte is an error naming the byte and its last whole line, or read up to that line when allowed', async () => {
    const dir = freshDir();
    const path = join(dir, 'whole.ndjson.gz');
    mkdirSync(dir, { recursive: true });
    writeReplayFile(path, header, Array.from({ length: 200 }, (_, i) => book(T0 + i, 300 + i)));
    const whole = readFileSync(path);
    expect(readReplay(path).truncated).toEqual([]);
    const cut = join(dir, 'cut.ndjson.gz');
    for (const size of [whole.length - 1, Math.floor(whole.length / 2)]) {
      writeFileSync(cut, whole.subarray(0, size));
      let error: unknown = null;
      try {
        readReplay(cut);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ReplayTruncatedError);
      const part = error instanceof ReplayTruncatedError ? error.part : null;
      expect(part).toMatchObject({ file: cut, atByte: size, fileBytes: size });
      const allowed = readReplay(cut, { allowTruncated: true });
      // Every line before the cut is kept, in order, and nothing after it.
      expect(allowed.events.length).toBe(Math.max(0, (part?.lastLine ?? 0) - 1));
      expect(allowed.events).toEqual(readReplay(path).events.slice(0, allowed.events.length));
      expect(describeTruncation(allowed.truncated[0] ?? { file: '', reason: 'corrupt', atByte: 0, fileBytes: 0, lastLine: 0 })).toBe(
        `cut.ndjson.gz truncated at byte ${size} of ${size} (the gzip data stops without its end, as a crash or a copy cut short leaves it), after line ${part?.lastLine ?? -1}`,
      );
    }
  });

  it('a corrupt part names the byte where its data stops decoding; a .gz that is not gzip names the file', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'corrupt.ndjson.gz');
    writeReplayFile(join(dir, 'plain.ndjson'), header, Array.from({ length: 2000 }, (_, i) => book(T0 + i, 100 + (i % 700))));
    // Stored (level 0) deflate blocks: 1 header byte, LEN, NLEN (its complement), LEN bytes. The second block's NLEN
    // is made wrong, so the data decodes exactly to the end of the first block and no further.
    const bytes = Buffer.from(gzipSync(readFileSync(join(dir, 'plain.ndjson')), { level: 0 }));
    const firstLen = bytes.readUInt16LE(11);
    const second = 10 + 5 + firstLen;
    expect(bytes.length).toBeGreaterThan(second + 5);
    bytes.writeUInt16LE(bytes.readUInt16LE(second + 3) ^ 0x00ff, second + 3);
    writeFileSync(path, bytes);
    expect(() => readReplay(path)).toThrow(/corrupt\.ndjson\.gz truncated at byte \d+ of \d+ \(the gzip data does not decode past it\), after line \d+/);
    const stream = readReplay(path, { allowTruncated: true });
    const part = stream.truncated[0];
    expect(part?.reason).toBe('corrupt');
    expect(part?.atByte).toBeGreaterThan(second);
    expect(part?.atByte).toBeLessThanOrEqual(second + 5);
    const decoded = readFileSync(join(dir, 'plain.ndjson'), 'utf8').slice(0, firstLen);
    expect(part?.lastLine).toBe(decoded.split('\n').length - 1);
    expect(stream.events).toEqual(readReplay(join(dir, 'plain.ndjson')).events.slice(0, (part?.lastLine ?? 0) - 1));

    const text = join(dir, 'text.ndjson.gz');
    writeFileSync(text, '{"kind":"header"}\n');
    for (const allowTruncated of [false, true]) {
      expect(() => readReplay(text, { allowTruncated })).toThrow(ReplayFormatError);
      expect(() => readReplay(text, { allowTruncated })).toThrow(`${text}: not a gzip file (it starts with bytes 7b 22 6b 69, gzip with 1f 8b)`);
    }
  });

  it('a plain NDJSON part whose last line has no end is truncated at that line', () => {
    const dir = freshDir();
    const path = join(dir, 'plain.ndjson');
    writeReplayFile(path, header, [book(T0, 500), book(T0 + 1, 501)]);
    const text = readFileSync(path, 'utf8');
    const keep = text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1);
    writeFileSync(path, `${keep}{"kind":"bo`);
    expect(() => readReplay(path)).toThrow(`plain.ndjson truncated at byte ${Buffer.byteLength(keep)} of ${Buffer.byteLength(keep) + 11} (its last line has no end), after line 2`);
    expect(readReplay(path, { allowTruncated: true }).events).toHaveLength(1);
  });

  it('a bad line names the file, the line and the field', () => {
    const dir = freshDir();
    const path = join(dir, 'bad.ndjson');
    writeReplayFile(path, header, [book(T0, 500)]);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"kind":"trade","t":1,"venueTs":null,"market":"m","priceTicks":1000,"sizeRaw":1,"takerSide":"BUY","id":null}\n`);
    expect(() => readReplay(path)).toThrow(ReplayFormatError);
    expect(() => readReplay(path)).toThrow(/bad\.ndjson:3: event: priceTicks: /);
  });

  it('parts of different streams are refused', () => {
    const dir = freshDir();
    const v2 = { ...header, version: 2 as const };
    writeReplayFile(join(dir, 'a-0000.ndjson.gz'), v2, []);
    writeReplayFile(join(dir, 'a-0001.ndjson.gz'), { ...v2, markets: [...header.markets, { slug: 'other', yesTokenId: null, noTokenId: null, tickTicks: 1 }] }, []);
    expect(() => readReplay(dir)).toThrow(/a-0001\.ndjson\.gz:1: markets m,other differ from the first part's m/);
    const v3 = freshDir();
    writeReplayFile(join(v3, 'a-0000.ndjson.gz'), header, []);
    writeReplayFile(join(v3, 'a-0001.ndjson.gz'), { ...header, markets: [{ slug: 'other', yesTokenId: null, noTokenId: null, tickTicks: 1 }] }, []);
    expect(() => readReplay(v3)).toThrow(/a-0001\.ndjson\.gz:1: markets: m of the earlier parts missing/);
  });

  it('v3: a market listed over time reads as a listed event; one a later header adds unlisted is listed at that part\'s creation', () => {
    const dir = freshDir();
    const late = { slug: 'late', yesTokenId: '3', noTokenId: '4', tickTicks: 1, expiresAtMs: T0 + 3_600_000 };
    const later = { slug: 'later', yesTokenId: '5', noTokenId: '6', tickTicks: 1 };
    const listed: ReplayEvent = { kind: 'listed', t: T0 + 1000, entry: late };
    writeReplayFile(join(dir, 'a-0000.ndjson.gz'), header, [book(T0, 500), listed]);
    writeReplayFile(join(dir, 'a-0001.ndjson.gz'), { ...header, markets: [...header.markets, late, later], createdAtMs: T0 + 5000 }, []);
    const stream = readReplay(dir);
    expect(stream.header.markets.map((m) => m.slug)).toEqual(['m']);
    expect(stream.events.filter((e) => e.kind === 'listed')).toEqual([listed, { kind: 'listed', t: T0 + 5000, entry: later }]);
  });

  it('v3: a listed event is validated strictly, naming the field', () => {
    const path = join(freshDir(), 'bad-listed.ndjson');
    writeReplayFile(path, header, []);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"kind":"listed","t":5,"entry":{"slug":"x","yesTokenId":null,"noTokenId":null,"tickTicks":1,"expiresAtMs":-1}}\n`);
    expect(() => readReplay(path)).toThrow(/bad-listed\.ndjson:2: event: entry\.expiresAtMs: /);
  });

  it('a version-1 stream (no titles, terms, rewards or underlying) still reads; a bad underlying price names its field', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const v1 = { ...header, version: 1, part: 0 };
    writeFileSync(join(dir, 'old.ndjson'), `${JSON.stringify(v1)}\n${JSON.stringify(book(T0 + 1, 500))}\n`);
    const stream = readReplay(join(dir, 'old.ndjson'));
    expect(stream.header.version).toBe(1);
    expect(stream.events).toHaveLength(1);
    const bad = { kind: 'underlying', t: T0, ticker: 'BTC', source: 'venue', price: -1, conf: null, publishTs: T0, market: null };
    writeFileSync(join(dir, 'bad.ndjson'), `${JSON.stringify(v1)}\n${JSON.stringify(bad)}\n`);
    expect(() => readReplay(join(dir, 'bad.ndjson'))).toThrow(/bad\.ndjson:2: event: price/);
  });
});
