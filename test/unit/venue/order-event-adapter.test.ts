import { describe, expect, it } from 'vitest';
import { toOrderEventInput, type OrderEventAdapterOptions } from '../../../src/venue/order-event-adapter.js';
import type { OmeOrderEvent, SettlementOrderEvent } from '../../../src/core/venue-rules/index.js';

const ME = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const OTHER = '0x00000000000000000000000000000000000000AA';
const NOW = Date.parse('2026-03-23T12:00:00.000Z');
const OWN_ORDER = 'own-order-1';
const OWN_CID = 'om-1a2b3c4d-bid-0-k1';

interface Harness {
  readonly options: OrderEventAdapterOptions;
  readonly inexact: { tradeEventId: string; priceMicros: number }[];
  readonly asked: { orderId?: string | undefined; clientOrderId?: string | undefined }[];
}

function harness(account = ME.toLowerCase()): Harness {
  const inexact: Harness['inexact'] = [];
  const asked: Harness['asked'] = [];
  return {
    inexact,
    asked,
    options: {
      account,
      isOwnOrder: (ids) => {
        asked.push(ids);
        return ids.orderId === OWN_ORDER || ids.clientOrderId === OWN_CID;
      },
      onInexactPrice: (tradeEventId, priceMicros) => inexact.push({ tradeEventId, priceMicros }),
      now: () => NOW,
    },
  };
}

function settlement(overrides: Partial<SettlementOrderEvent> = {}): SettlementOrderEvent {
  return {
    source: 'SETTLEMENT',
    type: 'MATCHED',
    eventId: 'settlement:tr-1',
    tradeEventId: 'tr-1',
    makerMatches: [],
    marketSlug: 'btc',
    tokenId: '101',
    side: 'BUY',
    priceMicros: 450_000,
    priceTicks: 450,
    amountContractsRaw: 10_000_000,
    amountCollateralRaw: 4_500_000,
    isEstimate: true,
    timestampMs: NOW + 5,
    ...overrides,
  };
}

describe('toOrderEventInput: OME frames', () => {
  it('passes an OME frame through with its fields and timestamp', () => {
    const frame: OmeOrderEvent = {
      source: 'OME',
      type: 'EXECUTION',
      eventId: '42',
      orderId: OWN_ORDER,
      clientOrderId: OWN_CID,
      marketId: '5',
      token: '101',
      side: 'BUY',
      priceTicks: 450,
      priceMicros: 450_000,
      remainingRaw: 4_000_000,
      matchedRaw: 6_000_000,
      status: 'PARTIALLY_FILLED',
      reason: 'STP_MAKER_CANCELLED',
      timestampMs: NOW + 9,
    };
    expect(toOrderEventInput(frame, harness().options)).toEqual({
      source: 'OME',
      type: 'EXECUTION',
      eventId: '42',
      orderId: OWN_ORDER,
      clientOrderId: OWN_CID,
      remainingRaw: 4_000_000,
      status: 'PARTIALLY_FILLED',
      reason: 'STP_MAKER_CANCELLED',
      atMs: NOW + 9,
    });
  });

  it('stamps a frame without a timestamp with the injected clock', () => {
    const frame: OmeOrderEvent = {
      source: 'OME',
      type: 'PLACEMENT',
      eventId: '43',
      orderId: OWN_ORDER,
      marketId: '5',
      token: '101',
      side: 'SELL',
      priceTicks: 550,
      priceMicros: 550_000,
      remainingRaw: 1_000_000,
      timestampMs: null,
    };
    expect(toOrderEventInput(frame, harness().options)).toMatchObject({ source: 'OME', eventId: '43', atMs: NOW });
  });
});

describe('toOrderEventInput: SETTLEMENT frames', () => {
  it('attributes the taker fill to our order (by orderId or clientOrderId)', () => {
    const h = harness();
    expect(toOrderEventInput(settlement({ orderId: OWN_ORDER }), h.options)).toEqual({
      source: 'SETTLEMENT',
      type: 'MATCHED',
      eventId: 'settlement:tr-1',
      tradeEventId: 'tr-1',
      fills: [{ orderId: OWN_ORDER, clientOrderId: undefined, role: 'taker', sizeRaw: 10_000_000, priceTicks: 450 }],
      atMs: NOW + 5,
    });
    const byCid = toOrderEventInput(settlement({ clientOrderId: OWN_CID, type: 'MINED' }), h.options);
    expect(byCid).toMatchObject({ type: 'MINED', fills: [{ clientOrderId: OWN_CID, role: 'taker' }] });
    expect(h.inexact).toEqual([]);
  });

  it('attributes maker matches of our account (any case) and ignores other accounts', () => {
    const frame = settlement({
      orderId: 'foreign-taker',
      makerMatches: [
        { account: ME.toUpperCase().replace('0X', '0x'), orderId: 'maker-1', matchedSizeRaw: 4_000_000, priceTicks: 440 },
        { account: OTHER, orderId: 'maker-2', matchedSizeRaw: 5_000_000, priceTicks: 450 },
        { account: ME, orderId: 'maker-3', matchedSizeRaw: 1_000_000, priceTicks: 460 },
      ],
    });
    const event = toOrderEventInput(frame, harness(ME).options);
    expect(event).toMatchObject({
      source: 'SETTLEMENT',
      fills: [
        { orderId: 'maker-1', role: 'maker', sizeRaw: 4_000_000, priceTicks: 440 },
        { orderId: 'maker-3', role: 'maker', sizeRaw: 1_000_000, priceTicks: 460 },
      ],
    });
    expect(event?.source === 'SETTLEMENT' ? event.fills : []).toHaveLength(2);
  });

  it('reports both sides when we are taker and maker in one trade', () => {
    const frame = settlement({
      orderId: OWN_ORDER,
      makerMatches: [{ account: ME, orderId: 'maker-1', matchedSizeRaw: 10_000_000, priceTicks: 450 }],
    });
    const event = toOrderEventInput(frame, harness().options);
    expect(event?.source === 'SETTLEMENT' ? event.fills.map((f) => [f.role, f.orderId]) : null).toEqual([
      ['taker', OWN_ORDER],
      ['maker', 'maker-1'],
    ]);
  });

  it('returns null for a frame about nobody of ours, and does not ask about a frame without taker ids', () => {
    const h = harness();
    expect(toOrderEventInput(settlement({ orderId: 'foreign', makerMatches: [{ account: OTHER, orderId: 'm', matchedSizeRaw: 1_000, priceTicks: 450 }] }), h.options)).toBeNull();
    expect(h.asked).toEqual([{ orderId: 'foreign', clientOrderId: undefined }]);
    expect(toOrderEventInput(settlement(), h.options)).toBeNull();
    expect(h.asked).toHaveLength(1);
  });

  it('rounds an off-grid taker average to the nearest tick and reports it', () => {
    const h = harness();
    const event = toOrderEventInput(settlement({ orderId: OWN_ORDER, priceMicros: 450_600, priceTicks: null }), h.options);
    expect(event).toMatchObject({ fills: [{ role: 'taker', priceTicks: 451 }] });
    expect(h.inexact).toEqual([{ tradeEventId: 'tr-1', priceMicros: 450_600 }]);
  });

  it('keeps a rounded average inside the price range', () => {
    const h = harness();
    expect(toOrderEventInput(settlement({ orderId: OWN_ORDER, priceMicros: 300, priceTicks: null }), h.options)).toMatchObject({ fills: [{ priceTicks: 1 }] });
    expect(toOrderEventInput(settlement({ orderId: OWN_ORDER, priceMicros: 999_700, priceTicks: null }), h.options)).toMatchObject({ fills: [{ priceTicks: 999 }] });
  });
});
