/**
 * `outcome-maker doctor`: reads everything a user must know before the first live order and judges each line
 * (src/doctor/verdicts.ts, book-units.ts, account-plan.ts; the socket in socket-probe.ts). READ-ONLY: it never
 * places, cancels or redeems; every REST call is a GET, and the socket only subscribes (market prices, the
 * account's order events).
 *
 * Owns: the order of the reads and what a failed read means for the checks after it (a venue that does not answer
 * skips everything that needs it). Invariants: requests go through the credentials' limiter like the bot's; no
 * secret appears in a check; every read is bounded by a timeout.
 */
import { basename, dirname, resolve } from 'node:path';
import { pino } from 'pino';
import { createPublicClient, erc20Abi, getAddress, http as rpcHttp, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { MarketSelectionError, resolveMarkets } from '../markets/venue-markets.js';
import { expiryStopFor, loadConfigFile, resolveSecrets, transportRetryPolicy, type AppConfig, type Environment, type LiveVenueConfig } from '../config/index.js';
import { accountKey } from '../config/shared-credentials.js';
import { botConfigFiles, unsharedSiblings } from '../config/sibling-configs.js';
import { ExchangeApi } from '../exchange/api.js';
import { ExchangeHttpError, scrubSecrets } from '../exchange/errors.js';
import { HttpTransport } from '../exchange/http.js';
import type { Market } from '../exchange/wire.js';
import { budgetVerdict, rateLimitVerdict } from './account-plan.js';
import { gasVerdict, rpcChainVerdict, settlementApprovalsVerdict, settlementRouteVerdict, type RpcChainReading, type SettlementRoute } from './settlement-checks.js';
import { socketChecks } from './socket-probe.js';
import { pricingChecks } from './pricing-checks.js';
import { check, describeError as describe, summarize, type CheckResult, type DoctorReport } from './types.js';
import {
  approvalTargets,
  buyAllowanceVerdict,
  clockReadingOf,
  clockVerdict,
  expiryStopOf,
  marketVerdict,
  modeVerdict,
  scopeVerdict,
  sellApprovalVerdict,
  type AllowanceReading,
  type ApprovalReading,
} from './verdicts.js';

/**
 * A pre-flight answers quickly: few retries on every read it makes (it changes nothing on the venue), laid over the
 * config's retry numbers (the retry table's defaults where the config is silent, as for the bot).
 */
const DOCTOR_RETRY = { maxRateLimitRetries: 2, maxServerErrorRetries: 1, maxReceiveWindowRetries: 0 } as const;
const doctorRetry = (config: AppConfig) => ({ ...transportRetryPolicy(config.rateLimits.retry), ...DOCTOR_RETRY });

export const DEFAULT_SOCKET_WAIT_MS = 5_000;
/** What an on-chain allowance must reach to count as set (the venue's minimum is not published): 1 USDC. */
const ONE_USDC_RAW = 1_000_000n;

const CTF_ABI = parseAbi(['function isApprovedForAll(address owner, address operator) view returns (bool)']);

export class DoctorUsageError extends Error {
  override readonly name = 'DoctorUsageError';
}

export interface DoctorOptions {
  readonly configPath: string;
  readonly config: AppConfig;
  readonly env: Environment;
  /** A JSON-RPC endpoint of the chain: USDC balance and SELL approvals are read on-chain through it (default: venue.chain.rpcUrl). */
  readonly rpcUrl?: string;
  /** How long to wait for the socket handshake and the first book of each market (default 5 s). */
  readonly socketWaitMs?: number;
  /** Local wall clock (default Date.now). */
  readonly now?: () => number;
}


/** Runs every check against the config's live venue. Throws DoctorUsageError for a config it cannot check. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  if (options.config.venue.kind !== 'live' || options.config.credentials === null) return runChecks(options, []);
  const secrets = resolveSecrets(options.config.credentials, options.env);
  const pythKey = options.env[options.config.pricing.hermes.apiKeyEnv];
  const rpc = options.config.venue.chain.rpcUrl;
  const rpcFromEnv = rpc?.kind === 'env' ? options.env[rpc.env] : undefined; // a provider URL may carry its key
  const hidden = [secrets.apiSecret.reveal(), secrets.privateKey.reveal(), secrets.privateKey.reveal().replace(/^0x/, ''), ...(pythKey ? [pythKey] : []), ...(rpcFromEnv ? [rpcFromEnv] : [])];
  return runChecks(options, hidden);
}

/** Every message and fix goes through `scrubSecrets` with the secret values: no check can leak one. */
async function runChecks(options: DoctorOptions, hidden: readonly string[]): Promise<DoctorReport> {
  const report = await collect(options);
  const scrub = (text: string): string => scrubSecrets(text, hidden);
  return { ...report, checks: report.checks.map((c) => ({ ...c, message: scrub(c.message), ...(c.fix === undefined ? {} : { fix: scrub(c.fix) }) })) };
}

async function collect(options: DoctorOptions): Promise<DoctorReport> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const { config } = options;
  if (config.venue.kind !== 'live') {
    throw new DoctorUsageError(
      `doctor: ${options.configPath} uses venue.kind "sim"; doctor checks a live venue (venue.kind: live). To try it on the simulator: npx outcome-maker doctor --config ${options.configPath} --sim`,
    );
  }
  if (config.credentials === null) throw new DoctorUsageError('doctor: the config names no credentials');
  const venue = config.venue;
  const secrets = resolveSecrets(config.credentials, options.env);
  const credentials = { tokenId: secrets.apiTokenId.reveal(), secret: secrets.apiSecret.reveal() };
  const wallet = privateKeyToAccount(secrets.privateKey.reveal() as `0x${string}`).address;
  const checks: CheckResult[] = [];

  // 1. The venue answers; its Date header gives the clock.
  const probe = await probeVenue(venue, config.rateLimits.timeoutMs, now);
  checks.push(probe.check, clockVerdict(probe.reading));
  if (!probe.reachable) {
    for (const [id, title] of SKIPPED_WITHOUT_VENUE) checks.push(check(id, title, 'skip', 'skipped: the venue did not answer'));
    return summarize(options.configPath, startedAt, checks);
  }

  const transport = new HttpTransport({
    baseUrl: venue.baseUrl,
    credentials,
    headerPrefix: venue.headerPrefix,
    limits: transportLimits(config),
    retry: doctorRetry(config),
    timeoutMs: config.rateLimits.timeoutMs,
  });
  const api = new ExchangeApi({ transport, ...(secrets.onBehalfOf === null ? {} : { onBehalfOf: secrets.onBehalfOf }) });

  // 2. The token is accepted, with the trading scope.
  checks.push(...(await tokenChecks(api, credentials.tokenId, secrets.onBehalfOf !== null, checks)));

  // 3. The profile and its fee rate (read unsigned when the token was refused, so this line judges the profile only).
  const tokenRefused = checks.some((c) => c.id === 'token' && c.status === 'fail');
  const publicApi = tokenRefused ? new ExchangeApi({ transport: new HttpTransport({ baseUrl: venue.baseUrl, headerPrefix: venue.headerPrefix, limits: transportLimits(config), retry: doctorRetry(config), timeoutMs: config.rateLimits.timeoutMs }) }) : api;
  checks.push(await profileCheck(publicApi, wallet));

  // 4. Each configured market; how the bot prices it (the rule it read) and Pyth Hermes for the priced ones.
  const markets = await marketChecks(api, config, now());
  checks.push(...markets.checks);
  checks.push(...(await pricingChecks(config, markets.tradable, options.env, now)));

  // 5. Trading mode.
  try {
    checks.push(modeVerdict(await api.getMaintenanceStatus(), now(), config.orders.postOnly));
  } catch (error) {
    checks.push(check('mode', 'trading mode', 'fail', describe(error), 'check the venue status page'));
  }

  // 6. USDC balance, BUY allowances, SELL approvals.
  const rpcUrl = options.rpcUrl ?? configuredRpcUrl(venue, options.env);
  let chain = rpcUrl === null ? null : createPublicClient({ transport: rpcHttp(rpcUrl, { retryCount: 0, timeout: config.rateLimits.timeoutMs }) });
  if (chain !== null) {
    // Nothing is read from an endpoint that does not answer or serves another chain (its balances are not the wallet's).
    let reading: RpcChainReading;
    try {
      reading = { ok: true, chainId: await chain.getChainId() };
    } catch (error) {
      reading = { ok: false, error: describe(error) };
    }
    const verdict = rpcChainVerdict(rpcLabel(options.rpcUrl, venue), venue.chainId, reading);
    checks.push(verdict);
    if (verdict.status !== 'pass') chain = null;
  }
  const collateral = markets.tradable.find((m) => m.collateral !== null)?.collateral?.address ?? venue.chain.usdc;
  let balanceRaw: number | null = null;
  if (chain === null) {
    checks.push(check('balance', 'USDC balance', 'warn', 'not read: the venue\'s REST interface has no balance read', 'give --rpc-url (a JSON-RPC endpoint of the chain, e.g. https://mainnet.base.org) to read it on-chain'));
  } else {
    try {
      const raw = await chain.readContract({ address: getAddress(collateral), abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });
      balanceRaw = Number(raw);
      checks.push(
        raw === 0n
          ? check('balance', 'USDC balance', 'fail', `wallet ${wallet} holds no USDC`, 'fund the wallet with USDC on the venue\'s chain', { usdcRaw: '0' })
          : check('balance', 'USDC balance', 'pass', `wallet ${wallet} holds ${(Number(raw) / 1e6).toFixed(2)} USDC`, undefined, { usdcRaw: raw.toString() }),
      );
    } catch (error) {
      checks.push(check('balance', 'USDC balance', 'warn', `the RPC call failed: ${describe(error)}`, 'check --rpc-url'));
    }
  }
  const targets = approvalTargets(markets.tradable);
  const allowances = new Map<string, AllowanceReading>();
  for (const target of targets.buy) {
    let reading: AllowanceReading;
    try {
      const answer = tokenRefused ? null : await api.getTradingAllowance({ type: target.type, spender: target.address });
      reading = answer === null ? { ok: false, error: 'the token was not accepted' } : { ok: true, allowanceRaw: answer.allowanceRaw, hasMinimumAllowance: answer.hasMinimumAllowance };
    } catch (error) {
      reading = { ok: false, error: describe(error) };
    }
    if (!reading.ok && chain !== null) {
      // The venue would not say: read the ERC-20 allowance on-chain instead.
      const venueError = reading.error;
      try {
        const raw = await chain.readContract({ address: getAddress(collateral), abi: erc20Abi, functionName: 'allowance', args: [wallet, getAddress(target.address)] });
        reading = { ok: true, allowanceRaw: raw, hasMinimumAllowance: raw >= ONE_USDC_RAW };
      } catch (error) {
        reading = { ok: false, error: `${venueError}; on-chain: ${describe(error)}` };
      }
    }
    allowances.set(target.address.toLowerCase(), reading);
  }
  checks.push(buyAllowanceVerdict(targets.buy, allowances, config.risk.maxNotionalRaw));
  let approvals: Map<string, ApprovalReading> | null = null;
  if (chain !== null) {
    approvals = new Map();
    for (const target of targets.sell) {
      try {
        const approved = await chain.readContract({ address: getAddress(venue.chain.conditionalTokens), abi: CTF_ABI, functionName: 'isApprovedForAll', args: [wallet, getAddress(target.address)] });
        approvals.set(target.address.toLowerCase(), { ok: true, approved });
      } catch (error) {
        approvals.set(target.address.toLowerCase(), { ok: false, error: describe(error) });
      }
    }
  }
  checks.push(sellApprovalVerdict(targets.sell, approvals));

  // 6b. Settlement: how winnings and complete sets come back (API or on-chain), gas, and the approvals it needs.
  const route: SettlementRoute = secrets.onBehalfOf !== null ? { kind: 'api', onBehalfOf: secrets.onBehalfOf } : { kind: 'chain', wallet, rpc: configuredRpcUrl(venue, options.env) !== null };
  checks.push(settlementRouteVerdict(route));
  if (route.kind === 'chain') {
    let gas: Parameters<typeof gasVerdict>[1] = null;
    if (chain !== null) {
      try {
        gas = { ok: true, wei: await chain.getBalance({ address: wallet }) };
      } catch (error) {
        gas = { ok: false, error: describe(error) };
      }
    }
    checks.push(gasVerdict(wallet, gas, venue.chain.maxGasPriceWei));
  }
  checks.push(settlementApprovalsVerdict(route, targets.sell, approvals));

  // 7. The socket handshake and the unit of its book sizes.
  checks.push(...(await socketChecks(venue, api, credentials, markets.tradable.map((m) => m.slug), options.socketWaitMs ?? DEFAULT_SOCKET_WAIT_MS, now)));

  // 8. Rate limits and budgets across the config files of this account.
  const account = accountConfigs(options.configPath, config, options.env);
  checks.push(
    rateLimitVerdict(unsharedSiblings(options.configPath, config, options.env), account.map((c) => c.path)),
    budgetVerdict(account.map((c) => ({ path: c.path, maxNotionalRaw: c.config.risk.maxNotionalRaw, dailyLossLimitRaw: c.config.risk.dailyLossLimitRaw })), balanceRaw),
  );
  return summarize(options.configPath, startedAt, checks);
}


/** How doctor names the endpoint: never a URL taken from the environment (it may carry a provider key). */
function rpcLabel(given: string | undefined, venue: LiveVenueConfig): string {
  if (given !== undefined) return 'the endpoint of --rpc-url';
  const rpc = venue.chain.rpcUrl;
  if (rpc === null) return 'the endpoint';
  return rpc.kind === 'url' ? `venue.chain.rpcUrl ${rpc.url}` : `venue.chain.rpcUrl (from ${rpc.env})`;
}

/** venue.chain.rpcUrl: the URL, or the value of the variable it names (null when unset). */
function configuredRpcUrl(venue: LiveVenueConfig, env: Environment): string | null {
  const rpc = venue.chain.rpcUrl;
  if (rpc === null) return null;
  if (rpc.kind === 'url') return rpc.url;
  const value = env[rpc.env]?.trim();
  return value === undefined || value === '' ? null : value;
}

function transportLimits(config: AppConfig): { maxConcurrent: number; minTimeMs: number } {
  return { maxConcurrent: config.rateLimits.maxConcurrent, minTimeMs: config.rateLimits.minTimeMs };
}

const SKIPPED_WITHOUT_VENUE: readonly (readonly [string, string])[] = [
  ['token', 'API token accepted'],
  ['scope', 'API token scopes'],
  ['profile', 'profile and fee rate'],
  ['markets', 'configured markets'],
  ['mode', 'trading mode'],
  ['balance', 'USDC balance'],
  ['approvals-buy', 'BUY approvals (USDC allowance)'],
  ['approvals-sell', 'SELL approvals (conditional tokens)'],
  ['settlement', 'settlement (redeem and merge)'],
  ['socket', 'socket handshake'],
  ['book-units', 'socket book size unit'],
];

// ---------------------------------------------------------------------------------------------- venue and clock

async function probeVenue(venue: LiveVenueConfig, timeoutMs: number, now: () => number): Promise<{ reachable: boolean; check: CheckResult; reading: ReturnType<typeof clockReadingOf> }> {
  const url = `${venue.baseUrl}/maintenance/status`;
  const sentAt = now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
    const receivedAt = now();
    await response.arrayBuffer();
    const reading = clockReadingOf(response.headers.get('date'), sentAt, receivedAt);
    const data = { baseUrl: venue.baseUrl, status: response.status, ms: receivedAt - sentAt };
    if (!response.ok) {
      return { reachable: true, reading, check: check('venue', 'venue answers', 'fail', `GET ${url} answered ${response.status}`, 'check venue.baseUrl (the REST base URL, no trailing path)', data) };
    }
    return { reachable: true, reading, check: check('venue', 'venue answers', 'pass', `${venue.baseUrl} answered in ${receivedAt - sentAt} ms`, undefined, data) };
  } catch (error) {
    return {
      reachable: false,
      reading: null,
      check: check('venue', 'venue answers', 'fail', `cannot reach ${venue.baseUrl}: ${describe(error)}`, 'check venue.baseUrl, DNS, the network and any proxy', { baseUrl: venue.baseUrl }),
    };
  }
}

// ---------------------------------------------------------------------------------------------- token

async function tokenChecks(api: ExchangeApi, tokenId: string, delegated: boolean, earlier: readonly CheckResult[]): Promise<CheckResult[]> {
  const skewed = earlier.some((c) => c.id === 'clock' && c.status === 'fail');
  try {
    const tokens = await api.listApiTokens();
    return [check('token', 'API token accepted', 'pass', 'a signed request was accepted (GET /auth/api-tokens)'), scopeVerdict({ tokenId, tokens, delegated })];
  } catch (error) {
    if (error instanceof ExchangeHttpError && error.status === 401) {
      const why = skewed ? ' — the clock skew above alone explains it' : '';
      return [
        check('token', 'API token accepted', 'fail', `the venue refused the signed request (${describe(error)})${why}`, skewed ? 'fix the clock first' : 'check the token id, the base64 secret and venue.headerPrefix (the header names the venue expects)'),
        check('scope', 'API token scopes', 'skip', 'skipped: the token was not accepted'),
      ];
    }
    if (error instanceof ExchangeHttpError && [403, 404, 405].includes(error.status)) {
      // No listing for this token: prove acceptance with another signed read; the scope stays unproven.
      const accepted = await signedReadAccepted(api);
      return [
        accepted.ok
          ? check('token', 'API token accepted', 'pass', 'a signed request was accepted (GET /portfolio/positions)')
          : check('token', 'API token accepted', 'fail', `the venue refused the signed request: ${accepted.error}`, 'check the token id, the secret and venue.headerPrefix'),
        check(
          'scope',
          'API token scopes',
          'warn',
          `not proven: GET /auth/api-tokens answered ${error.status}, and no other read-only call shows a token's scopes`,
          "check on the exchange's API-token page that this token has the `trading` scope (only a placement would prove it)",
        ),
      ];
    }
    return [check('token', 'API token accepted', 'fail', describe(error), 'run doctor again; check the venue status'), check('scope', 'API token scopes', 'skip', 'skipped: the token check failed')];
  }
}

async function signedReadAccepted(api: ExchangeApi): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    await api.getPositions();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

// ---------------------------------------------------------------------------------------------- profile

async function profileCheck(api: ExchangeApi, wallet: string): Promise<CheckResult> {
  try {
    const profile = await api.getProfile(wallet);
    return check('profile', 'profile and fee rate', 'pass', `profile ${profile.id} for ${wallet}; fee rate ${profile.feeRateBps} bps (orders are signed with it)`, undefined, { profileId: profile.id, feeRateBps: profile.feeRateBps, account: profile.account });
  } catch (error) {
    if (error instanceof ExchangeHttpError && error.status === 404) {
      return check('profile', 'profile and fee rate', 'fail', `the venue has no profile for wallet ${wallet}`, 'log in once on the exchange with this wallet (it creates the profile), and check credentials.privateKey is that wallet\'s key');
    }
    return check('profile', 'profile and fee rate', 'fail', describe(error), 'run doctor again; check the venue status');
  }
}

// ---------------------------------------------------------------------------------------------- markets

async function marketChecks(api: ExchangeApi, config: AppConfig, nowMs: number): Promise<{ checks: CheckResult[]; tradable: Market[] }> {
  const checks: CheckResult[] = [];
  const tradable: Market[] = [];
  const judge = (slug: string, market: Market | null): void => {
    const stop = market === null ? expiryStopFor(config.risk, config.pricing.pricer.stopBeforeSettlementMs, slug, false) : expiryStopOf(config, market);
    const verdict = marketVerdict(slug, market, nowMs, stop);
    checks.push(verdict);
    if (market !== null && verdict.status !== 'fail') tradable.push(market);
  };
  for (const slug of config.markets.slugs) {
    if (config.markets.exclude.includes(slug)) continue;
    try {
      judge(slug, await api.getMarket(slug));
    } catch (error) {
      if (error instanceof ExchangeHttpError && error.status === 404) judge(slug, null);
      else checks.push(check(`market:${slug}`, `market ${slug}`, 'fail', describe(error), 'run doctor again; check the venue status'));
    }
  }
  if (config.markets.groups.length > 0 || config.markets.select !== null) {
    try {
      const chosen = await resolveMarkets(api, { ...config.markets, slugs: [] }, pino({ level: 'silent' }), { nowMs, feedIds: config.pricing.feedIds });
      for (const market of chosen) if (!tradable.some((m) => m.slug === market.slug)) judge(market.slug, market);
      if (chosen.length === 0) checks.push(noMarketVerdict(config.markets.select?.joinBeforeSettlementMs ?? null));
    } catch (error) {
      const name = error instanceof MarketSelectionError ? error.slug : 'groups/select';
      checks.push(check(`market:${name}`, `market ${name}`, 'fail', describe(error), 'check markets.groups and markets.select'));
    }
  }
  return { checks, tradable };
}

/**
 * Nothing matched. A failure, unless `select.joinBeforeSettlementSec` may be why: then markets are joined as they come
 * within it (the run-time discovery), and an empty listing now is a warning.
 */
function noMarketVerdict(joinBeforeSettlementMs: number | null): CheckResult {
  if (joinBeforeSettlementMs === null) return check('markets', 'configured markets', 'fail', 'markets.groups/select matched no tradable market', 'check markets.groups and markets.select');
  return check(
    'markets',
    'configured markets',
    'warn',
    `markets.groups/select matched no tradable market now: none settles within markets.select.joinBeforeSettlementSec (${joinBeforeSettlementMs / 1000} s) yet, or none passes the other rules`,
    'run doctor again closer to a settlement, or check markets.select',
  );
}

// ---------------------------------------------------------------------------------------------- configs of the account

/** This config and every sibling config file on the same account (`botConfigFiles`, `accountKey`); unreadable ones skipped. */
function accountConfigs(configPath: string, config: AppConfig, env: Environment): { path: string; config: AppConfig }[] {
  const key = accountKey(config, env);
  const self = resolve(configPath);
  const out = [{ path: basename(configPath), config }];
  if (key === null) return out;
  let files: string[];
  try {
    files = botConfigFiles(dirname(self));
  } catch {
    return out;
  }
  for (const path of files) {
    if (resolve(path) === self) continue;
    try {
      const sibling = loadConfigFile(path);
      if (accountKey(sibling, env) === key) out.push({ path: basename(path), config: sibling });
    } catch {
      // Not a valid config: its own check-config reports it.
    }
  }
  return out;
}

/** Text for a terminal: one line per check, then what to do. */
export function formatReport(report: DoctorReport): string {
  const mark = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', skip: 'SKIP' } as const;
  const lines = [`doctor: ${basename(report.config)} (${report.at})`];
  for (const c of report.checks) {
    lines.push(`${mark[c.status]}  ${c.title}: ${c.message}`);
    if (c.fix !== undefined && (c.status === 'fail' || c.status === 'warn' || c.status === 'skip')) lines.push(`      → ${c.fix}`);
  }
  const { pass, warn, fail, skip } = report.counts;
  lines.push(`${pass} passed, ${warn} warnings, ${fail} failed, ${skip} skipped${fail > 0 ? ' — fix the failures before the first live order' : ''}`);
  return `${lines.join('\n')}\n`;
}
