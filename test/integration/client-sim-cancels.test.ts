/**
 * The bot's cancels through the venue's current endpoints (src/venue/venue-cancels.ts), against the simulator serving
 * them strictly (src/sim/server/routes-cancel.ts): batch-cancel by order id within a market; an order known only by its
 * clientOrderId canceled by it; a cancel of several markets detects whether the venue takes them in one request — the
 * simulator serves both answers (`batchCancelMarkets`: mixed or single), and the bot learns each from the first answer,
 * says so once, and in the `single` case sends the refused ids again one market a request; a venue without the
 * endpoint (404) sends the bot back to the older cancel-batch, once.
 */
import { describe, expect, it } from 'vitest';
import { signingMarketOf } from '../../src/exchange/signer.js';
import { API_ENDPOINTS } from '../../src/exchange/endpoints.js';
import { FrameworkError } from '../../src/exchange/errors.js';
import { VenueCancels, type CancelFact } from '../../src/venue/venue-cancels.js';
import { clientSimPerTest, lastSeq, placeLimit, tokenLog, type ClientSim } from '../support/client-sim.js';

const startHarness = clientSimPerTest({ invariants: true });

async function restIn(h: ClientSim, other: boolean, priceTicks: number, clientOrderId?: string): Promise<string> {
  const market = other ? signingMarketOf(h.otherMarket) : h.signing;
  const placed = await placeLimit(h.demo.client, market, { outcome: 'YES', side: 'BUY', priceTicks, sizeRaw: 1_000_000, postOnly: true, ...(clientOrderId === undefined ? {} : { clientOrderId }) });
  return placed.orderId;
}

function cancelsOf(h: ClientSim): { cancels: VenueCancels; facts: CancelFact[] } {
  const facts: CancelFact[] = [];
  return { cancels: new VenueCancels(h.demo.client.api, (fact) => facts.push(fact)), facts };
}

const paths = (h: ClientSim, since: number) => tokenLog(h.sim, h.sim.demoAccount.tokenId, since).filter((e) => e.method === 'POST').map((e) => `${e.path} ${e.status}`);

describe('cancels through POST /orders/batch-cancel and POST /orders/cancel', () => {
  it('one market by order id, and an order known only by its clientOrderId', async () => {
    const h = await startHarness();
    const { cancels } = cancelsOf(h);
    const ids = [await restIn(h, false, 300), await restIn(h, false, 301)];
    const since = lastSeq(h.sim);
    expect(await cancels.cancelInMarket(ids)).toEqual({ canceled: ids, failed: [] });
    const lost = await restIn(h, false, 302, 'om-it-lost-1');
    expect(await cancels.cancelByClientOrderId('om-it-lost-1')).toEqual({ canceled: ['om-it-lost-1'], failed: [] });
    expect(h.sim.engine.orderById(lost)?.status).toBe('CANCELED');
    expect(paths(h, since).filter((p) => !p.startsWith('/orders '))).toEqual(['/orders/batch-cancel 200', '/orders/cancel 200']);
  });

  it('several markets where the venue takes them in one request: one request, learnt and said once', async () => {
    const h = await startHarness();
    const { cancels, facts } = cancelsOf(h);
    const a = await restIn(h, false, 303);
    const b = await restIn(h, true, 303);
    const since = lastSeq(h.sim);
    const out = await cancels.cancelAcrossMarkets(new Map([[h.market.slug, [a]], [h.otherMarket.slug, [b]]]));
    expect([...out.canceled].sort()).toEqual([a, b].sort());
    expect(paths(h, since)).toEqual(['/orders/batch-cancel 200']);
    expect(facts).toEqual([{ spansMarkets: true }]);
    expect(cancels.facts.spansMarkets).toBe(true);
  });

  it('several markets where the venue wants one market a request: the refused request goes again per market, learnt once', async () => {
    const h = await startHarness({ sim: { settings: { batchCancelMarkets: 'single' } } });
    const { cancels, facts } = cancelsOf(h);
    const a = await restIn(h, false, 304);
    const b = await restIn(h, true, 304);
    const since = lastSeq(h.sim);
    const out = await cancels.cancelAcrossMarkets(new Map([[h.market.slug, [a]], [h.otherMarket.slug, [b]]]));
    expect([...out.canceled].sort()).toEqual([a, b].sort());
    expect(paths(h, since)).toEqual(['/orders/batch-cancel 400', '/orders/batch-cancel 200', '/orders/batch-cancel 200']);
    // Remembered: the next cancel of several markets goes per market at once.
    const c = await restIn(h, false, 305);
    const d = await restIn(h, true, 305);
    const again = lastSeq(h.sim);
    await cancels.cancelAcrossMarkets(new Map([[h.market.slug, [c]], [h.otherMarket.slug, [d]]]));
    expect(paths(h, again)).toEqual(['/orders/batch-cancel 200', '/orders/batch-cancel 200']);
    expect(facts).toEqual([{ spansMarkets: false }]);
  });

  it('a venue without batch-cancel (404 for the route): back to POST /orders/cancel-batch for the process, said once', async () => {
    // The simulator serves the endpoint; a venue that does not answers the framework's 404 for the route.
    const calls: string[] = [];
    const api = {
      batchCancel: () => {
        calls.push('batch-cancel');
        return Promise.reject(new FrameworkError(404, API_ENDPOINTS.batchCancel, { message: 'Cannot POST /orders/batch-cancel', error: 'Not Found', statusCode: 404 }));
      },
      cancelTarget: () => Promise.reject(new Error('not used')),
      cancelOrders: (ids: readonly string[]) => {
        calls.push('cancel-batch');
        return Promise.resolve({ status: 200, partial: false, message: null, canceled: [...ids], failed: [] });
      },
    };
    const facts: CancelFact[] = [];
    const cancels = new VenueCancels(api, (fact) => facts.push(fact));
    expect(await cancels.cancelInMarket(['a'])).toEqual({ canceled: ['a'], failed: [] });
    expect(await cancels.cancelAcrossMarkets(new Map([['m1', ['b']], ['m2', ['c']]]))).toEqual({ canceled: ['b', 'c'], failed: [] });
    expect(calls).toEqual(['batch-cancel', 'cancel-batch', 'cancel-batch', 'cancel-batch']);
    expect(facts).toEqual([{ batchCancel: 'absent' }]);
  });
});
