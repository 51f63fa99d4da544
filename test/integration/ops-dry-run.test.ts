/**
 * `outcome-maker run --dry-run` against the simulator (the real CLI as a child process): books and plans are
 * live (the plans are logged as 'dry-run: would place'), but the venue never receives a state-changing request:
 * no placement, no cancel, not even at shutdown. Checked on the simulator's own request log. The imaginary orders are
 * never expected in the venue's book: no false "order events missing" alarm.
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
  // Quoted inside the synthetic makers' spread, as config/paper.yaml does: a live bot's orders would be the touch.
  const strategy = { name: 'fixed-spread', params: { bidSpread: 0.005, askSpread: 0.005, levels: 1, orderSize: 5 } };
  const { configPath } = writeBotConfig(venue, { markets: slugs, strategy, orders: { filledOrderDelaySec: 0 } });
  const running = spawnBot(venue, configPath, ['--dry-run']);
  started.bot = running;
  await running.waitForLine(isQuotingLine, 30_000);
  const quotingAtMs = Date.now();

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

  // The imaginary orders are not in the venue's book, and the bot knows it: no "order events missing" alarm, no
  // resync. The order-stream watch sweeps every second and alarms 2 s after a shortfall, so 6 s of quoting would show it.
  await pollFor('6 s of dry-run quoting', () => (Date.now() - quotingAtMs >= 6_000 ? true : undefined), 10_000, 250);
  expect(running.lines.filter((line) => line.includes('order events missing') || line.includes('resyncing the market'))).toEqual([]);

  const stopped = await running.stop('SIGTERM');
  expect(stopped.code).toBe(0);

  const log = venue.control.requestLog();
  expect(log.some((entry) => entry.method === 'GET' && entry.path.endsWith('/orderbook'))).toBe(true); // the books were real
  expect(log.filter((entry) => !isRead(entry)).map((entry) => `${entry.method} ${entry.path}`)).toEqual([]);
  expect(venue.control.accountOrders(venue.demoAccount.profileId)).toEqual([]);
  expect(liveOrders(venue, slugs)).toEqual([]);
}, 60_000);
