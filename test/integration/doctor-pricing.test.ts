/**
 * `doctor`'s pricing lines against the simulator's crypto world: the rule it read for each market, and Pyth Hermes
 * (the simulator's stand-in): the key accepted and every feed answering with its age; a refused key named by its
 * variable (never the key); a missing key a warning; a market that is not a crypto market passes as book-quoted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfigFile } from '../../src/config/index.js';
import { runDoctor, type CheckResult, type DoctorReport } from '../../src/doctor/index.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS, generateMarkets } from '../../src/sim/engine/index.js';
import { deriveAccountCredentials, startSimulator, type RunningSimulator } from '../../src/sim/index.js';

const SEED = 23;
const KEY = 'doctor-pyth-key';
let sim: RunningSimulator;
let dir: string;
const account = deriveAccountCredentials(SEED, 'doctor', 2);
const env = { OM_API_TOKEN_ID: account.tokenId, OM_API_SECRET: account.secret, OM_PRIVATE_KEY: account.privateKey };

beforeAll(async () => {
  sim = await startSimulator({
    seed: SEED,
    markets: generateMarkets(1, SEED, Date.now()),
    synthetic: { autoStep: false },
    world: {
      underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC' || u.ticker === 'SOL'), leadMs: 500 },
      markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['daily'], strikesPerExpiry: 1, dailyHourUtc: (new Date().getUTCHours() + 12) % 24, recurring: false },
    },
    hermes: { apiKey: KEY },
    accounts: [{ profileId: 2, address: account.address, usdc: '5000', apiTokens: [{ tokenId: account.tokenId, secret: account.secret, scopes: ['trading'] }] }],
  });
  sim.control.syntheticStep();
  dir = mkdtempSync(join(tmpdir(), 'om-doctor-pricing-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function doctor(pythKey: string | undefined, extra: Record<string, unknown> = {}): Promise<DoctorReport> {
  const slugs = sim.engine.markets().map((m) => m.slug);
  const path = join(dir, 'bot.yaml');
  writeFileSync(
    path,
    stringify({
      venue: { kind: 'live', baseUrl: sim.baseUrl, socketUrl: sim.socketUrl },
      credentials: { apiTokenId: 'OM_API_TOKEN_ID', apiSecret: 'OM_API_SECRET', privateKey: 'OM_PRIVATE_KEY' },
      markets: { slugs },
      strategy: { name: 'fixed-spread' },
      pricing: { hermes: { endpoint: sim.hermesUrl } },
      database: { path: ':memory:' },
      ...extra,
    }),
  );
  return runDoctor({ configPath: path, config: loadConfigFile(path), env: { ...env, ...(pythKey === undefined ? {} : { PYTH_API_KEY: pythKey }) }, socketWaitMs: 3000 });
}

function line(report: DoctorReport, id: string): CheckResult {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id} in ${report.checks.map((c) => c.id).join(', ')}`);
  return found;
}

describe('doctor: pricing', () => {
  it('prints the rule of each market and checks Pyth Hermes with the key', async () => {
    const report = await doctor(KEY);
    for (const market of sim.engine.markets()) {
      const l = line(report, `pricing:${market.slug}`);
      if (market.oracle) {
        expect(l.status).toBe('pass');
        expect(l.message).toContain(`priced from the model: ${market.oracle.ticker} > ${market.oracle.strike} at `);
        expect(l.message).toContain('(pyth-candle-open-1m)');
      } else {
        expect(l).toMatchObject({ status: 'pass' });
        expect(l.message).toMatch(/^not a crypto market: quoted from its book/);
      }
    }
    const hermes = line(report, 'hermes');
    expect(hermes.status).toBe('pass');
    expect(hermes.message).toMatch(/the key in \$PYTH_API_KEY is accepted; every feed answers: (BTC|SOL) [0-9.]+ \([0-9.]+ s old\), (BTC|SOL) /);
    expect(JSON.stringify(report)).not.toContain(KEY);
  });

  it('fails on a refused key (naming the variable, never the key) and warns without one', async () => {
    const refused = line(await doctor('not-the-key'), 'hermes');
    expect(refused).toMatchObject({ status: 'fail', message: `Pyth Hermes refused the API key in $PYTH_API_KEY at ${sim.hermesUrl}` });
    expect(JSON.stringify(refused)).not.toContain('not-the-key');
    const missing = line(await doctor(undefined), 'hermes');
    expect(missing.status).toBe('warn');
    expect(missing.message).toContain('$PYTH_API_KEY is not set');
  });
});

describe('doctor: the stop before expiry of a priced market', () => {
  it('judges a priced market by pricing.stopBeforeSettlementSec, which the bot applies to it, and an unpriced one by risk.stopBeforeExpirySec', async () => {
    const report = await doctor(KEY, { risk: { stopBeforeExpirySec: 86_400 } });
    const priced = sim.engine.markets().filter((m) => m.oracle);
    expect(priced.length).toBeGreaterThan(0);
    for (const market of priced) {
      const l = line(report, `market:${market.slug}`);
      expect(l.status, l.message).toBe('pass'); // settles in about 12 h: inside risk.stopBeforeExpirySec (1 day), far from the pricing stop (60 s)
    }
    const tight = await doctor(KEY, { risk: { stopBeforeExpirySec: 86_400 }, pricing: { hermes: { endpoint: sim.hermesUrl }, stopBeforeSettlementSec: 86_400 } });
    for (const market of priced) {
      expect(line(tight, `market:${market.slug}`)).toMatchObject({ status: 'warn', fix: 'choose a market further from expiry or lower pricing.stopBeforeSettlementSec' });
    }
  });
});

describe('doctor: markets chosen by rules', () => {
  it('the rules pick the priced markets; none settling within joinBeforeSettlementSec yet is a warning, not a failure', async () => {
    const priced = sim.engine.markets().filter((m) => m.oracle);
    const rules = await doctor(KEY, { markets: { select: { tickers: ['BTC', 'SOL'], cadences: ['daily'], max: 10 } } });
    for (const market of priced) expect(line(rules, `market:${market.slug}`).status).toBe('pass');
    const early = await doctor(KEY, { markets: { select: { tickers: ['BTC', 'SOL'], joinBeforeSettlementSec: 3000, max: 10 } } });
    expect(line(early, 'markets')).toMatchObject({ status: 'warn', message: expect.stringContaining('none settles within markets.select.joinBeforeSettlementSec (3000 s) yet') as unknown });
  });
});
