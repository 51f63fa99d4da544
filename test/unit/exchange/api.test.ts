import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ExchangeApi } from '../../../src/exchange/api.js';
import { computeSignature, signingMessage } from '../../../src/exchange/auth.js';
import { connectExchange, credentialsFromEnv } from '../../../src/exchange/client.js';
import { isDuplicateOrderError, ExchangeOutcomeUnknownError, RequestInputError } from '../../../src/exchange/errors.js';
import { RequestLimiter } from '../../../src/exchange/limiter.js';
import { orderRequestBody, type SignedOrder } from '../../../src/exchange/signer.js';
import { headerOf, type RecordedRequest } from '../../support/recording-server.js';
import { rejection, signedTestOrder, TEST_ORDER_KEY, TEST_VENUE, useTransportRig } from '../../support/transport-rig.js';

const SECRET = Buffer.from('another-secret').toString('base64');
const CREDS = { tokenId: 'tok-9', secret: SECRET };
const KEY = TEST_ORDER_KEY;
const ADDRESS = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const VENUE = TEST_VENUE;
const ORDER_ID = '0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d';
const ORDER_ID_2 = '1c6c3b5f-7a1b-4d2f-8e3c-4a5b6c7d8e9f';
const CONDITION = `0x${'cd'.repeat(32)}`;

const rig = useTransportRig(CREDS);

function api(options: { profileId?: number; onBehalfOf?: number } = { profileId: 9 }): ExchangeApi {
  return new ExchangeApi({ transport: rig.transport(), ...options });
}

function last(): RecordedRequest {
  const request = rig.server.requests.at(-1);
  if (!request) throw new Error('no request arrived');
  return request;
}

function isSigned(request: RecordedRequest): boolean {
  const timestamp = headerOf(request.headers, 'lmts-timestamp');
  if (timestamp === undefined) return false;
  return headerOf(request.headers, 'lmts-signature') === computeSignature(SECRET, signingMessage(timestamp, request.method, request.url, request.body));
}

const MARKET = {
  id: 5,
  slug: 'btc-100k',
  title: 'BTC above 100k?',
  conditionId: CONDITION,
  tokens: { yes: '101', no: '102' },
  venue: { exchange: VENUE, adapter: VENUE },
  isRewardable: false,
  status: 'FUNDED',
};

const USER_ORDER = {
  id: ORDER_ID,
  ownerId: 9,
  marketId: '5',
  token: '101',
  type: 'GTC',
  status: 'LIVE',
  side: 'SELL',
  makerAmount: '2000000',
  takerAmount: '1100000',
  price: '0.55',
  originalSize: '2000000',
  remainingSize: '2000000',
  createdAt: '2026-03-23T12:00:00.000Z',
};

function signedOrder(clientOrderId?: string): Promise<SignedOrder> {
  return signedTestOrder(rig.time.now, clientOrderId);
}

describe('public reads (unsigned)', () => {
  it('GET /markets/{slug}', async () => {
    rig.server.setHandler(() => ({ body: MARKET }));
    const market = await api().getMarket('btc-100k');
    expect(market).toMatchObject({ slug: 'btc-100k', venue: { exchange: VENUE }, tokens: { yes: '101', no: '102' } });
    expect([last().method, last().url, isSigned(last())]).toEqual(['GET', '/markets/btc-100k', false]);
  });

  it('GET /markets/active and /markets/active/{categoryId} with paging', async () => {
    rig.server.setHandler(() => ({ body: { data: [MARKET], totalMarketsCount: 1 } }));
    expect((await api().getActiveMarkets({ page: 2, limit: 10 })).markets).toHaveLength(1);
    expect(last().url).toBe('/markets/active?page=2&limit=10');
    await api().getActiveMarkets({ categoryId: 4 });
    expect(last().url).toBe('/markets/active/4');
    await expect(api().getActiveMarkets({ page: 0 })).rejects.toThrow(RequestInputError);
    // The official client's ActiveMarketsParams: limit up to 25.
    await expect(api().getActiveMarkets({ limit: 26 })).rejects.toThrow(RequestInputError);
  });

  it('GET /markets/{slug}/orderbook → ticks and raw sizes (gzip answers decoded)', async () => {
    // The live venue's shape (test/contract): raw 1e6 integer sizes with `side`, maxSpread and minSize strings.
    const book = {
      bids: [{ price: 0.45, size: 10_000_000, side: 'BUY' }],
      asks: [{ price: '0.47', size: '2500000', side: 'SELL' }],
      tokenId: '101',
      adjustedMidpoint: 0.46,
      maxSpread: '0.05',
      minSize: '1000000',
      lastTradePrice: null,
    };
    rig.server.setHandler(() => ({ rawBody: gzipSync(JSON.stringify(book)), headers: { 'content-encoding': 'gzip' } }));
    const snapshot = await api().getOrderbook('btc-100k');
    expect(snapshot.bids).toEqual([{ priceTicks: 450, sizeRaw: 10_000_000 }]);
    expect(snapshot.asks).toEqual([{ priceTicks: 470, sizeRaw: 2_500_000 }]);
    expect(last().url).toBe('/markets/btc-100k/orderbook');
  });

  it('GET /markets/{slug}/orderbook goes through the limiter at read priority unless asked to go ahead of placements', async () => {
    rig.server.setHandler(() => ({ body: { bids: [], asks: [] } }));
    const limiter = new RequestLimiter({ minTimeMs: 0 }, { now: rig.time.now, setTimer: rig.time.setTimer });
    const priorities: string[] = [];
    limiter.observe({ onQueueWait: (priority) => void priorities.push(priority) });
    const client = new ExchangeApi({ transport: rig.transport({ limiter }), profileId: 9 });
    await client.getOrderbook('btc-100k');
    await client.getOrderbook('btc-100k', { priority: 'place' });
    expect(priorities).toEqual(['read', 'place']);
  });

  it('the listing of own orders goes at read priority, at cancel priority when it confirms cancels; status lookups at probe priority', async () => {
    rig.server.setHandler((request) => ({ body: request.url.startsWith('/orders/status/batch') ? { results: [] } : [] }));
    const limiter = new RequestLimiter({ minTimeMs: 0 }, { now: rig.time.now, setTimer: rig.time.setTimer });
    const priorities: string[] = [];
    limiter.observe({ onQueueWait: (priority) => void priorities.push(priority) });
    const client = new ExchangeApi({ transport: rig.transport({ limiter }), profileId: 9 });
    await client.getUserOrders('btc-100k', { statuses: ['LIVE'] });
    await client.getUserOrders('btc-100k', { statuses: ['LIVE'] }, { priority: 'cancel' });
    await client.getOrderStatuses([{ clientOrderId: 'mm1-x' }]);
    expect(priorities).toEqual(['read', 'cancel', 'probe']);
  });

  it('GET /markets/{slug}/events with page and limit, including the empty-page shape', async () => {
    rig.server.setHandler(() => ({ body: { events: [], totalPages: 0 } }));
    const page = await api().getMarketTrades('btc-100k', { page: 3, limit: 50 });
    expect(page).toEqual({ trades: [], page: 3, limit: null, totalPages: 0, totalRows: 0, skipped: [] });
    expect([last().url, isSigned(last())]).toEqual(['/markets/btc-100k/events?page=3&limit=50', false]);
    await expect(api().getMarketTrades('btc-100k', { limit: 101 })).rejects.toThrow(RequestInputError);
  });

  it('GET /maintenance/status', async () => {
    rig.server.setHandler(() => ({ body: { active: [{ mode: 'cancel_only', resumeAt: '2026-03-23T13:00:00Z' }], scheduled: [] } }));
    const status = await api().getMaintenanceStatus();
    expect([status.mode, status.resumeAtMs]).toEqual(['cancel_only', Date.parse('2026-03-23T13:00:00Z')]);
    expect([last().url, isSigned(last())]).toEqual(['/maintenance/status', false]);
  });
});

describe('authenticated reads (signed)', () => {
  it('GET /markets/{slug}/user-orders with repeated statuses (upper-cased) and limit', async () => {
    rig.server.setHandler(() => ({ body: [USER_ORDER] }));
    const orders = await api().getUserOrders('btc-100k', { statuses: ['live', 'Matched'], limit: 50 });
    expect(orders[0]).toMatchObject({ id: ORDER_ID, side: 'SELL', priceTicks: 550, remainingSizeRaw: 2_000_000 });
    expect(last().url).toBe('/markets/btc-100k/user-orders?statuses=LIVE&statuses=MATCHED&limit=50');
    expect(isSigned(last())).toBe(true);
    expect(headerOf(last().headers, 'x-on-behalf-of')).toBeUndefined();
  });

  it('rejects bad statuses and limits before sending anything', async () => {
    const a = api();
    const status = await rejection(a.getUserOrders('btc-100k', { statuses: ['OPEN'] }), RequestInputError);
    expect([status.field, status.value]).toEqual(['statuses[0]', 'OPEN']);
    expect((await rejection(a.getUserOrders('btc-100k', { limit: 201 }), RequestInputError)).field).toBe('limit');
    expect((await rejection(a.getUserOrders('', {}), RequestInputError)).field).toBe('slug');
    expect(rig.server.requests).toHaveLength(0);
  });

  it('GET /profiles/{address} and GET /portfolio/positions', async () => {
    rig.server.setHandler((r) => ({ body: r.pathname.startsWith('/profiles') ? { id: 9, account: ADDRESS, rank: { feeRateBps: 100 } } : { clob: [] } }));
    expect(await api().getProfile(ADDRESS)).toEqual({ id: 9, account: ADDRESS, feeRateBps: 100 });
    expect([last().url, isSigned(last())]).toEqual([`/profiles/${ADDRESS}`, true]);
    expect(await api().getPositions()).toEqual([]);
    expect([last().url, isSigned(last())]).toEqual(['/portfolio/positions', true]);
    await expect(api().getProfile('0x123')).rejects.toThrow(RequestInputError);
  });

  it('POST /orders/status/batch with 1–50 lookups by orderId or clientOrderId', async () => {
    rig.server.setHandler(() => ({ body: { results: [{ index: 0, status: 'not_found', orderId: ORDER_ID }, { index: 1, status: 'found', clientOrderId: 'om-1', data: { order: { id: ORDER_ID_2, status: 'LIVE' } } }] } }));
    const results = await api().getOrderStatuses([{ orderId: ORDER_ID }, { clientOrderId: 'om-1' }]);
    expect(results.map((r) => [r.status, r.orderId])).toEqual([['not_found', ORDER_ID], ['found', ORDER_ID_2]]);
    expect(last().body).toBe(JSON.stringify({ items: [{ orderId: ORDER_ID }, { clientOrderId: 'om-1' }] }));
    expect(isSigned(last())).toBe(true);
    await expect(api().getOrderStatuses([])).rejects.toThrow(RequestInputError);
    await expect(api().getOrderStatuses(Array.from({ length: 51 }, () => ({ orderId: ORDER_ID })))).rejects.toThrow(RequestInputError);
    await expect(api().getOrderStatuses([{ orderId: 'not-a-uuid' }])).rejects.toThrow(RequestInputError);
  });
});

describe('trading', () => {
  it('POST /orders sends the exact body with ownerId and returns the placement', async () => {
    const order = await signedOrder('om-btc-bid-0-1');
    rig.server.setHandler(() => ({
      status: 201,
      body: { order: { id: ORDER_ID, clientOrderId: 'om-btc-bid-0-1' }, makerMatches: [], execution: { matched: false, settlementStatus: 'UNMATCHED' } },
    }));
    const result = await api().placeOrder(order);
    expect(result.orderId).toBe(ORDER_ID);
    expect(result.execution?.settlementStatus).toBe('UNMATCHED');
    expect(last().url).toBe('/orders');
    expect(last().body).toBe(JSON.stringify(orderRequestBody(order, 9, rig.time.now())));
    expect(isSigned(last())).toBe(true);
  });

  it('POST /orders: 409 is "already accepted"; an unreadable 201 is an unknown outcome', async () => {
    const order = await signedOrder('om-btc-bid-0-2');
    rig.server.enqueue({ status: 409, body: { message: 'Duplicate clientOrderId', error: 'Conflict', statusCode: 409 } });
    const duplicate = await api().placeOrder(order).catch((error: unknown) => error);
    expect(isDuplicateOrderError(duplicate)).toBe(true);
    rig.server.enqueue({ status: 201, body: { order: { status: 'LIVE' } } });
    const unknown = await rejection(api().placeOrder(order), ExchangeOutcomeUnknownError);
    expect([unknown.reason, unknown.clientOrderId, unknown.status]).toEqual(['unparseable-answer', 'om-btc-bid-0-2', 201]);
    expect(rig.server.requests).toHaveLength(2);
  });

  it('POST /orders needs a profile id', async () => {
    const error = await rejection(api({}).placeOrder(await signedOrder()), RequestInputError);
    expect(error.field).toBe('profileId');
    expect(rig.server.requests).toHaveLength(0);
  });

  it('DELETE /orders/{orderId}, only for UUID v4 ids', async () => {
    rig.server.setHandler(() => ({ body: { message: 'Delayed order canceled successfully' } }));
    expect(await api().cancelOrder(ORDER_ID)).toEqual({ message: 'Delayed order canceled successfully', delayed: true });
    expect([last().method, last().url, isSigned(last())]).toEqual(['DELETE', `/orders/${ORDER_ID}`, true]);
    const error = await rejection(api().cancelOrder('12345'), RequestInputError);
    expect([error.field, error.value]).toEqual(['orderId', '12345']);
    expect(rig.server.requests).toHaveLength(1);
  });

  it('POST /orders/cancel-batch: 207 partial', async () => {
    rig.server.setHandler(() => ({ status: 207, body: { message: 'Some orders failed', canceled: [ORDER_ID], failed: [{ orderId: ORDER_ID_2, reason: 'NOT_FOUND', message: 'Order not found' }] } }));
    const result = await api().cancelOrders([ORDER_ID, ORDER_ID_2]);
    expect(result).toMatchObject({ status: 207, partial: true, canceled: [ORDER_ID], failed: [{ orderId: ORDER_ID_2, reason: 'NOT_FOUND' }] });
    expect(last().body).toBe(JSON.stringify({ orderIds: [ORDER_ID, ORDER_ID_2] }));
    await expect(api().cancelOrders([])).rejects.toThrow(RequestInputError);
  });

  it('DELETE /orders/all/{slug}', async () => {
    rig.server.setHandler(() => ({ body: { message: 'ok', canceled: [ORDER_ID], failed: [] } }));
    expect((await api().cancelAll('btc-100k')).canceled).toEqual([ORDER_ID]);
    expect([last().method, last().url, isSigned(last())]).toEqual(['DELETE', '/orders/all/btc-100k', true]);
  });

  it('POST /portfolio/redeem', async () => {
    rig.server.setHandler(() => ({ status: 201, body: { txHash: '0xabc' } }));
    expect(await api().redeem(CONDITION)).toEqual({ txHash: '0xabc' });
    expect(last().body).toBe(JSON.stringify({ conditionId: CONDITION }));
    await expect(api().redeem('0x12')).rejects.toThrow(RequestInputError);
  });
});

describe('delegation (on behalf of a managed sub-account)', () => {
  it('reads carry the x-on-behalf-of header', async () => {
    rig.server.setHandler((r) => ({ body: r.pathname.endsWith('user-orders') ? [] : r.pathname.includes('status') ? { results: [] } : { clob: [] } }));
    const delegated = api({ profileId: 9, onBehalfOf: 77 });
    await delegated.getUserOrders('btc-100k');
    expect(headerOf(last().headers, 'x-on-behalf-of')).toBe('77');
    await delegated.getPositions();
    expect(headerOf(last().headers, 'x-on-behalf-of')).toBe('77');
    await delegated.getOrderStatuses([{ clientOrderId: 'x' }]);
    expect(headerOf(last().headers, 'x-on-behalf-of')).toBe('77');
    expect(rig.server.requests.every(isSigned)).toBe(true);
  });

  it('cancels carry onBehalfOf in the signed query', async () => {
    rig.server.setHandler(() => ({ body: { message: 'Order canceled successfully', canceled: [], failed: [] } }));
    const delegated = api({ onBehalfOf: 77 });
    await delegated.cancelOrder(ORDER_ID);
    expect(last().url).toBe(`/orders/${ORDER_ID}?onBehalfOf=77`);
    await delegated.cancelOrders([ORDER_ID]);
    expect(last().url).toBe('/orders/cancel-batch?onBehalfOf=77');
    await delegated.cancelAll('btc-100k');
    expect(last().url).toBe('/orders/all/btc-100k?onBehalfOf=77');
    expect(rig.server.requests.every(isSigned)).toBe(true);
    expect(rig.server.requests.some((r) => headerOf(r.headers, 'x-on-behalf-of') !== undefined)).toBe(false);
  });

  it('redeem carries onBehalfOf in the body; a placement uses the sub-account as ownerId', async () => {
    rig.server.setHandler((r) => ({ status: 201, body: r.pathname === '/orders' ? { order: { id: ORDER_ID } } : {} }));
    const delegated = api({ profileId: 9, onBehalfOf: 77 });
    await delegated.redeem(CONDITION);
    expect(last().body).toBe(JSON.stringify({ conditionId: CONDITION, onBehalfOf: 77 }));
    const order = await signedOrder();
    await delegated.placeOrder(order);
    expect(last().body).toBe(JSON.stringify(orderRequestBody(order, 77, rig.time.now())));
    expect(last().url).toBe('/orders');
  });

  it('public reads are never delegated, and the profile id range is enforced', async () => {
    rig.server.setHandler(() => ({ body: MARKET }));
    await api({ onBehalfOf: 77 }).getMarket('btc-100k');
    expect(headerOf(last().headers, 'x-on-behalf-of')).toBeUndefined();
    expect(() => api({ onBehalfOf: 0 })).toThrow(RequestInputError);
    expect(() => api({ onBehalfOf: 2 ** 31 })).toThrow(RequestInputError);
  });
});

describe('client composition', () => {
  it('connectExchange reads the profile for ownerId and fee rate', async () => {
    rig.server.setHandler((r) =>
      r.pathname.startsWith('/profiles/') ? { body: { id: 31, account: ADDRESS.toLowerCase(), rank: { feeRateBps: 120 } } } : { status: 201, body: { order: { id: ORDER_ID } } },
    );
    const client = await connectExchange({
      baseUrl: rig.server.url,
      credentials: CREDS,
      signer: { privateKey: KEY },
      transport: { limiter: new RequestLimiter({ minTimeMs: 0 }) },
    });
    expect(client.profile).toEqual({ id: 31, account: ADDRESS, feeRateBps: 120 });
    expect(client.signer.feeRateBps).toBe(120);
    expect(rig.server.requests[0]!.url).toBe(`/profiles/${ADDRESS}`);
    const order = await client.signer.createOrder({
      market: { slug: 'm', venueExchange: VENUE, tokens: { yes: '1', no: '2' } },
      tokenId: '1',
      side: 'SELL',
      orderType: 'GTC',
      priceTicks: 600,
      sizeRaw: 1_000_000,
    });
    await client.api.placeOrder(order);
    expect(last().body).toContain('"ownerId":31');
    expect(last().body).toContain('"feeRateBps":120');
    client.transport.close();
  });

  it('credentials come from the environment under configurable names; errors name the variable, never the value', () => {
    const env = { MY_TOKEN: 'tok', MY_SECRET: SECRET, MY_KEY: KEY };
    const names = { apiTokenId: 'MY_TOKEN', apiSecret: 'MY_SECRET', privateKey: 'MY_KEY' };
    expect(credentialsFromEnv(env, names)).toEqual({ credentials: { tokenId: 'tok', secret: SECRET }, privateKey: KEY });
    const missing = (() => {
      try {
        credentialsFromEnv({ ...env, MY_KEY: '' }, names);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(missing).toBeInstanceOf(RequestInputError);
    expect(missing instanceof RequestInputError && missing.field).toBe('env.MY_KEY');
    const bad = (() => {
      try {
        credentialsFromEnv({ ...env, MY_SECRET: 'not base64!!' }, names);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(bad instanceof Error && bad.message).not.toContain('not base64!!');
    expect(() => credentialsFromEnv({})).toThrow(/OM_API_TOKEN_ID/);
  });
});
