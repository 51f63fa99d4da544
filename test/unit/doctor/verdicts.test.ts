/**
 * The doctor's pure judgements: clock skew thresholds, one market, the trading mode, token scopes, BUY/SELL
 * approval targets and verdicts, book units, rate limits and budgets across configs, and the text report.
 */
import { describe, expect, it } from 'vitest';
import { budgetVerdict, rateLimitVerdict } from '../../../src/doctor/account-plan.js';
import { bookUnitsVerdict } from '../../../src/doctor/book-units.js';
import { formatReport } from '../../../src/doctor/run.js';
import { summarize } from '../../../src/doctor/types.js';
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
} from '../../../src/doctor/verdicts.js';
import type { Market, MaintenanceStatus } from '../../../src/exchange/wire.js';
import { parseConfigText, type AppConfig } from '../../../src/config/index.js';
import { CAPTURED_AT_MS, recorded } from '../../support/selection-fixtures.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
/** risk.stopBeforeExpirySec's default. */
const HOUR_STOP = { ms: 3_600_000, key: 'risk.stopBeforeExpirySec' } as const;
const EX_A = '0x1111111111111111111111111111111111111111';
const EX_B = '0x2222222222222222222222222222222222222222';
const ADAPTER = '0x3333333333333333333333333333333333333333';

function market(slug: string, overrides: Partial<Market> = {}): Market {
  return {
    id: 1,
    slug,
    title: slug,
    conditionId: `0x${'ab'.repeat(32)}`,
    negRiskRequestId: null,
    status: 'FUNDED',
    expired: false,
    expirationMs: NOW + 86_400_000,
    createdAtMs: null,
    tokens: { yes: '1', no: '2' },
    venue: { exchange: EX_A, adapter: null },
    isRewardable: false,
    settings: null,
    tradeType: 'clob',
    marketType: 'single',
    winningOutcomeIndex: null,
    payoutNumerators: null,
    resolved: false,
    categories: [],
    collateral: null,
    groupSlug: null,
    metadata: {},
    description: null,
    tags: [],
    priceOracleMetadata: null,
    ...overrides,
  };
}

describe('clock', () => {
  it('passes within 5 s, warns up to 30 s, fails beyond, in both directions', () => {
    expect(clockVerdict({ skewMs: 4_900, uncertaintyMs: 600 }).status).toBe('pass');
    expect(clockVerdict({ skewMs: -5_100, uncertaintyMs: 600 }).status).toBe('warn');
    expect(clockVerdict({ skewMs: 30_000, uncertaintyMs: 600 }).status).toBe('warn');
    const fail = clockVerdict({ skewMs: -30_001, uncertaintyMs: 600 });
    expect(fail.status).toBe('fail');
    expect(fail.message).toContain('30.0 s behind');
    expect(fail.fix).toContain('NTP');
    expect(clockVerdict(null).status).toBe('warn');
  });

  it('reads the skew from the Date header at the round trip midpoint, with its one-second resolution', () => {
    const sent = Date.parse('2026-06-01T12:00:00.000Z');
    const reading = clockReadingOf('Mon, 01 Jun 2026 12:00:45 GMT', sent, sent + 200);
    expect(reading).toEqual({ skewMs: 45_000 + 500 - 100, uncertaintyMs: 600 });
    expect(clockReadingOf(null, sent, sent)).toBeNull();
    expect(clockReadingOf('yesterday-ish', sent, sent)).toBeNull();
  });
});

describe('markets', () => {
  it('passes an open CLOB market and names its exchange; a NegRisk one needs its adapter', () => {
    expect(marketVerdict('a', market('a'), NOW, HOUR_STOP)).toMatchObject({ status: 'pass', message: expect.stringContaining(EX_A) as unknown });
    const group = market('g', { negRiskRequestId: '0xfeed', venue: { exchange: EX_B, adapter: ADAPTER } });
    expect(marketVerdict('g', group, NOW, HOUR_STOP).message).toContain(`adapter ${ADAPTER}`);
    expect(marketVerdict('g', { ...group, venue: { exchange: EX_B, adapter: null } }, NOW, HOUR_STOP).status).toBe('fail');
  });

  it('fails unknown, resolved, expired, non-CLOB, venue-less and token-less markets; warns inside the stop-before-expiry window', () => {
    expect(marketVerdict('x', null, NOW, HOUR_STOP)).toMatchObject({ id: 'market:x', status: 'fail' });
    expect(marketVerdict('a', market('a', { resolved: true, winningOutcomeIndex: 0 }), NOW, HOUR_STOP).message).toContain('resolved');
    expect(marketVerdict('a', market('a', { expirationMs: NOW - 1 }), NOW, HOUR_STOP).message).toContain('expired');
    expect(marketVerdict('a', market('a', { expired: true }), NOW, HOUR_STOP).status).toBe('fail');
    expect(marketVerdict('a', market('a', { tradeType: 'amm' }), NOW, HOUR_STOP).message).toContain('not a CLOB');
    expect(marketVerdict('a', market('a', { tradeType: null }), NOW, HOUR_STOP).status).toBe('fail');
    expect(marketVerdict('a', market('a', { venue: null }), NOW, HOUR_STOP).status).toBe('fail');
    expect(marketVerdict('a', market('a', { tokens: null }), NOW, HOUR_STOP).status).toBe('fail');
    expect(marketVerdict('a', market('a', { expirationMs: NOW + 1_800_000 }), NOW, HOUR_STOP).status).toBe('warn');
  });
});

describe('the stop a market is judged by: the one the bot applies to it', () => {
  const config = (extra = ''): AppConfig => parseConfigText(`strategy: {name: fixed-spread}\n${extra}`, { source: '<test>', baseDir: '/srv/bot' });
  const btc = recorded('BTC', 'Hourly');
  const unpriced = { ...btc, slug: 'btc-unreadable', description: 'Resolves by committee.' };
  const before = (ms: number): number => btc.expirationMs! - ms;

  it('a priced hourly market 9 min before settlement passes: it is quoted until pricing.stopBeforeSettlementSec (60 s), not risk.stopBeforeExpirySec (3600 s)', () => {
    const stop = expiryStopOf(config(), btc);
    expect(stop).toEqual({ ms: 60_000, key: 'pricing.stopBeforeSettlementSec' });
    expect(marketVerdict(btc.slug, btc, CAPTURED_AT_MS, stop).status).toBe('pass');
  });

  it('inside the pricing stop it warns, naming pricing.stopBeforeSettlementSec', () => {
    const verdict = marketVerdict(btc.slug, btc, before(30_000), expiryStopOf(config(), btc));
    expect(verdict).toMatchObject({ status: 'warn', fix: 'choose a market further from expiry or lower pricing.stopBeforeSettlementSec' });
    expect(verdict.message).toContain('within pricing.stopBeforeSettlementSec (60 s): the bot will not quote it');
  });

  it('an unpriced market keeps the warning of risk.stopBeforeExpirySec; a per-market stop wins for either', () => {
    const verdict = marketVerdict(unpriced.slug, unpriced, CAPTURED_AT_MS, expiryStopOf(config(), unpriced));
    expect(verdict.status).toBe('warn');
    expect(verdict.message).toContain('within risk.stopBeforeExpirySec (3600 s)');
    const own = config(`risk: {perMarket: {${btc.slug}: {stopBeforeExpirySec: 900}}}`);
    expect(expiryStopOf(own, btc)).toEqual({ ms: 900_000, key: `risk.perMarket.${btc.slug}.stopBeforeExpirySec` });
    expect(marketVerdict(btc.slug, btc, CAPTURED_AT_MS, expiryStopOf(own, btc)).status).toBe('warn');
    expect(expiryStopOf(config('pricing: {stopBeforeSettlementSec: 600}'), btc).ms).toBe(600_000);
  });
});

describe('trading mode', () => {
  const status = (mode: MaintenanceStatus['mode'], scheduled: MaintenanceStatus['scheduled'] = []): MaintenanceStatus => ({ active: [], scheduled, mode, resumeAtMs: NOW + 3_600_000 });
  it('fails disabled and cancel-only, warns post-only and a window starting within a day, passes normal', () => {
    expect(modeVerdict(status('disabled'), NOW, true)).toMatchObject({ status: 'fail', message: expect.stringContaining('2026-06-01T13:00:00.000Z') as unknown });
    expect(modeVerdict(status('cancel_only'), NOW, true).status).toBe('fail');
    expect(modeVerdict(status('post_only'), NOW, false)).toMatchObject({ status: 'warn', fix: expect.stringContaining('postOnly') as unknown });
    expect(modeVerdict(status('normal', [{ mode: 'disabled', message: null, startsAtMs: NOW + 3_600_000, endsAtMs: null }]), NOW, true).status).toBe('warn');
    expect(modeVerdict(status('normal', [{ mode: 'disabled', message: null, startsAtMs: NOW + 3 * 86_400_000, endsAtMs: null }]), NOW, true).status).toBe('pass');
  });
});

describe('token scopes', () => {
  it('needs trading (and delegated_signing for a sub-account); an unlisted token is a warning', () => {
    const tokens = [{ tokenId: 't1', scopes: ['trading'] }, { tokenId: 't2', scopes: ['delegated_signing'] }];
    expect(scopeVerdict({ tokenId: 't1', tokens, delegated: false }).status).toBe('pass');
    expect(scopeVerdict({ tokenId: 't1', tokens, delegated: true })).toMatchObject({ status: 'fail', message: expect.stringContaining('`delegated_signing`') as unknown });
    expect(scopeVerdict({ tokenId: 't2', tokens, delegated: false })).toMatchObject({ status: 'fail', message: expect.stringContaining('`trading`') as unknown });
    expect(scopeVerdict({ tokenId: 't3', tokens, delegated: false }).status).toBe('warn');
  });
});

describe('approvals', () => {
  const simple = market('s', { venue: { exchange: EX_A, adapter: null } });
  const simple2 = market('s2', { venue: { exchange: EX_A, adapter: null } });
  const group = market('g', { groupSlug: 'grp', venue: { exchange: EX_B, adapter: ADAPTER } });

  it('BUY needs USDC to each exchange; SELL the conditional tokens to each exchange and each NegRisk adapter', () => {
    const targets = approvalTargets([simple, simple2, group]);
    expect(targets.buy.map((t) => [t.address, t.role, t.markets])).toEqual([
      [EX_A, 'exchange', ['s', 's2']],
      [EX_B, 'exchange', ['g']],
    ]);
    expect(targets.sell.map((t) => [t.address, t.role, t.type])).toEqual([
      [EX_A, 'exchange', 'clob'],
      [EX_B, 'exchange', 'negrisk'],
      [ADAPTER, 'adapter', 'negrisk'],
    ]);
  });

  it('names each missing approval; a small allowance warns; an unread one warns', () => {
    const { buy, sell } = approvalTargets([simple, group]);
    const ok = (raw: bigint): AllowanceReading => ({ ok: true, allowanceRaw: raw, hasMinimumAllowance: raw >= 1_000_000n });
    const all = new Map<string, AllowanceReading>([[EX_A.toLowerCase(), ok(2n ** 256n - 1n)], [EX_B.toLowerCase(), ok(0n)]]);
    const missing = buyAllowanceVerdict(buy, all, 1_000_000_000);
    expect(missing.status).toBe('fail');
    expect(missing.message).toContain(`exchange ${EX_B} (g)`);
    expect(missing.message).not.toContain(EX_A);
    const low = buyAllowanceVerdict(buy, new Map([[EX_A.toLowerCase(), ok(5_000_000n)], [EX_B.toLowerCase(), ok(2n ** 256n - 1n)]]), 1_000_000_000);
    expect(low).toMatchObject({ status: 'warn', message: expect.stringContaining('5 USDC < risk.maxNotional 1000 USDC') as unknown });
    expect(buyAllowanceVerdict(buy, new Map([[EX_A.toLowerCase(), ok(2n ** 256n - 1n)]]), 1).status).toBe('warn');

    const approvals = new Map<string, ApprovalReading>([
      [EX_A.toLowerCase(), { ok: true, approved: true }],
      [EX_B.toLowerCase(), { ok: true, approved: true }],
      [ADAPTER.toLowerCase(), { ok: true, approved: false }],
    ]);
    const sellVerdict = sellApprovalVerdict(sell, approvals);
    expect(sellVerdict.status).toBe('fail');
    expect(sellVerdict.message).toBe(`missing: conditional tokens → adapter ${ADAPTER} (g)`);
    expect(sellApprovalVerdict(sell, null).status).toBe('warn');
    expect(sellApprovalVerdict([], null).status).toBe('skip');
  });
});

describe('book units', () => {
  it('passes when the evidence agrees with the setting, or the setting is auto; fails when a configured unit differs', () => {
    expect(bookUnitsVerdict([{ slug: 'a', unit: 'shares' }], 'auto')).toMatchObject({ status: 'pass', message: expect.stringContaining('auto settles on it') as unknown });
    expect(bookUnitsVerdict([{ slug: 'a', unit: 'raw' }], 'raw').status).toBe('pass');
    const wrong = bookUnitsVerdict([{ slug: 'a', unit: 'raw' }, { slug: 'b', unit: 'raw' }], 'shares');
    expect(wrong).toMatchObject({ status: 'fail', message: expect.stringContaining('sends sizes in raw (a, b)') as unknown, fix: expect.stringContaining('socketBookSize`: raw') as unknown });
  });

  it('fails on markets that disagree; warns while nothing settled it (auto quotes nothing until then)', () => {
    expect(bookUnitsVerdict([{ slug: 'a', unit: 'raw' }, { slug: 'b', unit: 'shares' }], 'auto').status).toBe('fail');
    const open = bookUnitsVerdict([{ slug: 'a', unit: null, reason: 'no socket book within 5000 ms' }], 'auto');
    expect(open).toMatchObject({ status: 'warn', message: expect.stringContaining('quotes nothing') as unknown });
    expect(bookUnitsVerdict([{ slug: 'a', unit: null }], 'shares').message).toContain('not verified');
    expect(bookUnitsVerdict([], 'auto').status).toBe('warn');
  });
});

describe('configs of one account', () => {
  it('warns with what findUnsharedCredentials found; passes a lone config or configs sharing one limiter', () => {
    const found = { account: 'https://api.example (OM_API_TOKEN_ID)', paths: ['a.yaml', 'b.yaml'], unshared: ['b.yaml'], message: '2 configs trade on the same API token …' };
    const warn = rateLimitVerdict([found], ['a.yaml', 'b.yaml']);
    expect(warn).toMatchObject({ status: 'warn', message: found.message, data: { configs: ['a.yaml', 'b.yaml'], unshared: ['b.yaml'] } });
    expect(warn.fix).toContain('rateLimits.shared.redis');
    expect(rateLimitVerdict([], ['a.yaml'])).toMatchObject({ status: 'pass', message: expect.stringContaining('no other config') as unknown });
    expect(rateLimitVerdict([], ['a.yaml', 'b.yaml'])).toMatchObject({ status: 'pass', message: expect.stringContaining('2 configs share one rate limit') as unknown });
  });

  it('adds up maxNotional across the account and compares it with the balance', () => {
    const group = [
      { path: 'a.yaml', maxNotionalRaw: 1_000_000_000, dailyLossLimitRaw: 100_000_000 },
      { path: 'b.yaml', maxNotionalRaw: 500_000_000, dailyLossLimitRaw: 100_000_000 },
    ];
    expect(budgetVerdict(group, 1_499_999_999)).toMatchObject({ status: 'warn', message: expect.stringContaining('1500.00 USDC') as unknown });
    expect(budgetVerdict(group, 1_500_000_000)).toMatchObject({ status: 'pass', message: expect.stringContaining('daily loss limits add up to 200.00 USDC') as unknown });
    expect(budgetVerdict(group, null).status).toBe('skip');
  });
});

describe('report', () => {
  it('is ok unless a check failed; the text names each line and what to do', () => {
    const warnOnly = summarize('bot.yaml', NOW, [clockVerdict({ skewMs: 10_000, uncertaintyMs: 500 })]);
    expect(warnOnly.ok).toBe(true);
    const failed = summarize('/x/bot.yaml', NOW, [clockVerdict({ skewMs: 60_000, uncertaintyMs: 500 }), marketVerdict('a', market('a'), NOW, { ms: 0, key: 'risk.stopBeforeExpirySec' })]);
    expect(failed.ok).toBe(false);
    expect(failed.counts).toEqual({ pass: 1, warn: 0, fail: 1, skip: 0 });
    const text = formatReport(failed);
    expect(text).toContain('FAIL  server clock skew');
    expect(text).toContain('→ synchronise');
    expect(text).toContain('1 passed, 0 warnings, 1 failed, 0 skipped');
  });
});
