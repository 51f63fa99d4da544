/**
 * The order store's open index (src/orders/order-store.ts): `open()` and `openInMarket()` hold exactly the stored
 * orders whose state is open, in the order they were first stored, through every way an order changes or leaves.
 */
import { describe, expect, it } from 'vitest';
import { newOrder, type TrackedOrder } from '../../../src/orders/order-record.js';
import { OrderStore } from '../../../src/orders/order-store.js';

const order = (clientOrderId: string, marketSlug: string): TrackedOrder =>
  newOrder({ clientOrderId, marketSlug, slot: 'bid-0', token: 'YES', tokenId: '101', side: 'BUY', priceTicks: 450, sizeRaw: 5_000_000, postOnly: true, orderType: 'GTC' }, 0);

const ids = (orders: readonly TrackedOrder[]): string[] => orders.map((o) => o.clientOrderId);

describe('OrderStore open index', () => {
  it('follows each state change; a terminal order leaves the index but stays stored until pruned', () => {
    const store = new OrderStore();
    const a = order('a', 'm1');
    const b = order('b', 'm2');
    const c = order('c', 'm1');
    for (const o of [a, b, c]) store.put(o);
    expect(ids(store.open())).toEqual(['a', 'b', 'c']);
    expect(ids(store.openInMarket('m1'))).toEqual(['a', 'c']);

    store.put({ ...a, orderId: 'v-a', state: 'live', updatedAtMs: 5 });
    expect(ids(store.open())).toEqual(['a', 'b', 'c']);
    expect(store.open()[0]?.state).toBe('live');

    store.put({ ...a, orderId: 'v-a', state: 'canceled', updatedAtMs: 10 });
    expect(ids(store.open())).toEqual(['b', 'c']);
    expect(ids(store.openInMarket('m1'))).toEqual(['c']);
    expect(store.get('a')?.state).toBe('canceled');
    expect(store.pruneTerminal('m1', 11)).toBe(1);
    expect(store.get('a')).toBeUndefined();
    expect(ids(store.open())).toEqual(['b', 'c']);
  });

  it('a dropped market leaves no open order behind', () => {
    const store = new OrderStore();
    store.put(order('a', 'm1'));
    store.put(order('b', 'm2'));
    expect(store.dropMarket('m1')).toBe(1);
    expect(ids(store.open())).toEqual(['b']);
    expect(store.openInMarket('m1')).toEqual([]);
  });

  it('an order stored again under another market moves in the index', () => {
    const store = new OrderStore();
    const a = order('a', 'm1');
    store.put(a);
    store.put({ ...a, marketSlug: 'm2' });
    expect(store.openInMarket('m1')).toEqual([]);
    expect(ids(store.openInMarket('m2'))).toEqual(['a']);
    expect(ids(store.open())).toEqual(['a']);
  });
});
