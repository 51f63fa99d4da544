import { describe, expect, it } from 'vitest';
import { ManualScheduler } from '../../../src/book/scheduler.js';
import { gatePlan, modeAllows, TradingModeGate, type ModeChange } from '../../../src/orders/trading-mode.js';
import type { Plan } from '../../../src/orders/reconcile.js';
import { toTradingMode, TradingModeError, type MaintenanceStatus } from '../../../src/orders/venue-port.js';
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
  it('disabled lets nothing through, not even cancels', () => {
    const gated = gatePlan('disabled', plan);
    expect(gated.plan.places).toEqual([]);
    expect(gated.plan.cancels).toEqual([]);
    expect(gated.blockedCancels).toBe(1);
    expect(modeAllows('disabled', 'cancel')).toBe(false);
  });
});

describe('TradingModeGate', () => {
  it('applies a 425 body at once and resumes by itself at resumeAt (no poller)', () => {
    const scheduler = new ManualScheduler(1_000_000);
    const changes: ModeChange[] = [];
    const gate = new TradingModeGate({ scheduler, pollIntervalMs: 30_000, observer: { onModeChange: (c) => changes.push(c) } });
    gate.fromError(new TradingModeError('placeOrder', 'disabled', 1_060_000));
    expect(gate.mode).toBe('disabled');
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
    const scheduler = new ManualScheduler(0);
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

  it('polls on its interval, keeps the last mode when a poll fails, and notifies listeners once per change', async () => {
    const scheduler = new ManualScheduler(0);
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

  it('rejects a non-positive poll interval', () => {
    expect(() => new TradingModeGate({ scheduler: new ManualScheduler(0), pollIntervalMs: 0 })).toThrow(/pollIntervalMs/);
  });
});

describe('toTradingMode', () => {
  it('maps venue strings, reading an unknown restriction as cancel_only', () => {
    expect(['normal', 'post_only', 'CANCEL_ONLY', 'disabled', 'trading_disabled', 'mystery', '', null].map((m) => toTradingMode(m))).toEqual([
      'normal',
      'post_only',
      'cancel_only',
      'disabled',
      'disabled',
      'cancel_only',
      'normal',
      'normal',
    ]);
  });
});
