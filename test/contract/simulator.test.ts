/**
 * Contract: the embedded SIMULATOR must answer like the live venue. Its answers to /markets/active, /markets/{slug},
 * /markets/{slug}/orderbook, a placement (maker and taker), a status lookup and /portfolio/positions are captured on
 * the wire and held to the same rules as the recordings (checks.ts: raw integer book sizes with `side`, maxSpread and
 * minSize strings, tokenId = the YES token, the official client's shapes for the authenticated answers); and what the
 * client reads out of them is compared with values computed from the wire body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeRewardSettings, type Market, type PlacementResult } from '../../src/exchange/wire.js';
import type { FetchLike } from '../../src/exchange/http.js';
import { placeLimit, startClientSim, type ClientSim, type TestClient } from '../support/client-sim.js';
import { expectedMarket, expectedOrderbook, marketShapeIssues, orderbookShapeIssues, placementShapeIssues, positionsShapeIssues } from './checks.js';

interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
}

const wire: Exchange[] = [];

/** A fetch that keeps every answer's body as sent, for the shape checks. */
const capturing: FetchLike = async (url, init) => {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  wire.push({ method: init.method ?? 'GET', path: new URL(url).pathname, status: response.status, body });
  return new Response(response.status === 204 ? null : text, { status: response.status, headers: { 'content-type': 'application/json' } });
};

/** The body of the last answer to `method path`. */
function lastBody(method: string, path: string): unknown {
  const found = [...wire].reverse().find((e) => e.method === method && e.path === path);
  if (found === undefined) throw new Error(`no ${method} ${path} on the wire`);
  return found.body;
}

function recordOf(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return Object.fromEntries(Object.entries(value));
}

let h: ClientSim;
let demo: TestClient;
let cp: TestClient;
let maker: PlacementResult;
let taker: PlacementResult;

beforeAll(async () => {
  h = await startClientSim({ seed: 13 });
  demo = await h.connect(h.demo.account, { fetch: capturing });
  cp = await h.connect(h.counterparty.account, { fetch: capturing });
  // A resting maker bid, then a taker that crosses it (BUY NO @ 0.60 = a YES ask @ 0.40): a taker fill with a fee.
  maker = await placeLimit(demo.client, h.signing, { outcome: 'YES', side: 'BUY', priceTicks: 400, sizeRaw: 10_000_000, postOnly: true, clientOrderId: 'om-c-maker-1' });
  taker = await placeLimit(cp.client, h.signing, { outcome: 'NO', side: 'BUY', priceTicks: 600, sizeRaw: 4_000_000, clientOrderId: 'om-c-taker-1' });
  // A two-sided book above the market's minimum size on each side (every recorded book is two-sided).
  await placeLimit(demo.client, h.signing, { outcome: 'YES', side: 'BUY', priceTicks: 350, sizeRaw: 200_000_000, postOnly: true });
  await placeLimit(cp.client, h.signing, { outcome: 'NO', side: 'BUY', priceTicks: 300, sizeRaw: 200_000_000, postOnly: true });
});

afterAll(async () => {
  await h?.close();
});

function checkMarket(market: Market, body: unknown): void {
  const expected = expectedMarket(body);
  expect(market).toMatchObject({ id: expected.id, slug: expected.slug, status: expected.status, expirationMs: expected.expirationMs, tokens: expected.tokens });
  expect(market.venue?.adapter ?? null).toBe(expected.adapter);
  if (expected.reward !== null) {
    const normalized = normalizeRewardSettings(market.settings);
    expect({ minSizeRaw: normalized.minSizeRaw, maxSpreadTicks: normalized.maxSpreadTicks, dailyRewardRaw: normalized.dailyRewardRaw, c: normalized.c }).toEqual(expected.reward);
  }
}

describe('simulator answers held to the live venue contract', () => {
  it('GET /markets/active: every market (and group submarket) has the recorded market shape', async () => {
    const page = await demo.client.api.getActiveMarkets();
    const body = recordOf(lastBody('GET', '/markets/active'));
    const elements = Array.isArray(body['data']) ? body['data'] : [];
    const singles = elements.flatMap((element: unknown): unknown[] => {
      const record = recordOf(element);
      const members: unknown = record['markets'];
      return Array.isArray(members) ? [...(members as unknown[])] : [element];
    });
    expect(singles.length).toBeGreaterThan(0);
    for (const element of singles) expect(marketShapeIssues(element), `market ${String(recordOf(element)['slug'])}`).toEqual([]);
    for (const element of singles) {
      const slug = String(recordOf(element)['slug']);
      const market = page.markets.find((m) => m.slug === slug);
      if (market === undefined) throw new Error(`the client lost market ${slug}`);
      checkMarket(market, element);
    }
  });

  it('GET /markets/{slug}: the recorded market shape, read with the right units', async () => {
    const market = await demo.client.api.getMarket(h.simMarket.slug);
    const body = lastBody('GET', `/markets/${h.simMarket.slug}`);
    expect(marketShapeIssues(body)).toEqual([]);
    checkMarket(market, body);
  });

  it('GET /markets/{slug}/orderbook: raw integer sizes with side, maxSpread/minSize strings, tokenId = YES', async () => {
    const snapshot = await demo.client.api.getOrderbook(h.simMarket.slug);
    const body = lastBody('GET', `/markets/${h.simMarket.slug}/orderbook`);
    expect(orderbookShapeIssues(body)).toEqual([]);
    const expected = expectedOrderbook(body);
    expect(snapshot.bids).toEqual(expected.bids);
    expect(snapshot.asks).toEqual(expected.asks);
    expect(snapshot).toMatchObject({ tokenId: expected.tokenId, maxSpreadTicks: expected.maxSpreadTicks, minSize: expected.minSizeRaw });
    expect(snapshot.tokenId).toBe(h.market.tokens?.yes);
    // The maker's remaining 6 shares rest at 0.40.
    expect(snapshot.bids).toContainEqual({ priceTicks: 400, sizeRaw: 6_000_000 });
    expect(snapshot.asks).toContainEqual({ priceTicks: 700, sizeRaw: 200_000_000 });
  });

  it('POST /orders: the official client\'s OrderResponse; the taker fill read from execution.totalsRaw', () => {
    const posts = wire.filter((e) => e.method === 'POST' && e.path === '/orders');
    // A 429 (the simulator's loop stalled on a loaded machine, so it stamped a start late) is retried by the client: the
    // four placements each have one 201; anything else on the wire is such a refusal.
    const answers = posts.filter((e) => e.status === 201);
    expect(answers).toHaveLength(4);
    expect(posts.filter((e) => e.status !== 201).map((e) => e.status)).toEqual(posts.filter((e) => e.status === 429).map(() => 429));
    for (const answer of answers) expect(placementShapeIssues(answer.body)).toEqual([]);
    expect(maker.execution?.totals).toMatchObject({ contractsGross: 0, usdGross: 0 });
    // 4 contracts at the maker's 0.40 (the NO taker pays 0.60 each), the fee in USDC.
    expect(taker.execution?.totals).toMatchObject({ contractsGross: 4_000_000, contractsFee: 0, contractsNet: 4_000_000, usdGross: 2_400_000 });
    expect(taker.execution?.totals?.usdFee).toBeGreaterThan(0);
  });

  it('POST /orders/status/batch: the order found, its size in raw units', async () => {
    const [result] = await demo.client.api.getOrderStatuses([{ orderId: maker.orderId }]);
    const body = recordOf(lastBody('POST', '/orders/status/batch'));
    const first = recordOf(Array.isArray(body['results']) ? body['results'][0] : null);
    expect(placementShapeIssues(first['data'])).toEqual([]);
    expect(result?.status).toBe('found');
    expect(result?.data?.order).toMatchObject({ id: maker.orderId, sizeRaw: 10_000_000 });
    // When the simulator sends the remaining size (CreatedOrder need not), it is 6 shares.
    if (result?.data?.order.remainingSizeRaw != null) expect(result.data.order.remainingSizeRaw).toBe(6_000_000);
  });

  it('GET /portfolio/positions: clob, group and amm lists; raw integer balances', async () => {
    const portfolio = await demo.client.api.getPortfolio();
    expect(positionsShapeIssues(lastBody('GET', '/portfolio/positions'))).toEqual([]);
    expect(portfolio.marketSlugs.has(h.simMarket.slug)).toBe(true);
    expect(portfolio.clob.find((p) => p.marketSlug === h.simMarket.slug)).toMatchObject({ yesBalanceRaw: 4_000_000, noBalanceRaw: 0 });
  });
});
