/**
 * Unit tests of the server's pure plumbing: rate limiter, trading-mode schedule, fault injector, request
 * log, router, query validation, HMAC verification.
 */
import { describe, expect, it } from 'vitest';
import { computeSignature, signingMessage, signRequest } from '../../../src/exchange/auth.js';
import { FaultInjector, FaultInputError } from '../../../src/sim/server/faults.js';
import { ApiTokenRegistry, TokenRegistryError, verifyHmac } from '../../../src/sim/server/hmac-verify.js';
import { HttpError } from '../../../src/sim/server/http-errors.js';
import { queryInt, unknownQueryIssues } from '../../../src/sim/server/query.js';
import { TokenRateLimiter } from '../../../src/sim/server/rate-limiter.js';
import { RequestLog } from '../../../src/sim/server/request-log.js';
import { Router, type RouteDef } from '../../../src/sim/server/router.js';
import { modeForbids, TradingModeInputError, TradingModeSchedule } from '../../../src/sim/server/trading-mode.js';

describe('TokenRateLimiter', () => {
  it('spaces starts by minIntervalMs and caps concurrency per key', () => {
    const limiter = new TokenRateLimiter({ enabled: true, maxConcurrent: 2, minIntervalMs: 300 });
    const a = limiter.tryAcquire('k', 0);
    expect(a.ok).toBe(true);
    expect(limiter.tryAcquire('k', 299)).toEqual({ ok: false, reason: 'interval', retryAfterSeconds: 1 });
    expect(limiter.tryAcquire('other', 1).ok).toBe(true);
    const b = limiter.tryAcquire('k', 300);
    expect(b.ok).toBe(true);
    expect(limiter.tryAcquire('k', 10_000)).toEqual({ ok: false, reason: 'concurrency', retryAfterSeconds: 1 });
    if (a.ok) {
      a.release();
      a.release();
    }
    expect(limiter.inFlight('k')).toBe(1);
    expect(limiter.tryAcquire('k', 10_000).ok).toBe(true);
  });

  it('counts a start from when the server may have had it (its own lateness), bounded by one interval', () => {
    const limiter = new TokenRateLimiter({ enabled: true, maxConcurrent: 5, minIntervalMs: 300 });
    // Stamped at 1000, but the server's loop was away for 200 ms: it may have arrived at 800.
    expect(limiter.tryAcquire('k', 1_000, 200).ok).toBe(true);
    expect(limiter.tryAcquire('k', 1_099)).toEqual({ ok: false, reason: 'interval', retryAfterSeconds: 1 });
    expect(limiter.tryAcquire('k', 1_100).ok).toBe(true);
    // A lateness beyond one interval counts as one interval: the start of a request at 1500 counts from 1200.
    expect(limiter.tryAcquire('k', 1_500, 10_000).ok).toBe(true);
    expect(limiter.tryAcquire('k', 1_499)).toMatchObject({ ok: false, reason: 'interval' });
    expect(limiter.tryAcquire('k', 1_500).ok).toBe(true);
  });

  it('rounds Retry-After up to whole seconds and can be disabled', () => {
    const limiter = new TokenRateLimiter({ enabled: true, maxConcurrent: 5, minIntervalMs: 2_500 });
    limiter.tryAcquire('k', 0);
    expect(limiter.tryAcquire('k', 100)).toMatchObject({ ok: false, retryAfterSeconds: 3 });
    limiter.configure({ enabled: false, maxConcurrent: 5, minIntervalMs: 2_500 });
    expect(limiter.tryAcquire('k', 100).ok).toBe(true);
    expect(() => limiter.configure({ enabled: true, maxConcurrent: 0, minIntervalMs: 1 })).toThrow(/maxConcurrent/);
  });
});

describe('TradingModeSchedule', () => {
  it('decides what each mode forbids', () => {
    const gtcPostOnly = { kind: 'place', orderType: 'GTC', postOnly: true } as const;
    const gtc = { kind: 'place', orderType: 'GTC', postOnly: false } as const;
    const fak = { kind: 'place', orderType: 'FAK', postOnly: false } as const;
    const cancel = { kind: 'cancel' } as const;
    expect([gtcPostOnly, gtc, fak, cancel].map((a) => modeForbids('post_only', a))).toEqual([false, true, true, false]);
    expect(modeForbids('post_only', { kind: 'place', orderType: 'FOK', postOnly: true })).toBe(true);
    expect([gtcPostOnly, gtc, fak, cancel].map((a) => modeForbids('cancel_only', a))).toEqual([true, true, true, false]);
    expect([gtcPostOnly, gtc, fak, cancel].map((a) => modeForbids('disabled', a))).toEqual([true, true, true, true]);
  });

  it('applies windows from startsAt until resumeAt, most restrictive first', () => {
    const s = new TradingModeSchedule();
    s.set('post_only', 1_000, 0);
    s.set('disabled', 600, 0, 500);
    expect(s.inForce(0)?.mode).toBe('post_only');
    expect(s.inForce(500)?.mode).toBe('disabled');
    expect(s.inForce(600)?.mode).toBe('post_only');
    expect(s.inForce(1_000)).toBeNull();
    expect(s.status(100).scheduled.map((e) => e.mode)).toEqual(['disabled']);
    expect(s.status(1_000)).toEqual({ active: [], scheduled: [] });
  });

  it('throws the 425 body and rejects bad windows', () => {
    const s = new TradingModeSchedule();
    s.set('disabled', 2_000, 0);
    try {
      s.assertAllowed({ kind: 'cancel' }, 1);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      if (error instanceof HttpError) {
        expect(error.status).toBe(425);
        expect(error.body).toEqual({ code: 'trading_disabled', message: 'Trading is temporarily disabled', mode: 'disabled', resumeAt: new Date(2_000).toISOString() });
      }
    }
    expect(() => s.set('disabled', 5, 10)).toThrow(TradingModeInputError);
    expect(() => s.set('disabled', 50, 10, 60)).toThrow(/after startsAt/);
    expect(s.clear()).toBe(1);
  });
});

describe('FaultInjector', () => {
  it('consumes rules in order, by path prefix', () => {
    const f = new FaultInjector();
    f.addFailures({ status: 503, count: 2, pathPrefix: '/orders' });
    f.addFailures({ status: 500, count: 1 });
    expect(f.take('/markets/x')?.status).toBe(500);
    expect(f.take('/markets/x')).toBeNull();
    expect(f.take('/orders')?.status).toBe(503);
    expect(f.take('/orders/abc')?.status).toBe(503);
    expect(f.take('/orders')).toBeNull();
    expect(() => f.addFailures({ status: 500, count: 0 })).toThrow(FaultInputError);
    expect(() => f.setDelay(-1)).toThrow(/delayMs/);
  });
});

describe('RequestLog', () => {
  it('keeps a bounded ring but cumulative per-token counts', () => {
    const log = new RequestLog(2);
    const entry = { atMs: 0, method: 'GET', path: '/x', durationMs: 1 } as const;
    log.record({ ...entry, status: 200, tokenId: 't', outcome: 'handled' });
    log.record({ ...entry, status: 429, tokenId: 't', outcome: 'rate_limited' });
    log.record({ ...entry, status: 503, tokenId: 't', outcome: 'injected' });
    log.record({ ...entry, status: 200, tokenId: null, outcome: 'handled' });
    expect(log.entries().map((e) => e.seq)).toEqual([3, 4]);
    expect(log.entries({ sinceSeq: 3 }).map((e) => e.seq)).toEqual([4]);
    expect(log.tokenStats()).toEqual({ t: { requests: 3, rateLimited: 1, injected: 1, errors: 2 }, '(none)': { requests: 1, rateLimited: 0, injected: 0, errors: 0 } });
  });
});

describe('Router and query validation', () => {
  const handler = () => ({ status: 200, body: {} });
  const routes: RouteDef[] = [
    { method: 'GET', pattern: '/markets/:slug', auth: 'public', handler, name: 'slug' },
    { method: 'GET', pattern: '/markets/active', auth: 'public', handler, name: 'active' },
    { method: 'GET', pattern: '/markets/:slug/orderbook', auth: 'public', handler, name: 'book' },
  ];
  const router = new Router(routes);

  it('prefers literal segments and decodes parameters', () => {
    expect(router.match('GET', '/markets/active')?.route.name).toBe('active');
    expect(router.match('GET', '/markets/a%20b')?.params).toEqual({ slug: 'a b' });
    expect(router.match('GET', '/markets/x/orderbook')?.route.name).toBe('book');
    expect(router.match('POST', '/markets/x')).toBeNull();
    expect(router.match('GET', '/markets/x/y/z')).toBeNull();
    expect(() => router.match('GET', '/markets/%E0%A4%A')).toThrow(HttpError);
  });

  it('reports unknown fields and bad integers', () => {
    const q = new URLSearchParams('page=2&limit=0&x=1&x=2');
    const issues = unknownQueryIssues(q, ['page', 'limit']);
    expect(issues).toEqual([{ field: 'x', message: 'property x should not exist' }]);
    expect(queryInt(q, 'page', { min: 1 }, issues)).toBe(2);
    expect(queryInt(q, 'limit', { min: 1, max: 10 }, issues)).toBeUndefined();
    expect(issues[1]).toEqual({ field: 'limit', message: 'limit must be an integer between 1 and 10' });
    expect(queryInt(new URLSearchParams('page=1&page=2'), 'page', { min: 1 }, issues)).toBeUndefined();
  });
});

describe('verifyHmac', () => {
  const secret = Buffer.from('super-secret-key').toString('base64');
  const registry = new ApiTokenRegistry([{ tokenId: 'tok', secret, scopes: ['trading'], profileId: 9 }]);
  const nowMs = Date.parse('2026-03-23T12:34:56.789Z');

  it('accepts the facts-sheet vector and names the failure otherwise', () => {
    const headers = {
      'svc-api-key': 'tok',
      'svc-timestamp': '2026-03-23T12:34:56.789Z',
      'svc-signature': 'mgMUpOd7FH4sOSti2MF30YKF9yDq+67VjFksPa5I5eE=',
    };
    const request = { headers, method: 'PATCH', pathWithQuery: '/orders?market=btc', body: '{"foo":"bar"}', nowMs };
    const ok = verifyHmac(registry, 'svc', request);
    expect(ok.ok && ok.token.profileId).toBe(9);
    expect(verifyHmac(registry, 'svc', { ...request, body: '{"foo":"baz"}' })).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verifyHmac(registry, 'svc', { ...request, nowMs: nowMs + 30_001 })).toMatchObject({ ok: false, reason: 'stale_timestamp' });
    expect(verifyHmac(registry, 'svc', { ...request, nowMs: nowMs - 30_000 }).ok).toBe(true);
    expect(verifyHmac(registry, 'svc', { ...request, headers: { ...headers, 'svc-api-key': 'nope' } })).toMatchObject({ ok: false, reason: 'unknown_token' });
    expect(verifyHmac(registry, 'svc', { ...request, headers: { ...headers, 'svc-timestamp': '1774269296789' } })).toMatchObject({ ok: false, reason: 'bad_timestamp' });
    expect(verifyHmac(registry, 'other', request)).toMatchObject({ ok: false, reason: 'missing_headers' });
    const signed = signRequest({ credentials: { tokenId: 'tok', secret }, method: 'GET', pathWithQuery: '/x', body: '', nowMs, prefix: 'Acme' });
    expect(verifyHmac(registry, 'acme', { headers: signed, method: 'GET', pathWithQuery: '/x', body: '', nowMs }).ok).toBe(true);
    expect(computeSignature(secret, signingMessage('t', 'GET', '/x', ''))).not.toBe('');
  });

  it('validates registrations without echoing secrets', () => {
    expect(() => registry.add({ tokenId: 'tok', secret, scopes: [], profileId: 1 })).toThrow(TokenRegistryError);
    try {
      registry.add({ tokenId: 'new', secret: 'short!', scopes: [], profileId: 1 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TokenRegistryError);
      expect(String(error)).not.toContain('short!');
    }
  });
});
