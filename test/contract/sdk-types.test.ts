/**
 * Contract: the authenticated answers nobody recorded, as the official client types them (sdk-fixtures.ts, checked
 * by the compiler against @limitless-exchange/sdk's d.ts), replayed over HTTP and read through the public entries
 * (ExchangeApi, VenueAdapter, LedgerSync), each also with every field the SDK marks optional left out.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LedgerSync } from '../../src/booking/ledger-sync.js';
import { VenueAdapter, type TakerFillDetail } from '../../src/venue/venue-adapter.js';
import type { SigningMarket } from '../../src/exchange/signer.js';
import { parsePlacement, parsePortfolio, parseStatusBatch } from '../../src/exchange/wire.js';
import { applyFill, applyReport, markUnknown, newOrder, type TrackedOrder } from '../../src/orders/order-record.js';
import type { PlaceRequest, VenueOrderSnapshot } from '../../src/orders/venue-port.js';
import { perFile } from '../support/lifecycle.js';
import { fillInput, memoryLedger, T0 } from '../support/ledger-fixtures.js';
import { placementShapeIssues, positionsShapeIssues } from './checks.js';
import { startReplay } from './replay.js';
import {
  CLOB_FULL,
  CREATED_ORDER,
  EXECUTION_FULL,
  NO_TOKEN,
  OPTIONAL_CLOB_KEYS,
  OPTIONAL_EXECUTION_KEYS,
  OPTIONAL_RESPONSE_KEYS,
  ORDER_ID,
  POSITIONS_FULL,
  POSITIONS_MIN,
  RECORDED_BOOK,
  RESPONSE_MIN,
  RESPONSE_RESTING,
  RESPONSE_TAKER,
  RESPONSE_TAKER_CONTRACT_FEE,
  statusBatchOf,
  YES_TOKEN,
} from './sdk-fixtures.js';

const replay = perFile(startReplay, (r) => r.close());
const EP = { method: 'POST', pathTemplate: '/orders' } as const;
const MARKET: SigningMarket = { slug: 'btc', venueExchange: '0xa4409D988CA2218d956BeEFD3874100F444f0DC3', tokens: { yes: YES_TOKEN, no: NO_TOKEN } };
const REQUEST: PlaceRequest = {
  marketSlug: 'btc',
  clientOrderId: 'om-1a2b3c4d-bid-0-k1',
  token: 'YES',
  tokenId: YES_TOKEN,
  side: 'BUY',
  priceTicks: 450,
  sizeRaw: 10_000_000,
  postOnly: false,
  orderType: 'GTC',
};

function adapter(details: TakerFillDetail[] = []): VenueAdapter {
  const { client } = replay();
  return new VenueAdapter({ api: client.api, signer: client.signer, markets: new Map([['btc', MARKET]]), recvWindowMs: null, onTakerFill: (d) => details.push(d) });
}

/** A copy of `value` without `key` (a fixture with one optional field left out). */
function without<T extends object>(value: T, key: PropertyKey): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));
}

describe('OrderResponse (POST /orders answer)', () => {
  it('every fixture has the official client\'s shape', () => {
    for (const body of [RESPONSE_TAKER, RESPONSE_TAKER_CONTRACT_FEE, RESPONSE_RESTING, RESPONSE_MIN]) expect(placementShapeIssues(body)).toEqual([]);
  });

  it('reads execution.totalsRaw as typed: {contractsGross, contractsNet, contractsFee, usdGross, usdNet, usdFee}', () => {
    expect(parsePlacement(RESPONSE_TAKER, EP, 201).execution?.totals).toEqual({
      contractsGross: 4_000_000,
      contractsNet: 4_000_000,
      contractsFee: 0,
      usdGross: 1_800_000,
      usdNet: 1_854_000,
      usdFee: 54_000,
    });
  });

  it('a taker fill in the answer reaches the port at its gross contracts, its collateral and USDC fee go to onTakerFill', async () => {
    const details: TakerFillDetail[] = [];
    replay().server.enqueue({ status: 201, body: RESPONSE_TAKER });
    const result = await adapter(details).placeOrder(REQUEST);
    expect(result).toEqual({
      orderId: ORDER_ID,
      // CreatedOrder carries no status and no remaining size: resting, full size (the fill lowers it in the executor).
      status: 'LIVE',
      remainingRaw: 10_000_000,
      fills: [{ tradeEventId: 'trade-1', sizeRaw: 4_000_000, priceTicks: 450, settlement: 'provisional' }],
      reason: 'SOMETHING_NEW',
    });
    expect(details).toEqual([{ tradeEventId: 'trade-1', orderId: ORDER_ID, sizeRaw: 4_000_000, collateralRaw: 1_800_000, feeUsdRaw: 54_000, feeContractsRaw: 0 }]);
  });

  it('a fee taken in contracts is reported as such (the shares received are contractsNet)', async () => {
    const details: TakerFillDetail[] = [];
    replay().server.enqueue({ status: 201, body: RESPONSE_TAKER_CONTRACT_FEE });
    const result = await adapter(details).placeOrder(REQUEST);
    expect(result.fills).toEqual([{ tradeEventId: 'trade-1', sizeRaw: 4_000_000, priceTicks: 450, settlement: 'provisional' }]);
    expect(details).toEqual([{ tradeEventId: 'trade-1', orderId: ORDER_ID, sizeRaw: 4_000_000, collateralRaw: 1_800_000, feeUsdRaw: 0, feeContractsRaw: 120_000 }]);
  });

  it('parses with every optional field left out, one at a time and all at once', async () => {
    for (const key of OPTIONAL_RESPONSE_KEYS) expect(() => parsePlacement(without(RESPONSE_TAKER, key), EP, 201), `without ${key}`).not.toThrow();
    for (const key of OPTIONAL_EXECUTION_KEYS) {
      const parsed = parsePlacement({ ...RESPONSE_TAKER, execution: without(EXECUTION_FULL, key) }, EP, 201);
      expect(parsed.execution?.totals?.usdFee, `without execution.${key}`).toBe(54_000);
    }
    replay().server.enqueue({ status: 201, body: RESPONSE_MIN });
    expect(await adapter().placeOrder(REQUEST)).toEqual({ orderId: ORDER_ID, status: 'LIVE', remainingRaw: 10_000_000, fills: [], reason: null });
    expect(parsePlacement(RESPONSE_RESTING, EP, 201).execution).toMatchObject({ matched: false, tradeEventId: null, txHash: null, eligibleAt: null, stpMakerCancelOrderIds: [] });
  });

  it('derives the order size from the signed amounts (a BUY receives takerAmount) and checks them against the price', () => {
    expect(parsePlacement(RESPONSE_MIN, EP, 201).order).toMatchObject({ side: 'BUY', priceTicks: 450, originalSizeRaw: null, remainingSizeRaw: null, sizeRaw: 10_000_000 });
    const sell = { order: { ...CREATED_ORDER, side: 1, makerAmount: 10_000_000, takerAmount: 4_500_000 } };
    expect(parsePlacement(sell, EP, 201).order.sizeRaw).toBe(10_000_000);
    const inconsistent = { order: { ...CREATED_ORDER, makerAmount: 9_000_000 } };
    expect(parsePlacement(inconsistent, EP, 201).order.sizeRaw).toBeNull();
  });
});

describe('POST /orders/status/batch whose data.order is a CreatedOrder (no status, remainingSize, originalSize)', () => {
  async function lookUp(data = RESPONSE_RESTING): Promise<VenueOrderSnapshot> {
    replay().server.enqueue({ status: 200, body: statusBatchOf(data) });
    const [result] = await adapter().statusBatch([{ orderId: ORDER_ID }]);
    if (result?.outcome !== 'found') throw new Error(`expected found, got ${JSON.stringify(result)}`);
    return result.order;
  }

  it('is read as a resting order of its signed size, remaining size unknown (never 0)', async () => {
    expect(parseStatusBatch(statusBatchOf(RESPONSE_MIN), EP, 200)[0]?.data?.order).toMatchObject({ status: null, remainingSizeRaw: null, sizeRaw: 10_000_000 });
    expect(await lookUp()).toMatchObject({ orderId: ORDER_ID, sizeRaw: 10_000_000, remainingRaw: 10_000_000, status: 'LIVE', createdAtMs: Date.parse('2026-03-23T12:00:00.000Z') });
  });

  it('a placement whose outcome was unknown, found resting by the lookup, is live: not filled, its slot not freed', async () => {
    const placed = newOrder({ ...REQUEST, slot: 'bid-0' }, T0);
    const unknown = markUnknown(placed, T0 + 1).order;
    const snapshot = await lookUp();
    const applied = applyReport(unknown, { orderId: snapshot.orderId, status: snapshot.status, remainingRaw: snapshot.remainingRaw, reason: null }, T0 + 2);
    expect(applied.illegal).toBeNull();
    expect(applied.order).toMatchObject({ state: 'live', remainingRaw: 10_000_000, orderId: ORDER_ID });
  });

  it('keeps the tracked remaining size of a partly filled order (the lookup says nothing new)', async () => {
    let order: TrackedOrder = applyReport(newOrder({ ...REQUEST, slot: 'bid-0' }, T0), { orderId: ORDER_ID, status: 'LIVE', remainingRaw: 10_000_000, reason: null }, T0).order;
    order = applyFill(order, { tradeEventId: 'maker-1', sizeRaw: 4_000_000, priceTicks: 450, settlement: 'provisional' }, T0, T0).order;
    const snapshot = await lookUp();
    const applied = applyReport(order, { orderId: snapshot.orderId, status: snapshot.status, remainingRaw: snapshot.remainingRaw, reason: null }, T0 + 5);
    expect(applied.order).toMatchObject({ state: 'partially-filled', remainingRaw: 6_000_000 });
    // A report that does not know the remaining size at all leaves it too.
    expect(applyReport(order, { orderId: ORDER_ID, status: 'LIVE', remainingRaw: null, reason: null }, T0 + 6).order).toMatchObject({ state: 'partially-filled', remainingRaw: 6_000_000 });
  });

  it('reports the taker fill a lookup carries', async () => {
    expect((await lookUp(RESPONSE_TAKER)).fills).toEqual([{ tradeEventId: 'trade-1', sizeRaw: 4_000_000, priceTicks: 450, settlement: 'provisional' }]);
  });
});

describe('PortfolioPositionsResponse (GET /portfolio/positions)', () => {
  it('every fixture has the official client\'s shape', () => {
    expect(positionsShapeIssues(POSITIONS_FULL)).toEqual([]);
    expect(positionsShapeIssues(POSITIONS_MIN)).toEqual([]);
  });

  it('reads the clob, group and amm lists', async () => {
    replay().server.enqueue({ status: 200, body: POSITIONS_FULL });
    const portfolio = await replay().client.api.getPortfolio();
    expect(portfolio.clob.map((p) => [p.marketSlug, p.yesBalanceRaw, p.noBalanceRaw, p.list])).toEqual([
      ['plain-clob', 5_000_000, 0, 'clob'],
      ['neg-a', 7_000_000, 1_000_000, 'group'],
      ['neg-b', 7_000_000, 1_000_000, 'group'],
    ]);
    expect(portfolio.amm).toEqual([{ marketSlug: 'amm-market', outcomeIndex: 0, outcomeTokenAmount: '4.2' }]);
    expect([...portfolio.marketSlugs].sort()).toEqual(['amm-market', 'neg-a', 'neg-b', 'plain-clob']);
    expect(portfolio.unreadableGroupEntries).toBe(1);
  });

  it('parses with every optional field left out', () => {
    expect(parsePortfolio(POSITIONS_MIN, EP, 200)).toMatchObject({ clob: [], amm: [], unreadableGroupEntries: 0 });
    for (const key of OPTIONAL_CLOB_KEYS) {
      expect(parsePortfolio({ ...POSITIONS_MIN, clob: [without(CLOB_FULL, key)] }, EP, 200).clob[0]?.yesBalanceRaw, `without ${key}`).toBe(5_000_000);
    }
  });

  it('a position held only in the group list, and a market in no list, are never repaired to 0', async () => {
    const { server, client } = replay();
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 'g1', orderId: 'og', marketSlug: 'neg-a', tokenId: '301', sizeRaw: 7_000_000 }));
    ledger.recordFill(fillInput({ tradeEventId: 'g2', orderId: 'og2', marketSlug: 'neg-a', token: 'NO', tokenId: '302', sizeRaw: 1_000_000 }));
    ledger.recordFill(fillInput({ tradeEventId: 'u1', orderId: 'ou', marketSlug: 'unlisted', tokenId: '401', sizeRaw: 3_000_000 }));
    const markets = new Map([
      ['neg-a', { yes: '301', no: '302' }],
      ['unlisted', { yes: '401', no: '402' }],
    ]);
    const sync = new LedgerSync({ ledger, api: client.api, markets, now: () => T0 + 60_000, log: pino({ level: 'silent' }), exclusive: true });
    for (let i = 0; i < 3; i += 1) {
      server.enqueue({ status: 200, body: POSITIONS_FULL });
      expect(await sync.check()).toEqual({ mismatches: 0, repaired: 0 });
    }
    expect(ledger.tokenPosition('neg-a', 'YES').positionRaw).toBe(7_000_000);
    expect(ledger.tokenPosition('neg-a', 'NO').positionRaw).toBe(1_000_000);
    expect(ledger.tokenPosition('unlisted', 'YES').positionRaw).toBe(3_000_000);
    ledger.close();
  });
});

describe('OrderBook (the SDK type of GET /markets/{slug}/orderbook)', () => {
  it('allows the recorded shape, which the client reads in raw units', async () => {
    const { server, client } = replay();
    server.enqueue({ status: 200, body: RECORDED_BOOK });
    const snapshot = await client.api.getOrderbook('m');
    expect(snapshot.bids).toEqual([
      { priceTicks: 500, sizeRaw: 100_000_000 },
      { priceTicks: 2, sizeRaw: 495_326_974 },
    ]);
    expect(snapshot).toMatchObject({ tokenId: RECORDED_BOOK.tokenId, minSize: 100_000_000, maxSpreadTicks: 35 });
  });
});
