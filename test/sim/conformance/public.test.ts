/**
 * Conformance: public REST endpoints over plain fetch — market listings, details (market and group form),
 * orderbook (exchange-facts §6), trade feed (paging, empty shape, caching, 400/404), categories,
 * maintenance status, profiles, and the framework error shapes (404 route, bad JSON, 413).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, obj } from '../../support/sim-http.js';
import { call, BOB, placedId, placeOrder, startTestSim, type TestSim } from '../fixtures.js';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(async () => {
  await t.sim.close();
});

const get = (path: string) => call(t.sim.baseUrl, 'GET', path);

const MARKET_FIELDS = [
  'id', 'conditionId', 'negRiskRequestId', 'description', 'title', 'proxyTitle', 'collateralToken', 'expirationDate',
  'createdAt', 'updatedAt', 'expirationTimestamp', 'categories', 'tags', 'status', 'expired', 'creator', 'volume',
  'volumeFormatted', 'tokens', 'prices', 'tradePrices', 'isRewardable', 'slug', 'tradeType', 'marketType', 'priorityIndex',
  'winningOutcomeIndex', 'payoutNumerators', 'metadata', 'settings', 'logo', 'source', 'properties', 'frequency',
  'subFrequency', 'feedEvents', 'venue',
];

describe('GET /markets/{slug}', () => {
  it('returns every Market field of the spec with the documented types', async () => {
    const r = await get(`/markets/${t.market.slug}`);
    expect(r.status).toBe(200);
    const m = obj(r.body);
    for (const field of MARKET_FIELDS) expect(m, field).toHaveProperty(field);
    expect(m['id']).toBe(t.market.id);
    expect(m['slug']).toBe(t.market.slug);
    expect(m['conditionId']).toMatch(/^0x[0-9a-f]{64}$/i);
    // Recorded from the live venue: a simple CLOB market has no adapter; logo and proxyTitle are null.
    expect(m['venue']).toEqual({ exchange: t.market.venue.exchange, adapter: null });
    expect(m['logo']).toBeNull();
    expect(m['proxyTitle']).toBeNull();
    expect(m['tokens']).toEqual({ yes: t.market.yesTokenId, no: t.market.noTokenId });
    expect(m['collateralToken']).toEqual({ address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6, symbol: 'USDC' });
    expect(m['expirationTimestamp']).toBe(t.market.expirationMs);
    expect(typeof m['expirationDate']).toBe('string');
    expect(m['status']).toBe('FUNDED');
    expect(m['expired']).toBe(false);
    expect(m['winningOutcomeIndex']).toBeNull();
    expect(m['payoutNumerators']).toBeNull();
    expect(m['tradeType']).toBe('clob');
    const settings = obj(m['settings']);
    expect(settings['minSize']).toBe(String(t.market.settings.minSizeRaw));
    expect(settings['maxSpread']).toBe(t.market.settings.maxSpreadTicks / 1000);
    expect(typeof settings['dailyReward']).toBe('string');
    expect(typeof settings['rewardsEpoch']).toBe('string');
    expect(Number(settings['rewardsEpoch'])).toBeCloseTo(t.market.settings.dailyRewardRaw / 1e6 / 1440, 12);
    expect(settings['c']).toBe(String(t.market.settings.c));
    expect(typeof m['isRewardable']).toBe('boolean');
    const metadata = obj(m['metadata']);
    // The recorded metadata: the spec's flags, the arbitrage marker under its recorded name, and openPrice (a string).
    for (const flag of ['fee', 'isBannered', 'shouldMarketMake', 'isPolyArbitrage']) expect(typeof metadata[flag]).toBe('boolean');
    expect(metadata['openPrice']).toMatch(/^0\.\d{1,3}$/);
    const tradePrices = obj(m['tradePrices']);
    expect(Object.keys(tradePrices).sort()).toEqual(['buy', 'sell']);
    expect(arr(m['prices'])).toHaveLength(2);
  });

  it('answers a group slug with the group form and its submarkets', async () => {
    const r = await get(`/markets/${t.groupSlug}`);
    expect(r.status).toBe(200);
    const g = obj(r.body);
    expect(g['slug']).toBe(t.groupSlug);
    expect(g['marketType']).toBe('group');
    const subs = arr(g['markets']).map(obj);
    const expected = t.sim.engine.group(t.groupSlug)!.markets.map((m) => m.slug);
    expect(subs.map((s) => s['slug'])).toEqual(expected);
    for (const s of subs) {
      expect(s['negRiskRequestId']).toMatch(/^0x/);
      expect(obj(s['venue'])['exchange']).toMatch(/^0x[0-9a-fA-F]{40}$/);
    }
  });

  it('404s an unknown slug with the framework body', async () => {
    const r = await get('/markets/no-such-market');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: 'Market not found', error: 'Not Found', statusCode: 404 });
  });

  it('400s an unknown query field', async () => {
    const r = await get(`/markets/${t.market.slug}?foo=1`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: [{ field: 'foo', message: 'property foo should not exist' }], error: 'Bad Request', statusCode: 400 });
  });
});

describe('GET /markets/active', () => {
  it('lists active markets and groups as {data, totalMarketsCount} with page/limit', async () => {
    const all = obj((await get('/markets/active?limit=25')).body);
    const data = arr(all['data']).map(obj);
    // 3 single markets + 1 group of 3 submarkets.
    expect(all['totalMarketsCount']).toBe(4);
    expect(data).toHaveLength(4);
    expect(data.filter((d) => d['marketType'] === 'group')).toHaveLength(1);
    const page2 = obj((await get('/markets/active?page=2&limit=3')).body);
    expect(arr(page2['data'])).toHaveLength(1);
    expect(page2['totalMarketsCount']).toBe(4);
    const beyond = obj((await get('/markets/active?page=9&limit=3')).body);
    expect(beyond).toEqual({ data: [], totalMarketsCount: 4 });
  });

  it('validates page and limit', async () => {
    // limit is 1..25 (the official client's ActiveMarketsParams: "max 25").
    for (const q of ['page=0', 'limit=0', 'limit=26', 'page=abc', 'limit=1.5', 'sortBy=volume', 'sortBy=newest&sortBy=newest']) {
      const r = await get(`/markets/active?${q}`);
      expect(r.status, q).toBe(400);
      expect(obj(r.body)['error']).toBe('Bad Request');
    }
  });

  it('filters by category id; ids map to names through categories[0]', async () => {
    const counts = obj((await get('/markets/categories/count')).body);
    const category = obj(counts['category']);
    expect(counts['totalCount']).toBe(6);
    const [firstId, firstCount] = Object.entries(category)[0]!;
    const r = await get(`/markets/active/${firstId}?limit=25`);
    expect(r.status).toBe(200);
    const listed = arr(obj(r.body)['data']).map(obj);
    const submarketCount = listed.reduce((n, e) => n + (e['marketType'] === 'group' ? arr(e['markets']).length : 1), 0);
    expect(submarketCount).toBe(firstCount);
    const one = obj(arr(obj((await get(`/markets/active/${firstId}?limit=1`)).body)['data'])[0]);
    expect(arr(one['categoryIds'])).toContain(Number(firstId));
    expect((await get('/markets/active/abc')).status).toBe(400);
    expect(obj((await get('/markets/active/999999')).body)).toEqual({ data: [], totalMarketsCount: 0 });
  });
});

describe('GET /markets/{slug}/orderbook and trades', () => {
  it('serves the YES book with NO folded in, levels sorted, raw sizes with their side (as recorded)', async () => {
    const slug = t.market2.slug;
    // Demo: BUY YES 10 @ 0.40 and BUY YES 5 @ 0.45; BUY NO 7 @ 0.40 = YES ask at 0.60.
    placedId(await placeOrder(t.sim, t.demo, { market: t.market2, side: 'BUY', priceTicks: 400, sizeRaw: 10_000_000 }));
    placedId(await placeOrder(t.sim, t.demo, { market: t.market2, side: 'BUY', priceTicks: 450, sizeRaw: 5_000_000 }));
    placedId(await placeOrder(t.sim, t.demo, { market: t.market2, outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 7_000_000 }));
    const r = await get(`/markets/${slug}/orderbook`);
    expect(r.status).toBe(200);
    const book = obj(r.body);
    expect(Object.keys(book).sort()).toEqual(['adjustedMidpoint', 'asks', 'bids', 'lastTradePrice', 'maxSpread', 'minSize', 'tokenId']);
    // Recorded from the live venue (venue-samples/rest-orderbook.jsonl): raw 1e6 sizes, BUY in bids, SELL in asks.
    expect(book['bids']).toEqual([{ price: 0.45, size: 5_000_000, side: 'BUY' }, { price: 0.4, size: 10_000_000, side: 'BUY' }]);
    expect(book['asks']).toEqual([{ price: 0.6, size: 7_000_000, side: 'SELL' }]);
    expect(book['tokenId']).toBe(t.market2.yesTokenId);
    expect(book['lastTradePrice']).toBeNull();
    // maxSpread a price-unit string, minSize a raw-unit string (recorded).
    expect(book['maxSpread']).toBe(String(t.market2.settings.maxSpreadTicks / 1000));
    expect(book['minSize']).toBe(String(t.market2.settings.minSizeRaw));
    expect(typeof book['adjustedMidpoint'] === 'number' || book['adjustedMidpoint'] === null).toBe(true);
    expect((await get(`/markets/${t.groupSlug}/orderbook`)).status).toBe(404);
    expect((await get('/markets/nope/orderbook')).status).toBe(404);
  });

  it('pages MINED trades newest first with cache headers; empty page shape; 400/404', async () => {
    const slug = t.market.slug;
    const empty = await get(`/markets/${slug}/events`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ events: [], totalPages: 0 });
    expect(empty.headers.get('cache-control')).toBe('public, max-age=30, s-maxage=30, stale-while-revalidate=30');

    // Three trades: demo rests BUY YES, bob takes with BUY NO (minting a pair).
    for (const ticks of [500, 510, 520]) {
      placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: ticks, sizeRaw: 2_000_000 }));
      placedId(await placeOrder(t.sim, BOB, { market: t.market, outcome: 'NO', side: 'BUY', priceTicks: 1000 - ticks, sizeRaw: 2_000_000 }));
    }
    const page = await (async () => {
      for (let i = 0; i < 200; i++) {
        const r = await get(`/markets/${slug}/events?limit=2`);
        if (obj(r.body)['totalRows'] === 3) return r;
        await new Promise((res) => setTimeout(res, 10));
      }
      throw new Error('trades never mined');
    })();
    const body = obj(page.body);
    expect(body['limit']).toBe(2);
    expect(body['page']).toBe(1);
    expect(body['totalPages']).toBe(2);
    const events = arr(body['events']).map(obj);
    expect(events).toHaveLength(2);
    const e = events[0]!;
    expect(Object.keys(e).sort()).toEqual(['createdAt', 'makerAmount', 'matchedSize', 'price', 'side', 'takerAmount', 'title', 'tokenId', 'txHash']);
    expect(e['matchedSize']).toBe('2000000');
    expect(typeof e['price']).toBe('number');
    expect([0, 1]).toContain(e['side']);
    expect(Date.parse(String(events[0]!['createdAt']))).toBeGreaterThanOrEqual(Date.parse(String(events[1]!['createdAt'])));
    const last = obj((await get(`/markets/${slug}/events?page=2&limit=2`)).body);
    expect(arr(last['events'])).toHaveLength(1);
    expect((await get(`/markets/${slug}/events?page=3&limit=2`)).body).toEqual({ events: [], totalPages: 0 });
    const book = obj((await get(`/markets/${slug}/orderbook`)).body);
    expect(book['lastTradePrice']).toBe(0.52);

    for (const q of ['page=0', 'limit=0', 'limit=101', 'foo=bar']) {
      const bad = await get(`/markets/${slug}/events?${q}`);
      expect(bad.status, q).toBe(400);
      expect(obj(bad.body)['statusCode']).toBe(400);
    }
    const missing = await get('/markets/no-such/events');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=300, stale-while-revalidate=300');
    const group = await get(`/markets/${t.groupSlug}/events`);
    expect(group.status).toBe(200);
    expect(group.body).toEqual({ events: [], totalPages: 0 });
  });

  it('combines the trades of every submarket for a group slug', async () => {
    const subs = t.sim.engine.group(t.groupSlug)!.markets;
    for (const sub of subs.slice(0, 2)) {
      placedId(await placeOrder(t.sim, t.demo, { market: sub, side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000 }));
      placedId(await placeOrder(t.sim, BOB, { market: sub, outcome: 'NO', side: 'BUY', priceTicks: 700, sizeRaw: 1_000_000 }));
    }
    const body = await (async () => {
      for (let i = 0; i < 200; i++) {
        const r = obj((await get(`/markets/${t.groupSlug}/events`)).body);
        if (r['totalRows'] === 2) return r;
        await new Promise((res) => setTimeout(res, 10));
      }
      throw new Error('group trades never mined');
    })();
    const tokens = arr(body['events']).map((e) => obj(e)['tokenId']);
    const marketOf = (token: unknown) => subs.findIndex((m) => m.yesTokenId === token || m.noTokenId === token);
    expect(tokens.map(marketOf).sort()).toEqual([0, 1]);
  });
});

describe('other public endpoints', () => {
  it('GET /maintenance/status has active and scheduled lists', async () => {
    expect((await get('/maintenance/status')).body).toEqual({ active: [], scheduled: [] });
  });

  it('GET /profiles/{address} accepts checksummed or lowercase, 400 malformed or bad checksum, 404 unknown', async () => {
    const r = await get(`/profiles/${BOB.address}`);
    expect(r.status).toBe(200);
    const p = obj(r.body);
    expect(p['id']).toBe(BOB.profileId);
    expect(p['account']).toBe(BOB.address);
    expect(obj(p['rank'])['feeRateBps']).toBe(300);
    expect(obj((await get(`/profiles/${BOB.address.toLowerCase()}`)).body)['id']).toBe(BOB.profileId);
    expect((await get('/profiles/0x123')).status).toBe(400);
    const flipped = BOB.address.slice(0, 2) + [...BOB.address.slice(2)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    if (flipped.slice(2) !== flipped.slice(2).toUpperCase()) expect((await get(`/profiles/${flipped}`)).status).toBe(400);
    expect((await get(`/profiles/0x${'ab'.repeat(20)}`)).status).toBe(404);
  });

  it('answers unknown routes with the framework 404 body', async () => {
    const r = await get('/no/such/route');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: 'Cannot GET /no/such/route', error: 'Not Found', statusCode: 404 });
    const wrongMethod = await call(t.sim.baseUrl, 'PUT', '/markets/active');
    expect(wrongMethod.status).toBe(404);
  });

  it('answers bad JSON with 400 and an oversized body with 413, framework bodies, and keeps serving', async () => {
    const bad = await call(t.sim.baseUrl, 'POST', '/orders', { creds: t.demo.creds, rawBody: '{"order": ' });
    expect(bad.status).toBe(400);
    expect(obj(bad.body)['error']).toBe('Bad Request');
    expect(String(obj(bad.body)['message'])).toMatch(/^Invalid JSON body/);
    const huge = await call(t.sim.baseUrl, 'POST', '/orders', { creds: t.demo.creds, rawBody: JSON.stringify({ pad: 'x'.repeat(1_100_000) }) });
    expect(huge.status).toBe(413);
    expect(obj(huge.body)).toMatchObject({ error: 'Payload Too Large', statusCode: 413 });
    expect((await get('/maintenance/status')).status).toBe(200);
  });
});
