import { describe, expect, it } from 'vitest';
import { cancelFailureReason, executionFill, fillsOfExecution, mapError, VenueAdapter } from '../../../src/venue/venue-adapter.js';
import { ExchangeApi } from '../../../src/exchange/api.js';
import { FrameworkError, MessageError, NetworkError, ResponseValidationError, type EndpointRef } from '../../../src/exchange/errors.js';
import { OrderSigner, type SigningMarket } from '../../../src/exchange/signer.js';
import type { Execution, ExecutionTotals, PlacementResult } from '../../../src/exchange/wire.js';
import {
  DuplicateClientOrderIdError,
  OrderRejectedError,
  OutcomeUnknownError,
  RateLimitedError,
  TradingModeError,
  VenueRequestError,
  type PlaceRequest,
  type VenueOperation,
} from '../../../src/orders/venue-port.js';
import type { RecordedRequest, Reply } from '../../support/recording-server.js';
import { useTransportRig } from '../../support/transport-rig.js';

const CREDS = { tokenId: 'tok-1', secret: Buffer.from('adapter-test-secret').toString('base64') };
const KEY = `0x${'11'.repeat(32)}`;
const VENUE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3';
const ORDER_A = '0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d';
const ORDER_B = '1c6c3b5f-7a1b-4d2f-8e3c-4a5b6c7d8e9f';
const ORDER_C = '2d7d4c6a-8b2c-4e3a-9f4d-5b6c7d8e9fa0';
const ORDER_D = '3e8e5d7b-9c3d-4f4b-8a5e-6c7d8e9fa0b1';
const ORDER_E = '4f9f6e8c-ad4e-4a5c-9b6f-7d8e9fa0b1c2';
const ORDER_F = '5a0a7f9d-be5f-4b6d-8c7a-8e9fa0b1c2d3';
const BTC: SigningMarket = { slug: 'btc', venueExchange: VENUE, tokens: { yes: '101', no: '102' } };
const RESUME_AT = '2026-03-23T13:00:00.000Z';

const REQUEST: PlaceRequest = {
  marketSlug: 'btc',
  clientOrderId: 'om-1a2b3c4d-bid-0-k1',
  token: 'YES',
  tokenId: '101',
  side: 'BUY',
  priceTicks: 450,
  sizeRaw: 10_000_000,
  postOnly: true,
  orderType: 'GTC',
};

const rig = useTransportRig(CREDS);

function adapter(options: { recvWindowMs?: number | null } = {}): VenueAdapter {
  const transport = rig.transport({ retry: { maxServerErrorRetries: 0, maxRateLimitRetries: 0, maxReceiveWindowRetries: 0 }, timeoutMs: 5_000 });
  return new VenueAdapter({
    api: new ExchangeApi({ transport, profileId: 9 }),
    signer: new OrderSigner({ privateKey: KEY, now: rig.time.now, random: () => 0.25 }),
    markets: new Map([['btc', BTC]]),
    recvWindowMs: options.recvWindowMs ?? null,
  });
}

function only(): RecordedRequest {
  expect(rig.server.requests).toHaveLength(1);
  return rig.server.requests[0]!;
}

function bodyOf(request: RecordedRequest): Record<string, unknown> {
  const parsed: unknown = JSON.parse(request.body);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('body is not an object');
  return Object.fromEntries(Object.entries(parsed));
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

function echo(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: ORDER_A,
    status: 'LIVE',
    clientOrderId: REQUEST.clientOrderId,
    side: 'BUY',
    price: '0.45',
    originalSize: '10000000',
    remainingSize: '10000000',
    tokenId: '101',
    orderType: 'GTC',
    ...overrides,
  };
}

/** `execution.totalsRaw` as the official client types it (ExecutionTotalsRaw), with no fee. */
function sdkTotals(contracts: number, usd: number): Record<string, string> {
  return { contractsGross: String(contracts), contractsNet: String(contracts), contractsFee: '0', usdGross: String(usd), usdNet: String(usd), usdFee: '0' };
}

const TRADING_MODE_BODY = { code: 'trading_disabled', message: 'Trading is restricted', mode: 'post_only', resumeAt: RESUME_AT };

describe('VenueAdapter.placeOrder', () => {
  it('signs and sends the order, and maps a resting answer', async () => {
    rig.server.setHandler(() => ({ status: 201, body: { order: echo(), execution: { matched: false, settlementStatus: 'UNMATCHED', totalsRaw: sdkTotals(0, 0) } } }));
    const result = await adapter({ recvWindowMs: 5_000 }).placeOrder(REQUEST);
    expect(result).toEqual({ orderId: ORDER_A, status: 'LIVE', remainingRaw: 10_000_000, fills: [], reason: null });
    const request = only();
    expect(request.method).toBe('POST');
    expect(request.pathname).toBe('/orders');
    const body = bodyOf(request);
    expect(body).toMatchObject({ orderType: 'GTC', marketSlug: 'btc', ownerId: 9, postOnly: true, clientOrderId: REQUEST.clientOrderId, recvWindow: 5_000 });
  });

  it('reports a taker fill whose average price is on a tick, with its settlement state', async () => {
    rig.server.setHandler(() => ({
      status: 201,
      body: {
        order: echo({ status: 'MATCHED', remainingSize: '0' }),
        execution: { matched: true, settlementStatus: 'MINED', tradeEventId: 'tr-1', totalsRaw: sdkTotals(10_000_000, 4_500_000), reason: null },
      },
    }));
    const result = await adapter().placeOrder(REQUEST);
    expect(result.status).toBe('MATCHED');
    expect(result.remainingRaw).toBe(0);
    expect(result.fills).toEqual([{ tradeEventId: 'tr-1', sizeRaw: 10_000_000, priceTicks: 450, settlement: 'mined' }]);
  });

  it('passes the execution reason through (e.g. STP_TAKER_REJECTED)', async () => {
    rig.server.setHandler(() => ({ status: 201, body: { order: echo({ status: 'CANCELED', remainingSize: '0' }), execution: { matched: false, reason: 'STP_TAKER_REJECTED' } } }));
    const result = await adapter().placeOrder(REQUEST);
    expect(result).toMatchObject({ status: 'CANCELED', fills: [], reason: 'STP_TAKER_REJECTED' });
  });

  it('409 on the placement → DuplicateClientOrderIdError (the first one was accepted)', async () => {
    rig.server.setHandler(() => ({ status: 409, body: { message: 'Duplicate clientOrderId' } }));
    const error = await failure(adapter().placeOrder(REQUEST));
    expect(error).toBeInstanceOf(DuplicateClientOrderIdError);
    expect(error).toMatchObject({ clientOrderId: REQUEST.clientOrderId, operation: 'placeOrder' });
  });

  it.each([
    [{ message: 'Post-only order would cross the book' }, 400, 'post-only-would-cross'],
    [{ message: 'Insufficient collateral balance', error: 'Bad Request', statusCode: 400 }, 400, 'insufficient-balance'],
    [{ message: [{ field: 'price', message: 'must be a multiple of 0.001' }], error: 'Bad Request', statusCode: 400 }, 400, 'validation'],
    [{ message: 'Unauthorized', error: 'Unauthorized', statusCode: 401 }, 401, 'unauthorized'],
    [{ message: 'Market has already been resolved' }, 400, 'market-closed'],
  ])('a 4xx on the placement → OrderRejectedError (%j → %s)', async (body, status, reason) => {
    rig.server.setHandler(() => ({ status, body }));
    const error = await failure(adapter().placeOrder(REQUEST));
    expect(error).toBeInstanceOf(OrderRejectedError);
    expect(error).toMatchObject({ reason, status, operation: 'placeOrder' });
  });

  it('a trading-mode body (425) → TradingModeError with the mode and resumeAt parsed', async () => {
    rig.server.setHandler(() => ({ status: 425, body: TRADING_MODE_BODY }));
    const error = await failure(adapter().placeOrder(REQUEST));
    expect(error).toBeInstanceOf(TradingModeError);
    expect(error).toMatchObject({ operation: 'placeOrder', mode: 'post_only', resumeAtMs: Date.parse(RESUME_AT) });
  });

  const lostAnswers: readonly (readonly [string, Reply])[] = [
    ['a 5xx', { status: 502, body: { message: 'Bad gateway' } }],
    ['a dropped connection', { destroy: true }],
    ['an unreadable 2xx', { status: 201, rawBody: '<html>ok</html>' }],
  ];
  it.each(lostAnswers)('%s on the placement → OutcomeUnknownError (look it up, never a rejection)', async (_name, reply) => {
    rig.server.enqueue(reply);
    const error = await failure(adapter().placeOrder(REQUEST));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ operation: 'placeOrder' });
    expect(rig.server.requests).toHaveLength(1);
  });

  it('429 after the client retries → RateLimitedError with the venue Retry-After', async () => {
    rig.server.setHandler(() => ({ status: 429, body: { message: 'Too many requests' }, headers: { 'retry-after': '2' } }));
    const error = await failure(adapter().placeOrder(REQUEST));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ operation: 'placeOrder', retryAfterMs: 2_000 });
  });

  it('refuses, without sending anything: an unknown market, an order the signer refuses, a FOK order', async () => {
    const venue = adapter();
    const unknown = await failure(venue.placeOrder({ ...REQUEST, marketSlug: 'eth' }));
    expect(unknown).toMatchObject({ reason: 'unknown-market' });
    const offGrid = await failure(venue.placeOrder({ ...REQUEST, sizeRaw: 10_000_500 }));
    expect(offGrid).toBeInstanceOf(OrderRejectedError);
    expect(offGrid).toMatchObject({ reason: 'invalid-order' });
    const fok = await failure(venue.placeOrder({ ...REQUEST, orderType: 'FOK' }));
    expect(fok).toBeInstanceOf(OrderRejectedError);
    expect(fok).toMatchObject({ reason: 'invalid-order' });
    expect(rig.server.requests).toHaveLength(0);
  });
});

describe('VenueAdapter cancels', () => {
  it('maps 207 failures onto port reasons and keeps the canceled ids', async () => {
    rig.server.setHandler(() => ({
      status: 207,
      body: {
        message: 'Some orders failed',
        canceled: [ORDER_A],
        failed: [
          { orderId: ORDER_B, reason: 'Order not found or already canceled' },
          { orderId: ORDER_C, reason: 'NOT_FOUND', message: 'Order not found' },
          { orderId: ORDER_D, message: 'Market has already been resolved' },
          { orderId: ORDER_E, reason: 'Unauthorized' },
          { orderId: ORDER_F },
        ],
      },
    }));
    const result = await adapter().cancelOrders('btc', [ORDER_A, ORDER_B, ORDER_C, ORDER_D, ORDER_E, ORDER_F]);
    expect(result.canceled).toEqual([ORDER_A]);
    expect(result.failed).toEqual([
      { orderId: ORDER_B, reason: 'already-canceled', message: 'Order not found or already canceled' },
      { orderId: ORDER_C, reason: 'not-found', message: 'Order not found' },
      { orderId: ORDER_D, reason: 'market-resolved', message: 'Market has already been resolved' },
      { orderId: ORDER_E, reason: 'unauthorized', message: 'Unauthorized' },
      { orderId: ORDER_F, reason: 'other', message: 'cancel failed' },
    ]);
    expect(bodyOf(only())).toEqual({ orderIds: [ORDER_A, ORDER_B, ORDER_C, ORDER_D, ORDER_E, ORDER_F] });
  });

  it('a 200 without a list cancels every id asked; an empty list sends nothing', async () => {
    rig.server.setHandler(() => ({ status: 200, body: { message: 'Orders canceled' } }));
    const venue = adapter();
    expect(await venue.cancelOrders('btc', [])).toEqual({ canceled: [], failed: [] });
    expect(rig.server.requests).toHaveLength(0);
    expect(await venue.cancelOrders('btc', [ORDER_A, ORDER_B])).toEqual({ canceled: [ORDER_A, ORDER_B], failed: [] });
  });

  it('cancelAll sends DELETE /orders/all/{slug} and maps its answer', async () => {
    rig.server.setHandler(() => ({ status: 200, body: { message: 'ok', canceled: [ORDER_A], failed: [{ orderId: ORDER_B, reason: 'ALREADY_CANCELED' }] } }));
    const result = await adapter().cancelAll('btc');
    expect(result).toEqual({ canceled: [ORDER_A], failed: [{ orderId: ORDER_B, reason: 'already-canceled', message: 'ALREADY_CANCELED' }] });
    expect(only()).toMatchObject({ method: 'DELETE', pathname: '/orders/all/btc' });
  });

  it('a cancel whose answer was lost or was a 5xx may have taken effect → OutcomeUnknownError', async () => {
    const venue = adapter();
    rig.server.enqueue({ destroy: true });
    expect(await failure(venue.cancelOrders('btc', [ORDER_A]))).toBeInstanceOf(OutcomeUnknownError);
    rig.server.enqueue({ status: 500, body: { message: 'Internal error', error: 'Internal Server Error', statusCode: 500 } });
    const error = await failure(venue.cancelAll('btc'));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ operation: 'cancelAll' });
  });

  it('a definite refusal of a cancel → VenueRequestError with the status; a trading mode → TradingModeError', async () => {
    const venue = adapter();
    rig.server.enqueue({ status: 404, body: { message: 'Order not found', error: 'Not Found', statusCode: 404 } });
    const refused = await failure(venue.cancelOrders('btc', [ORDER_A]));
    expect(refused).toBeInstanceOf(VenueRequestError);
    expect(refused).toMatchObject({ operation: 'cancelOrders', status: 404 });
    rig.server.enqueue({ status: 503, body: { ...TRADING_MODE_BODY, mode: 'DISABLED' } });
    const mode = await failure(venue.cancelAll('btc'));
    expect(mode).toBeInstanceOf(TradingModeError);
    expect(mode).toMatchObject({ operation: 'cancelAll', mode: 'disabled', resumeAtMs: Date.parse(RESUME_AT) });
  });

  it('an id the client refuses (not a UUID) → VenueRequestError, nothing sent', async () => {
    const error = await failure(adapter().cancelOrders('btc', ['not-an-id']));
    expect(error).toBeInstanceOf(VenueRequestError);
    expect(rig.server.requests).toHaveLength(0);
  });
});

describe('VenueAdapter reads', () => {
  it('statusBatch answers one result per query, in query order, whatever order the venue used', async () => {
    rig.server.setHandler(() => ({
      status: 200,
      body: {
        results: [
          { index: 2, status: 'invalid', clientOrderId: 'c-3' },
          {
            index: 0,
            status: 'found',
            orderId: ORDER_A,
            data: {
              order: echo({ status: 'LIVE', remainingSize: '6000000', side: 'SELL', price: '0.55', tokenId: '102' }),
              makerMatches: [],
              execution: { matched: true, settlementStatus: 'MATCHED', tradeEventId: 'tr-9', totalsRaw: sdkTotals(4_000_000, 2_200_000) },
            },
          },
          { index: 1, status: 'not_found', clientOrderId: 'c-2' },
          { index: 3, status: 'found', orderId: ORDER_B, data: { order: echo({ id: ORDER_B, tokenId: '999' }) } },
        ],
      },
    }));
    const queries = [{ orderId: ORDER_A }, { clientOrderId: 'c-2' }, { clientOrderId: 'c-3' }, { orderId: ORDER_B }, { clientOrderId: 'c-5' }];
    const results = await adapter().statusBatch(queries);
    expect(results.map((r) => [r.query, r.outcome])).toEqual([
      [queries[0], 'found'],
      [queries[1], 'not_found'],
      [queries[2], 'invalid'],
      [queries[3], 'invalid'],
      [queries[4], 'not_found'],
    ]);
    const found = results[0]!;
    if (found.outcome !== 'found') throw new Error('expected found');
    expect(found.order).toEqual({
      orderId: ORDER_A,
      clientOrderId: REQUEST.clientOrderId,
      marketSlug: 'btc',
      tokenId: '102',
      side: 'SELL',
      priceTicks: 550,
      sizeRaw: 10_000_000,
      remainingRaw: 6_000_000,
      status: 'LIVE',
      createdAtMs: 0,
      fills: [{ tradeEventId: 'tr-9', sizeRaw: 4_000_000, priceTicks: 550, settlement: 'provisional' }],
    });
    expect(results[3]).toMatchObject({ outcome: 'invalid', message: 'order of an unknown market' });
    expect(bodyOf(only())).toEqual({ items: queries });
  });

  it('listLiveOrders asks for LIVE orders of the market and maps them', async () => {
    rig.server.setHandler(() => ({
      status: 200,
      body: [
        {
          id: ORDER_A,
          ownerId: 9,
          marketId: '5',
          token: '102',
          type: 'GTC',
          status: 'LIVE',
          side: 'SELL',
          makerAmount: '2000000',
          takerAmount: '1100000',
          price: '0.55',
          originalSize: '2000000',
          remainingSize: '1500000',
          createdAt: '2026-03-23T12:00:00.000Z',
          clientOrderId: 'om-1a2b3c4d-ask-0-k2',
        },
      ],
    }));
    const orders = await adapter().listLiveOrders('btc');
    expect(orders).toEqual([
      {
        orderId: ORDER_A,
        clientOrderId: 'om-1a2b3c4d-ask-0-k2',
        marketSlug: 'btc',
        tokenId: '102',
        side: 'SELL',
        priceTicks: 550,
        sizeRaw: 2_000_000,
        remainingRaw: 1_500_000,
        status: 'LIVE',
        createdAtMs: Date.parse('2026-03-23T12:00:00.000Z'),
        fills: [],
      },
    ]);
    const request = only();
    expect(request.pathname).toBe('/markets/btc/user-orders');
    expect(request.query.getAll('statuses')).toEqual(['LIVE']);
  });

  it('maintenanceStatus folds the active windows into one mode', async () => {
    rig.server.setHandler(() => ({ status: 200, body: { active: [{ mode: 'cancel_only', resumeAt: RESUME_AT }], scheduled: [] } }));
    expect(await adapter().maintenanceStatus()).toEqual({ mode: 'cancel_only', resumeAtMs: Date.parse(RESUME_AT) });
  });

  it('a failed read changed nothing: 5xx, lost answer or unreadable answer → VenueRequestError, never an unknown outcome', async () => {
    const venue = adapter();
    rig.server.enqueue({ status: 500, body: { message: 'Internal error', error: 'Internal Server Error', statusCode: 500 } });
    const serverError = await failure(venue.statusBatch([{ orderId: ORDER_A }]));
    expect(serverError).toBeInstanceOf(VenueRequestError);
    expect(serverError).toMatchObject({ operation: 'statusBatch', status: 500 });
    rig.server.enqueue({ destroy: true });
    const lost = await failure(venue.listLiveOrders('btc'));
    expect(lost).toBeInstanceOf(VenueRequestError);
    expect(lost).toMatchObject({ operation: 'listLiveOrders', status: null });
    rig.server.enqueue({ status: 200, body: { active: 'nope' } });
    const unreadable = await failure(venue.maintenanceStatus());
    expect(unreadable).toBeInstanceOf(VenueRequestError);
    expect(unreadable).toMatchObject({ operation: 'maintenanceStatus' });
  });

  it('reads: 429 → RateLimitedError; a trading-mode body → TradingModeError', async () => {
    const venue = adapter();
    rig.server.enqueue({ status: 429, body: { message: 'slow down' } });
    expect(await failure(venue.listLiveOrders('btc'))).toBeInstanceOf(RateLimitedError);
    rig.server.enqueue({ status: 425, body: { ...TRADING_MODE_BODY, mode: 'something_new', resumeAt: null } });
    const mode = await failure(venue.statusBatch([{ clientOrderId: 'c-1' }]));
    expect(mode).toBeInstanceOf(TradingModeError);
    // An unknown restriction is read as cancel_only (tradingModeOf), as the maintenance status reads it.
    expect(mode).toMatchObject({ operation: 'statusBatch', mode: 'cancel_only', resumeAtMs: null });
  });
});

describe('mapError', () => {
  const endpoint: EndpointRef = { method: 'POST', pathTemplate: '/orders/cancel-batch' };
  const ops: readonly VenueOperation[] = ['cancelOrders', 'cancelAll', 'placeOrder'];
  const reads: readonly VenueOperation[] = ['statusBatch', 'listLiveOrders', 'maintenanceStatus'];

  it('a NetworkError: unknown outcome for state-changing operations, a plain failure for reads', () => {
    const network = new NetworkError(endpoint, 'timeout', 'no answer within 10000 ms');
    for (const op of ops) expect(mapError(op, network)).toBeInstanceOf(OutcomeUnknownError);
    for (const op of reads) {
      const mapped = mapError(op, network);
      expect(mapped).toBeInstanceOf(VenueRequestError);
      expect(mapped).toMatchObject({ operation: op, status: null });
    }
  });

  it('an unreadable answer or a foreign error: unknown outcome for a cancel, a plain failure for a read', () => {
    const unreadable = new ResponseValidationError(endpoint, 200, [{ path: 'canceled', message: 'not an array', value: '7' }]);
    expect(mapError('cancelOrders', unreadable)).toBeInstanceOf(OutcomeUnknownError);
    expect(mapError('statusBatch', unreadable)).toBeInstanceOf(VenueRequestError);
    expect(mapError('cancelAll', 'weird')).toBeInstanceOf(OutcomeUnknownError);
    expect(mapError('cancelAll', 'weird').message).toContain('weird');
  });

  it('chains the client error as `cause`', () => {
    const network = new NetworkError(endpoint, 'timeout', 'no answer within 10000 ms');
    expect(mapError('cancelOrders', network).cause).toBe(network);
    const refused = new MessageError(400, { method: 'POST', pathTemplate: '/orders' }, { message: 'Post-only order would cross the book' });
    expect(mapError('placeOrder', refused)).toMatchObject({ reason: 'post-only-would-cross', cause: refused });
  });

  it('a placement refused with 401/403 is unauthorized, whatever its text says', () => {
    const orders: EndpointRef = { method: 'POST', pathTemplate: '/orders' };
    const forbidden = new FrameworkError(403, orders, { message: 'Insufficient permission: the token lacks the trading scope', error: 'Forbidden', statusCode: 403 });
    expect(forbidden.refusal).toBeNull();
    expect(mapError('placeOrder', forbidden)).toMatchObject({ reason: 'unauthorized', status: 403 });
  });
});

describe('cancelFailureReason', () => {
  it.each([
    ['Order not found or already canceled', null, 'already-canceled'],
    [null, 'Order already cancelled', 'already-canceled'],
    ['NOT_CANCELLABLE', null, 'already-canceled'],
    ['NOT_FOUND', null, 'not-found'],
    [null, 'Order not found', 'not-found'],
    ['MARKET_RESOLVED', null, 'market-resolved'],
    ['Unauthorized', null, 'unauthorized'],
    ['UNAUTHORISED', null, 'unauthorized'],
    ['RATE', 'something else', 'other'],
    [null, null, 'other'],
  ])('(%s, %s) → %s', (reason, message, mapped) => {
    expect(cancelFailureReason(reason, message)).toBe(mapped);
  });
});

function totals(partial: Partial<ExecutionTotals>): ExecutionTotals {
  return { contractsGross: null, contractsNet: null, contractsFee: null, usdGross: null, usdNet: null, usdFee: null, ...partial };
}

describe('fillsOfExecution', () => {
  function placement(execution: Partial<Execution> | null): PlacementResult {
    const base: Execution = {
      matched: true,
      settlementStatus: 'MATCHED',
      tradeEventId: 'tr-1',
      txHash: null,
      clientOrderId: null,
      feeRateBps: null,
      effectiveFeeBps: null,
      totals: totals({ contractsGross: 3_000_000, usdGross: 1_350_000 }),
      eligibleAt: null,
      reason: null,
      stpMakerCancelOrderIds: [],
    };
    return {
      orderId: ORDER_A,
      order: {
        id: ORDER_A,
        status: 'MATCHED',
        clientOrderId: null,
        side: 'BUY',
        priceTicks: 460,
        makerAmountRaw: null,
        takerAmountRaw: null,
        originalSizeRaw: 3_000_000,
        remainingSizeRaw: 0,
        sizeRaw: 3_000_000,
        tokenId: '101',
        orderType: 'GTC',
        createdAtMs: null,
      },
      makerMatches: [],
      execution: execution === null ? null : { ...base, ...execution },
    };
  }

  it('reports the fill when the average price is exactly on a tick', () => {
    expect(fillsOfExecution(placement({}))).toEqual([{ tradeEventId: 'tr-1', sizeRaw: 3_000_000, priceTicks: 450, settlement: 'provisional' }]);
  });

  it.each([
    ['MINED', 'mined'],
    ['CONFIRMED', 'mined'],
    ['FAILED', 'failed'],
    ['RETRYING', 'provisional'],
  ])('settlement %s → %s', (status, settlement) => {
    expect(fillsOfExecution(placement({ settlementStatus: status }))[0]?.settlement).toBe(settlement);
  });

  it('rounds an average off the tick grid to the nearest tick, as the settlement frame is (the exact collateral goes with it)', () => {
    const swept = placement({ totals: totals({ contractsGross: 3_000_000, usdGross: 1_351_000 }) });
    expect(fillsOfExecution(swept)).toEqual([{ tradeEventId: 'tr-1', sizeRaw: 3_000_000, priceTicks: 450, settlement: 'provisional' }]);
    expect(executionFill(swept)?.detail).toEqual({ tradeEventId: 'tr-1', orderId: ORDER_A, sizeRaw: 3_000_000, collateralRaw: 1_351_000, feeUsdRaw: 0, feeContractsRaw: 0 });
  });

  it('reports nothing without an execution, a trade id, totals or contracts', () => {
    expect(fillsOfExecution(placement(null))).toEqual([]);
    expect(fillsOfExecution(placement({ tradeEventId: null }))).toEqual([]);
    expect(fillsOfExecution(placement({ totals: null }))).toEqual([]);
    expect(fillsOfExecution(placement({ totals: totals({ contractsGross: 3_000_000 }) }))).toEqual([]);
    expect(fillsOfExecution(placement({ totals: totals({ contractsGross: 0, usdGross: 0 }) }))).toEqual([]);
  });
});
