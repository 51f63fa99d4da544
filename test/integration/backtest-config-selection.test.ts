/**
 * Backtests run the config's own bot (issue 42, item 1): its `markets` section decides what is traded, through the
 * daemon's own selection, discovery and roster (src/markets/selection-loop.ts), in the synthetic backtest and the replay,
 * through the CLI's `main`. The hourly example (every BTC and ETH hourly market, 12 at most) trades only BTC and ETH
 * hourly markets in a crypto world generated for its selection, and only the hourly markets of a recording that also
 * holds daily ones; where the world lists more than 12 such markets, 12 at most are joined at once; a selection that
 * matches nothing, or a world that cannot hold what it names, is an error saying so (exit 2), never a table of zeros.
 * Short virtual durations: the hourly ladder settling at 01:00 is joined at 00:10 (joinBeforeSettlementSec 3000).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { runCliInProcess } from '../support/cli-process.js';
import { missingLines, quotedOutputsCheckedBy } from '../support/quoted-outputs.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const HOURLY = join(ROOT, 'config', 'hourly-crypto.example.yaml');
const RECORDING = join(ROOT, 'examples', 'sim-btc-ladder', 'recording.ndjson.gz');
const dir = mkdtempSync(join(tmpdir(), 'om-selection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const selection = z.strictObject({ rules: z.string(), joined: z.int(), peakJoined: z.int().nullable(), listed: z.int().nullable(), notJoined: z.string().nullable() });
const synthetic = z.looseObject({ tickers: z.array(z.string()), cadences: z.array(z.string()), selection, markets: z.array(z.looseObject({ market: z.string(), fills: z.int() })) });
const replay = z.looseObject({ market: z.string(), slugs: z.array(z.string()), fills: z.int(), selection });

/** A BTC or ETH market of the hourly ladder settling at 01:00 on the synthetic day (slug: `…-on-jan-1-0100-utc-…`). */
const HOURLY_BTC_ETH = /^dollar(btc|eth)-above-dollar\d+-on-jan-1-0100-utc-\d+$/;

/** The hourly example with its venue or markets section replaced, written beside the other files of the test. */
function variant(name: string, change: (doc: Record<string, unknown>) => void): string {
  const doc = parse(readFileSync(HOURLY, 'utf8')) as Record<string, unknown>;
  change(doc);
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify({ ...doc, database: { path: join(dir, `${name}.db`) } }));
  return file;
}

/** The block of `file` tagged `checked by:` this test names the command run here, and `printed` has its lines, in order. */
function expectQuoted(file: string, args: readonly string[], printed: string): void {
  const quoted = quotedOutputsCheckedBy('test/integration/backtest-config-selection.test.ts').filter((q) => q.file === file);
  expect(quoted.map((q) => q.args), `the block of ${file} checked by this test`).toEqual([args]);
  for (const q of quoted) expect(missingLines(q.lines, printed), `${q.file}:${q.line} \`${q.command}\` printed:\n${printed}`).toEqual([]);
}

describe('backtests of the config as written', () => {
  it('synthetic: the hourly example trades only BTC and ETH hourly markets, in a world generated for its selection, and its report names the selection', async () => {
    const run = await runCliInProcess(['backtest', '--synthetic', '--config', HOURLY, '--duration', '11m', '--json']);
    expect(run.code, run.err).toBe(0);
    const r = synthetic.parse(JSON.parse(run.out));
    expect(r.tickers).toEqual(['BTC', 'ETH']);
    expect(r.cadences).toEqual(['hourly']);
    expect(r.markets.length).toBeGreaterThan(0);
    for (const m of r.markets) expect(m.market).toMatch(HOURLY_BTC_ETH);
    expect(r.selection.rules).toBe('markets: select tickers BTC, ETH, cadences hourly, joined 3000 s before settlement, fair 0.03–0.97 (hysteresis 0.01), max 12');
    expect(r.selection.joined).toBe(r.markets.length);
    expect(r.selection.peakJoined).toBeLessThanOrEqual(12);

    // The text report, as docs/backtest.md quotes it (the block tagged `checked by:` this file): same command, same lines.
    const args = ['backtest', '--synthetic', '--config', 'config/hourly-crypto.example.yaml', '--duration', '11m'];
    const text = await runCliInProcess(args);
    expect(text.code, text.err).toBe(0);
    expect(text.out.split('\n')[1]).toMatch(/^selection markets: select tickers BTC, ETH, cadences hourly, .*max 12: \d+ joined, at most \d+ at once, of \d+ listed$/);
    expectQuoted('docs/backtest.md', args, text.out);
  }, 120_000);

  it('synthetic: in a world listing 16 BTC/ETH hourly strikes beside SOL and daily ones, 12 at most are joined at once, and only BTC and ETH hourly', async () => {
    const wide = variant('wide-world', (doc) => {
      doc['venue'] = { kind: 'sim', world: 'crypto', seed: 3, underlying: { tickers: ['BTC', 'ETH', 'SOL'], cadences: ['hourly', 'daily'], strikesPerExpiry: 8 } };
    });
    const run = await runCliInProcess(['backtest', '--synthetic', '--config', wide, '--duration', '11m', '--json']);
    expect(run.code, run.err).toBe(0);
    const r = synthetic.parse(JSON.parse(run.out));
    expect(r.tickers).toEqual(['BTC', 'ETH', 'SOL']);
    expect(r.selection.peakJoined).toBe(12);
    expect(r.markets).toHaveLength(12);
    for (const m of r.markets) expect(m.market).toMatch(HOURLY_BTC_ETH);
    expect(r.selection.listed).toBe(3 * 2 * 8);
    expect(r.selection.notJoined).toMatch(/ticker SOL not in \[BTC, ETH\]/);
    expect(r.selection.notJoined).toMatch(/cadence daily not in \[hourly\]/);
    expect(r.selection.notJoined).toMatch(/\d+× over max 12/);
  }, 120_000);

  it('replay: the hourly example on a recording of two hourly and two daily BTC markets trades the hourly ones only', async () => {
    const run = await runCliInProcess(['backtest', '--replay', RECORDING, '--config', HOURLY, '--json']);
    expect(run.code, run.err).toBe(0);
    const r = replay.parse(JSON.parse(run.out));
    expect(r.market).toBe('2 markets');
    expect(r.slugs.every((slug) => /-on-nov-26-2000-utc-/.test(slug))).toBe(true);
    expect(r.selection).toMatchObject({ joined: 2, peakJoined: 2, listed: 4, notJoined: '2× cadence daily not in [hourly]' });
    expect(r.fills).toBeGreaterThan(0);

    const args = ['backtest', '--replay', 'examples/sim-btc-ladder/recording.ndjson.gz', '--config', 'config/hourly-crypto.example.yaml'];
    const text = await runCliInProcess(args);
    expect(text.code, text.err).toBe(0);
    expectQuoted('docs/replay.md', args, text.out);
    expect(text.out).toContain('selection markets: select tickers BTC, ETH, cadences hourly, joined 3000 s before settlement, fair 0.03–0.97 (hysteresis 0.01), max 12: 2 joined, at most 2 at once, of 4 listed (not joined: 2× cadence daily not in [hourly])\n');
  }, 120_000);

  it('a selection that matches nothing, or names what the world cannot hold, is said plainly with exit 2', async () => {
    const nothing = variant('nothing', (doc) => {
      doc['markets'] = { slugs: ['no-such-market'] };
    });
    const synth = await runCliInProcess(['backtest', '--synthetic', '--config', nothing, '--duration', '1m']);
    expect(synth.code).toBe(2);
    expect(synth.out).toBe('');
    expect(synth.err).toMatch(/^backtest --synthetic: the selection \(markets: slugs no-such-market\) joined none of the \d+ markets the crypto world listed in 1 min: /);
    const replayed = await runCliInProcess(['backtest', '--replay', RECORDING, '--config', nothing]);
    expect(replayed.code).toBe(2);
    expect(replayed.err).toContain('backtest: the selection (markets: slugs no-such-market) joined none of the 4 markets of the stream: 4× not named in markets.slugs or groups, and no markets.select');

    const doge = variant('doge', (doc) => {
      (doc['markets'] as { select: Record<string, unknown> }).select['tickers'] = ['BTC', 'DOGE'];
    });
    const small = await runCliInProcess(['backtest', '--synthetic', '--config', doge, '--duration', '1m']);
    expect(small.code).toBe(2);
    expect(small.err).toBe('backtest --synthetic: markets.select names tickers [DOGE] (the crypto world has BTC, ETH, SOL, XRP): a world too small for the selection\n');
    const generic = await runCliInProcess(['backtest', '--synthetic', '--config', HOURLY, '--world', 'generic', '--duration', '1m']);
    expect(generic.code).toBe(2);
    expect(generic.err).toContain('the generic world has no crypto strike market');
  }, 120_000);
});
