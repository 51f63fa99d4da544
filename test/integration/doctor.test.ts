/**
 * `outcome-maker doctor` against the simulator on 127.0.0.1: it passes on a healthy venue (the real CLI, `--json`,
 * exit 0), and each of its checks fails (or warns, where a warning is the verdict) when the simulator is
 * configured or faulted to make it: venue unreachable, clock skew, token without the trading scope, no profile,
 * unknown / expired / non-CLOB market, trading disabled, no USDC, missing BUY allowance, missing SELL approval,
 * no socket, socket books in the other unit, shared credentials without a shared rate limit, budgets above the
 * balance. Doctor is read-only: the simulator never sees a placement or a cancel from it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { z } from 'zod';
import { loadConfigFile } from '../../src/config/index.js';
import { runDoctor, type CheckResult, type DoctorReport } from '../../src/doctor/index.js';
import { generateMarkets, type MarketSpec } from '../../src/sim/engine/index.js';
import { deriveAccountCredentials, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { privateKeyToAccount } from 'viem/accounts';
import { startAnvil } from '../support/anvil.js';
import { runCliProcess } from '../support/cli-process.js';
import { poll } from '../support/poll.js';

const SEED = 11;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  readonly sim: RunningSimulator;
  readonly dir: string;
  readonly env: { readonly OM_API_TOKEN_ID: string; readonly OM_API_SECRET: string; readonly OM_PRIVATE_KEY: string };
  readonly simple: readonly string[];
  readonly negRisk: string;
  readonly rpcUrl: string;
  writeConfig(name: string, overrides?: { markets?: readonly string[]; groups?: readonly string[]; venue?: Record<string, unknown>; risk?: Record<string, unknown>; rateLimits?: Record<string, unknown> }): string;
  admin(method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown>;
}

async function rig(options: { markets?: (specs: MarketSpec[]) => MarketSpec[]; scopes?: ('trading' | 'delegated_signing')[]; usdc?: string } = {}): Promise<Rig> {
  const specs = generateMarkets(6, SEED, Date.now());
  const account = deriveAccountCredentials(SEED, 'doctor', 2);
  const sim = await startSimulator({
    seed: SEED,
    markets: options.markets ? options.markets(specs) : specs,
    synthetic: { autoStep: false },
    accounts: [{ profileId: 2, address: account.address, usdc: options.usdc ?? '5000', apiTokens: [{ tokenId: account.tokenId, secret: account.secret, scopes: options.scopes ?? ['trading'] }] }],
  });
  cleanups.push(() => sim.close());
  sim.control.syntheticStep(); // the passive makers' levels: books with sizes on both feeds
  const dir = mkdtempSync(join(tmpdir(), 'om-doctor-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const markets = sim.engine.markets();
  const simple = markets.filter((m) => m.groupSlug === undefined).map((m) => m.slug);
  const negRisk = markets.find((m) => m.groupSlug !== undefined)?.slug;
  if (negRisk === undefined || simple.length < 2) throw new Error('the generated markets lack a NegRisk group');
  const env = { OM_API_TOKEN_ID: account.tokenId, OM_API_SECRET: account.secret, OM_PRIVATE_KEY: account.privateKey };
  return {
    sim,
    dir,
    env,
    simple,
    negRisk,
    rpcUrl: `${sim.baseUrl}/_sim/rpc`,
    writeConfig(name, overrides = {}) {
      const path = join(dir, name);
      const doc = {
        venue: { kind: 'live', baseUrl: sim.baseUrl, socketUrl: sim.socketUrl, ...overrides.venue },
        credentials: { apiTokenId: 'OM_API_TOKEN_ID', apiSecret: 'OM_API_SECRET', privateKey: 'OM_PRIVATE_KEY' },
        markets: { slugs: overrides.markets ?? (overrides.groups === undefined ? [simple[0], negRisk] : []), ...(overrides.groups === undefined ? {} : { groups: overrides.groups }) },
        strategy: { name: 'fixed-spread' },
        pricing: { hermes: { endpoint: sim.hermesUrl } },
        risk: { maxNotional: 1000, ...overrides.risk },
        ...(overrides.rateLimits === undefined ? {} : { rateLimits: overrides.rateLimits }),
        database: { path: ':memory:' },
      };
      writeFileSync(path, stringify(doc));
      return path;
    },
    async admin(method, path, body) {
      const response = await fetch(`${sim.baseUrl}/_sim${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} /_sim${path} answered ${response.status}: ${text}`);
      return JSON.parse(text) as unknown;
    },
  };
}

async function doctor(r: Rig, configPath: string, options: { rpc?: boolean; socketWaitMs?: number } = {}): Promise<DoctorReport> {
  return runDoctor({
    configPath,
    config: loadConfigFile(configPath),
    env: r.env,
    ...(options.rpc === false ? {} : { rpcUrl: r.rpcUrl }),
    socketWaitMs: options.socketWaitMs ?? 3000,
  });
}

function line(report: DoctorReport, id: string): CheckResult {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id} in ${report.checks.map((c) => c.id).join(', ')}`);
  return found;
}

/** Doctor sent nothing but reads: no placement, cancel or redeem reached the simulator. */
async function expectReadOnly(r: Rig): Promise<void> {
  const log = z.object({ entries: z.array(z.object({ method: z.string(), path: z.string() })) }).parse(await (await fetch(`${r.sim.baseUrl}/_sim/requests`)).json());
  expect(log.entries.length).toBeGreaterThan(5);
  expect(log.entries.filter((e) => e.method !== 'GET')).toEqual([]);
}

const reportSchema = z.object({
  ok: z.boolean(),
  counts: z.object({ pass: z.number(), warn: z.number(), fail: z.number(), skip: z.number() }),
  checks: z.array(z.object({ id: z.string(), status: z.enum(['pass', 'warn', 'fail', 'skip']), message: z.string() })),
});

describe('doctor on the simulator', () => {
  it('passes against a healthy simulator: the real CLI, --json, exit 0, every line passes, nothing written', async () => {
    const r = await rig();
    const path = r.writeConfig('bot.yaml', { markets: [r.simple[0] ?? '', r.simple[1] ?? '', r.negRisk], venue: { chain: { rpcUrl: r.rpcUrl } } });
    const home = mkdtempSync(join(tmpdir(), 'om-doctor-home-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const result = await runCliProcess(['doctor', '--config', path, '--json', '--rpc-url', r.rpcUrl, '--socket-wait', '3'], home, r.env);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = reportSchema.parse(JSON.parse(lines[0] ?? ''));
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(result.code).toBe(0);
    expect(report.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['venue', 'clock', 'token', 'scope', 'profile', 'mode', 'balance', 'approvals-buy', 'approvals-sell', 'settlement', 'gas', 'approvals-settlement', 'socket', 'book-units', 'rate-limits', 'budget', `market:${r.negRisk}`]),
    );
    expect(result.stdout).not.toContain(r.env.OM_API_SECRET);
    expect(result.stdout).not.toContain(r.env.OM_PRIVATE_KEY.slice(2));
    await expectReadOnly(r);
  });

  it('fails when the venue does not answer, and skips what needs it (text output, exit 1)', async () => {
    const r = await rig();
    const closed = await startSimulator({ seed: 1 });
    const deadUrl = closed.baseUrl;
    await closed.close();
    const path = r.writeConfig('bot.yaml', { venue: { baseUrl: deadUrl, socketUrl: deadUrl } });
    const report = await doctor(r, path);
    expect(line(report, 'venue').status).toBe('fail');
    expect(line(report, 'venue').message).toContain('cannot reach');
    expect(line(report, 'token').status).toBe('skip');
    expect(report.ok).toBe(false);
  });

  it('fails on a clock skew beyond 30 s (and the token is refused because of it); warns on a smaller one', async () => {
    const r = await rig();
    const path = r.writeConfig('bot.yaml');
    await r.admin('PUT', '/clock-skew', { seconds: 45 });
    const skewed = await doctor(r, path);
    expect(line(skewed, 'clock').status).toBe('fail');
    expect(line(skewed, 'clock').message).toMatch(/4[4-6]\.\d s ahead/);
    expect(line(skewed, 'token').status).toBe('fail');
    expect(line(skewed, 'token').message).toContain('clock skew');
    expect(line(skewed, 'profile').status).toBe('pass'); // read unsigned: this line judges the profile only
    expect(line(skewed, 'approvals-buy').status).toBe('pass'); // the venue would not say: read on-chain instead
    await r.admin('PUT', '/clock-skew', { seconds: -12 });
    const drifting = await doctor(r, path);
    expect(line(drifting, 'clock').status).toBe('warn');
    expect(line(drifting, 'clock').message).toContain('behind');
    expect(line(drifting, 'token').status).toBe('pass');
  });

  it('fails when the token lacks the trading scope', async () => {
    const r = await rig({ scopes: ['delegated_signing'] });
    const report = await doctor(r, r.writeConfig('bot.yaml'));
    expect(line(report, 'token').status).toBe('pass');
    expect(line(report, 'scope').status).toBe('fail');
    expect(line(report, 'scope').message).toContain('`trading`');
  });

  it('fails on bad credentials, a wallet without a profile, no USDC, and a socket that does not connect', async () => {
    const r = await rig();
    const stranger = deriveAccountCredentials(SEED, 'stranger', 99);
    const closed = await startSimulator({ seed: 2 });
    const deadUrl = closed.baseUrl;
    await closed.close();
    const path = r.writeConfig('bot.yaml', { venue: { socketUrl: deadUrl } });
    const report = await runDoctor({ configPath: path, config: loadConfigFile(path), env: { ...r.env, OM_API_SECRET: stranger.secret, OM_PRIVATE_KEY: stranger.privateKey }, rpcUrl: r.rpcUrl, socketWaitMs: 2000 });
    expect(line(report, 'token').status).toBe('fail');
    expect(line(report, 'profile').status).toBe('fail');
    expect(line(report, 'profile').message).toContain('no profile');
    expect(line(report, 'balance').status).toBe('fail');
    expect(line(report, 'socket').status).toBe('fail');
    expect(line(report, 'book-units').status).toBe('skip');
  });

  it('fails the socket line when the venue refuses the authenticated handshake', async () => {
    const r = await rig();
    const other = deriveAccountCredentials(SEED, 'other', 77);
    const path = r.writeConfig('bot.yaml');
    const report = await runDoctor({ configPath: path, config: loadConfigFile(path), env: { ...r.env, OM_API_SECRET: other.secret }, rpcUrl: r.rpcUrl, socketWaitMs: 3000 });
    expect(line(report, 'socket')).toMatchObject({ status: 'fail', message: expect.stringContaining('refused the authentication') as unknown });
    expect(line(report, 'book-units').status).toBe('pass'); // public data still flows
  });

  it('fails on an unknown, an expired and a non-CLOB market, and on a disabled venue', async () => {
    const r = await rig({ markets: (specs) => specs.map((s, i) => (i === 1 ? { ...s, expirationMs: Date.now() - 60_000, createdAtMs: Date.now() - 3_600_000 } : s)) });
    const [live, expired, amm] = [r.simple[0] ?? '', r.simple[1] ?? '', r.simple[2] ?? ''];
    await r.admin('PUT', `/markets/${amm}/trade-type`, { tradeType: 'amm' });
    r.sim.control.setTradingMode({ mode: 'disabled', resumeAtMs: Date.now() + 3_600_000 });
    const report = await doctor(r, r.writeConfig('bot.yaml', { markets: [live, 'no-such-market', expired, amm], groups: ['no-such-group'] }));
    expect(line(report, 'market:no-such-group')).toMatchObject({ status: 'fail', message: expect.stringContaining('not an active group') as unknown });
    expect(line(report, `market:${live}`).status).toBe('pass');
    expect(line(report, 'market:no-such-market')).toMatchObject({ status: 'fail', message: expect.stringContaining('not found') as unknown });
    expect(line(report, `market:${expired}`)).toMatchObject({ status: 'fail', message: expect.stringContaining('expired') as unknown });
    expect(line(report, `market:${amm}`)).toMatchObject({ status: 'fail', message: expect.stringContaining('not a CLOB market') as unknown });
    expect(line(report, 'mode')).toMatchObject({ status: 'fail', message: expect.stringContaining('disabled') as unknown });
    expect(report.ok).toBe(false);
  });

  it('names the exact approvals missing: USDC to an exchange (BUY), conditional tokens to a NegRisk adapter (SELL)', async () => {
    const r = await rig();
    const simple = r.sim.engine.market(r.simple[0] ?? '');
    const group = r.sim.engine.market(r.negRisk);
    if (!simple || !group) throw new Error('markets missing');
    await r.admin('PUT', '/approvals', { profileId: 2, marketSlug: simple.slug, contract: 'exchange', usdcAllowanceRaw: 0 });
    await r.admin('PUT', '/approvals', { profileId: 2, marketSlug: group.slug, contract: 'adapter', ctfApproved: false });
    const report = await doctor(r, r.writeConfig('bot.yaml'));
    const buy = line(report, 'approvals-buy');
    expect(buy.status).toBe('fail');
    expect(buy.message).toContain(simple.venue.exchange);
    expect(buy.message).not.toContain(group.venue.exchange);
    const sell = line(report, 'approvals-sell');
    expect(sell.status).toBe('fail');
    expect(sell.message).toContain(`adapter ${group.venue.adapter}`);
    expect(sell.message).not.toContain(`exchange ${group.venue.exchange}`);
    // The grouped market's on-chain redeem and merge need the same adapter approval; the plain market's need none.
    const settlement = line(report, 'approvals-settlement');
    expect(settlement.status).toBe('fail');
    expect(settlement.message).toContain(`missing for grouped markets: NegRisk adapter ${group.venue.adapter} (${group.slug})`);
    expect(settlement.message).toContain('plain markets: none');
    // A small allowance (below risk.maxNotional) is a warning, not a failure.
    await r.admin('DELETE', '/account-checks');
    await r.admin('PUT', '/approvals', { profileId: 2, spender: simple.venue.exchange, usdcAllowanceRaw: 5_000_000 });
    const low = await doctor(r, r.writeConfig('bot.yaml'));
    expect(line(low, 'approvals-buy').status).toBe('warn');
    expect(line(low, 'approvals-sell').status).toBe('pass');
  });

  it('without --rpc-url: balance and SELL approvals are warnings, the budget is skipped; a group is checked submarket by submarket', async () => {
    const r = await rig();
    const group = r.sim.engine.market(r.negRisk)?.groupSlug ?? '';
    const report = await doctor(r, r.writeConfig('bot.yaml', { groups: [group] }), { rpc: false });
    const members = r.sim.engine.markets().filter((m) => m.groupSlug === group);
    expect(members.length).toBeGreaterThan(1);
    for (const member of members) expect(line(report, `market:${member.slug}`).status).toBe('pass');
    expect(line(report, 'balance').status).toBe('warn');
    expect(line(report, 'approvals-sell').status).toBe('warn');
    expect(line(report, 'budget').status).toBe('skip');
    // The wallet is the key's own: it must redeem on-chain, and no endpoint is configured to do it.
    expect(line(report, 'settlement')).toMatchObject({ status: 'warn', message: expect.stringContaining('without a JSON-RPC endpoint the bot cannot redeem or merge on-chain') as unknown });
    expect(line(report, 'gas').status).toBe('skip');
    expect(report.ok).toBe(true);
  });

  it('settlement on a real chain (anvil): no ETH fails the gas line naming the wallet and the amount; funded, it passes', async () => {
    const r = await rig();
    const anvil = await startAnvil({ chainId: 8453 });
    cleanups.push(() => anvil.stop());
    const wallet = privateKeyToAccount(r.env.OM_PRIVATE_KEY as `0x${string}`).address;
    const path = r.writeConfig('bot.yaml', { markets: [r.simple[0] ?? ''], venue: { chain: { rpcUrl: anvil.rpcUrl, maxGasPriceGwei: 0.1 } } });
    const dry = await runDoctor({ configPath: path, config: loadConfigFile(path), env: r.env, socketWaitMs: 2000 });
    expect(line(dry, 'settlement')).toMatchObject({ status: 'pass', message: expect.stringContaining(`wallet ${wallet} (externally owned) redeems and merges on-chain`) as unknown });
    const gas = line(dry, 'gas');
    expect(gas.status).toBe('fail');
    expect(gas.message).toBe(`wallet ${wallet} holds 0 ETH: not enough for one redeem or merge (needs 0.00002 ETH: 200000 gas at the 0.1 gwei ceiling (venue.chain.maxGasPriceGwei) = 0.00002 ETH per redeem or merge)`);
    expect(line(dry, 'approvals-settlement')).toMatchObject({ status: 'pass', message: expect.stringContaining('no grouped (NegRisk) market') as unknown });
    await anvil.fund(wallet, 10n ** 16n);
    const funded = await runDoctor({ configPath: path, config: loadConfigFile(path), env: r.env, socketWaitMs: 2000 });
    expect(line(funded, 'gas')).toMatchObject({ status: 'pass', message: expect.stringContaining('holds 0.01 ETH: about 500 redeems or merges') as unknown });
  }, 60_000);

  it('warns when two configs share the credentials without a shared rate limit, and when their budgets exceed the balance', async () => {
    const r = await rig({ usdc: '1500' });
    const path = r.writeConfig('a.yaml');
    r.writeConfig('b.yaml');
    r.writeConfig('c.example.yaml'); // skipped, as pm2 skips it
    const report = await doctor(r, path);
    const limits = line(report, 'rate-limits');
    expect(limits.status).toBe('warn');
    expect(limits.message).toContain('b.yaml');
    expect(limits.message).not.toContain('c.example.yaml');
    const budget = line(report, 'budget');
    expect(budget.status).toBe('warn');
    expect(budget.message).toContain('2000.00 USDC');
    expect(budget.message).toContain('1500.00 USDC');
    // The same two bots with one shared limiter (the same Redis): the rate-limit line passes.
    const shared = { shared: { redis: 'redis://127.0.0.1:6379' } };
    r.writeConfig('a.yaml', { rateLimits: shared });
    r.writeConfig('b.yaml', { rateLimits: shared });
    const fixed = await doctor(r, path, { rpc: false });
    expect(line(fixed, 'rate-limits')).toMatchObject({ status: 'pass', message: expect.stringContaining('2 configs share one rate limit') as unknown });
  });

  it('fails when the socket sends book sizes in another unit than venue.units.socketBookSize says', async () => {
    const r = await rig();
    const slug = r.simple[0] ?? '';
    const book = r.sim.engine.book(slug);
    if (!book || book.bids.length === 0) throw new Error('the market has no book');
    r.sim.control.freezeFeed('books'); // no snapshot on subscribe: the first socket book is the injected one
    // The config says shares; the injected book is in raw 1e6 integers (equal to the REST book's sizes).
    const path = r.writeConfig('bot.yaml', { markets: [slug], venue: { units: { socketBookSize: 'shares' } } });
    const running = doctor(r, path, { socketWaitMs: 8000 });
    const raw = (levels: typeof book.bids) => levels.map((l) => ({ price: l.priceTicks / 1000, size: l.sizeRaw }));
    const frame = { marketSlug: slug, orderbook: { bids: raw(book.bids), asks: raw(book.asks) }, timestamp: Date.now() };
    await poll(() => (r.sim.control.injectFrame({ kind: 'custom', marketSlug: slug, payload: frame }) > 0 ? true : undefined), {
      timeoutMs: 7000,
      intervalMs: 50,
      failure: () => 'doctor never subscribed to the market on the socket',
    });
    const report = await running;
    const units = line(report, 'book-units');
    expect(units.status).toBe('fail');
    expect(units.message).toContain('sends sizes in raw');
  });
});
