/**
 * The executor behind the cross-market batcher (src/orders/cross-market-venue.ts) on the fake venue: several markets'
 * first quotes and requotes share one cancel-replace request (placements as operations whose cancel half names the new
 * order's own clientOrderId), a venue refusing to mix markets gets one market per request, a venue refusing placement
 * operations (a 400, or NOT_ATTEMPTED) gets POST /orders from then on, and an unknown batch placement is looked up by
 * clientOrderId — with at most one live order per slot throughout.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { ClientOrderIdFactory, parseClientOrderId } from '../../../src/orders/client-order-id.js';
import { CrossMarketVenue } from '../../../src/orders/cross-market-venue.js';
import { OrderExecutor, type ExecutorOptions, type PlanOutcome } from '../../../src/orders/executor.js';
import { TradingModeGate } from '../../../src/orders/trading-mode.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { FakeCrossMarketVenue } from '../../support/fake-cross-market-venue.js';
import { flushAsync, settle, until } from '../../support/fake-venue.js';

const MARKETS = ['btc-above-90k', 'btc-above-91k', 'eth-above-3k'] as const;
const T0 = 1_700_000_000_000;
const quote = (base: number): QuoteIntent[] => [
  { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: base - 10, sizeRaw: 10_000_000, postOnly: true },
  { slot: 'ask-0', token: 'NO', side: 'BUY', priceTicks: 1000 - base - 10, sizeRaw: 10_000_000, postOnly: true },
];

async function started(options: Partial<ExecutorOptions> = {}, configure: (venue: FakeCrossMarketVenue) => void = () => undefined) {
  const scheduler = new ManualClock(T0);
  const venue = new FakeCrossMarketVenue(() => scheduler.now());
  configure(venue);
  const events = { mixed: 0, placementsRefused: [] as string[], warnings: [] as string[] };
  const port = new CrossMarketVenue(venue, { onMixedMarketsRefused: () => (events.mixed += 1) });
  const executor = new OrderExecutor({
    venue: port,
    scheduler,
    modeGate: new TradingModeGate({ scheduler, pollIntervalMs: 30_000, fetchStatus: () => venue.maintenanceStatus() }),
    ids: new ClientOrderIdFactory('mm1', () => scheduler.now()),
    markets: MARKETS.map((slug, i) => ({ slug, tokens: { yes: `${i}1`, no: `${i}2` } })),
    onFill: () => undefined,
    log: { info: () => undefined, warn: (_o, msg) => events.warnings.push(msg), error: () => undefined },
    observer: { onBatchPlacementsRefused: (slug) => events.placementsRefused.push(slug) },
    unknownOrders: { initialBackoffMs: 500, maxBackoffMs: 4000, notFoundLimit: 3, notFoundGraceMs: 5000 },
    ...options,
  });
  await settle(scheduler, executor.start());
  /** Submits every market's intents while the venue holds the first request, then lets it go. */
  const all = async (base: number): Promise<PlanOutcome[]> => {
    const hold = venue.hold('cancelReplace');
    const outcomes = MARKETS.map((slug) => executor.submit(slug, quote(base)));
    await flushAsync(6);
    hold.release();
    return settle(scheduler, Promise.all(outcomes));
  };
  /** Live orders per (market, slot) at the venue: never more than one. */
  const perSlot = (): number[] => {
    const counts = new Map<string, number>();
    for (const o of venue.live()) {
      const key = `${o.marketSlug}/${parseClientOrderId(o.clientOrderId ?? '').slot}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts.values()];
  };
  const prices = (): number[][] => MARKETS.map((slug) => venue.live(slug).map((o) => o.priceTicks).sort((a, b) => a - b));
  return { scheduler, venue, port, executor, all, perSlot, prices, events };
}

describe('executor behind the cross-market batcher', () => {
  it("several markets' first quotes go in ONE cancel-replace request of placement operations: no POST /orders", async () => {
    const ctx = await started();
    const outcomes = await ctx.all(500);
    expect(ctx.venue.requests).toEqual([{ markets: [...MARKETS], operations: 6, placements: 6 }]);
    expect(ctx.venue.callsOf('placeOrder')).toEqual([]);
    expect(outcomes.map((o) => o.status === 'executed' && o.placed.length)).toEqual([2, 2, 2]);
    expect(ctx.prices()).toEqual([[490, 490], [490, 490], [490, 490]]);
    expect(ctx.perSlot()).toEqual([1, 1, 1, 1, 1, 1]);
    for (const order of ctx.executor.openOrders()) expect(order.state).toBe('live');
  });

  it("several markets' requotes go in ONE request; every old order canceled, every new one live", async () => {
    const ctx = await started();
    await ctx.all(500);
    const before = ctx.executor.openOrders().map((o) => o.clientOrderId);
    const outcomes = await ctx.all(520);
    expect(ctx.venue.requests.slice(1)).toEqual([{ markets: [...MARKETS], operations: 6, placements: 0 }]);
    expect(outcomes.map((o) => o.status === 'executed' && [o.placed.length, o.canceled.length])).toEqual([
      [2, 2],
      [2, 2],
      [2, 2],
    ]);
    for (const id of before) expect(ctx.executor.order(id)?.state).toBe('canceled');
    expect(ctx.prices()).toEqual([[470, 510], [470, 510], [470, 510]]);
    expect(ctx.perSlot()).toEqual([1, 1, 1, 1, 1, 1]);
    expect(ctx.venue.callsOf('cancelOrders')).toEqual([]);
  });

  it('a venue refusing several markets in one request (400): the same operations go one market per request, from then on', async () => {
    const ctx = await started({}, (venue) => (venue.refuseMixedMarkets = true));
    await ctx.all(500);
    await ctx.all(520);
    expect(ctx.venue.requests.map((r) => r.markets.length)).toEqual([3, 1, 1, 1, 1, 1, 1]);
    expect(ctx.events.mixed).toBe(1);
    expect(ctx.port.mixesMarkets).toBe(false);
    expect(ctx.prices()).toEqual([[470, 510], [470, 510], [470, 510]]);
    expect(ctx.perSlot()).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('a venue answering placement operations with a 400: POST /orders for good (reported once), the slots quoted in the same run', async () => {
    const ctx = await started({}, (venue) => (venue.refusePlacementItems = true));
    const outcomes = await ctx.all(500);
    expect(outcomes.map((o) => o.status === 'executed' && [o.placed.length, o.rejected.length])).toEqual([
      [2, 0],
      [2, 0],
      [2, 0],
    ]);
    expect(ctx.events.placementsRefused).toHaveLength(1);
    expect(ctx.venue.callsOf('placeOrder')).toHaveLength(6);
    expect(ctx.prices()).toEqual([[490, 490], [490, 490], [490, 490]]);
    // A slot emptied later is placed by POST /orders at once; replacements still go by cancel-replace.
    const sent = ctx.venue.requests.length;
    await ctx.all(520);
    expect(ctx.venue.requests.slice(sent)).toEqual([{ markets: [...MARKETS], operations: 6, placements: 0 }]);
    expect(ctx.venue.callsOf('placeOrder')).toHaveLength(6);
    expect(ctx.perSlot()).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('a venue leaving placement operations NOT_ATTEMPTED: they never existed, POST /orders in the same run and from then on', async () => {
    const ctx = await started({}, (venue) => (venue.placementItemsNotAttempted = true));
    await ctx.all(500);
    expect(ctx.venue.requests).toEqual([{ markets: [...MARKETS], operations: 6, placements: 6 }]);
    expect(ctx.events.placementsRefused).toHaveLength(1);
    expect(ctx.venue.callsOf('placeOrder')).toHaveLength(6);
    expect(ctx.executor.openOrders().map((o) => o.state)).toEqual(Array.from({ length: 6 }, () => 'live'));
    expect(ctx.prices()).toEqual([[490, 490], [490, 490], [490, 490]]);
    expect(ctx.perSlot()).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('a batch placement without an answer is unknown, looked up by clientOrderId, and its slot is not placed again meanwhile', async () => {
    const ctx = await started({}, (venue) => venue.failNext('cancelReplace', { kind: 'unknown', applied: true }));
    const outcomes = await ctx.all(500);
    expect(outcomes.map((o) => o.status === 'executed' && o.unknown.length)).toEqual([2, 2, 2]);
    await until(ctx.scheduler, () => ctx.executor.openOrders().every((o) => o.state === 'live'), 10_000);
    expect(ctx.venue.callsOf('statusBatch').length).toBeGreaterThan(0);
    expect(ctx.venue.callsOf('placeOrder')).toEqual([]);
    expect(ctx.perSlot()).toEqual([1, 1, 1, 1, 1, 1]);
    expect(ctx.executor.openOrders()).toHaveLength(6);
  });

  it('orders.batchPlacements: off keeps one POST /orders per placement behind the batcher', async () => {
    const ctx = await started({ batchPlacements: 'off' });
    await ctx.all(500);
    expect(ctx.venue.callsOf('placeOrder')).toHaveLength(6);
    expect(ctx.venue.requests).toEqual([]);
  });
});
