/**
 * Markets that come and go while the bot runs (the real CLI as a child process, against the simulator's crypto world
 * in this process, selecting by rules: every BTC market): a strike market listed at run time (`POST /_sim/markets`, the
 * venue's lifecycle event `marketCreated`) is joined and quoted within seconds; after a dropped connection the bot
 * subscribes the whole list again (the new market included); at the new market's stop before settlement its orders
 * are canceled, it is left (logged with the reason) and its series are gone from /metrics, while the other market
 * keeps being quoted.
 */
import { expect, it } from 'vitest';
import { isQuotingLine, liveOrders, spawnBot, startBtcDailyWorld, writeBotConfig } from '../support/bot-process.js';
import { hasMsg, jsonLines, metricsUrlOf, pollFor, stopAfterEach } from './ops-support.js';

const STOP_BEFORE_SETTLEMENT_SEC = 30;
const started = stopAfterEach();

it('joins a market listed at run time within seconds, resubscribes it after a reconnect, and leaves it at its stop', async () => {
  // A daily expiry 12 hours from now, whatever the time of day: the world's own market settles after the test.
  const { venue, daily } = await startBtcDailyWorld();
  started.sim = venue;
  const { configPath } = writeBotConfig(venue, {
    marketsSection: { select: { tickers: ['BTC'], rewardableOnly: false, max: 10 }, discovery: { pollIntervalSec: 600 } },
    pricing: { stopBeforeSettlementSec: STOP_BEFORE_SETTLEMENT_SEC, guard: { enabled: false } },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5 } },
  });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  const url = await metricsUrlOf(running);
  await running.waitForLine(isQuotingLine, 40_000);
  await pollFor('the daily market quoted', () => (liveOrders(venue, [daily]).length > 0 ? true : undefined), 20_000);

  // A new strike market, settling at the next whole minute at least 45 s away: its stop comes 15 to 75 s from now.
  const settlesAt = Math.ceil((Date.now() + 45_000) / 60_000) * 60_000;
  const listed = venue.control.listMarket({ ticker: 'BTC', settlesAt });
  const listedAt = Date.now();
  await pollFor('the new market quoted', () => (liveOrders(venue, [listed.slug]).length > 0 ? true : undefined), 15_000, 50);
  const joinedInMs = Date.now() - listedAt;
  expect(joinedInMs).toBeLessThan(15_000);
  expect(jsonLines(running).some((line) => line.msg === 'market joined' && line['market'] === listed.slug)).toBe(true);

  // A dropped connection: the bot subscribes the whole list again, the new market included.
  venue.control.dropConnections();
  const probe = (slug: string): number => venue.control.injectFrame({ kind: 'custom', marketSlug: slug, event: 'system', payload: { message: 'probe' } });
  await pollFor('both markets subscribed again', () => (probe(listed.slug) === 1 && probe(daily) === 1 ? true : undefined), 20_000, 100);

  // Its stop before settlement: no order from then on, left with the reason, its series gone; the daily one goes on.
  const leaveAt = settlesAt - STOP_BEFORE_SETTLEMENT_SEC * 1000;
  await running.waitForLine(hasMsg('market left'), Math.max(0, leaveAt - Date.now()) + 20_000);
  expect(Date.now()).toBeGreaterThanOrEqual(leaveAt);
  expect(liveOrders(venue, [listed.slug])).toEqual([]);
  const left = jsonLines(running).find((line) => line.msg === 'market left');
  expect(left).toMatchObject({ market: listed.slug, reason: 'stop before settlement', clean: true });
  await pollFor('its series gone from /metrics', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return text.includes(`market="${listed.slug}"`) ? undefined : text;
  }, 10_000).then((text) => expect(text).toContain(`market="${daily}"`));
  expect(liveOrders(venue, [daily]).length).toBeGreaterThan(0);

  const stopped = await running.stop('SIGTERM');
  expect(stopped.code).toBe(0);
  expect(jsonLines(running).filter((line) => line['level'] === 40 || line['level'] === 50).map((line) => line.msg)).toEqual([]);
}, 180_000);
