/**
 * Small parts of the composition root, through their public entries on a manual clock: Timers (periodic, one-shot at
 * a clock time, all canceled together), TradedMarkets (resolved once), OrderRecorder (ledger order rows, adopted
 * orders updated not re-recorded, updates in chunks per turn, nothing after close).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { newOrder } from '../../../src/orders/order-record.js';
import { OrderRecorder } from '../../../src/booking/order-recorder.js';
import { Timers } from '../../../src/app/timers.js';
import { TradedMarkets } from '../../../src/markets/traded-markets.js';
import { memoryLedger, T0 } from '../../support/ledger-fixtures.js';
import { market } from '../../support/views.js';

describe('Timers', () => {
  it('every: runs each period, keeps running after a throw; cancelAll stops it for good', () => {
    const clock = new ManualClock(0);
    const timers = new Timers(clock);
    let runs = 0;
    timers.every(100, () => {
      runs += 1;
      if (runs === 2) throw new Error('boom');
    });
    clock.advance(100);
    expect(() => clock.advance(100)).toThrow('boom');
    clock.advance(100);
    expect(runs).toBe(3);
    timers.cancelAll();
    clock.advance(1_000);
    expect(runs).toBe(3);
    expect(clock.pending()).toBe(0);
  });

  it('every: the returned function cancels that timer alone', () => {
    const clock = new ManualClock(0);
    const timers = new Timers(clock);
    let a = 0;
    let b = 0;
    const stopA = timers.every(10, () => (a += 1));
    timers.every(10, () => (b += 1));
    clock.advance(20);
    stopA();
    clock.advance(20);
    expect([a, b]).toEqual([2, 4]);
  });

  it('at: runs once at the clock time, never when the time has passed; far times re-arm until due', () => {
    const clock = new ManualClock(1_000);
    const timers = new Timers(clock);
    const fired: number[] = [];
    timers.at(1_500, () => fired.push(clock.now()));
    timers.at(999, () => fired.push(-1));
    const far = 1_000 + 2 ** 31 + 5;
    timers.at(far, () => fired.push(clock.now()));
    clock.advance(500);
    expect(fired).toEqual([1_500]);
    clock.advanceTo(far);
    expect(fired).toEqual([1_500, far]);
  });

  it('nothing armed after cancelAll runs', () => {
    const clock = new ManualClock(0);
    const timers = new Timers(clock);
    timers.cancelAll();
    let runs = 0;
    timers.every(10, () => (runs += 1));
    timers.at(10, () => (runs += 1));
    clock.advance(100);
    expect(runs).toBe(0);
  });
});

describe('TradedMarkets', () => {
  it('knows its markets by slug and venue id; a market resolves once, only a traded one', () => {
    const markets = new TradedMarkets([{ slug: 'a', id: 1 }, { slug: 'b', id: 2 }], (m) => market({ slug: m.slug }));
    expect(markets.slugs()).toEqual(['a', 'b']);
    expect(markets.isTraded('b')).toBe(true);
    expect(markets.isTraded('c')).toBe(false);
    expect(markets.info('a')).toEqual(market({ slug: 'a' }));
    expect(markets.slugOfMarketId('2')).toBe('b');
    expect(markets.slugOfMarketId('3')).toBeNull();
    expect(markets.markResolved('c')).toBe(false);
    expect(markets.markResolved('a')).toBe(true);
    expect(markets.markResolved('a')).toBe(false);
    expect(markets.isResolved('a')).toBe(true);
    expect(markets.isResolved('b')).toBe(false);
  });
});

describe('OrderRecorder', () => {
  const order = newOrder(
    { clientOrderId: 'om-k1-bid-0-1', marketSlug: 'btc', slot: 'bid-0', token: 'YES', tokenId: '101', side: 'BUY', priceTicks: 450, sizeRaw: 5_000_000, postOnly: true, orderType: 'GTC' },
    T0,
  );

  it('records a new order once, then updates it; an adopted order the ledger knows is updated, not recorded anew', async () => {
    const writes: string[] = [];
    const ledger = memoryLedger({ observer: { onWrite: (operation) => writes.push(operation) } });
    const recorder = new OrderRecorder(ledger);
    recorder.record(order, null);
    const live = { ...order, state: 'live' as const, orderId: 'o-1', updatedAtMs: T0 + 5 };
    recorder.record(live, order);
    // Written from a microtask, before anything the burst awaits: both changes in one transaction.
    expect(ledger.getOrder({ clientOrderId: order.clientOrderId })).toBeNull();
    await Promise.resolve();
    expect(ledger.getOrder({ clientOrderId: order.clientOrderId })).toMatchObject({ status: 'live', venueOrderId: 'o-1', postOnly: true });
    expect(writes).toEqual(['atomically']);
    // After a restart the same order is adopted (previous null): brought up to date, no conflict.
    const again = new OrderRecorder(ledger);
    again.record({ ...live, state: 'partially-filled', remainingRaw: 2_000_000, adopted: true, updatedAtMs: T0 + 9 }, null);
    again.flush();
    expect(ledger.getOrder({ clientOrderId: order.clientOrderId })).toMatchObject({ status: 'partially-filled', remainingRaw: 2_000_000 });
    ledger.close();
  });

  it('a batch the ledger refuses is written change by change: the good ones land, the bad one is reported', () => {
    const ledger = memoryLedger();
    const errors: string[] = [];
    const recorder = new OrderRecorder(ledger, { defer: () => undefined, onError: (_error, bad) => errors.push(bad.clientOrderId) });
    const other = { ...order, clientOrderId: 'om-k1-bid-0-2' };
    recorder.record(order, null);
    // A price the ledger refuses (no tick 0).
    const bad = { ...order, clientOrderId: 'om-k1-bid-0-3', priceTicks: 0 };
    recorder.record(bad, null);
    recorder.record(other, null);
    recorder.flush();
    expect(ledger.getOrder({ clientOrderId: order.clientOrderId })).toMatchObject({ priceTicks: 450 });
    expect(ledger.getOrder({ clientOrderId: other.clientOrderId })).not.toBeNull();
    expect(ledger.getOrder({ clientOrderId: bad.clientOrderId })).toBeNull();
    expect(errors).toEqual([bad.clientOrderId]);
    ledger.close();
  });

  it('a new order is written before anything its burst awaits; updates alone wait for the end of the tick', async () => {
    const ledger = memoryLedger();
    const later: (() => void)[] = [];
    const recorder = new OrderRecorder(ledger, { later: (fn) => later.push(fn) });
    recorder.record(order, null);
    await Promise.resolve();
    expect(ledger.getOrder({ clientOrderId: order.clientOrderId })).toMatchObject({ status: 'pending-new' });
    recorder.record({ ...order, state: 'live', orderId: 'o-1', updatedAtMs: T0 + 5 }, order);
    await Promise.resolve();
    expect(ledger.getOrder({ clientOrderId: order.clientOrderId })).toMatchObject({ status: 'pending-new' });
    expect(later).toHaveLength(1);
    for (const fn of later) fn();
    expect(ledger.getOrder({ clientOrderId: order.clientOrderId })).toMatchObject({ status: 'live', venueOrderId: 'o-1' });
    ledger.close();
  });

  it('updates alone are written at most updateChunk per turn, oldest first; a new order writes everything pending at once', async () => {
    const writes: string[] = [];
    const ledger = memoryLedger({ observer: { onWrite: (operation) => writes.push(operation) } });
    const later: (() => void)[] = [];
    const recorder = new OrderRecorder(ledger, { later: (fn) => later.push(fn), updateChunk: 2 });
    const orders = [1, 2, 3, 4, 5].map((i) => ({ ...order, clientOrderId: `om-k1-bid-0-${i}` }));
    for (const o of orders) recorder.record(o, null);
    await Promise.resolve();
    expect(writes).toEqual(['atomically']);
    for (const [i, o] of orders.entries()) recorder.record({ ...o, state: 'live', orderId: `o-${i}`, updatedAtMs: T0 + 5 }, o);
    const status = (): string[] => orders.map((o) => ledger.getOrder({ clientOrderId: o.clientOrderId })?.status ?? 'none');
    expect(later).toHaveLength(1);
    later.shift()!();
    expect(status()).toEqual(['live', 'live', 'pending-new', 'pending-new', 'pending-new']);
    expect(later).toHaveLength(1); // the rest at the end of the next turn
    later.shift()!();
    expect(status()).toEqual(['live', 'live', 'live', 'live', 'pending-new']);
    // A new order before the last chunk's turn: its write-ahead flush takes the pending update with it, in order.
    const sixth = { ...order, clientOrderId: 'om-k1-bid-0-6' };
    recorder.record(sixth, null);
    await Promise.resolve();
    expect(status()).toEqual(['live', 'live', 'live', 'live', 'live']);
    expect(ledger.getOrder({ clientOrderId: sixth.clientOrderId })).toMatchObject({ status: 'pending-new' });
    for (const fn of later.splice(0)) fn();
    expect(later).toHaveLength(0);
    expect(writes).toEqual(['atomically', 'atomically', 'atomically', 'atomically']);
    ledger.close();
  });

  it('close writes what is pending, then nothing', () => {
    const ledger = memoryLedger();
    const recorder = new OrderRecorder(ledger, { defer: () => undefined });
    recorder.record(order, null);
    recorder.close();
    recorder.record({ ...order, state: 'live', orderId: 'o-1' }, order);
    recorder.flush();
    expect(ledger.getOrder({ clientOrderId: order.clientOrderId })).toMatchObject({ status: 'pending-new' });
    ledger.close();
  });

  it('writes nothing after close', () => {
    const ledger = memoryLedger();
    const recorder = new OrderRecorder(ledger);
    recorder.close();
    recorder.record(order, null);
    expect(ledger.getOrder({ clientOrderId: order.clientOrderId })).toBeNull();
    ledger.close();
  });
});
