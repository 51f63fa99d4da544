/**
 * The executor's cancel-replace path (issue 15): changed quotes go as cancel-replace batches (STOP_ON_FAILURE), each
 * per-operation outcome ends in the right order state, an UNKNOWN is resolved by clientOrderId before the slot is
 * used again, at most one live order per slot throughout, and a venue without the endpoint (404) falls back to
 * cancels and placements (once, logged).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { ClientOrderIdFactory, parseClientOrderId } from '../../../src/orders/client-order-id.js';
import { OrderExecutor, type ExecutorOptions } from '../../../src/orders/executor.js';
import { TradingModeGate } from '../../../src/orders/trading-mode.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { FakeReplaceVenue, settle, until } from '../../support/fake-venue.js';

const SLUG = 'will-it-rain';
const T0 = 1_700_000_000_000;
const bid = (slot: string, priceTicks: number): QuoteIntent => ({ slot, token: 'YES', side: 'BUY', priceTicks, sizeRaw: 10_000_000, postOnly: true });
const ladder = (base: number, levels = 4): QuoteIntent[] => Array.from({ length: levels }, (_, i) => bid(`bid-${i}`, base - i * 10));

async function quoting(options: Partial<ExecutorOptions> = {}, levels = 4) {
  const scheduler = new ManualClock(T0);
  const venue = new FakeReplaceVenue(() => scheduler.now());
  const gate = new TradingModeGate({ scheduler, pollIntervalMs: 30_000, fetchStatus: () => venue.maintenanceStatus() });
  const warnings: string[] = [];
  const unsupported: string[] = [];
  const executor = new OrderExecutor({
    venue,
    scheduler,
    modeGate: gate,
    ids: new ClientOrderIdFactory('mm1', () => scheduler.now()),
    markets: [{ slug: SLUG, tokens: { yes: '111', no: '222' } }],
    onFill: () => undefined,
    log: { info: () => undefined, warn: (_o, msg) => warnings.push(msg), error: () => undefined },
    observer: { onCancelReplaceUnsupported: (slug) => unsupported.push(slug) },
    unknownOrders: { initialBackoffMs: 500, maxBackoffMs: 4000, notFoundLimit: 3, notFoundGraceMs: 5000 },
    ...options,
  });
  await settle(scheduler, executor.start());
  const run = (intents: readonly QuoteIntent[]) => settle(scheduler, executor.submit(SLUG, intents));
  await run(ladder(500, levels));
  /** Live orders per slot at the venue (never more than one). */
  const perSlot = (): number[] => {
    const counts = new Map<string, number>();
    for (const o of venue.live(SLUG)) {
      const slot = parseClientOrderId(o.clientOrderId ?? '').slot;
      counts.set(slot, (counts.get(slot) ?? 0) + 1);
    }
    return [...counts.values()];
  };
  const from = venue.calls.length;
  const trading = () => venue.calls.slice(from).map((c) => c.op).filter((op) => op !== 'maintenanceStatus' && op !== 'listLiveOrders' && op !== 'statusBatch');
  return { scheduler, venue, gate, executor, run, perSlot, trading, warnings, unsupported };
}

const stateOf = (ctx: Awaited<ReturnType<typeof quoting>>, clientOrderId: string) => ctx.executor.order(clientOrderId)?.state;

describe('executor: requotes by cancel-replace', () => {
  it('a requote of four slots is one cancel-replace batch; every old order canceled, every new one live', async () => {
    const ctx = await quoting();
    const before = ctx.executor.openOrders(SLUG).map((o) => o.clientOrderId);
    const outcome = await ctx.run(ladder(505));
    expect(ctx.trading()).toEqual(['cancelReplace']);
    expect(outcome).toMatchObject({ status: 'executed', aborted: null });
    expect(outcome.status === 'executed' && [outcome.placed.length, outcome.canceled.length]).toEqual([4, 4]);
    for (const id of before) expect(stateOf(ctx, id)).toBe('canceled');
    expect(ctx.venue.live(SLUG).map((o) => o.priceTicks).sort()).toEqual([475, 485, 495, 505]);
    expect(ctx.perSlot()).toEqual([1, 1, 1, 1]);
  });

  it('splits into batches of batchSize; unchanged slots are kept; a slot with no intent is a plain cancel', async () => {
    const ctx = await quoting({ cancelReplace: { batchSize: 2 } }, 6);
    // bid-0..3 move one tick (replaced, two per batch); bid-4 and bid-5 have no intent any more (plain cancels, first).
    const intents = ladder(500, 4).map((i) => ({ ...i, priceTicks: i.priceTicks + 1 }));
    await ctx.run(intents);
    expect(ctx.trading()).toEqual(['cancelOrders', 'cancelReplace', 'cancelReplace']);
    expect(ctx.venue.live(SLUG)).toHaveLength(4);
    expect(ctx.perSlot()).toEqual([1, 1, 1, 1]);
  });

  it('cancel FAILURE (STOP_ON_FAILURE → NOT_ATTEMPTED): the old order is looked up and stays; the new one never existed', async () => {
    const ctx = await quoting({}, 1);
    const old = ctx.executor.openOrders(SLUG)[0]!;
    ctx.venue.failNextReplace({ cancel: 'FAILURE' });
    const outcome = await ctx.run([bid('bid-0', 505)]);
    expect(outcome).toMatchObject({ status: 'executed', placed: [], canceled: [], rejected: [], unknown: [] });
    expect(stateOf(ctx, old.clientOrderId)).toBe('live');
    const fresh = ctx.executor.openOrders(SLUG).filter((o) => o.clientOrderId !== old.clientOrderId);
    expect(fresh).toEqual([]);
    expect(ctx.venue.live(SLUG).map((o) => o.priceTicks)).toEqual([500]);
    // The next requote replaces it.
    await ctx.run([bid('bid-0', 506)]);
    expect(ctx.venue.live(SLUG).map((o) => o.priceTicks)).toEqual([506]);
    expect(ctx.perSlot()).toEqual([1]);
  });

  it('cancel UNKNOWN that did take: the lookup finds the old order canceled; only then is the slot placed', async () => {
    const ctx = await quoting({}, 1);
    const old = ctx.executor.openOrders(SLUG)[0]!;
    ctx.venue.failNextReplace({ cancel: 'UNKNOWN', cancelApplied: true });
    await ctx.run([bid('bid-0', 505)]);
    expect(stateOf(ctx, old.clientOrderId)).toBe('canceled');
    // Lookup (statusBatch) before the placement, in the same run.
    expect(ctx.venue.calls.map((c) => c.op).filter((op) => op !== 'maintenanceStatus' && op !== 'listLiveOrders').slice(-3)).toEqual(['cancelReplace', 'statusBatch', 'placeOrder']);
    expect(ctx.venue.live(SLUG).map((o) => o.priceTicks)).toEqual([505]);
    expect(ctx.perSlot()).toEqual([1]);
  });

  it('cancel UNKNOWN that did not take: the old order is found live and kept; no second order in the slot', async () => {
    const ctx = await quoting({}, 1);
    const old = ctx.executor.openOrders(SLUG)[0]!;
    ctx.venue.failNextReplace({ cancel: 'UNKNOWN', cancelApplied: false });
    await ctx.run([bid('bid-0', 505)]);
    expect(stateOf(ctx, old.clientOrderId)).toBe('live');
    expect(ctx.venue.live(SLUG).map((o) => o.priceTicks)).toEqual([500]);
    expect(ctx.trading()).toEqual(['cancelReplace']);
  });

  it('replacement FAILURE: old canceled, new rejected, not retried in the same run; placed again by a later plan', async () => {
    const ctx = await quoting({}, 1);
    ctx.venue.failNextReplace({ replacement: 'FAILURE' });
    const outcome = await ctx.run([bid('bid-0', 505)]);
    expect(outcome.status === 'executed' && [outcome.canceled.length, outcome.rejected.length, outcome.placed.length]).toEqual([1, 1, 0]);
    expect(ctx.trading()).toEqual(['cancelReplace']);
    const rejected = outcome.status === 'executed' ? outcome.rejected[0]! : '';
    expect(stateOf(ctx, rejected)).toBe('rejected');
    await ctx.run([bid('bid-0', 505)]);
    expect(ctx.venue.live(SLUG).map((o) => o.priceTicks)).toEqual([505]);
  });

  it('replacement UNKNOWN (placed): unknown until found by clientOrderId; never a second order in the slot', async () => {
    const ctx = await quoting({}, 1);
    ctx.venue.failNextReplace({ replacement: 'UNKNOWN', replacementApplied: true });
    const outcome = await ctx.run([bid('bid-0', 505)]);
    const unknown = outcome.status === 'executed' ? outcome.unknown[0]! : '';
    expect(stateOf(ctx, unknown)).toBe('unknown');
    // While unknown the slot is frozen: a requote places nothing.
    await ctx.run([bid('bid-0', 505)]);
    expect(ctx.perSlot()).toEqual([1]);
    await until(ctx.scheduler, () => stateOf(ctx, unknown) === 'live', 10_000, 100);
    expect(ctx.venue.live(SLUG).map((o) => o.clientOrderId)).toEqual([unknown]);
    expect(ctx.perSlot()).toEqual([1]);
  });

  it('replacement UNKNOWN (not placed): marked lost after the not-found answers, then the slot is placed anew', async () => {
    const ctx = await quoting({}, 1);
    ctx.venue.failNextReplace({ replacement: 'UNKNOWN', replacementApplied: false });
    const outcome = await ctx.run([bid('bid-0', 505)]);
    const unknown = outcome.status === 'executed' ? outcome.unknown[0]! : '';
    await until(ctx.scheduler, () => stateOf(ctx, unknown) === 'rejected', 30_000, 100);
    await until(ctx.scheduler, () => ctx.venue.live(SLUG).length === 1, 10_000, 100);
    expect(ctx.venue.live(SLUG)[0]?.clientOrderId).not.toBe(unknown);
    expect(ctx.perSlot()).toEqual([1]);
  });

  it('replacement NOT_ATTEMPTED after a successful cancel: old canceled, new never existed; the emptied slot is placed', async () => {
    const ctx = await quoting({}, 1);
    const old = ctx.executor.openOrders(SLUG)[0]!;
    ctx.venue.failNextReplace({ replacement: 'NOT_ATTEMPTED' });
    const outcome = await ctx.run([bid('bid-0', 505)]);
    expect(outcome).toMatchObject({ status: 'executed', rejected: [], unknown: [] });
    expect(stateOf(ctx, old.clientOrderId)).toBe('canceled');
    expect(ctx.trading()).toEqual(['cancelReplace', 'placeOrder']);
    expect(ctx.venue.live(SLUG).map((o) => o.priceTicks)).toEqual([505]);
    expect(ctx.perSlot()).toEqual([1]);
  });

  it('a whole batch without an answer: everything unknown, resolved by lookup, no duplicate per slot', async () => {
    const ctx = await quoting({}, 2);
    ctx.venue.failNext('cancelReplace', { kind: 'unknown', applied: true });
    const outcome = await ctx.run(ladder(505, 2));
    expect(outcome.status === 'executed' && outcome.unknown).toHaveLength(2);
    await until(ctx.scheduler, () => ctx.executor.openOrders(SLUG).every((o) => o.state === 'live'), 10_000, 100);
    expect(ctx.venue.live(SLUG).map((o) => o.priceTicks).sort()).toEqual([495, 505]);
    expect(ctx.perSlot()).toEqual([1, 1]);
  });

  it('404 for the endpoint: falls back to cancels and placements, says so once, and never tries it again', async () => {
    const ctx = await quoting({}, 2);
    ctx.venue.offersCancelReplace = false;
    await ctx.run(ladder(505, 2));
    expect(ctx.trading()).toEqual(['cancelReplace', 'cancelOrders', 'placeOrder', 'placeOrder']);
    expect(ctx.venue.live(SLUG).map((o) => o.priceTicks).sort()).toEqual([495, 505]);
    await ctx.run(ladder(510, 2));
    expect(ctx.trading().filter((op) => op === 'cancelReplace')).toHaveLength(1);
    expect(ctx.unsupported).toEqual([SLUG]);
    expect(ctx.warnings.filter((w) => w.includes('does not offer cancel-replace'))).toHaveLength(1);
    expect(ctx.perSlot()).toEqual([1, 1]);
  });

  it('disabled by configuration: cancels then placements, as before', async () => {
    const ctx = await quoting({ cancelReplace: { enabled: false } }, 2);
    await ctx.run(ladder(505, 2));
    expect(ctx.trading()).toEqual(['cancelOrders', 'placeOrder', 'placeOrder']);
  });

  it('cancel_only: no replacement (nothing may be placed): plain cancels only', async () => {
    const ctx = await quoting({}, 2);
    ctx.gate.update({ mode: 'cancel_only', resumeAtMs: null }, 'manual');
    ctx.venue.mode = { mode: 'cancel_only', resumeAtMs: null };
    await ctx.run(ladder(505, 2));
    expect(ctx.trading()).toEqual(['cancelOrders']);
    expect(ctx.venue.modeViolations).toEqual([]);
  });
});
