/**
 * Conformance: POST /orders/cancel-replace and /orders/cancel-replace/batch in the official client's shapes
 * (CancelReplaceRequest → CancelReplaceResponse, CancelReplaceBatchResponse with `index`): both modes, cancel by
 * orderId or clientOrderId, the whole-request refusals (schema 400, scope 403, `disabled` 425), a trading mode that
 * refuses only the replacement, and every forced outcome of POST /_sim/faults/cancel-replace (UNKNOWN applied or
 * not, checked by looking the orders up afterwards).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { arr, obj } from '../../support/sim-http.js';
import { signedOrderBody } from '../../support/sim-orders.js';
import { call, placedId, placeOrder, READER, startTestSim, type TestSim } from '../fixtures.js';

let t: TestSim;
let seq = 0;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(async () => {
  await t.sim.close();
});
afterEach(async () => {
  await admin('DELETE', '/faults');
  t.sim.control.clearTradingMode();
});

const admin = (method: string, path: string, body?: unknown) => call(t.sim.baseUrl, method, `/_sim${path}`, body === undefined ? {} : { body });
const post = (path: string, body: unknown, creds = t.demo.creds) => call(t.sim.baseUrl, 'POST', path, { creds, body });

/** A resting BUY YES order of the demo account with a fresh clientOrderId. */
async function resting(priceTicks = 300): Promise<{ id: string; clientOrderId: string }> {
  const clientOrderId = `cr-old-${++seq}`;
  const id = placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks, sizeRaw: 2_000_000, clientOrderId }));
  return { id, clientOrderId };
}

async function replacement(priceTicks = 310, extra: { postOnly?: boolean } = {}): Promise<Record<string, unknown>> {
  return signedOrderBody({
    privateKey: t.demo.privateKey,
    ownerId: t.demo.profileId,
    market: t.market,
    side: 'BUY',
    priceTicks,
    sizeRaw: 2_000_000,
    clientOrderId: `cr-new-${++seq}`,
    ...extra,
  });
}

const status = (id: string) => t.sim.engine.orderById(id)?.status;
const byClientId = (clientOrderId: string) => t.sim.engine.orderByClientOrderId(t.demo.profileId, clientOrderId);

describe('POST /orders/cancel-replace', () => {
  it('cancels by orderId and places the replacement: 200 with SUCCESS / SUCCESS and the OrderResponse', async () => {
    const old = await resting();
    const repl = await replacement();
    const r = await post('/orders/cancel-replace', { cancel: { orderId: old.id }, replacement: repl, mode: 'STOP_ON_FAILURE' });
    expect(r.status).toBe(200);
    const body = obj(r.body);
    expect(Object.keys(body).sort()).toEqual(['cancel', 'replacement']);
    expect(body['cancel']).toEqual({ status: 'SUCCESS', orderId: old.id, clientOrderId: old.clientOrderId });
    const rep = obj(body['replacement']);
    expect(rep['status']).toBe('SUCCESS');
    const data = obj(rep['data']);
    expect(Object.keys(data).sort()).toEqual(['execution', 'makerMatches', 'order']);
    const newId = String(obj(data['order'])['id']);
    expect(obj(obj(data['execution'])['totalsRaw'])).toEqual({ contractsGross: '0', contractsFee: '0', contractsNet: '0', usdGross: '0', usdFee: '0', usdNet: '0' });
    expect(status(old.id)).toBe('CANCELED');
    expect(status(newId)).toBe('LIVE');
    expect(byClientId(String(repl['clientOrderId']))?.id).toBe(newId);
  });

  it('cancels by clientOrderId', async () => {
    const old = await resting();
    const r = await post('/orders/cancel-replace', { cancel: { clientOrderId: old.clientOrderId }, replacement: await replacement(), mode: 'ALLOW_FAILURE' });
    expect(r.status).toBe(200);
    expect(obj(r.body)['cancel']).toEqual({ status: 'SUCCESS', orderId: old.id, clientOrderId: old.clientOrderId });
    expect(status(old.id)).toBe('CANCELED');
  });

  it('STOP_ON_FAILURE: a failed cancel leaves the replacement NOT_ATTEMPTED (409); ALLOW_FAILURE places it anyway', async () => {
    const repl = await replacement();
    const stop = await post('/orders/cancel-replace', { cancel: { clientOrderId: 'no-such-order' }, replacement: repl, mode: 'STOP_ON_FAILURE' });
    expect(stop.status).toBe(409);
    expect(stop.body).toEqual({ cancel: { status: 'FAILURE', error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } }, replacement: { status: 'NOT_ATTEMPTED' } });
    expect(byClientId(String(repl['clientOrderId']))).toBeUndefined();

    const old = await resting();
    expect((await call(t.sim.baseUrl, 'DELETE', `/orders/${old.id}`, { creds: t.demo.creds })).status).toBe(200);
    const allow = await post('/orders/cancel-replace', { cancel: { orderId: old.id }, replacement: repl, mode: 'ALLOW_FAILURE' });
    expect(allow.status).toBe(409);
    expect(obj(obj(allow.body)['cancel'])).toMatchObject({ status: 'FAILURE', error: { code: 'NOT_CANCELLABLE' } });
    expect(obj(obj(allow.body)['replacement'])['status']).toBe('SUCCESS');
    expect(byClientId(String(repl['clientOrderId']))?.status).toBe('LIVE');
  });

  it('a replacement the engine refuses is a FAILURE with its code; the cancel still happened', async () => {
    const old = await resting(200);
    // A post-only replacement that would cross a resting ask.
    placedId(await placeOrder(t.sim, t.demo, { market: t.market, outcome: 'NO', side: 'BUY', priceTicks: 500, sizeRaw: 1_000_000 }));
    const r = await post('/orders/cancel-replace', { cancel: { orderId: old.id }, replacement: await replacement(600, { postOnly: true }), mode: 'STOP_ON_FAILURE' });
    expect(r.status).toBe(409);
    expect(obj(r.body)['cancel']).toMatchObject({ status: 'SUCCESS', orderId: old.id });
    expect(obj(obj(r.body)['replacement'])).toMatchObject({ status: 'FAILURE', error: { code: 'POST_ONLY_WOULD_CROSS' } });
    expect(status(old.id)).toBe('CANCELED');
  });

  it('refuses a malformed request as a whole (400 naming the field), a token without trading scope (403), and changes nothing', async () => {
    const old = await resting();
    const repl = await replacement();
    const badMode = await post('/orders/cancel-replace', { cancel: { orderId: old.id }, replacement: repl, mode: 'SOMETIMES' });
    expect(badMode.status).toBe(400);
    expect(arr(obj(badMode.body)['message']).map((m) => obj(m)['field'])).toEqual(['mode']);
    const badOrder = await post('/orders/cancel-replace', { cancel: { orderId: old.id }, replacement: { ...repl, orderType: 'XYZ' }, mode: 'ALLOW_FAILURE' });
    expect(badOrder.status).toBe(400);
    expect(arr(obj(badOrder.body)['message']).map((m) => obj(m)['field'])).toEqual(['replacement.orderType']);
    const bothTargets = await post('/orders/cancel-replace', { cancel: { orderId: old.id, clientOrderId: old.clientOrderId }, replacement: repl, mode: 'ALLOW_FAILURE' });
    expect(bothTargets.status).toBe(400);
    const readOnly = await post('/orders/cancel-replace', { cancel: { orderId: old.id }, replacement: repl, mode: 'ALLOW_FAILURE' }, READER.creds);
    expect(readOnly.status).toBe(403);
    expect(status(old.id)).toBe('LIVE');
    expect(byClientId(String(repl['clientOrderId']))).toBeUndefined();
  });

  it('cancel_only: the cancel goes through and the replacement fails; disabled: 425 for the whole request', async () => {
    const old = await resting();
    const now = t.sim.clock.now();
    t.sim.control.setTradingMode({ mode: 'cancel_only', resumeAtMs: now + 60_000 });
    const r = await post('/orders/cancel-replace', { cancel: { orderId: old.id }, replacement: await replacement(), mode: 'ALLOW_FAILURE' });
    expect(r.status).toBe(409);
    expect(obj(r.body)['cancel']).toMatchObject({ status: 'SUCCESS' });
    expect(obj(obj(r.body)['replacement'])).toMatchObject({ status: 'FAILURE', error: { code: 'TRADING_MODE_RESTRICTED' } });
    t.sim.control.clearTradingMode();

    const other = await resting();
    t.sim.control.setTradingMode({ mode: 'disabled', resumeAtMs: now + 60_000 });
    const disabled = await post('/orders/cancel-replace', { cancel: { orderId: other.id }, replacement: await replacement(), mode: 'ALLOW_FAILURE' });
    expect(disabled.status).toBe(425);
    expect(status(other.id)).toBe('LIVE');
  });
});

describe('forced outcomes (POST /_sim/faults/cancel-replace)', () => {
  async function run(mode: 'ALLOW_FAILURE' | 'STOP_ON_FAILURE') {
    const old = await resting();
    const repl = await replacement();
    const r = await post('/orders/cancel-replace', { cancel: { orderId: old.id }, replacement: repl, mode });
    return { old, newClientId: String(repl['clientOrderId']), status: r.status, body: obj(r.body) };
  }

  it('cancel FAILURE: nothing canceled; STOP_ON_FAILURE leaves the replacement NOT_ATTEMPTED', async () => {
    expect((await admin('POST', '/faults/cancel-replace', { cancel: 'FAILURE' })).status).toBe(201);
    const r = await run('STOP_ON_FAILURE');
    expect(r.body['cancel']).toMatchObject({ status: 'FAILURE', error: { code: 'INTERNAL_ERROR' } });
    expect(r.body['replacement']).toEqual({ status: 'NOT_ATTEMPTED' });
    expect(status(r.old.id)).toBe('LIVE');
    expect(byClientId(r.newClientId)).toBeUndefined();
  });

  it('cancel UNKNOWN, applied or not: the lookup tells the truth; ALLOW_FAILURE still replaces', async () => {
    await admin('POST', '/faults/cancel-replace', { cancel: 'UNKNOWN', cancelApplied: true });
    const applied = await run('ALLOW_FAILURE');
    expect(applied.body['cancel']).toMatchObject({ status: 'UNKNOWN', error: { code: 'UNKNOWN' } });
    expect(obj(applied.body['replacement'])['status']).toBe('SUCCESS');
    expect(status(applied.old.id)).toBe('CANCELED');

    await admin('POST', '/faults/cancel-replace', { cancel: 'UNKNOWN' });
    const notApplied = await run('STOP_ON_FAILURE');
    expect(notApplied.body['cancel']).toMatchObject({ status: 'UNKNOWN' });
    expect(notApplied.body['replacement']).toEqual({ status: 'NOT_ATTEMPTED' });
    expect(status(notApplied.old.id)).toBe('LIVE');
  });

  it('replacement FAILURE, NOT_ATTEMPTED and UNKNOWN (applied or not), each after a real cancel', async () => {
    await admin('POST', '/faults/cancel-replace', { replacement: 'FAILURE' });
    const failed = await run('STOP_ON_FAILURE');
    expect(failed.status).toBe(409);
    expect(failed.body['cancel']).toMatchObject({ status: 'SUCCESS' });
    expect(failed.body['replacement']).toMatchObject({ status: 'FAILURE', error: { code: 'INTERNAL_ERROR' } });
    expect(byClientId(failed.newClientId)).toBeUndefined();

    await admin('POST', '/faults/cancel-replace', { replacement: 'NOT_ATTEMPTED' });
    const skipped = await run('ALLOW_FAILURE');
    expect(skipped.body['replacement']).toEqual({ status: 'NOT_ATTEMPTED' });
    expect(byClientId(skipped.newClientId)).toBeUndefined();

    await admin('POST', '/faults/cancel-replace', { replacement: 'UNKNOWN', replacementApplied: true });
    const placed = await run('STOP_ON_FAILURE');
    expect(placed.body['replacement']).toMatchObject({ status: 'UNKNOWN', error: { code: 'UNKNOWN' } });
    expect(byClientId(placed.newClientId)?.status).toBe('LIVE');
    const lookup = await post('/orders/status/batch', { items: [{ clientOrderId: placed.newClientId }] });
    expect(obj(arr(obj(lookup.body)['results'])[0])['status']).toBe('found');

    await admin('POST', '/faults/cancel-replace', { replacement: 'UNKNOWN' });
    const lost = await run('STOP_ON_FAILURE');
    expect(lost.body['replacement']).toMatchObject({ status: 'UNKNOWN' });
    expect(byClientId(lost.newClientId)).toBeUndefined();
    expect(status(lost.old.id)).toBe('CANCELED');
  });

  it('a rule with count and clientOrderId hits only matching operations, N times; bad rules are 400', async () => {
    const first = await resting();
    const second = await resting();
    expect((await admin('POST', '/faults/cancel-replace', { cancel: 'FAILURE', clientOrderId: second.clientOrderId, count: 1 })).status).toBe(201);
    const batch = await post('/orders/cancel-replace/batch', {
      operations: [
        { cancel: { orderId: first.id }, replacement: await replacement(), mode: 'STOP_ON_FAILURE' },
        { cancel: { orderId: second.id }, replacement: await replacement(), mode: 'STOP_ON_FAILURE' },
      ],
    });
    expect(batch.status).toBe(200);
    const results = arr(obj(batch.body)['results']).map(obj);
    expect(results.map((x) => x['index'])).toEqual([0, 1]);
    expect(obj(results[0]?.['cancel'])['status']).toBe('SUCCESS');
    expect(obj(results[0]?.['replacement'])['status']).toBe('SUCCESS');
    expect(obj(results[1]?.['cancel'])['status']).toBe('FAILURE');
    expect(results[1]?.['replacement']).toEqual({ status: 'NOT_ATTEMPTED' });
    expect(status(second.id)).toBe('LIVE');
    expect(obj((await admin('GET', '/faults/cancel-replace')).body)['rules']).toEqual([]);

    for (const bad of [{}, { cancel: 'MAYBE' }, { replacement: 'SUCCESS' }, { cancel: 'FAILURE', cancelApplied: true }, { cancel: 'FAILURE', count: 0 }]) {
      expect((await admin('POST', '/faults/cancel-replace', bad)).status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe('POST /orders/cancel-replace/batch', () => {
  it('answers {results: [{index, cancel, replacement}]} in order and validates operations by index', async () => {
    const old = await resting();
    const ops = [
      { cancel: { orderId: old.id }, replacement: await replacement(), mode: 'STOP_ON_FAILURE' },
      { cancel: { clientOrderId: 'missing' }, replacement: await replacement(), mode: 'ALLOW_FAILURE' },
    ];
    const r = await post('/orders/cancel-replace/batch', { operations: ops });
    expect(r.status).toBe(200);
    const results = arr(obj(r.body)['results']).map(obj);
    expect(results.map((x) => Object.keys(x).sort())).toEqual([['cancel', 'index', 'replacement'], ['cancel', 'index', 'replacement']]);
    expect(obj(results[1]?.['cancel'])['status']).toBe('FAILURE');
    expect(obj(results[1]?.['replacement'])['status']).toBe('SUCCESS');

    const bad = await post('/orders/cancel-replace/batch', { operations: [ops[0], { ...ops[1], mode: 'NOPE' }] });
    expect(bad.status).toBe(400);
    expect(arr(obj(bad.body)['message']).map((m) => obj(m)['field'])).toEqual(['operations.1.mode']);
    expect((await post('/orders/cancel-replace/batch', { operations: [] })).status).toBe(400);
  });
});
