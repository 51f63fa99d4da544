import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { gatePlan, modeAllows, TradingModeGate, type ModeChange } from '../../../src/orders/trading-mode.js';
import type { Plan } from '../../../src/orders/reconcile.js';
import { toTradingMode } from '../../../src/core/trading-mode.js';
import { TradingModeError, type MaintenanceStatus } from '../../../src/orders/venue-port.js';
import { flushAsync } from '../../support/fake-venue.js';

const plan: Plan = {
  cancels: [{ slot: 'a', clientOrderId: 'c1', orderId: 'o1', reason: 'price-changed' }],
  places: [
    { slot: 'b', intent: { slot: 'b', token: 'YES', side: 'BUY', priceTicks: 500, sizeRaw: 1_000_000 } },
    { slot: 'c', intent: { slot: 'c', token: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 1_000_000, postOnly: true } },
  ],
  keeps: [],
  waits: [],
  invalid: [],
  nextReviewAtMs: null,
};

describe('trading mode rules', () => {
  it('normal lets everything through', () => {
    expect(gatePlan('normal', plan)).toEqual({ plan, blockedPlaces: 0, blockedCancels: 0, convertedToPostOnly: 0 });
    expect(modeAllows('normal', 'place', { postOnly: false, orderType: 'FOK' })).toBe(true);
  });
  it('post_only converts placements to post-only GTC and keeps cancels', () => {
    const gated = gatePlan('post_only', plan);
    expect(gated.plan.places.map((p) => p.intent.postOnly)).toEqual([true, true]);
    expect(gated.convertedToPostOnly).toBe(1);
    expect(gated.plan.cancels).toEqual(plan.cancels);
    expect(modeAllows('post_only', 'place', { postOnly: true, orderType: 'GTC' })).toBe(true);
    expect(modeAllows('post_only', 'place', { postOnly: false, orderType: 'GTC' })).toBe(false);
    expect(modeAllows('post_only', 'place', { postOnly: true, orderType: 'FAK' })).toBe(false);
    expect(modeAllows('post_only', 'cancel')).toBe(true);
  });
  it('cancel_only drops placements, keeps cancels', () => {
    const gated = gatePlan('cancel_only', plan);
    expect(gated.plan.places).toEqual([]);
    expect(gated.plan.cancels).toEqual(plan.cancels);
    expect(gated.blockedPlaces).toBe(2);
    expect(modeAllows('cancel_only', 'cancel')).toBe(true);
    expect(modeAllows('cancel_only', 'place', { postOnly: true, orderType: 'GTC' })).toBe(false);
  });
  it('disabled drops placements but never cancels: the bot never blocks its own cancels', () => {
    const gated = gatePlan('disabled', plan);
    expect(gated.plan.places).toEqual([]);
    expect(gated.plan.cancels).toEqual(plan.cancels);
    expect(gated.blockedPlaces).toBe(2);
    expect(gated.blockedCancels).toBe(0);
    expect(modeAllows('disabled', 'cancel')).toBe(true);
  });
  it('held actions are dropped in any mode', () => {
    const gated = gatePlan('normal', plan, new Set(['cancel']));
    expect(gated.plan.cancels).toEqual([]);
    expect(gated.blockedCancels).toBe(1);
    expect(gated.plan.places).toHaveLength(2);
    expect(gatePlan('post_only', plan, new Set(['place'])).blockedPlaces).toBe(2);
  });
});

describe('TradingModeGate', () => {
  it('applies a 425 body at once and resumes by itself at resumeAt (no poller)', () => {
    const scheduler = new ManualClock(1_000_000);
    const changes: ModeChange[] = [];
    const gate = new TradingModeGate({ scheduler, pollIntervalMs: 30_000, observer: { onModeChange: (c) => changes.push(c) } });
    gate.fromError(new TradingModeError('placeOrder', 'disabled', 1_060_000));
    expect(gate.mode).toBe('disabled');
    expect(gate.allowsCancel()).toBe(true);
    gate.fromError(new TradingModeError('cancelOrders', 'disabled', 1_060_000), 'cancel');
    expect(gate.allowsCancel()).toBe(false);
    scheduler.advance(59_999);
    expect(gate.mode).toBe('disabled');
    scheduler.advance(1);
    return flushAsync().then(() => {
      expect(gate.mode).toBe('normal');
      expect(changes.map((c) => `${c.from}>${c.to}:${c.source}`)).toEqual(['normal>disabled:venue-error', 'disabled>normal:resume-time']);
    });
  });

  it('confirms the resume with a poll when it can, and stays restricted if the venue says so', async () => {
    const scheduler = new ManualClock(0);
    let status: MaintenanceStatus = { mode: 'cancel_only', resumeAtMs: 10_000 };
    const gate = new TradingModeGate({ scheduler, pollIntervalMs: 60_000, fetchStatus: async () => status });
    await gate.refresh();
    expect(gate.mode).toBe('cancel_only');
    status = { mode: 'cancel_only', resumeAtMs: null }; // extended, no end given
    scheduler.advance(10_000);
    await flushAsync();
    expect(gate.mode).toBe('cancel_only');
    status = { mode: 'normal', resumeAtMs: null };
    await gate.refresh();
    expect(gate.mode).toBe('normal');
  });

  it('a restriction read after its own resumeAt is asked again soon (500 ms, doubling to the poll interval), not at the next poll', async () => {
    const scheduler = new ManualClock(10_000);
    // The venue answered a moment before its own end (or stamped the poll late): disabled, resumeAt already past.
    let status: MaintenanceStatus = { mode: 'disabled', resumeAtMs: 9_990 };
    let polls = 0;
    const gate = new TradingModeGate({ scheduler, pollIntervalMs: 3_000, fetchStatus: async () => ((polls += 1), status) });
    await gate.refresh();
    expect([gate.mode, polls]).toEqual(['disabled', 1]);
    const askedAt: number[] = [];
    const at = async (ms: number): Promise<void> => {
      scheduler.advance(ms);
      await flushAsync();
      askedAt.push(polls);
    };
    await at(499);
    expect(polls).toBe(1);
    await at(1); // 500 ms: asked again, still disabled
    await at(1_000); // then 1 s, 2 s, and at most the poll interval (3 s)
    await at(2_000);
    await at(3_000);
    expect(askedAt).toEqual([1, 2, 3, 4, 5]);
    expect(gate.mode).toBe('disabled');
    status = { mode: 'normal', resumeAtMs: null };
    await at(3_000);
    expect(gate.mode).toBe('normal');
    // Resumed: no timer left behind.
    await at(60_000);
    expect(polls).toBe(6);
  });

  it('a restriction past its resumeAt is never resumed on a guess when the venue cannot be asked', async () => {
    const scheduler = new ManualClock(10_000);
    const gate = new TradingModeGate({ scheduler, pollIntervalMs: 3_000 });
    gate.fromError(new TradingModeError('placeOrder', 'disabled', 9_000));
    scheduler.advance(10_000);
    await flushAsync();
    expect(gate.mode).toBe('disabled');
  });

  it('polls on its interval, keeps the last mode when a poll fails, and notifies listeners once per change', async () => {
    const scheduler = new ManualClock(0);
    const answers: (MaintenanceStatus | Error)[] = [{ mode: 'post_only', resumeAtMs: null }, new Error('down'), { mode: 'post_only', resumeAtMs: null }, { mode: 'normal', resumeAtMs: null }];
    let polls = 0;
    const errors: unknown[] = [];
    const gate = new TradingModeGate({
      scheduler,
      pollIntervalMs: 1000,
      fetchStatus: async () => {
        const answer = answers[Math.min(polls++, answers.length - 1)]!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      observer: { onPollError: (e) => errors.push(e) },
    });
    const seen: string[] = [];
    gate.onChange((c) => seen.push(c.to));
    gate.start();
    await flushAsync();
    expect(gate.mode).toBe('post_only');
    scheduler.advance(1000);
    await flushAsync();
    expect(gate.mode).toBe('post_only');
    expect(errors).toHaveLength(1);
    scheduler.advance(1000);
    await flushAsync();
    scheduler.advance(1000);
    await flushAsync();
    expect(gate.mode).toBe('normal');
    expect(seen).toEqual(['post_only', 'normal']);
    gate.stop();
    scheduler.advance(10_000);
    await flushAsync();
    expect(polls).toBe(4);
  });

  it('a refused cancel is held until resumeAt, and the release is announced once', async () => {
    const scheduler = new ManualClock(0);
    const gate = new TradingModeGate({ scheduler, pollIntervalMs: 30_000 });
    let releases = 0;
    gate.onRelease(() => (releases += 1));
    gate.update({ mode: 'disabled', resumeAtMs: 10_000 }, 'poll');
    expect(gate.allowsCancel()).toBe(true);
    gate.fromError(new TradingModeError('cancelOrders', 'disabled', 10_000), 'cancel');
    expect(gate.allowsCancel()).toBe(false);
    scheduler.advance(9_999);
    await flushAsync();
    expect(gate.allowsCancel()).toBe(false);
    scheduler.advance(1);
    await flushAsync();
    expect(gate.mode).toBe('normal');
    expect(gate.allowsCancel()).toBe(true);
    expect(releases).toBe(1);
  });

  it('an unexplained 425 refreshes the status at once and holds the action one poll interval, not longer', async () => {
    const scheduler = new ManualClock(0);
    let polls = 0;
    const holds: string[] = [];
    const gate = new TradingModeGate({
      scheduler,
      pollIntervalMs: 5_000,
      fetchStatus: async () => {
        polls += 1;
        return { mode: 'normal', resumeAtMs: null };
      },
      observer: { onHold: (action, reason) => holds.push(`${action}:${reason}`) },
    });
    let releases = 0;
    gate.onRelease(() => (releases += 1));
    await gate.fromUnexplainedBlock('cancel');
    expect(polls).toBe(1);
    expect(holds).toEqual(['cancel:unexplained-425']);
    expect(gate.allowsCancel()).toBe(false);
    scheduler.advance(4_999);
    await flushAsync();
    expect(gate.allowsCancel()).toBe(false);
    scheduler.advance(1);
    await flushAsync();
    expect(polls).toBe(2);
    expect(gate.allowsCancel()).toBe(true);
    expect(releases).toBe(1);
  });

  it('an unexplained 425 whose refresh shows a new mode releases at once under that mode', async () => {
    const scheduler = new ManualClock(0);
    const gate = new TradingModeGate({ scheduler, pollIntervalMs: 5_000, fetchStatus: async () => ({ mode: 'cancel_only', resumeAtMs: null }) });
    await gate.fromUnexplainedBlock('cancel');
    expect(gate.mode).toBe('cancel_only');
    expect(gate.allowsCancel()).toBe(true);
    expect(gate.allowsPlacement({ postOnly: true, orderType: 'GTC' })).toBe(false);
  });

  it('a placement refused by post_only teaches the mode without holding post-only placements', () => {
    const gate = new TradingModeGate({ scheduler: new ManualClock(0), pollIntervalMs: 5_000 });
    gate.fromError(new TradingModeError('placeOrder', 'post_only', null), 'place', { postOnly: false, orderType: 'GTC' });
    expect(gate.mode).toBe('post_only');
    expect(gate.allowsPlacement({ postOnly: true, orderType: 'GTC' })).toBe(true);
    // The body says a mode that would have let this placement through: held one poll interval (no refusal loop).
    gate.fromError(new TradingModeError('placeOrder', 'post_only', null), 'place', { postOnly: true, orderType: 'GTC' });
    expect(gate.allowsPlacement({ postOnly: true, orderType: 'GTC' })).toBe(false);
  });

  it('an unknown mode string is read as cancel_only and reported, first sighting flagged once', () => {
    const scheduler = new ManualClock(0);
    const seen: string[] = [];
    const gate = new TradingModeGate({ scheduler, pollIntervalMs: 5_000, observer: { onUnknownMode: (raw, first) => seen.push(`${raw}:${first}`) } });
    gate.update({ mode: 'cancel_only', resumeAtMs: null, unknownModes: ['read_only'] }, 'poll');
    gate.update({ mode: 'cancel_only', resumeAtMs: null, unknownModes: ['read_only'] }, 'poll');
    gate.fromError(new TradingModeError('placeOrder', toTradingMode('halted'), null, 'halted'));
    expect(seen).toEqual(['read_only:true', 'read_only:false', 'halted:true']);
    expect(gate.mode).toBe('cancel_only');
    expect(gate.allowsCancel()).toBe(true);
  });

  it('rejects a non-positive poll interval', () => {
    expect(() => new TradingModeGate({ scheduler: new ManualClock(0), pollIntervalMs: 0 })).toThrow(/pollIntervalMs/);
  });
});
