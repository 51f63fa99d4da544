/**
 * `outcome-maker import polymarket` through the CLI's public entry, on the third-party samples beside the clone
 * (test/support/replay-samples.ts; skipped, saying so, where they are absent),
 * and the importer's rules on small hand-made records: best level first whatever the file order, the other token
 * in YES terms (trade at 1 − p on the other side; its book only compared), exact units, errors that name the
 * file, the record and the field and write nothing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_FAILURE, EXIT_OK, main, type CliIo } from '../../../src/cli.js';
import { importPolymarket, ImportError } from '../../../src/replay/polymarket.js';
import { readReplay } from '../../../src/replay/reader.js';
import { POLYMARKET_SAMPLE_PRESENT, POLYMARKET_SOL_STEM, samplesTitle } from '../../support/replay-samples.js';

const stem = POLYMARKET_SOL_STEM;
const dir = mkdtempSync(join(tmpdir(), 'om-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} };
  return { cli, out: () => out.join(''), err: () => err.join('') };
}

const file = (name: string, data: unknown) => ({ name, data });
const bookRecord = (t: number, bids: [string, string][], asks: [string, string][]) => ({
  bids: bids.map(([price, size]) => ({ price, size })),
  asks: asks.map(([price, size]) => ({ price, size })),
  timestamp: String(t),
  local_timestamp: String(t + 100),
  asset_price: 130.5,
});
const tradeRecord = (t: number, price: string, size: string, side: 'buy' | 'sell') => ({
  price,
  size,
  side,
  timestamp: String(t),
  local_timestamp: String(t + 50),
  asset_price: 130.5,
});

describe.skipIf(!POLYMARKET_SAMPLE_PRESENT)(samplesTitle('import polymarket (the recorded samples, through the CLI)'), () => {
  it('imports both tokens into one YES stream that reads back with every record', async () => {
    const out = join(dir, 'sol.ndjson.gz');
    const h = io();
    const code = await main(
      ['import', 'polymarket', '--books', `${stem}-up-books.json`, '--trades', `${stem}-up-trades.json`, '--books-other', `${stem}-down-books.json`, '--trades-other', `${stem}-down-trades.json`, '--market', 'sol-updown-15m-1765450800', '--out', out],
      h.cli,
    );
    expect(h.err()).toBe('');
    expect(code).toBe(EXIT_OK);
    const summary: unknown = JSON.parse(h.out());
    expect(summary).toMatchObject({ books: 53, trades: 26, tradesOther: 26, otherBooksCompared: 53, otherBooksMismatched: 0, market: 'sol-updown-15m-1765450800', underlyingPrices: 0 });

    const stream = readReplay(out);
    expect(stream.truncated).toEqual([]);
    expect(stream.header).toMatchObject({ venue: { name: 'polymarket' }, source: { tool: 'import:polymarket' }, markets: [{ slug: 'sol-updown-15m-1765450800', tickTicks: 10 }] });
    expect(stream.events.filter((e) => e.kind === 'book')).toHaveLength(53);
    expect(stream.events.filter((e) => e.kind === 'trade')).toHaveLength(52);
    const times = stream.events.map((e) => e.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const event of stream.events) {
      if (event.kind !== 'book') continue;
      const bestBid = event.bids[0]?.[0] ?? 0;
      const bestAsk = event.asks[0]?.[0] ?? 1000;
      expect(bestBid).toBeLessThan(bestAsk);
      expect(event.bids.every(([p], i) => i === 0 || p < (event.bids[i - 1]?.[0] ?? 0))).toBe(true);
      expect(event.asks.every(([p], i) => i === 0 || p > (event.asks[i - 1]?.[0] ?? 0))).toBe(true);
    }
    // the first "up" book of the sample: best bid 0.44 × 40, best ask 0.48 × 150 (last elements of the file's arrays)
    const first = stream.events.find((e) => e.kind === 'book');
    expect(first?.kind === 'book' ? [first.bids[0], first.asks[0]] : null).toEqual([[440, 40_000_000], [480, 150_000_000]]);
  });

  it('a missing file fails with its path and writes nothing', async () => {
    const out = join(dir, 'none.ndjson.gz');
    const h = io();
    const code = await main(['import', 'polymarket', '--books', join(dir, 'absent.json'), '--trades', `${stem}-up-trades.json`, '--market', 'm', '--out', out], h.cli);
    expect(code).toBe(EXIT_FAILURE);
    expect(h.err()).toContain('absent.json');
    expect(existsSync(out)).toBe(false);
  });

  it('takes the terms, the title and the reward settings from flags, and the records\' asset_price as the underlying', async () => {
    const out = join(dir, 'sol-priced.ndjson.gz');
    const h = io();
    const base = ['import', 'polymarket', '--books', `${stem}-up-books.json`, '--trades', `${stem}-up-trades.json`, '--market', 'sol-updown-15m-1765450800'];
    const code = await main(
      [...base, '--title', 'Solana Up or Down - December 11, 6:00AM-6:15AM ET', '--ticker', 'SOL', '--strike', '130.805', '--settles', '2025-12-11T11:15:00Z', '--reward-min-size', '50', '--reward-max-spread', '0.045', '--reward-daily', '100', '--asset-price-ticker', 'SOL', '--out', out],
      h.cli,
    );
    expect(h.err()).toBe('');
    expect(code).toBe(EXIT_OK);
    const stream = readReplay(out);
    expect(stream.header.markets).toEqual([
      {
        slug: 'sol-updown-15m-1765450800',
        yesTokenId: null,
        noTokenId: null,
        tickTicks: 10,
        title: 'Solana Up or Down - December 11, 6:00AM-6:15AM ET',
        terms: { kind: 'given', ticker: 'SOL', family: 'strike', strike: '130.805', windowOpenMs: null, settlesAtMs: Date.UTC(2025, 11, 11, 11, 15) },
        rewards: { minSizeRaw: 50_000_000, maxSpreadTicks: 45, dailyRewardRaw: 100_000_000 },
      },
    ]);
    const prices = stream.events.flatMap((e) => (e.kind === 'underlying' ? [e] : []));
    expect(prices.length).toBeGreaterThan(40);
    expect(prices[0]).toMatchObject({ ticker: 'SOL', source: 'import', price: 130.805 });
    const times = stream.events.map((e) => e.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    for (const [flags, named] of [
      [['--ticker', 'SOL', '--strike', '130.8'], '--settles'],
      [['--ticker', 'SOL', '--strike', 'abc', '--settles', '2025-12-11T11:15:00Z'], '--strike "abc"'],
      [['--ticker', 'SOL', '--window-open', 'yesterday', '--settles', '2025-12-11T11:15:00Z'], '--window-open "yesterday"'],
      [['--reward-max-spread', '0.045', '--reward-daily', '-5'], '--reward-daily "-5"'],
    ] as const) {
      const bad = join(dir, 'bad-flags.ndjson.gz');
      const e = io();
      expect(await main([...base, ...flags, '--out', bad], e.cli)).toBe(EXIT_FAILURE);
      expect(e.err()).toContain(named);
      expect(existsSync(bad)).toBe(false);
    }
    const noSlug = io();
    expect(await main(['import', 'polymarket', '--books', `${stem}-up-books.json`, '--trades', `${stem}-up-trades.json`, '--out', join(dir, 'x.ndjson.gz')], noSlug.cli)).not.toBe(EXIT_OK);
    expect(noSlug.err()).toContain('--market');
  });
});

describe('importPolymarket', () => {
  it('levels come out best first; sizes are raw, prices ticks', () => {
    const { events } = importPolymarket(
      { books: file('b.json', [bookRecord(1000, [['0.40', '10'], ['0.41', '2.5']], [['0.45', '7'], ['0.43', '1.000001']])]), trades: file('t.json', []) },
      'm',
    );
    expect(events).toEqual([{ kind: 'book', t: 1100, venueTs: 1000, market: 'm', bids: [[410, 2_500_000], [400, 10_000_000]], asks: [[430, 1_000_001], [450, 7_000_000]] }]);
  });

  it("the other token's trade is a YES trade at 1 − p on the other side; its book is compared, not merged", () => {
    const { events, report } = importPolymarket(
      {
        books: file('up.json', [bookRecord(1000, [['0.40', '10']], [['0.45', '7']])]),
        trades: file('up-t.json', [tradeRecord(2000, '0.45', '3', 'buy')]),
        booksOther: file('down.json', [bookRecord(1000, [['0.55', '7']], [['0.60', '10']]), bookRecord(3000, [['0.5', '1']], [])]),
        tradesOther: file('down-t.json', [tradeRecord(1500, '0.57', '5', 'buy'), tradeRecord(2500, '0.62', '1', 'sell')]),
      },
      'm',
    );
    expect(report).toMatchObject({ books: 1, trades: 1, tradesOther: 2, otherBooksCompared: 1, otherBooksMismatched: 0 });
    expect(events.map((e) => (e.kind === 'trade' ? [e.t, e.priceTicks, e.sizeRaw, e.takerSide] : [e.kind, e.t]))).toEqual([
      ['book', 1100],
      [1550, 430, 5_000_000, 'SELL'],
      [2050, 450, 3_000_000, 'BUY'],
      [2550, 380, 1_000_000, 'BUY'],
    ]);
  });

  it('a mirror that does not match is counted', () => {
    const { report } = importPolymarket(
      { books: file('up.json', [bookRecord(1000, [['0.40', '10']], [['0.45', '7']])]), trades: file('t.json', []), booksOther: file('down.json', [bookRecord(1000, [['0.55', '7']], [['0.60', '9']])]) },
      'm',
    );
    expect(report.otherBooksMismatched).toBe(1);
  });

  it.each([
    ['a price off the 0.01 grid', [bookRecord(1, [['0.405', '1']], [])], 'b.json[0]: bids[0].price 0.405 is off the 0.01 grid'],
    ['a size with 7 decimals', [bookRecord(1, [['0.40', '1.0000001']], [])], 'b.json[0]: bids[0].size: more than 6 decimal places (got "1.0000001")'],
    ['a number where a string belongs', [{ ...bookRecord(1, [], []), timestamp: 5 }], 'b.json[0]: timestamp:'],
    ['not an array', { bids: [] }, 'b.json: expected a JSON array of records'],
  ])('%s is an ImportError naming the file, record and field', (_name, data, message) => {
    let caught: unknown = null;
    try {
      importPolymarket({ books: file('b.json', data), trades: file('t.json', []) }, 'm');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImportError);
    expect(caught instanceof Error ? caught.message : '').toContain(message);
  });
});
