/**
 * The executor under trading modes (issue 13): cancels are attempted in every mode, also `disabled` (the empty plans of
 * the stale guard, the kill switch and shutdown included); a cancel the venue refuses is held and retried when the
 * gate releases it; a 425 without the trading-mode body refreshes the maintenance status instead of a blind retry;
 * unknown mode strings are read as cancel_only.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { ClientOrderIdFactory } from '../../../src/orders/client-order-id.js';
import { OrderExecutor } from '../../../src/orders/executor.js';
import { TradingModeGate } from '../../../src/orders/trading-mode.js';
import { MaintenanceBlockError, TradingModeError } from '../../../src/orders/venue-port.js';
import { mapError, portMaintenanceOf } from '../../../src/venue/venue-adapter.js';
import { ExchangeTradingModeError, MessageError } from '../../../src/exchange/errors.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { advance, FakeVenue, settle, until } from '../../support/fake-venue.js';

const SLUG = 'will-it-rain';
const T0 = 1_700_000_000_000;
const POLL_MS = 5_000;
const bid = (slot: string, priceTicks: number): QuoteIntent => ({ slot, token: 'YES', side: 'BUY', priceTicks, sizeRaw: 10_000_000, postOnly: true });

async function quoting() {
  const scheduler = new ManualClock(T0);
  const venue = new FakeVenue(() => scheduler.now());
  const gate = new TradingModeGate({ scheduler, pollIntervalMs: POLL_MS, fetchStatus: () => venue.maintenanceStatus() });
  const executor = new OrderExecutor({
    venue,
    scheduler,
    modeGate: gate,
    ids: new ClientOrderIdFactory('mm1', () => scheduler.now()),
    markets: [{ slug: SLUG, tokens: { yes: '111', no: '222' } }],
    onFill: () => undefined,
  });
  await settle(scheduler, executor.start());
  const run = (intents: readonly QuoteIntent[]) => settle(scheduler, executor.submit(SLUG, intents));
  await run([bid('bid-0', 500), bid('bid-1', 490)]);
  expect(venue.live(SLUG)).toHaveLength(2);
  const trading = (from: number) => venue.calls.slice(from).filter((c) => c.op !== 'maintenanceStatus' && c.op !== 'statusBatch' && c.op !== 'listLiveOrders');
  return { scheduler, venue, gate, executor, run, trading };
}

function disable(ctx: Awaited<ReturnType<typeof quoting>>, resumeAtMs: number | null): void {
  ctx.venue.mode = { mode: 'disabled', resumeAtMs };
  ctx.gate.update({ mode: 'disabled', resumeAtMs }, 'poll');
}

describe('executor: cancels in disabled', () => {
  it('the stale guard empty plan cancels the quotes while disabled when the venue takes cancels; nothing is placed', async () => {
    const ctx = await quoting();
    ctx.venue.cancelsAllowedWhenDisabled = true;
    disable(ctx, null);
    const from = ctx.venue.calls.length;
    const outcome = await ctx.run([]);
    expect(outcome).toMatchObject({ status: 'executed', aborted: null });
    expect(outcome.status === 'executed' && outcome.canceled).toHaveLength(2);
    expect(ctx.venue.live(SLUG)).toEqual([]);
    expect(ctx.executor.openOrders(SLUG)).toEqual([]);
    expect(ctx.trading(from).map((c) => c.op)).toEqual(['cancelOrders']);
  });

  it('the kill switch (haltAll) in disabled: the refused cancel is held, then retried at resumeAt; no placement before', async () => {
    const ctx = await quoting();
    const resumeAt = ctx.scheduler.now() + 20_000;
    disable(ctx, resumeAt);
    const from = ctx.venue.calls.length;
    const [outcome] = await settle(ctx.scheduler, ctx.executor.haltAll());
    expect(outcome).toMatchObject({ status: 'executed', aborted: 'trading-mode' });
    expect(ctx.venue.refusedCancels).toHaveLength(1);
    expect(ctx.executor.openOrders(SLUG).map((o) => o.state)).toEqual(['live', 'live']);
    // Held: further halts and requotes do not hammer a disabled venue.
    await settle(ctx.scheduler, ctx.executor.haltAll());
    await advance(ctx.scheduler, 15_000, 100);
    expect(ctx.trading(from).map((c) => c.op)).toEqual(['cancelOrders']);
    ctx.venue.mode = { mode: 'normal', resumeAtMs: null };
    await until(ctx.scheduler, () => ctx.venue.live(SLUG).length === 0, 30_000, 100);
    expect(ctx.scheduler.now()).toBeGreaterThanOrEqual(resumeAt);
    expect(ctx.trading(from).filter((c) => c.op === 'placeOrder')).toEqual([]);
    expect(ctx.executor.openOrders(SLUG)).toEqual([]);
  });

  it('a refusal with the trading-mode body while the gate thought normal: the gate learns disabled and holds the cancel', async () => {
    const ctx = await quoting();
    ctx.venue.mode = { mode: 'disabled', resumeAtMs: null };
    const outcome = await ctx.run([bid('bid-0', 500)]);
    expect(outcome).toMatchObject({ status: 'executed', aborted: 'trading-mode', placed: [] });
    expect(ctx.gate.mode).toBe('disabled');
    expect(ctx.gate.allowsCancel()).toBe(false);
    // A maintenance refresh that reports another mode releases the hold: the cancel is retried.
    ctx.venue.mode = { mode: 'cancel_only', resumeAtMs: null };
    await ctx.gate.refresh();
    await until(ctx.scheduler, () => ctx.venue.live(SLUG).length === 1, 10_000, 100);
    expect(ctx.venue.live(SLUG)[0]?.priceTicks).toBe(500);
  });

  it('shutdown in disabled tries the cancels although a cancel was refused before', async () => {
    const ctx = await quoting();
    disable(ctx, null);
    await ctx.run([]);
    expect(ctx.gate.allowsCancel()).toBe(false);
    ctx.venue.cancelsAllowedWhenDisabled = true;
    const report = await settle(ctx.scheduler, ctx.executor.shutdown({ budgetMs: 5_000 }));
    expect(report.clean).toBe(true);
    expect(ctx.venue.live(SLUG)).toEqual([]);
  });
});

describe('executor: a market left while the venue refuses cancels', () => {
  for (const releaseDuringLeave of [false, true]) {
    it(`its leave runs out of budget with one refused cancel; the release (${releaseDuringLeave ? 'during the leave' : 'after it'}) sweeps it at once`, async () => {
      const ctx = await quoting();
      const leaveBudgetMs = 3_000;
      const resumeAt = ctx.scheduler.now() + (releaseDuringLeave ? 2_000 : 4_000);
      disable(ctx, resumeAt);
      const from = ctx.venue.calls.length;
      const leaving = ctx.executor.retireMarket(SLUG, { budgetMs: leaveBudgetMs });
      if (releaseDuringLeave) {
        // The refused cancel is held; the venue reopens inside the leave's budget, after its last attempt can see it.
        await advance(ctx.scheduler, 1_900, 100);
        expect(ctx.venue.refusedCancels).toHaveLength(1);
        ctx.venue.mode = { mode: 'normal', resumeAtMs: null };
      }
      const report = await settle(ctx.scheduler, leaving);
      if (!releaseDuringLeave) {
        expect(report).toEqual({ clean: false, left: 2 });
        // One refused cancel while disabled: the leave does not send a second one into the hold.
        expect(ctx.trading(from).map((c) => c.op)).toEqual(['cancelOrders']);
        ctx.venue.mode = { mode: 'normal', resumeAtMs: null };
      }
      // Swept at once after the release, long before the background recheck (RECHECK_MS).
      await until(ctx.scheduler, () => ctx.venue.live(SLUG).length === 0, 5_000, 100);
      expect(ctx.scheduler.now()).toBeGreaterThanOrEqual(resumeAt);
      expect(ctx.scheduler.now()).toBeLessThan(resumeAt + 2_000);
      expect(ctx.venue.refusedCancels).toHaveLength(1);
      expect(ctx.executor.openOrders(SLUG)).toEqual([]);
    });
  }
});

describe('executor: 425 without the trading-mode body', () => {
  it('on a cancel: the maintenance status is refreshed at once; the cancel is not re-sent before one poll interval', async () => {
    const ctx = await quoting();
    ctx.venue.failNext('cancelOrders', { kind: 'maintenance-block' });
    const polls = ctx.venue.callsOf('maintenanceStatus').length;
    const from = ctx.venue.calls.length;
    const outcome = await ctx.run([]);
    expect(outcome).toMatchObject({ status: 'executed', aborted: 'trading-mode' });
    expect(ctx.venue.callsOf('maintenanceStatus').length).toBe(polls + 1);
    expect(ctx.executor.openOrders(SLUG).map((o) => o.state)).toEqual(['live', 'live']);
    await ctx.run([]);
    await advance(ctx.scheduler, POLL_MS - 200, 100);
    expect(ctx.trading(from).map((c) => c.op)).toEqual(['cancelOrders']);
    await until(ctx.scheduler, () => ctx.venue.live(SLUG).length === 0, POLL_MS, 100);
    expect(ctx.trading(from).map((c) => c.op)).toEqual(['cancelOrders', 'cancelOrders']);
  });

  it('on a placement: the order is rejected (nothing took effect), not unknown; the status is refreshed', async () => {
    const ctx = await quoting();
    // The third slot is free: its placement meets the 425.
    const placeFault = new MaintenanceBlockError('placeOrder', '425');
    const original = ctx.venue.placeOrder.bind(ctx.venue);
    let thrown = false;
    ctx.venue.placeOrder = async (request) => {
      if (!thrown) {
        thrown = true;
        throw placeFault;
      }
      return original(request);
    };
    const polls = ctx.venue.callsOf('maintenanceStatus').length;
    const outcome = await ctx.run([bid('bid-0', 500), bid('bid-1', 490), bid('bid-2', 480)]);
    expect(outcome).toMatchObject({ status: 'executed', aborted: 'trading-mode', unknown: [] });
    expect(outcome.status === 'executed' && outcome.rejected).toHaveLength(1);
    expect(ctx.venue.callsOf('maintenanceStatus').length).toBe(polls + 1);
    expect(ctx.gate.allowsPlacement({ postOnly: true, orderType: 'GTC' })).toBe(false);
    await until(ctx.scheduler, () => ctx.venue.live(SLUG).length === 3, POLL_MS + 2_000, 100);
  });
});

describe('venue adapter: modes and 425s', () => {
  const endpoint = { method: 'POST', pathTemplate: '/orders/cancel-batch' } as const;

  it('maps a 425 without the trading-mode body to MaintenanceBlockError, and an unknown mode to cancel_only', () => {
    expect(mapError('cancelOrders', new MessageError(425, endpoint, { message: 'Too Early' }))).toBeInstanceOf(MaintenanceBlockError);
    const mode = mapError('cancelOrders', new ExchangeTradingModeError(425, endpoint, { code: 'x', message: 'halt', mode: 'halted', resumeAt: null }));
    expect(mode).toBeInstanceOf(TradingModeError);
    expect(mode instanceof TradingModeError && [mode.mode, mode.unknownMode]).toEqual(['cancel_only', 'halted']);
    const known = mapError('cancelOrders', new ExchangeTradingModeError(425, endpoint, { code: 'trading_disabled', message: 'off', mode: 'disabled', resumeAt: null }));
    expect(known instanceof TradingModeError && [known.mode, known.unknownMode]).toEqual(['disabled', null]);
  });

  it('reports the unknown or missing mode strings of a maintenance status', () => {
    const window = (mode: string | null) => ({ mode, message: null, startsAtMs: null, endsAtMs: null });
    expect(portMaintenanceOf({ active: [window('post_only'), window('frozen'), window(null)], scheduled: [], mode: 'cancel_only', resumeAtMs: null })).toEqual({
      mode: 'cancel_only',
      resumeAtMs: null,
      unknownModes: ['frozen', '(missing)'],
    });
    expect(portMaintenanceOf({ active: [], scheduled: [], mode: 'normal', resumeAtMs: null })).toEqual({ mode: 'normal', resumeAtMs: null });
  });
});
