/**
 * Listing deferred, not skipped (src/orders/deferred-listing.ts through the executor's `start()` and `addMarket`): a
 * market `deferListing` lets quote first is ready at once, its own-order listing follows once its first plan ended (or
 * RAISE_AFTER_MS after it was made ready, when it does not quote), in the cancel class, and what it finds of the bot's
 * that this run does not know is adopted or canceled as at start-up; this run's own orders are never taken for
 * strangers from a listing read before the queue reached it; a failed listing is tried again; nothing is applied once
 * stopping. Markets it does not let quote first are listed first, in the placement class. Under a saturated rate limit
 * (the backtest's limiter model, LatencyVenue, on the manual clock) every deferred listing is applied within a few
 * limiter slots of its market's first quote, ahead of the requotes queued meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { formatClientOrderId, marketKey } from '../../../src/orders/client-order-id.js';
import type { DeferredListingResult, ExecutorOptions } from '../../../src/orders/executor.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { RAISE_AFTER_MS } from '../../../src/orders/deferred-listing.js';
import { executorHarness, LIMIT_SLOT_MS, limitedExecutorHarness } from '../../support/executor-harness.js';
import { advance, settle, until } from '../../support/fake-venue.js';

const A = { slug: 'alpha', tokens: { yes: '111', no: '222' } };
const B = { slug: 'beta', tokens: { yes: '333', no: '444' } };

const bid = (slot: string, priceTicks: number): QuoteIntent => ({ slot, token: 'YES', side: 'BUY', priceTicks, sizeRaw: 10_000_000, postOnly: true });

/** A clientOrderId of the bot (tag mm1) as a run this ledger did not see would have left it. */
const ours = (slug: string, slot: string, sequence: number): string => formatClientOrderId({ botTag: 'mm1', marketKey: marketKey(slug), slot, sequence });

function setup(options: Partial<ExecutorOptions> = {}) {
  const results: { slug: string; result: DeferredListingResult }[] = [];
  const ctx = executorHarness({
    markets: [A, B],
    // alpha may quote first; beta (the ledger holds an open order there) is listed first.
    deferListing: (slug) => slug === A.slug,
    observer: { onDeferredListing: (slug, result) => results.push({ slug, result }) },
    ...options,
  });
  return { ...ctx, results };
}

describe('executor: deferred own-order listing', () => {
  it('quotes a deferred market before listing it, lists it once its first quotes are out in the cancel class; the other market is listed first in the placement class', async () => {
    const { scheduler, venue, executor, results } = setup();
    const listing = venue.hold('listLiveOrders');
    const starting = executor.start();
    await until(scheduler, () => listing.reached);
    // beta's listing is out; alpha is ready and quotes meanwhile. alpha's own listing waits for its first plan to end.
    await advance(scheduler, 1_000);
    expect(venue.deferredListings).toEqual([]);
    expect(await settle(scheduler, executor.submit(A.slug, [bid('bid-0', 500)]))).toMatchObject({ status: 'executed', placed: [expect.any(String)] });
    expect(venue.firstQuoteListings).toEqual([B.slug]);
    listing.release();
    const reports = await settle(scheduler, starting);
    expect(reports.find((r) => r.marketSlug === A.slug)).toEqual({ marketSlug: A.slug, ok: true, adopted: 0, canceled: 0, foreign: 0, error: null, deferred: true });
    expect(reports.find((r) => r.marketSlug === B.slug)).toMatchObject({ ok: true, adopted: 0 });
    expect(reports.find((r) => r.marketSlug === B.slug)?.deferred).toBeUndefined();
    await until(scheduler, () => results.length === 1);
    expect(venue.callsOf('listLiveOrders').map((c) => c.detail)).toEqual([B.slug, A.slug]);
    // alpha's listing was neither urgent nor one a first quote waits for: a deferred one, the cancel class.
    expect(venue.firstQuoteListings).toEqual([B.slug]);
    expect(venue.deferredListings).toEqual([A.slug]);
    expect(venue.urgentListings).toEqual([]);
    expect(results[0]).toMatchObject({ slug: A.slug, result: { report: { adopted: 0, canceled: 0, deferred: true } } });
    expect(executor.deferredListings).toBe(0);
  });

  it('an order of the bot this run does not know: canceled when its slot holds the new quote, adopted (and reconciled) when its slot is empty', async () => {
    const { scheduler, venue, executor, results } = setup({ deferListing: () => true, markets: [A] });
    const inTakenSlot = venue.seedOrder({ marketSlug: A.slug, tokenId: '111', side: 'BUY', priceTicks: 450, sizeRaw: 10_000_000, clientOrderId: ours(A.slug, 'bid-0', 7) });
    const inEmptySlot = venue.seedOrder({ marketSlug: A.slug, tokenId: '111', side: 'BUY', priceTicks: 440, sizeRaw: 10_000_000, clientOrderId: ours(A.slug, 'bid-1', 8) });
    const foreign = venue.seedOrder({ marketSlug: A.slug, tokenId: '111', side: 'BUY', priceTicks: 430, sizeRaw: 10_000_000, clientOrderId: 'someone-else-1' });
    const listing = venue.hold('listLiveOrders');
    await settle(scheduler, executor.start());
    // The first quote goes out while the listing is held: the venue holds two orders of the bot in slot bid-0 meanwhile.
    expect(await settle(scheduler, executor.submit(A.slug, [bid('bid-0', 500)]))).toMatchObject({ status: 'executed' });
    listing.release();
    await until(scheduler, () => results.length === 1);
    expect(results[0]?.result).toMatchObject({ report: { adopted: 1, canceled: 1, foreign: 1 } });
    expect(venue.orders.get(inTakenSlot.orderId)?.status).toBe('CANCELED');
    // bid-1 was adopted, then the re-run of the latest intents (bid-0 only) canceled it: no intent for that slot.
    await until(scheduler, () => venue.orders.get(inEmptySlot.orderId)?.status === 'CANCELED');
    expect(executor.order(ours(A.slug, 'bid-1', 8))?.state).toBe('canceled');
    expect(venue.live(A.slug).map((o) => o.clientOrderId).sort()).toEqual([executor.openOrders(A.slug)[0]?.clientOrderId, foreign.clientOrderId].sort());
    // The id sequence rose above what the listing showed.
    expect(Number.parseInt(executor.openOrders(A.slug)[0]?.clientOrderId.split('-').at(-1) ?? '', 36)).toBeGreaterThan(8);
  });

  it('never takes this run\'s own orders for strangers: one canceled after the listing was asked for stays canceled', async () => {
    const { scheduler, venue, executor, results } = setup({ deferListing: () => true, markets: [A] });
    // The listing is asked for once the first plan ended; held until our own first order has been canceled.
    const listing = venue.hold('listLiveOrders');
    await settle(scheduler, executor.start());
    expect(listing.reached).toBe(false);
    await settle(scheduler, executor.submit(A.slug, [bid('bid-0', 500)]));
    const placed = executor.openOrders(A.slug)[0];
    expect(placed).toBeDefined();
    await until(scheduler, () => listing.reached);
    await settle(scheduler, executor.submit(A.slug, []));
    expect(executor.order(placed!.clientOrderId)?.state).toBe('canceled');
    // What the venue answers here is stale: it still shows that order LIVE.
    venue.orders.get(placed!.orderId!)!.status = 'LIVE';
    listing.release();
    await until(scheduler, () => results.length === 1);
    expect(results[0]?.result).toMatchObject({ report: { adopted: 0, canceled: 0 } });
    expect(executor.order(placed!.clientOrderId)?.state).toBe('canceled');
    expect(executor.openOrders(A.slug)).toEqual([]);
  });

  it('a listing that fails is tried again until it succeeds: deferred, never skipped', async () => {
    const { scheduler, venue, executor, results } = setup({ deferListing: () => true, markets: [A] });
    venue.failNext('listLiveOrders', { kind: 'rate-limited' });
    venue.failNext('listLiveOrders', { kind: 'unknown', applied: false });
    await settle(scheduler, executor.start());
    await until(scheduler, () => results.some((r) => 'report' in r.result), 30_000);
    expect(results.slice(0, 2).map((r) => r.result)).toEqual([{ failedAttempt: 1 }, { failedAttempt: 2 }]);
    expect(results.slice(2).map((r) => r.result)).toMatchObject([{ report: { ok: true, deferred: true } }]);
    expect(venue.callsOf('listLiveOrders')).toHaveLength(3);
  });

  it('applies nothing once stopping: the shutdown sweep lists the market itself and cancels what is the bot\'s', async () => {
    const { scheduler, venue, executor, results } = setup({ deferListing: () => true, markets: [A] });
    const stray = venue.seedOrder({ marketSlug: A.slug, tokenId: '111', side: 'BUY', priceTicks: 450, sizeRaw: 10_000_000, clientOrderId: ours(A.slug, 'bid-0', 7) });
    const listing = venue.hold('listLiveOrders');
    await settle(scheduler, executor.start());
    await until(scheduler, () => listing.reached);
    const stopping = executor.shutdown({ budgetMs: 10_000 });
    listing.release();
    const report = await settle(scheduler, stopping);
    expect(results).toEqual([]);
    expect(report.clean).toBe(true);
    expect(venue.orders.get(stray.orderId)?.status).toBe('CANCELED');
    await advance(scheduler, 5_000);
    expect(results).toEqual([]);
  });

  it('a market joined while running is deferred too: ready at once, listed after', async () => {
    const { scheduler, venue, executor, results } = setup({ deferListing: () => true, markets: [A] });
    await settle(scheduler, executor.start());
    await until(scheduler, () => results.length === 1);
    const listing = venue.hold('listLiveOrders');
    expect(await settle(scheduler, executor.addMarket(B))).toMatchObject({ marketSlug: B.slug, ok: true, deferred: true });
    expect(await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500)]))).toMatchObject({ status: 'executed' });
    expect(listing.reached).toBe(true);
    listing.release();
    await until(scheduler, () => results.length === 2);
    expect(results[1]).toMatchObject({ slug: B.slug, result: { report: { ok: true } } });
  });

  it('a deferred market that does not quote is listed anyway, RAISE_AFTER_MS after it was made ready', async () => {
    const { scheduler, venue, executor, results } = setup({ deferListing: () => true, markets: [A] });
    await settle(scheduler, executor.start());
    await advance(scheduler, RAISE_AFTER_MS - 100);
    expect(venue.callsOf('listLiveOrders')).toEqual([]);
    await until(scheduler, () => results.length === 1, 1_000);
    expect(venue.deferredListings).toEqual([A.slug]);
    expect(results[0]).toMatchObject({ slug: A.slug, result: { report: { ok: true, deferred: true } } });
  });

  it.for([false, true])('under a saturated rate limit (cancel-replace requotes: %s), every deferred listing is sent within about one limiter slot per market of its market\'s first quote, ahead of the requotes queued meanwhile, and applied after the plan in flight', async (cancelReplace) => {
    const markets = Array.from({ length: 8 }, (_, i) => ({ slug: `m${i}`, tokens: { yes: `${100 + 2 * i}`, no: `${101 + 2 * i}` } }));
    const firstPlanAt = new Map<string, number>();
    const appliedAt = new Map<string, number>();
    const { scheduler, fake, venue, executor } = limitedExecutorHarness({
      markets,
      cancelReplace: { enabled: cancelReplace },
      deferListing: () => true,
      observer: {
        onPlan: (report) => void (firstPlanAt.has(report.marketSlug) ? undefined : firstPlanAt.set(report.marketSlug, scheduler.now())),
        onDeferredListing: (slug, result) => void ('report' in result ? appliedAt.set(slug, scheduler.now()) : undefined),
      },
    });
    venue.begin();
    await settle(scheduler, executor.start());
    // Every market requotes every 100 ms (a new price each time): each wants far more than its share of the limit.
    let round = 0;
    const requote = (): void => {
      round += 1;
      for (const market of markets) void executor.submit(market.slug, [bid('bid-0', 400 + (round % 50))]);
    };
    requote();
    const waiting: number[] = [];
    for (let t = 0; t < 20_000 && appliedAt.size < markets.length; t += 100) {
      await advance(scheduler, 100);
      waiting.push(venue.queued());
      requote();
    }
    expect([...appliedAt.keys()].sort()).toEqual(markets.map((m) => m.slug).sort());
    expect(fake.deferredListings.sort()).toEqual(markets.map((m) => m.slug).sort());
    // Sent within one slot per market (and the two in flight) of the market's first quote, whatever was queued; applied
    // once the market's plan in flight is done (a cancel and a placement, each behind every other market's).
    const slot = LIMIT_SLOT_MS;
    for (const market of markets) {
      const quotedAt = firstPlanAt.get(market.slug) ?? Number.NaN;
      const sentAt = fake.calls.find((c) => c.op === 'listLiveOrders' && c.detail === market.slug)?.atMs ?? Number.POSITIVE_INFINITY;
      expect(sentAt - quotedAt, market.slug).toBeLessThanOrEqual((markets.length + 2) * slot + 40);
      expect((appliedAt.get(market.slug) ?? Number.POSITIVE_INFINITY) - quotedAt, market.slug).toBeLessThanOrEqual((3 * markets.length + 4) * slot);
    }
    // The limit stayed saturated throughout: after the first second, requests always waited in the limiter.
    expect(Math.min(...waiting.slice(10))).toBeGreaterThan(0);
    await settle(scheduler, executor.shutdown({ budgetMs: 30_000 }), 60_000);
  });
});
