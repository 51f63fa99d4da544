/**
 * Conformance: POST /orders (schema, EIP-712 verification, receive window, engine rules, the §3 answer),
 * GET user-orders (statuses, limit, exact UserOrder fields), DELETE /orders/{id} (every spec case word for
 * word), cancel-batch (200/207), cancel-all, and POST /orders/status/batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, obj } from '../../support/sim-http.js';
import { signedOrderBody } from '../../support/sim-orders.js';
import { call, BOB, placedId, placeOrder, startTestSim, type TestSim } from '../fixtures.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(async () => {
  await t.sim.close();
});

const USER_ORDER_KEYS = ['createdAt', 'id', 'makerAmount', 'marketId', 'originalSize', 'ownerId', 'price', 'remainingSize', 'side', 'status', 'takerAmount', 'token', 'type'];

async function post(body: unknown) {
  return call(t.sim.baseUrl, 'POST', '/orders', { creds: t.demo.creds, body });
}

async function demoBody(overrides: Parameters<typeof signedOrderBody>[0] extends infer I ? Partial<I> : never = {}) {
  return signedOrderBody({ privateKey: t.demo.privateKey, ownerId: t.demo.profileId, market: t.market, side: 'BUY', priceTicks: 200, sizeRaw: 1_000_000, ...overrides });
}

function fields(body: unknown): string[] {
  return arr(obj(body)['message']).map((m) => String(obj(m)['field']));
}

describe('POST /orders', () => {
  it('places a signed GTC order: 201 with order {id, echo}, makerMatches and execution', async () => {
    const body = await demoBody({ clientOrderId: 'cli-1', priceTicks: 250, sizeRaw: 4_000_000 });
    const r = await post(body);
    expect(r.status).toBe(201);
    const answer = obj(r.body);
    const order = obj(answer['order']);
    expect(order['id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const sent = obj(body['order']);
    for (const key of Object.keys(sent)) expect(order[key], key).toEqual(sent[key]);
    expect(arr(answer['makerMatches'])).toEqual([]);
    const execution = obj(answer['execution']);
    expect(execution['matched']).toBe(false);
    expect(typeof execution['settlementStatus']).toBe('string');
    expect(execution['feeRateBps']).toBe(300);
    expect(execution).toHaveProperty('effectiveFeeBps');
    expect(execution).toHaveProperty('totalsRaw');
    expect(execution['clientOrderId']).toBe('cli-1');
  });

  it('400s wrong types with a validation body naming every field', async () => {
    const body = await demoBody();
    const order = obj(body['order']);
    const r = await post({ ...body, ownerId: 'one', orderType: 'GTD', order: { ...order, makerAmount: '1000', side: 2, tokenId: 5, extra: true } });
    expect(r.status).toBe(400);
    expect(obj(r.body)['error']).toBe('Bad Request');
    expect(obj(r.body)['statusCode']).toBe(400);
    expect(fields(r.body).sort()).toEqual(['order.extra', 'order.makerAmount', 'order.side', 'order.tokenId', 'orderType', 'ownerId'].sort());
    const missing = await post({ orderType: 'GTC' });
    expect(missing.status).toBe(400);
    expect(fields(missing.body).sort()).toEqual(['marketSlug', 'order', 'ownerId']);
    const notObject = await post([1, 2]);
    expect(notObject.status).toBe(400);
    expect(fields(notObject.body)).toEqual(['body']);
  });

  it('400s cross-field problems: price off tick or missing, postOnly without GTC, lowercase maker, signer ≠ maker', async () => {
    const offTick = await demoBody({ tamper: { price: 0.2005 } });
    expect(fields((await post(offTick)).body)).toEqual(['order.price']);
    const base = await demoBody();
    const { price: _dropped, ...noPrice } = obj(base['order']);
    expect(fields((await post({ ...base, order: noPrice })).body)).toEqual(['order.price']);
    const fakPostOnly = await demoBody({ orderType: 'FAK', postOnly: true });
    expect(fields((await post(fakPostOnly)).body)).toEqual(['postOnly']);
    const lower = await demoBody({ tamper: { maker: t.demo.address.toLowerCase(), signer: t.demo.address.toLowerCase() } });
    expect(fields((await post(lower)).body).sort()).toEqual(['order.maker', 'order.signer']);
    const otherSigner = await demoBody({ tamper: { signer: BOB.address } });
    expect(fields((await post(otherSigner)).body)).toEqual(['order.signer']);
    const taker = await demoBody({ tamper: { taker: BOB.address } });
    expect(fields((await post(taker)).body)).toEqual(['order.taker']);
  });

  it('verifies the EIP-712 signature against the market venue, chain 8453 and the domain name', async () => {
    const cases = [
      await demoBody({ verifyingContract: t.market2.venue.exchange }),
      await demoBody({ chainId: 1 }),
      await demoBody({ domainName: 'Other Exchange' }),
      await demoBody({ tamper: { makerAmount: 300_000 } }),
    ];
    for (const body of cases) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(String(obj(r.body)['message'])).toMatch(/signature/i);
    }
    const garbage = await demoBody({ tamper: { signature: `0x${'00'.repeat(65)}` } });
    const g = await post(garbage);
    expect(g.status).toBe(400);
    const signedByBob = await demoBody({ privateKey: BOB.privateKey, tamper: { maker: t.demo.address, signer: t.demo.address } });
    expect((await post(signedByBob)).status).toBe(400);
  });

  it('403s a maker that is not the owner profile wallet; 404s an unknown market', async () => {
    const bobWallet = await demoBody({ privateKey: BOB.privateKey });
    expect((await post(bobWallet)).status).toBe(403);
    const unknown = await demoBody({ market: { ...t.market, slug: 'no-such-market' } });
    const r = await post(unknown);
    expect(r.status).toBe(404);
  });

  it('rejects a stale signed order with 425 when timestamp + recvWindow are given', async () => {
    const stale = await demoBody({ timestamp: Date.now() - 5_000, recvWindow: 1_000 });
    const r = await post(stale);
    expect(r.status).toBe(425);
    expect(obj(r.body)).toMatchObject({ error: 'Too Early', statusCode: 425 });
    const fresh = await demoBody({ timestamp: Date.now(), recvWindow: 5_000 });
    expect((await post(fresh)).status).toBe(201);
    const outOfRange = await demoBody({ timestamp: Date.now(), recvWindow: 10_001 });
    expect(fields((await post(outOfRange)).body)).toEqual(['recvWindow']);
  });

  it('passes the engine business rules through: amounts, balance, duplicate clientOrderId, post-only crossing, token', async () => {
    // Sign amounts that disagree with the price: price 0.20 but amounts for 0.30.
    const wrongAmounts = await signedOrderBody({ privateKey: t.demo.privateKey, ownerId: 1, market: t.market, side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000 });
    const wa = await post({ ...wrongAmounts, order: { ...obj(wrongAmounts['order']), price: 0.2 } });
    expect(wa.status).toBe(400);
    expect(String(obj(wa.body)['message'])).not.toMatch(/signature/i);
    const tooBig = await demoBody({ priceTicks: 900, sizeRaw: 1_000_000_000_000 });
    const tb = await post(tooBig);
    expect(tb.status).toBe(400);
    expect(String(obj(tb.body)['message'])).toMatch(/Insufficient balance/);
    const first = await demoBody({ clientOrderId: 'dup-1' });
    expect((await post(first)).status).toBe(201);
    const second = await demoBody({ clientOrderId: 'dup-1' });
    const dup = await post(second);
    expect(dup.status).toBe(409);
    // Resting BUY NO at 0.60 = YES ask at 0.40; a post-only BUY YES at 0.45 would cross.
    placedId(await placeOrder(t.sim, BOB, { market: t.market, outcome: 'NO', side: 'BUY', priceTicks: 600, sizeRaw: 1_000_000 }));
    const crossing = await demoBody({ priceTicks: 450, postOnly: true });
    const c = await post(crossing);
    expect(c.status).toBe(400);
    expect(String(obj(c.body)['message'])).toMatch(/[Pp]ost-only/);
    const foreignToken = await demoBody({ market: { ...t.market, yesTokenId: t.market2.yesTokenId } });
    expect((await post(foreignToken)).status).toBe(400);
  });

  it('matches against resting liquidity and reports makerMatches and execution', async () => {
    const makerId = placedId(await placeOrder(t.sim, BOB, { market: t.market2, outcome: 'NO', side: 'BUY', priceTicks: 450, sizeRaw: 3_000_000 }));
    const taker = await post(await demoBody({ market: t.market2, priceTicks: 560, sizeRaw: 2_000_000, orderType: 'FAK' }));
    expect(taker.status).toBe(201);
    const answer = obj(taker.body);
    const matches = arr(answer['makerMatches']).map(obj);
    expect(matches).toHaveLength(1);
    expect(matches[0]!['orderId']).toBe(makerId);
    expect(matches[0]!['matchedSize']).toBe('2000000');
    const execution = obj(answer['execution']);
    expect(execution['matched']).toBe(true);
    expect(typeof execution['tradeEventId']).toBe('string');
    const fok = await post(await signedOrderBody({ privateKey: t.demo.privateKey, ownerId: 1, market: t.market2, side: 'BUY', orderType: 'FOK', amountRaw: 550_000 }));
    expect(fok.status).toBe(201);
    expect(obj(obj(fok.body)['execution'])['matched']).toBe(true);
  });
});

describe('GET /markets/{slug}/user-orders', () => {
  it('defaults to LIVE, newest first, exact UserOrder fields', async () => {
    const slug = t.market.slug;
    const r = await call(t.sim.baseUrl, 'GET', `/markets/${slug}/user-orders`, { creds: t.demo.creds });
    expect(r.status).toBe(200);
    const orders = arr(r.body).map(obj);
    expect(orders.length).toBeGreaterThan(1);
    for (const o of orders) {
      expect(o['status']).toBe('LIVE');
      const keys = Object.keys(o).filter((k) => k !== 'clientOrderId').sort();
      expect(keys).toEqual(USER_ORDER_KEYS);
      expect(o['ownerId']).toBe(t.demo.profileId);
      for (const k of ['makerAmount', 'takerAmount', 'price', 'originalSize', 'remainingSize']) expect(String(o[k])).toMatch(/^[0-9]+(?:\.[0-9]+)?$/);
    }
    const times = orders.map((o) => Date.parse(String(o['createdAt'])));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(orders.some((o) => o['clientOrderId'] === 'cli-1')).toBe(true);
  });

  it('takes repeatable case-insensitive statuses and limit 1..200; 400 otherwise; 404 unknown or group slug', async () => {
    const path = `/markets/${t.market2.slug}/user-orders`;
    const matched = await call(t.sim.baseUrl, 'GET', `${path}?statuses=matched&statuses=Canceled`, { creds: t.demo.creds });
    expect(matched.status).toBe(200);
    const statuses = new Set(arr(matched.body).map((o) => obj(o)['status']));
    expect([...statuses].every((s) => s === 'MATCHED' || s === 'CANCELED')).toBe(true);
    expect(statuses.has('MATCHED')).toBe(true);
    const limited = await call(t.sim.baseUrl, 'GET', `${path}?statuses=MATCHED&statuses=LIVE&statuses=CANCELED&statuses=UNMATCHED&limit=1`, { creds: t.demo.creds });
    expect(arr(limited.body)).toHaveLength(1);
    for (const q of ['statuses=OPEN', 'limit=0', 'limit=201', 'foo=1', 'statuses=LIVE,MATCHED']) {
      const r = await call(t.sim.baseUrl, 'GET', `${path}?${q}`, { creds: t.demo.creds });
      expect(r.status, q).toBe(400);
      expect(obj(r.body)['error']).toBe('Bad Request');
    }
    const unknownField = await call(t.sim.baseUrl, 'GET', `${path}?foo=1`, { creds: t.demo.creds });
    expect(unknownField.body).toEqual({ message: [{ field: 'foo', message: 'property foo should not exist' }], error: 'Bad Request', statusCode: 400 });
    expect((await call(t.sim.baseUrl, 'GET', '/markets/nope/user-orders', { creds: t.demo.creds })).status).toBe(404);
    expect((await call(t.sim.baseUrl, 'GET', `/markets/${t.groupSlug}/user-orders`, { creds: t.demo.creds })).status).toBe(404);
    const empty = await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}/user-orders`, { creds: BOB.creds, headers: {} });
    expect(Array.isArray(empty.body)).toBe(true);
  });
});

describe('cancellation', () => {
  it('DELETE /orders/{id}: 200, then the spec failure cases word for word', async () => {
    const id = placedId(await post(await demoBody({ priceTicks: 150 })));
    const ok = await call(t.sim.baseUrl, 'DELETE', `/orders/${id}`, { creds: t.demo.creds });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Order canceled successfully' });
    const again = await call(t.sim.baseUrl, 'DELETE', `/orders/${id}`, { creds: t.demo.creds });
    expect(again.status).toBe(400);
    expect(obj(again.body)['message']).toBe('Order not found or already canceled');
    const missing = await call(t.sim.baseUrl, 'DELETE', '/orders/00000000-0000-4000-8000-000000000000', { creds: t.demo.creds });
    expect(missing.status).toBe(404);
    expect(obj(missing.body)['message']).toBe('Order not found');
    const bobs = placedId(await placeOrder(t.sim, BOB, { market: t.market, side: 'BUY', priceTicks: 120, sizeRaw: 1_000_000 }));
    const foreign = await call(t.sim.baseUrl, 'DELETE', `/orders/${bobs}`, { creds: t.demo.creds });
    expect(foreign.status).toBe(401);
    expect(obj(foreign.body)['message']).toBe('Unauthorized');
    for (const bad of ['not-a-uuid', '00000000-0000-1000-8000-000000000000', '00000000-0000-4000-7000-000000000000']) {
      const r = await call(t.sim.baseUrl, 'DELETE', `/orders/${bad}`, { creds: t.demo.creds });
      expect(r.status, bad).toBe(400);
      expect(r.body).toEqual({ message: [{ field: 'orderId', message: 'orderId must be a UUID v4' }], error: 'Bad Request', statusCode: 400 });
    }
    expect((await call(t.sim.baseUrl, 'DELETE', `/orders/${bobs}?foo=1`, { creds: BOB.creds })).status).toBe(400);
  });

  it('DELETE on a resolved market: 400 Market has already been resolved', async () => {
    const other = await startTestSim();
    try {
      const id = placedId(await placeOrder(other.sim, other.demo, { market: other.market, side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000 }));
      other.sim.control.resolveMarket(other.market.slug, { winningOutcomeIndex: 0 });
      const r = await call(other.sim.baseUrl, 'DELETE', `/orders/${id}`, { creds: other.demo.creds });
      expect(r.status).toBe(400);
      expect(obj(r.body)['message']).toBe('Market has already been resolved');
    } finally {
      await other.sim.close();
    }
  });

  it('POST /orders/cancel-batch: 200 all canceled, 207 partial, 400 mixed markets or bad body', async () => {
    const a = placedId(await post(await demoBody({ priceTicks: 101 })));
    const b = placedId(await post(await demoBody({ priceTicks: 102 })));
    const full = await call(t.sim.baseUrl, 'POST', '/orders/cancel-batch', { creds: t.demo.creds, body: { orderIds: [a, b] } });
    expect(full.status).toBe(200);
    expect(obj(full.body)['canceled']).toEqual([a, b]);
    expect(obj(full.body)['failed']).toEqual([]);
    const c = placedId(await post(await demoBody({ priceTicks: 103 })));
    const partial = await call(t.sim.baseUrl, 'POST', '/orders/cancel-batch', { creds: t.demo.creds, body: { orderIds: [c, a] } });
    expect(partial.status).toBe(207);
    const p = obj(partial.body);
    expect(typeof p['message']).toBe('string');
    expect(p['canceled']).toEqual([c]);
    const failed = arr(p['failed']).map(obj);
    expect(failed).toHaveLength(1);
    expect(Object.keys(failed[0]!).sort()).toEqual(['message', 'orderId', 'reason']);
    expect(failed[0]!['orderId']).toBe(a);
    const x = placedId(await post(await demoBody({ priceTicks: 104 })));
    const y = placedId(await post(await demoBody({ market: t.market2, priceTicks: 104 })));
    const mixed = await call(t.sim.baseUrl, 'POST', '/orders/cancel-batch', { creds: t.demo.creds, body: { orderIds: [x, y] } });
    expect(mixed.status).toBe(400);
    for (const bad of [{}, { orderIds: [] }, { orderIds: ['nope'] }, { orderIds: [x], more: 1 }]) {
      const r = await call(t.sim.baseUrl, 'POST', '/orders/cancel-batch', { creds: t.demo.creds, body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(Array.isArray(obj(r.body)['message'])).toBe(true);
    }
  });

  it('DELETE /orders/all/{slug}: {message, canceled, failed}', async () => {
    const ids = [placedId(await post(await demoBody({ market: t.market2, priceTicks: 111 }))), placedId(await post(await demoBody({ market: t.market2, priceTicks: 112 })))];
    const r = await call(t.sim.baseUrl, 'DELETE', `/orders/all/${t.market2.slug}`, { creds: t.demo.creds });
    expect(r.status).toBe(200);
    const body = obj(r.body);
    expect(Object.keys(body).sort()).toEqual(['canceled', 'failed', 'message']);
    for (const id of ids) expect(arr(body['canceled'])).toContain(id);
    const live = await call(t.sim.baseUrl, 'GET', `/markets/${t.market2.slug}/user-orders`, { creds: t.demo.creds });
    expect(live.body).toEqual([]);
    expect((await call(t.sim.baseUrl, 'DELETE', '/orders/all/no-such-market', { creds: t.demo.creds })).status).toBe(404);
  });
});

describe('POST /orders/status/batch', () => {
  it('answers found / not_found / invalid per item, with data {order, makerMatches, execution}', async () => {
    const id = placedId(await post(await demoBody({ priceTicks: 130, clientOrderId: 'status-1' })));
    const bobs = placedId(await placeOrder(t.sim, BOB, { market: t.market, side: 'BUY', priceTicks: 131, sizeRaw: 1_000_000 }));
    const r = await call(t.sim.baseUrl, 'POST', '/orders/status/batch', {
      creds: t.demo.creds,
      body: { items: [{ orderId: id }, { clientOrderId: 'status-1' }, { clientOrderId: 'never-placed' }, { orderId: bobs }, { orderId: 'bad' }, { orderId: id, clientOrderId: 'x' }, 7] },
    });
    expect(r.status).toBe(200);
    const results = arr(obj(r.body)['results']).map(obj);
    expect(results.map((x) => [x['index'], x['status']])).toEqual([
      [0, 'found'],
      [1, 'found'],
      [2, 'not_found'],
      [3, 'not_found'],
      [4, 'invalid'],
      [5, 'invalid'],
      [6, 'invalid'],
    ]);
    const data = obj(results[0]!['data']);
    expect(obj(data['order'])['id']).toBe(id);
    expect(Array.isArray(data['makerMatches'])).toBe(true);
    expect(obj(data['execution'])['matched']).toBe(false);
    expect(results[1]!['orderId']).toBe(id);
    expect(results[1]!['clientOrderId']).toBe('status-1');
    expect(results[2]!['clientOrderId']).toBe('never-placed');
    for (const bad of [{ items: [] }, { items: Array.from({ length: 51 }, () => ({ orderId: id })) }, {}]) {
      expect((await call(t.sim.baseUrl, 'POST', '/orders/status/batch', { creds: t.demo.creds, body: bad })).status).toBe(400);
    }
  });
});
