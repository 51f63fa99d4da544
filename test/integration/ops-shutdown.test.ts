/**
 * Shutdown of the running bot (the real CLI as a child process, against a simulator in this process):
 * SIGTERM or SIGINT while quoting cancels every order of the bot on the venue, prints the summary and exits 0
 * within the configured shutdown budget, also when the venue answers slowly; a second signal exits at once;
 * a venue that never answers cannot hold the process past its budget.
 */
import { expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { isQuotingLine, liveOrders, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig, type BotProcess } from '../support/bot-process.js';
import { hasMsg, jsonLines, pollFor, stopAfterEach } from './ops-support.js';

const BUDGET_MS = 4000;
// Each test: up to 30 s for the bot to quote (its start-up is slow when test files run side by side), 10 s for both
// slots to be live, then the stop (at most the budget + 5 s); the test timeout only catches a hang beyond all that.
const TEST_TIMEOUT_MS = 60_000;

const started = stopAfterEach();

async function quotingBot(): Promise<{ venue: RunningSimulator; running: BotProcess; slugs: string[] }> {
  const venue = await startProcessSimulator({ synthetic: {} });
  started.sim = venue;
  const slugs = simMarketSlugs(venue);
  const { configPath } = writeBotConfig(venue, { markets: slugs, shutdown: { budgetMs: BUDGET_MS } });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  await running.waitForLine(isQuotingLine, 30_000);
  // Both slots (a bid and an ask) live on the venue, not just the first answer.
  await pollFor('a bid and an ask live', () => (liveOrders(venue, slugs).length >= 2 ? true : undefined), 10_000, 20);
  return { venue, running, slugs };
}

it.each(['SIGTERM', 'SIGINT'] as const)('%s while quoting: every order canceled, summary printed, exit 0 within the budget', async (signal) => {
  const { venue, running, slugs } = await quotingBot();
  venue.control.setResponseDelay(150); // a slow venue: the cancels take a while, still inside the budget

  const stopped = await running.stop(signal);
  expect(stopped.code).toBe(0);
  expect(stopped.ms).toBeLessThan(BUDGET_MS);
  expect(liveOrders(venue, slugs)).toEqual([]);
  expect(venue.control.accountOrders(venue.demoAccount.profileId, { statuses: ['LIVE'] })).toEqual([]);
  const canceled = jsonLines(running).find((line) => line.msg === 'orders canceled');
  expect(canceled?.['clean']).toBe(true);
  expect(running.lines).toContain('outcome-maker summary');
  expect(running.lines.some((line) => /^ {2}open orders +0$/.test(line))).toBe(true);
}, TEST_TIMEOUT_MS);

it('a second signal exits at once, while the first is still canceling', async () => {
  const { venue, running } = await quotingBot();
  venue.control.setResponseDelay(3000); // the cancels hang

  running.child.kill('SIGTERM');
  await running.waitForLine(hasMsg('stopping: quoting stops, orders are canceled'), 5000);
  // An operator insisting: the second signal comes after the 1 s grace (within it, it is the same signal delivered
  // twice and the clean stop goes on: test/integration/bot-preflight.test.ts).
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const started = Date.now();
  running.child.kill('SIGTERM');
  const exit = await running.exited;
  expect(Date.now() - started).toBeLessThan(1500);
  expect(exit.code).toBe(130);
  expect(running.lines.some(hasMsg('second signal: exiting at once'))).toBe(true);
}, TEST_TIMEOUT_MS);

it('a venue that does not answer cannot hold the process past its shutdown budget', async () => {
  const { venue, running } = await quotingBot();
  venue.control.setResponseDelay(60_000);

  const stopped = await running.stop('SIGTERM', BUDGET_MS + 5000);
  expect(stopped.signal).toBeNull(); // it exited by itself, not by the test's SIGKILL
  expect(stopped.code).toBe(1); // not a clean stop: the orders could not be confirmed canceled
  expect(stopped.ms).toBeLessThan(BUDGET_MS + 1000);
  expect(running.lines.some(hasMsg('shutdown left orders or unknowns')) || running.lines.some(hasMsg('shutdown budget exceeded: exiting'))).toBe(true);
}, TEST_TIMEOUT_MS);
