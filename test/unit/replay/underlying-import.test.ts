/**
 * `outcome-maker import underlying` through the CLI: Pyth's TradingView-history candles, exchange kline CSVs with
 * open times in ms and in µs (detected), a plain timestamp,price CSV; each becomes an underlying-only stream that
 * `import polymarket --underlying` merges beside a market. A file it cannot read fails with the file and the line,
 * and nothing is written (not even a partial file).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_FAILURE, EXIT_OK } from '../../../src/cli.js';
import { readReplay } from '../../../src/replay/reader.js';
import { runCliProcess, runCliInProcess } from '../../support/cli-process.js';
import { POLYMARKET_SAMPLE_PRESENT, POLYMARKET_SOL_STEM, samplesTitle } from '../../support/replay-samples.js';

const stem = POLYMARKET_SOL_STEM;
const dir = mkdtempSync(join(tmpdir(), 'om-underlying-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = runCliInProcess;

const OPEN_S = 1765450800; // 2025-12-11T11:00:00Z
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe.skipIf(!POLYMARKET_SAMPLE_PRESENT)(samplesTitle('import underlying beside the Polymarket sample'), () => {
  it('merges the prices within an hour before its first record and up to its last', async () => {
    const tv = file('sol-pyth-merge.json', JSON.stringify({ s: 'ok', t: [OPEN_S, OPEN_S + 60, OPEN_S + 120], o: [130.81, 130.9, 130.7], h: [131, 131, 131], l: [130, 130, 130], c: [130.9, 130.7, 130.6], v: [0, 0, 0] }));
    const prices = join(dir, 'sol-merge.ndjson.gz');
    expect((await cli(['import', 'underlying', '--ticker', 'SOL', '--from', tv, '--out', prices])).code).toBe(EXIT_OK);
    const merged = join(dir, 'sol-with-underlying.ndjson.gz');
    const run = await cli(['import', 'polymarket', '--books', `${stem}-up-books.json`, '--trades', `${stem}-up-trades.json`, '--market', 'sol-updown-15m-1765450800', '--underlying', prices, '--out', merged]);
    expect(run.err).toBe('');
    expect(JSON.parse(run.out)).toMatchObject({ underlyingPrices: 3 });
    expect(readReplay(merged).events.filter((e) => e.kind === 'underlying')).toHaveLength(3);
  });
});

describe('import underlying', () => {
  it('reads TradingView-history JSON (seconds), kline CSVs (ms and µs open times) and timestamp,price CSVs', async () => {
    const tv = file('sol-pyth.json', JSON.stringify({ s: 'ok', t: [OPEN_S, OPEN_S + 60, OPEN_S + 120], o: [130.81, 130.9, 130.7], h: [131, 131, 131], l: [130, 130, 130], c: [130.9, 130.7, 130.6], v: [0, 0, 0] }));
    const klineMs = file('SOLUSDT-1m.csv', [0, 1, 2].map((i) => `${(OPEN_S + 60 * i) * 1000},130.8${i},131,130,130.9,1000,${(OPEN_S + 60 * i + 59) * 1000 + 999},0,0,0,0,0`).join('\n'));
    const klineUs = file('SOLUSDT-1m-us.csv', `open_time,open,high,low,close,volume,close_time\n${[0, 1].map((i) => `${(OPEN_S + 60 * i) * 1_000_000},130.8${i},131,130,130.9,1000,${(OPEN_S + 60 * i + 59) * 1_000_000}`).join('\n')}\n`);
    const plain = file('sol.csv', `timestamp,price\n${OPEN_S * 1000},130.81\n2025-12-11T11:00:01Z,130.82\n`);
    const expected: [string, string, number, number][] = [
      [tv, 'tradingview-json', 3, 130.81],
      [klineMs, 'kline-csv', 3, 130.8],
      [klineUs, 'kline-csv', 2, 130.8],
      [plain, 'timestamp-price-csv', 2, 130.81],
    ];
    for (const [from, shape, prices, firstPrice] of expected) {
      const out = join(dir, `${shape}-${prices}.ndjson.gz`);
      const run = await cli(['import', 'underlying', '--ticker', 'SOL', '--from', from, '--out', out]);
      expect(run.err).toBe('');
      expect(run.code).toBe(EXIT_OK);
      expect(JSON.parse(run.out)).toMatchObject({ ticker: 'SOL', shape, prices, firstMs: OPEN_S * 1000 });
      const stream = readReplay(out);
      expect(stream.header.markets).toEqual([]);
      const events = stream.events.flatMap((e) => (e.kind === 'underlying' ? [e] : []));
      expect(events).toHaveLength(prices);
      expect(events[0]).toEqual({ kind: 'underlying', t: OPEN_S * 1000, ticker: 'SOL', source: 'import', price: firstPrice, conf: null, publishTs: OPEN_S * 1000, market: null });
    }
  });

  it('a line it cannot read is an error naming the file and the line; nothing is written', async () => {
    const cases: [string, string, string][] = [
      ['bad-price.csv', `timestamp,price\n${OPEN_S * 1000},130.81\n${OPEN_S * 1000 + 1000},-4\n`, 'bad-price.csv:3: price "-4" is not a positive price'],
      ['bad-time.csv', `${OPEN_S * 1000},1,2,3,4,5,6\nsoon,1,2,3,4,5,6\n`, 'bad-time.csv:2: open time "soon" is not a time'],
      ['backwards.csv', `${OPEN_S * 1000},130\n${OPEN_S * 1000 - 1},131\n`, 'backwards.csv:2: time'],
      ['bad.json', JSON.stringify({ s: 'ok', t: [OPEN_S, OPEN_S + 60], o: [130.8, 'x'] }), 'bad.json: not TradingView history ({s, t, o, h, l, c}): o.1'],
      ['nodata.json', JSON.stringify({ s: 'no_data', t: [], o: [] }), 'status s is "no_data"'],
    ];
    for (const [name, text, message] of cases) {
      const out = join(dir, 'out', `${name}.ndjson.gz`);
      const run = await cli(['import', 'underlying', '--ticker', 'SOL', '--from', file(name, text), '--out', out]);
      expect(run.code).toBe(EXIT_FAILURE);
      expect(run.err).toContain(message);
      expect(existsSync(out)).toBe(false);
    }
    expect(existsSync(join(dir, 'out')) ? readdirSync(join(dir, 'out')) : []).toEqual([]);
  });

  it('the installed command says the same from a child process (exit 1, file and line on stderr)', async () => {
    const from = file('child.csv', `timestamp,price\n${OPEN_S * 1000},abc\n`);
    const out = join(dir, 'child.ndjson.gz');
    const result = await runCliProcess(['import', 'underlying', '--ticker', 'SOL', '--from', from, '--out', out], dir);
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.stderr).toContain('child.csv:2: price "abc" is not a positive price');
    expect(existsSync(out)).toBe(false);
  });
});
