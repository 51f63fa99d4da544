/**
 * Trading modes, set on the simulator (`control.setTradingMode`) while the bot quotes. The bot learns the mode from
 * its maintenance poll (1 s here) and from 425 answers; once it knows (its trading-mode gauge says so), the book is
 * moved so that it wants to requote, and the simulator's own records show what reached the venue:
 * - post_only: every placement that reached the venue in the window is post-only (the bot quotes non-post-only
 *   otherwise), and none was refused with 425;
 * - cancel_only: no placement at all in the window, but the cancels of the stale quotes go through;
 * - disabled with a near resumeAt: no placement until resumeAt; the stale quotes' cancel is tried once (the bot never
 *   blocks its own cancels; the venue refuses it with 425) and not again until resumeAt; then the bot quotes the new
 *   book;
 * - a halt (the stop time before expiry: an empty plan, like the kill switch's and the stale guard's) while disabled:
 *   the cancel is tried at once, refused, held, and the quotes are canceled as soon as the mode allows; nothing placed.
 */
import { describe, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { generateMarkets } from '../../src/sim/engine/index.js';
import {
  allOrders,
  startBookedSim,
  startLiveBot,
  watchVenue,
  cleanupAfterTest,
  gaugeValue,
  LADDER_500,
  LADDER_510,
  ladderOf,
  liveOrders,
  moveBookUp,
  sameLadder,
  setThirdPartyQuotes,
  startQuotingBot,
  waitFor,
  when,
  type Cleanup,
  type QuotingBot,
  type RunningBot,
  unexplainedRateLimits,
} from '../support/bot-harness.js';

/** A bot quoting one level (non-post-only, so post_only mode has something to change) around mid 0.500. */
async function quotingBot(cleanup: Cleanup): Promise<QuotingBot> {
  const setup = await startQuotingBot(cleanup, { strategy: { postOnly: false }, orders: { postOnly: false } });
  const { sim, slug } = setup;
  const plain = liveOrders(sim, slug, 'it').filter(({ order }) => !order.postOnly);
  if (plain.length !== 2) throw new Error(`expected two quotes that are not post-only, got ${JSON.stringify(ladderOf(sim, slug, 'it'))}`);
  return setup;
}

async function botKnowsMode(running: RunningBot, mode: string): Promise<void> {
  await waitFor(async () => when((await gaugeValue(running.bot, 'outcome_maker_trading_mode', { mode })) === 1), 5_000, `the bot to see mode ${mode}`);
}

/** Requests of the bot's token after `sinceSeq` that trade (anything but a read). */
function tradingRequests(sim: RunningSimulator, sinceSeq: number) {
  return sim.control.requestLog({ sinceSeq }).filter((e) => e.tokenId === sim.demoAccount.tokenId && e.method !== 'GET');
}

const lastSeq = (sim: RunningSimulator): number => sim.control.requestLog({ limit: 1 })[0]?.seq ?? 0;

describe.concurrent('trading modes', () => {
  it('post_only: only post-only placements reach the venue while it lasts; plain ones again after', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running, watcher } = await quotingBot(cleanup);
    const window = sim.control.setTradingMode({ mode: 'post_only', resumeAtMs: Date.now() + 60_000 });
    await botKnowsMode(running, 'post_only');
    const since = lastSeq(sim);
    const setAt = Date.now();

    moveBookUp(sim, slug);
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510)), 8_000, 'the requote under post_only', () => ladderOf(sim, slug, 'it'));
    const placedInWindow = sim.engine.orders(sim.demoAccount.profileId, slug, ['LIVE', 'CANCELED', 'MATCHED']).filter((o) => o.createdAtMs >= setAt);
    expect(placedInWindow).toHaveLength(2);
    for (const order of placedInWindow) expect(order.postOnly).toBe(true);
    expect(tradingRequests(sim, since).filter((e) => e.status === 425)).toEqual([]);

    // The window ends: quotes are no longer forced post-only.
    sim.control.clearTradingMode(window.id);
    await botKnowsMode(running, 'normal');
    setThirdPartyQuotes(sim, slug, { bidTicks: 460 });
    setThirdPartyQuotes(sim, slug, { askTicks: 540 });
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_500)), 8_000, 'the requote after post_only', () => ladderOf(sim, slug, 'it'));
    for (const { order } of liveOrders(sim, slug, 'it')) expect(order.postOnly).toBe(false);
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });

  it('cancel_only: the stale quotes are canceled, nothing is placed until the mode ends', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running, watcher } = await quotingBot(cleanup);
    const idsBefore = liveOrders(sim, slug, 'it').map(({ order }) => order.id);
    const window = sim.control.setTradingMode({ mode: 'cancel_only', resumeAtMs: Date.now() + 60_000 });
    await botKnowsMode(running, 'cancel_only');
    const since = lastSeq(sim);

    moveBookUp(sim, slug);
    await waitFor(() => when(liveOrders(sim, slug, 'it').length === 0), 8_000, 'the stale quotes to be canceled', () => ladderOf(sim, slug, 'it'));
    for (const id of idsBefore) expect(sim.engine.orderById(id)?.status).toBe('CANCELED');
    // A quote cycle later (the bot saw the book again), still nothing placed.
    const cycles = (await gaugeValue(running.bot, 'outcome_maker_requotes_total', { market: slug })) ?? 0;
    setThirdPartyQuotes(sim, slug, { bidTicks: 471 });
    await waitFor(async () => when(((await gaugeValue(running.bot, 'outcome_maker_requotes_total', { market: slug })) ?? 0) > cycles), 5_000, 'another quote cycle');
    const sent = tradingRequests(sim, since);
    expect(sent.filter((e) => e.method === 'POST' && e.path === '/orders')).toEqual([]);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((e) => e.status < 400)).toBe(true);

    sim.control.clearTradingMode(window.id);
    setThirdPartyQuotes(sim, slug, { bidTicks: 470 });
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510)), 8_000, 'quoting after cancel_only', () => ladderOf(sim, slug, 'it'));
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });

  it('disabled with a near resumeAt: one refused cancel, no placement until resumeAt, then the bot quotes the new book', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running, watcher } = await quotingBot(cleanup);
    const idsBefore = liveOrders(sim, slug, 'it').map(({ order }) => order.id);
    const resumeAtMs = Date.now() + 3_000;
    sim.control.setTradingMode({ mode: 'disabled', resumeAtMs });
    await botKnowsMode(running, 'disabled');
    const since = lastSeq(sim);

    moveBookUp(sim, slug);
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510)), 10_000, 'quoting after resumeAt', () => ladderOf(sim, slug, 'it'));
    const sent = tradingRequests(sim, since);
    expect(sent.length).toBeGreaterThan(0);
    // Before resumeAt: the stale quotes' cancel, tried once and refused (held, not retried in a loop); no placement.
    // After: nothing refused.
    const before = sent.filter((e) => e.atMs < resumeAtMs);
    expect(before.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['POST /orders/batch-cancel 425']);
    expect(sent.filter((e) => e.atMs >= resumeAtMs && e.status === 425)).toEqual([]);
    for (const id of idsBefore) expect(sim.engine.orderById(id)?.status).toBe('CANCELED');
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });

  // The stop before expiry leaves the market while the venue refuses cancels: the leave runs out of its budget with the
  // quotes resting, and the gate's release (resumeAt) sweeps the departed market again at once (market-membership.ts
  // `sweepAfterRelease`), also when the release comes while the leave is still running.
  it('a halt while disabled (empty plan): the cancel is tried at once, held after the 425, and the quotes go at resumeAt', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const now = Date.now();
    const stopBeforeSec = 60;
    // 12 s of lead: the bot must quote, and know the venue is disabled, before the stop time; its start-up takes
    // several seconds when test files run side by side (6 s was not always enough).
    const stopAtMs = now + 12_000;
    const specs = generateMarkets(3, 3, now).map((spec, i) => (i === 0 ? { ...spec, expirationMs: stopAtMs + stopBeforeSec * 1000 } : spec));
    const { sim, slug } = await startBookedSim(cleanup, { sim: { markets: specs }, markets: () => [specs[0]!.slug] });
    const watcher = watchVenue(cleanup, sim, [slug]);
    const running = await startLiveBot(sim, cleanup, { markets: [slug], risk: { stopBeforeExpirySec: stopBeforeSec } });
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_500)), 9_000, 'quotes before the stop time', () => ladderOf(sim, slug, 'it'));
    const quotes = liveOrders(sim, slug, 'it').map(({ order }) => order.id);
    // The venue is disabled from before the stop time until 4 s after it.
    const resumeAtMs = stopAtMs + 4_000;
    sim.control.setTradingMode({ mode: 'disabled', resumeAtMs });
    await botKnowsMode(running, 'disabled');
    const since = lastSeq(sim);

    await waitFor(() => when(Date.now() >= stopAtMs && tradingRequests(sim, since).length > 0), Math.max(0, stopAtMs - Date.now()) + 4_000, 'the halt to try its cancel');
    await waitFor(() => when(liveOrders(sim, slug, 'it').length === 0), 10_000, 'the quotes canceled once the mode allows', () => ladderOf(sim, slug, 'it'));
    const sent = tradingRequests(sim, since);
    const before = sent.filter((e) => e.atMs < resumeAtMs);
    // Tried while disabled (refused), once: the refusal is held, not retried in a loop.
    expect(before.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['POST /orders/batch-cancel 425']);
    expect(before[0]!.atMs - stopAtMs).toBeLessThan(1_500);
    const after = sent.filter((e) => e.atMs >= resumeAtMs);
    expect(after.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['POST /orders/batch-cancel 200']);
    for (const id of quotes) expect(sim.engine.orderById(id)?.status).toBe('CANCELED');
    // Halted: nothing placed, before or after the window.
    expect(allOrders(sim, slug)).toHaveLength(2);
    expect(watcher.violations).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });
});
