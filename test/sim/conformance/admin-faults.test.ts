/**
 * Conformance: the loopback admin API `/_sim/...` and fault injection — feed freeze/unfreeze, dropped
 * connections, injected malformed/crossed/custom frames, answer delays, "next N requests fail" (with path
 * prefix and the `after` phase that makes an outcome unknown), account reads, fair value, resolution,
 * run-time accounts, and the request log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, obj, waitUntil } from '../../support/sim-http.js';
import { type SocketRecorder } from '../../support/sim-socket.js';
import { deriveAccountCredentials } from '../../../src/sim/index.js';
import { call, connectMarkets, BOB, placedId, placeOrder, SEED, startTestSim, type TestSim } from '../fixtures.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(async () => {
  await t.sim.close();
});

const admin = (method: string, path: string, body?: unknown) => call(t.sim.baseUrl, method, `/_sim${path}`, body === undefined ? {} : { body });
const bookFrames = (s: SocketRecorder, from: number) => s.events.slice(from).filter((e) => e.name === 'orderbookUpdate');

async function subscribed(): Promise<SocketRecorder> {
  const s = await connectMarkets(t.sim.socketUrl, { reconnection: true });
  s.socket.on('connect', () => s.socket.emit('subscribe_market_prices', { marketSlugs: [t.market.slug] }));
  s.socket.emit('subscribe_market_prices', { marketSlugs: [t.market.slug] });
  await s.waitFor('orderbookUpdate');
  return s;
}

describe('socket faults', () => {
  it('freeze stops orderbookUpdate frames while REST stays live; unfreeze resumes with the current book', async () => {
    const s = await subscribed();
    try {
      expect((await admin('POST', '/socket/freeze')).body).toEqual({ frozen: 'books' });
      const mark = s.mark();
      placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: 222, sizeRaw: 1_000_000 }));
      const rest = obj((await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}/orderbook`)).body);
      // The REST book sends raw 1e6 sizes with a side (recorded from the live venue).
      expect(arr(rest['bids'])).toContainEqual({ price: 0.222, size: 1_000_000, side: 'BUY' });
      await new Promise((r) => setTimeout(r, 120));
      expect(bookFrames(s, mark)).toEqual([]);
      expect(s.socket.connected).toBe(true);
      expect(obj((await admin('GET', '/state')).body)['feedFrozen']).toBe('books');
      await admin('POST', '/socket/unfreeze');
      const resumed = obj(await s.waitFor('orderbookUpdate', () => true, 3_000, mark));
      // The socket book: shares by default (socketBookSizeUnit), each level with its side.
      expect(arr(obj(resumed['orderbook'])['bids'])).toContainEqual({ price: 0.222, size: 1, side: 'BUY' });
    } finally {
      s.close();
    }
  });

  it("freeze {scope: 'orders'} silences only the account's orderEvent stream; books keep flowing", async () => {
    const s = await connectMarkets(t.sim.socketUrl, { creds: t.demo.creds });
    try {
      await s.waitFor('system', (p) => obj(p)['message'] === 'Connected');
      s.socket.emit('subscribe_order_events');
      await s.waitFor('system', (p) => obj(p)['event'] === 'subscribe_order_events');
      s.socket.emit('subscribe_market_prices', { marketSlugs: [t.market.slug] });
      await s.waitFor('orderbookUpdate');
      expect((await admin('POST', '/socket/freeze', { scope: 'orders' })).body).toEqual({ frozen: 'orders' });
      const mark = s.mark();
      placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: 223, sizeRaw: 1_000_000 }));
      const book = obj(await s.waitFor('orderbookUpdate', (p) => arr(obj(obj(p)['orderbook'])['bids']).some((l) => obj(l)['price'] === 0.223), 3_000, mark));
      expect(book['marketSlug']).toBe(t.market.slug);
      await new Promise((r) => setTimeout(r, 120));
      expect(s.events.slice(mark).filter((e) => e.name === 'orderEvent')).toEqual([]);
      await admin('POST', '/socket/unfreeze');
      const after = s.mark();
      placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: 224, sizeRaw: 1_000_000 }));
      await s.waitFor('orderEvent', () => true, 3_000, after);
    } finally {
      s.close();
    }
  });

  it('drops every connection; clients reconnect and resubscribe', async () => {
    const s = await subscribed();
    try {
      const reasons: string[] = [];
      s.socket.on('disconnect', (reason) => reasons.push(reason));
      const mark = s.mark();
      expect(obj((await admin('POST', '/socket/drop')).body)['dropped']).toBeGreaterThanOrEqual(1);
      await waitUntil(() => (reasons.length === 1 ? true : undefined), 3_000, 'disconnect');
      expect(reasons).toEqual(['transport close']);
      await s.waitFor('orderbookUpdate', () => true, 5_000, mark);
      expect(s.socket.connected).toBe(true);
      expect((await admin('POST', '/socket/drop', { kind: 'server' })).status).toBe(200);
      await waitUntil(() => (reasons.length === 2 ? true : undefined), 3_000, 'server disconnect');
      expect(reasons[1]).toBe('io server disconnect');
    } finally {
      s.close();
    }
  });

  it('injects malformed, crossed and custom frames to a market’s subscribers', async () => {
    const s = await subscribed();
    try {
      const mark = s.mark();
      expect((await admin('POST', '/socket/inject', { kind: 'malformed', marketSlug: t.market.slug })).body).toEqual({ delivered: 1 });
      const malformed = obj(await s.waitFor('orderbookUpdate', (p) => obj(p)['timestamp'] === 'not-a-time', 3_000, mark));
      expect(obj(malformed['orderbook'])['bids']).toBe('not-an-array');
      await admin('POST', '/socket/inject', { kind: 'crossed', marketSlug: t.market.slug });
      const crossed = obj(await s.waitFor('orderbookUpdate', (p) => {
        const book = obj(obj(p)['orderbook']);
        const bids = book['bids'];
        const asks = book['asks'];
        return Array.isArray(bids) && Array.isArray(asks) && bids.length > 0 && asks.length > 0 && Number(obj(bids[0])['price']) > Number(obj(asks[0])['price']);
      }, 3_000, mark));
      expect(crossed['marketSlug']).toBe(t.market.slug);
      await admin('POST', '/socket/inject', { kind: 'custom', marketSlug: t.market.slug, event: 'orderEvent', payload: { source: 'OME', price: 'NaN' } });
      expect(await s.waitFor('orderEvent', () => true, 3_000, mark)).toEqual({ source: 'OME', price: 'NaN' });
      expect((await admin('POST', '/socket/inject', { kind: 'crossed', marketSlug: 'nope' })).status).toBe(404);
      expect((await admin('POST', '/socket/inject', { kind: 'weird', marketSlug: t.market.slug })).status).toBe(400);
    } finally {
      s.close();
    }
  });
});

describe('HTTP faults', () => {
  it('fails the next N requests matching a path prefix with 500/503, then recovers', async () => {
    expect((await admin('POST', '/faults/fail-next', { status: 503, count: 2, pathPrefix: '/markets/' })).status).toBe(201);
    expect((await call(t.sim.baseUrl, 'GET', '/maintenance/status')).status).toBe(200);
    const first = await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}`);
    expect(first.status).toBe(503);
    expect(first.body).toEqual({ message: 'Service Unavailable', error: 'Service Unavailable', statusCode: 503 });
    expect((await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}`)).status).toBe(503);
    expect((await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}`)).status).toBe(200);
    await admin('POST', '/faults/fail-next', { status: 500, count: 1 });
    const r = await call(t.sim.baseUrl, 'GET', '/maintenance/status');
    expect(r.status).toBe(500);
    expect(obj(r.body)['statusCode']).toBe(500);
    expect(obj((await admin('GET', '/faults')).body)['rules']).toEqual([]);
  });

  it("phase 'after' applies the request and answers 500: the outcome is unknown until looked up", async () => {
    await admin('POST', '/faults/fail-next', { status: 500, count: 1, pathPrefix: '/orders', phase: 'after' });
    const placed = await placeOrder(t.sim, t.demo, { market: t.market2, side: 'BUY', priceTicks: 233, sizeRaw: 1_000_000, clientOrderId: 'unknown-outcome' });
    expect(placed.status).toBe(500);
    const lookup = await call(t.sim.baseUrl, 'POST', '/orders/status/batch', { creds: t.demo.creds, body: { items: [{ clientOrderId: 'unknown-outcome' }] } });
    expect(obj(arr(obj(lookup.body)['results'])[0])['status']).toBe('found');
  });

  it('delays answers by the configured time', async () => {
    await admin('PUT', '/faults/delay', { ms: 150 });
    const started = Date.now();
    expect((await call(t.sim.baseUrl, 'GET', '/maintenance/status')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // Admin routes are never delayed: with a 5 s delay in force they still answer at once.
    await admin('PUT', '/faults/delay', { ms: 5_000 });
    const adminStarted = Date.now();
    expect(obj((await admin('GET', '/state')).body)['responseDelayMs']).toBe(5_000);
    expect(Date.now() - adminStarted).toBeLessThan(2_500);
    await admin('DELETE', '/faults');
    expect(obj((await admin('GET', '/faults')).body)).toEqual({ delayMs: 0, rules: [], cancelReplaceRules: [] });
  });

  it('validates fault input', async () => {
    for (const bad of [{ status: 404, count: 1 }, { status: 500, count: 0 }, { status: 500, count: 1, pathPrefix: 'orders' }, { status: 500 }]) {
      expect((await admin('POST', '/faults/fail-next', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await admin('PUT', '/faults/delay', { ms: -1 })).status).toBe(400);
  });
});

describe('control routes', () => {
  it('reads any account’s orders, trades and balances', async () => {
    placedId(await placeOrder(t.sim, BOB, { market: t.market2, side: 'BUY', priceTicks: 600, sizeRaw: 2_000_000 }));
    placedId(await placeOrder(t.sim, t.demo, { market: t.market2, outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 2_000_000 }));
    const orders = arr((await admin('GET', `/accounts/${BOB.profileId}/orders?marketSlug=${t.market2.slug}&statuses=matched`)).body).map(obj);
    expect(orders.length).toBeGreaterThanOrEqual(1);
    expect(orders.every((o) => o['status'] === 'MATCHED')).toBe(true);
    const trades = arr((await admin('GET', `/accounts/${BOB.profileId}/trades`)).body).map(obj);
    expect(trades[0]).toMatchObject({ role: 'MAKER', marketSlug: t.market2.slug, sizeRaw: 2_000_000 });
    const balances = obj((await admin('GET', `/accounts/${BOB.profileId}/balances`)).body);
    expect(obj(balances['tokens'])[t.market2.yesTokenId]).toMatchObject({ totalRaw: 2_000_000 });
    expect((await admin('GET', '/accounts/999/balances')).status).toBe(404);
    expect((await admin('GET', '/accounts/abc/balances')).status).toBe(400);
    expect(obj((await admin('GET', '/invariants')).body)).toEqual({ violations: [] });
  });

  it('moves the fair value and resolves markets', async () => {
    expect((await admin('POST', `/markets/${t.market.slug}/fair-value`, { price: 0.615 })).body).toEqual({ marketSlug: t.market.slug, fairValueTicks: 615 });
    expect(t.sim.engine.fairValueTicks(t.market.slug)).toBe(615);
    expect((await admin('POST', `/markets/${t.market.slug}/fair-value`, { price: 0.6155 })).status).toBe(400);
    expect((await admin('POST', '/markets/nope/fair-value', { priceTicks: 500 })).status).toBe(404);
    const other = t.sim.engine.markets().find((m) => m.groupSlug !== undefined)!;
    const resolved = await admin('POST', `/markets/${other.slug}/resolve`, { payoutNumerators: [1, 1] });
    expect(resolved.status).toBe(200);
    expect(obj(resolved.body)).toMatchObject({ status: 'RESOLVED', winningOutcomeIndex: null, payoutNumerators: [1, 1] });
    expect((await admin('POST', `/markets/${other.slug}/resolve`, { winningOutcomeIndex: 0 })).status).toBe(400);
    expect((await admin('POST', `/markets/${t.market.slug}/resolve`, { winningOutcomeIndex: 2 })).status).toBe(400);
  });

  it('adds an account at run time whose token works immediately', async () => {
    const c = deriveAccountCredentials(SEED, 'late', 77);
    const r = await admin('POST', '/accounts', { profileId: 77, address: c.address, usdc: '50', apiTokens: [{ tokenId: c.tokenId, secret: c.secret, scopes: ['trading'] }] });
    expect(r.status).toBe(201);
    expect(r.text).not.toContain(c.secret);
    const me = await call(t.sim.baseUrl, 'GET', '/portfolio/positions', { creds: { tokenId: c.tokenId, secret: c.secret } });
    expect(me.status).toBe(200);
    expect((await admin('POST', '/accounts', { profileId: 78, address: c.address, apiTokens: [{ tokenId: c.tokenId, secret: c.secret }] })).status).toBe(409);
    const bad = await admin('POST', '/accounts', { profileId: 79, address: '0x12', apiTokens: [{ tokenId: 'x', secret: 'top-secret-value' }] });
    expect(bad.status).toBe(400);
    expect(bad.text).not.toContain('top-secret-value');
  });

  it('404s unknown admin routes and keeps admin requests out of the request log', async () => {
    await admin('DELETE', '/requests');
    expect((await admin('GET', '/nope')).status).toBe(404);
    await call(t.sim.baseUrl, 'GET', '/maintenance/status');
    const log = obj((await admin('GET', '/requests?limit=10')).body);
    expect(arr(log['entries']).map((e) => obj(e)['path'])).toEqual(['/maintenance/status']);
    expect((await admin('GET', '/requests?limit=0')).status).toBe(400);
  });
});
