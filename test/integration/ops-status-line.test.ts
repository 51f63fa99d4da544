/**
 * A healthy paper run through the real CLI (`outcome-maker run --config <copy of config/paper.yaml>`: the embedded
 * simulator's crypto world, priced markets, synthetic takers) logs no WARN, one line per event (no second line for a
 * fresh book or for a settled socket unit), the public Pyth feed id of each priced market as it is (not redacted),
 * and the status line every `log.statusIntervalSec` with its figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';
import { builtCliIsCurrent } from '../support/cli-process.js';
import { spawnWatched } from '../support/bot-process.js';
import { editConfig, ROOT } from './ops-support.js';

const dir = mkdtempSync(join(tmpdir(), 'om-status-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Line {
  /** The CLI logs levels as labels. */
  readonly level: string;
  readonly msg: string;
  readonly [key: string]: unknown;
}

function logLines(stdout: string): Line[] {
  return stdout
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as Line);
}

it('a healthy paper run: no WARN, one line per event, a status line every interval with its figures', async () => {
  const configPath = join(dir, 'paper.yaml');
  copyFileSync(join(ROOT, 'config', 'paper.yaml'), configPath);
  editConfig(configPath, (config) => {
    // Its eight markets expire weekly, not hourly: an hourly market reaching its stop (a minute before the hour) would
    // leave during the run, whatever the time of day the suite runs at (2 × 1 × 4 strikes = 8 markets as in the file).
    const venue = z.object({ underlying: z.record(z.string(), z.unknown()) }).loose().parse(config['venue']);
    config['venue'] = { ...venue, underlying: { ...venue.underlying, cadences: ['weekly'], strikesPerExpiry: 4 } };
    config['database'] = { path: join(dir, 'paper.db') };
    config['metrics'] = { port: 0 };
    config['log'] = { level: 'info', pretty: false, statusIntervalSec: 2 };
  });
  // Stopped once the third status line is out (however long start-up took on a loaded machine), with SIGINT.
  const running = spawnWatched(process.execPath, [join(ROOT, 'bin', 'outcome-maker.mjs'), 'run', '--config', configPath], {
    PATH: process.env['PATH'] ?? '',
    HOME: dir,
    ...(builtCliIsCurrent() ? {} : { OUTCOME_MAKER_FROM_SOURCE: '1' }),
  });
  try {
    let seen = 0;
    await running.waitForLine((line) => line.includes('"msg":"status: ') && ++seen >= 3, 120_000);
  } finally {
    const stopped = await running.stop('SIGINT', 20_000);
    expect(stopped.code, running.lines.slice(-10).join('\n')).toBe(0);
  }
  const lines = logLines(running.lines.join('\n'));
  expect(lines.length).toBeGreaterThan(10);
  expect(lines.filter((line) => ['warn', 'error', 'fatal'].includes(line.level)).map((line) => `${line.level}: ${line.msg}${typeof line['err'] === 'string' ? ` (${line['err']})` : ''}`)).toEqual([]);

  // The public Pyth feed id of each priced market is printed as it is (never redacted as if it were a key).
  const pricing = lines.filter((line) => line.msg.startsWith('pricing ') && line.msg.includes(' from the model: '));
  expect(pricing).toHaveLength(8);
  for (const line of pricing) expect(line['pythFeed']).toMatch(/^0x[0-9a-f]{64}$/);

  // One line per event: a book turning fresh once per market, a unit settled once per subject.
  const fresh = lines.filter((line) => line.msg === 'order book fresh');
  expect(fresh.length).toBeGreaterThan(0);
  expect(new Set(fresh.map((line) => line['market'])).size).toBe(fresh.length);
  expect(lines.filter((line) => line.msg === 'book fresh')).toEqual([]);
  expect(lines.filter((line) => line.msg === 'socket unit settled from evidence' && line['what'] === 'bookSize')).toHaveLength(1);

  const status = lines.filter((line) => line.msg.startsWith('status: '));
  expect(status.length).toBeGreaterThanOrEqual(3);
  const last = status.at(-1);
  expect(last).toMatchObject({ level: 'info', markets: 8 });
  // The interval as measured between two lines (the timer's period, plus what a loaded machine adds).
  expect(Number(last?.['intervalSec'])).toBeGreaterThanOrEqual(2);
  expect(last?.msg).toMatch(/^status: \d+\/8 markets quoted, \d+ open orders, \d+ fills, PnL [+-]?\d+\.\d\d USDC \(realized .*\), \d+ requests \(\d+ in the last [\d.]+ s: \d+\.\d % of the rate limit\), underlying age BTC \d+\.\d s, ETH \d+\.\d s(, not quoted: .+)?, capital USDC: (free \d+\.\d\d|free USDC not read yet), in orders \d+\.\d\d, in positions \d+\.\d\d, unredeemed \d+\.\d\d \(\d+ markets?\), today redeemed \d+\.\d\d merged \d+\.\d\d gas \d+\.\d{4}(, quoting trimmed: \d+ markets? lack capital \([\d.]+ USDC short\))?$/);
  // The capital by state (docs/settlement.md): in the fields too.
  expect(last?.['capital']).toMatchObject({ openOrdersUsdc: expect.any(Number) as unknown, unredeemedMarkets: expect.any(Number) as unknown });
  for (const key of ['marketsQuoted', 'openOrders', 'fills', 'pnlUsdc', 'requests', 'requestsInInterval', 'rateLimitUsedPct']) expect(typeof last?.[key], key).toBe('number');
  expect(Number(last?.['marketsQuoted'])).toBeGreaterThan(0);
  expect(Number(last?.['requests'])).toBeGreaterThan(0);
  expect(Object.keys(last?.['underlyingAgeSec'] ?? {}).sort()).toEqual(['BTC', 'ETH']);
  // Every request counted once: the intervals add up to the total of the last line (requests start before the first).
  const total = status.reduce((sum, line) => sum + Number(line['requestsInInterval']), 0);
  expect(total).toBeLessThanOrEqual(Number(last?.['requests']));
}, 180_000);
