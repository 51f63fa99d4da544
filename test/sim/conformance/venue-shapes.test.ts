/**
 * Conformance: the simulator answers in the LIVE venue's shapes. The REST orderbook and the Market object are
 * compared field by field (presence and JSON type) with the answers recorded from the live venue
 * (shared/venue-samples, read through test/contract/samples.ts); `GET /markets/active` takes the
 * official client's `sortBy` values and orders accordingly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, obj, waitUntil } from '../../support/sim-http.js';
import { call, BOB, placedId, placeOrder, startTestSim, type TestSim } from '../fixtures.js';
import type { SimMarket } from '../../../src/sim/engine/index.js';
import { activeMarketRecordings, orderbookRecordings } from '../../contract/samples.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim({ markets: 8 });
});
afterAll(async () => {
  await t.sim.close();
});

const get = (path: string) => call(t.sim.baseUrl, 'GET', path);

function firstRecorded(which: 'orderbook' | 'market'): Record<string, unknown> {
  const record = which === 'orderbook' ? orderbookRecordings()[0] : activeMarketRecordings()[0];
  if (record === undefined) throw new Error(`no ${which} recording`);
  return obj(record.body);
}

/** JSON type of a value: 'null', 'array', 'integer', 'number', 'string', 'boolean', 'object'. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

describe('REST orderbook, as recorded', () => {
  it('has the recorded fields with the recorded JSON types, raw sizes and a side per level', async () => {
    placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: 480, sizeRaw: 1_234_567_000 }));
    placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: 470, sizeRaw: 5_000_000 }));
    placedId(await placeOrder(t.sim, BOB, { market: t.market, outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 7_000_000 }));
    placedId(await placeOrder(t.sim, BOB, { market: t.market, outcome: 'NO', side: 'BUY', priceTicks: 380, sizeRaw: 2_000_000 }));
    // A trade, so that lastTradePrice is a number as in the first recording.
    placedId(await placeOrder(t.sim, BOB, { market: t.market, outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 1_000_000 }));
    const recorded = firstRecorded('orderbook');
    const ours = obj((await get(`/markets/${t.market.slug}/orderbook`)).body);
    expect(Object.keys(ours).sort()).toEqual(Object.keys(recorded).sort());
    for (const key of ['tokenId', 'maxSpread', 'minSize', 'bids', 'asks']) expect(jsonType(ours[key]), key).toBe(jsonType(recorded[key]));
    expect(['number', 'integer']).toContain(jsonType(ours['adjustedMidpoint']));
    expect(['number', 'integer']).toContain(jsonType(ours['lastTradePrice']));
    const recordedLevel = obj(arr(recorded['bids'])[0]);
    const bids = arr(ours['bids']).map(obj);
    const asks = arr(ours['asks']).map(obj);
    for (const level of [...bids, ...asks]) {
      expect(Object.keys(level).sort()).toEqual(Object.keys(recordedLevel).sort());
      expect(jsonType(level['size'])).toBe('integer');
      expect(Math.round(Number(level['price']) * 1000)).toBeCloseTo(Number(level['price']) * 1000, 9);
    }
    expect(bids.every((l) => l['side'] === 'BUY')).toBe(true);
    expect(asks.every((l) => l['side'] === 'SELL')).toBe(true);
    // Best first on both sides; the odd size is sent raw (1234.567 shares minus the 1 share traded).
    expect(bids.map((l) => l['price'])).toEqual([0.48, 0.47]);
    expect(bids[0]?.['size']).toBe(1_233_567_000);
    expect(asks.map((l) => l['price'])).toEqual([0.6, 0.62]);
    expect(ours['lastTradePrice']).toBe(0.48);
    expect(ours['minSize']).toBe(String(t.market.settings.minSizeRaw));
    expect(Number(ours['maxSpread'])).toBe(t.market.settings.maxSpreadTicks / 1000);
  });
});

describe('Market object, as recorded', () => {
  it('carries the recorded nulls, status, settings and metadata types', async () => {
    const recorded = firstRecorded('market');
    const listed = arr(obj((await get('/markets/active?limit=25')).body)['data']).map(obj);
    const ours = listed.find((m) => m['slug'] === t.market.slug);
    if (!ours) throw new Error('fixture market not listed');
    for (const key of ['logo', 'proxyTitle', 'status', 'expirationTimestamp', 'prices', 'negRiskRequestId', 'winningOutcomeIndex']) {
      expect(jsonType(ours[key]), key).toBe(jsonType(recorded[key]));
    }
    expect(ours['status']).toBe('FUNDED');
    expect(obj(ours['venue'])['adapter']).toBeNull();
    expect(Number(ours['expirationTimestamp'])).toBeGreaterThan(1e12); // milliseconds
    const rs = obj(recorded['settings']);
    const os = obj(ours['settings']);
    for (const key of Object.keys(rs)) expect(jsonType(os[key]), `settings.${key}`).toBe(jsonType(rs[key]) === 'integer' ? jsonType(os[key]) : jsonType(rs[key]));
    expect(Object.keys(obj(ours['metadata'])).sort()).toEqual(Object.keys(obj(recorded['metadata'])).sort());
    for (const [key, value] of Object.entries(obj(recorded['metadata']))) expect(jsonType(obj(ours['metadata'])[key]), `metadata.${key}`).toBe(jsonType(value));
    // NegRisk submarkets keep their adapter.
    const group = listed.find((m) => m['marketType'] === 'group');
    for (const sub of arr(group?.['markets']).map(obj)) expect(obj(sub['venue'])['adapter']).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});

describe('GET /markets/active sortBy', () => {
  const singles = (): SimMarket[] => t.sim.engine.markets().filter((m) => m.groupSlug === undefined);
  const order = async (sortBy: string): Promise<Record<string, unknown>[]> => {
    const r = await get(`/markets/active?sortBy=${sortBy}&limit=25`);
    expect(r.status, sortBy).toBe(200);
    return arr(obj(r.body)['data']).map(obj);
  };
  const ids = (data: readonly Record<string, unknown>[]) => data.filter((d) => d['marketType'] === 'single').map((d) => Number(d['id']));
  const byKey = (key: (m: SimMarket) => number, direction: 1 | -1) =>
    [...singles()].sort((a, b) => direction * (key(a) - key(b)) || a.id - b.id).map((m) => m.id);

  it('accepts every value the official client offers and orders by it; anything else is 400', async () => {
    const last = singles()[singles().length - 1]!;
    // Volume and resting liquidity in the last single market make it first for high_value and liquidity.
    placedId(await placeOrder(t.sim, t.demo, { market: last, side: 'BUY', priceTicks: 300, sizeRaw: 5_000_000_000 }));
    placedId(await placeOrder(t.sim, t.demo, { market: last, side: 'BUY', priceTicks: 310, sizeRaw: 3_000_000 }));
    placedId(await placeOrder(t.sim, BOB, { market: last, outcome: 'NO', side: 'BUY', priceTicks: 690, sizeRaw: 3_000_000 }));
    // Volume counts once the trade is mined.
    await waitUntil(() => ((t.sim.engine.market(last.slug)?.volumeRaw ?? 0) > 2_000_000 ? true : undefined));

    expect(ids(await order('lp_rewards'))).toEqual(byKey((m) => (m.isRewardable ? m.settings.dailyRewardRaw : 0), -1));
    expect(ids(await order('ending_soon'))).toEqual(byKey((m) => m.expirationMs, 1));
    expect(ids(await order('newest'))).toEqual(byKey((m) => m.createdAtMs, -1));
    const highValue = ids(await order('high_value'));
    expect(highValue[0]).toBe(last.id);
    expect(highValue).toEqual(byKey((m) => m.volumeRaw, -1));
    expect(ids(await order('liquidity'))[0]).toBe(last.id);
    // The group is one entry in every order.
    for (const sortBy of ['lp_rewards', 'ending_soon', 'newest', 'high_value', 'liquidity']) {
      expect((await order(sortBy)).filter((d) => d['marketType'] === 'group'), sortBy).toHaveLength(1);
    }
    for (const bad of ['volume', 'LP_REWARDS', '']) {
      const r = await get(`/markets/active?sortBy=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(arr(obj(r.body)['message']).map((m) => obj(m)['field'])).toEqual(['sortBy']);
    }
    expect((await get('/markets/active?limit=25&page=1&sortBy=newest')).status).toBe(200);
    expect((await get('/markets/active?limit=26')).status).toBe(400);
  });
});
