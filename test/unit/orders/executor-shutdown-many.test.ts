/**
 * A stop of many markets at the venue's rate limit (2 in flight, 320 ms between starts: the backtest's limiter model,
 * LatencyVenue, on the manual clock) through the executor's `shutdown`: the cancels of every market go out at once (one
 * request per market: the venue's cancel-batch takes one market's ids), what their answers confirm needs no listing,
 * and what they leave uncertain is looked up by status across markets (50 orders to a request). A market whose
 * deferred listing was never applied is still listed, at cancel priority. 24 markets stop within a 10 s budget with no
 * order left (a cancel and a listing per market would need 48 requests: over 15 s).
 */
import { describe, expect, it } from 'vitest';
import type { ExecutorOptions } from '../../../src/orders/executor.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { LIMIT_SLOT_MS as SLOT_MS, limitedExecutorHarness } from '../../support/executor-harness.js';
import { settle, type FakeVenue } from '../../support/fake-venue.js';
const quote = (slot: string, side: 'BUY' | 'SELL', priceTicks: number): QuoteIntent => ({ slot, token: 'YES', side, priceTicks, sizeRaw: 10_000_000, postOnly: true });
const LADDER = [quote('bid-0', 'BUY', 480), quote('ask-0', 'SELL', 520)];

async function quotedMarkets(count: number, options: Partial<ExecutorOptions> = {}, afterStart: (fake: FakeVenue) => void = () => undefined) {
  const markets = Array.from({ length: count }, (_, i) => ({ slug: `m${i}`, tokens: { yes: `${1000 + 2 * i}`, no: `${1001 + 2 * i}` } }));
  const { scheduler, fake, venue, executor } = limitedExecutorHarness({ markets, ...options });
  // Quoted before the limiter is on (requests before `begin()` act at once): the stop alone is timed.
  await settle(scheduler, executor.start());
  afterStart(fake);
  for (const market of markets) await settle(scheduler, executor.submit(market.slug, LADDER));
  venue.begin();
  return { scheduler, fake, venue, executor, markets };
}

describe('executor: a stop of many markets at the venue\'s rate limit', () => {
  it('24 markets: one cancel request per market, no listing, every order gone within the 10 s budget', async () => {
    const { scheduler, fake, venue, executor, markets } = await quotedMarkets(24);
    expect(executor.openOrders()).toHaveLength(48);
    const listingsBefore = fake.callsOf('listLiveOrders').length;
    const report = await settle(scheduler, executor.shutdown({ budgetMs: 10_000 }), 20_000);
    expect(report).toMatchObject({ clean: true, timedOut: false, marketsWithLiveOrders: [], unresolved: [] });
    for (const market of markets) expect(fake.live(market.slug), market.slug).toEqual([]);
    expect(venue.requests).toBe(markets.length);
    expect(fake.callsOf('listLiveOrders')).toHaveLength(listingsBefore);
    expect(fake.urgentListings).toEqual([]);
    // The requests' starts, 320 ms apart, and their answers.
    expect(report.durationMs).toBeLessThanOrEqual(markets.length * SLOT_MS + 200);
  });

  it('a cancel refused and one whose answer was lost are looked up by status across markets in one request; a market never listed is listed at cancel priority', async () => {
    // m0 quotes before its own-order listing, which never comes (held): at the stop it is listed as part of its sweep.
    const held: { listing: ReturnType<FakeVenue['hold']> | null } = { listing: null };
    const { scheduler, fake, venue, executor, markets } = await quotedMarkets(12, { deferListing: (slug) => slug === 'm0' }, (f) => void (held.listing = f.hold('listLiveOrders')));
    expect(held.listing?.reached).toBe(true);
    const refused = fake.live('m3')[0];
    expect(refused).toBeDefined();
    fake.failCancelOf(refused!.orderId, 'other');
    fake.failNext('cancelOrders', { kind: 'unknown', applied: true });
    const statusBefore = fake.callsOf('statusBatch').length;
    const stopping = executor.shutdown({ budgetMs: 10_000 });
    held.listing?.release();
    const report = await settle(scheduler, stopping, 20_000);
    expect(report).toMatchObject({ clean: true, marketsWithLiveOrders: [] });
    for (const market of markets) expect(fake.live(market.slug), market.slug).toEqual([]);
    expect(fake.urgentListings).toEqual(['m0']);
    const statusCalls = fake.callsOf('statusBatch').slice(statusBefore);
    expect(statusCalls.length).toBeGreaterThanOrEqual(1);
    // One lookup request carried the orders of both markets (the refused cancel's, the unanswered ones').
    expect(statusCalls[0]?.detail.split(',').length).toBeGreaterThanOrEqual(3);
    expect(report.durationMs).toBeLessThan(10_000);
    expect(venue.requests).toBeLessThanOrEqual(markets.length + 1 + 2 * statusCalls.length + 2);
  });
});
