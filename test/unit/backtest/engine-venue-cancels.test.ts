/**
 * The backtest's venue port (src/backtest/engine-venue.ts) offers the port's newer cancels as the simulator serves
 * them: `cancelAcrossMarkets` is POST /orders/batch-cancel (up to 50 ids a request, several markets in one, each
 * refused id reported with its reason), `cancelByClientOrderId` is POST /orders/cancel (canceled by the clientOrderId,
 * or the venue's refusal as an error: 404 for an id never placed, 400 for an order no longer live).
 */
import { describe, expect, it } from 'vitest';
import { EngineVenue } from '../../../src/backtest/engine-venue.js';
import { VirtualTime } from '../../../src/backtest/virtual-time.js';
import { VenueRequestError, type PlaceRequest } from '../../../src/orders/venue-port.js';
import { createEngine, generateMarkets } from '../../../src/sim/engine/index.js';

const T0 = Date.UTC(2026, 0, 1);
const S = 1_000_000;
const BOT = { profileId: 1, address: '0x00000000000000000000000000000000000B0071' };
const [A, B] = generateMarkets(2, 5, T0);

function rig() {
  const engine = createEngine({ seed: 1, clock: new VirtualTime(T0), settlementDelayMs: 2000, markets: [A!, B!], accounts: [{ ...BOT, usdcRaw: 100_000 * S, feeRateBps: 300 }] });
  const requests: number[] = [];
  const venue = new EngineVenue({ engine, profileId: BOT.profileId, feeRateBps: 300, observer: { onCancelRequest: (orders) => requests.push(orders) } });
  let n = 0;
  const bid = async (market: typeof A, priceTicks = 300): Promise<{ orderId: string; clientOrderId: string }> => {
    n += 1;
    const request: PlaceRequest = { marketSlug: market!.slug, clientOrderId: `om-t-${n}`, token: 'YES', tokenId: market!.yesTokenId, side: 'BUY', priceTicks, sizeRaw: 10 * S, postOnly: true, orderType: 'GTC' };
    const placed = await venue.placeOrder(request);
    return { orderId: placed.orderId, clientOrderId: request.clientOrderId };
  };
  return { engine, venue, requests, bid };
}

describe('EngineVenue.cancelAcrossMarkets', () => {
  it('cancels the orders of several markets in one request and reports each refused id', async () => {
    const r = rig();
    const a = await r.bid(A);
    const b = await r.bid(B);
    const done = await r.bid(B, 310);
    await r.venue.cancelOrders(B!.slug, [done.orderId]);
    r.requests.length = 0;
    const missing = '6f1c0c7e-2b4a-4d5e-9f00-000000000000';
    const result = await r.venue.cancelAcrossMarkets(new Map([[A!.slug, [a.orderId, missing]], [B!.slug, [b.orderId, done.orderId]]]));
    expect(result.canceled).toEqual([a.orderId, b.orderId]);
    expect(result.failed.map((f) => [f.orderId, f.reason])).toEqual([
      [missing, 'not-found'],
      [done.orderId, 'already-canceled'],
    ]);
    expect(r.requests).toEqual([4]);
    expect(await r.venue.listLiveOrders(A!.slug)).toEqual([]);
    expect(await r.venue.listLiveOrders(B!.slug)).toEqual([]);
  });

  it('sends one request per 50 ids', async () => {
    const r = rig();
    const orders = [];
    for (let i = 0; i < 60; i += 1) orders.push(await r.bid(i % 2 === 0 ? A : B, 200 + i));
    r.requests.length = 0;
    const byMarket = new Map([
      [A!.slug, orders.filter((_, i) => i % 2 === 0).map((o) => o.orderId)],
      [B!.slug, orders.filter((_, i) => i % 2 === 1).map((o) => o.orderId)],
    ]);
    const result = await r.venue.cancelAcrossMarkets(byMarket);
    expect(result.canceled).toHaveLength(60);
    expect(result.failed).toEqual([]);
    expect(r.requests).toEqual([50, 10]);
  });
});

describe('EngineVenue.cancelByClientOrderId', () => {
  it('cancels the order placed under that clientOrderId and names it in `canceled`', async () => {
    const r = rig();
    const a = await r.bid(A);
    expect(await r.venue.cancelByClientOrderId(A!.slug, a.clientOrderId)).toEqual({ canceled: [a.clientOrderId], failed: [] });
    expect(r.engine.orderById(a.orderId)?.status).toBe('CANCELED');
    expect(r.requests).toEqual([1]);
  });

  it('answers the venue\'s refusals as errors: 404 for an id never placed, 400 for an order no longer live', async () => {
    const r = rig();
    const a = await r.bid(A);
    await r.venue.cancelByClientOrderId(A!.slug, a.clientOrderId);
    await expect(r.venue.cancelByClientOrderId(A!.slug, 'om-never')).rejects.toSatisfy((e) => e instanceof VenueRequestError && e.status === 404);
    await expect(r.venue.cancelByClientOrderId(A!.slug, a.clientOrderId)).rejects.toSatisfy((e) => e instanceof VenueRequestError && e.status === 400);
  });
});
