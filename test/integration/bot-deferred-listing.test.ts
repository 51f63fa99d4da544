/**
 * Start-up listing deferred, not skipped (`orders.startupListing: deferred`, the default): a real Bot against the
 * simulator (spec rate limits on) on a ledger with history (one order of an earlier run, long canceled) quotes its
 * markets before it lists their own orders (`GET /markets/{slug}/user-orders`), lists every one of them afterwards, and
 * an order of the bot's tag that its ledger does not know (placed straight into the engine) is still found by that
 * listing and canceled (its slot holds the bot's new quote). On a ledger that has never recorded an order, the same
 * config lists every market before the first quote and says why (src/markets/startup-listing.ts `decideStartupListing`).
 */
import { describe, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { formatClientOrderId, marketKey } from '../../src/orders/client-order-id.js';
import type { RunningSimulator } from '../../src/sim/index.js';
import { cleanupAfterTest, firstMarkets, liveOrders, placeForAccount, startBookedSim, startLiveBot, tempDatabasePath, unexplainedRateLimits, waitFor, when, type Cleanup, type RunningBot } from '../support/bot-harness.js';

const DONE = 'deferred own-order listings done';

/** Sequence numbers in the simulator's request log of the bot's first quote request and of each market's listing. */
function startOrder(sim: RunningSimulator, slugs: readonly string[]): { readonly firstQuote: number; readonly listings: ReadonlyMap<string, number> } {
  const log = sim.control.requestLog().filter((r) => r.tokenId === sim.demoAccount.tokenId);
  const firstQuote = log.find((r) => r.method === 'POST' && (r.path === '/orders' || r.path === '/orders/cancel-replace/batch'))?.seq ?? Number.POSITIVE_INFINITY;
  const listings = new Map<string, number>();
  for (const slug of slugs) {
    const listing = log.find((r) => r.method === 'GET' && r.path.startsWith(`/markets/${slug}/user-orders`));
    if (listing !== undefined) listings.set(slug, listing.seq);
  }
  return { firstQuote, listings };
}

/** A ledger file with history: one order of an earlier run, long canceled (no open order: every market may defer). */
function ledgerWithHistory(cleanup: Cleanup, slug: string): string {
  const path = tempDatabasePath(cleanup);
  const ledger = openLedger({ path });
  const atMs = Date.now() - 86_400_000;
  ledger.recordOrder({ clientOrderId: 'it-earlier-run-1', marketSlug: slug, slot: 'bid-0', token: 'YES', tokenId: '1', side: 'BUY', priceTicks: 400, sizeRaw: 5_000_000, atMs });
  ledger.updateOrder({ clientOrderId: 'it-earlier-run-1' }, { status: 'canceled', atMs: atMs + 1000 });
  ledger.close();
  return path;
}

const messages = (running: RunningBot): string[] => running.logs.map((line) => String((JSON.parse(line) as { msg?: unknown }).msg));

describe.concurrent('start-up listing of the bot\'s own orders', () => {
  it('deferred: six markets quote before any listing, every one is listed afterwards, and an unknown order of the bot is found and canceled', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slugs, slug } = await startBookedSim(cleanup, { sim: { markets: 6 }, markets: firstMarkets(6) });
    // An order of the bot's tag in its quoting slot bid-0, from a run whose ledger this is not.
    const stray = placeForAccount(sim, slug, 450, formatClientOrderId({ botTag: 'it', marketKey: marketKey(slug), slot: 'bid-0', sequence: 1_000 }));

    const running = await startLiveBot(sim, cleanup, { markets: [...slugs], database: ledgerWithHistory(cleanup, slug) });
    await waitFor(() => when(messages(running).includes(DONE)), 15_000, 'the deferred listings to be done', () => running.warnings());
    const { firstQuote, listings } = startOrder(sim, slugs);
    expect([...listings.keys()].sort(), 'every market listed: deferred, not skipped').toEqual([...slugs].sort());
    for (const [market, seq] of listings) expect(seq, `${market} listed after the first quote`).toBeGreaterThan(firstQuote);

    // The stray sat in a slot the bot had filled already: canceled, counted in the listing's report, warned about.
    await waitFor(() => when(sim.engine.orderById(stray)?.status === 'CANCELED'), 5_000, 'the unknown order to be canceled');
    expect(running.warnings()).toContain('deferred own-order listing found orders of the bot the ledger did not know');
    const done = running.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['msg'] === DONE);
    expect(done).toMatchObject({ markets: 6, adopted: 0, canceled: 1 });
    // One order of the bot per slot at the venue, the bot's own new quotes.
    for (const market of slugs) expect(liveOrders(sim, market, 'it').map((o) => o.slot).sort(), market).toEqual(['ask-0', 'bid-0']);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });

  it('a ledger that has never recorded an order: every market is listed before the first quote (deferred configured), and the start-up line says why', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slugs } = await startBookedSim(cleanup, { sim: { markets: 3 }, markets: firstMarkets(3) });
    const running = await startLiveBot(sim, cleanup, { markets: [...slugs], orders: { startupListing: 'deferred' } });
    await waitFor(() => when(slugs.every((market) => liveOrders(sim, market, 'it').length === 2)), 10_000, 'every market quoted');
    const { firstQuote, listings } = startOrder(sim, slugs);
    expect([...listings.keys()].sort()).toEqual([...slugs].sort());
    for (const [market, seq] of listings) expect(seq, `${market} listed before the first quote`).toBeLessThan(firstQuote);
    expect(messages(running)).not.toContain(DONE);
    const line = running.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => typeof l['msg'] === 'string' && l['msg'].startsWith('own orders listed in every market'));
    expect(line).toMatchObject({ startupListing: 'first', configured: 'deferred' });
    expect(String(line?.['reason'])).toContain('never recorded an order');
  });
});
