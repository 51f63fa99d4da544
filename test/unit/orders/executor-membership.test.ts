/**
 * Markets that come and go in the executor (src/orders/market-membership.ts through `addMarket` / `retireMarket`):
 * a join adopts the bot's live orders before any plan runs; a leave retires the market at once, cancels and confirms
 * after the plan in flight, still reports late fills, and the market is dropped once its orders are terminal and old
 * enough; shutdown covers markets being left, and nothing joins once stopping; many joins and leaves leave nothing.
 */
import { describe, expect, it } from 'vitest';
import { formatClientOrderId, marketKey } from '../../../src/orders/client-order-id.js';
import type { ExecutorOptions } from '../../../src/orders/executor.js';
import { RECHECK_MS } from '../../../src/orders/market-membership.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { executorHarness } from '../../support/executor-harness.js';
import { advance, flushAsync, settle, until } from '../../support/fake-venue.js';

const A = { slug: 'alpha', tokens: { yes: '111', no: '222' } };
const B = { slug: 'beta', tokens: { yes: '333', no: '444' } };
const RETAIN_MS = 5_000;

const bid = (slot: string, priceTicks: number, sizeRaw = 10_000_000): QuoteIntent => ({ slot, token: 'YES', side: 'BUY', priceTicks, sizeRaw, postOnly: true });
const ask = (slot: string, priceTicks: number, sizeRaw = 10_000_000): QuoteIntent => ({ slot, token: 'YES', side: 'SELL', priceTicks, sizeRaw, postOnly: true });

function setup(options: Partial<ExecutorOptions> = {}) {
  return executorHarness({ markets: [A], retainTerminalMs: RETAIN_MS, ...options });
}

async function started(options: Partial<ExecutorOptions> = {}) {
  const ctx = setup(options);
  await settle(ctx.scheduler, ctx.executor.start());
  return ctx;
}

/** A clientOrderId of the bot (tag mm1) in `slug`, as a previous run would have left it. */
const ours = (slug: string, slot: string, sequence: number): string => formatClientOrderId({ botTag: 'mm1', marketKey: marketKey(slug), slot, sequence });

describe('executor: joining a market', () => {
  it('adopts the bot’s live orders by its tag before any plan runs in it, then quotes it', async () => {
    const { scheduler, venue, executor } = await started();
    // Two of ours in slot bid-0 (the newest is adopted, the older one canceled as a duplicate) and one of someone else.
    const kept = venue.seedOrder({ marketSlug: B.slug, tokenId: '333', side: 'BUY', priceTicks: 500, sizeRaw: 10_000_000, clientOrderId: ours(B.slug, 'bid-0', 6) });
    venue.seedOrder({ marketSlug: B.slug, tokenId: '333', side: 'BUY', priceTicks: 490, sizeRaw: 10_000_000, clientOrderId: ours(B.slug, 'bid-0', 5) });
    const foreign = venue.seedOrder({ marketSlug: B.slug, tokenId: '333', side: 'SELL', priceTicks: 700, sizeRaw: 10_000_000, clientOrderId: 'someone-else-1' });
    const listing = venue.hold('listLiveOrders');
    const joining = executor.addMarket(B);
    const plan = executor.submit(B.slug, [bid('bid-0', 500)]);
    await until(scheduler, () => listing.reached);
    await advance(scheduler, 1000);
    // The plan waits behind the adoption: nothing placed or canceled while the listing is out.
    expect(venue.callsOf('placeOrder')).toEqual([]);
    expect(venue.callsOf('cancelOrders')).toEqual([]);
    listing.release();
    expect(await settle(scheduler, joining)).toEqual({ marketSlug: B.slug, ok: true, adopted: 1, canceled: 1, foreign: 1, error: null });
    expect(await settle(scheduler, plan)).toMatchObject({ status: 'executed', kept: 1, placed: [] });
    expect(venue.live(B.slug).map((o) => o.orderId).sort()).toEqual([kept.orderId, foreign.orderId].sort());
    const moved = await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 510)]));
    expect(moved).toMatchObject({ status: 'executed' });
    expect(venue.live(B.slug).filter((o) => o.clientOrderId?.startsWith('mm1-')).map((o) => o.priceTicks)).toEqual([510]);
  });

  it('with the caller\'s evidence that no order of the bot can be there: ready without a listing, quoted at once', async () => {
    const { scheduler, venue, executor } = await started();
    const listings = venue.callsOf('listLiveOrders').length;
    const report = await settle(scheduler, executor.addMarket({ ...B, noOwnOrders: 'listed after this run started' }));
    expect(report).toEqual({ marketSlug: B.slug, ok: true, adopted: 0, canceled: 0, foreign: 0, error: null });
    expect(venue.callsOf('listLiveOrders'), 'no listing of its orders').toHaveLength(listings);
    expect(await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500)]))).toMatchObject({ status: 'executed' });
    expect(venue.live(B.slug)).toHaveLength(1);
  });

  it('the evidence is ignored for a market joined before start(): start() lists every market', async () => {
    const { scheduler, venue, executor } = setup();
    const joining = executor.addMarket({ ...B, noOwnOrders: 'listed after this run started' });
    await settle(scheduler, executor.start());
    expect(await settle(scheduler, joining)).toMatchObject({ ok: true });
    expect(venue.callsOf('listLiveOrders').length).toBe(2);
  });

  it('is idempotent: joined and ready, a second join lists nothing and adopts nothing', async () => {
    const { scheduler, venue, executor } = await started();
    await settle(scheduler, executor.addMarket(B));
    const listings = venue.callsOf('listLiveOrders').length;
    expect(await settle(scheduler, executor.addMarket(B))).toEqual({ marketSlug: B.slug, ok: true, adopted: 0, canceled: 0, foreign: 0, error: null });
    expect(venue.callsOf('listLiveOrders')).toHaveLength(listings);
    expect(executor.counts()).toMatchObject({ markets: 2, retiredMarkets: 0 });
  });

  it('a market joined before start() is adopted by start(), and the join resolves with its start-up report', async () => {
    const { scheduler, venue, executor } = setup();
    venue.seedOrder({ marketSlug: B.slug, tokenId: '444', side: 'SELL', priceTicks: 400, sizeRaw: 5_000_000, clientOrderId: ours(B.slug, 'ask-0', 9) });
    const joining = executor.addMarket(B);
    await advance(scheduler, 500);
    expect(venue.callsOf('listLiveOrders')).toEqual([]);
    const reports = await settle(scheduler, executor.start());
    expect(reports.map((r) => r.marketSlug)).toEqual([A.slug, B.slug]);
    expect(await settle(scheduler, joining)).toMatchObject({ marketSlug: B.slug, ok: true, adopted: 1 });
  });

  it('a listing that fails leaves the market blocked (not quoted); joining it again lists again', async () => {
    const { scheduler, venue, executor } = await started({ startupAttempts: 1 });
    venue.failNext('listLiveOrders', { kind: 'failed' });
    expect(await settle(scheduler, executor.addMarket(B))).toMatchObject({ ok: false });
    expect(await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500)]))).toEqual({ status: 'not-ready' });
    expect(await settle(scheduler, executor.addMarket(B))).toMatchObject({ ok: true });
    expect(await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500)]))).toMatchObject({ status: 'executed' });
    expect(venue.live(B.slug)).toHaveLength(1);
  });
});

describe('executor: leaving a market', () => {
  it('remove → canceled and confirmed → retired (no plan) → a late fill still reported → dropped once old enough', async () => {
    const { scheduler, venue, executor, fills, deliver } = await started();
    await settle(scheduler, executor.addMarket(B));
    await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500), ask('ask-0', 520)]));
    await settle(scheduler, executor.submit(A.slug, [bid('bid-0', 450)]));
    deliver();
    const [first] = executor.openOrders(B.slug);
    venue.fill(first!.orderId!, 3_000_000, 'late-1'); // matched before the cancel; its frames come late
    const late = venue.takeEvents();
    const report = await settle(scheduler, executor.retireMarket(B.slug, { budgetMs: 5_000 }));
    expect(report).toEqual({ clean: true, left: 0 });
    // The adoption listing of the join was routine; the listing that confirmed the leave went at cancel priority.
    expect(venue.callsOf('listLiveOrders').filter((c) => c.detail === B.slug)).toHaveLength(2);
    expect(venue.urgentListings).toEqual([B.slug]);
    expect(venue.live(B.slug)).toEqual([]);
    expect(executor.openOrders(B.slug)).toEqual([]);
    expect(await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500)]))).toEqual({ status: 'stopped' });
    expect(executor.isActiveMarket(B.slug)).toBe(false);
    expect(executor.counts()).toMatchObject({ markets: 2, retiredMarkets: 1 });

    deliver(late);
    expect(fills).toMatchObject([{ tradeEventId: 'late-1', marketSlug: B.slug, sizeRaw: 3_000_000 }]);
    expect(executor.order(first!.clientOrderId)).toMatchObject({ state: 'canceled', filledRaw: 3_000_000 });
    // Kept while a late event may still need it; dropped once every order is terminal and unchanged for RETAIN_MS.
    await advance(scheduler, RETAIN_MS - 1000, 100);
    expect(executor.order(first!.clientOrderId)).toBeDefined();
    await advance(scheduler, 2000, 100);
    expect(executor.order(first!.clientOrderId)).toBeUndefined();
    expect(executor.counts()).toEqual({ markets: 1, retiredMarkets: 0, trackedOrders: 1, openOrders: 1, orderIndexMarkets: 1, marketKeys: 1 });
    expect(venue.live(A.slug)).toHaveLength(1);
  });

  it('a leave during a plan in flight waits for it, starts no further placement, then cancels what it placed', async () => {
    const { scheduler, venue, executor } = await started();
    await settle(scheduler, executor.addMarket(B));
    const placing = venue.hold('placeOrder');
    const plan = executor.submit(B.slug, [bid('bid-0', 500), ask('ask-0', 520)]);
    await until(scheduler, () => placing.reached);
    const leaving = executor.retireMarket(B.slug, { budgetMs: 10_000 });
    // A second call is the same leave; a submission meanwhile is refused.
    expect(executor.retireMarket(B.slug, { budgetMs: 10_000 })).toBe(leaving);
    expect(await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 501)]))).toEqual({ status: 'stopped' });
    await advance(scheduler, 500);
    expect(venue.callsOf('cancelOrders')).toEqual([]);
    placing.release();
    expect(await settle(scheduler, plan)).toMatchObject({ status: 'executed' });
    expect(await settle(scheduler, leaving)).toEqual({ clean: true, left: 0 });
    // The ask was never sent: the plan stopped placing once the market was retired; the bid it placed is canceled.
    expect(venue.callsOf('placeOrder')).toHaveLength(1);
    expect(venue.live(B.slug)).toEqual([]);
  });

  it('a cancel the budget cannot confirm reports what is left; the background sweep cancels it later and drops the market', async () => {
    const { scheduler, venue, executor } = await started();
    await settle(scheduler, executor.addMarket(B));
    await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500)]));
    const [order] = executor.openOrders(B.slug);
    venue.failCancelOf(order!.orderId!, 'other');
    const report = await settle(scheduler, executor.retireMarket(B.slug, { budgetMs: 100 }));
    expect(report).toEqual({ clean: false, left: 1 });
    expect(venue.live(B.slug)).toHaveLength(1);
    await advance(scheduler, RECHECK_MS + 1000, 500);
    expect(venue.live(B.slug)).toEqual([]);
    await advance(scheduler, RETAIN_MS + 1000, 500);
    expect(executor.counts()).toMatchObject({ markets: 1, trackedOrders: 0, orderIndexMarkets: 0 });
  });

  it('a market joined again before it was dropped quotes again', async () => {
    const { scheduler, venue, executor } = await started();
    await settle(scheduler, executor.addMarket(B));
    await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500)]));
    const leaving = executor.retireMarket(B.slug, { budgetMs: 5_000 });
    const rejoin = executor.addMarket(B);
    expect(await settle(scheduler, leaving)).toEqual({ clean: true, left: 0 });
    expect(await settle(scheduler, rejoin)).toMatchObject({ ok: true });
    expect(executor.isActiveMarket(B.slug)).toBe(true);
    expect(await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 505)]))).toMatchObject({ status: 'executed' });
    expect(venue.live(B.slug).map((o) => o.priceTicks)).toEqual([505]);
    await advance(scheduler, RETAIN_MS + RECHECK_MS, 1000);
    expect(executor.counts()).toMatchObject({ markets: 2, retiredMarkets: 0 });
  });

  it('an unknown market leaves clean at once', async () => {
    const { scheduler, executor } = await started();
    expect(await settle(scheduler, executor.retireMarket('nowhere', { budgetMs: 1000 }))).toEqual({ clean: true, left: 0 });
  });
});

describe('executor: joins and leaves around shutdown', () => {
  it('shutdown cancels the orders of a market being left; that leave reports the shutdown’s verdict', async () => {
    const { scheduler, venue, executor } = await started();
    await settle(scheduler, executor.addMarket(B));
    await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500), ask('ask-0', 520)]));
    await settle(scheduler, executor.submit(A.slug, [bid('bid-0', 450)]));
    const canceling = venue.hold('cancelOrders');
    const leaving = executor.retireMarket(B.slug, { budgetMs: 10_000 });
    await until(scheduler, () => canceling.reached);
    const stopping = executor.shutdown({ budgetMs: 3_000 });
    canceling.release();
    const [left, stopped] = await settle(scheduler, Promise.all([leaving, stopping]));
    expect(left).toEqual({ clean: true, left: 0 });
    expect(stopped).toMatchObject({ clean: true, marketsWithLiveOrders: [] });
    expect(venue.live()).toEqual([]);
  });

  it('a leave asked during shutdown resolves with what shutdown left', async () => {
    const { scheduler, venue, executor } = await started();
    await settle(scheduler, executor.addMarket(B));
    await settle(scheduler, executor.submit(B.slug, [bid('bid-0', 500)]));
    const stopping = executor.shutdown({ budgetMs: 3_000 });
    const leaving = executor.retireMarket(B.slug, { budgetMs: 3_000 });
    expect(await settle(scheduler, leaving)).toEqual({ clean: true, left: 0 });
    expect(await settle(scheduler, stopping)).toMatchObject({ clean: true });
    expect(venue.live()).toEqual([]);
  });

  it('nothing joins once stopping: no listing, not registered', async () => {
    const { scheduler, venue, executor } = await started();
    const stopping = executor.shutdown({ budgetMs: 1_000 });
    const listings = venue.callsOf('listLiveOrders').length;
    expect(await settle(scheduler, executor.addMarket(B))).toMatchObject({ marketSlug: B.slug, ok: false });
    await settle(scheduler, stopping);
    expect(venue.callsOf('listLiveOrders').filter((c) => c.detail.includes(B.slug))).toEqual([]);
    expect(venue.callsOf('listLiveOrders').length).toBeGreaterThanOrEqual(listings);
    expect(executor.counts().markets).toBe(1);
    expect(executor.isActiveMarket(B.slug)).toBe(false);
  });
});

describe('executor: many joins and leaves', () => {
  it('leave no state behind: markets, tracked orders, indexes and keys fall back to the one market traded throughout', async () => {
    const { scheduler, venue, executor, fills, deliver } = await started();
    await settle(scheduler, executor.submit(A.slug, [bid('bid-0', 450)]));
    const peak = { markets: 0, orders: 0 };
    for (let i = 0; i < 30; i += 1) {
      const market = { slug: `m-${i}`, tokens: { yes: String(1000 + 2 * i), no: String(1001 + 2 * i) } };
      await settle(scheduler, executor.addMarket(market));
      await settle(scheduler, executor.submit(market.slug, [bid('bid-0', 400 + i), ask('ask-0', 600 + i)]));
      const [order] = executor.openOrders(market.slug);
      venue.fill(order!.orderId!, 1_000_000);
      deliver();
      expect(await settle(scheduler, executor.retireMarket(market.slug, { budgetMs: 5_000 }))).toEqual({ clean: true, left: 0 });
      await advance(scheduler, 1000, 100);
      const counts = executor.counts();
      peak.markets = Math.max(peak.markets, counts.markets);
      peak.orders = Math.max(peak.orders, counts.trackedOrders);
    }
    expect(fills).toHaveLength(30);
    // At most the markets left within the last RETAIN_MS are still held (one a second here).
    expect(peak.markets).toBeLessThanOrEqual(1 + Math.ceil(RETAIN_MS / 1000) + 2);
    await advance(scheduler, RETAIN_MS + RECHECK_MS, 1000);
    await flushAsync();
    expect(executor.counts()).toEqual({ markets: 1, retiredMarkets: 0, trackedOrders: 1, openOrders: 1, orderIndexMarkets: 1, marketKeys: 1 });
    expect(venue.live().map((o) => o.marketSlug)).toEqual([A.slug]);
  });
});
