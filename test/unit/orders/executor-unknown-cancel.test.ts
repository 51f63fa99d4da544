/**
 * The venue's newer cancel endpoints through the order manager (a fake venue offering `cancelByClientOrderId` and
 * `cancelAcrossMarkets`):
 * - a placement whose answer was lost is canceled by its clientOrderId at once (not waited for), then looked up: the
 *   order the venue held ends canceled and its slot is placed again; a cancel the venue refuses as "not found" proves
 *   nothing (the order may still be on its way) and the order stays unknown for the lookups and their grace;
 * - a stop of many markets cancels by id across markets: one request per 50 orders, at the venue's rate limit.
 */
import { describe, expect, it } from 'vitest';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { executorHarness, LIMIT_SLOT_MS as SLOT_MS, limitedExecutorHarness } from '../../support/executor-harness.js';
import { advance, settle, until } from '../../support/fake-venue.js';

const SLUG = 'will-it-rain';
const quote = (slot: string, side: 'BUY' | 'SELL', priceTicks: number): QuoteIntent => ({ slot, token: 'YES', side, priceTicks, sizeRaw: 10_000_000, postOnly: true });

async function started() {
  const h = executorHarness({ markets: [{ slug: SLUG, tokens: { yes: '111', no: '222' } }] });
  h.venue.offerNewCancels();
  await settle(h.scheduler, h.executor.start());
  return h;
}

describe('executor: an unknown placement is canceled by its clientOrderId', () => {
  it('the venue held it: canceled at once, looked up, and its slot placed again (one order per slot throughout)', async () => {
    const { venue, scheduler, executor } = await started();
    venue.failNextPlace({ kind: 'unknown', applied: true });
    const outcome = await settle(scheduler, executor.submit(SLUG, [quote('bid-0', 'BUY', 500)]));
    expect(outcome.status === 'executed' && outcome.unknown).toHaveLength(1);
    const first = venue.calls.find((c) => c.op === 'placeOrder')!.detail.split(' ')[0]!;
    // The cancel by clientOrderId went in the same plan, before any lookup.
    const ops = venue.calls.map((c) => c.op).filter((op) => op !== 'maintenanceStatus' && op !== 'listLiveOrders');
    expect(ops.slice(0, 3)).toEqual(['placeOrder', 'cancelByClientOrderId', 'statusBatch']);
    expect(venue.callsOf('cancelByClientOrderId')[0]?.detail).toBe(`${SLUG} ${first}`);
    expect(venue.byClientOrderId(first)?.status).toBe('CANCELED');
    expect(executor.order(first)?.state).toBe('canceled');
    // The slot is free: the latest intents are re-run by themselves with a new order.
    await until(scheduler, () => venue.live(SLUG).length === 1);
    expect(venue.live(SLUG)[0]?.clientOrderId).not.toBe(first);
    expect(venue.callsOf('placeOrder')).toHaveLength(2);
  });

  it('the venue did not hold it ("not found"): no conclusion from the cancel; the lookups and their grace end it', async () => {
    const { venue, scheduler, executor } = await started();
    venue.failNextPlace({ kind: 'unknown', applied: false });
    await settle(scheduler, executor.submit(SLUG, [quote('bid-0', 'BUY', 500)]));
    const [unknown] = executor.openOrders(SLUG);
    expect(venue.callsOf('cancelByClientOrderId')).toHaveLength(1);
    expect(unknown?.state).toBe('unknown');
    await advance(scheduler, 2000);
    expect(executor.order(unknown!.clientOrderId)?.state).toBe('unknown');
    await until(scheduler, () => executor.order(unknown!.clientOrderId)?.state === 'rejected');
    expect(executor.order(unknown!.clientOrderId)).toMatchObject({ lost: 'not-found-after-grace' });
    // One cancel by clientOrderId, never a loop of them.
    expect(venue.callsOf('cancelByClientOrderId')).toHaveLength(1);
  });
});

describe('executor: a stop cancels across markets', () => {
  it('30 markets, 60 orders: two batch-cancel requests (50 ids each at most), no listing, every order gone', async () => {
    const markets = Array.from({ length: 30 }, (_, i) => ({ slug: `m${i}`, tokens: { yes: `${1000 + 2 * i}`, no: `${1001 + 2 * i}` } }));
    const { scheduler, fake, venue, executor } = limitedExecutorHarness({ markets }, (f) => f.offerNewCancels());
    await settle(scheduler, executor.start());
    for (const market of markets) await settle(scheduler, executor.submit(market.slug, [quote('bid-0', 'BUY', 480), quote('ask-0', 'SELL', 520)]));
    venue.begin();
    expect(executor.openOrders()).toHaveLength(60);
    const listingsBefore = fake.callsOf('listLiveOrders').length;
    const report = await settle(scheduler, executor.shutdown({ budgetMs: 10_000 }), 20_000);
    expect(report).toMatchObject({ clean: true, timedOut: false, marketsWithLiveOrders: [], unresolved: [] });
    for (const market of markets) expect(fake.live(market.slug), market.slug).toEqual([]);
    expect(fake.callsOf('cancelOrders')).toEqual([]);
    expect(fake.callsOf('cancelAcrossMarkets').map((c) => c.detail.split(/[,;]/).length)).toEqual([50, 10]);
    expect(venue.requests).toBe(2);
    expect(fake.callsOf('listLiveOrders')).toHaveLength(listingsBefore);
    // Two requests at the rate limit, against one per market (30 × 320 ms) before.
    expect(report.durationMs).toBeLessThanOrEqual(2 * SLOT_MS + 200);
  });
});
