import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  effectivePriceBand,
  loadConfigFile,
  parseConfig,
  parseConfigText,
  riskLimitsFor,
  validateStrategy,
  type AppConfig,
  type ConfigIssue,
} from '../../../src/config/index.js';

const BASE = { source: '<test>', baseDir: '/srv/bot' };
const PRIVATE_KEY = `0x${'4f'.repeat(32)}`;

function parse(text: string): AppConfig {
  return parseConfigText(text, BASE);
}

function issuesOf(text: string): readonly ConfigIssue[] {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

function messageOf(text: string): string {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const LIVE = `venue: {kind: live, baseUrl: "https://api.example.test/", socketUrl: "wss://ws.example.test"}
markets: [alpha-market]
strategy: {name: fixed-spread}
`;

describe('defaults and units', () => {
  it('fills every section from a minimal file with safe defaults', () => {
    const config = parse('strategy: {name: fixed-spread}\n');
    expect(config.venue.kind).toBe('sim');
    expect(config.credentials).toBeNull();
    expect(config.orders.postOnly).toBe(true);
    expect(config.metrics).toEqual({ enabled: true, host: '127.0.0.1', port: 9464 });
    expect(config.rateLimits).toMatchObject({ maxConcurrent: 2, minTimeMs: 320 });
    expect(config.shutdown.leaveOrdersResting).toBe(false);
    expect(config.risk.priceBand).toEqual({ minTicks: 20, maxTicks: 980 });
    expect(config.database.path).toBe('/srv/bot/outcome-maker.db');
    // On the simulator with no markets section, every simulated market is traded.
    expect(config.markets.select).toMatchObject({ top: 3, max: null, by: 'dailyReward', rewardableOnly: false, minDailyRewardRaw: 0, tickers: null, cadences: null });
    expect(config.markets.discovery).toEqual({ pollIntervalMs: 60_000, lifecycleEvents: true, clockMarginMs: 30_000 });
  });

  it('parses prices, shares and USDC exactly into ticks and raw integers', () => {
    const config = parse(`strategy: {name: fixed-spread}
risk:
  maxPositionPerToken: 12.345678
  maxNetPosition: "0.1"
  maxNotional: 2500.5
  dailyLossLimit: 0.000001
  priceBand: {min: 0.035, max: "0.965"}
venue: {kind: sim, startingCollateral: "100.25", flow: {makerSize: 7.123}}
orders: {refreshTolerance: {size: 2.5}}
`);
    expect(config.risk.maxPositionPerTokenRaw).toBe(12_345_678);
    expect(config.risk.maxNetPositionRaw).toBe(100_000);
    expect(config.risk.maxNotionalRaw).toBe(2_500_500_000);
    expect(config.risk.dailyLossLimitRaw).toBe(1);
    expect(config.risk.priceBand).toEqual({ minTicks: 35, maxTicks: 965 });
    expect(config.orders.refreshTolerance.size).toEqual({ kind: 'raw', raw: 2_500_000 });
    if (config.venue.kind !== 'sim') throw new Error('expected the simulator');
    expect(config.venue.startingCollateralRaw).toBe(100_250_000);
    expect(config.venue.flow).toEqual({ enabled: true, makerSizeRaw: 7_123_000 });
  });

  it('fills live defaults: credentials variable names, header prefix, domain, chain', () => {
    const config = parse(LIVE);
    expect(config.credentials).toEqual({ apiTokenId: 'OM_API_TOKEN_ID', apiSecret: 'OM_API_SECRET', privateKey: 'OM_PRIVATE_KEY' });
    if (config.venue.kind !== 'live') throw new Error('expected live');
    expect(config.venue).toMatchObject({ baseUrl: 'https://api.example.test', headerPrefix: 'lmts', chainId: 8453, signatureType: 0 });
    expect(config.venue.eip712DomainName).toBe('Limitless CTF Exchange');
    expect(config.markets.slugs).toEqual(['alpha-market']);
  });

  it('returns a deeply frozen object', () => {
    const config = parse('strategy: {name: fixed-spread, params: {levels: 2}}\nmarkets: {slugs: [a-1]}\n');
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.risk.priceBand)).toBe(true);
    expect(Object.isFrozen(config.markets.slugs)).toBe(true);
    expect(Object.isFrozen(config.strategy.params)).toBe(true);
    expect(Reflect.set(config.risk, 'maxOpenOrders', 1000)).toBe(false);
    expect(() => Reflect.apply(Array.prototype.push, config.markets.slugs, ['b'])).toThrow(TypeError);
    expect(config.risk.maxOpenOrders).toBe(6);
    expect(config.markets.slugs).toEqual(['a-1']);
  });

  it('resolves relative paths against the config file directory', () => {
    const config = parse('strategy: {name: ./my-strategy.ts}\ndatabase: {path: ../data/bot.db}\n');
    expect(config.database.path).toBe('/srv/data/bot.db');
    expect(config.strategy.name).toBe('/srv/bot/my-strategy.ts');
    expect(parse('strategy: {name: fixed-spread}\ndatabase: {path: ":memory:"}\n').database.path).toBe(':memory:');
  });

  it('applies per-market risk overrides and intersects bands with the venue', () => {
    const config = parse(`strategy: {name: fixed-spread}
venue: {kind: sim, priceBand: {min: 0.05, max: 0.95}}
risk:
  maxOpenOrders: 6
  priceBand: {min: 0.02, max: 0.9}
  perMarket:
    tight-one: {maxOpenOrders: 2, priceBand: {min: 0.3, max: 0.7}, maxPositionPerToken: 40}
`);
    expect(riskLimitsFor(config.risk, 'tight-one')).toMatchObject({ maxOpenOrders: 2, maxPositionPerTokenRaw: 40_000_000, priceBand: { minTicks: 300, maxTicks: 700 } });
    expect(riskLimitsFor(config.risk, 'other')).toMatchObject({ maxOpenOrders: 6, maxPositionPerTokenRaw: 500_000_000 });
    expect(effectivePriceBand(config, 'other')).toEqual({ minTicks: 50, maxTicks: 900 });
    expect(effectivePriceBand(config, 'tight-one')).toEqual({ minTicks: 300, maxTicks: 700 });
  });

  it('accepts a bare list of slugs as markets.slugs', () => {
    expect(parse('strategy: {name: x}\nmarkets: [a, b-2]\n').markets.slugs).toEqual(['a', 'b-2']);
  });
});

describe('errors name the path and the value', () => {
  it('unknown key', () => {
    const issues = issuesOf('strategy: {name: fixed-spread}\nrisk:\n  maxPositionPerTokn: 5\n');
    expect(issues).toEqual([{ kind: 'unknown-key', path: 'risk.maxPositionPerTokn', message: 'unknown key (did you mean risk.maxPositionPerToken?)', value: '5' }]);
  });

  it('an unknown key gets the nearest valid key at its place, at any depth, or none when nothing is close', () => {
    const issues = issuesOf('strategy: {name: x}\nshutdwn: {}\nvenue: {kind: sim, flow: {enable: true}}\nmarkets: {select: {tikers: [BTC], max: 2}}\nrisk: {zzz: 1}\n');
    expect(Object.fromEntries(issues.map((i) => [i.path, i.message]))).toEqual({
      shutdwn: 'unknown key (did you mean shutdown?)',
      'venue.flow.enable': 'unknown key (did you mean venue.flow.enabled?)',
      'markets.select.tikers': 'unknown key (did you mean markets.select.tickers?)',
      'risk.zzz': 'unknown key',
    });
  });

  it('unknown top-level section and unknown key in a nested object', () => {
    const issues = issuesOf('strategy: {name: x}\nrisks: {}\nvenue: {kind: sim, flow: {enable: true}}\n');
    expect(issues.map((i) => `${i.kind} ${i.path}`).sort()).toEqual(['unknown-key risks', 'unknown-key venue.flow.enable']);
    expect(issues.find((i) => i.path === 'risks')?.message).toBe('unknown key (did you mean risk?)');
  });

  it('wrong type', () => {
    const issues = issuesOf('strategy: {name: x}\nrisk:\n  maxOpenOrders: "six"\n  maxPositionPerToken: [1]\nmetrics: {enabled: "yes"}\n');
    expect(issues).toContainEqual({ kind: 'wrong-type', path: 'risk.maxOpenOrders', message: 'expected a number, got a string', value: '"six"' });
    expect(issues).toContainEqual({ kind: 'wrong-type', path: 'risk.maxPositionPerToken', message: 'expected a number (or a decimal string)', value: '[1]' });
    expect(issues).toContainEqual({ kind: 'wrong-type', path: 'metrics.enabled', message: 'expected a boolean, got a string', value: '"yes"' });
  });

  it('rewards.takerBuyShare (0..1, default 0.65) and rewards.tradeResolution: a bad value names its path', () => {
    const config = parse('strategy: {name: fixed-spread}\n');
    expect(config.rewards.takerBuyShare).toBe(0.65);
    expect(config.rewards.tradeResolution).toEqual({ enabled: true, maxAgeMs: 900_000, maxPages: 5 });
    expect(parse('strategy: {name: fixed-spread}\nrewards: {takerBuyShare: 0.5, tradeResolution: {maxAgeSec: 120}}\n').rewards).toMatchObject({ takerBuyShare: 0.5, tradeResolution: { maxAgeMs: 120_000 } });
    expect(issuesOf('strategy: {name: fixed-spread}\nrewards: {takerBuyShare: 1.5}\n').map((i) => [i.path, i.value])).toEqual([['rewards.takerBuyShare', '1.5']]);
    expect(issuesOf('strategy: {name: fixed-spread}\nrewards: {tradeResolution: {maxPages: 0}}\n').map((i) => i.path)).toEqual(['rewards.tradeResolution.maxPages']);
  });

  it('missing required field', () => {
    expect(issuesOf('risk: {}\n')).toEqual([{ kind: 'missing', path: 'strategy', message: 'required', value: '(missing)' }]);
    expect(issuesOf('strategy: {params: {}}\n')).toEqual([{ kind: 'missing', path: 'strategy.name', message: 'required', value: '(missing)' }]);
    expect(issuesOf('strategy: {name: x}\nvenue: {kind: live, socketUrl: "wss://a.test"}\nmarkets: [a]\n')).toContainEqual({
      kind: 'missing',
      path: 'venue.baseUrl',
      message: 'required',
      value: '(missing)',
    });
  });

  it('invalid values: ranges, patterns, enums, discriminator, duplicates', () => {
    const issues = issuesOf(`strategy: {name: x}
venue: {kind: paper}
orders: {botTag: "Bad-Tag", refreshTolerance: {size: "250%"}}
risk: {maxOpenOrders: 0, priceBand: {min: 0.6, max: 0.4}, maxNetPosition: 1.0000001}
log: {level: loud}
markets: [a, a]
`);
    const byPath = new Map(issues.map((i) => [i.path, i]));
    expect(byPath.get('venue.kind')).toMatchObject({ message: 'expected kind "sim" or "live"', value: '"paper"' });
    expect(byPath.get('orders.botTag')).toMatchObject({ kind: 'invalid', value: '"Bad-Tag"' });
    expect(byPath.get('orders.refreshTolerance.size')).toMatchObject({ value: '"250%"' });
    expect(byPath.get('risk.maxOpenOrders')).toMatchObject({ message: 'must be at least 1', value: '0' });
    expect(byPath.get('risk.priceBand.max')).toMatchObject({ message: 'max must be above min', value: '0.4' });
    expect(byPath.get('risk.maxNetPosition')).toMatchObject({ message: 'more than 6 decimal places', value: '1.0000001' });
    expect(byPath.get('log.level')?.message).toContain('"info"');
    expect(byPath.get('markets.slugs[1]')).toMatchObject({ message: 'listed twice', value: '"a"' });
  });

  it('redemption: mode and retry delays, checked with their paths', () => {
    const issues = issuesOf('strategy: {name: x}\nredemption: {mode: sometimes, retryInitialSec: 60, retryMaxSec: 30}\n');
    const byPath = new Map(issues.map((i) => [i.path, i]));
    expect(byPath.get('redemption.mode')).toMatchObject({ value: '"sometimes"' });
    expect(byPath.get('redemption.mode')?.message).toContain('"auto"');
    expect(issuesOf('strategy: {name: x}\nredemption: {retryInitialSec: 60, retryMaxSec: 30}\n')).toContainEqual(
      expect.objectContaining({ path: 'redemption.retryMaxSec', message: 'must be at least retryInitialSec', value: '30' }),
    );
    expect(issuesOf('strategy: {name: x}\nredemption: {retryInitialSec: 0}\n').map((i) => i.path)).toEqual(['redemption.retryInitialSec']);
  });

  it('cross-field rules of a live venue', () => {
    const issues = issuesOf(`venue: {kind: live, baseUrl: "ftp://x", socketUrl: "wss://a.test", priceBand: {min: 0.1, max: 0.2}}
strategy: {name: x}
rateLimits: {maxConcurrent: 3, minTimeMs: 100}
risk: {priceBand: {min: 0.5, max: 0.9}}
`);
    const paths = issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['venue.baseUrl']));
    const ok = issuesOf(`venue: {kind: live, baseUrl: "https://x.test", socketUrl: "wss://a.test", priceBand: {min: 0.1, max: 0.2}}
strategy: {name: x}
rateLimits: {maxConcurrent: 3, minTimeMs: 100}
risk: {priceBand: {min: 0.5, max: 0.9}}
`);
    expect(ok).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'markets', message: 'required for a live venue: slugs, groups or select' }),
        expect.objectContaining({ path: 'rateLimits.maxConcurrent', value: '3' }),
        expect.objectContaining({ path: 'rateLimits.minTimeMs', value: '100' }),
      ]),
    );
    expect(ok.find((i) => i.path === 'risk.priceBand')?.message).toBe("does not overlap the venue's band 0.1–0.2");
  });

  it('lists every problem at once, one per line with path and value', () => {
    const message = messageOf('strategy: {name: x}\nrisk: {maxOpenOrders: -1, bogus: true}\nmetrics: {port: 70000}\n');
    expect(message).toContain('<test>: 3 config problems');
    expect(message).toContain('  - risk.maxOpenOrders: must be at least 1 (got -1)');
    expect(message).toContain('  - risk.bogus: unknown key (got true)');
    expect(message).toContain('  - metrics.port: must be at most 65535 (got 70000)');
  });

  it('reports invalid YAML with its line', () => {
    const issues = issuesOf('strategy: {name: x\nrisk: [\n');
    expect(issues[0]).toMatchObject({ kind: 'yaml', path: '' });
    expect(issues[0]?.message).toMatch(/^invalid YAML at line 2, column 1/);
    const duplicate = issuesOf('strategy: {name: x}\nstrategy: {name: y}\n');
    expect(duplicate[0]?.message).toContain('Map keys must be unique');
  });

  it('rejects a document that is not a mapping', () => {
    expect(issuesOf('')[0]).toMatchObject({ kind: 'missing', message: 'the config must be a YAML mapping (key: value lines)' });
    expect(issuesOf('- a\n- b\n')[0]).toMatchObject({ kind: 'wrong-type', value: '["a","b"]' });
  });

  it('reports a missing file with its absolute path', () => {
    const missing = join(tmpdir(), 'outcome-maker-no-such-dir', 'nope.yaml');
    try {
      loadConfigFile(missing);
      throw new Error('expected a ConfigError');
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      expect(error.issues).toEqual([{ kind: 'file', path: '', message: 'file not found', value: JSON.stringify(resolve(missing)) }]);
      expect(error.message).toContain('(file): file not found');
    }
  });
});

describe('secrets written into the file', () => {
  it('rejects credential literals without ever printing them', () => {
    const secret = 'c3VwZXItc2VjcmV0LWtleS0xMjM0NTY=';
    const text = `strategy: {name: x}
credentials:
  privateKey: ${PRIVATE_KEY}
  apiSecret: "${secret}"
  apiTokenId: 0b8a7c6e-1f2d-4e3c-9a8b-7c6d5e4f3a2b
`;
    const issues = issuesOf(text);
    expect(issues.map((i) => `${i.kind} ${i.path}`).sort()).toEqual([
      'secret-literal credentials.apiSecret',
      'secret-literal credentials.apiTokenId',
      'secret-literal credentials.privateKey',
    ]);
    const message = messageOf(text);
    expect(message).not.toContain(PRIVATE_KEY.slice(2, 20));
    expect(message).not.toContain(secret.slice(0, 12));
    expect(message).not.toContain('0b8a7c6e');
    expect(message).toContain('[redacted] (a string of 66 characters)');
  });

  it('catches a private key anywhere: as a string, as a YAML hex number, in a comment, under a secret-like key', () => {
    const text = `strategy:
  name: x
  params:
    wallet: "${PRIVATE_KEY}"
    other: ${PRIVATE_KEY}
    apiPassword: hunter2hunter2
# old key: ${PRIVATE_KEY.slice(2)}
`;
    const issues = issuesOf(text);
    expect(issues.map((i) => i.path)).toEqual(['strategy.params.wallet', 'strategy.params.other', 'strategy.params.apiPassword', '(comment, line 7)']);
    expect(issues.every((i) => i.kind === 'secret-literal')).toBe(true);
    const message = messageOf(text);
    expect(message).not.toContain('4f4f4f4f');
    expect(message).not.toContain('hunter2');
  });

  it('explains a credentials value that is not a variable name', () => {
    const issues = issuesOf('strategy: {name: x}\ncredentials: {apiSecret: "my secret"}\n');
    expect(issues).toEqual([
      {
        kind: 'invalid',
        path: 'credentials.apiSecret',
        message: 'expected the NAME of an environment variable (A-Z, 0-9, _), e.g. OM_API_SECRET',
        value: '[redacted] (a string of 9 characters)',
      },
    ]);
  });

  it('parseConfig (plain data) applies the same secret rules', () => {
    expect(() => parseConfig({ strategy: { name: 'x', params: { key: PRIVATE_KEY } } }, BASE)).toThrow(/looks like a private key/);
  });
});

describe('the example configs', () => {
  const configDir = resolve(__dirname, '../../../config');
  const files = readdirSync(configDir).filter((f) => f.endsWith('.yaml'));

  it('ships paper, one per strategy, a live example, the hourly crypto example and the shared-limit pair (two bots, one simulator account)', () => {
    expect(files.sort()).toEqual(['avellaneda-stoikov.yaml', 'fixed-spread.yaml', 'hourly-crypto.example.yaml', 'liquidity-rewards.yaml', 'live.example.yaml', 'paper.yaml', 'shared-limit-a.yaml', 'shared-limit-b.yaml']);
  });

  it.each(files)('%s loads and its strategy accepts its params', async (file) => {
    const config = loadConfigFile(join(configDir, file));
    const check = await validateStrategy(config);
    expect(check.ok ? [] : check.issues).toEqual([]);
  });

  it('paper.yaml is the simulator with synthetic flow, three markets and fixed-spread', () => {
    const config = loadConfigFile(join(configDir, 'paper.yaml'));
    expect(config.venue).toMatchObject({ kind: 'sim', markets: 3, flow: { enabled: true } });
    expect(config.credentials).toBeNull();
    expect(config.strategy.name).toBe('fixed-spread');
    expect(config.database.path).toBe(resolve(configDir, '../data/paper.db'));
  });

  it('each example strategy config runs on the simulator under its own strategy', () => {
    for (const name of ['fixed-spread', 'avellaneda-stoikov', 'liquidity-rewards']) {
      const config = loadConfigFile(join(configDir, `${name}.yaml`));
      expect(config.venue.kind).toBe('sim');
      expect(config.strategy.name).toBe(name);
    }
  });
});

describe('loadConfigFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'om-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the default ledger after the config file, next to it', () => {
    const file = join(dir, 'nested', 'bot-one.yaml');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'strategy: {name: fixed-spread}\n');
    expect(loadConfigFile(file).database.path).toBe(join(dir, 'nested', 'bot-one.db'));
  });

  it('says when the path is a directory', () => {
    expect(() => loadConfigFile(dir)).toThrow(/is a directory, not a file/);
  });
});
