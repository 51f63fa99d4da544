/**
 * The venue's API reference ("Maintenance mode"): in `cancel_only` or `disabled` mode POST /orders answers 503, and
 * clients refresh the maintenance status instead of retrying. The simulator answers so by default
 * (`placementModeRefusal: 503`, a body without the mode). The bot here polls the status only every 60 s, so the 503
 * is how it meets the mode: it must refresh the status at once, take the 503 as the refusal it is (the order was not
 * accepted: no status lookup), send no placement again until the mode ends, and quote again once it has. The same for
 * a 503 of a cancel-replace batch (injected: the simulator refuses its placements per operation).
 */
import { describe, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { cleanupAfterTest, gaugeValue, LADDER_510, ladderOf, liveOrders, moveBookUp, sameLadder, setThirdPartyQuotes, startQuotingBot, unexplainedRateLimits, waitFor, when } from '../support/bot-harness.js';

/** Requests of the bot's token after `sinceSeq` (with `publicToo`, the unsigned ones as well: the bot is the only client). */
function requestsSince(sim: RunningSimulator, sinceSeq: number, publicToo = false) {
  return sim.control.requestLog({ sinceSeq }).filter((e) => e.tokenId === sim.demoAccount.tokenId || (publicToo && e.tokenId === null));
}

const lastSeq = (sim: RunningSimulator): number => sim.control.requestLog({ limit: 1 })[0]?.seq ?? 0;

/**
 * The bot reads the mode twice at start (the executor's start, then the poll's first read, which may come after the
 * first quotes): the mode is set only after both, so the 503 is how the bot meets it, not that read.
 */
const startupModeReads = (sim: RunningSimulator) =>
  waitFor(() => when(sim.control.requestLog().filter((e) => e.path === '/maintenance/status').length >= 2), 5_000, "the bot's start-up mode reads");

describe('a 503 of POST /orders in cancel_only', () => {
  it('refreshes the mode at once, sends no retried placement and no lookup, and quotes again after the mode ends', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    // One POST /orders per placement (no cancel-replace), and a maintenance poll too slow to see the mode first.
    const { sim, slug, running, watcher } = await startQuotingBot(cleanup, { orders: { cancelReplace: { enabled: false }, batchPlacements: 'off' }, maintenance: { pollIntervalSec: 60 } });
    expect(sim.control.settings().placementModeRefusal).toBe('503');
    await startupModeReads(sim);
    const since = lastSeq(sim);
    const resumeAtMs = Date.now() + 6_000;
    sim.control.setTradingMode({ mode: 'cancel_only', resumeAtMs });

    moveBookUp(sim, slug);
    await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_trading_mode', { mode: 'cancel_only' })) === 1), 8_000, 'the bot to learn cancel_only from the 503');
    // Give the bot its chances to misbehave: another book move while the mode lasts.
    setThirdPartyQuotes(sim, slug, { bidTicks: 471 });
    await waitFor(() => when(Date.now() >= resumeAtMs), resumeAtMs - Date.now() + 1_000, 'the end of the window');
    const inWindow = requestsSince(sim, since).filter((e) => e.atMs < resumeAtMs);
    const placements = inWindow.filter((e) => e.method === 'POST' && e.path === '/orders');
    // The first placement met the 503; none was sent again while the mode lasted.
    expect(placements.map((e) => e.status)).toEqual([503]);
    // The status was asked at once after the 503, and the refused order was not looked up (it was not accepted).
    const refused = placements[0]!;
    const refresh = requestsSince(sim, since, true).find((e) => e.seq > refused.seq && e.method === 'GET' && e.path === '/maintenance/status');
    expect(refresh === undefined ? null : refresh.atMs - refused.atMs).toBeLessThan(1_000);
    expect(inWindow.filter((e) => e.path === '/orders/status/batch')).toEqual([]);

    // The mode ends by itself at resumeAt (the gate re-asks then): the bot quotes the new book.
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510) || liveOrders(sim, slug, 'it').length === 2), 10_000, 'quoting after cancel_only', () => ladderOf(sim, slug, 'it'));
    expect(requestsSince(sim, since).filter((e) => e.atMs >= resumeAtMs && e.status >= 500)).toEqual([]);
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });
});

describe('a 503 of a cancel-replace batch in cancel_only', () => {
  // The venue's API reference documents the 503 for POST /orders; whether its cancel-replace answers so is not shown.
  // The simulator refuses a cancel-replace's placements per operation in cancel_only, so the 503 is injected here: the
  // bot must read it as it reads a placement's (the mode refreshed at once; a refusal, nothing accepted).
  it('refreshes the mode at once, sends no retried placement, no lookup and no cancel by clientOrderId, and quotes again after the mode ends', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running, watcher } = await startQuotingBot(cleanup, { orders: { cancelReplace: { enabled: true } }, maintenance: { pollIntervalSec: 60 } });
    await startupModeReads(sim);
    const since = lastSeq(sim);
    const resumeAtMs = Date.now() + 6_000;
    sim.control.setTradingMode({ mode: 'cancel_only', resumeAtMs });
    sim.control.failNextRequests({ status: 503, count: 1, pathPrefix: '/orders/cancel-replace' });

    moveBookUp(sim, slug);
    await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_trading_mode', { mode: 'cancel_only' })) === 1), 8_000, 'the bot to learn cancel_only from the 503');
    setThirdPartyQuotes(sim, slug, { bidTicks: 471 });
    await waitFor(() => when(Date.now() >= resumeAtMs), resumeAtMs - Date.now() + 1_000, 'the end of the window');
    const inWindow = requestsSince(sim, since).filter((e) => e.atMs < resumeAtMs);
    const trading = inWindow.filter((e) => e.method === 'POST' && (e.path === '/orders' || e.path.startsWith('/orders/cancel-replace')));
    // The one cancel-replace met the 503; no placement of any kind went while the mode lasted.
    expect(trading.map((e) => `${e.path} ${e.status}`), JSON.stringify(inWindow.map((e) => `${e.method} ${e.path} ${e.status}`))).toEqual(['/orders/cancel-replace/batch 503']);
    const refused = trading[0]!;
    const refresh = requestsSince(sim, since, true).find((e) => e.seq > refused.seq && e.method === 'GET' && e.path === '/maintenance/status');
    expect(refresh === undefined ? null : refresh.atMs - refused.atMs).toBeLessThan(1_000);
    // Nothing was accepted: no lookup, no cancel by clientOrderId of the refused placements.
    expect(inWindow.filter((e) => e.path === '/orders/status/batch' || e.path === '/orders/cancel')).toEqual([]);

    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510) || liveOrders(sim, slug, 'it').length === 2), 10_000, 'quoting after cancel_only', () => ladderOf(sim, slug, 'it'));
    expect(requestsSince(sim, since).filter((e) => e.atMs >= resumeAtMs && e.status >= 500)).toEqual([]);
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });
});
