/**
 * `outcome-maker price`: through the real CLI (a child process on the recorded live markets) and through `main`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main, type CliIo } from '../../../src/cli.js';
import { normalCdf } from '../../../src/pricing/model/index.js';
import { samplesDir } from '../../contract/samples.js';
import { runCliProcess } from '../../support/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'om-price-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SAMPLES = join(samplesDir(), 'rest-markets-active-items.jsonl');

function io(): { io: CliIo; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, load: async () => ({}) }, out: () => out.join(''), err: () => err.join('') };
}

describe('price command', () => {
  it('prints the terms of every recorded live market, and the fair value given a spot, a vol and an instant (real CLI)', async () => {
    const at = '2025-12-17T00:50:33Z';
    const result = await runCliProcess(['price', '--markets', SAMPLES, '--spot', 'BTC=88000,ETH=2950,SOL=128,XRP=1.93', '--vol', '0.5', '--at', at], dir);
    expect(result.code).toBe(EXIT_OK);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(12);
    for (const line of lines) expect(line).toMatchObject({ priced: true, rule: 'pyth-candle-open-1m', comparison: 'above' });
    const btc = lines.find((l) => l['strike'] === '88640.73')!;
    expect(btc).toMatchObject({ ticker: 'BTC', settlesAt: '2025-12-17T01:00:00.000Z', spot: 88000, vol: 0.5 });
    const seconds = (Date.parse('2025-12-17T01:00:00Z') - Date.parse(at)) / 1000;
    expect(btc['secondsToSettlement']).toBeCloseTo(seconds, 9);
    const v = (0.5 * 0.5 * seconds) / (365 * 86_400);
    expect(btc['fair']).toBeCloseTo(Math.max(0.001, normalCdf(Math.log(88_000 / 88_640.73) / Math.sqrt(v))), 12);
    expect(Number(btc['delta'])).toBeGreaterThanOrEqual(0);
  });

  it('prints terms only without a spot, says why a market is unpriced, and names the line it cannot read', async () => {
    const path = join(dir, 'mixed.jsonl');
    writeFileSync(
      path,
      [
        JSON.stringify({ slug: 'fed-cut', title: 'Will the Fed cut rates?', description: 'FOMC', expirationTimestamp: 1 }),
        '{not json',
        JSON.stringify({ title: 'no slug' }),
        '',
      ].join('\n'),
    );
    const h = io();
    const code = await main(['price', '--markets', path], h.io);
    expect(code).toBe(EXIT_FAILURE);
    const lines = h.out().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ line: 1, slug: 'fed-cut', priced: false, crypto: false });
    expect(String(lines[1]?.['error'])).toContain(`${path}:2: not JSON`);
    expect(String(lines[2]?.['error'])).toContain(`${path}:3: slug:`);
  });

  it('a bare --spot prices one ticker only; every line without a fair value says why; --vol out of range is refused (real CLI)', async () => {
    const bare = await runCliProcess(['price', '--markets', SAMPLES, '--spot', '88000', '--vol', '0.5'], dir);
    expect(bare.code).toBe(EXIT_USAGE);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('price: --spot: one price without a ticker, but the markets have several tickers (BTC, ETH, SOL, XRP): give --spot BTC=price,ETH=price,SOL=price,XRP=price (got "88000")');

    const all = (await runCliProcess(['price', '--markets', SAMPLES], dir)).stdout.trim().split('\n');
    const btcOnly = join(dir, 'btc.jsonl');
    const sampleLines = readFileSync(SAMPLES, 'utf8').split('\n').filter((l) => l.trim() !== '');
    writeFileSync(btcOnly, `${sampleLines.filter((_, i) => (JSON.parse(all[i] ?? '{}') as { ticker?: string }).ticker === 'BTC').join('\n')}\n`);
    const single = await runCliProcess(['price', '--markets', btcOnly, '--spot', '88000', '--vol', '0.5', '--at', '2025-12-17T00:50:33Z'], dir);
    expect(single.code).toBe(EXIT_OK);
    const singleLines = single.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(singleLines.length).toBeGreaterThan(0);
    for (const line of singleLines) expect(line).toMatchObject({ ticker: 'BTC', spot: 88000, fair: expect.any(Number) as unknown });

    const partial = await runCliProcess(['price', '--markets', SAMPLES, '--spot', 'BTC=88000', '--vol', '0.5', '--at', '2025-12-17T00:50:33Z'], dir);
    expect(partial.code).toBe(EXIT_OK);
    const partialLines = partial.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of partialLines) {
      if (line['ticker'] === 'BTC') expect(typeof line['fair']).toBe('number');
      else expect(line).toMatchObject({ fair: null, reason: `no spot for ${String(line['ticker'])}: give --spot ${String(line['ticker'])}=price` });
    }

    const late = await runCliProcess(['price', '--markets', btcOnly, '--spot', 'BTC=88000', '--vol', '0.5', '--at', '2026-01-01T00:00:00Z'], dir);
    expect(late.code).toBe(EXIT_OK);
    for (const line of late.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)) {
      expect(line['fair']).toBeNull();
      expect(String(line['reason'])).toMatch(/^settled: its price was fixed at 2025-12-1\dT\d\d:00:00\.000Z, before --at 2026-01-01T00:00:00\.000Z/);
    }

    const percent = await runCliProcess(['price', '--markets', SAMPLES, '--spot', 'BTC=88000', '--vol', '50'], dir);
    expect(percent.code).toBe(EXIT_USAGE);
    expect(percent.stderr).toContain('price: --vol: expected an annualized volatility as a fraction, from 0.01 to 5 (0.6 = 60 %/yr) (50 %/yr is --vol 0.5) (got "50")');
  });

  it('refuses bad flags before reading anything, naming the flag and the value', async () => {
    for (const [args, text] of [
      [['--spot', 'lots', '--vol', '0.5'], '--spot'],
      [['--spot', '88000', '--vol', '-1'], '--vol'],
      [['--spot', '88000'], '--vol'],
      [['--at', 'yesterday'], '--at'],
    ] as const) {
      const h = io();
      expect(await main(['price', '--markets', SAMPLES, ...args], h.io)).toBe(EXIT_USAGE);
      expect(h.err()).toContain(text);
      expect(h.out()).toBe('');
    }
    const missing = io();
    expect(await main(['price', '--markets', join(dir, 'nope.jsonl')], missing.io)).toBe(EXIT_USAGE);
    expect(missing.err()).toContain('nope.jsonl');
  });
});
