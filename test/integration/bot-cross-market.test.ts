/**
 * Cross-market cancel-replace batches through the bot's public entry on the simulator (issue 29, item 4):
 * - the first quotes of three markets go as placement operations of POST /orders/cancel-replace/batch (no
 *   POST /orders), several markets per request;
 * - one move of all three books is requoted with fewer requests than markets, one request carrying the operations of
 *   several markets (the simulator's request log keeps the markets each batch named), no cancel-batch, no POST /orders;
 * - never two live orders in a slot, and no 429 the bot is to blame for.
 */
import { describe, it } from 'vitest';
import {
  cleanupAfterTest,
  LADDER_500,
  LADDER_510,
  ladderOf,
  laddersAndWarnings,
  moveBookUp,
  sameLadder,
  singleMarkets,
  slotOverlaps,
  startBookedSim,
  startLiveBot,
  unexplainedRateLimits,
  waitFor,
  watchVenue,
  when,
} from '../support/bot-harness.js';

/** As bot-cancel-replace.test.ts: a wider spacing keeps the event loop's jitter out of the venue's 300 ms rule. */
const SPACED = { rateLimits: { minTimeMs: 360 } } as const;

describe('cross-market cancel-replace batches', () => {
  it("three markets' first quotes and one move of all three books: shared cancel-replace requests, no POST /orders", { timeout: 60_000 }, async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slugs } = await startBookedSim(cleanup, { sim: { markets: 6 }, markets: (s) => singleMarkets(s).slice(0, 3) });
    expect(slugs).toHaveLength(3);
    const watcher = watchVenue(cleanup, sim, slugs);
    const token = sim.demoAccount.tokenId;
    const running = await startLiveBot(sim, cleanup, { markets: [...slugs], ...SPACED });
    const allOn = (ladder: Readonly<Record<string, string>>) => () => when(slugs.every((slug) => sameLadder(ladderOf(sim, slug, 'it'), ladder)));
    await waitFor(allOn(LADDER_500), 15_000, 'the first ladders', laddersAndWarnings(sim, slugs, running));

    const trading = (sinceSeq: number) => sim.control.requestLog({ sinceSeq }).filter((e) => e.tokenId === token && e.method !== 'GET' && !e.path.startsWith('/orders/status'));
    const first = trading(0);
    expect(first.filter((e) => e.path === '/orders')).toEqual([]);
    const firstBatches = first.filter((e) => e.path === '/orders/cancel-replace/batch');
    expect(firstBatches.reduce((n, e) => n + (e.detail?.operations ?? 0), 0)).toBe(6);
    expect(firstBatches.length).toBeLessThanOrEqual(3);

    const since = sim.control.requestLog({ limit: 1 })[0]?.seq ?? 0;
    for (const slug of slugs) moveBookUp(sim, slug);
    await waitFor(allOn(LADDER_510), 15_000, 'the requotes', laddersAndWarnings(sim, slugs, running));
    const requote = trading(since);
    expect(requote.map((e) => `${e.method} ${e.path} ${e.status}`).every((line) => line === 'POST /orders/cancel-replace/batch 200')).toBe(true);
    expect(requote.length).toBeLessThan(slugs.length);
    expect(Math.max(...requote.map((e) => e.detail?.markets.length ?? 0))).toBeGreaterThanOrEqual(2);
    expect(requote.reduce((n, e) => n + (e.detail?.operations ?? 0), 0)).toBe(6);

    await waitFor(() => when(running.bot.summary().openOrders === 6), 5_000, 'the bot to track the six new orders', () => running.bot.summary());
    expect(watcher.violations).toEqual([]);
    for (const slug of slugs) expect(slotOverlaps(sim, slug, 'it')).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });
});
