import { describe, expect, it } from 'vitest';
import { validationError } from '../../support/response-validation.js';
import {
  FrameworkError,
  MessageError,
  ExchangeTradingModeError,
  UnexpectedResponseError,
  ValidationError,
  type EndpointRef,
} from '../../../src/exchange/errors.js';
import {
  errorFromBody,
  normalizeRewardSettings,
  parseActiveMarkets,
  parseBatchCancel,
  parseMaintenance,
  parseMarket,
  parseMarketTrades,
  parseOrderbook,
  parsePlacement,
  parsePositions,
  parseProfile,
  parseStatusBatch,
  parseUserOrders,
} from '../../../src/exchange/wire.js';

const EP: EndpointRef = { method: 'GET', pathTemplate: '/test' };
const VENUE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3';
const ORDER_ID = '0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d';

const MARKET_WIRE = {
  id: 77,
  conditionId: `0x${'ab'.repeat(32)}`,
  negRiskRequestId: null,
  title: 'Will BTC close above 100k?',
  description: 'long text',
  collateralToken: { address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', decimals: 6, symbol: 'USDC' },
  expirationDate: '2026-04-01T00:00:00.000Z',
  expirationTimestamp: 1775001600000,
  categories: ['Crypto'],
  status: 'FUNDED',
  expired: false,
  tokens: { yes: '1234567890123456789012345678901234567890', no: '42' },
  venue: { exchange: VENUE.toLowerCase(), adapter: '0x0000000000000000000000000000000000000002' },
  isRewardable: true,
  settings: { minSize: '10', maxSpread: 0.05, dailyReward: '50', rewardsEpoch: '2026-03', c: '3' },
  slug: 'btc-100k',
  tradeType: 'clob',
  marketType: 'single',
  winningOutcomeIndex: null,
  metadata: { fee: true, isBannered: false },
  somethingNew: { nested: [1, 2, 3] },
};

describe('Market', () => {
  it('converts the spec fields, tolerating extra ones and checksumming addresses', () => {
    const market = parseMarket(MARKET_WIRE, EP, 200);
    expect(market).toMatchObject({
      id: 77,
      slug: 'btc-100k',
      tokens: { yes: '1234567890123456789012345678901234567890', no: '42' },
      venue: { exchange: VENUE, adapter: '0x0000000000000000000000000000000000000002' },
      isRewardable: true,
      expirationMs: 1775001600000,
      status: 'FUNDED',
      resolved: false,
      settings: { minSize: 10, maxSpread: 0.05, dailyReward: 50, rewardsEpoch: '2026-03', c: 3 },
      collateral: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6, symbol: 'USDC' },
    });
    expect(market).not.toHaveProperty('somethingNew');
  });

  it('reads numbers sent as strings and seconds-based expiry', () => {
    const market = parseMarket({ ...MARKET_WIRE, id: '77', expirationTimestamp: '1775001600', winningOutcomeIndex: '1' }, EP, 200);
    expect(market.id).toBe(77);
    expect(market.expirationMs).toBe(1775001600000);
    expect(market.winningOutcomeIndex).toBe(1);
    expect(market.resolved).toBe(true);
  });

  it('a payout split counts as resolved', () => {
    expect(parseMarket({ ...MARKET_WIRE, payoutNumerators: [1, 1] }, EP, 200).resolved).toBe(true);
  });

  it('names the field and value of a wrong type', () => {
    const error = validationError(() => parseMarket({ ...MARKET_WIRE, tokens: { yes: 123, no: '42' } }, EP, 200));
    expect(error.path).toBe('tokens.yes');
    expect(error.value).toBe('123');
    expect(error.message).toContain('GET /test');
    const venue = validationError(() => parseMarket({ ...MARKET_WIRE, venue: { exchange: '0x1234' } }, EP, 200));
    expect(venue.path).toBe('venue.exchange');
    expect(venue.value).toBe('"0x1234"');
  });

  it('listing: bare array or {data}, groups flattened with their slug, element errors located', () => {
    const group = { slug: 'election', title: 'Election', markets: [{ ...MARKET_WIRE, slug: 'a' }, { ...MARKET_WIRE, slug: 'b' }] };
    const page = parseActiveMarkets({ data: [MARKET_WIRE, group], totalMarketsCount: 3 }, EP, 200);
    expect(page.total).toBe(3);
    expect(page.markets.map((m) => [m.slug, m.groupSlug])).toEqual([['btc-100k', null], ['a', 'election'], ['b', 'election']]);
    expect(parseActiveMarkets([MARKET_WIRE], EP, 200).markets).toHaveLength(1);
    const error = validationError(() => parseActiveMarkets({ data: [MARKET_WIRE, { ...group, markets: [{ ...MARKET_WIRE, slug: 5 }] }] }, EP, 200));
    expect(error.path).toBe('data[1].markets[0].slug');
    expect(error.value).toBe('5');
  });
});

describe('reward settings normalisation (units unconfirmed)', () => {
  it('reads small values as whole units and large integers as raw', () => {
    expect(normalizeRewardSettings({ minSize: 10, maxSpread: 0.05, dailyReward: 50, rewardsEpoch: null, c: null })).toEqual({
      minSizeRaw: 10_000_000,
      maxSpreadTicks: 50,
      dailyRewardRaw: 50_000_000,
      c: 3,
      rebateRate: 0,
      assumptions: { minSize: 'shares', maxSpread: 'price', dailyReward: 'usdc' },
    });
    expect(normalizeRewardSettings({ minSize: 10_000_000, maxSpread: 3.5, dailyReward: 25_000_000, rewardsEpoch: null, c: 2, rebateRate: 0.25 })).toEqual({
      minSizeRaw: 10_000_000,
      maxSpreadTicks: 35,
      dailyRewardRaw: 25_000_000,
      c: 2,
      rebateRate: 0.25,
      assumptions: { minSize: 'raw', maxSpread: 'cents', dailyReward: 'raw' },
    });
    expect(normalizeRewardSettings(null).assumptions).toEqual({ minSize: 'absent', maxSpread: 'absent', dailyReward: 'absent' });
  });
});

describe('orderbook', () => {
  const book = {
    bids: [{ price: 0.48, size: 100 }, { price: '0.5', size: '12.5' }, { price: 0.49, size: 0 }, { price: 0.48, size: 1.25 }],
    asks: [{ price: 0.55, size: 3 }, { price: 0.52, size: '7.123456' }],
    tokenId: '42',
    adjustedMidpoint: '0.51',
    maxSpread: 0.05,
    minSize: '10',
    lastTradePrice: null,
    extra: true,
  };

  it('turns share sizes into raw, prices into ticks, sorts, merges and drops empty levels', () => {
    const snap = parseOrderbook('btc-100k', book, EP, 200, 'shares');
    expect(snap.bids).toEqual([{ priceTicks: 500, sizeRaw: 12_500_000 }, { priceTicks: 480, sizeRaw: 101_250_000 }]);
    expect(snap.asks).toEqual([{ priceTicks: 520, sizeRaw: 7_123_456 }, { priceTicks: 550, sizeRaw: 3_000_000 }]);
    expect(snap).toMatchObject({ slug: 'btc-100k', tokenId: '42', adjustedMidpoint: 0.51, maxSpread: 0.05, minSize: 10, lastTradePrice: null });
  });

  it('reads raw sizes when configured', () => {
    const snap = parseOrderbook('m', { bids: [{ price: 0.5, size: 2_000_000 }], asks: [] }, EP, 200, 'raw');
    expect(snap.bids).toEqual([{ priceTicks: 500, sizeRaw: 2_000_000 }]);
  });

  it('reads the live venue shape: raw sizes with side, maxSpread a price string, minSize a raw string', () => {
    const live = {
      bids: [{ price: 0.002, size: 495326974, side: 'BUY' }],
      asks: [{ price: 0.57, size: 100000000, side: 'SELL' }],
      tokenId: '42',
      adjustedMidpoint: 0.5349999999999999,
      maxSpread: '0.035',
      minSize: '100000000',
      lastTradePrice: null,
    };
    expect(parseOrderbook('m', live, EP, 200, 'raw')).toMatchObject({
      bids: [{ priceTicks: 2, sizeRaw: 495_326_974 }],
      asks: [{ priceTicks: 570, sizeRaw: 100_000_000 }],
      maxSpread: 0.035,
      maxSpreadTicks: 35,
      minSize: 100_000_000,
    });
  });

  it('refuses a level whose side contradicts its list, naming it', () => {
    const error = validationError(() => parseOrderbook('m', { bids: [{ price: 0.5, size: 1, side: 'SELL' }], asks: [] }, EP, 200, 'raw'));
    expect(error.path).toBe('bids[0].side');
    expect(error.value).toBe('"SELL"');
  });

  it('rejects an off-tick price and names the level', () => {
    const error = validationError(() => parseOrderbook('m', { ...book, asks: [{ price: 0.5255, size: 1 }] }, EP, 200, 'shares'));
    expect(error.path).toBe('asks[0].price');
    expect(error.value).toBe('0.5255');
  });
});

const USER_ORDER = {
  id: ORDER_ID,
  ownerId: 9,
  marketId: '77',
  token: '42',
  type: 'GTC',
  status: 'LIVE',
  side: 'BUY',
  makerAmount: '3953265',
  takerAmount: '7123000',
  price: '0.555',
  originalSize: '7123000',
  remainingSize: '2000000.0',
  createdAt: '2026-03-23T12:00:00.000Z',
};

describe('user orders', () => {
  it('converts amounts to raw integers and the price to ticks', () => {
    const [order] = parseUserOrders([{ ...USER_ORDER, clientOrderId: 'om-1' }], EP, 200);
    expect(order).toEqual({
      id: ORDER_ID,
      ownerId: 9,
      marketId: '77',
      tokenId: '42',
      orderType: 'GTC',
      status: 'LIVE',
      side: 'BUY',
      makerAmountRaw: 3_953_265,
      takerAmountRaw: 7_123_000,
      priceTicks: 555,
      originalSizeRaw: 7_123_000,
      remainingSizeRaw: 2_000_000,
      createdAtMs: Date.parse('2026-03-23T12:00:00.000Z'),
      clientOrderId: 'om-1',
    });
    expect(parseUserOrders([], EP, 200)).toEqual([]);
  });

  it('rejects an unknown status and a non-decimal amount, naming the element', () => {
    expect(validationError(() => parseUserOrders([USER_ORDER, { ...USER_ORDER, status: 'OPEN' }], EP, 200)).path).toBe('[1].status');
    const amount = validationError(() => parseUserOrders([{ ...USER_ORDER, remainingSize: '-5' }], EP, 200));
    expect([amount.path, amount.value]).toEqual(['[0].remainingSize', '"-5"']);
  });
});

describe('market trades', () => {
  it('reads a full page', () => {
    const page = parseMarketTrades(
      {
        events: [{ createdAt: '2026-03-23T12:00:00Z', makerAmount: '500000', takerAmount: '500000', matchedSize: '1000000', price: 0.5, side: 1, title: 't', tokenId: '42', txHash: '0xabc' }],
        limit: 100,
        page: 2,
        totalPages: 3,
        totalRows: 201,
      },
      EP,
      200,
      2,
    );
    expect(page).toEqual({
      trades: [{ createdAtMs: Date.parse('2026-03-23T12:00:00Z'), collateralRaw: 500_000, takerAmountRaw: 500_000, matchedSizeRaw: 1_000_000, price: 0.5, side: 'SELL', tokenId: '42', txHash: '0xabc', title: 't' }],
      page: 2,
      limit: 100,
      totalPages: 3,
      totalRows: 201,
      skipped: [],
    });
  });

  it('reads the empty-page shape {events: [], totalPages: 0}', () => {
    expect(parseMarketTrades({ events: [], totalPages: 0 }, EP, 200, 4)).toEqual({ trades: [], page: 4, limit: null, totalPages: 0, totalRows: 0, skipped: [] });
  });

  it('skips a bad element (naming its field and value) and keeps the others; unknown fields such as profile are tolerated', () => {
    const good = { createdAt: '2026-03-23T12:00:00Z', makerAmount: '51000', takerAmount: '51000', matchedSize: '1000000', price: 0.051, side: 0, title: 't', tokenId: '42', txHash: '0xabc', profile: { username: 'u' }, extra: 1 };
    const page = parseMarketTrades({ events: [good, { ...good, side: 2 }, { ...good, tokenId: 42 }], limit: 100, page: 1, totalPages: 1, totalRows: 3 }, EP, 200, 1);
    expect(page.trades).toEqual([{ createdAtMs: Date.parse('2026-03-23T12:00:00Z'), collateralRaw: 51_000, takerAmountRaw: 51_000, matchedSizeRaw: 1_000_000, price: 0.051, side: 'BUY', tokenId: '42', txHash: '0xabc', title: 't' }]);
    expect(page.skipped.map((e) => [e.path, e.value])).toEqual([
      ['events[1].side', '2'],
      ['events[2].tokenId', '42'],
    ]);
    expect(page.skipped[0]?.message).toMatch(/events\[1\]\.side/);
    // The page itself must still have its shape.
    expect(() => parseMarketTrades({ events: 'x', totalPages: 0 }, EP, 200, 1)).toThrow(/events/);
  });
});

const PLACEMENT = {
  order: { id: ORDER_ID, salt: 1, makerAmount: 5_000_000, takerAmount: '10000000', side: 0, price: 0.5, tokenId: '42', signature: '0x...', orderType: 'GTC', expiration: null },
  makerMatches: [{ id: 'm1', createdAt: '2026-03-23T12:00:00Z', matchedSize: '2000000', orderId: 'o-maker' }],
  execution: {
    matched: true,
    settlementStatus: 'SOMETHING_NEW',
    tradeEventId: 991,
    clientOrderId: 'om-1',
    feeRateBps: '300',
    effectiveFeeBps: 0,
    totalsRaw: { contractsGross: '2000000', contractsNet: 2000000, contractsFee: '0', usdGross: '1000000', usdNet: '1030000', usdFee: '30000' },
    reason: 'STP_TAKER_REJECTED',
    stpMakerCancels: ['a', { orderId: 'b' }, 3],
  },
};

describe('placement answer (exchange-facts §3)', () => {
  it('reads the order id, maker matches and an open-set execution', () => {
    const result = parsePlacement(PLACEMENT, EP, 201);
    expect(result.orderId).toBe(ORDER_ID);
    expect(result.order).toMatchObject({ side: 'BUY', priceTicks: 500, makerAmountRaw: 5_000_000, takerAmountRaw: 10_000_000, tokenId: '42', orderType: 'GTC' });
    expect(result.makerMatches).toEqual([{ id: 'm1', orderId: 'o-maker', matchedSizeRaw: 2_000_000, createdAt: '2026-03-23T12:00:00Z' }]);
    expect(result.execution).toMatchObject({
      matched: true,
      settlementStatus: 'SOMETHING_NEW',
      tradeEventId: '991',
      clientOrderId: 'om-1',
      feeRateBps: 300,
      totals: { contractsGross: 2_000_000, contractsNet: 2_000_000, contractsFee: 0, usdGross: 1_000_000, usdNet: 1_030_000, usdFee: 30_000 },
      reason: 'STP_TAKER_REJECTED',
      stpMakerCancelOrderIds: ['a', 'b'],
    });
  });

  it('needs only the order id', () => {
    expect(parsePlacement({ order: { id: ORDER_ID } }, EP, 201)).toMatchObject({ orderId: ORDER_ID, makerMatches: [], execution: null });
    expect(validationError(() => parsePlacement({ order: {} }, EP, 201)).path).toBe('order.id');
  });

  it('status batch: found / not_found / invalid in request order', () => {
    const results = parseStatusBatch(
      {
        results: [
          { index: 0, status: 'found', clientOrderId: 'om-1', data: { ...PLACEMENT, order: { ...PLACEMENT.order, status: 'LIVE', remainingSize: '3000000' } } },
          { index: 1, status: 'not_found', clientOrderId: 'om-2' },
          { index: 2, status: 'invalid' },
        ],
      },
      EP,
      200,
    );
    expect(results.map((r) => [r.index, r.status, r.orderId, r.clientOrderId])).toEqual([
      [0, 'found', ORDER_ID, 'om-1'],
      [1, 'not_found', null, 'om-2'],
      [2, 'invalid', null, null],
    ]);
    expect(results[0]?.data?.order).toMatchObject({ status: 'LIVE', remainingSizeRaw: 3_000_000 });
    expect(validationError(() => parseStatusBatch({ results: [{ index: 0, status: 'gone' }] }, EP, 200)).path).toBe('results[0].status');
  });
});

describe('batch cancel answers', () => {
  it('200 without a list means every requested id; 207 lists the failures', () => {
    expect(parseBatchCancel({ message: 'ok' }, EP, 200, ['a', 'b'])).toEqual({ status: 200, partial: false, message: 'ok', canceled: ['a', 'b'], failed: [] });
    const partial = parseBatchCancel(
      { message: 'partial', canceled: ['a'], failed: [{ orderId: 'b', reason: 'NOT_FOUND', message: 'Order not found' }] },
      EP,
      207,
      ['a', 'b'],
    );
    expect(partial).toEqual({ status: 207, partial: true, message: 'partial', canceled: ['a'], failed: [{ orderId: 'b', reason: 'NOT_FOUND', message: 'Order not found' }] });
  });
});

describe('maintenance, profile, positions', () => {
  it('maintenance: the most restrictive active mode wins; unknown or missing modes count as cancel_only', () => {
    const status = parseMaintenance(
      {
        active: [
          { mode: 'post_only', endsAt: '2026-03-23T13:00:00Z' },
          { mode: 'cancel_only', resumeAt: '2026-03-23T14:00:00Z', message: 'upgrade' },
        ],
        scheduled: [{ mode: 'disabled', startsAt: '2026-03-24T00:00:00Z', endsAt: '2026-03-24T01:00:00Z' }],
      },
      EP,
      200,
    );
    expect(status.mode).toBe('cancel_only');
    expect(status.resumeAtMs).toBe(Date.parse('2026-03-23T14:00:00Z'));
    expect(status.scheduled[0]).toEqual({ mode: 'disabled', message: null, startsAtMs: Date.parse('2026-03-24T00:00:00Z'), endsAtMs: Date.parse('2026-03-24T01:00:00Z') });
    expect(parseMaintenance({ active: [], scheduled: [] }, EP, 200).mode).toBe('normal');
    expect(parseMaintenance({ active: [{ mode: 'read_only_new' }] }, EP, 200).mode).toBe('cancel_only');
    expect(parseMaintenance({ active: [{ message: 'maintenance' }] }, EP, 200).mode).toBe('cancel_only');
    expect(parseMaintenance({ active: [{ mode: 'read_only_new' }, { mode: 'disabled' }] }, EP, 200).mode).toBe('disabled');
  });

  it('profile: id and rank.feeRateBps (300 when absent)', () => {
    expect(parseProfile({ id: 9, account: VENUE.toLowerCase(), rank: { feeRateBps: '150' }, username: 'x' }, EP, 200)).toEqual({ id: 9, account: VENUE, feeRateBps: 150 });
    expect(parseProfile({ id: 9, account: VENUE }, EP, 200).feeRateBps).toBe(300);
    expect(validationError(() => parseProfile({ id: 'nine', account: VENUE }, EP, 200)).path).toBe('id');
  });

  it('positions: token balances as raw integers', () => {
    const positions = parsePositions(
      {
        clob: [
          {
            market: { slug: 'btc-100k', title: 'x' },
            tokensBalance: { yes: '5000000', no: 0 },
            positions: { yes: { cost: '2500000', fillPrice: '500000', realisedPnl: 0, unrealizedPnl: '-100000' }, no: null },
            orders: { liveOrders: 2, totalCollateralLocked: '1000000' },
          },
        ],
        rewards: {},
      },
      EP,
      200,
    );
    expect(positions).toEqual([
      {
        marketSlug: 'btc-100k',
        yesBalanceRaw: 5_000_000,
        noBalanceRaw: 0,
        yes: { cost: 2_500_000, fillPrice: 500_000, realisedPnl: 0, unrealizedPnl: -100_000 },
        no: null,
        collateralLockedRaw: 1_000_000,
        list: 'clob',
      },
    ]);
  });
});

describe('error bodies: one class per shape of the spec', () => {
  const endpoint: EndpointRef = { method: 'POST', pathTemplate: '/orders' };

  it('validation (400)', () => {
    const error = errorFromBody(400, endpoint, JSON.stringify({ message: [{ field: 'limit', message: 'must be <= 200' }], error: 'Bad Request', statusCode: 400 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.status).toBe(400);
    expect(error.endpoint).toEqual(endpoint);
    expect(error instanceof ValidationError && error.fields).toEqual([{ field: 'limit', message: 'must be <= 200' }]);
    expect(error.message).toBe('POST /orders answered 400: limit: must be <= 200');
  });

  it('framework, message-only, trading mode, and anything else', () => {
    const framework = errorFromBody(404, endpoint, '{"message":"Order not found","error":"Not Found","statusCode":404}');
    expect(framework).toBeInstanceOf(FrameworkError);
    expect(framework.body).toEqual({ message: 'Order not found', error: 'Not Found', statusCode: 404 });
    const message = errorFromBody(400, endpoint, '{"message":"Market has already been resolved"}');
    expect(message).toBeInstanceOf(MessageError);
    const mode = errorFromBody(425, endpoint, '{"code":"trading_disabled","message":"Trading is disabled","mode":"disabled","resumeAt":"2026-03-23T13:00:00.000Z"}');
    expect(mode).toBeInstanceOf(ExchangeTradingModeError);
    expect(mode instanceof ExchangeTradingModeError && [mode.mode, mode.tradingCode, mode.resumeAtMs]).toEqual(['disabled', 'trading_disabled', Date.parse('2026-03-23T13:00:00.000Z')]);
    const html = errorFromBody(502, endpoint, '<html>bad gateway</html>');
    expect(html).toBeInstanceOf(UnexpectedResponseError);
    expect(html.body).toBe('<html>bad gateway</html>');
    expect(errorFromBody(500, endpoint, '').message).toBe('POST /orders answered 500: (empty body)');
  });
});
