/**
 * Conformance: HMAC authentication (exchange-facts §4), scopes and delegation (exchange-api.md
 * § Authentication) over plain fetch: 401 for missing/unknown/bad/stale credentials, 403 for a missing
 * scope or a foreign sub-account, 400 for a malformed delegation header, the configurable header prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSignature, signingMessage, signRequest } from '../../../src/exchange/auth.js';
import { arr, obj } from '../../support/sim-http.js';
import { call, BOB, EOA, OTHER_SUB, PARTNER, placedId, placeOrder, READER, startTestSim, SUB, type TestSim } from '../fixtures.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(async () => {
  await t.sim.close();
});

const userOrdersPath = () => `/markets/${t.market.slug}/user-orders`;

describe('HMAC verification', () => {
  it('accepts a correctly signed request', async () => {
    const r = await call(t.sim.baseUrl, 'GET', userOrdersPath(), { creds: t.demo.creds });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
  });

  it('401s missing headers, unknown token, bad signature, malformed timestamp', async () => {
    const path = userOrdersPath();
    const none = await call(t.sim.baseUrl, 'GET', path);
    expect(none.status).toBe(401);
    expect(obj(none.body)).toMatchObject({ error: 'Unauthorized', statusCode: 401 });

    const unknown = await call(t.sim.baseUrl, 'GET', path, { creds: { tokenId: 'no-such-token', secret: t.demo.creds.secret } });
    expect(unknown.status).toBe(401);

    const wrongSecret = await call(t.sim.baseUrl, 'GET', path, { creds: { tokenId: t.demo.creds.tokenId, secret: BOB.creds.secret } });
    expect(wrongSecret.status).toBe(401);
    expect(obj(wrongSecret.body)['message']).toBe('Invalid signature');
    expect(wrongSecret.text).not.toContain(t.demo.creds.secret);
    expect(wrongSecret.text).not.toContain(BOB.creds.secret);

    const headers = signRequest({ credentials: t.demo.creds, method: 'GET', pathWithQuery: path, body: '', nowMs: Date.now() });
    const partial = await call(t.sim.baseUrl, 'GET', path, { headers: { 'svc-api-key': headers['svc-api-key']!, 'svc-timestamp': headers['svc-timestamp']! } });
    expect(partial.status).toBe(401);
    expect(String(obj(partial.body)['message'])).toContain('svc-signature');

    const ts = String(Date.now());
    const sig = computeSignature(t.demo.creds.secret, signingMessage(ts, 'GET', path, ''));
    const badTs = await call(t.sim.baseUrl, 'GET', path, { headers: { 'svc-api-key': t.demo.creds.tokenId, 'svc-timestamp': ts, 'svc-signature': sig } });
    expect(badTs.status).toBe(401);
  });

  it('401s a timestamp more than 30 s away in either direction; accepts within', async () => {
    const path = userOrdersPath();
    const now = Date.now();
    expect((await call(t.sim.baseUrl, 'GET', path, { creds: t.demo.creds, nowMs: now - 31_000 })).status).toBe(401);
    expect((await call(t.sim.baseUrl, 'GET', path, { creds: t.demo.creds, nowMs: now + 31_000 })).status).toBe(401);
    expect((await call(t.sim.baseUrl, 'GET', path, { creds: t.demo.creds, nowMs: now - 20_000 })).status).toBe(200);
    expect((await call(t.sim.baseUrl, 'GET', path, { creds: t.demo.creds, nowMs: now + 20_000 })).status).toBe(200);
  });

  it('signs the path including its query string and the exact body', async () => {
    const path = `${userOrdersPath()}?statuses=LIVE`;
    const headers = signRequest({ credentials: t.demo.creds, method: 'GET', pathWithQuery: userOrdersPath(), body: '', nowMs: Date.now() });
    expect((await call(t.sim.baseUrl, 'GET', path, { headers })).status).toBe(401);
    const body = JSON.stringify({ orderIds: ['00000000-0000-4000-8000-000000000000'] });
    const signedOther = signRequest({ credentials: t.demo.creds, method: 'POST', pathWithQuery: '/orders/cancel-batch', body: `${body} `, nowMs: Date.now() });
    expect((await call(t.sim.baseUrl, 'POST', '/orders/cancel-batch', { rawBody: body, headers: signedOther })).status).toBe(401);
  });

  it('403s a trading endpoint for a token without the trading scope; reads need no scope', async () => {
    const reads = await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}/user-orders`, { creds: READER.creds });
    expect(reads.status).toBe(200);
    const placed = await placeOrder(t.sim, READER, { market: t.market, side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000 });
    expect(placed.status).toBe(403);
    expect(obj(placed.body)).toMatchObject({ error: 'Forbidden', statusCode: 403 });
    const cancel = await call(t.sim.baseUrl, 'DELETE', '/orders/00000000-0000-4000-8000-000000000000', { creds: READER.creds });
    expect(cancel.status).toBe(403);
  });

  it('uses the configured header prefix', async () => {
    const other = await startTestSim({ headerPrefix: 'acme' });
    try {
      const path = `/markets/${other.market.slug}/user-orders`;
      expect((await call(other.sim.baseUrl, 'GET', path, { creds: other.demo.creds, prefix: 'acme' })).status).toBe(200);
      expect((await call(other.sim.baseUrl, 'GET', path, { creds: other.demo.creds })).status).toBe(401);
    } finally {
      await other.sim.close();
    }
  });
});

describe('delegation', () => {
  it('reads a managed sub-account with x-on-behalf-of when the partner has delegated_signing', async () => {
    placedId(await placeOrder(t.sim, SUB, { market: t.market2, side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000 }, PARTNER));
    const path = `/markets/${t.market2.slug}/user-orders`;
    const r = await call(t.sim.baseUrl, 'GET', path, { creds: PARTNER.creds, headers: { 'x-on-behalf-of': String(SUB.profileId) } });
    expect(r.status).toBe(200);
    const orders = arr(r.body).map(obj);
    expect(orders).toHaveLength(1);
    expect(orders[0]!['ownerId']).toBe(SUB.profileId);
    const own = await call(t.sim.baseUrl, 'GET', path, { creds: PARTNER.creds });
    expect(own.body).toEqual([]);
  });

  it('400s a malformed delegation header, 403s without the scope or for a foreign target, 404s an unknown profile', async () => {
    const path = `/markets/${t.market2.slug}/user-orders`;
    for (const bad of ['abc', '0', '-5', '2147483648', '1.5']) {
      const r = await call(t.sim.baseUrl, 'GET', path, { creds: PARTNER.creds, headers: { 'x-on-behalf-of': bad } });
      expect(r.status, bad).toBe(400);
      expect(obj(r.body)).toEqual({ message: [{ field: 'x-on-behalf-of', message: 'x-on-behalf-of must be an integer between 1 and 2147483647' }], error: 'Bad Request', statusCode: 400 });
    }
    const noScope = await call(t.sim.baseUrl, 'GET', path, { creds: BOB.creds, headers: { 'x-on-behalf-of': String(SUB.profileId) } });
    expect(noScope.status).toBe(403);
    const foreign = await call(t.sim.baseUrl, 'GET', path, { creds: PARTNER.creds, headers: { 'x-on-behalf-of': String(OTHER_SUB.profileId) } });
    expect(foreign.status).toBe(403);
    const notSub = await call(t.sim.baseUrl, 'GET', path, { creds: PARTNER.creds, headers: { 'x-on-behalf-of': String(EOA.profileId) } });
    expect(notSub.status).toBe(403);
    const unknown = await call(t.sim.baseUrl, 'GET', path, { creds: PARTNER.creds, headers: { 'x-on-behalf-of': '999999' } });
    expect(unknown.status).toBe(404);
  });

  it('places for a sub-account through ownerId, cancels with the onBehalfOf query (signed with the path)', async () => {
    const id = placedId(await placeOrder(t.sim, SUB, { market: t.market2, side: 'BUY', priceTicks: 310, sizeRaw: 1_000_000 }, PARTNER));
    const wrongOwner = await call(t.sim.baseUrl, 'DELETE', `/orders/${id}`, { creds: PARTNER.creds });
    expect(wrongOwner.status).toBe(401);
    expect(obj(wrongOwner.body)['message']).toBe('Unauthorized');
    const badQuery = await call(t.sim.baseUrl, 'DELETE', `/orders/${id}?onBehalfOf=zero`, { creds: PARTNER.creds });
    expect(badQuery.status).toBe(400);
    const foreign = await call(t.sim.baseUrl, 'DELETE', `/orders/${id}?onBehalfOf=${OTHER_SUB.profileId}`, { creds: PARTNER.creds });
    expect(foreign.status).toBe(403);
    const ok = await call(t.sim.baseUrl, 'DELETE', `/orders/${id}?onBehalfOf=${SUB.profileId}`, { creds: PARTNER.creds });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Order canceled successfully' });
  });

  it('refuses placement for another profile without delegation', async () => {
    const r = await placeOrder(t.sim, SUB, { market: t.market2, side: 'BUY', priceTicks: 310, sizeRaw: 1_000_000 }, BOB);
    expect(r.status).toBe(403);
    const foreign = await placeOrder(t.sim, OTHER_SUB, { market: t.market2, side: 'BUY', priceTicks: 310, sizeRaw: 1_000_000 }, PARTNER);
    expect(foreign.status).toBe(403);
  });
});
