/**
 * Contract: EVERY answer recorded from the live venue (../shared/venue-samples), replayed over HTTP, read by the
 * public REST client with the defaults the bot uses. The values that come out are compared with values computed
 * from the recording independently (checks.ts): sizes in exact raw units, prices in ticks, nulls accepted, the YES
 * token kept, minSize/maxSpread normalised. The shape checks are run on the recordings too, so the rules the
 * simulator is held to (simulator.test.ts) are proven to accept the real venue's answers.
 */
import { describe, expect, it } from 'vitest';
import { normalizeRewardSettings, type Market } from '../../src/exchange/wire.js';
import { perFile } from '../support/lifecycle.js';
import { expectedMarket, expectedOrderbook, marketShapeIssues, orderbookShapeIssues } from './checks.js';
import { startReplay } from './replay.js';
import { activeMarketRecordings, orderbookRecordings } from './samples.js';

const replay = perFile(startReplay, (r) => r.close());
const books = orderbookRecordings();
const markets = activeMarketRecordings();

describe('recorded samples', () => {
  it('are all there (30 orderbook answers, 12 market elements)', () => {
    expect(books).toHaveLength(30);
    expect(markets).toHaveLength(12);
  });

  it('every recording passes the shape rules the simulator is held to', () => {
    for (const record of books) expect(orderbookShapeIssues(record.body), `rest-orderbook.jsonl:${record.line}`).toEqual([]);
    for (const record of markets) expect(marketShapeIssues(record.body), `rest-markets-active-items.jsonl:${record.line}`).toEqual([]);
  });
});

describe('GET /markets/{slug}/orderbook: every recorded answer through ExchangeApi.getOrderbook', () => {
  it.each(books.map((record) => [`line ${record.line}`, record] as const))('%s: raw sizes, ticks, YES token, minSize/maxSpread', async (_name, record) => {
    const { server, client } = replay();
    server.enqueue({ status: 200, body: record.body });
    const snapshot = await client.api.getOrderbook(record.slug);
    expect(server.requests.at(-1)?.pathname).toBe(`/markets/${record.slug}/orderbook`);
    const expected = expectedOrderbook(record.body);
    expect(snapshot.bids).toEqual(expected.bids);
    expect(snapshot.asks).toEqual(expected.asks);
    expect(snapshot).toMatchObject({
      slug: record.slug,
      tokenId: expected.tokenId,
      maxSpreadTicks: expected.maxSpreadTicks,
      minSize: expected.minSizeRaw,
      adjustedMidpoint: expected.adjustedMidpoint,
      lastTradePrice: expected.lastTradePrice,
    });
  });

  it('reads the first recording to the unit: 495326974 → 495326974 raw (495.326974 shares), "100000000" → 100 shares minimum', async () => {
    const { server, client } = replay();
    const first = books[0]!;
    server.enqueue({ status: 200, body: first.body });
    const snapshot = await client.api.getOrderbook(first.slug);
    expect(snapshot.bids).toContainEqual({ priceTicks: 2, sizeRaw: 495_326_974 });
    expect(snapshot.bids[0]).toEqual({ priceTicks: 500, sizeRaw: 100_000_000 });
    expect(snapshot.asks[0]).toEqual({ priceTicks: 570, sizeRaw: 100_000_000 });
    expect(snapshot.minSize).toBe(100_000_000);
    expect(snapshot.maxSpreadTicks).toBe(35);
  });

  it('a book of a recorded market carries that market\'s YES token', async () => {
    const { server, client } = replay();
    const bySlug = new Map(markets.map((record) => [expectedMarket(record.body).slug, expectedMarket(record.body)]));
    let linked = 0;
    for (const record of books) {
      const market = bySlug.get(record.slug);
      if (market?.tokens == null) continue;
      server.enqueue({ status: 200, body: record.body });
      const snapshot = await client.api.getOrderbook(record.slug);
      expect(snapshot.tokenId).toBe(market.tokens.yes);
      linked += 1;
    }
    expect(linked).toBeGreaterThan(0);
  });
});

function checkMarket(market: Market, body: unknown): void {
  const expected = expectedMarket(body);
  expect(market).toMatchObject({ id: expected.id, slug: expected.slug, status: expected.status, expirationMs: expected.expirationMs, createdAtMs: expected.createdAtMs, tokens: expected.tokens });
  expect(Number.isSafeInteger(market.createdAtMs)).toBe(true);
  expect(market.venue?.adapter ?? null).toBe(expected.adapter);
  if (expected.reward === null) {
    expect(market.settings).toBeNull();
    return;
  }
  const normalized = normalizeRewardSettings(market.settings);
  expect({ minSizeRaw: normalized.minSizeRaw, maxSpreadTicks: normalized.maxSpreadTicks, dailyRewardRaw: normalized.dailyRewardRaw, c: normalized.c }).toEqual(expected.reward);
  expect(normalized.assumptions).toEqual({ minSize: 'raw', maxSpread: 'price', dailyReward: 'usdc' });
}

describe('GET /markets/active and GET /markets/{slug}: every recorded market element', () => {
  it('the 12 elements as one /markets/active page: nulls, FUNDED, float prices, extra metadata, ms expiry', async () => {
    const { server, client } = replay();
    server.enqueue({ status: 200, body: { data: markets.map((record) => record.body), totalMarketsCount: markets.length } });
    const page = await client.api.getActiveMarkets();
    expect(page.total).toBe(markets.length);
    expect(page.markets).toHaveLength(markets.length);
    page.markets.forEach((market, index) => checkMarket(market, markets[index]!.body));
    expect(page.markets.filter((market) => market.status === 'FUNDED')).toHaveLength(markets.length);
    expect(page.markets.some((market) => market.metadata['openPrice'] !== undefined)).toBe(true);
  });

  it.each(markets.map((record) => [`line ${record.line}`, record] as const))('%s through getMarket', async (_name, record) => {
    const { server, client } = replay();
    server.enqueue({ status: 200, body: record.body });
    const slug = expectedMarket(record.body).slug;
    checkMarket(await client.api.getMarket(slug), record.body);
    expect(server.requests.at(-1)?.pathname).toBe(`/markets/${slug}`);
  });
});
