import { describe, expect, it } from 'vitest';
import { formatClientOrderId, marketKey, parseClientOrderId } from '../../../src/orders/client-order-id.js';
import type { ExecutorOptions, PlanOutcome, PlanReport } from '../../../src/orders/executor.js';
import type { TrackedOrder } from '../../../src/orders/order-record.js';
import type { IllegalTransitionError } from '../../../src/orders/order-state.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { executorHarness, EXECUTOR_T0 as T0 } from '../../support/executor-harness.js';
import { advance, FakeVenue, flushAsync, settle, until } from '../../support/fake-venue.js';

const SLUG = 'will-it-rain';
const MARKET = { slug: SLUG, tokens: { yes: '111', no: '222' } };

const bid = (slot: string, priceTicks: number, sizeRaw = 10_000_000): QuoteIntent => ({ slot, token: 'YES', side: 'BUY', priceTicks, sizeRaw, postOnly: true });
const ask = (slot: string, priceTicks: number, sizeRaw = 10_000_000): QuoteIntent => ({ slot, token: 'YES', side: 'SELL', priceTicks, sizeRaw, postOnly: true });

function setup(options: Partial<ExecutorOptions> = {}) {
  const changes: { order: TrackedOrder; previous: TrackedOrder | null }[] = [];
  const illegal: IllegalTransitionError[] = [];
  const plans: PlanReport[] = [];
  const superseded: string[] = [];
  const { scheduler, venue, gate, ids, executor, fills, deliver } = executorHarness({
    markets: [MARKET],
    onOrderChange: (order, previous) => changes.push({ order, previous }),
    observer: {
      onIllegalTransition: (e) => illegal.push(e),
      onPlan: (r) => plans.push(r),
      onSuperseded: (s) => superseded.push(s),
    },
    ...options,
  });
  const run = (intents: readonly QuoteIntent[]): Promise<PlanOutcome> => settle(scheduler, executor.submit(SLUG, intents));
  const liveBySlot = (): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const o of venue.live(SLUG)) {
      if (o.clientOrderId === null || !o.clientOrderId.startsWith('mm1-')) continue;
      const slot = parseClientOrderId(o.clientOrderId).slot;
      counts.set(slot, (counts.get(slot) ?? 0) + 1);
    }
    return counts;
  };
  return { scheduler, venue, gate, ids, executor, fills, changes, illegal, plans, superseded, deliver, run, liveBySlot };
}

async function started(options: Partial<ExecutorOptions> = {}) {
  const ctx = setup(options);
  await settle(ctx.scheduler, ctx.executor.start());
  return ctx;
}

const ops = (venue: FakeVenue): string[] => venue.calls.map((c) => c.op).filter((op) => op !== 'maintenanceStatus' && op !== 'listLiveOrders');

describe('executor: plans', () => {
  it('places new quotes, keeps unchanged ones without any request, and replaces a changed one cancel-first', async () => {
    const { venue, run, executor, liveBySlot } = await started();
    const first = await run([bid('bid-0', 500), ask('ask-0', 520)]);
    expect(first).toMatchObject({ status: 'executed', canceled: [], aborted: null });
    expect(first.status === 'executed' && first.placed).toHaveLength(2);
    expect(venue.live(SLUG)).toHaveLength(2);
    expect(executor.openOrders(SLUG).map((o) => o.state)).toEqual(['live', 'live']);

    const callsBefore = venue.calls.length;
    const same = await run([bid('bid-0', 500), ask('ask-0', 520)]);
    expect(same).toMatchObject({ status: 'executed', placed: [], canceled: [], kept: 2 });
    expect(venue.calls.length).toBe(callsBefore);

    const moved = await run([bid('bid-0', 501), ask('ask-0', 520)]);
    expect(moved).toMatchObject({ status: 'executed', kept: 1 });
    expect(moved.status === 'executed' && [moved.canceled.length, moved.placed.length]).toEqual([1, 1]);
    expect(ops(venue).slice(-2)).toEqual(['cancelOrders', 'placeOrder']);
    expect(venue.live(SLUG).map((o) => o.priceTicks).sort()).toEqual([501, 520]);
    expect([...liveBySlot().values()]).toEqual([1, 1]);
  });

  it('cancels quotes whose slot no longer has an intent, in one batch', async () => {
    const { venue, run } = await started();
    await run([bid('bid-0', 500), bid('bid-1', 490), ask('ask-0', 520)]);
    const outcome = await run([bid('bid-0', 500)]);
    expect(outcome.status === 'executed' && outcome.canceled).toHaveLength(2);
    expect(venue.callsOf('cancelOrders')).toHaveLength(1);
    expect(venue.live(SLUG)).toHaveLength(1);
  });

  it('a newer plan supersedes a queued one instead of queueing behind it', async () => {
    const { venue, scheduler, executor, superseded } = await started();
    const hold = venue.hold('placeOrder');
    const a = executor.submit(SLUG, [bid('bid-0', 500)]);
    await until(scheduler, () => hold.reached);
    const b = executor.submit(SLUG, [bid('bid-0', 510)]);
    const c = executor.submit(SLUG, [bid('bid-0', 520)]);
    expect(await b).toEqual({ status: 'superseded' });
    expect(superseded).toEqual([SLUG]);
    hold.release();
    expect(await settle(scheduler, a)).toMatchObject({ status: 'executed' });
    expect(await settle(scheduler, c)).toMatchObject({ status: 'executed' });
    // B never ran: only A's and C's prices were ever sent.
    expect(venue.callsOf('placeOrder').map((call) => call.detail.split(' ')[3])).toEqual(['500x10000000', '520x10000000']);
    expect(venue.live(SLUG).map((o) => o.priceTicks)).toEqual([520]);
  });

  it('reports malformed intents as invalid and never sends them', async () => {
    const { venue, run } = await started();
    const outcome = await run([bid('bid-0', 0), bid('BAD', 500), bid('ok', 500, 1500)]);
    expect(outcome.status === 'executed' && outcome.invalid).toHaveLength(3);
    expect(venue.callsOf('placeOrder')).toEqual([]);
  });

  it('rejects a submission for an unregistered market with a typed error, and answers not-ready before start', async () => {
    const ctx = setup();
    expect(await ctx.executor.submit(SLUG, [bid('bid-0', 500)])).toEqual({ status: 'not-ready' });
    await expect(ctx.executor.submit('nope', [])).rejects.toThrow(/marketSlug: market not registered/);
  });
});

describe('executor: unknown outcomes', () => {
  it('resolves an unknown placement by clientOrderId without placing a duplicate', async () => {
    const { venue, scheduler, executor, run, liveBySlot } = await started();
    venue.failNextPlace({ kind: 'unknown', applied: true });
    const outcome = await run([bid('bid-0', 500)]);
    expect(outcome.status === 'executed' && outcome.unknown).toHaveLength(1);
    const [unknown] = executor.openOrders(SLUG);
    expect(unknown?.state).toBe('unknown');
    // While unknown, the slot is frozen: the same intents place nothing.
    const frozen = await run([bid('bid-0', 500)]);
    expect(frozen).toMatchObject({ status: 'executed', placed: [] });
    expect(frozen.status === 'executed' && frozen.waits).toEqual([{ slot: 'bid-0', reason: 'unknown', untilMs: null }]);
    await until(scheduler, () => executor.order(unknown!.clientOrderId)?.state === 'live');
    expect(venue.callsOf('statusBatch').length).toBeGreaterThanOrEqual(1);
    await flushAsync();
    expect(venue.callsOf('placeOrder')).toHaveLength(1);
    expect(liveBySlot().get('bid-0')).toBe(1);
  });

  it('marks an unknown placement lost only after N not_found answers and the grace time, then places anew', async () => {
    const { venue, scheduler, executor, run } = await started();
    venue.failNextPlace({ kind: 'unknown', applied: false });
    await run([bid('bid-0', 500)]);
    const [unknown] = executor.openOrders(SLUG);
    const cid = unknown!.clientOrderId;
    await advance(scheduler, 2000);
    expect(executor.order(cid)?.state).toBe('unknown');
    await until(scheduler, () => executor.order(cid)?.state === 'rejected');
    expect(executor.order(cid)).toMatchObject({ lost: 'not-found-after-grace', reason: 'lost: not found on the venue' });
    expect(scheduler.now() - T0).toBeGreaterThanOrEqual(5000);
    expect(venue.callsOf('statusBatch').length).toBeGreaterThanOrEqual(3);
    // The slot is free again: the latest intents are re-run by themselves.
    await until(scheduler, () => venue.live(SLUG).length === 1);
    expect(venue.callsOf('placeOrder')).toHaveLength(2);
    expect(venue.live(SLUG)[0]?.clientOrderId).not.toBe(cid);
  });

  it('keeps retrying a lookup that fails, with backoff, and never counts failures as not_found', async () => {
    const { venue, scheduler, executor, run } = await started();
    venue.failNextPlace({ kind: 'unknown', applied: true });
    for (let i = 0; i < 4; i += 1) venue.failNext('statusBatch', { kind: 'failed' });
    await run([bid('bid-0', 500)]);
    const cid = executor.openOrders(SLUG)[0]!.clientOrderId;
    await until(scheduler, () => executor.order(cid)?.state === 'live', 60_000);
    const times = venue.callsOf('statusBatch').map((c) => c.atMs - T0);
    expect(times.length).toBe(5);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps).toEqual([1000, 2000, 4000, 4000]);
  });

  it('resolves an unknown placement from the socket, replaying a fill that came before the order was linked', async () => {
    const { venue, scheduler, executor, run, deliver, fills } = await started();
    venue.failNextPlace({ kind: 'unknown', applied: true });
    await run([bid('bid-0', 500)]);
    const cid = executor.openOrders(SLUG)[0]!.clientOrderId;
    const venueOrder = venue.byClientOrderId(cid)!;
    const placement = venue.takeEvents();
    venue.fill(venueOrder.orderId, 4_000_000, 'tr-1');
    const fillEvents = venue.takeEvents();
    // The settlement names only the orderId (maker match) and arrives before anything links it.
    deliver(fillEvents.filter((e) => e.source === 'SETTLEMENT'));
    expect(fills).toEqual([]);
    deliver(placement);
    expect(executor.order(cid)).toMatchObject({ orderId: venueOrder.orderId, state: 'partially-filled', filledRaw: 4_000_000 });
    expect(fills).toMatchObject([{ tradeEventId: 'tr-1', clientOrderId: cid, slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 500, sizeRaw: 4_000_000, state: 'provisional' }]);
    deliver(fillEvents);
    expect(fills).toHaveLength(1);
    await advance(scheduler, 10_000);
    expect(venue.callsOf('placeOrder')).toHaveLength(1);
  });

  it('409 on a placement: the order was accepted; it is looked up by clientOrderId and tracked', async () => {
    const { venue, executor, run } = await started();
    venue.failNextPlace({ kind: 'duplicate' });
    const outcome = await run([bid('bid-0', 500)]);
    expect(outcome).toMatchObject({ status: 'executed', unknown: [] });
    expect(outcome.status === 'executed' && outcome.placed).toHaveLength(1);
    const [order] = executor.openOrders(SLUG);
    expect(order).toMatchObject({ state: 'live', orderId: venue.live(SLUG)[0]!.orderId });
    expect(ops(venue)).toEqual(['placeOrder', 'statusBatch']);
  });
});

describe('executor: cancels', () => {
  it('handles a 207 partial cancel: confirmed ones canceled, refused ones looked up and restored', async () => {
    const { venue, executor, run } = await started();
    await run([bid('bid-0', 500), bid('bid-1', 490), bid('bid-2', 480)]);
    const [o0, o1, o2] = ['bid-0', 'bid-1', 'bid-2'].map((slot) => executor.openOrders(SLUG).find((o) => o.slot === slot)!);
    venue.failCancelOf(o1!.orderId!, 'market-resolved'); // refused: still live
    venue.orders.get(o2!.orderId!)!.status = 'CANCELED'; // already gone on the venue, we were not told
    const outcome = await run([]);
    expect(executor.order(o0!.clientOrderId)?.state).toBe('canceled');
    expect(executor.order(o1!.clientOrderId)?.state).toBe('live');
    expect(executor.order(o2!.clientOrderId)?.state).toBe('canceled');
    expect(outcome.status === 'executed' && [...outcome.canceled].sort()).toEqual([o0!.clientOrderId, o2!.clientOrderId].sort());
    expect(ops(venue).slice(-2)).toEqual(['cancelOrders', 'statusBatch']);
  });

  it('a refused cancel whose lookup fails is resolved later by the background lookups', async () => {
    const { venue, scheduler, executor, run, changes } = await started();
    const changesOf = (cid: string): string[] => changes.filter((c) => c.order.clientOrderId === cid && c.order.state !== c.previous?.state).map((c) => c.order.state);
    await run([bid('bid-0', 500)]);
    const order = executor.openOrders(SLUG)[0]!;
    venue.failCancelOf(order.orderId!, 'other');
    venue.failNext('statusBatch', { kind: 'failed' });
    await run([]);
    expect(executor.order(order.clientOrderId)?.state).toBe('pending-cancel');
    // The background lookup finds it resting (the cancel did not take): back to live, and the latest intents
    // (none) cancel it again.
    await until(scheduler, () => venue.live(SLUG).length === 0);
    expect(executor.order(order.clientOrderId)?.state).toBe('canceled');
    expect(venue.callsOf('statusBatch')).toHaveLength(2);
    expect(venue.callsOf('cancelOrders')).toHaveLength(2);
    expect(changesOf(order.clientOrderId)).toEqual(['pending-new', 'live', 'pending-cancel', 'live', 'pending-cancel', 'canceled']);
  });

  it('a cancel with an unknown outcome keeps the slot frozen until a lookup says what happened', async () => {
    const { venue, scheduler, executor, run } = await started();
    await run([bid('bid-0', 500)]);
    const cid = executor.openOrders(SLUG)[0]!.clientOrderId;
    venue.failNext('cancelOrders', { kind: 'unknown', applied: true });
    const outcome = await run([bid('bid-0', 505)]);
    expect(outcome).toMatchObject({ status: 'executed', placed: [] });
    expect(executor.order(cid)?.state).toBe('pending-cancel');
    await until(scheduler, () => executor.order(cid)?.state === 'canceled');
    // Once resolved, the replacement is placed by itself.
    await until(scheduler, () => venue.live(SLUG).length === 1);
    expect(venue.live(SLUG)[0]?.priceTicks).toBe(505);
  });

  it('records a fill that arrives after the cancel, without resurrecting the order', async () => {
    const { venue, executor, run, deliver, fills, illegal } = await started();
    await run([bid('bid-0', 500)]);
    deliver();
    const order = executor.openOrders(SLUG)[0]!;
    venue.fill(order.orderId!, 3_000_000, 'late-1'); // matched on the venue before our cancel; frames delayed
    const frames = venue.takeEvents();
    await run([]);
    expect(executor.order(order.clientOrderId)?.state).toBe('canceled');
    deliver(frames);
    expect(executor.order(order.clientOrderId)).toMatchObject({ state: 'canceled', filledRaw: 3_000_000 });
    expect(fills).toMatchObject([{ tradeEventId: 'late-1', sizeRaw: 3_000_000, state: 'provisional' }]);
    expect(illegal).toEqual([]);
  });
});

describe('executor: socket events', () => {
  it('applies OME and SETTLEMENT in either order, deduplicated, and emits each settlement state once', async () => {
    const { venue, executor, run, deliver, fills } = await started();
    await run([bid('bid-0', 500)]);
    deliver();
    const order = executor.openOrders(SLUG)[0]!;
    venue.fill(order.orderId!, 4_000_000, 'a');
    venue.fill(order.orderId!, 6_000_000, 'b');
    const frames = venue.takeEvents();
    deliver([...frames].reverse());
    deliver(frames);
    expect(executor.order(order.clientOrderId)).toMatchObject({ state: 'filled', remainingRaw: 0, filledRaw: 10_000_000 });
    expect(fills.map((f) => `${f.tradeEventId}:${f.state}:${f.sizeRaw}`).sort()).toEqual(['a:provisional:4000000', 'b:provisional:6000000']);
    venue.settle(order.orderId!, 'a', 'MINED');
    venue.settle(order.orderId!, 'b', 'FAILED');
    const settlements = venue.takeEvents();
    deliver([...settlements, ...settlements]);
    expect(fills.slice(2).map((f) => `${f.tradeEventId}:${f.state}:${f.update}`)).toEqual(['a:mined:true', 'b:failed:true']);
  });

  it('logs and ignores an illegal transition, and cancels a "lost" order that turns out to be live', async () => {
    const { venue, scheduler, executor, run, deliver, illegal, liveBySlot } = await started();
    venue.failNextPlace({ kind: 'unknown', applied: true });
    await run([bid('bid-0', 500)]);
    const cid = executor.openOrders(SLUG)[0]!.clientOrderId;
    venue.hideFromLookup(cid, 100); // the venue's lookup lags: the order is given up as lost
    const placementFrame = venue.takeEvents();
    await until(scheduler, () => executor.order(cid)?.state === 'rejected');
    await until(scheduler, () => venue.live(SLUG).length === 2); // the slot was re-placed
    deliver(placementFrame); // ...and then the socket shows the "lost" one resting
    expect(illegal.map((e) => `${e.from}>${e.to}`)).toEqual(['rejected>live']);
    expect(executor.order(cid)?.state).toBe('rejected');
    await until(scheduler, () => venue.live(SLUG).length === 1);
    expect(venue.byClientOrderId(cid)?.status).toBe('CANCELED');
    expect(liveBySlot().get('bid-0')).toBe(1);
  });

  it('a "lost" order found resting whose cancel is rate limited: the market resyncs and cancels it', async () => {
    const { venue, scheduler, executor, run, deliver, liveBySlot } = await started();
    venue.failNextPlace({ kind: 'unknown', applied: true });
    await run([bid('bid-0', 500)]);
    const cid = executor.openOrders(SLUG)[0]!.clientOrderId;
    venue.hideFromLookup(cid, 100);
    const placementFrame = venue.takeEvents();
    await until(scheduler, () => executor.order(cid)?.state === 'rejected');
    await until(scheduler, () => venue.live(SLUG).length === 2);
    const listingsBefore = venue.calls.filter((c) => c.op === 'listLiveOrders').length;
    venue.failNext('cancelOrders', { kind: 'rate-limited' }); // the stray's own cancel is turned away
    deliver(placementFrame);
    await until(scheduler, () => venue.byClientOrderId(cid)?.status === 'CANCELED');
    expect(venue.calls.filter((c) => c.op === 'listLiveOrders').length).toBeGreaterThan(listingsBefore);
    expect(liveBySlot().get('bid-0')).toBe(1);
  });

  it('drops malformed frames and counts foreign ones without touching state', async () => {
    const untracked: string[] = [];
    const { executor, scheduler } = await started({ observer: { onUntrackedEvent: (reason) => untracked.push(reason) } });
    executor.onOrderEvent({ source: 'OME', type: 'UPDATE', eventId: '', orderId: 'x', remainingRaw: 1, atMs: scheduler.now() });
    executor.onOrderEvent({ source: 'OME', type: 'UPDATE', eventId: '1', orderId: 'x', remainingRaw: -5, atMs: scheduler.now() });
    executor.onOrderEvent({ source: 'OME', type: 'UPDATE', eventId: '2', orderId: 'x', clientOrderId: 'manual-123', remainingRaw: 1, atMs: scheduler.now() });
    expect(untracked).toEqual(['invalid', 'invalid', 'foreign']);
    expect(executor.openOrders()).toEqual([]);
  });

  it('does not re-place a filled slot before the cool-off ends, then does so by itself', async () => {
    const { venue, scheduler, executor, run, deliver } = await started({ reconcile: { coolOffMs: 5000 } });
    await run([bid('bid-0', 500)]);
    const order = executor.openOrders(SLUG)[0]!;
    venue.fill(order.orderId!, 10_000_000, 'f1');
    deliver();
    expect(executor.order(order.clientOrderId)?.state).toBe('filled');
    const fillAt = scheduler.now();
    await advance(scheduler, 100); // the strategy quotes again, having seen the fill
    const outcome = await run([bid('bid-0', 500)]);
    expect(outcome.status === 'executed' && outcome.waits).toEqual([{ slot: 'bid-0', reason: 'cool-off', untilMs: fillAt + 5000 }]);
    await until(scheduler, () => venue.live(SLUG).length === 1);
    expect(scheduler.now()).toBeGreaterThanOrEqual(fillAt + 5000);
  });
});

describe('executor: resync and robustness', () => {
  it('resync after a reconnect: finds out how vanished orders ended, adopts an untracked one of ours', async () => {
    const { venue, scheduler, executor, run, deliver, fills } = await started();
    await run([bid('bid-0', 500), bid('bid-1', 490)]);
    venue.takeEvents();
    const [o0, o1] = ['bid-0', 'bid-1'].map((slot) => executor.openOrders(SLUG).find((o) => o.slot === slot)!);
    // While the socket was down: bid-0 filled completely, bid-1 was canceled by the venue, and one of our
    // orders from an earlier run showed up in a new slot. None of the frames arrived while it was down.
    venue.fill(o0!.orderId!, 10_000_000, 'gap-fill');
    venue.venueCancel(o1!.orderId!);
    venue.takeEvents();
    const stray = venue.seedOrder({ clientOrderId: formatClientOrderId({ botTag: 'mm1', marketKey: marketKey(SLUG), slot: 'ask-9', sequence: 5 }), marketSlug: SLUG, tokenId: '111', side: 'SELL', priceTicks: 600, sizeRaw: 1_000_000 });
    // The venue's lookup reports bid-0 MATCHED with nothing left but (a maker fill) without the fill itself, as the
    // real venue does: the fill reaches the executor as a socket frame, here the gap fill's SETTLEMENT MINED frame,
    // which arrives once the feed is back, while the resync is looking the vanished orders up.
    const lookup = venue.hold('statusBatch');
    const resync = executor.resync(SLUG);
    await until(scheduler, () => lookup.reached);
    venue.settle(o0!.orderId!, 'gap-fill', 'MINED');
    deliver();
    lookup.release();
    const report = await settle(scheduler, resync);
    expect(report).toMatchObject({ ok: true, adopted: 1 });
    expect(executor.order(o0!.clientOrderId)).toMatchObject({ state: 'filled', filledRaw: 10_000_000 });
    expect(fills.map((f) => f.tradeEventId)).toEqual(['gap-fill']);
    expect(executor.order(o1!.clientOrderId)?.state).toBe('canceled');
    // The adopted stray has no intent: the re-run of the latest intents cancels it; the freed slots stay empty
    // (bid-0 filled after those intents were computed, so only a fresh quote re-places it).
    await until(scheduler, () => venue.orders.get(stray.orderId)?.status === 'CANCELED');
    await advance(scheduler, 1000);
    expect(venue.live(SLUG).map((o) => o.priceTicks)).toEqual([490]);
  });

  // Found by the VenuePort contract (test/contract): when NO frame of a gap fill has arrived by the time the resync's
  // lookup answers (MATCHED, remaining 0, no fill: the real venue's answer for a maker fill), the order traded at a time
  // no fill told: it counts as filled now, so the re-run does not place bid-0 again from the intents issued before.
  it('resync: a slot whose order filled unseen during the gap is not re-placed from the intents issued before the fill', async () => {
    const { venue, scheduler, executor, run } = await started();
    await run([bid('bid-0', 500), bid('bid-1', 490)]);
    venue.takeEvents();
    const o0 = executor.openOrders(SLUG).find((o) => o.slot === 'bid-0')!;
    venue.fill(o0.orderId!, 10_000_000, 'gap-fill');
    venue.takeEvents(); // every frame of the fill is lost
    const report = await settle(scheduler, executor.resync(SLUG));
    expect(report).toMatchObject({ ok: true });
    expect(executor.order(o0.clientOrderId)?.state).toBe('filled');
    expect(executor.order(o0.clientOrderId)?.lastFillAtMs).not.toBeNull();
    await advance(scheduler, 1000);
    expect(venue.live(SLUG).map((o) => o.priceTicks)).toEqual([490]);
  });

  it('a failing onFill or observer hook does not stop order handling', async () => {
    const errors: string[] = [];
    const { venue, executor, run, deliver } = await started({
      onFill: () => {
        throw new Error('ledger unavailable');
      },
      observer: {
        onTransition: () => {
          throw new Error('metrics broken');
        },
      },
      log: { info: () => undefined, warn: () => undefined, error: (_obj, msg) => errors.push(msg) },
    });
    await run([bid('bid-0', 500)]);
    const order = executor.openOrders(SLUG)[0]!;
    expect(order.state).toBe('live');
    venue.fill(order.orderId!, 10_000_000, 'x');
    deliver();
    expect(executor.order(order.clientOrderId)?.state).toBe('filled');
    expect(errors).toContain('onFill failed');
    expect(errors).toContain('observer hook failed');
  });

  it('keeps two matches of one order in one trade as two fills', async () => {
    const { executor, scheduler, run, deliver, fills } = await started();
    await run([bid('bid-0', 500)]);
    deliver();
    const order = executor.openOrders(SLUG)[0]!;
    const frame = {
      source: 'SETTLEMENT' as const,
      type: 'MATCHED' as const,
      eventId: 'settlement:t7',
      tradeEventId: 't7',
      fills: [
        { orderId: order.orderId!, role: 'maker' as const, sizeRaw: 2_000_000, priceTicks: 500 },
        { orderId: order.orderId!, role: 'maker' as const, sizeRaw: 3_000_000, priceTicks: 500 },
      ],
      atMs: scheduler.now(),
    };
    executor.onOrderEvent(frame);
    executor.onOrderEvent({ ...frame, type: 'MINED' });
    expect(fills.map((f) => `${f.tradeEventId}:${f.sizeRaw}:${f.state}`)).toEqual(['t7:2000000:provisional', 't7/2:3000000:provisional', 't7:2000000:mined', 't7/2:3000000:mined']);
    expect(executor.order(order.clientOrderId)).toMatchObject({ filledRaw: 5_000_000, remainingRaw: 5_000_000, state: 'partially-filled' });
  });
});

describe('executor: trading modes', () => {
  it('a TradingModeError updates the gate and drops the rest of the plan; nothing forbidden is sent afterwards', async () => {
    const { venue, gate, executor, run } = await started();
    venue.failNextPlace({ kind: 'trading-mode', mode: 'cancel_only', resumeAtMs: null });
    venue.mode = { mode: 'cancel_only', resumeAtMs: null };
    const outcome = await run([bid('bid-0', 500), bid('bid-1', 490), bid('bid-2', 480)]);
    expect(outcome).toMatchObject({ status: 'executed', aborted: 'trading-mode' });
    expect(gate.mode).toBe('cancel_only');
    expect(venue.callsOf('placeOrder')).toHaveLength(1);
    expect(executor.openOrders(SLUG)).toEqual([]);
    const again = await run([bid('bid-0', 500)]);
    expect(again).toMatchObject({ status: 'executed', placed: [] });
    expect(venue.callsOf('placeOrder')).toHaveLength(1);
    expect(venue.modeViolations).toHaveLength(1); // only the request that taught us the mode
  });

  it('post_only converts placements to post-only', async () => {
    const { venue, gate, run } = await started();
    gate.update({ mode: 'post_only', resumeAtMs: null }, 'manual');
    venue.mode = { mode: 'post_only', resumeAtMs: null };
    await run([{ slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 500, sizeRaw: 1_000_000 }]);
    expect(venue.live(SLUG)[0]?.postOnly).toBe(true);
    expect(venue.modeViolations).toEqual([]);
  });

  it('disabled: cancels are tried once (refused: held), placements wait; at resumeAt the cancels and placements go out', async () => {
    const { venue, scheduler, gate, run } = await started();
    await run([bid('bid-0', 500)]);
    const resumeAt = scheduler.now() + 60_000;
    gate.update({ mode: 'disabled', resumeAtMs: resumeAt }, 'manual');
    venue.mode = { mode: 'disabled', resumeAtMs: resumeAt };
    const calls = venue.calls.length;
    const outcome = await run([bid('bid-0', 505)]);
    expect(outcome).toMatchObject({ status: 'executed', placed: [], canceled: [], aborted: 'trading-mode' });
    expect(venue.refusedCancels).toHaveLength(1);
    await run([bid('bid-0', 506)]);
    await advance(scheduler, 30_000, 100);
    // One refused cancel, then nothing until the mode allows: no retry loop against a disabled venue.
    expect(venue.calls.slice(calls).filter((c) => c.op !== 'maintenanceStatus').map((c) => c.op)).toEqual(['cancelOrders']);
    venue.mode = { mode: 'normal', resumeAtMs: null };
    await until(scheduler, () => venue.live(SLUG)[0]?.priceTicks === 506, 60_000, 100);
    expect(scheduler.now()).toBeGreaterThanOrEqual(resumeAt);
    expect(venue.modeViolations).toEqual([]);
  });
});

describe('executor: start-up and shutdown', () => {
  const key = marketKey(SLUG);
  const own = (slot: string, sequence: number): string => formatClientOrderId({ botTag: 'mm1', marketKey: key, slot, sequence });

  it('adopts its live orders, cancels duplicates, leaves foreign orders, and quotes only after', async () => {
    const ctx = setup();
    const { venue, scheduler, executor } = ctx;
    const older = venue.seedOrder({ clientOrderId: own('bid-0', 10), marketSlug: SLUG, tokenId: '111', side: 'BUY', priceTicks: 500, sizeRaw: 10_000_000 });
    const newer = venue.seedOrder({ clientOrderId: own('bid-0', 9_000_000_000_000_000), marketSlug: SLUG, tokenId: '111', side: 'BUY', priceTicks: 500, sizeRaw: 10_000_000 });
    const askOrder = venue.seedOrder({ clientOrderId: own('ask-0', 11), marketSlug: SLUG, tokenId: '111', side: 'SELL', priceTicks: 520, sizeRaw: 10_000_000, remainingRaw: 6_000_000 });
    const manual = venue.seedOrder({ clientOrderId: null, marketSlug: SLUG, tokenId: '222', side: 'BUY', priceTicks: 300, sizeRaw: 5_000_000 });
    const hold = venue.hold('listLiveOrders');
    const start = executor.start();
    await until(scheduler, () => hold.reached);
    const early = executor.submit(SLUG, [bid('bid-0', 500), ask('ask-0', 520, 6_000_000)]);
    await advance(scheduler, 1000);
    expect(venue.callsOf('placeOrder')).toEqual([]);
    hold.release();
    const reports = await settle(scheduler, start);
    expect(reports).toEqual([{ marketSlug: SLUG, ok: true, adopted: 2, canceled: 1, foreign: 1, error: null }]);
    expect(venue.orders.get(older.orderId)?.status).toBe('CANCELED');
    expect(venue.orders.get(manual.orderId)?.status).toBe('LIVE');
    expect(executor.openOrders(SLUG).map((o) => [o.orderId, o.state, o.adopted]).sort()).toEqual(
      [
        [newer.orderId, 'live', true],
        [askOrder.orderId, 'partially-filled', true],
      ].sort(),
    );
    // The queued plan ran after adoption: everything matched, nothing was placed.
    expect(await settle(scheduler, early)).toMatchObject({ status: 'executed', placed: [], kept: 2 });
    // New ids continue above every sequence seen on the venue.
    await settle(scheduler, executor.submit(SLUG, [bid('bid-0', 501), ask('ask-0', 520, 6_000_000)]));
    const placed = venue.callsOf('placeOrder')[0]!.detail.split(' ')[0]!;
    expect(parseClientOrderId(placed).sequence).toBeGreaterThan(9_000_000_000_000_000);
  });

  it('shutdown cancels every order of the bot and confirms it within the budget', async () => {
    const { venue, scheduler, executor, run } = await started({ exclusiveMarkets: true });
    await run([bid('bid-0', 500), bid('bid-1', 490), ask('ask-0', 520)]);
    const report = await settle(scheduler, executor.shutdown({ budgetMs: 5000 }));
    expect(report).toMatchObject({ clean: true, timedOut: false, marketsWithLiveOrders: [], unresolved: [] });
    expect(venue.live(SLUG)).toEqual([]);
    expect(venue.callsOf('cancelAll')).toHaveLength(1);
    expect(executor.openOrders()).toEqual([]);
    expect(await executor.submit(SLUG, [bid('bid-0', 500)])).toEqual({ status: 'stopped' });
  });

  it('shutdown does not wait the whole budget for a hung placement: it cancels, and catches the late one', async () => {
    const { venue, scheduler, executor } = await started({ exclusiveMarkets: true });
    const hold = venue.hold('placeOrder');
    const plan = executor.submit(SLUG, [bid('bid-0', 500), bid('bid-1', 490)]);
    await until(scheduler, () => hold.reached);
    const shutdown = executor.shutdown({ budgetMs: 6000 });
    await until(scheduler, () => venue.callsOf('cancelAll').length === 1);
    expect(scheduler.now() - T0).toBeLessThanOrEqual(2100);
    hold.release(); // the placement lands after the first cancel-all
    const report = await settle(scheduler, shutdown);
    expect(report).toMatchObject({ clean: true, timedOut: false });
    expect(venue.live(SLUG)).toEqual([]);
    expect(venue.callsOf('placeOrder')).toHaveLength(1); // bid-1 never started once stopping
    expect(venue.callsOf('cancelAll').length).toBeGreaterThanOrEqual(2);
    expect(await settle(scheduler, plan)).toMatchObject({ status: 'executed' });
  });

  it('shutdown with foreign orders present cancels only its own, by id', async () => {
    const ctx = setup();
    const manual = ctx.venue.seedOrder({ clientOrderId: null, marketSlug: SLUG, tokenId: '222', side: 'BUY', priceTicks: 300, sizeRaw: 5_000_000 });
    await settle(ctx.scheduler, ctx.executor.start());
    await ctx.run([bid('bid-0', 500)]);
    const report = await settle(ctx.scheduler, ctx.executor.shutdown({ budgetMs: 5000 }));
    expect(report.clean).toBe(true);
    expect(ctx.venue.callsOf('cancelAll')).toEqual([]);
    expect(ctx.venue.live(SLUG).map((o) => o.orderId)).toEqual([manual.orderId]);
  });

  it('shutdown retries failed cancels and gives up at the budget, reporting what is left', async () => {
    const { venue, scheduler, executor, run } = await started({ exclusiveMarkets: true });
    await run([bid('bid-0', 500)]);
    for (let i = 0; i < 50; i += 1) venue.failNext('cancelAll', { kind: 'failed' });
    const started_ = scheduler.now();
    const report = await settle(scheduler, executor.shutdown({ budgetMs: 3000 }));
    expect(report).toMatchObject({ clean: false, timedOut: true, marketsWithLiveOrders: [SLUG] });
    expect(scheduler.now() - started_).toBeLessThanOrEqual(3000);
    expect(venue.callsOf('cancelAll').length).toBeGreaterThan(1);
  });

  it('shutdown can leave orders resting', async () => {
    const { venue, scheduler, executor, run } = await started();
    await run([bid('bid-0', 500)]);
    const report = await settle(scheduler, executor.shutdown({ leaveOrdersResting: true }));
    expect(report.clean).toBe(true);
    expect(venue.live(SLUG)).toHaveLength(1);
    expect(venue.callsOf('cancelAll')).toEqual([]);
    expect(venue.callsOf('cancelOrders')).toEqual([]);
  });

  it('shutdown resolves an unknown placement that turns out live, and cancels it', async () => {
    const { venue, scheduler, executor, run } = await started();
    venue.failNextPlace({ kind: 'unknown', applied: true });
    await run([bid('bid-0', 500)]);
    const report = await settle(scheduler, executor.shutdown({ budgetMs: 5000 }));
    expect(report).toMatchObject({ clean: true, unresolved: [] });
    expect(venue.live(SLUG)).toEqual([]);
  });
});

describe('executor: shutdown on a shared account (H6)', () => {
  it('without exclusiveMarkets, shutdown cancels by the bot\'s own ids even when no foreign order was seen', async () => {
    const { venue, scheduler, executor, run } = await started();
    await run([bid('bid-0', 500), ask('ask-0', 520)]);
    // Another bot of the account places after this one started: its order must survive this bot's shutdown.
    const other = venue.seedOrder({ clientOrderId: 'zz9-00000000-bid-0-1', marketSlug: SLUG, tokenId: '111', side: 'BUY', priceTicks: 300, sizeRaw: 5_000_000 });
    const report = await settle(scheduler, executor.shutdown({ budgetMs: 5000 }));
    expect(report.clean).toBe(true);
    expect(venue.callsOf('cancelAll')).toEqual([]);
    expect(venue.callsOf('cancelOrders').length).toBeGreaterThan(0);
    expect(venue.live(SLUG).map((o) => o.orderId)).toEqual([other.orderId]);
  });
});
