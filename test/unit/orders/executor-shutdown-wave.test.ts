/**
 * A stop in the middle of a wave of per-market cancels, at the venue's rate limit (the backtest's limiter model,
 * LatencyVenue: 2 in flight, 320 ms between starts, 40 ms each way, on the manual clock), through the executor's
 * `shutdown`: the plans' cancels still queued in the limiter are withheld as they leave (nothing sent, their orders rest
 * again), the executor does not wait for plans that have nothing out, and the sweep's cancels across markets (limiter
 * class `sweep`) start first: the first one within one request spacing of the stop, instead of after the queued plan
 * cancels (24 × 320 ms) or a third of the budget. No order is left.
 */
import { describe, expect, it } from 'vitest';
import { LIMIT_SLOT_MS, limitedExecutorHarness } from '../../support/executor-harness.js';
import { settle, until } from '../../support/fake-venue.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';

const ONE_WAY_MS = 40;
const quote = (slot: string, side: 'BUY' | 'SELL', priceTicks: number): QuoteIntent => ({ slot, token: 'YES', side, priceTicks, sizeRaw: 10_000_000, postOnly: true });
const LADDER = [quote('bid-0', 'BUY', 480), quote('ask-0', 'SELL', 520)];

async function waveOfCancels(count: number) {
  const markets = Array.from({ length: count }, (_, i) => ({ slug: `m${i}`, tokens: { yes: `${1000 + 2 * i}`, no: `${1001 + 2 * i}` } }));
  const { scheduler, fake, venue, executor } = limitedExecutorHarness({ markets }, (f) => f.offerNewCancels());
  await settle(scheduler, executor.start());
  for (const market of markets) await settle(scheduler, executor.submit(market.slug, LADDER));
  venue.begin();
  // Every market pulls its quotes at once (an empty ladder: one cancel request per market), queued in the limiter.
  const plans = markets.map((market) => executor.submit(market.slug, []));
  await until(scheduler, () => venue.queued() >= count - 2, 5_000, 1);
  return { scheduler, fake, venue, executor, markets, plans };
}

describe('executor: a stop in a wave of per-market cancels', () => {
  it('withholds the queued plan cancels; the sweep\'s first cancel leaves within one spacing; nothing is left', async () => {
    const { scheduler, fake, venue, executor, markets, plans } = await waveOfCancels(24);
    const planCancelsBefore = fake.callsOf('cancelOrders').length;
    const stoppedAt = scheduler.now();
    const report = await settle(scheduler, executor.shutdown({ budgetMs: 10_000 }), 20_000, 5);
    await settle(scheduler, Promise.all(plans));
    expect(report).toMatchObject({ clean: true, timedOut: false, marketsWithLiveOrders: [], unresolved: [] });
    for (const market of markets) expect(fake.live(market.slug), market.slug).toEqual([]);
    expect(executor.openOrders()).toEqual([]);

    const sweep = fake.callsOf('cancelAcrossMarkets');
    expect(sweep.length, 'the sweep cancels across markets, 50 ids a request').toBeGreaterThanOrEqual(1);
    const firstSweepMs = (sweep[0]?.atMs ?? Number.POSITIVE_INFINITY) - stoppedAt;
    // At most the two requests in flight at the stop hold it: one spacing, then one way to the venue.
    expect(firstSweepMs).toBeLessThanOrEqual(LIMIT_SLOT_MS + ONE_WAY_MS);
    // Of the plans' cancels, only those already in flight at the stop reached the venue; the rest were withheld.
    const planCancelsAfter = fake.callsOf('cancelOrders').length - planCancelsBefore;
    expect(planCancelsAfter).toBeLessThanOrEqual(2);
    expect(venue.withheld).toBeGreaterThanOrEqual(markets.length - 2 - planCancelsBefore);
    // The whole stop: the sweep's requests (48 orders: one request) and its confirmation, not 24 spacings.
    expect(report.durationMs).toBeLessThan(4 * LIMIT_SLOT_MS);
  });

  it('with leaveOrdersResting the plans\' cancels still go (nothing sweeps): they are waited for', async () => {
    const { scheduler, fake, executor, markets, plans } = await waveOfCancels(6);
    const report = await settle(scheduler, executor.shutdown({ budgetMs: 10_000, leaveOrdersResting: true }), 20_000, 5);
    await settle(scheduler, Promise.all(plans));
    expect(report.clean).toBe(true);
    expect(fake.callsOf('cancelAcrossMarkets')).toEqual([]);
    // Each plan's cancel went: the orders it pulled are gone, none withheld.
    for (const market of markets) expect(fake.live(market.slug), market.slug).toEqual([]);
  });
});
