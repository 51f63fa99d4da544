/**
 * Issue 13 against the simulator, the whole bot: an order frame the bot cannot read is a gap in the account's order
 * stream (the market is resynced and the ledger caught up at once, counted by cause), and a socket `exception`
 * refusing the authentication halts every market (its orders canceled) until a reconnection with freshly signed
 * headers is accepted, then quoting resumes.
 */
import { describe, it } from 'vitest';
import {
  cleanupAfterTest,
  gaugeValue,
  ladderOf,
  LADDER_500,
  sameLadder,
  startQuotingBot,
  thirdPartyPlace,
  waitFor,
  when,
} from '../support/bot-harness.js';

describe('order-event gaps and socket authentication', () => {
  it('an unreadable order frame resyncs its market: the fill it hid reaches the ledger', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running } = await startQuotingBot(cleanup);
    sim.control.freezeFeed('orders');
    const taker = thirdPartyPlace(sim, slug, { outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 5_000_000, orderType: 'FAK' });
    expect(taker.filledSizeRaw).toBe(5_000_000);
    // The frame that should have told the fill, mangled: it fails validation (makerMatches is not a list).
    const reached = sim.control.injectFrame({
      kind: 'custom',
      marketSlug: slug,
      event: 'orderEvent',
      payload: { source: 'SETTLEMENT', type: 'MATCHED', eventId: 'settlement:lost-1', marketSlug: slug, makerMatches: 'garbage', timestamp: Date.now() },
    });
    expect(reached).toBe(1);
    await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_order_event_gaps_total', { cause: 'unreadable' })) === 1), 5_000, 'the gap counted');
    await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_position_shares', { market: slug, token: 'YES' })) === 5), 15_000, 'the fill in the ledger', () => running.warnings().slice(-5));
    expect(running.warnings()).toContain('order event lost or unreadable: resyncing and catching the ledger up');
    expect(sim.control.requestLog().filter((e) => e.path === '/orders/status/batch').length, 'the vanished order was looked up').toBeGreaterThan(0);
  }, 60_000);

  it('an authentication exception halts quoting and cancels; a fresh handshake is accepted and quoting resumes', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running, watcher } = await startQuotingBot(cleanup);
    const samplesBefore = watcher.samples.length;
    const connectsBefore = sim.control.state().socketConnections;
    expect(connectsBefore).toBe(1);
    sim.control.injectFrame({ kind: 'custom', marketSlug: slug, event: 'exception', payload: { status: 'error', message: 'Authentication failed: Invalid signature' } });
    await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_feed_auth_failures_total', {})) === 1), 5_000, 'the refusal counted');
    // Every order canceled while the account's order events could not be trusted...
    await waitFor(() => when(watcher.samples.slice(samplesBefore).some((s) => (s.live.get(slug) ?? []).length === 0)), 10_000, 'the ladder canceled', () => ladderOf(sim, slug, 'it'));
    expect(running.warnings()).toContain('feed authentication refused: no order events can arrive; every market halted and its orders canceled');
    // ...and the ladder back once the reconnection (fresh headers) is accepted.
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_500)), 15_000, 'the ladder again', () => ({ ladder: ladderOf(sim, slug, 'it'), warnings: running.warnings().slice(-5) }));
    expect(running.warnings()).toContain('feed authenticated again: quoting resumes');
    expect(sim.control.state().socketConnections).toBe(1);
    expect(watcher.violations).toEqual([]);
  }, 60_000);
});
