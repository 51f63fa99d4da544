/**
 * `check-config` prints the config in the file's own names and units, and its output is itself a valid config: for
 * every file in config/ (and a file that sets every section away from its defaults), the printed text fed back into
 * `check-config --config` is accepted and loads to the same AppConfig, and printing it again gives the same text.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_CONFIG_INCOMPLETE, EXIT_OK, main, type CliIo } from '../../../src/cli.js';
import { loadConfigFile, validateStrategy, type AppConfig } from '../../../src/config/index.js';

const CONFIG_DIR = resolve(import.meta.dirname, '..', '..', '..', 'config');
const dir = mkdtempSync(join(tmpdir(), 'om-check-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function checkConfig(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (text) => out.push(text), stderr: (text) => err.push(text), env: {} };
  const code = await main(['check-config', ...args], io);
  // No credential variable is set here: a live config is `config OK, but …` (exit 3, one line on stderr), not an error.
  const text = err.join('');
  if (code === EXIT_CONFIG_INCOMPLETE && /^[^\n]*: config OK, but [^\n]*\n$/.test(text)) return { code: EXIT_OK, out: out.join(''), err: '' };
  return { code, out: out.join(''), err: text };
}

const body = (text: string): string => text.replace(/^#.*\n/gm, '');

async function resolved(path: string): Promise<{ config: AppConfig; params: unknown }> {
  const config = loadConfigFile(path);
  const strategy = await validateStrategy(config);
  if (!strategy.ok) throw new Error(`${path}: strategy params rejected`);
  return { config: { ...config, strategy: { ...config.strategy, params: {} } }, params: strategy.params };
}

async function expectRoundTrip(original: string): Promise<void> {
  const first = await checkConfig([original]);
  expect(first.err).toBe('');
  expect(first.code).toBe(EXIT_OK);
  expect(first.out).not.toMatch(/\w+Raw:|minTicks:|maxTicks:|env:/); // no internal unit (…Raw, ticks bands) in a key
  const printed = join(dir, `printed-${original.split('/').pop() ?? 'config.yaml'}`);
  writeFileSync(printed, first.out);

  const second = await checkConfig(['--config', printed]);
  expect(second.err).toBe('');
  expect(second.code).toBe(EXIT_OK);
  expect(body(second.out)).toBe(body(first.out));
  expect(await resolved(printed)).toEqual(await resolved(original));
}

async function roundTripText(name: string, text: string): Promise<void> {
  const path = join(dir, name);
  writeFileSync(path, text);
  await expectRoundTrip(path);
}

describe('check-config output is a valid config that resolves to the same config', () => {
  const files = readdirSync(CONFIG_DIR).filter((name) => name.endsWith('.yaml'));

  it('covers every file of config/', () => {
    expect(files).toEqual(expect.arrayContaining(['paper.yaml', 'live.example.yaml', 'fixed-spread.yaml']));
  });

  it.each(files)('config/%s', async (name) => {
    await expectRoundTrip(join(CONFIG_DIR, name));
  });

  it('a file that moves every section away from its defaults', async () => {
    await roundTripText(
      'everything.yaml',
      `venue:
  kind: live
  baseUrl: http://127.0.0.1:9/api/
  socketUrl: ws://127.0.0.1:9
  socketNamespace: /feed
  headerPrefix: lmts
  chainId: 84532
  eip712DomainName: Test Exchange
  signatureType: 2
  priceBand: {min: 0.001, max: 0.999}
  units: {socketBookSize: raw, socketAmounts: shares}
  chain: {rpcUrl: OM_RPC_URL, exchanges: ["0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002"], adapters: ["0x0000000000000000000000000000000000000003"], usdcAllowance: 1234.567891}
credentials: {apiTokenId: A_TOKEN, apiSecret: A_SECRET, privateKey: A_KEY, onBehalfOf: A_PROFILE}
markets:
  slugs: [one-market]
  groups: [a-group]
  select:
    top: 3
    max: 5
    by: nearestTheMoney
    rewardableOnly: false
    minDailyReward: 2.5
    tickers: [BTC, DOGE]
    cadences: [15m, hourly]
    joinBeforeSettlementSec: 2700.5
    minFair: 0.05
    maxFair: 0.95
    fairHysteresis: 0.025
  exclude: [other-market]
  exclusive: true
  discovery: {pollIntervalSec: 12.5, lifecycleEvents: false}
strategy: {name: fixed-spread, params: {bidSpread: 0.03, orderSize: 7.125}}
orders:
  botTag: every
  refreshTolerance: {priceTicks: 2, size: 1.5}
  maxOrderAgeSec: 90.5
  filledOrderDelaySec: 0.25
  postOnly: false
  foreignOrders: cancel
  recvWindowMs: 4000
  cancelReplace: {enabled: false, batchSize: 5}
risk:
  maxPositionPerToken: 123.456789
  maxNetPosition: 50
  maxOpenOrders: 3
  priceBand: {min: 0.05, max: 0.95}
  stopBeforeExpirySec: 120
  maxNotional: 999.99
  dailyLossLimit: 0.5
  staleGraceSec: 2.5
  socketDownGraceSec: 4
  perMarket:
    one-market: {maxPositionPerToken: 10, maxNetPosition: 5, maxOpenOrders: 2, priceBand: {min: 0.1, max: 0.9}, stopBeforeExpirySec: 30}
rateLimits:
  shared: {redis: OM_REDIS_URL, fallbackShare: 0.25}
  maxConcurrent: 1
  minTimeMs: 400
  timeoutMs: 5000
  retry: {maxRetries: 1, initialBackoffMs: 200, maxBackoffMs: 800, maxRetryAfterSec: 7.5}
maintenance: {pollIntervalSec: 12}
redemption: {mode: "off", retryInitialSec: 5, retryMaxSec: 50}
metrics: {enabled: false, host: 127.0.0.2, port: 9999}
database: {path: ./every.db}
log: {level: debug, pretty: false, statusIntervalSec: 30}
shutdown: {budgetMs: 2000, leaveOrdersResting: true}
startup: {venueTimeoutSec: 12}
pricing:
  sources: [venue]
  hermes: {endpoint: http://127.0.0.1:9/hermes, apiKeyEnv: MY_PYTH_KEY}
  unpriced: book
  feedIds: {DOGE: "0xdcef50dd0a4cd2dcc17e45df1676dcb336a11a61c69df7a0299b0150c672d25c"}
  staleSec: 3
  maxDivergenceBps: 25
  volatility: {fastHalfLifeSec: 30, slowHalfLifeSec: 900, fastWeight: 0.25, jumpCapSigmas: 5, priorAnnualVol: 0.8, warmupSec: 60, minAnnualVol: 0.2, maxAnnualVol: 3}
  surface:
    impliedWeight: 0.65
    profile: {strength: 0.5, hourly: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1.5]}
    realizedLookbackSec: 1800
    implied: {maxSpread: 0.04, midMin: 0.15, midMax: 0.85, minAbsD: 0.2, windowSec: 600, maxSpotAgeSec: 30, sampleEverySec: 2, minSamples: 5, trim: 0.25}
    tails: {fit: true, minDof: 3.5, maxDof: 40, refitEverySec: 15}
    gapWeight: 0.5
  tails: {kind: student-t, dof: 4.5}
  settlementNoiseBps: 3.7
  volRelErr: 0.3
  stopBeforeSettlementSec: 45
  maxExposureUsdc: 2500
  guard: {enabled: false, k: 6, windowSec: 10, cooldownSec: 20}
feed: {watchdogIntervalSec: 0.5, quietThresholdSec: 15, staleAfterSec: 25}
`,
    );
  });

  it('a simulator file with its own flow and world', async () => {
    await roundTripText(
      'sim.yaml',
      `venue:
  kind: sim
  seed: 99
  markets: 4
  startingCollateral: 250.25
  flow: {enabled: true, stepMs: 250, volatilityPerSqrtHour: 0.4, jumpsPerHour: 2, makerLevels: 3, makerSpreadTicks: 7, makerSize: 12.5, noiseTakersPerMinute: 6, informedTakersPerMinute: 1.5}
  settlementDelayMs: 100
  port: 0
  priceBand: {min: 0.02, max: 0.98}
  world: generic
strategy: {name: avellaneda-stoikov}
database: {path: ":memory:"}
`,
    );
  });
});
