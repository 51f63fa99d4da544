/**
 * The OFFICIAL client (@limitless-exchange/sdk, unmodified) against the simulator's crypto world on 127.0.0.1: it
 * lists the recurring strike markets, reads one, and its WebSocketClient (pointed at the simulator) subscribes to
 * the market lifecycle, gets `marketCreated` after `POST /_sim/markets`, and unsubscribes with its acknowledged
 * `unsubscribe` (after which no `marketCreated` arrives).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, WebSocketClient, type MarketCreatedEvent, type SystemEvent } from '@limitless-exchange/sdk';
import { cryptoWorldOptions } from '../../src/sim/engine/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { call, obj, waitUntil } from '../support/sim-http.js';

let sim: RunningSimulator;
let client: Client;

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, headerPrefix: 'lmts', rateLimit: false, world: cryptoWorldOptions({ tickers: ['BTC', 'SOL'], cadences: ['15m', 'hourly'], strikesPerExpiry: 2 }) });
  client = new Client({ baseURL: sim.baseUrl, hmacCredentials: { tokenId: sim.demoAccount.tokenId, secret: sim.demoAccount.secret } });
});
afterAll(async () => {
  await sim.close();
});

/** A whole minute `minutes` from now. */
const minuteFromNow = (minutes: number): number => (Math.floor(Date.now() / 60_000) + minutes) * 60_000;

describe('the official client on the crypto world', () => {
  it('lists the strike markets and reads one', async () => {
    const page = await client.markets.getActiveMarkets({ limit: 25, page: 1, sortBy: 'ending_soon' });
    expect(page.totalMarketsCount).toBe(2 * 2 * 2);
    for (const m of page.data) expect(m.title).toMatch(/^💎 \$(BTC|SOL) above \$[0-9.]+ on [A-Z][a-z]{2} \d+, \d\d:\d\d UTC\?$/);
    const first = page.data[0];
    if (!first) throw new Error('no market');
    const market = await client.markets.getMarket(first.slug);
    expect(market.slug).toBe(first.slug);
    expect(market.tokens?.yes).toBe(sim.engine.market(first.slug)?.yesTokenId);
    expect(market.tags).toContain('Recurring');
    expect(market.createdAt).toBe(new Date(sim.engine.market(first.slug)?.createdAtMs ?? 0).toISOString());
  });

  it('gets marketCreated through its WebSocketClient after POST /_sim/markets, and stops after unsubscribe', async () => {
    const ws = new WebSocketClient({ url: sim.socketUrl, autoReconnect: false, timeout: 5_000 });
    const created: MarketCreatedEvent[] = [];
    const system: SystemEvent[] = [];
    ws.on('marketCreated', (event) => created.push(event));
    ws.on('system', (event) => system.push(event));
    await ws.connect();
    try {
      await ws.subscribe('subscribe_market_lifecycle');
      await waitUntil(() => (system.some((e) => typeof e === 'object' && e['event'] === 'subscribe_market_lifecycle') ? true : undefined));
      const listed = await call(sim.baseUrl, 'POST', '/_sim/markets', { body: { ticker: 'SOL', settlesAt: minuteFromNow(40), strike: '150' } });
      expect(listed.status).toBe(201);
      const body = obj(listed.body);
      const event = await waitUntil(() => created.find((e) => e.slug === body['slug']));
      expect(event).toEqual({ slug: body['slug'], title: body['title'], type: 'CLOB', categoryIds: body['categoryIds'], createdAt: body['createdAt'] });

      await ws.unsubscribe('unsubscribe_market_lifecycle');
      const later = await call(sim.baseUrl, 'POST', '/_sim/markets', { body: { ticker: 'SOL', settlesAt: minuteFromNow(41), strike: '151' } });
      expect(later.status).toBe(201);
      // A market-price subscription confirmed after the listing proves the socket's earlier frames have arrived.
      const confirmed = system.length;
      await ws.subscribe('subscribe_market_prices', { marketSlugs: [] });
      await waitUntil(() => (system.slice(confirmed).some((e) => typeof e === 'object' && e['event'] === 'subscribe_market_prices') ? true : undefined));
      expect(created.map((e) => e.slug)).toEqual([body['slug']]);
    } finally {
      await ws.disconnect();
    }
  });
});
