/**
 * Credentials the venue refuses, through the real CLI against the simulator: a wrong header prefix stops `run` at
 * start-up within seconds with ONE error naming the likely cause, exit 2, no cancel storm and a summary saying
 * nothing was placed; a token refused mid-run (the simulator answers 401) is counted in a metric and, at
 * risk.maxAuthRefusals in a row, stops placements (the kill switch, reason `credentials`).
 */
import { expect, it } from 'vitest';
import { z } from 'zod';
import { isQuotingLine, spawnBot, startProcessSimulator, writeBotConfig } from '../support/bot-process.js';
import { editConfig, jsonLines, metricsUrlOf, pollFor, scrape, stopAfterEach, sumOf } from './ops-support.js';

const started = stopAfterEach();
const timed = z.looseObject({ time: z.string(), msg: z.string() });

it('a wrong header prefix stops run within seconds: one error naming the prefix, exit 2, nothing placed', async () => {
  const venue = await startProcessSimulator({ synthetic: {} });
  started.sim = venue;
  const { configPath } = writeBotConfig(venue);
  // Explicitly wrong (never the default, whatever the default is).
  editConfig(configPath, (config) => {
    const venueSection: unknown = config['venue'];
    if (typeof venueSection !== 'object' || venueSection === null) throw new Error('no venue section');
    Reflect.set(venueSection, 'headerPrefix', 'wrongprefix');
  });
  const bot = spawnBot(venue, configPath, ['--duration', '60']);
  started.bot = bot;
  const exit = await Promise.race([bot.exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
  if (exit === null) throw new Error(bot.lines.join('\n'));
  const output = bot.lines.join('\n');
  expect(exit.code, output).toBe(2);
  const lines = jsonLines(bot);
  const errors = lines.filter((l) => l['level'] === 'error');
  expect(errors.map((l) => l.msg), output).toHaveLength(1);
  const [error] = errors;
  expect(error?.msg).toContain('credentials refused');
  expect(error?.msg).toContain(`set venue.headerPrefix: ${venue.headerPrefix}`);
  expect(error?.msg).toContain('wrongprefix-api-key');
  // Within seconds of the venue being opened, on the bot's own clock.
  const opened = bot.lines.map((l) => (l.startsWith('{') ? timed.safeParse(JSON.parse(l)) : null)).find((p) => p?.success === true && p.data.msg === 'venue open');
  const failedAt = bot.lines.map((l) => (l.startsWith('{') ? timed.safeParse(JSON.parse(l)) : null)).find((p) => p?.success === true && p.data.msg.startsWith('credentials refused'));
  expect(Date.parse(failedAt?.data?.time ?? '') - Date.parse(opened?.data?.time ?? '')).toBeLessThan(10_000);
  // No cancel storm, no "client is closed", no shutdown complaint; the summary says nothing was placed.
  expect(output).not.toContain('venue request failed');
  expect(output).not.toContain('client is closed');
  expect(output).not.toContain('shutdown left orders');
  expect(output).toContain('orders placed  0 (nothing was placed)');
  expect(output).toContain('open orders    0');
  for (const market of venue.engine.markets()) expect(venue.engine.orders(venue.demoAccount.profileId, market.slug, ['LIVE'])).toHaveLength(0);
}, 60_000);

it('a token refused mid-run is counted and, at risk.maxAuthRefusals in a row, stops placements', async () => {
  const venue = await startProcessSimulator({ synthetic: {} });
  started.sim = venue;
  const { configPath } = writeBotConfig(venue, { risk: { maxAuthRefusals: 3 } });
  const bot = spawnBot(venue, configPath);
  started.bot = bot;
  const url = await metricsUrlOf(bot);
  await bot.waitForLine(isQuotingLine, 30_000);
  // The token is revoked: every request is answered 401 (the periodic reads alone bring three within seconds).
  venue.control.failNextRequests({ status: 401, count: 1000 });
  const tripped = await bot.waitForLine((line) => line.includes('credentials refused 3 times in a row'), 20_000);
  expect(tripped).toContain('placements stopped (kill switch)');
  const { samples } = await scrape(url);
  expect(sumOf(samples, 'outcome_maker_rest_auth_refusals_total')).toBeGreaterThanOrEqual(3);
  expect(sumOf(samples, 'outcome_maker_kill_switch_trips_total', { reason: 'credentials' })).toBe(1);
  expect(sumOf(samples, 'outcome_maker_kill_switch_engaged')).toBe(1);
  venue.control.clearFaults();
  const stopped = await bot.stop('SIGTERM');
  expect(stopped.code).not.toBeNull();
  await pollFor('the bot exited', () => (bot.child.exitCode === null ? undefined : true));
}, 60_000);
