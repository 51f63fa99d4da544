/**
 * Conformance: the venue's current cancel endpoints (its API reference), as the simulator serves them
 * (src/sim/server/routes-cancel.ts): `POST /orders/batch-cancel` takes 1–50 `orderIds` OR `clientOrderIds` (never both,
 * nothing else) and answers 200 / 207 `{message, canceled, failed}`; `POST /orders/cancel` takes one `orderId` or
 * `clientOrderId`. Whether one batch may span markets is unconfirmed: the setting `batchCancelMarkets` serves both
 * possibilities (`mixed`, the default, cancels them all; `single` refuses the whole request, 400 naming the list).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, obj } from '../../support/sim-http.js';
import { call, BOB, placedId, placeOrder, startTestSim, type TestSim } from '../fixtures.js';
import type { SimMarket } from '../../../src/sim/engine/index.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(async () => {
  await t.sim.close();
});

let nextCoid = 0;
async function rest(market: SimMarket = t.market, priceTicks = 100 + (nextCoid % 50)): Promise<{ id: string; coid: string }> {
  const coid = `om-conf-${nextCoid++}`;
  const id = placedId(await placeOrder(t.sim, t.demo, { market, side: 'BUY', priceTicks, sizeRaw: 1_000_000, clientOrderId: coid }));
  return { id, coid };
}

const post = (path: string, body: unknown) => call(t.sim.baseUrl, 'POST', path, { creds: t.demo.creds, body });
const statusOf = (id: string) => t.sim.engine.orderById(id)?.status;

describe('POST /orders/batch-cancel', () => {
  it('by orderIds: 200 when all canceled; 207 naming each failure by orderId', async () => {
    const [a, b] = [await rest(), await rest()];
    const full = await post('/orders/batch-cancel', { orderIds: [a.id, b.id] });
    expect(full.status).toBe(200);
    expect(obj(full.body)).toMatchObject({ canceled: [a.id, b.id], failed: [] });
    expect(typeof obj(full.body)['message']).toBe('string');
    const c = await rest();
    const partial = await post('/orders/batch-cancel', { orderIds: [c.id, a.id] });
    expect(partial.status).toBe(207);
    expect(obj(partial.body)['canceled']).toEqual([c.id]);
    const failed = arr(obj(partial.body)['failed']).map(obj);
    expect(failed.map((f) => Object.keys(f).sort())).toEqual([['message', 'orderId', 'reason']]);
    expect(failed[0]!['orderId']).toBe(a.id);
  });

  it('by clientOrderIds: canceled and failed name the clientOrderIds; an unknown one or another profile\'s is a failure', async () => {
    const a = await rest();
    const bobs = 'om-conf-bob-1';
    placedId(await placeOrder(t.sim, BOB, { market: t.market, side: 'BUY', priceTicks: 110, sizeRaw: 1_000_000, clientOrderId: bobs }));
    const r = await post('/orders/batch-cancel', { clientOrderIds: [a.coid, 'om-conf-none', bobs] });
    expect(r.status).toBe(207);
    expect(obj(r.body)['canceled']).toEqual([a.coid]);
    const failed = arr(obj(r.body)['failed']).map(obj);
    expect(failed.map((f) => [f['clientOrderId'], f['reason']])).toEqual([
      ['om-conf-none', 'ORDER_NOT_FOUND'],
      // Another profile's clientOrderId names no order of the caller's.
      [bobs, 'ORDER_NOT_FOUND'],
    ]);
    expect(statusOf(a.id)).toBe('CANCELED');
  });

  it('refuses a body with both lists, neither, an empty or oversized list, a bad id or another field: 400 naming it, nothing canceled', async () => {
    const a = await rest();
    const tooMany = Array.from({ length: 51 }, (_, i) => `om-x-${i}`);
    for (const bad of [{}, { orderIds: [a.id], clientOrderIds: [a.coid] }, { orderIds: [] }, { clientOrderIds: tooMany }, { orderIds: ['nope'] }, { orderIds: [a.id], more: 1 }, { clientOrderIds: [''] }]) {
      const r = await post('/orders/batch-cancel', bad);
      expect(r.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(Array.isArray(obj(r.body)['message'])).toBe(true);
    }
    expect(statusOf(a.id)).toBe('LIVE');
  });

  it('orders of several markets: canceled together by default (mixed); refused as a whole with `single`', async () => {
    const [x, y] = [await rest(t.market), await rest(t.market2)];
    t.sim.control.updateSettings({ batchCancelMarkets: 'single' });
    try {
      const refused = await post('/orders/batch-cancel', { orderIds: [x.id, y.id] });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(obj(refused.body)['message'])).toContain('orderIds');
      expect([statusOf(x.id), statusOf(y.id)]).toEqual(['LIVE', 'LIVE']);
    } finally {
      t.sim.control.updateSettings({ batchCancelMarkets: 'mixed' });
    }
    const mixed = await post('/orders/batch-cancel', { clientOrderIds: [x.coid, y.coid] });
    expect(mixed.status).toBe(200);
    expect(obj(mixed.body)['canceled']).toEqual([x.coid, y.coid]);
    expect([statusOf(x.id), statusOf(y.id)]).toEqual(['CANCELED', 'CANCELED']);
  });

  it('is refused with the 425 trading-mode body while disabled', async () => {
    const a = await rest();
    t.sim.control.setTradingMode({ mode: 'disabled', resumeAtMs: Date.now() + 60_000 });
    try {
      expect((await post('/orders/batch-cancel', { orderIds: [a.id] })).status).toBe(425);
      expect((await post('/orders/cancel', { clientOrderId: a.coid })).status).toBe(425);
    } finally {
      t.sim.control.clearTradingMode();
    }
    expect(statusOf(a.id)).toBe('LIVE');
  });
});

describe('POST /orders/cancel', () => {
  it('cancels one order by orderId or by clientOrderId; 404 for an unknown one; 400 for a bad body', async () => {
    const [a, b] = [await rest(), await rest()];
    expect(await post('/orders/cancel', { orderId: a.id }).then((r) => [r.status, r.body])).toEqual([200, { message: 'Order canceled successfully' }]);
    expect(await post('/orders/cancel', { clientOrderId: b.coid }).then((r) => [r.status, r.body])).toEqual([200, { message: 'Order canceled successfully' }]);
    expect([statusOf(a.id), statusOf(b.id)]).toEqual(['CANCELED', 'CANCELED']);
    expect((await post('/orders/cancel', { clientOrderId: 'om-conf-none' })).status).toBe(404);
    expect((await post('/orders/cancel', { orderId: a.id })).status).toBe(400);
    for (const bad of [{}, { orderId: a.id, clientOrderId: a.coid }, { orderId: 'nope' }, { clientOrderId: b.coid, more: 1 }]) {
      const r = await post('/orders/cancel', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(Array.isArray(obj(r.body)['message'])).toBe(true);
    }
  });
});
