/**
 * Issue 13 findings at the order-event adapter, through the socket parser: a settlement frame missing the trade's
 * description still yields the account's maker fills; an `orderId` that is the account's own maker order is booked
 * once; a frame of the account's that cannot become fills is a gap naming its market.
 */
import { describe, expect, it } from 'vitest';
import { adaptOrderEvent, OrderEventAdapter, orderEventHints, type OrderEventAdapterOptions } from '../../../src/venue/order-event-adapter.js';
import { frameParsers } from '../../../src/exchange/socket-wire.js';

const ME = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const OWN_MAKER = 'own-maker-1';
const OWN_TAKER = 'own-taker-1';
const NOW = 1_774_000_000_000;

const options: OrderEventAdapterOptions = {
  account: ME,
  isOwnOrder: ({ orderId }) => orderId === OWN_MAKER || orderId === OWN_TAKER,
  marketOf: ({ orderId }) => (orderId === OWN_TAKER ? 'eth-up' : null),
  now: () => NOW,
};

function frame(payload: Record<string, unknown>) {
  const parsed = frameParsers({ amountUnit: 'raw' }).parse('orderEvent', payload);
  if (!parsed.ok) throw new Error(`rejected at ${parsed.path}: ${parsed.message}`);
  if (parsed.value.event !== 'orderEvent') throw new Error('not an order event');
  return parsed.value.frame;
}

const MATCH = { account: ME.toLowerCase(), orderId: OWN_MAKER, matchedSize: '5000000', price: '0.48' };

describe('settlement frames without the trade description', () => {
  it('a frame with only its identity and makerMatches yields the maker fill', () => {
    const adapted = adaptOrderEvent(frame({ source: 'SETTLEMENT', type: 'MATCHED', eventId: 'settlement:t1', timestamp: NOW, makerMatches: [MATCH] }), options, null);
    expect(adapted).toMatchObject({ kind: 'event', event: { tradeEventId: 't1', fills: [{ orderId: OWN_MAKER, role: 'maker', sizeRaw: 5_000_000, priceTicks: 480 }] } });
  });

  it('an orderId that is our own maker order in makerMatches is booked once, as maker', () => {
    const payload = { source: 'SETTLEMENT', type: 'MATCHED', eventId: 'settlement:t2', timestamp: NOW, orderId: OWN_MAKER, makerMatches: [MATCH], amountContracts: '5000000', price: '0.48' };
    const adapted = adaptOrderEvent(frame(payload), options, null);
    if (adapted.kind !== 'event' || adapted.event.source !== 'SETTLEMENT') throw new Error(adapted.kind);
    expect(adapted.event.fills.map((f) => [f.role, f.orderId])).toEqual([['maker', OWN_MAKER]]);
  });

  it('our taker order without amounts is a gap naming its market', () => {
    const adapted = adaptOrderEvent(frame({ source: 'SETTLEMENT', type: 'MATCHED', eventId: 'settlement:t3', timestamp: NOW, takerOrderId: OWN_TAKER }), options, null);
    expect(adapted).toMatchObject({ kind: 'gap', marketSlug: 'eth-up' });
    expect(adapted.kind === 'gap' ? adapted.reason : '').toContain('without amountContracts');
  });

  it('an event that fails validation (a zero maker size) is a gap, not a silent drop', () => {
    const adapted = adaptOrderEvent(frame({ source: 'SETTLEMENT', type: 'MATCHED', eventId: 'settlement:t4', marketSlug: 'btc', makerMatches: [{ ...MATCH, matchedSize: '0' }] }), options, null);
    expect(adapted).toMatchObject({ kind: 'gap', marketSlug: 'btc' });
    expect(adapted.kind === 'gap' ? adapted.reason : '').toContain('sizeRaw');
  });

  it('a frame about another account only is none of ours; a bare MINED of an unknown trade is a gap', () => {
    const adapter = new OrderEventAdapter(options);
    expect(adapter.adapt(frame({ source: 'SETTLEMENT', type: 'MATCHED', eventId: 'settlement:t5', makerMatches: [{ ...MATCH, account: '0xabc', orderId: 'x' }] }))).toEqual({ kind: 'none' });
    expect(adapter.adapt(frame({ source: 'SETTLEMENT', type: 'MINED', eventId: 'settlement:t6', marketSlug: 'btc' }))).toMatchObject({ kind: 'gap', marketSlug: 'btc' });
  });
});

describe('orderEventHints', () => {
  it('reads what an unreadable payload still names, ignoring wrong types', () => {
    expect(orderEventHints({ marketSlug: 'btc', marketId: 5, orderId: 'o1', takerOrderId: 'o2', clientOrderId: 7 })).toEqual({
      marketSlug: 'btc',
      marketId: '5',
      orderIds: ['o2', 'o1'],
      clientOrderId: '7',
    });
    expect(orderEventHints('garbage')).toEqual({ marketSlug: null, marketId: null, orderIds: [], clientOrderId: null });
    expect(orderEventHints({ marketSlug: { x: 1 } }).marketSlug).toBeNull();
  });
});
