/**
 * `outcome-maker run --dry-run` against the simulator (the real CLI as a child process): books and plans are
 * live (the plans are logged as 'dry-run: would place'), but the venue never receives a state-changing request:
 * no placement, no cancel, not even at shutdown. Checked on the simulator's own request log.
 */
import { expect, it } from 'vitest';
import { isQuotingLine, liveOrders, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig } from '../support/bot-process.js';
import { hasMsg, jsonLines, pollFor, stopAfterEach } from './ops-support.js';

const started = stopAfterEach();

/** Reads the bot may send in a dry run: GETs and the order-status lookup (a POST that changes nothing). */
const isRead = (entry: { method: string; path: string }): boolean => entry.method === 'GET' || (entry.method === 'POST' && entry.path === '/orders/status/batch');

it('--dry-run: live books and plans, logged; the venue receives no placement and no cancel', async () => {
  const venue = await startProcessSimulator({ synthetic: { noise: { ratePerMinute: 60 } } });
  started.sim = venue;
  const slugs = simMarketSlugs(venue);
  const { configPath } = writeBotConfig(venue, { markets: slugs, orders: { filledOrderDelaySec: 0 } });
  const running = spawnBot(venue, configPath, ['--dry-run']);
  started.bot = running;
  await running.waitForLine(isQuotingLine, 30_000);

  // Plans keep coming as the book moves: the first quotes, then requotes.
  const wouldPlace = await pollFor(
    'several dry-run placements',
    () => {
      const lines = jsonLines(running).filter((line) => line.msg === 'dry-run: would place');
      return lines.length >= 4 ? lines : undefined;
    },
    15_000,
  );
  for (const line of wouldPlace) {
    expect(line['dryRun']).toBe(true);
    expect(slugs).toContain(line['market']);
    expect(typeof line['price']).toBe('number');
  }
  expect(running.lines.some(hasMsg('order book fresh'))).toBe(true);

  const stopped = await running.stop('SIGTERM');
  expect(stopped.code).toBe(0);

  const log = venue.control.requestLog();
  expect(log.some((entry) => entry.method === 'GET' && entry.path.endsWith('/orderbook'))).toBe(true); // the books were real
  expect(log.filter((entry) => !isRead(entry)).map((entry) => `${entry.method} ${entry.path}`)).toEqual([]);
  expect(venue.control.accountOrders(venue.demoAccount.profileId)).toEqual([]);
  expect(liveOrders(venue, slugs)).toEqual([]);
}, 45_000);
