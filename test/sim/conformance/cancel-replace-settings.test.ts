/**
 * Conformance: cancel-replace batches across markets and cancel targets that name no order, with the settings a
 * client's fallbacks are tested against (the live venue's behaviour is unconfirmed for both):
 * - `cancelReplaceBatchMarkets: mixed` (default): operations naming different `replacement.marketSlug`s are carried
 *   out in order and answered index-aligned; `single`: the batch is refused as a whole, 400 naming
 *   `operations.{i}.replacement.marketSlug`, nothing canceled or placed;
 * - `cancelReplaceUnknownTarget: failure` (default): a `{clientOrderId}` target naming no order is a cancel FAILURE
 *   ORDER_NOT_FOUND, ALLOW_FAILURE still places the replacement (a first placement in a batch), STOP_ON_FAILURE
 *   leaves it NOT_ATTEMPTED; `refuse`: 400 naming `[operations.{i}.]cancel.clientOrderId`, nothing happens.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SimMarket } from '../../../src/sim/engine/index.js';
import { DEFAULT_SIM_SETTINGS } from '../../../src/sim/index.js';
import { arr, obj, onlyValidationIssue } from '../../support/sim-http.js';
import { signedOrderBody } from '../../support/sim-orders.js';
import { call, placedId, placeOrder, startTestSim, type TestSim } from '../fixtures.js';

let t: TestSim;
let seq = 0;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(async () => {
  await t.sim.close();
});
afterEach(() => {
  t.sim.control.updateSettings(DEFAULT_SIM_SETTINGS);
});

const batch = (operations: unknown[]) => call(t.sim.baseUrl, 'POST', '/orders/cancel-replace/batch', { creds: t.demo.creds, body: { operations } });
const setting = (body: Record<string, string>) => call(t.sim.baseUrl, 'PUT', '/_sim/settings', { body });

async function resting(market: SimMarket, priceTicks = 300): Promise<{ id: string; clientOrderId: string }> {
  const clientOrderId = `crs-old-${++seq}`;
  const id = placedId(await placeOrder(t.sim, t.demo, { market, side: 'BUY', priceTicks, sizeRaw: 2_000_000, clientOrderId }));
  return { id, clientOrderId };
}

async function replacement(market: SimMarket, priceTicks = 310): Promise<Record<string, unknown>> {
  return signedOrderBody({ privateKey: t.demo.privateKey, ownerId: t.demo.profileId, market, side: 'BUY', priceTicks, sizeRaw: 2_000_000, clientOrderId: `crs-new-${++seq}` });
}

const status = (id: string) => t.sim.engine.orderById(id)?.status;
const byClientId = (clientOrderId: string) => t.sim.engine.orderByClientOrderId(t.demo.profileId, clientOrderId);
const resultsOf = (body: unknown) => arr(obj(body)['results']).map(obj);

describe('cancel-replace batches across markets', () => {
  it('accepts operations naming different markets by default and answers index-aligned', async () => {
    const a = await resting(t.market);
    const b = await resting(t.market2);
    const ra = await replacement(t.market);
    const rb = await replacement(t.market2);
    const r = await batch([
      { cancel: { orderId: b.id }, replacement: rb, mode: 'STOP_ON_FAILURE' },
      { cancel: { clientOrderId: a.clientOrderId }, replacement: ra, mode: 'STOP_ON_FAILURE' },
    ]);
    expect(r.status).toBe(200);
    const results = resultsOf(r.body);
    expect(results.map((x) => x['index'])).toEqual([0, 1]);
    expect(results.map((x) => obj(x['cancel']))).toEqual([
      { status: 'SUCCESS', orderId: b.id, clientOrderId: b.clientOrderId },
      { status: 'SUCCESS', orderId: a.id, clientOrderId: a.clientOrderId },
    ]);
    const placed = results.map((x) => obj(obj(obj(x['replacement'])['data'])['order']));
    expect(placed.map((o) => o['marketSlug'])).toEqual([t.market2.slug, t.market.slug]);
    expect([status(a.id), status(b.id)]).toEqual(['CANCELED', 'CANCELED']);
    expect(byClientId(String(rb['clientOrderId']))?.marketSlug).toBe(t.market2.slug);
    expect(byClientId(String(ra['clientOrderId']))?.marketSlug).toBe(t.market.slug);
  });

  it('with cancelReplaceBatchMarkets single, refuses a mixed batch as a whole naming operations.{i}.replacement.marketSlug', async () => {
    expect((await setting({ cancelReplaceBatchMarkets: 'single' })).status).toBe(200);
    const a = await resting(t.market);
    const b = await resting(t.market2);
    const same = await replacement(t.market);
    const other = await replacement(t.market2);
    const r = await batch([
      { cancel: { orderId: a.id }, replacement: same, mode: 'STOP_ON_FAILURE' },
      { cancel: { orderId: b.id }, replacement: other, mode: 'STOP_ON_FAILURE' },
    ]);
    expect(r.status).toBe(400);
    const found = onlyValidationIssue(r.body);
    expect(found.field).toBe('operations.1.replacement.marketSlug');
    expect(found.message).toContain(t.market2.slug);
    expect([status(a.id), status(b.id)]).toEqual(['LIVE', 'LIVE']);
    expect(byClientId(String(same['clientOrderId']))).toBeUndefined();
    // One market per batch still goes through.
    const ok = await batch([{ cancel: { orderId: a.id }, replacement: same, mode: 'STOP_ON_FAILURE' }]);
    expect(ok.status).toBe(200);
    expect(status(a.id)).toBe('CANCELED');
  });
});

describe('a cancel target {clientOrderId} that names no order', () => {
  it('is a cancel FAILURE ORDER_NOT_FOUND: ALLOW_FAILURE still places the replacement, STOP_ON_FAILURE does not', async () => {
    const first = await replacement(t.market, 320);
    const second = await replacement(t.market2, 330);
    const r = await batch([
      { cancel: { clientOrderId: `never-${++seq}` }, replacement: first, mode: 'ALLOW_FAILURE' },
      { cancel: { clientOrderId: `never-${++seq}` }, replacement: second, mode: 'STOP_ON_FAILURE' },
    ]);
    expect(r.status).toBe(200);
    const [allow, stop] = resultsOf(r.body);
    expect(obj(allow?.['cancel'])).toEqual({ status: 'FAILURE', error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } });
    expect(obj(allow?.['replacement'])['status']).toBe('SUCCESS');
    expect(byClientId(String(first['clientOrderId']))?.status).toBe('LIVE');
    expect(obj(stop?.['cancel'])['status']).toBe('FAILURE');
    expect(obj(stop?.['replacement'])).toEqual({ status: 'NOT_ATTEMPTED' });
    expect(byClientId(String(second['clientOrderId']))).toBeUndefined();
  });

  it('with cancelReplaceUnknownTarget refuse, refuses the request naming the field (batch and single), and nothing happens', async () => {
    expect((await setting({ cancelReplaceUnknownTarget: 'refuse' })).status).toBe(200);
    const old = await resting(t.market);
    const repl = await replacement(t.market);
    const missing = `never-${++seq}`;
    const r = await batch([
      { cancel: { orderId: old.id }, replacement: await replacement(t.market, 305), mode: 'STOP_ON_FAILURE' },
      { cancel: { clientOrderId: missing }, replacement: repl, mode: 'ALLOW_FAILURE' },
    ]);
    expect(r.status).toBe(400);
    const found = onlyValidationIssue(r.body);
    expect(found.field).toBe('operations.1.cancel.clientOrderId');
    expect(found.message).toContain(missing);
    expect(status(old.id)).toBe('LIVE');
    expect(byClientId(String(repl['clientOrderId']))).toBeUndefined();

    const single = await call(t.sim.baseUrl, 'POST', '/orders/cancel-replace', { creds: t.demo.creds, body: { cancel: { clientOrderId: missing }, replacement: repl, mode: 'ALLOW_FAILURE' } });
    expect(single.status).toBe(400);
    expect(onlyValidationIssue(single.body).field).toBe('cancel.clientOrderId');
    // A clientOrderId that exists is still carried out.
    const ok = await batch([{ cancel: { clientOrderId: old.clientOrderId }, replacement: repl, mode: 'STOP_ON_FAILURE' }]);
    expect(ok.status).toBe(200);
    expect(status(old.id)).toBe('CANCELED');
  });

  it('refuses a bad setting with a 400 naming it, and shows the settings in /_sim/state', async () => {
    const bad = await setting({ cancelReplaceUnknownTarget: 'ignore' });
    expect(bad.status).toBe(400);
    expect(onlyValidationIssue(bad.body).field).toBe('cancelReplaceUnknownTarget');
    const state = obj((await call(t.sim.baseUrl, 'GET', '/_sim/state')).body);
    expect(state['settings']).toEqual(DEFAULT_SIM_SETTINGS);
    expect(obj((await call(t.sim.baseUrl, 'GET', '/_sim/settings')).body)).toEqual(DEFAULT_SIM_SETTINGS);
  });
});
