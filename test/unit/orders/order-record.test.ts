import { describe, expect, it } from 'vitest';
import {
  adoptedOrder,
  applyFill,
  applyReport,
  confirmCancel,
  markLost,
  markRejected,
  markUnknown,
  newOrder,
  refuseCancel,
  requestCancel,
  type TrackedOrder,
} from '../../../src/orders/order-record.js';
import { IllegalTransitionError } from '../../../src/orders/order-state.js';

const base = (): TrackedOrder =>
  newOrder(
    { clientOrderId: 'mm1-ba7816bf-bid-0-1', marketSlug: 'm', slot: 'bid-0', token: 'YES', tokenId: '1', side: 'BUY', priceTicks: 500, sizeRaw: 10_000_000, postOnly: true, orderType: 'GTC' },
    1000,
  );
const live = (): TrackedOrder => applyReport(base(), { orderId: 'o1', status: 'LIVE', remainingRaw: 10_000_000, reason: null }, 1001).order;
const fill = (id: string, sizeRaw: number, settlement: 'provisional' | 'mined' | 'failed' = 'provisional') => ({ tradeEventId: id, sizeRaw, priceTicks: 500, settlement });

describe('order record', () => {
  it('moves pending-new → live on the placement answer and links the venue id', () => {
    const applied = applyReport(base(), { orderId: 'o1', status: 'LIVE', remainingRaw: 10_000_000, reason: null }, 1001, { atPlacement: true });
    expect(applied.order).toMatchObject({ state: 'live', orderId: 'o1', remainingRaw: 10_000_000 });
    expect(applied.transition).toEqual({ from: 'pending-new', to: 'live', cause: 'venue-report' });
  });

  it('treats a placement answered CANCELED with nothing matched as rejected, with the venue reason', () => {
    const applied = applyReport(base(), { orderId: 'o1', status: 'CANCELED', remainingRaw: 10_000_000, reason: 'STP_TAKER_REJECTED' }, 1001, { atPlacement: true });
    expect(applied.order).toMatchObject({ state: 'rejected', reason: 'STP_TAKER_REJECTED' });
  });

  it('keeps remaining monotone: a stale PLACEMENT after an EXECUTION does not un-fill', () => {
    const partial = applyReport(live(), { orderId: 'o1', status: 'LIVE', remainingRaw: 4_000_000, reason: null }, 1002).order;
    expect(partial.state).toBe('partially-filled');
    const stale = applyReport(partial, { orderId: 'o1', status: 'LIVE', remainingRaw: 10_000_000, reason: null }, 1003);
    expect(stale.order).toMatchObject({ state: 'partially-filled', remainingRaw: 4_000_000 });
    expect(stale.transition).toBeNull();
  });

  it('records each fill once per tradeEventId and emits settlement updates once each', () => {
    let order = live();
    const first = applyFill(order, fill('t1', 3_000_000), 1500, 1500);
    expect(first.fills).toEqual([{ fill: { ...fill('t1', 3_000_000), atMs: 1500 }, update: false }]);
    order = first.order;
    expect(order).toMatchObject({ state: 'partially-filled', filledRaw: 3_000_000, remainingRaw: 7_000_000, lastFillAtMs: 1500 });
    expect(applyFill(order, fill('t1', 3_000_000), 1500, 1600).fills).toEqual([]);
    const mined = applyFill(order, fill('t1', 3_000_000, 'mined'), 1700, 1700);
    expect(mined.fills).toEqual([{ fill: { ...fill('t1', 3_000_000, 'mined'), atMs: 1500 }, update: true }]);
    expect(applyFill(mined.order, fill('t1', 3_000_000, 'mined'), 1700, 1800).fills).toEqual([]);
    expect(applyFill(mined.order, fill('t1', 3_000_000, 'provisional'), 1700, 1800).fills).toEqual([]);
    expect(applyFill(mined.order, fill('t1', 3_000_000, 'failed'), 1700, 1800).fills).toEqual([]);
  });

  it('a failed settlement is emitted and leaves the fill out of filledRaw', () => {
    const order = applyFill(live(), fill('t1', 3_000_000), 1500, 1500).order;
    const failed = applyFill(order, fill('t1', 3_000_000, 'failed'), 1600, 1600);
    expect(failed.fills[0]?.fill.settlement).toBe('failed');
    expect(failed.order.filledRaw).toBe(0);
  });

  it('a full fill ends the order as filled; a fill while a cancel is in flight keeps pending-cancel unless full', () => {
    expect(applyFill(live(), fill('t1', 10_000_000), 1500, 1500).order.state).toBe('filled');
    const canceling = requestCancel(live(), 1400).order;
    expect(canceling.state).toBe('pending-cancel');
    const partly = applyFill(canceling, fill('t1', 2_000_000), 1500, 1500);
    expect(partly.order.state).toBe('pending-cancel');
    expect(partly.fills).toHaveLength(1);
    expect(applyFill(partly.order, fill('t2', 8_000_000), 1500, 1500).order.state).toBe('filled');
  });

  it('a late fill after the cancel is recorded without resurrecting the order', () => {
    const canceled = confirmCancel(requestCancel(live(), 1400).order, 'by bot', 1450).order;
    const late = applyFill(canceled, fill('t9', 1_000_000), 1300, 1500);
    expect(late.order.state).toBe('canceled');
    expect(late.order.filledRaw).toBe(1_000_000);
    expect(late.fills).toHaveLength(1);
    expect(late.illegal).toBeNull();
  });

  it('keeps a canceled order canceled when a late frame reports it resting, taking its remaining size', () => {
    const canceled = confirmCancel(requestCancel(live(), 1400).order, null, 1450).order;
    const applied = applyReport(canceled, { orderId: 'o1', status: 'LIVE', remainingRaw: 7_000_000, reason: null }, 1500);
    expect(applied.illegal).toBeNull();
    expect(applied.order).toMatchObject({ state: 'canceled', remainingRaw: 7_000_000 });
  });

  it('refuses an illegal report (a lost order reported live) and leaves the state', () => {
    const lost = markLost(markUnknown(base(), 1100).order, 1200).order;
    const applied = applyReport(lost, { orderId: 'o1', status: 'LIVE', remainingRaw: 10_000_000, reason: null }, 1500);
    expect(applied.illegal).toBeInstanceOf(IllegalTransitionError);
    expect(applied.illegal?.from).toBe('rejected');
    // The state is left; only the venue id is learned, so the executor can cancel that order.
    expect(applied.order).toEqual({ ...lost, orderId: 'o1', updatedAtMs: 1500 });
  });

  it('refuseCancel returns to the resting state; markUnknown/markLost/markRejected follow the table', () => {
    const partial = applyReport(live(), { orderId: 'o1', status: 'LIVE', remainingRaw: 6_000_000, reason: null }, 1002).order;
    expect(refuseCancel(requestCancel(partial, 1003).order, 1004).order.state).toBe('partially-filled');
    expect(refuseCancel(requestCancel(live(), 1003).order, 1004).order.state).toBe('live');
    const unknown = markUnknown(base(), 2000).order;
    expect(unknown).toMatchObject({ state: 'unknown', unknownSinceMs: 2000 });
    expect(markLost(unknown, 3000).order.state).toBe('rejected');
    expect(markRejected(base(), 'validation', 3000).order).toMatchObject({ state: 'rejected', reason: 'validation' });
    expect(markLost(live(), 3000).illegal).toBeInstanceOf(IllegalTransitionError);
    expect(markLost(unknown, 3000, 'not-found-after-grace').order).toMatchObject({ lost: 'not-found-after-grace', reason: 'lost: not found on the venue' });
    expect([base().lost, markRejected(base(), 'validation', 3000).order.lost, unknown.lost]).toEqual([null, null, null]);
    expect(requestCancel(base(), 3000).illegal).toBeInstanceOf(IllegalTransitionError);
  });

  it('adopts a listed order as live or partially-filled', () => {
    const params = { clientOrderId: 'c', orderId: 'o', marketSlug: 'm', slot: 's', token: 'NO' as const, tokenId: '2', side: 'SELL' as const, priceTicks: 400, sizeRaw: 5_000_000, postOnly: false, orderType: 'GTC' as const, createdAtMs: 5 };
    expect(adoptedOrder({ ...params, remainingRaw: 5_000_000 }, 10)).toMatchObject({ state: 'live', adopted: true });
    expect(adoptedOrder({ ...params, remainingRaw: 1_000_000 }, 10)).toMatchObject({ state: 'partially-filled', remainingRaw: 1_000_000 });
  });
});
