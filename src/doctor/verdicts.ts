/**
 * The doctor's judgements, as pure functions of what was read: clock skew, one market, the trading mode, the API
 * token's scopes, BUY allowances and SELL approvals. No I/O here; src/doctor/run.ts reads the venue and calls
 * these.
 *
 * Owns: the thresholds and the wording of every verdict (what was found, and what to do). Invariants: amounts are
 * exact integers (bigint for allowances, raw 1e6 numbers for USDC); a verdict names the market, the contract and
 * the figures it was judged on.
 */
import { expiryStopFor, type AppConfig, type ExpiryStop } from '../config/index.js';
import type { Market, MaintenanceStatus } from '../exchange/wire.js';
import { readMarketTerms, termsInputOf } from '../pricing/terms.js';
import { check, type CheckResult } from './types.js';

// ---------------------------------------------------------------------------------------------- clock

/** HMAC timestamps must be within 30 s of the server's clock (exchange-facts §4). */
export const HMAC_WINDOW_MS = 30_000;
/** Above this, warn: network delay and drift eat the rest of the window. */
export const CLOCK_WARN_MS = 5_000;

export interface ClockReading {
  /** Server time minus local time (positive: the server is ahead). */
  readonly skewMs: number;
  /** Half the round trip plus the Date header's one-second resolution. */
  readonly uncertaintyMs: number;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function clockVerdict(reading: ClockReading | null, limits: { readonly warnMs: number; readonly failMs: number } = { warnMs: CLOCK_WARN_MS, failMs: HMAC_WINDOW_MS }): CheckResult {
  const title = 'server clock skew';
  if (reading === null) {
    return check('clock', title, 'warn', 'the venue sent no usable Date header: the skew was not measured', 'keep this machine on NTP (signed requests are refused beyond ±30 s)');
  }
  const abs = Math.abs(reading.skewMs);
  const side = reading.skewMs >= 0 ? 'ahead of' : 'behind';
  const message = `the venue's clock is ${seconds(abs)} ${side} this machine (±${seconds(reading.uncertaintyMs)})`;
  const data = { skewMs: Math.round(reading.skewMs), uncertaintyMs: Math.round(reading.uncertaintyMs), warnMs: limits.warnMs, failMs: limits.failMs };
  const fix = "synchronise this machine's clock (NTP: `timedatectl set-ntp true`, chrony or ntpd)";
  if (abs > limits.failMs) return check('clock', title, 'fail', `${message}: every signed request would be refused (HMAC allows ±${seconds(limits.failMs)})`, fix, data);
  if (abs > limits.warnMs) return check('clock', title, 'warn', `${message}: close to the ±${seconds(limits.failMs)} HMAC window`, fix, data);
  return check('clock', title, 'pass', message, undefined, data);
}

/**
 * The skew from one answer's `Date` header, sent between `sentAtMs` and `receivedAtMs` (local clock). The header
 * has one-second resolution (the server's time was in [date, date + 1 s)).
 */
export function clockReadingOf(dateHeader: string | null, sentAtMs: number, receivedAtMs: number): ClockReading | null {
  if (dateHeader === null) return null;
  const serverMs = Date.parse(dateHeader);
  if (!Number.isFinite(serverMs)) return null;
  const localMid = (sentAtMs + receivedAtMs) / 2;
  return { skewMs: serverMs + 500 - localMid, uncertaintyMs: 500 + (receivedAtMs - sentAtMs) / 2 };
}

// ---------------------------------------------------------------------------------------------- markets

export function isNegRisk(market: Market): boolean {
  return market.negRiskRequestId !== null || market.groupSlug !== null;
}

/**
 * The stop before expiry the bot will apply to `market` (config/derived.ts `expiryStopFor`): a market the pricing terms
 * read is priced, and stops at `pricing.stopBeforeSettlementSec`, not at `risk.stopBeforeExpirySec`.
 */
export function expiryStopOf(config: AppConfig, market: Market): ExpiryStop {
  const priced = readMarketTerms(termsInputOf(market), config.pricing.feedIds).ok;
  return expiryStopFor(config.risk, config.pricing.pricer.stopBeforeSettlementMs, market.slug, priced);
}

/** One configured market: exists, CLOB, open, not about to stop (judged by `stop`, the one the bot applies to it), with its venue contracts. */
export function marketVerdict(slug: string, market: Market | null, nowMs: number, stop: ExpiryStop): CheckResult {
  const id = `market:${slug}`;
  const title = `market ${slug}`;
  if (market === null) {
    return check(id, title, 'fail', 'not found on the venue (404)', 'check the slug in markets.slugs/groups (GET /markets/{slug} must know it), or remove it');
  }
  const negRisk = isNegRisk(market);
  const data = {
    tradeType: market.tradeType,
    negRisk,
    exchange: market.venue?.exchange ?? null,
    adapter: market.venue?.adapter ?? null,
    expiresAt: market.expirationMs === null ? null : new Date(market.expirationMs).toISOString(),
    status: market.status,
  };
  const remove = 'remove it from the config (the bot does not quote it)';
  if (market.resolved) return check(id, title, 'fail', 'has resolved', remove, data);
  if (market.expired || (market.expirationMs !== null && market.expirationMs <= nowMs)) return check(id, title, 'fail', `expired at ${data.expiresAt ?? 'an unknown time'}`, remove, data);
  if (market.tradeType !== 'clob') {
    return check(id, title, 'fail', `is not a CLOB market (tradeType ${JSON.stringify(market.tradeType)}): the bot trades CLOB order books only`, remove, data);
  }
  if (market.venue === null) return check(id, title, 'fail', 'the venue did not give its exchange contract (venue.exchange)', 'ask the venue; orders cannot be signed without it', data);
  if (negRisk && market.venue.adapter === null) {
    return check(id, title, 'fail', 'is a NegRisk market but the venue gave no adapter contract (venue.adapter)', 'ask the venue; SELL approvals need the adapter', data);
  }
  if (market.tokens === null) return check(id, title, 'fail', 'the venue did not give its YES/NO token ids', 'ask the venue; the market cannot be traded without them', data);
  const kind = negRisk ? `NegRisk CLOB, exchange ${market.venue.exchange}, adapter ${market.venue.adapter ?? '-'}` : `CLOB, exchange ${market.venue.exchange}`;
  if (market.expirationMs !== null && market.expirationMs - nowMs <= stop.ms) {
    return check(id, title, 'warn', `${kind}; expires at ${data.expiresAt ?? '?'}, within ${stop.key} (${stop.ms / 1000} s): the bot will not quote it`, `choose a market further from expiry or lower ${stop.key}`, { ...data, stopKey: stop.key });
  }
  return check(id, title, 'pass', `${kind}; expires ${data.expiresAt ?? 'never (no expiry given)'}`, undefined, data);
}

// ---------------------------------------------------------------------------------------------- trading mode

export function modeVerdict(status: MaintenanceStatus, nowMs: number, postOnlyOrders: boolean): CheckResult {
  const title = 'trading mode';
  const until = status.resumeAtMs === null ? 'until further notice' : `until ${new Date(status.resumeAtMs).toISOString()}`;
  const data = { mode: status.mode, resumeAt: status.resumeAtMs === null ? null : new Date(status.resumeAtMs).toISOString(), scheduled: status.scheduled.length };
  if (status.mode === 'disabled') return check('mode', title, 'fail', `trading is disabled ${until}: nothing can be placed or canceled`, 'wait for the venue to resume trading', data);
  if (status.mode === 'cancel_only') return check('mode', title, 'fail', `cancel-only ${until}: no order can be placed`, 'wait for the venue to resume trading', data);
  if (status.mode === 'post_only') {
    return postOnlyOrders
      ? check('mode', title, 'warn', `post-only ${until}: the bot's orders are post-only already`, undefined, data)
      : check('mode', title, 'warn', `post-only ${until}: orders that would take liquidity are refused`, 'set orders.postOnly: true (the default) while it lasts', data);
  }
  const soon = status.scheduled.filter((w) => w.startsAtMs !== null && w.startsAtMs - nowMs < 24 * 3_600_000);
  if (soon.length > 0) {
    const first = soon[0];
    const when = first?.startsAtMs == null ? '?' : new Date(first.startsAtMs).toISOString();
    return check('mode', title, 'warn', `normal now; a ${first?.mode ?? 'restricted'} window starts at ${when}`, 'plan around it: the bot pauses by itself while it lasts', data);
  }
  return check('mode', title, 'pass', 'normal: placing and canceling are allowed', undefined, data);
}

// ---------------------------------------------------------------------------------------------- token scopes

export interface TokenListing {
  readonly tokenId: string;
  /** The tokens the venue listed for these credentials. */
  readonly tokens: readonly { readonly tokenId: string; readonly scopes: readonly string[] }[];
  /** A managed sub-account is configured (needs `delegated_signing`). */
  readonly delegated: boolean;
}

export function scopeVerdict(listing: TokenListing): CheckResult {
  const title = 'API token scopes';
  const own = listing.tokens.find((t) => t.tokenId === listing.tokenId);
  if (own === undefined) {
    return check('scope', title, 'warn', `the venue's token list (${listing.tokens.length} tokens) does not include this token id: its scopes are unknown`, 'open the exchange\'s API-token page and check that this token has the `trading` scope');
  }
  const data = { scopes: [...own.scopes] };
  const missing = ['trading', ...(listing.delegated ? ['delegated_signing'] : [])].filter((s) => !own.scopes.includes(s));
  if (missing.length > 0) {
    return check('scope', title, 'fail', `the token lacks the ${missing.map((m) => `\`${m}\``).join(' and ')} scope (it has: ${own.scopes.join(', ') || 'none'})`, `create a token with scopes ${['trading', ...(listing.delegated ? ['delegated_signing'] : [])].join(', ')} (POST /auth/api-tokens/derive, browser login) and put its id and secret in the environment`, data);
  }
  return check('scope', title, 'pass', `the token has ${own.scopes.map((s) => `\`${s}\``).join(', ')}`, undefined, data);
}

// ---------------------------------------------------------------------------------------------- approvals

/** A contract the wallet must approve, with the markets that need it. */
export interface ApprovalTarget {
  readonly address: string;
  readonly role: 'exchange' | 'adapter';
  readonly type: 'clob' | 'negrisk';
  readonly markets: readonly string[];
}

/** BUY needs USDC approved to each exchange; SELL needs the conditional tokens approved to each exchange, and to each adapter of a NegRisk market. */
export function approvalTargets(markets: readonly Market[]): { readonly buy: ApprovalTarget[]; readonly sell: ApprovalTarget[] } {
  const buy = new Map<string, { address: string; role: 'exchange' | 'adapter'; type: 'clob' | 'negrisk'; markets: string[] }>();
  const sell = new Map<string, { address: string; role: 'exchange' | 'adapter'; type: 'clob' | 'negrisk'; markets: string[] }>();
  const add = (into: typeof buy, address: string, role: 'exchange' | 'adapter', type: 'clob' | 'negrisk', slug: string): void => {
    const key = address.toLowerCase();
    const entry = into.get(key) ?? { address, role, type, markets: [] };
    entry.markets.push(slug);
    into.set(key, entry);
  };
  for (const market of markets) {
    if (market.venue === null) continue;
    const type = isNegRisk(market) ? 'negrisk' : 'clob';
    add(buy, market.venue.exchange, 'exchange', type, market.slug);
    add(sell, market.venue.exchange, 'exchange', type, market.slug);
    if (type === 'negrisk' && market.venue.adapter) add(sell, market.venue.adapter, 'adapter', type, market.slug);
  }
  return { buy: [...buy.values()], sell: [...sell.values()] };
}

const targetName = (t: ApprovalTarget): string => `${t.role} ${t.address} (${t.markets.join(', ')})`;
const usdc = (raw: bigint): string => {
  if (raw >= 2n ** 255n) return 'unlimited';
  const whole = raw / 1_000_000n;
  const frac = (raw % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''} USDC`;
};

export type AllowanceReading = { readonly ok: true; readonly allowanceRaw: bigint; readonly hasMinimumAllowance: boolean } | { readonly ok: false; readonly error: string };

/** BUY: the USDC allowance of each exchange (GET /portfolio/trading/allowance). */
export function buyAllowanceVerdict(targets: readonly ApprovalTarget[], readings: ReadonlyMap<string, AllowanceReading>, maxNotionalRaw: number): CheckResult {
  const title = 'BUY approvals (USDC allowance)';
  if (targets.length === 0) return check('approvals-buy', title, 'skip', 'no market with a venue to check');
  const missing: string[] = [];
  const low: string[] = [];
  const unknown: string[] = [];
  const data: Record<string, string> = {};
  for (const target of targets) {
    const reading = readings.get(target.address.toLowerCase());
    if (reading === undefined || !reading.ok) {
      unknown.push(`${targetName(target)}: ${reading?.error ?? 'not read'}`);
      continue;
    }
    data[target.address] = reading.allowanceRaw.toString();
    if (reading.allowanceRaw === 0n || !reading.hasMinimumAllowance) missing.push(`USDC → ${targetName(target)}: allowance ${usdc(reading.allowanceRaw)}`);
    else if (reading.allowanceRaw < BigInt(maxNotionalRaw)) low.push(`USDC → ${targetName(target)}: ${usdc(reading.allowanceRaw)} < risk.maxNotional ${usdc(BigInt(maxNotionalRaw))}`);
  }
  const approve = 'run `outcome-maker approve --config <file>` (USDC `approve` to each exchange named, from the bot\'s wallet; list any exchange it does not show in venue.chain.exchanges)';
  if (missing.length > 0) return check('approvals-buy', title, 'fail', `missing: ${missing.join('; ')}`, approve, data);
  if (unknown.length > 0) return check('approvals-buy', title, 'warn', `not verified: ${unknown.join('; ')}`, 'check the USDC allowance of each exchange on-chain (or give --rpc-url)', data);
  if (low.length > 0) return check('approvals-buy', title, 'warn', `below the budget: ${low.join('; ')}`, approve, data);
  return check('approvals-buy', title, 'pass', `USDC approved to ${targets.map((t) => t.address).join(', ')}`, undefined, data);
}

export type ApprovalReading = { readonly ok: true; readonly approved: boolean } | { readonly ok: false; readonly error: string };

/** SELL: the conditional tokens approved (`setApprovalForAll`) to each exchange and NegRisk adapter; null readings = no RPC given. */
export function sellApprovalVerdict(targets: readonly ApprovalTarget[], readings: ReadonlyMap<string, ApprovalReading> | null): CheckResult {
  const title = 'SELL approvals (conditional tokens)';
  if (targets.length === 0) return check('approvals-sell', title, 'skip', 'no market with a venue to check');
  const needed = targets.map(targetName).join('; ');
  if (readings === null) {
    return check('approvals-sell', title, 'warn', `not verified (the venue's REST interface has no read for it); needed: ${needed}`, 'give --rpc-url (a JSON-RPC endpoint of the chain) to read `isApprovedForAll` on-chain, or check in a block explorer');
  }
  const missing: string[] = [];
  const unknown: string[] = [];
  for (const target of targets) {
    const reading = readings.get(target.address.toLowerCase());
    if (reading === undefined || !reading.ok) unknown.push(`${targetName(target)}: ${reading?.error ?? 'not read'}`);
    else if (!reading.approved) missing.push(`conditional tokens → ${targetName(target)}`);
  }
  if (missing.length > 0) return check('approvals-sell', title, 'fail', `missing: ${missing.join('; ')}`, 'run `outcome-maker approve --config <file>` (`setApprovalForAll(operator, true)` on the conditional-tokens contract for each contract named, from the bot\'s wallet; list any it does not show in venue.chain.exchanges / venue.chain.adapters)');
  if (unknown.length > 0) return check('approvals-sell', title, 'warn', `not verified: ${unknown.join('; ')}`, 'check `isApprovedForAll` on-chain');
  return check('approvals-sell', title, 'pass', `conditional tokens approved to ${targets.map((t) => `${t.role} ${t.address}`).join(', ')}`);
}
