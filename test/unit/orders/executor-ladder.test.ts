/**
 * A ladder of many markets behind the cross-market batcher (src/orders/cross-market-venue.ts) on the fake venue: one
 * move of every market costs ceil(operations / 50) requests, the strikes near the money go in the first; an order the
 * feed reports filled before the answer to its cancel-replace needs no status lookup; a slot emptied by a fill is
 * placed in the same request as the market's replacements, not one round trip later.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { ClientOrderIdFactory, parseClientOrderId } from '../../../src/orders/client-order-id.js';
import { CrossMarketVenue } from '../../../src/orders/cross-market-venue.js';
import { OrderExecutor, type PlanOutcome } from '../../../src/orders/executor.js';
import { TradingModeGate } from '../../../src/orders/trading-mode.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { FakeCrossMarketVenue } from '../../support/fake-cross-market-venue.js';
import { flushAsync, settle } from '../../support/fake-venue.js';

const T0 = 1_700_000_000_000;

/** One level a side around `fair` (ticks): a YES bid and a NO bid, 10 shares each. */
const quote = (fair: number): QuoteIntent[] => [
  { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: fair - 10, sizeRaw: 10_000_000, postOnly: true },
  { slot: 'ask-0', token: 'NO', side: 'BUY', priceTicks: 1000 - fair - 10, sizeRaw: 10_000_000, postOnly: true },
];

async function ladder(count: number) {
  const scheduler = new ManualClock(T0);
  const venue = new FakeCrossMarketVenue(() => scheduler.now());
  const markets = Array.from({ length: count }, (_, i) => `btc-above-${90_000 + i * 100}`);
  const executor = new OrderExecutor({
    venue: new CrossMarketVenue(venue),
    scheduler,
    modeGate: new TradingModeGate({ scheduler, pollIntervalMs: 30_000, fetchStatus: () => venue.maintenanceStatus() }),
    ids: new ClientOrderIdFactory('mm1', () => scheduler.now()),
    markets: markets.map((slug, i) => ({ slug, tokens: { yes: `${i}1`, no: `${i}2` } })),
    onFill: () => undefined,
    // No cool-off after a fill: a slot emptied by a fill is quoted again at once (as the ladder bench runs).
    reconcile: { coolOffMs: 0 },
  });
  await settle(scheduler, executor.start());
  const feed = (): void => {
    for (const event of venue.takeEvents()) executor.onOrderEvent(event);
  };
  /** Every market's intents submitted while the venue holds the first request (as a busy limiter would), then let go. */
  const move = async (fairOf: (slug: string, index: number) => number): Promise<PlanOutcome[]> => {
    const hold = venue.hold('cancelReplace');
    const outcomes = markets.map((slug, i) => executor.submit(slug, quote(fairOf(slug, i))));
    await flushAsync(6);
    hold.release();
    const done = await settle(scheduler, Promise.all(outcomes));
    feed();
    return done;
  };
  const perSlot = (): number[] => {
    const counts = new Map<string, number>();
    for (const o of venue.live()) {
      const key = `${o.marketSlug}/${parseClientOrderId(o.clientOrderId ?? '').slot}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts.values()];
  };
  return { scheduler, venue, executor, markets, move, feed, perSlot };
}

describe('a ladder behind the cross-market batcher', () => {
  it.each([
    [10, 20, [20]],
    [25, 50, [50]],
    [26, 52, [50, 2]],
    [40, 80, [50, 30]],
  ])('one move across %i markets (%i operations) costs ceil(operations / 50) requests: %j', async (count, operations, perRequest) => {
    const ctx = await ladder(count);
    await ctx.move(() => 500);
    expect(ctx.venue.requests.map((r) => r.operations)).toEqual(perRequest);
    const sent = ctx.venue.requests.length;
    const outcomes = await ctx.move(() => 520);
    const requests = ctx.venue.requests.slice(sent);
    expect(requests).toHaveLength(Math.ceil(operations / 50));
    expect(requests.map((r) => r.operations)).toEqual(perRequest);
    expect(requests.every((r) => r.placements === 0)).toBe(true);
    expect(outcomes.every((o) => o.status === 'executed' && o.placed.length === 2 && o.canceled.length === 2)).toBe(true);
    expect(ctx.venue.callsOf('placeOrder')).toEqual([]);
    expect(ctx.venue.callsOf('cancelOrders')).toEqual([]);
    expect(ctx.perSlot()).toEqual(Array.from({ length: operations }, () => 1));
  });

  it('the strikes near the money go in the first request of a move, the far ones after', async () => {
    // 30 markets: the first 5 far out of the money (fair 0.10), the other 25 near it (fair 0.50).
    const ctx = await ladder(30);
    const fair = (index: number): number => (index < 5 ? 100 : 500);
    await ctx.move((_slug, i) => fair(i));
    const sent = ctx.venue.requests.length;
    await ctx.move((_slug, i) => fair(i) + 20);
    const [first, second] = ctx.venue.requests.slice(sent);
    expect(first?.operations).toBe(50);
    expect(new Set(first?.markets)).toEqual(new Set(ctx.markets.slice(5)));
    expect(second?.markets).toEqual(ctx.markets.slice(0, 5));
  });

  it('an order the feed reports filled before its cancel-replace is answered needs no status lookup; its slot is placed again', async () => {
    const ctx = await ladder(1);
    await ctx.move(() => 500);
    const slug = ctx.markets[0] ?? '';
    const bid = ctx.executor.openOrders().find((o) => o.slot === 'bid-0');
    expect(bid?.orderId).toBeTruthy();
    const hold = ctx.venue.hold('cancelReplace');
    const outcome = ctx.executor.submit(slug, quote(520));
    await flushAsync(6);
    // The bid fills while the requote waits for the limiter; the feed reports it before the answer.
    ctx.venue.fill(bid?.orderId ?? '', 10_000_000);
    ctx.feed();
    expect(ctx.executor.order(bid?.clientOrderId ?? '')?.state).toBe('filled');
    hold.release();
    await settle(ctx.scheduler, outcome);
    // Intents issued after the fill (reconcile holds a slot filled since its quote was made) place it again.
    ctx.scheduler.advance(100);
    await settle(ctx.scheduler, ctx.executor.submit(slug, quote(520)));
    expect(ctx.venue.callsOf('statusBatch')).toEqual([]);
    expect(ctx.venue.live(slug).map((o) => o.priceTicks).sort((a, b) => a - b)).toEqual([470, 510]);
    expect(ctx.perSlot()).toEqual([1, 1]);
  });

  it('a slot emptied by a fill is placed in the same request as the market’s replacements', async () => {
    const ctx = await ladder(1);
    await ctx.move(() => 500);
    const ask = ctx.executor.openOrders().find((o) => o.slot === 'ask-0');
    ctx.venue.fill(ask?.orderId ?? '', 10_000_000);
    ctx.feed();
    // The next intents are issued after the fill (reconcile holds a slot filled since its quote was made).
    ctx.scheduler.advance(100);
    const sent = ctx.venue.requests.length;
    const [outcome] = await ctx.move(() => 520);
    expect(ctx.venue.requests.slice(sent)).toEqual([{ markets: ctx.markets, operations: 2, placements: 1 }]);
    expect(outcome?.status === 'executed' && [outcome.placed.length, outcome.canceled.length]).toEqual([2, 1]);
    expect(ctx.venue.live().map((o) => o.priceTicks).sort((a, b) => a - b)).toEqual([470, 510]);
    expect(ctx.perSlot()).toEqual([1, 1]);
  });
});
