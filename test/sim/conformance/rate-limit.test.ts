/**
 * Conformance: per-token rate limits of exchange-api.md § Limits (2 concurrent, 300 ms between request
 * starts) → 429 with Retry-After in seconds; counted per token in the request log, separately from
 * injected 429s. Runs on an injected manual clock so every boundary is exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/sim/engine/index.js';
import { obj, waitUntil } from '../../support/sim-http.js';
import { call, BOB, startTestSim, type TestSim } from '../fixtures.js';

let t: TestSim;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock(Date.parse('2026-01-01T00:00:00.000Z'));
  t = await startTestSim({ clock, rateLimit: {} });
});
afterAll(async () => {
  await t.sim.close();
});

const read = (who = t.demo) => call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}/user-orders`, { creds: who.creds, nowMs: clock.now() });

describe('rate limits', () => {
  it('enforces 300 ms between request starts per token, with Retry-After; rejected requests are not starts', async () => {
    t.sim.control.clearRequestLog();
    expect((await read()).status).toBe(200);
    const limited = await read();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toEqual({ message: 'ThrottlerException: Too Many Requests', error: 'Too Many Requests', statusCode: 429 });
    // Another token is not affected.
    expect((await read(BOB)).status).toBe(200);
    clock.advance(299);
    expect((await read()).status).toBe(429);
    clock.advance(1);
    expect((await read()).status).toBe(200);
    const stats = t.sim.control.requestStats();
    expect(stats[t.demo.creds.tokenId]).toEqual({ requests: 4, rateLimited: 2, injected: 0, errors: 2 });
    expect(stats[BOB.creds.tokenId]).toEqual({ requests: 1, rateLimited: 0, injected: 0, errors: 0 });
  });

  it('allows at most 2 requests in flight per token', async () => {
    t.sim.control.setRateLimits({ minIntervalMs: 0 });
    t.sim.control.setResponseDelay(100);
    const pendingBefore = clock.pending();
    const a = read();
    const b = read();
    await waitUntil(() => (clock.pending() >= pendingBefore + 2 ? true : undefined), 2_000, 'two requests in flight');
    const c = await read();
    expect(c.status).toBe(429);
    expect(c.headers.get('retry-after')).toBe('1');
    clock.advance(100);
    expect((await a).status).toBe(200);
    expect((await b).status).toBe(200);
    t.sim.control.setResponseDelay(0);
    expect((await read()).status).toBe(200);
    t.sim.control.setRateLimits({ minIntervalMs: 300 });
  });

  it('does not limit unauthenticated public requests', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => call(t.sim.baseUrl, 'GET', '/maintenance/status')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('counts injected 429s apart from rate-limiter 429s, and exposes both over the admin API', async () => {
    clock.advance(1_000);
    t.sim.control.clearRequestLog();
    t.sim.control.failNextRequests({ status: 429, count: 1, retryAfterSeconds: 3 });
    const injected = await read();
    expect(injected.status).toBe(429);
    expect(injected.headers.get('retry-after')).toBe('3');
    const log = obj((await call(t.sim.baseUrl, 'GET', '/_sim/requests')).body);
    expect(obj(obj(log['tokens'])[t.demo.creds.tokenId])).toEqual({ requests: 1, rateLimited: 0, injected: 1, errors: 1 });
    const entries = log['entries'];
    expect(Array.isArray(entries) && entries.length).toBe(1);
  });

  it('can be turned off and on at run time', async () => {
    t.sim.control.setRateLimits({ enabled: false });
    clock.advance(1_000);
    const burst = await Promise.all([read(), read(), read()]);
    expect(burst.map((r) => r.status)).toEqual([200, 200, 200]);
    const body = await call(t.sim.baseUrl, 'PUT', '/_sim/rate-limits', { body: { enabled: true, maxConcurrent: 0 } });
    expect(body.status).toBe(400);
    expect((await call(t.sim.baseUrl, 'PUT', '/_sim/rate-limits', { body: { enabled: true } })).body).toEqual({ enabled: true, maxConcurrent: 2, minIntervalMs: 300 });
  });
});
