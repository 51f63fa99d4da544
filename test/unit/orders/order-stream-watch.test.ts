/**
 * Lost order events noticed from the book: the pure comparison (book-check.ts) and the watch's grace period,
 * cooldown and resync (order-stream-watch.ts) on a manual clock.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { bookShortfalls, yesLevelOf, type BookLevels, type OwnRestingOrder } from '../../../src/orders/book-check.js';
import { OrderStreamWatch } from '../../../src/orders/order-stream-watch.js';

const T0 = 1_000_000;
const bid = (priceTicks: number, remainingRaw: number, overrides: Partial<OwnRestingOrder> = {}): OwnRestingOrder => ({
  token: 'YES',
  side: 'BUY',
  priceTicks,
  remainingRaw,
  state: 'live',
  updatedAtMs: T0,
  ...overrides,
});
const book = (bids: [number, number][], asks: [number, number][] = []): BookLevels => ({
  bids: bids.map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw })),
  asks: asks.map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw })),
});
const judge = { nowMs: T0 + 5_000, settledForMs: 2_000, toleranceRaw: 10_000 };

describe('yesLevelOf', () => {
  it('puts NO orders on the YES book at 1 − p, on the opposite side', () => {
    expect(yesLevelOf({ token: 'YES', side: 'BUY', priceTicks: 480 })).toEqual({ side: 'bid', priceTicks: 480 });
    expect(yesLevelOf({ token: 'YES', side: 'SELL', priceTicks: 520 })).toEqual({ side: 'ask', priceTicks: 520 });
    expect(yesLevelOf({ token: 'NO', side: 'BUY', priceTicks: 480 })).toEqual({ side: 'ask', priceTicks: 520 });
    expect(yesLevelOf({ token: 'NO', side: 'SELL', priceTicks: 470 })).toEqual({ side: 'bid', priceTicks: 530 });
  });
});

describe('bookShortfalls', () => {
  it('finds a level holding less than the own orders resting there (summed), on either side', () => {
    const orders = [bid(480, 5_000_000), bid(480, 2_000_000), { ...bid(480, 5_000_000), token: 'NO' as const }];
    expect(bookShortfalls(orders, book([[480, 20_000_000]], [[520, 5_000_000]]), judge)).toEqual([]);
    expect(bookShortfalls(orders, book([[480, 6_000_000]], []), judge)).toEqual([
      { side: 'ask', priceTicks: 520, ownRaw: 5_000_000, bookRaw: 0 },
      { side: 'bid', priceTicks: 480, ownRaw: 7_000_000, bookRaw: 6_000_000 },
    ]);
  });

  it('ignores orders not acknowledged live, changed recently, or within the rounding tolerance', () => {
    const empty = book([]);
    for (const state of ['pending-new', 'pending-cancel', 'unknown', 'filled', 'canceled'] as const) {
      expect(bookShortfalls([bid(480, 5_000_000, { state })], empty, judge), state).toEqual([]);
    }
    expect(bookShortfalls([bid(480, 5_000_000, { updatedAtMs: T0 + 4_000 })], empty, judge)).toEqual([]);
    expect(bookShortfalls([bid(480, 5_000_000)], book([[480, 4_990_000]]), judge)).toEqual([]);
    expect(bookShortfalls([bid(480, 5_000_000, { state: 'partially-filled' })], empty, judge)).toHaveLength(1);
  });

  it('does not judge a level deeper than the book shows on its side (a truncated book)', () => {
    const deepBid = bid(300, 5_000_000);
    const deepAsk = { ...bid(300, 5_000_000), token: 'NO' as const }; // a YES ask at 0.700
    const shown = book([[480, 1_000_000], [470, 1_000_000]], [[520, 1_000_000], [540, 1_000_000]]);
    expect(bookShortfalls([deepBid, deepAsk], shown, judge)).toEqual([]);
    // Inside the shown range, a missing level is a shortfall.
    expect(bookShortfalls([bid(475, 5_000_000)], shown, judge)).toEqual([{ side: 'bid', priceTicks: 475, ownRaw: 5_000_000, bookRaw: 0 }]);
  });
});

function rig(options: { cooldownMs?: number } = {}) {
  const clock = new ManualClock(T0);
  const state = { orders: [bid(480, 5_000_000)], book: book([[480, 5_000_000]]) as BookLevels | null, resyncs: [] as string[], gaps: 0 };
  const watch = new OrderStreamWatch({
    scheduler: clock,
    ownOrders: () => state.orders,
    book: () => state.book,
    resync: (slug) => {
      state.resyncs.push(slug);
      return Promise.resolve();
    },
    log: pino({ level: 'silent' }),
    onGap: () => {
      state.gaps += 1;
    },
    graceMs: 2_000,
    ...(options.cooldownMs === undefined ? {} : { cooldownMs: options.cooldownMs }),
  });
  return { clock, state, watch };
}

describe('OrderStreamWatch', () => {
  it('resyncs a market whose book keeps lacking an own order past the grace period', async () => {
    const { clock, state, watch } = rig();
    clock.advance(5_000);
    state.book = book([[470, 9_000_000]]); // the bid at 480 was taken; its event never came
    watch.onBook('m');
    clock.advance(1_999);
    expect(state.resyncs).toEqual([]);
    clock.advance(1);
    expect(state.resyncs).toEqual(['m']);
    expect(state.gaps).toBe(1);
  });

  it('does nothing when the event arrives within the grace period, or the book shows the order again', () => {
    const { clock, state, watch } = rig();
    clock.advance(5_000);
    state.book = book([]);
    watch.onBook('m');
    clock.advance(500);
    state.orders = [{ ...bid(480, 0), state: 'filled', updatedAtMs: clock.now() }];
    clock.advance(5_000);
    expect(state.resyncs).toEqual([]);

    state.orders = [bid(480, 5_000_000)];
    state.book = book([]);
    watch.onBook('m');
    state.book = book([[480, 5_000_000]]);
    watch.onBook('m');
    clock.advance(5_000);
    expect(state.resyncs).toEqual([]);
  });

  it('never judges a stale book, and resyncs at most once per cooldown', async () => {
    const { clock, state, watch } = rig({ cooldownMs: 15_000 });
    clock.advance(5_000);
    state.book = null;
    watch.onBook('m');
    clock.advance(10_000);
    expect(state.resyncs).toEqual([]);

    state.book = book([]);
    watch.onBook('m');
    clock.advance(2_000);
    expect(state.resyncs).toEqual(['m']);
    await new Promise((resolve) => setImmediate(resolve));
    // Still short (say the resync could not fix it): judged again only once the cooldown (15 s from the resync) is over.
    watch.onBook('m');
    clock.advance(2_000);
    expect(state.resyncs).toHaveLength(1);
    clock.advance(12_999);
    expect(state.resyncs).toHaveLength(1);
    clock.advance(1);
    expect(state.resyncs).toHaveLength(2);
  });

  it('stop() cancels a pending grace timer', () => {
    const { clock, state, watch } = rig();
    clock.advance(5_000);
    state.book = book([]);
    watch.onBook('m');
    watch.stop();
    clock.advance(60_000);
    expect(state.resyncs).toEqual([]);
  });
});
