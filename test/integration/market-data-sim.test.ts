/**
 * Market data against the embedded simulator (src/sim): the real Socket.IO feed (authenticated), the real
 * REST client for snapshots, and the book store, over loopback. Faults come from the simulator's control
 * surface: dropped connections, a frozen feed, injected crossed and malformed frames.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BookStore, type FetchOutcome } from '../../src/book/book-store.js';
import type { BookSnapshot } from '../../src/book/snapshot.js';
import { ExchangeApi } from '../../src/exchange/api.js';
import { HttpTransport } from '../../src/exchange/http.js';
import { OrderSigner, signingMarketOf } from '../../src/exchange/signer.js';
import { MarketFeed } from '../../src/exchange/socket.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { waitFor } from '../unit/book/helpers/socket-server.js';
import type { OrderEvent } from '../../src/core/venue-rules/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Harness {
  sim: RunningSimulator;
  feed: MarketFeed;
  store: BookStore;
  slugs: string[];
  fetches: Array<[string, FetchOutcome]>;
  frozen: string[];
  rejected: string[];
  malformed: string[];
  system: string[];
  feedApplies: string[];
  orderEvents: OrderEvent[];
  api: ExchangeApi;
}

async function harness(): Promise<Harness> {
  const sim = await startSimulator({ seed: 7, markets: 3, synthetic: { autoStep: false }, feedCoalesceMs: 10, settlementDelayMs: 50 });
  cleanups.push(() => sim.close());
  for (let i = 0; i < 3; i++) sim.control.syntheticStep();
  const slugs = sim.engine
    .markets()
    .map((m) => m.slug)
    .filter((slug) => (sim.engine.book(slug)?.bids.length ?? 0) > 0)
    .slice(0, 2);
  expect(slugs.length).toBeGreaterThan(0);

  const credentials = { tokenId: sim.demoAccount.tokenId, secret: sim.demoAccount.secret };
  const api = new ExchangeApi({
    transport: new HttpTransport({ baseUrl: sim.baseUrl, credentials, headerPrefix: sim.headerPrefix }),
    profileId: sim.demoAccount.profileId,
  });
  const malformed: string[] = [];
  const feed = new MarketFeed({
    url: sim.socketUrl,
    credentials,
    headerPrefix: sim.headerPrefix,
    backoff: { initialMs: 20, maxMs: 200, seed: 5 },
    observer: { onMalformedFrame: (event, path) => malformed.push(`${event}:${path}`) },
  });
  cleanups.push(() => feed.close());
  const system: string[] = [];
  feed.onSystem((frame) => system.push(frame.message ?? ''));
  const orderEvents: OrderEvent[] = [];
  feed.onOrderEvent((event) => orderEvents.push(event));
  const fetches: Array<[string, FetchOutcome]> = [];
  const frozen: string[] = [];
  const rejected: string[] = [];
  const feedApplies: string[] = [];
  const store = new BookStore({
    fetchSnapshot: (slug) => api.getOrderbook(slug),
    feed,
    watchdog: {
      intervalMs: 100,
      quietAfterMs: 300,
      staleAfterMs: 5_000,
      maxProbesPerTick: 1,
      socketDownGraceMs: 2_000,
      frozenConfirmMs: 200,
      fetchTimeoutMs: 3_000,
    },
    observer: {
      onFetch: (slug, _purpose, outcome) => fetches.push([slug, outcome]),
      onFrozenFeed: (slug) => frozen.push(slug),
      onSnapshotRejected: (slug, _source, error) => rejected.push(`${slug}:${error.field}`),
      onSnapshotApplied: (slug, source, changed) => void (source === 'feed' && changed && feedApplies.push(slug)),
    },
  });
  cleanups.push(() => store.stop());
  store.setMarkets(slugs);
  store.start();
  feed.start();
  await waitFor(() => slugs.every((s) => store.books(s) !== null && !store.isStale(s)), 5_000, 'initial sync from the simulator');
  return { sim, feed, store, slugs, fetches, frozen, rejected, malformed, system, feedApplies, orderEvents, api };
}

/** Moves every market's fair value and steps the synthetic traders until the engine's books change. */
function moveBooks(h: Harness): void {
  const before = h.slugs.map((s) => JSON.stringify(h.sim.engine.book(s)));
  for (const slug of h.slugs) {
    const fair = h.sim.engine.fairValueTicks(slug) ?? 500;
    h.sim.control.setFairValue(slug, fair > 500 ? fair - 80 : fair + 80);
  }
  for (let i = 0; i < 10 && h.slugs.every((s, k) => JSON.stringify(h.sim.engine.book(s)) === before[k]); i++) {
    h.sim.control.syntheticStep();
  }
  expect(h.slugs.some((s, k) => JSON.stringify(h.sim.engine.book(s)) !== before[k])).toBe(true);
}

function matchesEngine(h: Harness, slug: string): boolean {
  const engineBook: BookSnapshot | undefined = h.sim.engine.book(slug);
  const local = h.store.books(slug);
  return engineBook !== undefined && local !== null && local.yes.sameLevels(engineBook);
}

describe('market data on the simulator', () => {
  it('syncs, then follows synthetic flow through the socket feed', async () => {
    const h = await harness();
    expect(h.system.some((m) => /subscribed/i.test(m))).toBe(true);
    for (const slug of h.slugs) expect(matchesEngine(h, slug)).toBe(true);
    const feedAppliesBefore = h.feedApplies.length;
    moveBooks(h);
    await waitFor(() => h.slugs.every((s) => matchesEngine(h, s)), 3_000, 'books follow the engine');
    expect(h.feedApplies.length).toBeGreaterThan(feedAppliesBefore);
    expect(h.feed.connectionState().connects).toBe(1);
    expect(h.frozen).toEqual([]);
  });

  it('survives dropped connections: reconnects, resubscribes and resyncs books that moved meanwhile', async () => {
    const h = await harness();
    expect(h.sim.control.dropConnections()).toBeGreaterThan(0);
    moveBooks(h);
    await waitFor(() => h.feed.connectionState().connects >= 2, 3_000, 'reconnected');
    await waitFor(() => h.slugs.every((s) => matchesEngine(h, s) && !h.store.isStale(s)), 5_000, 'resynced');
  });

  it('detects a frozen feed on the simulator, resyncs over REST and reconnects', async () => {
    const h = await harness();
    h.sim.control.freezeFeed('books');
    moveBooks(h); // REST sees the new books, the frozen socket does not push them
    await waitFor(() => h.frozen.length >= 1, 8_000, 'frozen-feed detection');
    await waitFor(() => h.feed.connectionState().connects >= 2, 3_000, 'reconnect after the frozen feed');
    h.sim.control.unfreezeFeed();
    await waitFor(() => h.slugs.every((s) => matchesEngine(h, s)), 5_000, 'books match after resync');
  });

  it('rejects an injected crossed book and drops an injected malformed frame; the books stay sound', async () => {
    const h = await harness();
    const slug = h.slugs[0]!;
    h.sim.control.injectFrame({ kind: 'crossed', marketSlug: slug });
    h.sim.control.injectFrame({ kind: 'malformed', marketSlug: slug });
    await waitFor(() => h.rejected.length >= 1 && h.malformed.length >= 1, 3_000, 'bad frames seen');
    const local = h.store.books(slug)!;
    expect(local.yes.bestBidTicks === null || local.yes.bestAskTicks === null || local.yes.bestBidTicks < local.yes.bestAskTicks).toBe(true);
    await waitFor(() => !h.store.isStale(slug) && matchesEngine(h, slug), 5_000, 'recovered');
  });

  it("delivers the account's order events typed, with raw sizes matching the orders placed", async () => {
    const h = await harness();
    await waitFor(() => h.system.some((m) => /order events/i.test(m)), 3_000, 'order-event subscription confirmed');
    const slug = h.slugs[0]!;
    const market = signingMarketOf(await h.api.getMarket(slug));
    const signer = new OrderSigner({ privateKey: h.sim.demoAccount.privateKey });
    const bestAsk = h.store.books(slug)!.yes.bestAskTicks!;

    // A resting bid far from the touch, then its cancel: PLACEMENT and CANCELLATION.
    const resting = await h.api.placeOrder(
      await signer.createOrder({ market, tokenId: market.tokens.yes, side: 'BUY', orderType: 'GTC', priceTicks: 5, sizeRaw: 7_123_000, clientOrderId: 'md-rest-1' }),
    );
    await h.api.cancelOrder(resting.orderId);
    // A bid crossing the best ask for 1 share: a fill, then the settlement lifecycle MATCHED → MINED.
    const taker = await h.api.placeOrder(
      await signer.createOrder({ market, tokenId: market.tokens.yes, side: 'BUY', orderType: 'GTC', priceTicks: bestAsk, sizeRaw: 1_000_000, clientOrderId: 'md-take-1' }),
    );
    await waitFor(
      () => h.orderEvents.some((e) => e.source === 'SETTLEMENT' && e.type === 'MINED' && e.orderId === taker.orderId),
      5_000,
      'MINED settlement of the taker order',
    );

    const ofResting = h.orderEvents.filter((e) => e.source === 'OME' && e.orderId === resting.orderId);
    expect(ofResting.map((e) => e.type)).toEqual(['PLACEMENT', 'CANCELLATION']);
    expect(ofResting[0]).toMatchObject({ clientOrderId: 'md-rest-1', side: 'BUY', priceTicks: 5, remainingRaw: 7_123_000, token: market.tokens.yes });
    const settlements = h.orderEvents.filter((e) => e.source === 'SETTLEMENT' && e.orderId === taker.orderId);
    expect(settlements.map((e) => e.type)).toEqual(['MATCHED', 'MINED']);
    const mined = settlements[1]!;
    if (mined.source !== 'SETTLEMENT') throw new Error('not a settlement');
    expect(mined.amountContractsRaw).toBe(1_000_000);
    expect(mined.priceTicks).toBe(bestAsk);
    expect(mined.amountCollateralRaw).toBe(bestAsk * 1_000);
    expect(mined.clientOrderId).toBe('md-take-1');
    expect(mined.tradeEventId).toBe(settlements[0]!.source === 'SETTLEMENT' ? settlements[0]!.tradeEventId : '');
    expect(mined.makerMatches.reduce((sum, m) => sum + m.matchedSizeRaw, 0)).toBe(1_000_000);
    expect(h.malformed).toEqual([]);
  });
});
