/**
 * Kill switch and `outcome-maker resume` on the running bot (both real CLI child processes): a losing fill (the
 * fair value jumps, informed takers hit the bot's stale bids) trips the daily-loss kill switch: orders canceled,
 * /readyz 503 with the reason, the process keeps running; `resume --config <file>` lifts it and the bot quotes
 * again. Resume on a bot that is not paused, or not running, exits 1 with the reason. `status` names the paused market
 * and why it is not quoted.
 */
import { expect, it } from 'vitest';
import { isQuotingLine, liveOrders, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig } from '../support/bot-process.js';
import { hasMsg, metricsUrlOf, pollFor, readiness, runCli, scrape, stopAfterEach, sumOf } from './ops-support.js';

const started = stopAfterEach();

it('a losing fill trips the kill switch; `resume` lifts it and the bot quotes again', async () => {
  // The synthetic traders move only when the test steps them (so the bot's quotes stay put until then); informed
  // takers trade whenever the book is mispriced against the hidden fair value by 5 ticks or more.
  const venue = await startProcessSimulator({ synthetic: { autoStep: false, informed: { ratePerMinute: 600 } } });
  started.sim = venue;
  venue.control.syntheticStep(); // the synthetic makers' first ladder
  const slugs = simMarketSlugs(venue, 1);
  const slug = slugs[0] ?? '';
  const { configPath } = writeBotConfig(venue, {
    markets: slugs,
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 2, levelSpacing: 0.01, orderSize: 10 } },
    orders: { filledOrderDelaySec: 0 },
    risk: { dailyLossLimit: 0.5 },
  });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  const url = await metricsUrlOf(running);
  // Not paused: resume refuses and says why (run while the bot starts quoting; the control file is there).
  const early = runCli(['resume', '--config', configPath]);
  await running.waitForLine(isQuotingLine, 30_000);
  await pollFor('the bot quoting', () => (liveOrders(venue, slugs).length >= 2 ? true : undefined), 10_000);
  const refused = await early;
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('not paused');

  // The fair value drops 20 cents: the bot's bids are now far too high and informed takers sell into them.
  const bid = venue.engine.book(slug)?.bids[0]?.priceTicks;
  if (bid === undefined) throw new Error('no bid on the simulator book');
  venue.control.setFairValue(slug, Math.max(20, bid - 200));
  venue.control.syntheticStep();
  await running.waitForLine(hasMsg('fill'), 5_000);
  venue.control.syntheticStep(); // the makers' ladder settles around the new value: the position is marked down

  await running.waitForLine(hasMsg('kill switch engaged: canceling everything, quoting paused'), 12_000);
  await pollFor('orders canceled by the kill switch', () => (liveOrders(venue, slugs).length === 0 ? true : undefined), 5_000);
  const paused = await readiness(url);
  expect(paused.status).toBe(503);
  expect(paused.body.reasons.some((reason) => reason.startsWith('quoting paused: daily-loss'))).toBe(true);
  const tripped = (await scrape(url)).samples;
  expect(sumOf(tripped, 'outcome_maker_kill_switch_engaged')).toBe(1);
  expect(sumOf(tripped, 'outcome_maker_kill_switch_trips_total', { reason: 'daily-loss' })).toBe(1);
  expect(running.child.exitCode).toBeNull(); // paused, not stopped
  // `status` says the market is not quoted, and why.
  const status = await runCli(['status', '--config', configPath]);
  expect(status.code, status.stderr).toBe(0);
  expect(status.stdout).toMatch(/^0\/1 markets quoted, 0 open orders, \d+ fills, PnL -\d+\.\d\d USDC/);
  expect(status.stdout).toContain(`not quoted (1):\n  ${slug}: kill switch engaged\n`);

  const resumed = await runCli(['resume', '--config', configPath]);
  expect(resumed.stderr).toBe('');
  expect(resumed.stdout).toBe('resumed: quoting restarts\n');
  expect(resumed.code).toBe(0);
  await running.waitForLine(hasMsg('kill switch lifted: quoting resumes'), 5_000);
  await pollFor('quoting again', () => (liveOrders(venue, slugs).length > 0 ? true : undefined), 10_000);
  expect(sumOf((await scrape(url)).samples, 'outcome_maker_kill_switch_engaged')).toBe(0);

  const stopped = await running.stop('SIGTERM');
  expect(stopped.code).toBe(0);
  expect(liveOrders(venue, slugs)).toEqual([]);

  // The bot is gone (its control file with it): resume says so.
  const late = await runCli(['resume', '--config', configPath]);
  expect(late.code).toBe(1);
  expect(late.stderr).toContain('not running');
  const lateStatus = await runCli(['status', '--config', configPath]);
  expect(lateStatus.code).toBe(1);
  expect(lateStatus.stderr).toContain('status: no control file');
}, 60_000);
