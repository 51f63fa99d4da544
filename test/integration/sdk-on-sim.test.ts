/**
 * The OFFICIAL client (@limitless-exchange/sdk, unmodified: axios + ethers) against the embedded simulator on
 * 127.0.0.1, with HMAC credentials under the live venue's header prefix (`lmts-api-key`, `lmts-timestamp`,
 * `lmts-signature`): active markets with every sortBy the client offers, a GTC with an expiration, cancel-replace
 * (single and batch), the portfolio history and an orderbook. Everything the client needs (profile id and fee rate,
 * the market's venue.exchange for EIP-712 signing, chain 8453) comes from the simulator's answers, as on the venue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelReplaceMode, Client, OrderType, Side, type ActiveMarketsSortBy, type CancelReplaceBatchResponse, type CancelReplaceResponse } from '@limitless-exchange/sdk';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import type { SimMarket } from '../../src/sim/engine/index.js';
import { waitUntil } from '../support/sim-http.js';

const SORTS: readonly ActiveMarketsSortBy[] = ['lp_rewards', 'ending_soon', 'newest', 'high_value', 'liquidity'];

let sim: RunningSimulator;
let client: Client;
let market: SimMarket;

beforeAll(async () => {
  sim = await startSimulator({ seed: 7, markets: 6, headerPrefix: 'lmts', rateLimit: false, settlementDelayMs: 50 });
  const first = sim.engine.markets().find((m) => m.groupSlug === undefined);
  if (!first) throw new Error('no single market');
  market = first;
  client = new Client({ baseURL: sim.baseUrl, hmacCredentials: { tokenId: sim.demoAccount.tokenId, secret: sim.demoAccount.secret } });
});
afterAll(async () => {
  await sim.close();
});

describe('the official client on the simulator', () => {
  it('lists active markets with every sortBy it offers', async () => {
    for (const sortBy of SORTS) {
      const page = await client.markets.getActiveMarkets({ sortBy, limit: 25, page: 1 });
      expect(page.totalMarketsCount, sortBy).toBeGreaterThan(0);
      expect(page.data.length, sortBy).toBe(page.totalMarketsCount);
    }
  });

  it('reads an orderbook in the recorded shape', async () => {
    const orders = client.newOrderClient(sim.demoAccount.privateKey);
    await orders.createOrder({ tokenId: market.yesTokenId, price: 0.31, size: 12.5, side: Side.BUY, orderType: OrderType.GTC, marketSlug: market.slug });
    const book = await client.markets.getOrderBook(market.slug);
    expect(book.tokenId).toBe(market.yesTokenId);
    expect(book.bids).toContainEqual({ price: 0.31, size: 12_500_000, side: 'BUY' });
    expect(typeof book.maxSpread).toBe('string');
    expect(typeof book.minSize).toBe('string');
  });

  it('places a GTC with an expiration (unix seconds), which rests until then', async () => {
    const orders = client.newOrderClient(sim.demoAccount.privateKey);
    const expiration = String(Math.floor(Date.now() / 1000) + 3600);
    const placed = await orders.createOrder({ tokenId: market.yesTokenId, price: 0.3, size: 10, side: Side.BUY, orderType: OrderType.GTC, marketSlug: market.slug, expiration, postOnly: false });
    expect(placed.order.expiration).toBe(expiration);
    const order = sim.engine.orderById(placed.order.id);
    expect(order?.status).toBe('LIVE');
    expect(order?.expiresAtMs).toBe(Number(expiration) * 1000);
    expect(placed.execution?.totalsRaw.contractsGross).toBe('0');
  });

  it('cancel-replaces one order, then a batch (by orderId and by clientOrderId)', async () => {
    const orders = client.newOrderClient(sim.demoAccount.privateKey);
    const first = await orders.createOrder({ tokenId: market.yesTokenId, price: 0.25, size: 5, side: Side.BUY, orderType: OrderType.GTC, marketSlug: market.slug });
    const single: CancelReplaceResponse = await orders.cancelReplace({
      cancel: { orderId: first.order.id },
      replacement: { tokenId: market.yesTokenId, price: 0.26, size: 5, side: Side.BUY, orderType: OrderType.GTC, marketSlug: market.slug, clientOrderId: 'sdk-r1' },
      mode: CancelReplaceMode.STOP_ON_FAILURE,
    });
    expect(single.cancel).toEqual({ status: 'SUCCESS', orderId: first.order.id });
    if (single.replacement.status !== 'SUCCESS') throw new Error(`replacement ${single.replacement.status}`);
    const replacedId = single.replacement.data.order.id;
    expect(single.replacement.data.execution.settlementStatus).toBe('UNMATCHED');
    expect(sim.engine.orderById(first.order.id)?.status).toBe('CANCELED');
    expect(sim.engine.orderById(replacedId)?.clientOrderId).toBe('sdk-r1');

    const second = await orders.createOrder({ tokenId: market.yesTokenId, price: 0.2, size: 5, side: Side.BUY, orderType: OrderType.GTC, marketSlug: market.slug });
    const batch: CancelReplaceBatchResponse = await orders.cancelReplaceBatch({
      operations: [
        {
          cancel: { clientOrderId: 'sdk-r1' },
          replacement: { tokenId: market.yesTokenId, price: 0.27, size: 5, side: Side.BUY, orderType: OrderType.GTC, marketSlug: market.slug, clientOrderId: 'sdk-r2' },
          mode: CancelReplaceMode.STOP_ON_FAILURE,
        },
        {
          cancel: { orderId: second.order.id },
          replacement: { tokenId: market.yesTokenId, price: 0.21, size: 5, side: Side.BUY, orderType: OrderType.GTC, marketSlug: market.slug },
          mode: CancelReplaceMode.ALLOW_FAILURE,
        },
      ],
    });
    expect(batch.results.map((r) => [r.index, r.cancel.status, r.replacement.status])).toEqual([
      [0, 'SUCCESS', 'SUCCESS'],
      [1, 'SUCCESS', 'SUCCESS'],
    ]);
    expect(sim.engine.orderById(replacedId)?.status).toBe('CANCELED');
    expect(sim.engine.orderByClientOrderId(sim.demoAccount.profileId, 'sdk-r2')?.status).toBe('LIVE');
  });

  it('reads /portfolio/history with cursor paging', async () => {
    const orders = client.newOrderClient(sim.demoAccount.privateKey);
    // Two trades against the demo's own resting bids would be self-trades: take a third party's asks instead.
    const added = sim.control.addAccount({ profileId: 50, address: '0x00000000000000000000000000000000000000a5', usdc: '1000' });
    expect(added.account.profileId).toBe(50);
    sim.control.deposit(50, { tokens: { [market.yesTokenId]: 10_000_000 } });
    for (const ticks of [600, 610]) {
      const outcome = sim.engine.place({
        profileId: 50, marketSlug: market.slug, orderType: 'GTC', tokenId: market.yesTokenId, side: 'SELL', makerAmount: 2_000_000,
        takerAmount: ticks * 2_000, priceTicks: ticks, feeRateBps: 300, salt: ticks, postOnly: false, stpPolicy: 'cancel_maker', signature: '0x', signedOrderEcho: {},
      });
      expect(outcome.ok).toBe(true);
    }
    const taken = await orders.createOrder({ tokenId: market.yesTokenId, price: 0.61, size: 4, side: Side.BUY, orderType: OrderType.FAK, marketSlug: market.slug });
    expect(taken.execution?.totalsRaw.contractsGross).toBe('4000000');
    await waitUntil(() => (sim.engine.accountTrades(sim.demoAccount.profileId).filter((f) => f.settlementStatus === 'MINED').length >= 2 ? true : undefined));
    const first = await client.portfolio.getUserHistory(undefined, 1);
    expect(first.data).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const second = await client.portfolio.getUserHistory(first.nextCursor ?? undefined, 1);
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const prices = [...first.data, ...second.data].map((e) => e.outcomeTokenPrice).sort();
    expect(prices).toEqual([0.6, 0.61]);
    expect(first.data[0]?.strategy).toBe('Buy');
  });
});
