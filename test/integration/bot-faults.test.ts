/**
 * Venue faults injected on the simulator (`control.failNextRequests`) while the whole bot runs:
 * - a 429 burst that outlasts the client's retries, and a 5xx burst on a cancel (the first answer, a 500, replaced AFTER
 *   the cancel took effect; two 500s retried; a closing bare 503 not retried but met with a refreshed mode): the bot recovers and quotes the book, never holds two live orders in a slot, and the simulator's own
 *   rate limiter never answered it 429 (only the injected faults did);
 * - an unknown placement (503 on POST /orders after the order took effect, then a failed status lookup): the bot
 *   cancels it by its clientOrderId (POST /orders/cancel) at once, looks it up, and only then places its slot again.
 */
import { describe, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import {
  allOrders,
  cleanupAfterTest,
  LADDER_500,
  LADDER_510,
  ladderOf,
  liveOrders,
  moveBookUp,
  sameLadder,
  startBookedSim,
  startLiveBot,
  startQuotingBot,
  waitFor,
  watchVenue,
  when,
  unexplainedRateLimits,
} from '../support/bot-harness.js';

// Short 5xx backoff so a burst plays out in a second or two (429s wait the venue's Retry-After regardless).
const FAST_RETRY = { rateLimits: { retry: { initialBackoffMs: 200, maxBackoffMs: 1000 } } };

function stats(sim: RunningSimulator) {
  return sim.control.requestStats()[sim.demoAccount.tokenId] ?? { requests: 0, rateLimited: 0, injected: 0, errors: 0 };
}

describe.concurrent('venue faults', () => {
  it('a 429 burst longer than the retries: the bot recovers, one order per slot, zero 429s from the rate limiter', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running, watcher } = await startQuotingBot(cleanup, FAST_RETRY);
    const idsBefore = liveOrders(sim, slug, 'it').map(({ order }) => order.id);
    sim.control.failNextRequests({ status: 429, count: 4, pathPrefix: '/orders', retryAfterSeconds: 1 });
    moveBookUp(sim, slug);

    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510)), 12_000, 'recovery from the 429 burst', () => ({ ladder: ladderOf(sim, slug, 'it'), warnings: running.warnings().slice(-5) }));
    expect(sim.control.pendingFaults()).toEqual([]);
    expect(stats(sim).injected).toBe(4);
    expect(unexplainedRateLimits(sim)).toEqual([]);
    for (const id of idsBefore) expect(sim.engine.orderById(id)?.status).toBe('CANCELED');
    // Two placements for the move, none for the refused attempts.
    expect(allOrders(sim, slug)).toHaveLength(4);
    expect(watcher.violations).toEqual([]);
  });

  // A cancel is asked twice safely, so a 500 on it is retried by the transport (backoff); a bare 503 is not (the venue's
  // API reference: a 503 may be its maintenance refusal, to be met with a refreshed mode, never a tight retry): the mode
  // is refreshed at once, found normal, and the cancel's outcome is unknown: the order manager resolves it.
  it('a 5xx burst on the cancels (the first one took effect): 500s retried, the closing 503 refreshes the mode; the bot resolves it and requotes, one order per slot', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    // The plain path (cancel batch, then placements); a cancel-replace batch without an answer: bot-cancel-replace.test.ts.
    const { sim, slug, running, watcher } = await startQuotingBot(cleanup, { ...FAST_RETRY, orders: { cancelReplace: { enabled: false } } });
    const idsBefore = liveOrders(sim, slug, 'it').map(({ order }) => order.id);
    const since = sim.control.requestLog().at(-1)?.seq ?? 0;
    // The first cancel takes effect and its answer is a 500; the two retries get 500s, the third a bare 503.
    sim.control.failNextRequests({ status: 500, count: 1, pathPrefix: '/orders/batch-cancel', phase: 'after' });
    sim.control.failNextRequests({ status: 500, count: 2, pathPrefix: '/orders/batch-cancel' });
    sim.control.failNextRequests({ status: 503, count: 1, pathPrefix: '/orders/batch-cancel' });
    moveBookUp(sim, slug);

    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510)), 15_000, 'recovery from the 5xx burst', () => ({ ladder: ladderOf(sim, slug, 'it'), warnings: running.warnings().slice(-5) }));
    expect(sim.control.pendingFaults()).toEqual([]);
    expect(stats(sim).injected).toBe(4);
    expect(unexplainedRateLimits(sim)).toEqual([]);
    // Without the 429s: each is explained by a stall of this loop (the simulator stamped the previous start late;
    // checked just above), and a refused request consumed no injected fault.
    const log = sim.control.requestLog({ sinceSeq: since }).filter((e) => (e.tokenId === sim.demoAccount.tokenId || e.path === '/maintenance/status') && e.status !== 429);
    const cancels = log.filter((e) => e.path === '/orders/batch-cancel').map((e) => e.status);
    // Three 500s then the 503, and no cancel re-sent at once after it: the next request of the bot reads the mode.
    expect(cancels.slice(0, 4)).toEqual([500, 500, 500, 503]);
    const after503 = log.findIndex((e) => e.path === '/orders/batch-cancel' && e.status === 503);
    expect(log.slice(after503 + 1).find((e) => e.path !== '/orders/batch-cancel' || e.status !== 503)?.path).toBe('/maintenance/status');
    for (const id of idsBefore) expect(sim.engine.orderById(id)?.status).toBe('CANCELED');
    // No orphan: two placements for the move, and the bot tracks exactly the two orders that rest.
    expect(allOrders(sim, slug)).toHaveLength(4);
    await waitFor(() => when(running.bot.summary().openOrders === 2), 3_000, 'the bot to track both orders');
    expect(liveOrders(sim, slug, 'it')).toHaveLength(2);
    expect(watcher.violations).toEqual([]);
  });

  it('an unknown placement (503 after it took effect) is canceled by its clientOrderId, then looked up: never a second order in its slot, no orphan', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug } = await startBookedSim(cleanup);
    const watcher = watchVenue(cleanup, sim, [slug]);
    // The bot's first trading request is its first placement: it takes effect, the answer is a 503 (the mode, read at
    // once, is normal: a lost answer). The first status lookup that follows fails too. Every socket push is held back,
    // so the order's own frames cannot resolve it: only the venue's answers to the bot's requests can.
    sim.control.freezeFeed('all');
    sim.control.failNextRequests({ status: 503, count: 1, pathPrefix: '/orders', phase: 'after' });
    sim.control.failNextRequests({ status: 503, count: 1, pathPrefix: '/orders/status' });
    // The single-placement path (POST /orders): placements as cancel-replace operations are off.
    const running = await startLiveBot(sim, cleanup, { markets: [slug], orders: { batchPlacements: 'off' } });
    const botLog = () => sim.control.requestLog().filter((e) => e.tokenId === sim.demoAccount.tokenId);
    const firstPlaced = () => sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED']).at(-1);

    // The unknown order is canceled by its clientOrderId (POST /orders/cancel), looked up (the first lookup fails, the
    // bot retries) and found canceled; its slot is placed again.
    await waitFor(
      () => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_500) && allOrders(sim, slug).length === 3 && botLog().some((e) => e.path === '/orders/status/batch' && e.status === 200)),
      12_000,
      'the unknown order canceled and its slot placed again',
      () => ({ ladder: ladderOf(sim, slug, 'it'), log: botLog().slice(-8), warnings: running.warnings() }),
    );
    sim.control.unfreezeFeed();
    expect(sim.control.pendingFaults()).toEqual([]);
    const log = botLog();
    // A 429 the simulator's stalled loop stamped (retried by the client) is no answer of the venue's to the placement:
    // it is left out here, and `unexplainedRateLimits` below checks that none was the bot's doing.
    const answered = (method: string, path: string): number[] => log.filter((e) => e.method === method && e.path === path && e.status !== 429).map((e) => e.status);
    expect(answered('POST', '/orders')).toEqual([503, 201, 201]);
    expect(answered('POST', '/orders/cancel')).toEqual([200]);
    expect(answered('POST', '/orders/status/batch').slice(0, 2)).toEqual([503, 200]);
    // The cancel went before the slot was placed again, and the first order is the one it canceled.
    const seqOf = (path: string, nth: number) => log.filter((e) => e.method === 'POST' && e.path === path && e.status !== 429)[nth]?.seq ?? Number.NaN;
    expect(seqOf('/orders/cancel', 0)).toBeLessThan(seqOf('/orders', 2));
    expect(firstPlaced()?.status).toBe('CANCELED');
    expect(running.logs.some((line) => line.includes('placement outcome unknown'))).toBe(true);
    expect(running.logs.some((line) => line.includes('unknown placement canceled by its clientOrderId'))).toBe(true);
    // Two slots, two live orders, both tracked: nothing orphaned.
    await waitFor(() => when(running.bot.summary().openOrders === 2), 3_000, 'the bot to track both orders');
    expect(liveOrders(sim, slug, 'it')).toHaveLength(2);

    // And it goes on like any other: a move replaces both (one order per slot throughout).
    moveBookUp(sim, slug);
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510)), 8_000, 'the requote', () => ladderOf(sim, slug, 'it'));
    expect(allOrders(sim, slug)).toHaveLength(5);
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });
});
