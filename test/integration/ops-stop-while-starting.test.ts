/**
 * A stop at any moment of start-up (the real CLI as a child process, against a simulator in this process): SIGINT or
 * SIGTERM before the venue answers, during the adoption of live orders, during the first book subscriptions and while
 * the first placement is unconfirmed (answered with a 5xx after the venue took it). Each time the process exits by itself, cleanly (exit 0), within the shutdown
 * budget, having released its ledger lock (a second `run` on the same ledger could start) and left no order of its
 * own live on the venue. Each phase is held open by the simulator (a slow answer, failures on one path) and the
 * signal is sent once the simulator has seen the bot reach it.
 */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { liveOrders, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig, type BotProcess } from '../support/bot-process.js';
import { hasMsg, pollFor, stopAfterEach } from './ops-support.js';

const BUDGET_MS = 6000;
const TEST_TIMEOUT_MS = 60_000;
const started = stopAfterEach();

type Phase = 'before the venue answers' | 'during adoption' | 'during the first subscriptions' | 'while the first placement is unconfirmed';

/** The simulator's request log has a request whose path contains `fragment`. */
function requested(venue: RunningSimulator, fragment: string, method?: string): boolean {
  return venue.control.requestLog().some((entry) => entry.path.includes(fragment) && (method === undefined || entry.method === method));
}

/** Holds the bot at `phase`; resolves once the bot reached it. */
async function holdAt(phase: Phase, venue: RunningSimulator, running: BotProcess, slug: string): Promise<void> {
  switch (phase) {
    case 'before the venue answers':
      await running.waitForLine(hasMsg('venue open'), 30_000);
      return;
    case 'during adoption':
      await pollFor('the adoption listing', () => (requested(venue, `/markets/${slug}/user-orders`) ? true : undefined), 30_000, 20);
      return;
    case 'during the first subscriptions':
      await pollFor('the first book read', () => (requested(venue, `/markets/${slug}/orderbook`) ? true : undefined), 30_000, 20);
      return;
    case 'while the first placement is unconfirmed':
      await pollFor('the first placement', () => (requested(venue, '/orders', 'POST') ? true : undefined), 30_000, 10);
      return;
  }
}

/** What keeps the bot at `phase` (set before it starts). */
function arrange(phase: Phase, venue: RunningSimulator, slug: string): void {
  switch (phase) {
    case 'before the venue answers':
      venue.control.setResponseDelay(30_000);
      return;
    case 'during adoption':
      venue.control.failNextRequests({ status: 503, count: 3, pathPrefix: `/markets/${slug}/user-orders` });
      return;
    case 'during the first subscriptions':
      venue.control.failNextRequests({ status: 503, count: 200, pathPrefix: `/markets/${slug}/orderbook` });
      return;
    case 'while the first placement is unconfirmed':
      // Placements answered slowly: the signal lands while one is on the wire; the stop must cancel what it placed.
      venue.control.failNextRequests({ status: 503, count: 1, pathPrefix: '/orders', phase: 'after' });
      return;
  }
}

const PHASES: readonly Phase[] = ['before the venue answers', 'during adoption', 'during the first subscriptions', 'while the first placement is unconfirmed'];
const CASES = PHASES.flatMap((phase) => (['SIGINT', 'SIGTERM'] as const).map((signal) => [phase, signal] as const));

it.each(CASES)('a stop %s (%s): exit 0 within the budget, lock released, no live order', async (phase, signal) => {
  const venue = await startProcessSimulator({ synthetic: {} });
  started.sim = venue;
  const [slug] = simMarketSlugs(venue, 1);
  if (slug === undefined) throw new Error('no market');
  const { configPath, dbPath } = writeBotConfig(venue, { markets: [slug], shutdown: { budgetMs: BUDGET_MS } });
  arrange(phase, venue, slug);
  const running = spawnBot(venue, configPath);
  started.bot = running;
  await holdAt(phase, venue, running, slug);

  const stopped = await running.stop(signal, BUDGET_MS + 8000);
  venue.control.setResponseDelay(0);
  venue.control.clearFaults();
  expect(stopped.signal, running.lines.slice(-25).join("\n")).toBeNull();
  expect(stopped.code, running.lines.slice(-12).join('\n')).toBe(0);
  expect(stopped.ms).toBeLessThan(BUDGET_MS + 1000);
  expect(existsSync(`${dbPath}.lock`)).toBe(false);
  // Anything the start had placed is canceled (an order the venue accepted after the cancel sweep would show here).
  await pollFor('no live order of the bot', () => (liveOrders(venue, [slug]).length === 0 ? true : undefined), 5_000, 50);
  expect(running.lines.some(hasMsg('market halted: data not fresh; canceling its orders'))).toBe(false);
  expect(running.lines.some(hasMsg('start-up failed'))).toBe(false);
}, TEST_TIMEOUT_MS);
