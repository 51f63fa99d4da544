/**
 * The bot's real REST client (src/exchange) against the embedded simulator (src/sim): the order types and
 * options besides resting BUYs (GTC SELL, FAK, FOK market orders, self-trade prevention), placed and then read
 * back through user-orders, the status batch, the trade feed and positions.
 */
import { describe, expect, it } from 'vitest';
import { clientSimPerTest, placeLimit } from '../support/client-sim.js';
import { limitOrderAmounts, marketOrderAmounts } from '../../src/core/venue-rules/index.js';

const startHarness = clientSimPerTest({ invariants: true });

describe('client ↔ simulator: order types', () => {
  it('GTC SELL, FOK BUY, FAK BUY and an unfilled FOK SELL round-trip through user-orders, status batch and trades', async () => {
    const h = await startHarness();
    const { demo, counterparty, sim, clock, simMarket, signing } = h;
    const cp = counterparty.client;
    sim.control.deposit(sim.demoAccount.profileId, { tokens: { [simMarket.yesTokenId]: 20_000_000 } });

    // SELL 7.123 YES @ 0.555: makerAmount = shares, takerAmount = collateral rounded down (exchange-facts §1).
    const sell = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'SELL', priceTicks: 555, sizeRaw: 7_123_000, postOnly: true, clientOrderId: 'om-t-ask-0-1' });
    expect(limitOrderAmounts('SELL', 555, 7_123_000)).toEqual({ makerAmount: 7_123_000, takerAmount: 3_953_265 });
    expect(sell.order).toMatchObject({ status: 'LIVE', side: 'SELL', priceTicks: 555, makerAmountRaw: 7_123_000, takerAmountRaw: 3_953_265 });
    expect(sim.engine.book(simMarket.slug)).toEqual({ bids: [], asks: [{ priceTicks: 555, sizeRaw: 7_123_000 }] });
    expect(sim.control.balances(sim.demoAccount.profileId).tokens[simMarket.yesTokenId]).toEqual({ totalRaw: 20_000_000, lockedRaw: 7_123_000 });

    const small = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'SELL', priceTicks: 550, sizeRaw: 1_000_000, postOnly: true });

    // FOK BUY spending 2 USDC: makerAmount = collateral, takerAmount = 1, no price. It sweeps both levels, so its
    // average fill price is off the tick.
    const fokOrder = await cp.signer.createOrder({ market: signing, tokenId: signing.tokens.yes, side: 'BUY', orderType: 'FOK', amountRaw: 2_000_000, clientOrderId: 'cp-fok-1' });
    expect(marketOrderAmounts(2_000_000)).toEqual({ makerAmount: 2_000_000, takerAmount: 1 });
    const fok = await cp.api.placeOrder(fokOrder);
    const fokEngine = sim.engine.orderById(fok.orderId);
    if (fokEngine === undefined) throw new Error('FOK order unknown to the engine');
    expect(fok.order).toMatchObject({ status: 'MATCHED', orderType: 'FOK', priceTicks: null, makerAmountRaw: 2_000_000, takerAmountRaw: 1 });
    expect(fok.execution).toMatchObject({ matched: true, totals: { contractsGross: fokEngine.filledSizeRaw, usdGross: fokEngine.filledCollateralRaw } });
    expect(fok.makerMatches.map((m) => [m.orderId, m.matchedSizeRaw])).toEqual([
      [small.orderId, 1_000_000],
      [sell.orderId, fokEngine.filledSizeRaw - 1_000_000],
    ]);
    expect((fokEngine.filledCollateralRaw * 1000) % fokEngine.filledSizeRaw).not.toBe(0); // average price off the 0.001 grid
    expect(fokEngine.filledCollateralRaw).toBeLessThanOrEqual(2_000_000);

    // FAK BUY 10 @ 0.560: takes what is left of the ask, the remainder is canceled.
    const left = 8_123_000 - fokEngine.filledSizeRaw;
    const fakOrder = await cp.signer.createOrder({ market: signing, tokenId: signing.tokens.yes, side: 'BUY', orderType: 'FAK', priceTicks: 560, sizeRaw: 10_000_000 });
    const fak = await cp.api.placeOrder(fakOrder);
    expect(fak.order).toMatchObject({ status: 'CANCELED', orderType: 'FAK', priceTicks: 560 });
    expect(fak.execution).toMatchObject({ matched: true, totals: { contractsGross: left } });
    expect(sim.engine.book(simMarket.slug)).toEqual({ bids: [], asks: [] });

    // FOK SELL of 1 share into an empty bid side: not executed, nothing changes.
    const fokSell = await cp.api.placeOrder(await cp.signer.createOrder({ market: signing, tokenId: signing.tokens.yes, side: 'SELL', orderType: 'FOK', amountRaw: 1_000_000 }));
    expect(fokSell.order).toMatchObject({ status: 'UNMATCHED', priceTicks: null, makerAmountRaw: 1_000_000, takerAmountRaw: 1 });
    expect(fokSell.execution).toMatchObject({ matched: false, settlementStatus: 'UNMATCHED' });

    // Reading them back: a FOK has no limit price (the venue prints its average fill price, or 0, there).
    const all = await cp.api.getUserOrders(simMarket.slug, { statuses: ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'] });
    const remaining = (id: string): number => sim.engine.orderById(id)?.remainingSizeRaw ?? -1;
    expect(all.map((o) => [o.id, o.orderType, o.status, o.priceTicks, o.remainingSizeRaw])).toEqual([
      [fokSell.orderId, 'FOK', 'UNMATCHED', 0, remaining(fokSell.orderId)],
      [fak.orderId, 'FAK', 'CANCELED', 560, remaining(fak.orderId)],
      [fok.orderId, 'FOK', 'MATCHED', 0, 0],
    ]);
    const statuses = await cp.api.getOrderStatuses([{ clientOrderId: 'cp-fok-1' }, { orderId: fak.orderId }, { orderId: fokSell.orderId }]);
    expect(statuses.map((s) => [s.status, s.data?.order.orderType, s.data?.order.status, s.data?.order.priceTicks])).toEqual([
      ['found', 'FOK', 'MATCHED', null],
      ['found', 'FAK', 'CANCELED', 560],
      ['found', 'FOK', 'UNMATCHED', null],
    ]);
    const sold = await demo.client.api.getUserOrders(simMarket.slug, { statuses: ['MATCHED'] });
    expect(sold.map((o) => [o.id, o.side, o.priceTicks, o.remainingSizeRaw])).toEqual([
      [small.orderId, 'SELL', 550, 0],
      [sell.orderId, 'SELL', 555, 0],
    ]);

    // Trades (mined) and the buyer's position.
    clock.jump(1_000);
    const trades = await cp.api.getMarketTrades(simMarket.slug);
    expect(trades.trades.map((t) => [t.side, t.matchedSizeRaw])).toEqual([
      ['BUY', left],
      ['BUY', fokEngine.filledSizeRaw],
    ]);
    const [position] = await cp.api.getPositions();
    expect(position).toMatchObject({ marketSlug: simMarket.slug, yesBalanceRaw: 8_123_000, noBalanceRaw: 0 });
  });

  it('self-trade prevention: cancel_taker rejects the taker, cancel_maker cancels the resting own order', async () => {
    const h = await startHarness();
    const { demo, sim, simMarket, signing } = h;
    const maker = await placeLimit(demo.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 450, sizeRaw: 2_000_000, postOnly: true });
    const rejected = await demo.client.api.placeOrder(
      await demo.client.signer.createOrder({ market: signing, tokenId: signing.tokens.yes, side: 'BUY', orderType: 'GTC', priceTicks: 560, sizeRaw: 1_000_000, stpPolicy: 'cancel_taker' }),
    );
    expect(rejected.order.status).toBe('CANCELED');
    expect(rejected.execution).toMatchObject({ matched: false, reason: 'STP_TAKER_REJECTED', stpMakerCancelOrderIds: [] });
    expect(sim.engine.orderById(maker.orderId)?.status).toBe('LIVE');

    const taker = await demo.client.api.placeOrder(
      await demo.client.signer.createOrder({ market: signing, tokenId: signing.tokens.yes, side: 'BUY', orderType: 'GTC', priceTicks: 560, sizeRaw: 1_000_000 }),
    );
    expect(taker.execution).toMatchObject({ matched: false, reason: null, stpMakerCancelOrderIds: [maker.orderId] });
    expect(taker.order.status).toBe('LIVE');
    expect(sim.engine.orderById(maker.orderId)?.status).toBe('CANCELED');
    expect(sim.engine.book(simMarket.slug)).toEqual({ bids: [{ priceTicks: 560, sizeRaw: 1_000_000 }], asks: [] });
  });
});
