/**
 * A silent order stream: the simulator stops the account's `orderEvent` pushes while the connection and the books
 * keep flowing. A fill of the bot's bid is then told by nothing but the book; the bot notices its own order missing
 * from the book, resyncs the market (live orders re-read, the vanished one looked up, the ledger caught up) and
 * quotes the slot again — in seconds, not at the periodic ledger check a minute later.
 */
import { describe, it } from 'vitest';
import {
  cleanupAfterTest,
  gaugeValue,
  ladderOf,
  startQuotingBot,
  thirdPartyPlace,
  unexplainedRateLimits,
  waitFor,
  when,
} from '../support/bot-harness.js';

describe('order events lost on an open connection', () => {
  it('a fill told only by the book: noticed, the market resynced, the fill recorded, the slot quoted again', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running, watcher } = await startQuotingBot(cleanup);
    const bidBefore = ladderOf(sim, slug, 'it')['bid-0'];
    const bidOrderId = sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE']).find((o) => o.outcome === 'YES' && o.side === 'BUY')?.id;
    expect(bidBefore).toBe('BUY YES 480 x 5000000');

    sim.control.freezeFeed('orders');
    const taker = thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 5_000_000, orderType: 'FAK' });
    expect(taker.filledSizeRaw).toBe(5_000_000);
    const takenAt = Date.now();

    await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_position_shares', { market: slug, token: 'YES' })) === 5), 15_000, 'the fill in the ledger', () => running.warnings().slice(-5));
    await waitFor(
      () => when(sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE']).some((o) => o.outcome === 'YES' && o.side === 'BUY' && o.id !== bidOrderId)),
      10_000,
      'a new bid',
      () => ladderOf(sim, slug, 'it'),
    );
    // Well before the periodic ledger check (every 60 s) could have found it.
    expect(Date.now() - takenAt).toBeLessThan(30_000);
    expect(await gaugeValue(running.bot, 'outcome_maker_order_event_gaps_total', {})).toBeGreaterThanOrEqual(1);
    expect(running.warnings()).toContain("the book shows less than the bot's own resting orders: order events missing; resyncing the market");
    expect(sim.control.requestLog().filter((e) => e.path === '/orders/status/batch').length, 'the vanished order was looked up').toBeGreaterThan(0);
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  }, 60_000);
});
