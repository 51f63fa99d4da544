/**
 * Conformance: the unit of socket `orderbookUpdate` level sizes is configurable (the live venue's is not recorded):
 * `socketBookSizeUnit` at start (`raw` 1e6 integers or `shares`), switchable at run time with
 * `PUT /_sim/socket/book-size-unit {unit}` (reported by `GET /_sim/state`); a bad unit is a 400 that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, obj } from '../../support/sim-http.js';
import { call, connectMarkets, placedId, placeOrder, startTestSim, type TestSim } from '../fixtures.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim({ socketBookSizeUnit: 'raw' });
});
afterAll(async () => {
  await t.sim.close();
});

const admin = (method: string, path: string, body?: unknown) => call(t.sim.baseUrl, method, `/_sim${path}`, body === undefined ? {} : { body });
const bids = (frame: unknown) => arr(obj(obj(frame)['orderbook'])['bids']).map(obj);

describe('socket book size unit', () => {
  it('sends raw sizes when started with raw, shares after switching, and refuses a bad unit', async () => {
    expect(obj((await admin('GET', '/state')).body)['socketBookSizeUnit']).toBe('raw');
    const s = await connectMarkets(t.sim.socketUrl);
    try {
      s.socket.emit('subscribe_market_prices', { marketSlugs: [t.market.slug] });
      await s.waitFor('orderbookUpdate');
      let mark = s.mark();
      placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: 333, sizeRaw: 2_500_000 }));
      const raw = await s.waitFor('orderbookUpdate', (p) => bids(p).length > 0, 3_000, mark);
      expect(bids(raw)).toEqual([{ price: 0.333, size: 2_500_000, side: 'BUY' }]);

      const bad = await admin('PUT', '/socket/book-size-unit', { unit: 'lots' });
      expect(bad.status).toBe(400);
      expect(obj((await admin('GET', '/state')).body)['socketBookSizeUnit']).toBe('raw');

      expect((await admin('PUT', '/socket/book-size-unit', { unit: 'shares' })).body).toEqual({ unit: 'shares' });
      mark = s.mark();
      placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: 332, sizeRaw: 1_000_000 }));
      const shares = await s.waitFor('orderbookUpdate', (p) => bids(p).length > 1, 3_000, mark);
      expect(bids(shares)).toEqual([
        { price: 0.333, size: 2.5, side: 'BUY' },
        { price: 0.332, size: 1, side: 'BUY' },
      ]);
      // The REST book stays raw whatever the socket unit.
      const rest = obj((await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}/orderbook`)).body);
      expect(arr(rest['bids'])[0]).toEqual({ price: 0.333, size: 2_500_000, side: 'BUY' });
    } finally {
      s.close();
    }
  });
});
