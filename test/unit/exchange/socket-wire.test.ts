import { describe, expect, it } from 'vitest';
import { formatPath, frameParsers, isFeedEventName, type ParsedFrame, type ParseResult } from '../../../src/exchange/socket-wire.js';
import { averagePriceMicros, ticksIfOnGrid } from '../../../src/core/venue-rules/index.js';

const raw = frameParsers({ amountUnit: 'raw' });
const shares = frameParsers({ amountUnit: 'shares' });

function ok(result: ParseResult<ParsedFrame>): ParsedFrame {
  if (!result.ok) throw new Error(`expected a valid frame, got ${result.path}: ${result.message}`);
  return result.value;
}

function failure(result: ParseResult<ParsedFrame>): { path: string; value: unknown; message: string } {
  if (result.ok) throw new Error('expected the frame to be rejected');
  return result;
}

const BOOK_FRAME = {
  marketSlug: 'btc-100k',
  orderbook: {
    bids: [
      { price: '0.555', size: '7.123' },
      { price: 0.55, size: 10 },
    ],
    asks: [{ price: '0.56', size: '1' }],
    tokenId: '123456789012345678901234567890',
    adjustedMidpoint: '0.5575',
    maxSpread: 0.05,
    minSize: '10',
    somethingNew: true,
  },
  timestamp: '2026-03-23T12:34:56.789Z',
};

describe('orderbookUpdate', () => {
  it('parses prices to ticks and share sizes to raw, numbers or strings', () => {
    const parsed = ok(raw.parse('orderbookUpdate', BOOK_FRAME));
    expect(parsed.event).toBe('orderbookUpdate');
    if (parsed.event !== 'orderbookUpdate') return;
    expect(parsed.frame.slug).toBe('btc-100k');
    expect(parsed.frame.snapshot.bids).toEqual([
      { priceTicks: 555, sizeRaw: 7_123_000 },
      { priceTicks: 550, sizeRaw: 10_000_000 },
    ]);
    expect(parsed.frame.snapshot.asks).toEqual([{ priceTicks: 560, sizeRaw: 1_000_000 }]);
    expect(parsed.frame.snapshot.adjustedMidpoint).toBe(0.5575);
    expect(parsed.frame.tokenId).toBe('123456789012345678901234567890');
    expect(parsed.frame.venueTimestampMs).toBe(Date.parse('2026-03-23T12:34:56.789Z'));
  });

  it.each([
    [{ ...BOOK_FRAME, marketSlug: '' }, 'marketSlug', ''],
    [{ ...BOOK_FRAME, orderbook: { ...BOOK_FRAME.orderbook, bids: [{ price: '0.5555', size: '1' }] } }, 'orderbook.bids[0].price', '0.5555'],
    [{ ...BOOK_FRAME, orderbook: { ...BOOK_FRAME.orderbook, asks: [{ price: '1', size: '1' }] } }, 'orderbook.asks[0].price', '1'],
    [{ ...BOOK_FRAME, orderbook: { ...BOOK_FRAME.orderbook, asks: [{ price: 'NaN', size: '1' }] } }, 'orderbook.asks[0].price', 'NaN'],
    [{ ...BOOK_FRAME, orderbook: { ...BOOK_FRAME.orderbook, bids: [{ price: '0.5', size: '-1' }] } }, 'orderbook.bids[0].size', '-1'],
    [{ ...BOOK_FRAME, orderbook: { ...BOOK_FRAME.orderbook, bids: [{ price: '0.5', size: '0.0000001' }] } }, 'orderbook.bids[0].size', '0.0000001'],
    [{ ...BOOK_FRAME, orderbook: { ...BOOK_FRAME.orderbook, bids: 'none' } }, 'orderbook.bids', 'none'],
    [{ ...BOOK_FRAME, orderbook: { ...BOOK_FRAME.orderbook, adjustedMidpoint: 7 } }, 'orderbook.adjustedMidpoint', 7],
    [{ ...BOOK_FRAME, timestamp: 'yesterday' }, 'timestamp', 'yesterday'],
  ])('rejects %# naming the field path and value', (frame, path, value) => {
    const bad = failure(raw.parse('orderbookUpdate', frame));
    expect(bad.path).toBe(path);
    expect(bad.value).toEqual(value);
  });

  it('reads level sizes as raw integers when the book size unit says so', () => {
    const rawBooks = frameParsers({ bookSizeUnit: 'raw' });
    const frame = { marketSlug: 'm', orderbook: { bids: [{ price: '0.5', size: '7123000' }], asks: [] } };
    const parsed = ok(rawBooks.parse('orderbookUpdate', frame));
    expect(parsed.event === 'orderbookUpdate' && parsed.frame.snapshot.bids).toEqual([{ priceTicks: 500, sizeRaw: 7_123_000 }]);
    const bad = failure(rawBooks.parse('orderbookUpdate', { ...frame, orderbook: { bids: [{ price: '0.5', size: '7.5' }], asks: [] } }));
    expect(bad.path).toBe('orderbook.bids[0].size');
  });

  it('rejects a non-object frame', () => {
    expect(failure(raw.parse('orderbookUpdate', null)).path).toBe('(frame)');
    expect(failure(raw.parse('orderbookUpdate', [1, 2])).path).toBe('(frame)');
  });
});

const OME = {
  source: 'OME',
  type: 'UPDATE',
  eventId: 1042,
  orderId: '6f1c2b8e-6a3c-4c8e-9d51-2a8f4b7c1d20',
  clientOrderId: 'mm1-btc-bid-0-7',
  userId: 77,
  marketId: 991,
  token: '123',
  side: 'BUY',
  price: '0.555',
  remainingSize: '3000000',
  timestamp: '2026-03-23T12:34:56.789Z',
};

describe('orderEvent (OME)', () => {
  it('parses a lifecycle frame into the typed union, remaining size as raw', () => {
    const parsed = ok(raw.parse('orderEvent', OME));
    if (parsed.event !== 'orderEvent' || parsed.frame.source !== 'OME') throw new Error('wrong variant');
    expect(parsed.frame).toEqual({
      source: 'OME',
      type: 'UPDATE',
      eventId: '1042',
      orderId: OME.orderId,
      clientOrderId: 'mm1-btc-bid-0-7',
      marketId: '991',
      token: '123',
      side: 'BUY',
      priceTicks: 555,
      priceMicros: 555_000,
      remainingRaw: 3_000_000,
      timestampMs: Date.parse(OME.timestamp),
    });
  });

  it('reads remaining size in whole shares when configured so', () => {
    const parsed = ok(shares.parse('orderEvent', { ...OME, remainingSize: '3' }));
    if (parsed.event !== 'orderEvent' || parsed.frame.source !== 'OME') throw new Error('wrong variant');
    expect(parsed.frame.remainingRaw).toBe(3_000_000);
  });

  it('accepts a raw amount written with a zero fraction, rejects a fractional raw amount', () => {
    const parsed = ok(raw.parse('orderEvent', { ...OME, remainingSize: '3000000.000' }));
    if (parsed.event !== 'orderEvent' || parsed.frame.source !== 'OME') throw new Error('wrong variant');
    expect(parsed.frame.remainingRaw).toBe(3_000_000);
    expect(failure(raw.parse('orderEvent', { ...OME, remainingSize: '3000000.5' })).path).toBe('remainingSize');
  });

  it('parses an EXECUTION with status, matched size and a terminal event id; a market order has no price', () => {
    const parsed = ok(
      raw.parse('orderEvent', {
        ...OME,
        type: 'EXECUTION',
        eventId: 'terminal:55',
        status: 'PARTIALLY_FILLED',
        price: 0,
        clientOrderId: null,
        matchedSize: '1000000',
        marketSlug: 'btc-100k',
      }),
    );
    if (parsed.event !== 'orderEvent' || parsed.frame.source !== 'OME') throw new Error('wrong variant');
    expect(parsed.frame.eventId).toBe('terminal:55');
    expect(parsed.frame.status).toBe('PARTIALLY_FILLED');
    expect(parsed.frame.priceTicks).toBeNull();
    expect(parsed.frame.priceMicros).toBe(0);
    expect(parsed.frame.matchedRaw).toBe(1_000_000);
    expect(parsed.frame.marketSlug).toBe('btc-100k');
    expect('clientOrderId' in parsed.frame).toBe(false);
    const noPrice = ok(raw.parse('orderEvent', { ...OME, price: undefined }));
    expect(noPrice.event === 'orderEvent' && noPrice.frame.source === 'OME' && noPrice.frame.priceMicros).toBeNull();
  });

  it('keeps an off-grid average fill price exactly in micro-units, without ticks', () => {
    const parsed = ok(raw.parse('orderEvent', { ...OME, type: 'EXECUTION', status: 'FILLED', price: '0.553333' }));
    if (parsed.event !== 'orderEvent' || parsed.frame.source !== 'OME') throw new Error('wrong variant');
    expect(parsed.frame.priceMicros).toBe(553_333);
    expect(parsed.frame.priceTicks).toBeNull();
  });

  it('keeps the STP reason of a CANCELLATION', () => {
    const parsed = ok(raw.parse('orderEvent', { ...OME, type: 'CANCELLATION', reason: 'STP_MAKER_CANCELLED', remainingSize: '0' }));
    if (parsed.event !== 'orderEvent' || parsed.frame.source !== 'OME') throw new Error('wrong variant');
    expect(parsed.frame.reason).toBe('STP_MAKER_CANCELLED');
    expect(parsed.frame.remainingRaw).toBe(0);
  });

  it.each([
    [{ ...OME, type: 'EXPLODED' }, 'type'],
    [{ ...OME, side: 'HOLD' }, 'side'],
    [{ ...OME, price: '1.2' }, 'price'],
    [{ ...OME, price: '-0.5' }, 'price'],
    [{ ...OME, remainingSize: undefined }, 'remainingSize'],
    [{ ...OME, eventId: undefined }, 'eventId'],
    [{ ...OME, eventId: 2 ** 60 }, 'eventId'],
    [{ ...OME, status: 'WEIRD' }, 'status'],
    [{ ...OME, source: 'OTHER' }, 'source'],
  ])('rejects a bad OME frame %#, naming %s', (frame, path) => {
    expect(failure(raw.parse('orderEvent', frame)).path).toBe(path);
  });
});

const SETTLEMENT = {
  source: 'SETTLEMENT',
  type: 'MATCHED',
  eventId: 'settlement:tr-9',
  orderId: 'o-1',
  makerMatches: [{ account: '0xabc', orderId: 'o-2', matchedSize: '2000000', price: '0.4' }],
  marketSlug: 'btc-100k',
  tokenId: '123',
  side: 'SELL',
  price: '0.4',
  amountContracts: '2000000',
  amountCollateral: '800000',
  feeAmountCollateral: '24000',
  feeAmountContracts: '0',
  effectiveFeeBps: 300,
  isEstimate: true,
  timestamp: 1_774_269_296_789,
};

describe('orderEvent (SETTLEMENT)', () => {
  it('parses amounts as raw, derives tradeEventId from the event id, picks the SELL fee in collateral', () => {
    const parsed = ok(raw.parse('orderEvent', SETTLEMENT));
    if (parsed.event !== 'orderEvent' || parsed.frame.source !== 'SETTLEMENT') throw new Error('wrong variant');
    expect(parsed.frame).toEqual({
      source: 'SETTLEMENT',
      type: 'MATCHED',
      eventId: 'settlement:tr-9',
      tradeEventId: 'tr-9',
      orderId: 'o-1',
      makerMatches: [{ account: '0xabc', orderId: 'o-2', matchedSizeRaw: 2_000_000, priceTicks: 400 }],
      marketSlug: 'btc-100k',
      tokenId: '123',
      side: 'SELL',
      priceMicros: 400_000,
      priceTicks: 400,
      amountContractsRaw: 2_000_000,
      amountCollateralRaw: 800_000,
      feeRaw: 24_000,
      feeUnit: 'collateral',
      effectiveFeeBps: 300,
      isEstimate: true,
      timestampMs: 1_774_269_296_789,
    });
  });

  it('takes MINED with a tx hash and no maker matches; a provisional flag defaults from the type', () => {
    const parsed = ok(
      raw.parse('orderEvent', {
        ...SETTLEMENT,
        type: 'MINED',
        tradeEventId: 'tr-9',
        makerMatches: undefined,
        isEstimate: undefined,
        txHash: '0xdead',
        side: 'BUY',
      }),
    );
    if (parsed.event !== 'orderEvent' || parsed.frame.source !== 'SETTLEMENT') throw new Error('wrong variant');
    expect(parsed.frame.makerMatches).toEqual([]);
    expect(parsed.frame.isEstimate).toBe(false);
    expect(parsed.frame.txHash).toBe('0xdead');
    expect(parsed.frame.feeUnit).toBe('contracts');
  });

  it('takes a weighted-average taker price off the grid, and a plain feeAmount as collateral', () => {
    const parsed = ok(
      raw.parse('orderEvent', {
        ...SETTLEMENT,
        price: 0.55333333333333,
        feeAmountCollateral: undefined,
        feeAmountContracts: undefined,
        feeAmount: '1500',
      }),
    );
    if (parsed.event !== 'orderEvent' || parsed.frame.source !== 'SETTLEMENT') throw new Error('wrong variant');
    expect(parsed.frame.priceMicros).toBe(553_333);
    expect(parsed.frame.priceTicks).toBeNull();
    expect(parsed.frame).toMatchObject({ feeRaw: 1_500, feeUnit: 'collateral' });
  });

  it.each([
    // (An event id that is not `settlement:<id>` without a tradeEventId is accepted since the official client's types:
    // the event id itself is then the trade's id; see the SDK-typed fixtures in socket-sdk-frames.test.ts.)
    [{ ...SETTLEMENT, eventId: '' }, 'eventId'],
    [{ ...SETTLEMENT, amountCollateral: 'lots' }, 'amountCollateral'],
    [{ ...SETTLEMENT, makerMatches: [{ account: '0xabc', orderId: 'o-2', matchedSize: '1', price: '2' }] }, 'makerMatches[0].price'],
    [{ ...SETTLEMENT, type: 'CONFIRMED' }, 'type'],
  ])('rejects a bad SETTLEMENT frame %#, naming %s', (frame, path) => {
    expect(failure(raw.parse('orderEvent', frame)).path).toBe(path);
  });
});

describe('positions, marketResolved, system, exception', () => {
  it('parses positions with the balance as raw and the money fields as informational numbers', () => {
    const parsed = ok(
      raw.parse('positions', {
        account: '0xabc',
        marketSlug: 'btc-100k',
        positions: [{ tokenId: '123', ctfBalance: '5000000', averageFillPrice: '0.41', costBasis: 2.05, marketValue: '2.5', marketId: 991 }],
        type: 'CLOB',
      }),
    );
    if (parsed.event !== 'positions') throw new Error('wrong event');
    expect(parsed.frame.positions).toEqual([
      { tokenId: '123', balanceRaw: 5_000_000, averageFillPrice: 0.41, costBasis: 2.05, marketValue: 2.5, marketId: '991' },
    ]);
    expect(parsed.frame.type).toBe('CLOB');
  });

  it('parses marketResolved, including a payout split without a winner', () => {
    const won = ok(raw.parse('marketResolved', { slug: 'm', winningOutcome: 'yes', winningIndex: '0', resolutionDate: '2026-03-23T00:00:00Z' }));
    if (won.event !== 'marketResolved') throw new Error('wrong event');
    expect(won.frame).toEqual({ slug: 'm', winningOutcome: 'YES', winningIndex: 0, resolutionDateMs: Date.parse('2026-03-23T00:00:00Z') });
    const split = ok(raw.parse('marketResolved', { slug: 'm', winningOutcome: null }));
    if (split.event !== 'marketResolved') throw new Error('wrong event');
    expect(split.frame.winningOutcome).toBeNull();
    expect(failure(raw.parse('marketResolved', { slug: 'm', winningOutcome: 'MAYBE' })).path).toBe('winningOutcome');
  });

  it('passes system and exception payloads through with their message', () => {
    const sys = ok(raw.parse('system', { message: 'subscribed' }));
    expect(sys.event === 'system' && sys.frame.message).toBe('subscribed');
    const exc = ok(raw.parse('exception', 'Unauthorized'));
    expect(exc.event === 'exception' && exc.frame.message).toBe('Unauthorized');
    const other = ok(raw.parse('exception', { code: 7 }));
    expect(other.event === 'exception' && other.frame.message).toBeNull();
  });
});

describe('helpers', () => {
  it('knows its events', () => {
    expect(isFeedEventName('orderbookUpdate')).toBe(true);
    expect(isFeedEventName('newPriceData')).toBe(false);
  });

  it('formats paths', () => {
    expect(formatPath(['orderbook', 'bids', 3, 'price'])).toBe('orderbook.bids[3].price');
    expect(formatPath([])).toBe('(frame)');
  });
});

describe('average prices', () => {
  it('converts to exact micro-units with half-up rounding past 6 decimals', () => {
    expect(averagePriceMicros('p', '0.5')).toBe(500_000);
    expect(averagePriceMicros('p', '0.1234565')).toBe(123_457);
    expect(averagePriceMicros('p', '0.1234564999')).toBe(123_456);
    expect(averagePriceMicros('p', 0.0000004)).toBe(0);
    expect(averagePriceMicros('p', '0.9999994')).toBe(999_999);
    expect(() => averagePriceMicros('p', '0.9999995')).toThrow(/below 1/); // rounds up to 1
    expect(() => averagePriceMicros('p', '1')).toThrow(/below 1/);
    expect(() => averagePriceMicros('p', 'abc')).toThrow(/decimal/);
    expect(ticksIfOnGrid(555_000)).toBe(555);
    expect(ticksIfOnGrid(555_500)).toBeNull();
    expect(ticksIfOnGrid(0)).toBeNull();
  });
});
