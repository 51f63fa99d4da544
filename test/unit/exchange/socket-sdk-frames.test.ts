/**
 * Every frame the official client's types allow is accepted: fixtures typed with the SDK's own types
 * (@limitless-exchange/sdk 1.1.0), each with ALL its optional fields left out and with all of them present, go
 * through the socket parser, and order frames on through the order-event adapter to the fills they produce.
 */
import type { MarketResolvedEvent, OmeOrderEvent, OrderbookUpdate, SettlementOrderEvent, SystemEvent } from '@limitless-exchange/sdk';
import { describe, expect, it } from 'vitest';
import { adaptOrderEvent, OrderEventAdapter, type OrderEventAdapterOptions } from '../../../src/venue/order-event-adapter.js';
import { frameParsers, type FeedEventName, type ParsedFrame } from '../../../src/exchange/socket-wire.js';

const ME = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const TAKER = '0x00000000000000000000000000000000000000AA';
const NOW = Date.parse('2026-03-23T12:00:00.000Z');
const OWN_MAKER_ORDER = 'own-maker-1';
const OWN_CID = 'om-1a2b3c4d-bid-0-k1';

const parsers = frameParsers({ amountUnit: 'raw', bookSizeUnit: 'raw' });

function parse(event: FeedEventName, payload: unknown): ParsedFrame {
  const result = parsers.parse(event, payload);
  if (!result.ok) throw new Error(`${event} rejected at ${result.path}: ${result.message}`);
  return result.value;
}

function orderFrame(payload: unknown) {
  const parsed = parse('orderEvent', payload);
  if (parsed.event !== 'orderEvent') throw new Error('not an order event');
  return parsed.frame;
}

const options: OrderEventAdapterOptions = {
  account: ME,
  isOwnOrder: ({ orderId, clientOrderId }) => orderId === OWN_MAKER_ORDER || orderId === 'own-taker-1' || clientOrderId === OWN_CID,
  marketOf: () => 'btc-up',
  now: () => NOW,
};

// ── fixtures typed by the official client ──

const settlementMinimal: SettlementOrderEvent = { eventId: 'settlement:tr-9', source: 'SETTLEMENT', timestamp: NOW, type: 'MATCHED' };

const settlementFull: SettlementOrderEvent = {
  amountCollateral: '4800000',
  amountContracts: '10000000',
  clientOrderId: 'their-cid',
  configuredFeeRateBps: 100,
  effectiveFeeBps: 100,
  eventId: 'settlement:tr-1',
  feeAmountCollateral: '0',
  feeAmountContracts: '100000',
  isEstimate: true,
  makerMatches: [
    { account: ME.toLowerCase(), matchedSize: '6000000', orderId: OWN_MAKER_ORDER, price: '0.48' },
    { account: '0x00000000000000000000000000000000000000BB', matchedSize: '4000000', orderId: 'someone-else', price: '0.48' },
  ],
  marketSlug: 'btc-up',
  // The receiving account's own (maker) order, while takerOrderId names the taker's: booked once, as maker.
  orderId: OWN_MAKER_ORDER,
  price: '0.48',
  side: 'BUY',
  source: 'SETTLEMENT',
  takerAccount: TAKER,
  takerOrderId: 'their-order',
  timestamp: new Date(NOW),
  token: 'YES',
  tokenId: '101',
  tradeEventId: 'tr-1',
  txHash: '0xabc',
  type: 'MATCHED',
};

const omeMinimal: OmeOrderEvent = {
  eventId: 17,
  marketId: '5',
  orderId: OWN_MAKER_ORDER,
  price: 0.48,
  remainingSize: 6000000,
  side: 'BUY',
  source: 'OME',
  timestamp: '2026-03-23T12:00:00.000Z',
  token: '101',
  type: 'PLACEMENT',
  userId: 42,
};

const omeFull: OmeOrderEvent = { ...omeMinimal, clientOrderId: OWN_CID, status: 'PARTIALLY_FILLED', type: 'EXECUTION', remainingSize: 2000000 };

const book: OrderbookUpdate = {
  marketSlug: 'btc-up',
  orderbook: {
    bids: [{ price: 0.48, size: 100000000, side: 'BUY' }],
    asks: [{ price: 0.52, size: 495326974, side: 'SELL' }],
    tokenId: '101',
    adjustedMidpoint: 0.5,
    maxSpread: 0.035,
    minSize: 100000000,
  },
  timestamp: new Date(NOW),
};

const resolved: MarketResolvedEvent = { slug: 'btc-up', type: 'CLOB', winningOutcome: 'YES', winningIndex: 0, resolutionDate: NOW };

describe('SETTLEMENT frames as the official client types them', () => {
  it('accepts a frame with every optional field left out: a bare update of an unknown trade is a gap', () => {
    const frame = orderFrame(settlementMinimal);
    expect(frame).toMatchObject({ source: 'SETTLEMENT', type: 'MATCHED', tradeEventId: 'tr-9', makerMatches: [], priceMicros: null, timestampMs: NOW });
    const adapted = adaptOrderEvent(frame, options, null);
    expect(adapted).toMatchObject({ kind: 'gap', marketSlug: null });
    expect(adapted.kind === 'gap' ? adapted.reason : '').toContain('names no order');
  });

  it('accepts a frame with every optional field: the own order in makerMatches is one maker fill, never also a taker fill', () => {
    const frame = orderFrame(settlementFull);
    expect(frame).toMatchObject({ takerOrderId: 'their-order', takerAccount: TAKER, token: 'YES', isEstimate: true, timestampMs: NOW });
    const adapted = adaptOrderEvent(frame, options, null);
    if (adapted.kind !== 'event' || adapted.event.source !== 'SETTLEMENT') throw new Error(`expected an event, got ${adapted.kind}`);
    expect(adapted.event.fills).toEqual([{ orderId: OWN_MAKER_ORDER, role: 'maker', sizeRaw: 6_000_000, priceTicks: 480 }]);
    expect(adapted.details).toEqual([expect.objectContaining({ orderId: OWN_MAKER_ORDER, role: 'maker', feeRaw: 0, feeEstimate: true })]);
  });

  it('takes the taker fill from takerOrderId, with the fee in contracts valued at the price', () => {
    const frame = orderFrame({ ...settlementFull, takerAccount: ME, takerOrderId: 'own-taker-1', orderId: 'own-taker-1', makerMatches: [] });
    const adapted = adaptOrderEvent(frame, options, null);
    if (adapted.kind !== 'event' || adapted.event.source !== 'SETTLEMENT') throw new Error(`expected an event, got ${adapted.kind}`);
    expect(adapted.event.fills).toEqual([{ orderId: 'own-taker-1', clientOrderId: 'their-cid', role: 'taker', sizeRaw: 10_000_000, priceTicks: 480 }]);
    expect(adapted.details).toEqual([
      { tradeEventId: 'tr-1', orderId: 'own-taker-1', role: 'taker', collateralRaw: 4_800_000, feeRaw: 48_000, feeContractsRaw: 100_000, feeEstimate: true, txHash: '0xabc' },
    ]);
  });

  it('a bare MINED settles the fills of its MATCHED (adapter memory)', () => {
    const adapter = new OrderEventAdapter(options);
    expect(adapter.adapt(orderFrame(settlementFull)).kind).toBe('event');
    const mined = adapter.adapt(orderFrame({ ...settlementMinimal, eventId: 'settlement:tr-1', type: 'MINED' } satisfies SettlementOrderEvent));
    if (mined.kind !== 'event' || mined.event.source !== 'SETTLEMENT') throw new Error(`expected an event, got ${mined.kind}`);
    expect(mined.event).toMatchObject({ type: 'MINED', tradeEventId: 'tr-1', fills: [{ orderId: OWN_MAKER_ORDER, role: 'maker', sizeRaw: 6_000_000 }] });
  });
});

describe('OME frames as the official client types them', () => {
  it('accepts numbers for price and remaining size, and userId, with optional fields left out', () => {
    const frame = orderFrame(omeMinimal);
    expect(frame).toMatchObject({ source: 'OME', type: 'PLACEMENT', eventId: '17', orderId: OWN_MAKER_ORDER, priceTicks: 480, remainingRaw: 6_000_000 });
    const adapted = adaptOrderEvent(frame, options, null);
    expect(adapted).toMatchObject({ kind: 'event', event: { source: 'OME', type: 'PLACEMENT', remainingRaw: 6_000_000 } });
  });

  it('accepts the frame with every optional field present', () => {
    const frame = orderFrame(omeFull);
    expect(frame).toMatchObject({ type: 'EXECUTION', status: 'PARTIALLY_FILLED', clientOrderId: OWN_CID, remainingRaw: 2_000_000 });
    expect(adaptOrderEvent(frame, options, null)).toMatchObject({ kind: 'event', event: { status: 'PARTIALLY_FILLED', remainingRaw: 2_000_000 } });
  });

  it('accepts decimal strings too (the spec writes them so)', () => {
    const frame = orderFrame({ ...omeMinimal, price: '0.48', remainingSize: '6000000' });
    expect(frame).toMatchObject({ priceTicks: 480, remainingRaw: 6_000_000 });
  });
});

describe('other frames as the official client types them', () => {
  it('accepts an orderbookUpdate with a Date timestamp and the extra book fields', () => {
    const parsed = parse('orderbookUpdate', book);
    if (parsed.event !== 'orderbookUpdate') throw new Error('wrong event');
    expect(parsed.frame).toMatchObject({ slug: 'btc-up', tokenId: '101', venueTimestampMs: NOW });
    expect(parsed.frame.snapshot.asks).toEqual([{ priceTicks: 520, sizeRaw: 495_326_974 }]);
  });

  it('accepts marketResolved and both forms of system', () => {
    expect(parse('marketResolved', resolved)).toMatchObject({ frame: { slug: 'btc-up', winningOutcome: 'YES', winningIndex: 0 } });
    const asText: SystemEvent = 'Connected';
    const asObject: SystemEvent = { message: 'Subscribed', marketSlugs: ['btc-up'] };
    expect(parse('system', asText)).toMatchObject({ frame: { message: 'Connected' } });
    expect(parse('system', asObject)).toMatchObject({ frame: { message: 'Subscribed' } });
  });
});
