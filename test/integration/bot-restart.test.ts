/**
 * Restart: a bot stopped with `shutdown.leaveOrdersResting` leaves its quotes on the book; a new Bot on the same
 * ledger and venue adopts them into their slots (same venue ids, nothing re-placed), cancels a stale duplicate of
 * its own tag and an untagged order of the account, and then manages the adopted orders like its own: a price move
 * replaces every one of them, with never two live orders in a slot.
 */
import { describe, it } from 'vitest';
import { formatClientOrderId, marketKey } from '../../src/orders/client-order-id.js';
import {
  cleanupAfterTest,
  ladderOf,
  liveOrders,
  moveBookUp,
  placeForAccount,
  sameLadder,
  startBookedSim,
  startLiveBot,
  tempDatabasePath,
  waitFor,
  watchVenue,
  when,
  type TestConfigOptions,
  unexplainedRateLimits,
} from '../support/bot-harness.js';


describe.concurrent('restart on the same ledger and venue', () => {
  it('adopts the resting orders into their slots: no duplicate, no orphan', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup);
    // Both bots run on the same config, hence the same ledger.
    const config: Omit<TestConfigOptions, 'venue'> = {
      markets: [slug],
      strategy: { levels: 2, levelSpacing: 0.01 },
      shutdown: { leaveOrdersResting: true },
      // Cancel the account's orders of other tags at start-up (the default, 'ignore', leaves them alone).
      orders: { foreignOrders: 'cancel' },
      database: tempDatabasePath(cleanup),
    };
    const ladder = {
      'ask-0': 'BUY NO 480 x 5000000',
      'ask-1': 'BUY NO 470 x 5000000',
      'bid-0': 'BUY YES 480 x 5000000',
      'bid-1': 'BUY YES 470 x 5000000',
    };

    const first = await startLiveBot(sim, cleanup, config);
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), ladder)), 10_000, 'the first bot to quote', () => ladderOf(sim, slug, 'it'));
    const idsBySlot = new Map(liveOrders(sim, slug, 'it').map(({ order, slot }) => [slot, order.id]));
    const stopped = await first.stop();
    expect(stopped.clean).toBe(true);
    expect(sameLadder(ladderOf(sim, slug, 'it'), ladder)).toBe(true);

    // While no bot runs: a stale duplicate in slot bid-0 (an older sequence of the same tag) and an order of the
    // account that is not the bot's at all.
    const staleSequence = 1_000;
    const duplicate = placeForAccount(sim, slug, 450, formatClientOrderId({ botTag: 'it', marketKey: marketKey(slug), slot: 'bid-0', sequence: staleSequence }));
    const untagged = placeForAccount(sim, slug, 440, undefined);
    const seq = sim.control.requestLog({ limit: 1 })[0]?.seq ?? 0;

    const second = await startLiveBot(sim, cleanup, config);
    await waitFor(
      () => when(sim.engine.orderById(duplicate)?.status === 'CANCELED' && sim.engine.orderById(untagged)?.status === 'CANCELED'),
      5_000,
      'the duplicate and the untagged order to be canceled',
    );
    // The same four orders, in the same slots, and nothing placed by the second bot.
    expect(new Map(liveOrders(sim, slug, 'it').map(({ order, slot }) => [slot, order.id]))).toEqual(idsBySlot);
    const sent = sim.control.requestLog({ sinceSeq: seq }).filter((e) => e.tokenId === sim.demoAccount.tokenId);
    expect(sent.filter((e) => e.method === 'POST' && e.path === '/orders')).toEqual([]);
    expect(second.bot.summary().openOrders).toBe(4);

    // The adopted orders are the second bot's own: a move replaces all four, one order per slot throughout.
    const watcher = watchVenue(cleanup, sim, [slug]);
    moveBookUp(sim, slug);
    const moved = {
      'ask-0': 'BUY NO 470 x 5000000',
      'ask-1': 'BUY NO 460 x 5000000',
      'bid-0': 'BUY YES 490 x 5000000',
      'bid-1': 'BUY YES 480 x 5000000',
    };
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), moved)), 8_000, 'the adopted orders to be replaced', () => ({ ladder: ladderOf(sim, slug, 'it'), warnings: second.warnings() }));
    for (const id of idsBySlot.values()) expect(sim.engine.orderById(id)?.status).toBe('CANCELED');
    expect(watcher.violations).toEqual([]);
    // The venue shows the new ladder as soon as the cancel-replace batch ran, a moment before the bot reads its answer.
    await waitFor(() => when(second.bot.summary().openOrders === 4), 3_000, 'the bot to track the four new orders', () => second.bot.summary());
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });
});
