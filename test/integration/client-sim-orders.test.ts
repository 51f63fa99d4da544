/**
 * The bot's real REST client (src/exchange) against the embedded simulator (src/sim) over loopback: placing
 * (resting YES and NO bids, a crossing fill, the venue's rejections), reading own orders and order statuses,
 * cancelling (one, a batch with a partial failure, all in a market), positions after a fill, and redemption
 * after resolution. Outcomes are checked against the simulator's engine, which is the source of truth here.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FrameworkError, isDuplicateOrderError, RequestInputError } from '../../src/exchange/errors.js';
import { signingMarketOf } from '../../src/exchange/signer.js';
import { clientSimPerTest, lastSeq, placeLimit, rejectionOf, tokenLog, type ClientSim } from '../support/client-sim.js';
import { limitOrderAmounts } from '../../src/core/venue-rules/index.js';

const startHarness = clientSimPerTest({ invariants: true });

/** POST /orders requests of a token since `seq`, as the simulator logged them. */
function placements(sim: ClientSim['sim'], tokenId: string, sinceSeq: number): number[] {
  return tokenLog(sim, tokenId, sinceSeq)
    .filter((e) => e.method === 'POST' && e.path === '/orders')
    .map((e) => e.status);
}

describe('client ↔ simulator: placing orders', () => {
  it('rests post-only GTC BUY YES and BUY NO; the NO bid shows as a YES ask at 1 − p', async () => {
    const h = await startHarness();
    const { demo, sim, simMarket, signing } = h;
    const yes = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 455, sizeRaw: 10_000_000, postOnly: true, clientOrderId: 'om-t-bid-0-1' });
    const yesAmounts = limitOrderAmounts('BUY', 455, 10_000_000);
    expect(yes.order).toMatchObject({
      id: yes.orderId,
      status: 'LIVE',
      clientOrderId: 'om-t-bid-0-1',
      side: 'BUY',
      priceTicks: 455,
      makerAmountRaw: yesAmounts.makerAmount,
      takerAmountRaw: yesAmounts.takerAmount,
      tokenId: simMarket.yesTokenId,
      orderType: 'GTC',
    });
    expect(yes.makerMatches).toEqual([]);
    expect(yes.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED', clientOrderId: 'om-t-bid-0-1', reason: null });

    const no = await placeLimit(demo.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 7_000_000, postOnly: true, clientOrderId: 'om-t-nobid-0-1' });
    expect(no.order).toMatchObject({ status: 'LIVE', side: 'BUY', priceTicks: 400, tokenId: simMarket.noTokenId, makerAmountRaw: 2_800_000, takerAmountRaw: 7_000_000 });

    expect(sim.engine.orderById(yes.orderId)).toMatchObject({ status: 'LIVE', postOnly: true, outcome: 'YES', priceTicks: 455, remainingSizeRaw: 10_000_000 });
    expect(sim.engine.orderById(no.orderId)).toMatchObject({ status: 'LIVE', postOnly: true, outcome: 'NO', priceTicks: 400, remainingSizeRaw: 7_000_000 });
    expect(sim.engine.book(simMarket.slug)).toEqual({ bids: [{ priceTicks: 455, sizeRaw: 10_000_000 }], asks: [{ priceTicks: 600, sizeRaw: 7_000_000 }] });
    const book = await demo.client.api.getOrderbook(simMarket.slug);
    expect(book.asks).toEqual([{ priceTicks: 600, sizeRaw: 7_000_000 }]);

    // user-orders: newest first, prices in each order's own token.
    const mine = await demo.client.api.getUserOrders(simMarket.slug);
    expect(mine.map((o) => [o.id, o.tokenId, o.priceTicks, o.status])).toEqual([
      [no.orderId, simMarket.noTokenId, 400, 'LIVE'],
      [yes.orderId, simMarket.yesTokenId, 455, 'LIVE'],
    ]);
    // Funds: both bids lock their collateral.
    expect(sim.control.balances(sim.demoAccount.profileId).usdc.lockedRaw).toBe(yesAmounts.makerAmount + 2_800_000);
  });

  it('a crossing order fills against the resting maker: execution, makerMatches, settlement, positions, trades', async () => {
    const h = await startHarness();
    const { demo, counterparty, sim, clock, simMarket, signing } = h;
    // The counterparty's BUY NO @ 0.450 is a YES ask @ 0.550.
    const maker = await placeLimit(counterparty.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 450, sizeRaw: 10_000_000, postOnly: true });
    const taker = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 560, sizeRaw: 4_000_000, clientOrderId: 'om-t-take-1' });

    const collateral = 2_200_000; // 4 shares at the maker's price 0.550
    const fee = Math.ceil((collateral * 300) / 10_000); // taker fee at the profile's 300 bps, rounded up
    expect(taker.order).toMatchObject({ status: 'MATCHED', priceTicks: 560, clientOrderId: 'om-t-take-1' });
    expect(taker.makerMatches).toHaveLength(1);
    expect(taker.makerMatches[0]).toMatchObject({ orderId: maker.orderId, matchedSizeRaw: 4_000_000 });
    expect(taker.execution).toMatchObject({
      matched: true,
      settlementStatus: 'MATCHED',
      clientOrderId: 'om-t-take-1',
      feeRateBps: 300,
      totals: { contractsGross: 4_000_000, contractsNet: 4_000_000, contractsFee: 0, usdGross: collateral, usdNet: collateral + fee, usdFee: fee },
    });
    expect(taker.execution?.tradeEventId).toMatch(/^[0-9a-f-]{36}$/);

    // The maker's remainder still rests; the taker's order is done.
    const makerOrders = await counterparty.client.api.getUserOrders(simMarket.slug);
    expect(makerOrders).toHaveLength(1);
    expect(makerOrders[0]).toMatchObject({ id: maker.orderId, status: 'LIVE', originalSizeRaw: 10_000_000, remainingSizeRaw: 6_000_000 });
    expect(sim.engine.orderById(taker.orderId)).toMatchObject({ status: 'MATCHED', remainingSizeRaw: 0, filledSizeRaw: 4_000_000, feePaidRaw: fee });

    // Settlement: MATCHED → MINED after the simulator's settlement delay; the status batch follows it.
    clock.jump(1_000);
    const [status] = await demo.client.api.getOrderStatuses([{ orderId: taker.orderId }]);
    expect(status).toMatchObject({ status: 'found', orderId: taker.orderId, clientOrderId: 'om-t-take-1' });
    expect(status?.data?.execution?.settlementStatus).toBe('MINED');
    expect(status?.data?.order).toMatchObject({ status: 'MATCHED', remainingSizeRaw: 0, originalSizeRaw: 4_000_000 });

    // Positions: the fill is in the portfolio, exactly as the engine books it.
    const positions = await demo.client.api.getPositions();
    const engine = sim.control.positions(sim.demoAccount.profileId).find((p) => p.marketSlug === simMarket.slug);
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({
      marketSlug: simMarket.slug,
      yesBalanceRaw: 4_000_000,
      noBalanceRaw: 0,
      yes: { cost: engine?.yes.costBasisRaw, fillPrice: 550_000, realisedPnl: 0 }, // raw 6-decimal, as the API reference documents
      no: { cost: 0, realisedPnl: 0 },
      collateralLockedRaw: 0,
    });
    expect(engine?.yes.costBasisRaw).toBe(collateral);
    const cpPositions = await counterparty.client.api.getPositions();
    expect(cpPositions[0]).toMatchObject({ marketSlug: simMarket.slug, yesBalanceRaw: 0, noBalanceRaw: 4_000_000, collateralLockedRaw: 2_700_000 });

    // The public trade feed shows the (mined) trade from the taker's side.
    const trades = await demo.client.api.getMarketTrades(simMarket.slug);
    expect(trades.trades).toHaveLength(1);
    expect(trades.trades[0]).toMatchObject({ side: 'BUY', matchedSizeRaw: 4_000_000, collateralRaw: collateral, tokenId: simMarket.yesTokenId, price: 0.55 });
    expect(trades).toMatchObject({ page: 1, totalPages: 1, totalRows: 1 });
    // Past the last page the venue answers only {events: [], totalPages: 0}.
    expect(await demo.client.api.getMarketTrades(simMarket.slug, { page: 2 })).toMatchObject({ trades: [], page: 2, totalPages: 0, totalRows: 0 });
  });

  it('the venue’s rejections: duplicate clientOrderId → 409, post-only crossing and insufficient balance → 400, none retried', async () => {
    const h = await startHarness();
    const { demo, counterparty, sim, simMarket, signing } = h;
    const token = sim.demoAccount.tokenId;
    const first = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 400, sizeRaw: 5_000_000, postOnly: true, clientOrderId: 'om-t-dup-1' });

    let seq = lastSeq(sim);
    const duplicate = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 401, sizeRaw: 5_000_000, postOnly: true, clientOrderId: 'om-t-dup-1' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDuplicateOrderError(duplicate)).toBe(true);
    expect(duplicate).toBeInstanceOf(FrameworkError);
    expect(duplicate).toMatchObject({ status: 409, endpoint: { method: 'POST', pathTemplate: '/orders' } });
    expect(placements(sim, token, seq)).toEqual([409]);
    const sameId = sim.control.accountOrders(sim.demoAccount.profileId).filter((o) => o.clientOrderId === 'om-t-dup-1');
    expect(sameId.map((o) => o.id)).toEqual([first.orderId]);

    // Post-only that would cross the counterparty's YES ask @ 0.550: rejected, the book unchanged.
    await placeLimit(counterparty.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 450, sizeRaw: 10_000_000, postOnly: true });
    const bookBefore = sim.engine.book(simMarket.slug);
    seq = lastSeq(sim);
    const crossing = await rejectionOf(placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 550, sizeRaw: 1_000_000, postOnly: true }), FrameworkError);
    expect(crossing).toMatchObject({ status: 400, body: { message: 'Post-only order would cross the book', statusCode: 400 } });
    expect(isDuplicateOrderError(crossing)).toBe(false);
    expect(placements(sim, token, seq)).toEqual([400]);
    expect(sim.engine.book(simMarket.slug)).toEqual(bookBefore);

    // 30,000 shares at 0.500 need 15,000 USDC; the demo account has 10,000.
    const ordersBefore = sim.control.accountOrders(sim.demoAccount.profileId).length;
    seq = lastSeq(sim);
    const broke = await rejectionOf(placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 500, sizeRaw: 30_000_000_000 }), FrameworkError);
    expect(broke.status).toBe(400);
    expect(broke.body.message).toMatch(/^Insufficient balance/);
    expect(placements(sim, token, seq)).toEqual([400]);
    expect(sim.control.accountOrders(sim.demoAccount.profileId)).toHaveLength(ordersBefore);
    expect(sim.engine.book(simMarket.slug)).toEqual(bookBefore);
  });
});

describe('client ↔ simulator: reading own orders', () => {
  it('getUserOrders by statuses and limit, newest first; getOrderStatuses by orderId and clientOrderId', async () => {
    const h = await startHarness();
    const { demo, counterparty, sim, simMarket, signing } = h;
    const o1 = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true, clientOrderId: 'om-t-o-1' });
    const o2 = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 310, sizeRaw: 2_000_000, postOnly: true, clientOrderId: 'om-t-o-2' });
    // A NO bid @ 0.250 = YES ask @ 0.750: above o4's limit, so o4 does not trade with it (no self-trade).
    const o3 = await placeLimit(demo.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 250, sizeRaw: 3_000_000, postOnly: true, clientOrderId: 'om-t-o-3' });
    await demo.client.api.cancelOrder(o1.orderId);
    const cpAsk = await placeLimit(counterparty.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 300, sizeRaw: 4_000_000, postOnly: true, clientOrderId: 'om-cp-1' });
    const o4 = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 700, sizeRaw: 4_000_000, clientOrderId: 'om-t-o-4' });
    expect(o4.makerMatches.map((m) => m.orderId)).toEqual([cpAsk.orderId]);

    const ids = (orders: readonly { id: string }[]): string[] => orders.map((o) => o.id);
    expect(ids(await demo.client.api.getUserOrders(simMarket.slug))).toEqual([o3.orderId, o2.orderId]);
    expect(ids(await demo.client.api.getUserOrders(simMarket.slug, { statuses: ['CANCELED'] }))).toEqual([o1.orderId]);
    expect(ids(await demo.client.api.getUserOrders(simMarket.slug, { statuses: ['MATCHED', 'LIVE'] }))).toEqual([o4.orderId, o3.orderId, o2.orderId]);
    const all = await demo.client.api.getUserOrders(simMarket.slug, { statuses: ['live', 'matched', 'canceled'] });
    expect(ids(all)).toEqual([o4.orderId, o3.orderId, o2.orderId, o1.orderId]);
    expect(ids(await demo.client.api.getUserOrders(simMarket.slug, { statuses: ['LIVE', 'MATCHED', 'CANCELED'], limit: 2 }))).toEqual([o4.orderId, o3.orderId]);
    expect(await demo.client.api.getUserOrders(h.otherMarket.slug)).toEqual([]);

    // Every field of the spec's UserOrder, as the engine holds the order.
    for (const order of all) {
      const engineOrder = sim.engine.orderById(order.id);
      if (engineOrder === undefined) throw new Error(`order ${order.id} unknown to the engine`);
      expect(order).toEqual({
        id: engineOrder.id,
        ownerId: sim.demoAccount.profileId,
        marketId: String(simMarket.id),
        tokenId: engineOrder.tokenId,
        orderType: 'GTC',
        status: engineOrder.status,
        side: 'BUY',
        makerAmountRaw: engineOrder.makerAmount,
        takerAmountRaw: engineOrder.takerAmount,
        priceTicks: engineOrder.priceTicks,
        originalSizeRaw: engineOrder.originalSizeRaw,
        remainingSizeRaw: engineOrder.remainingSizeRaw,
        createdAtMs: engineOrder.createdAtMs,
        clientOrderId: engineOrder.clientOrderId,
      });
    }

    // The spec bounds limit to 1..200 and the statuses to four values: refused before anything is sent.
    const before = lastSeq(sim);
    await rejectionOf(demo.client.api.getUserOrders(simMarket.slug, { limit: 201 }), RequestInputError);
    await rejectionOf(demo.client.api.getUserOrders(simMarket.slug, { statuses: ['OPEN'] }), RequestInputError);
    expect(lastSeq(sim)).toBe(before);

    const unknownId = randomUUID();
    const results = await demo.client.api.getOrderStatuses([
      { orderId: o2.orderId },
      { clientOrderId: 'om-t-o-3' },
      { orderId: unknownId },
      { clientOrderId: 'om-t-never-placed' },
      { clientOrderId: 'om-cp-1' }, // the counterparty's: not visible to the demo account
      { orderId: cpAsk.orderId },
    ]);
    expect(results.map((r) => [r.index, r.status, r.orderId, r.clientOrderId])).toEqual([
      [0, 'found', o2.orderId, 'om-t-o-2'],
      [1, 'found', o3.orderId, 'om-t-o-3'],
      [2, 'not_found', unknownId, null],
      [3, 'not_found', null, 'om-t-never-placed'],
      [4, 'not_found', null, 'om-cp-1'],
      [5, 'not_found', cpAsk.orderId, null],
    ]);
    expect(results[1]?.data?.order).toMatchObject({ id: o3.orderId, status: 'LIVE', side: 'BUY', priceTicks: 250, tokenId: simMarket.noTokenId, remainingSizeRaw: 3_000_000 });
    expect(results[1]?.data?.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED' });
    expect(results[2]?.data).toBeNull();
  });
});

describe('client ↔ simulator: cancelling', () => {
  it('cancelOrder and its failure answers (already canceled 400, unknown 404, another profile’s 401)', async () => {
    const h = await startHarness();
    const { demo, counterparty, sim, simMarket, signing } = h;
    const order = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 350, sizeRaw: 5_000_000, postOnly: true });
    const lockedBefore = sim.control.balances(sim.demoAccount.profileId).usdc.lockedRaw;
    expect(lockedBefore).toBe(1_750_000);

    // The simulator has no delayed orders, so only the plain message can be seen here.
    expect(await demo.client.api.cancelOrder(order.orderId)).toEqual({ message: 'Order canceled successfully', delayed: false });
    expect(sim.engine.orderById(order.orderId)?.status).toBe('CANCELED');
    expect(sim.control.balances(sim.demoAccount.profileId).usdc.lockedRaw).toBe(0);
    expect(sim.engine.book(simMarket.slug)).toEqual({ bids: [], asks: [] });

    const again = await rejectionOf(demo.client.api.cancelOrder(order.orderId), FrameworkError);
    expect(again).toMatchObject({ status: 400, body: { message: 'Order not found or already canceled' }, endpoint: { method: 'DELETE', pathTemplate: '/orders/{orderId}' } });
    const unknown = await rejectionOf(demo.client.api.cancelOrder(randomUUID()), FrameworkError);
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Order not found' } });

    const theirs = await placeLimit(counterparty.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 340, sizeRaw: 1_000_000, postOnly: true });
    const seq = lastSeq(sim);
    const foreign = await rejectionOf(demo.client.api.cancelOrder(theirs.orderId), FrameworkError);
    expect(foreign).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    expect(tokenLog(sim, sim.demoAccount.tokenId, seq).map((e) => e.status)).toEqual([401]); // never retried
    expect(sim.engine.orderById(theirs.orderId)?.status).toBe('LIVE');

    const before = lastSeq(sim);
    await rejectionOf(demo.client.api.cancelOrder('not-a-uuid'), RequestInputError);
    expect(lastSeq(sim)).toBe(before);
  });

  it('cancelOrders: 200 for a clean batch, 207 listing the id that was already canceled', async () => {
    const h = await startHarness();
    const { demo, sim, signing } = h;
    const [a, b, c] = await Promise.all(
      [300, 301, 302].map((priceTicks) => placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks, sizeRaw: 1_000_000, postOnly: true })),
    );
    if (a === undefined || b === undefined || c === undefined) throw new Error('placement missing');

    const clean = await demo.client.api.cancelOrders([a.orderId, b.orderId]);
    expect(clean).toMatchObject({ status: 200, partial: false, failed: [] });
    expect([...clean.canceled].sort()).toEqual([a.orderId, b.orderId].sort());

    const partial = await demo.client.api.cancelOrders([c.orderId, a.orderId]);
    expect(partial).toEqual({
      status: 207,
      partial: true,
      message: 'Some orders could not be canceled',
      canceled: [c.orderId],
      failed: [{ orderId: a.orderId, reason: 'NOT_CANCELLABLE', message: 'Order not found or already canceled' }],
    });
    for (const id of [a.orderId, b.orderId, c.orderId]) expect(sim.engine.orderById(id)?.status).toBe('CANCELED');
    await rejectionOf(demo.client.api.cancelOrders([]), RequestInputError);
  });

  it('cancelAll cancels every live order of the account in one market only', async () => {
    const h = await startHarness();
    const { demo, counterparty, sim, simMarket, signing, otherMarket } = h;
    const mine = await Promise.all([
      placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true }),
      placeLimit(demo.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 300, sizeRaw: 2_000_000, postOnly: true }),
    ]);
    const elsewhere = await placeLimit(demo.client, signingMarketOf(otherMarket), { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true });
    const theirs = await placeLimit(counterparty.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 290, sizeRaw: 1_000_000, postOnly: true });

    const result = await demo.client.api.cancelAll(simMarket.slug);
    expect(result).toMatchObject({ status: 200, partial: false, failed: [] });
    expect([...result.canceled].sort()).toEqual(mine.map((p) => p.orderId).sort());
    expect(await demo.client.api.getUserOrders(simMarket.slug)).toEqual([]);
    expect(sim.engine.orderById(elsewhere.orderId)?.status).toBe('LIVE');
    expect(sim.engine.orderById(theirs.orderId)?.status).toBe('LIVE');
    expect(sim.engine.book(simMarket.slug)).toEqual({ bids: [{ priceTicks: 290, sizeRaw: 1_000_000 }], asks: [] });

    const nothing = await demo.client.api.cancelAll(simMarket.slug);
    expect(nothing).toMatchObject({ status: 200, partial: false, canceled: [], failed: [] });
  });
});

describe('client ↔ simulator: resolution and redemption', () => {
  it('redeems a winning position once the payout is posted (server-managed wallet only)', async () => {
    // The demo wallet is externally owned by default (as the going-live guide's); this path needs a server-managed one.
    const h = await startHarness({ sim: { demo: { serverManagedWallet: true } } });
    const { demo, counterparty, sim, clock, simMarket, signing } = h;
    await placeLimit(counterparty.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 5_000_000, postOnly: true });
    const fill = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 600, sizeRaw: 5_000_000 });
    expect(fill.execution?.matched).toBe(true);
    clock.jump(1_000); // settle: MATCHED → MINED

    sim.control.resolveMarket(simMarket.slug, { winningOutcomeIndex: 0 });
    const resolved = await demo.client.api.getMarket(simMarket.slug);
    expect(resolved).toMatchObject({ resolved: true, winningOutcomeIndex: 0, payoutNumerators: null });
    if (resolved.conditionId === null) throw new Error('resolved market has no conditionId');

    // The API says resolved before the on-chain payout is posted; redemption waits for the payout.
    const early = await rejectionOf(demo.client.api.redeem(resolved.conditionId), FrameworkError);
    expect(early).toMatchObject({ status: 400, body: { message: 'Payout has not been posted on-chain yet' } });
    expect(sim.engine.payoutPosted(simMarket.slug)).toBe(false);

    clock.jump(60_000); // the simulator's payout delay
    expect(sim.engine.payoutPosted(simMarket.slug)).toBe(true);
    const usdcBefore = sim.control.balances(sim.demoAccount.profileId).usdc.totalRaw;
    const redeemed = await demo.client.api.redeem(resolved.conditionId);
    expect(redeemed).toEqual({ success: true, conditionId: simMarket.conditionId, marketSlug: simMarket.slug, payout: '5000000', yesBurned: '5000000', noBurned: '0' });
    expect(sim.control.balances(sim.demoAccount.profileId).usdc.totalRaw).toBe(usdcBefore + 5_000_000);
    const after = await demo.client.api.getPositions();
    expect(after.find((p) => p.marketSlug === simMarket.slug)).toBeUndefined();

    const twice = await rejectionOf(demo.client.api.redeem(resolved.conditionId), FrameworkError);
    expect(twice).toMatchObject({ status: 400, body: { message: 'No redeemable balance for this condition' } });

    // The counterparty's wallet is not server-managed: it must redeem on-chain itself.
    const refused = await rejectionOf(counterparty.client.api.redeem(resolved.conditionId), FrameworkError);
    expect(refused.status).toBe(403);
    expect(sim.control.positions(counterparty.account.profileId).find((p) => p.marketSlug === simMarket.slug)?.no.balanceRaw).toBe(5_000_000);

    await rejectionOf(demo.client.api.redeem('0x1234'), RequestInputError);
  });
});
