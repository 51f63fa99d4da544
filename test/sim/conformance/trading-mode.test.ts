/**
 * Conformance: trading modes post_only / cancel_only / disabled with resumeAt (exchange-api.md § Errors
 * 425, exchange-facts §6): what each forbids, the 425 body, GET /maintenance/status, scheduled modes,
 * ending by itself at resumeAt, and the admin routes that set them. Runs on an injected manual clock, with the
 * specification's 425 for placements (setting `placementModeRefusal: 425`); the API reference's 503 of POST /orders
 * in `cancel_only` and `disabled` (the simulator's default) is checked at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/sim/engine/index.js';
import { arr, obj, type CallOptions } from '../../support/sim-http.js';
import { signedOrderBody } from '../../support/sim-orders.js';
import { call, placedId, startTestSim, type TestSim } from '../fixtures.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
let t: TestSim;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock(START);
  t = await startTestSim({ clock, settings: { placementModeRefusal: '425' } });
});
afterAll(async () => {
  await t.sim.close();
});

const signed = (method: string, path: string, options: CallOptions = {}) => call(t.sim.baseUrl, method, path, { creds: t.demo.creds, nowMs: clock.now(), ...options });

async function place(opts: { orderType?: 'GTC' | 'FAK'; postOnly?: boolean; priceTicks?: number } = {}) {
  const body = await signedOrderBody({
    privateKey: t.demo.privateKey,
    ownerId: t.demo.profileId,
    market: t.market,
    side: 'BUY',
    priceTicks: opts.priceTicks ?? 200,
    sizeRaw: 1_000_000,
    orderType: opts.orderType ?? 'GTC',
    ...(opts.postOnly === undefined ? {} : { postOnly: opts.postOnly }),
  });
  return signed('POST', '/orders', { body });
}

/** The 425 trading-mode body: exactly {code, message, mode, resumeAt}, message a non-empty string. */
function expectModeBody(body: unknown, expected: { code: string; mode: string; resumeAt: string }): void {
  const b = obj(body);
  expect(Object.keys(b).sort()).toEqual(['code', 'message', 'mode', 'resumeAt']);
  expect(typeof b['message'] === 'string' && b['message'].length > 0).toBe(true);
  expect({ code: b['code'], mode: b['mode'], resumeAt: b['resumeAt'] }).toEqual(expected);
}

const admin = (method: string, path: string, body?: unknown) => call(t.sim.baseUrl, method, `/_sim${path}`, body === undefined ? {} : { body });

describe('trading modes', () => {
  it('post_only: only post-only GTC placements; cancels allowed; 425 body', async () => {
    const resumeAt = new Date(clock.now() + 60_000).toISOString();
    const set = await admin('PUT', '/trading-mode', { mode: 'post_only', resumeAt });
    expect(set.status).toBe(200);
    const id = placedId(await place({ postOnly: true }));
    for (const blocked of [await place(), await place({ orderType: 'FAK' }), await place({ orderType: 'FAK', priceTicks: 201 })]) {
      expect(blocked.status).toBe(425);
      expectModeBody(blocked.body, { code: 'trading_post_only', mode: 'post_only', resumeAt });
    }
    expect((await signed('DELETE', `/orders/${id}`)).status).toBe(200);
    const status = obj((await call(t.sim.baseUrl, 'GET', '/maintenance/status')).body);
    expect(arr(status['active']).map(obj).map((e) => [e['mode'], e['resumeAt']])).toEqual([['post_only', resumeAt]]);
    expect(status['scheduled']).toEqual([]);
    expect((await admin('DELETE', '/trading-mode')).body).toEqual({ cleared: 1 });
    expect((await place()).status).toBe(201);
  });

  it('cancel_only: every placement 425, cancels 200', async () => {
    const id = placedId(await place());
    const resumeAt = new Date(clock.now() + 60_000).toISOString();
    await admin('PUT', '/trading-mode', { mode: 'cancel_only', resumeAt });
    const blocked = await place({ postOnly: true });
    expect(blocked.status).toBe(425);
    expectModeBody(blocked.body, { code: 'trading_cancel_only', mode: 'cancel_only', resumeAt });
    expect((await signed('DELETE', `/orders/${id}`)).body).toEqual({ message: 'Order canceled successfully' });
    t.sim.control.clearTradingMode();
  });

  it('disabled: placements and every cancel endpoint 425 trading_disabled; ends by itself at resumeAt', async () => {
    const id = placedId(await place());
    const resumeAtMs = clock.now() + 30_000;
    t.sim.control.setTradingMode({ mode: 'disabled', resumeAtMs });
    const expected = { code: 'trading_disabled', mode: 'disabled', resumeAt: new Date(resumeAtMs).toISOString() };
    expectModeBody((await place({ postOnly: true })).body, expected);
    const cancel = await signed('DELETE', `/orders/${id}`);
    expect(cancel.status).toBe(425);
    expectModeBody(cancel.body, expected);
    expect((await signed('POST', '/orders/cancel-batch', { body: { orderIds: [id] } })).status).toBe(425);
    expect((await signed('DELETE', `/orders/all/${t.market.slug}`)).status).toBe(425);
    // Reads stay available.
    expect((await signed('GET', `/markets/${t.market.slug}/user-orders`)).status).toBe(200);
    clock.advance(29_999);
    expect((await signed('DELETE', `/orders/${id}`)).status).toBe(425);
    clock.advance(1);
    expect((await signed('DELETE', `/orders/${id}`)).status).toBe(200);
    expect((await call(t.sim.baseUrl, 'GET', '/maintenance/status')).body).toEqual({ active: [], scheduled: [] });
  });

  it('a scheduled mode is listed as scheduled, then applies from startsAt', async () => {
    const startsAt = new Date(clock.now() + 10_000).toISOString();
    const resumeAt = new Date(clock.now() + 20_000).toISOString();
    await admin('PUT', '/trading-mode', { mode: 'cancel_only', startsAt, resumeAt });
    const status = obj((await call(t.sim.baseUrl, 'GET', '/maintenance/status')).body);
    expect(status['active']).toEqual([]);
    expect(arr(status['scheduled']).map(obj)[0]).toMatchObject({ mode: 'cancel_only', code: 'trading_cancel_only', startsAt, resumeAt });
    expect((await place()).status).toBe(201);
    clock.advance(10_000);
    expect((await place()).status).toBe(425);
    expect(arr(obj((await call(t.sim.baseUrl, 'GET', '/maintenance/status')).body)['active'])).toHaveLength(1);
    clock.advance(10_000);
    expect((await place()).status).toBe(201);
  });

  it('when windows overlap the most restrictive applies', async () => {
    t.sim.control.setTradingMode({ mode: 'post_only', resumeAtMs: clock.now() + 60_000 });
    t.sim.control.setTradingMode({ mode: 'disabled', resumeAtMs: clock.now() + 30_000 });
    expect(obj((await place({ postOnly: true })).body)['mode']).toBe('disabled');
    clock.advance(30_000);
    expect((await place({ postOnly: true })).status).toBe(201);
    expect(obj((await place()).body)['mode']).toBe('post_only');
    t.sim.control.clearTradingMode();
  });

  it('validates admin input: unknown mode, resumeAt in the past or before startsAt', async () => {
    expect((await admin('PUT', '/trading-mode', { mode: 'frozen', resumeAt: new Date(clock.now() + 1000).toISOString() })).status).toBe(400);
    const past = await admin('PUT', '/trading-mode', { mode: 'disabled', resumeAt: new Date(clock.now() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(String(obj(past.body)['message'])).toContain('resumeAt');
    const inverted = await admin('PUT', '/trading-mode', { mode: 'disabled', startsAt: clock.now() + 5000, resumeAt: clock.now() + 1000 });
    expect(inverted.status).toBe(400);
    expect((await admin('PUT', '/trading-mode', { mode: 'disabled' })).status).toBe(400);
  });

  it("POST /orders in cancel_only and disabled answers the API reference's 503 by default: no trading-mode body; the setting can add it; post_only keeps the 425", async () => {
    t.sim.control.updateSettings({ placementModeRefusal: '503' });
    const resumeAtMs = clock.now() + 60_000;
    for (const mode of ['cancel_only', 'disabled'] as const) {
      t.sim.control.setTradingMode({ mode, resumeAtMs });
      const blocked = await place({ postOnly: true });
      expect(blocked.status).toBe(503);
      expect(obj(blocked.body)).toMatchObject({ error: 'Service Unavailable', statusCode: 503 });
      expect(obj(blocked.body)['mode']).toBeUndefined();
      t.sim.control.clearTradingMode();
    }
    t.sim.control.updateSettings({ placementModeRefusal: '503-with-mode' });
    t.sim.control.setTradingMode({ mode: 'cancel_only', resumeAtMs });
    const withMode = await place();
    expect(withMode.status).toBe(503);
    expectModeBody(withMode.body, { code: 'trading_cancel_only', mode: 'cancel_only', resumeAt: new Date(resumeAtMs).toISOString() });
    t.sim.control.clearTradingMode();
    t.sim.control.setTradingMode({ mode: 'post_only', resumeAtMs });
    expect((await place()).status).toBe(425);
    t.sim.control.clearTradingMode();
    // A cancel refused by `disabled` stays the specification's 425 whatever the setting.
    const id = placedId(await place());
    t.sim.control.setTradingMode({ mode: 'disabled', resumeAtMs });
    expect((await signed('DELETE', `/orders/${id}`)).status).toBe(425);
    t.sim.control.clearTradingMode();
    t.sim.control.updateSettings({ placementModeRefusal: '425' });
  });
});
