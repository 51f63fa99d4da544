/**
 * Bad input, config files: hostile and broken bot configs. Each must be refused with one ConfigError that counts and
 * lists every problem with its dotted path and its value (never a secret's value), and nothing may reach the venue.
 *
 * The table runs in-process through `loadCheckedConfigFile` (what the CLI calls, fast: the schema and the strategy's
 * own check of its params, reported together); four cases run through the real CLI as a child process against a
 * recording venue: exit code 2, the problems on stderr, zero requests, no secret echoed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadCheckedConfigFile } from '../../src/config/index.js';
import { runCliProcess, type ProcessResult } from '../support/cli-process.js';
import { recordingServerForFile } from '../support/recording-server.js';

const dir = mkdtempSync(join(tmpdir(), 'om-badconfig-'));
const KEY = `0x${'3c'.repeat(32)}`;
const SECRET = Buffer.from('bad-input-config-secret-value').toString('base64');
const TOKEN = 'badinput-token-1234';

const venue = recordingServerForFile(() => ({ status: 500, body: { message: 'a config error must never get here' } }));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const venueBlock = (): string => `venue: {kind: live, baseUrl: "${venue.url}", socketUrl: "${venue.url}"}\n`;
const GOOD_TAIL = 'markets: [alpha-market]\nstrategy: {name: fixed-spread}\n';

let fileNo = 0;
function write(text: string | Buffer): string {
  const path = join(dir, `bad-${(fileNo += 1)}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** Loads the config and checks its strategy, as the CLI does; returns the problems (an empty list: accepted). */
async function problems(path: string): Promise<{ count: number; text: string }> {
  try {
    await loadCheckedConfigFile(path, { requireCredentials: false, env: {} });
    return { count: 0, text: '' };
  } catch (error) {
    if (error instanceof ConfigError) return { count: error.issues.length, text: error.message };
    throw error;
  }
}

interface BadConfig {
  readonly name: string;
  readonly text: () => string | Buffer;
  /** Problems expected (the error lists exactly this many). */
  readonly count: number;
  /** Substrings the message must contain: the dotted path and the offending value. */
  readonly mentions: readonly string[];
  /** Substrings it must never contain (secrets). */
  readonly never?: readonly string[];
}

const CASES: readonly BadConfig[] = [
  { name: 'binary garbage', text: () => Buffer.from([0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x3a, 0x7b, 0x0a, 0x22]), count: 1, mentions: ['(file)', 'must be a YAML mapping', '\\u001b'], never: ['\u001b'] },
  { name: 'a YAML list instead of a mapping', text: () => '- venue\n- strategy\n', count: 1, mentions: ['(file)', 'must be a YAML mapping'] },
  { name: 'an empty file', text: () => '', count: 1, mentions: ['must be a YAML mapping'] },
  {
    name: 'an alias bomb (billion laughs)',
    text: () => `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n`,
    count: 1,
    mentions: ['invalid YAML'],
  },
  { name: 'a duplicate key', text: () => `${venueBlock()}${GOOD_TAIL}strategy: {name: fixed-spread}\n`, count: 1, mentions: ['invalid YAML', 'strategy'] },
  {
    name: 'NaN, Infinity and negative limits',
    text: () => `${venueBlock()}${GOOD_TAIL}risk: {maxPositionPerToken: .nan, maxNetPosition: .inf, maxOpenOrders: -3, maxNotional: -1}\n`,
    count: 4,
    mentions: ['risk.maxPositionPerToken', 'risk.maxNetPosition', 'risk.maxOpenOrders', '-3', 'risk.maxNotional'],
  },
  {
    name: 'prices outside (0, 1) and off the tick',
    text: () => `${venueBlock()}${GOOD_TAIL}risk: {priceBand: {min: 0, max: 1.5}}\nvenue2: 1\n`,
    count: 3,
    mentions: ['risk.priceBand.min', 'risk.priceBand.max', '1.5', 'venue2: unknown key'],
  },
  { name: 'a band upside down', text: () => `${venueBlock()}${GOOD_TAIL}risk: {priceBand: {min: 0.9, max: 0.1}}\n`, count: 1, mentions: ['risk.priceBand.max', 'must be above min'] },
  { name: 'strings where numbers belong', text: () => `${venueBlock()}${GOOD_TAIL}risk: {maxOpenOrders: "six", dailyLossLimit: "lots"}\n`, count: 2, mentions: ['risk.maxOpenOrders', '"six"', 'risk.dailyLossLimit', '"lots"'] },
  { name: 'rate limits faster than the venue allows', text: () => `${venueBlock()}${GOOD_TAIL}rateLimits: {maxConcurrent: 5, minTimeMs: 10}\n`, count: 2, mentions: ['rateLimits.maxConcurrent', 'rateLimits.minTimeMs'] },
  {
    name: 'a private key and an API secret written into the file',
    text: () => `${venueBlock()}${GOOD_TAIL}credentials: {privateKey: "${KEY}", apiSecret: "${SECRET}"}\n`,
    count: 2,
    mentions: ['credentials.privateKey', 'credentials.apiSecret'],
    never: [KEY.slice(2, 30), SECRET],
  },
  { name: 'a live venue without markets', text: () => `${venueBlock()}strategy: {name: fixed-spread}\n`, count: 1, mentions: ['markets', 'required'] },
  { name: 'an unknown strategy', text: () => `${venueBlock()}markets: [alpha-market]\nstrategy: {name: no-such-strategy}\n`, count: 1, mentions: ['no-such-strategy'] },
  {
    name: 'strategy parameters of the wrong type',
    text: () => `${venueBlock()}markets: [alpha-market]\nstrategy: {name: fixed-spread, params: {bidSpread: "wide", levels: 0.5}}\n`,
    count: 2,
    mentions: ['bidSpread', 'levels'],
  },
  {
    name: 'an unknown risk key and a misspelt strategy parameter, in one file',
    text: () => `${venueBlock()}markets: [alpha-market]\nstrategy: {name: fixed-spread, params: {bidSpred: 0.02}}\nrisk: {maxOpenOrder: 4}\n`,
    count: 2,
    mentions: ['risk.maxOpenOrder: unknown key (did you mean risk.maxOpenOrders?) (got 4)', 'strategy.params.bidSpred: unknown parameter "bidSpred" (got 0.02)'],
  },
  {
    name: 'a volatility surface out of range: a weight above 1, a short profile, a band upside down, the tail floor at 2',
    text: () => `${venueBlock()}${GOOD_TAIL}pricing: {surface: {impliedWeight: 1.5, profile: {hourly: [1, 2, 3]}, implied: {midMin: 0.8, midMax: 0.2}, tails: {fit: true, minDof: 2}}}\n`,
    count: 4,
    mentions: ['pricing.surface.impliedWeight', '1.5', 'pricing.surface.profile.hourly', '24 items', 'pricing.surface.implied.midMin', 'must be below midMax', 'pricing.surface.tails.minDof'],
  },
  { name: 'a 5 MB value', text: () => `${venueBlock()}${GOOD_TAIL}orders: {botTag: "${'x'.repeat(5_000_000)}"}\n`, count: 1, mentions: ['orders.botTag'] },
  { name: 'deep nesting under a known key', text: () => `${venueBlock()}${GOOD_TAIL}feed: ${'{a: '.repeat(200)}1${'}'.repeat(200)}\n`, count: 1, mentions: ['feed.a: unknown key'] },
  {
    name: 'market selection rules: a lower-case ticker, one twice, an unknown cadence, an unknown rule, hysteresis too wide',
    text: () => `${venueBlock()}strategy: {name: fixed-spread}\nmarkets: {select: {max: 12, tickers: [btc, ETH, ETH], cadences: [hourly, monthly], fairHysteresis: 0.5, sortBy: reward}}\n`,
    count: 5,
    mentions: ['markets.select.tickers[0]', 'expected upper case: BTC', 'markets.select.tickers[2]', 'listed twice', 'markets.select.cadences[1]', '"monthly"', 'markets.select.fairHysteresis', '0.5', 'markets.select.sortBy: unknown key'],
  },
  {
    name: 'market selection rules: no bound (top or max), a fair band upside down',
    text: () => `${venueBlock()}strategy: {name: fixed-spread}\nmarkets: {select: {cadences: [hourly], minFair: 0.9, maxFair: 0.1}}\n`,
    count: 2,
    mentions: ['markets.select: give top or max', 'markets.select.maxFair', 'must be above minFair 0.9', '0.1'],
  },
  {
    name: 'market discovery: a poll faster than 5 s, an unknown key; max below the named markets',
    text: () => `${venueBlock()}strategy: {name: fixed-spread}\nmarkets: {slugs: [a-market, b-market], select: {max: 1}, discovery: {pollIntervalSec: 1, lifecycle: true}}\n`,
    count: 3,
    mentions: ['markets.discovery.pollIntervalSec', 'markets.discovery.lifecycle: unknown key', 'markets.select.max', 'is below the 2 markets named in markets.slugs'],
  },
];

describe('hostile config files are refused with every problem named, in-process', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const path = write(c.text());
      const { count, text } = await problems(path);
      expect(count, text).toBe(c.count);
      for (const part of c.mentions) expect(text, `the message names ${part}`).toContain(part);
      for (const secret of c.never ?? []) expect(text).not.toContain(secret);
      // A message is for humans: even a 5 MB value is shown truncated.
      expect(text.length).toBeLessThan(5_000);
    });
  }
});

function runCli(args: readonly string[]): Promise<ProcessResult> {
  return runCliProcess(args, dir, { OM_API_TOKEN_ID: TOKEN, OM_API_SECRET: SECRET, OM_PRIVATE_KEY: KEY });
}

describe('the real CLI: exit 2, every problem on stderr, nothing sent, no secret echoed', () => {
  const cli = [CASES[5]!, CASES[10]!, CASES[13]!, CASES.find((c) => c.name.startsWith('an unknown risk key'))!];
  for (const c of cli) {
    it(`run --config (${c.name})`, async () => {
      const before = venue.requests.length;
      const result = await runCli(['run', '--config', write(c.text())]);
      expect(result.code, result.stderr).toBe(2);
      for (const part of c.mentions) expect(result.stderr).toContain(part);
      for (const secret of [...(c.never ?? []), KEY.slice(2, 30), SECRET, TOKEN]) {
        expect(result.stderr + result.stdout).not.toContain(secret);
      }
      expect(venue.requests.length - before, 'requests that reached the venue').toBe(0);
    }, 20_000);
  }
});
