/**
 * Requotes by cancel-replace, through the bot's public entry on the simulator (issue 15):
 * - a book move is requoted with POST /orders/cancel-replace/batch (one request for both slots), no cancel-batch and
 *   no POST /orders;
 * - every per-operation outcome, forced with the simulator's fault rules (cancel FAILURE / UNKNOWN, replacement
 *   FAILURE / UNKNOWN / NOT_ATTEMPTED, with or without the action really happening), ends with the new ladder, every
 *   old order canceled, and never two live orders in one slot (the watcher checks the venue on every order event).
 */
import { describe, it } from 'vitest';
import type { CancelReplaceFaultInput } from '../../src/sim/index.js';
import {
  cleanupAfterTest,
  LADDER_510,
  ladderOf,
  liveOrders,
  moveBookUp,
  sameLadder,
  slotOverlaps,
  startQuotingBot,
  unexplainedRateLimits,
  waitFor,
  when,
} from '../support/bot-harness.js';

/**
 * These tests run concurrently in one process: their bots and simulators share one event loop, whose jitter moves a
 * request's arrival stamp by tens of ms. A wider spacing of request starts keeps the venue's 300 ms rule out of tests
 * about cancel-replace outcomes (the limiter's own margin is tested in client-sim-faults.test.ts); every 429 is still
 * asserted absent.
 */
const SPACED = { rateLimits: { minTimeMs: 360 } } as const;

describe.concurrent('requotes by cancel-replace', () => {
  it('a book move is requoted with one cancel-replace batch: no cancel-batch, no POST /orders', async ({ expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running, watcher } = await startQuotingBot(cleanup, SPACED);
    const since = sim.control.requestLog({ limit: 1 })[0]?.seq ?? 0;
    const before = liveOrders(sim, slug, 'it').map(({ order }) => order.id);
    moveBookUp(sim, slug);
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510)), 8_000, 'the requote', () => ladderOf(sim, slug, 'it'));
    const sent = sim.control.requestLog({ sinceSeq: since }).filter((e) => e.tokenId === sim.demoAccount.tokenId && e.method !== 'GET' && !e.path.startsWith('/orders/status'));
    expect(sent.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['POST /orders/cancel-replace/batch 200']);
    for (const id of before) expect(sim.engine.orderById(id)?.status).toBe('CANCELED');
    await waitFor(() => when(running.bot.summary().openOrders === 2), 3_000, 'the bot to track the two new orders');
    expect(watcher.violations).toEqual([]);
    expect(slotOverlaps(sim, slug, 'it')).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });

  const faults: readonly (readonly [string, CancelReplaceFaultInput])[] = [
    ['cancel FAILURE', { cancel: 'FAILURE' }],
    ['cancel UNKNOWN (canceled)', { cancel: 'UNKNOWN', cancelApplied: true }],
    ['cancel UNKNOWN (not canceled)', { cancel: 'UNKNOWN', cancelApplied: false }],
    ['replacement FAILURE', { replacement: 'FAILURE' }],
    ['replacement UNKNOWN (placed)', { replacement: 'UNKNOWN', replacementApplied: true }],
    ['replacement UNKNOWN (not placed)', { replacement: 'UNKNOWN', replacementApplied: false }],
    ['replacement NOT_ATTEMPTED', { replacement: 'NOT_ATTEMPTED' }],
  ];

  it.for(faults)('%s: the bot ends on the new ladder, old orders canceled, never two orders in a slot', { timeout: 60_000 }, async ([, fault], { expect, onTestFinished }) => {
    const cleanup = cleanupAfterTest(onTestFinished);
    const { sim, slug, running, watcher } = await startQuotingBot(cleanup, SPACED);
    const before = liveOrders(sim, slug, 'it').map(({ order }) => order.id);
    sim.control.failCancelReplace({ ...fault, count: 1 });
    moveBookUp(sim, slug);
    // A lost replacement is given up only after the not-found answers and their grace time (10 s).
    await waitFor(() => when(sameLadder(ladderOf(sim, slug, 'it'), LADDER_510)), 25_000, 'the new ladder', () => ({ ladder: ladderOf(sim, slug, 'it'), warnings: running.warnings().slice(-5) }));
    expect(sim.control.pendingCancelReplaceFaults()).toEqual([]);
    for (const id of before) expect(sim.engine.orderById(id)?.status).toBe('CANCELED');
    expect(sim.control.requestLog().some((e) => e.path === '/orders/cancel-replace/batch')).toBe(true);
    await waitFor(() => when(running.bot.summary().openOrders === 2), 12_000, 'the bot to track exactly the two live orders', () => running.bot.summary());
    expect(watcher.violations).toEqual([]);
    expect(slotOverlaps(sim, slug, 'it')).toEqual([]);
    expect(unexplainedRateLimits(sim)).toEqual([]);
  });
});
