/**
 * /readyz and /healthz of the running bot (the real CLI as a child process): ready while quoting; when the
 * market feed drops and cannot reconnect (a proxy in front of the simulator's socket refuses it) /readyz turns
 * 503 naming the reason, the bot pulls its orders after socketDownGraceSec, and /healthz stays 200; once the
 * feed is back the bot is ready and quoting again.
 */
import { expect, it } from 'vitest';
import { isQuotingLine, liveOrders, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig } from '../support/bot-process.js';
import { editConfig, httpGet, metricsUrlOf, pollFor, readiness, scrape, startFeedProxy, stopAfterEach, sumOf } from './ops-support.js';

const started = stopAfterEach();

it('/readyz is 200 while quoting, 503 with the reason while the feed is down, 200 again after; /healthz stays 200', async () => {
  const venue = await startProcessSimulator({ synthetic: {} });
  started.sim = venue;
  const feedProxy = await startFeedProxy(venue.port);
  started.proxy = feedProxy;
  const slugs = simMarketSlugs(venue);
  const { configPath } = writeBotConfig(venue, { markets: slugs, risk: { socketDownGraceSec: 1 } });
  editConfig(configPath, (config) => {
    config['venue'] = { kind: 'live', baseUrl: venue.baseUrl, socketUrl: feedProxy.url, headerPrefix: venue.headerPrefix };
  });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  const url = await metricsUrlOf(running);
  await running.waitForLine(isQuotingLine);

  const ready = await pollFor('ready', async () => {
    const answer = await readiness(url);
    return answer.status === 200 ? answer : undefined;
  });
  expect(ready.body).toEqual({ ready: true, reasons: [] });
  expect((await httpGet(`${url}/healthz`)).status).toBe(200);
  expect(liveOrders(venue, slugs).length).toBeGreaterThan(0);

  // The feed drops and every reconnection is refused; REST still works.
  feedProxy.block();
  const down = await pollFor('not ready', async () => {
    const answer = await readiness(url);
    return answer.status === 503 ? answer : undefined;
  });
  expect(down.body.ready).toBe(false);
  expect(down.body.reasons).toContain('feed disconnected');
  expect((await httpGet(`${url}/healthz`)).status).toBe(200);
  expect(sumOf((await scrape(url)).samples, 'outcome_maker_feed_connected')).toBe(0);
  // socketDownGraceSec later the bot has canceled every order over REST, and is still not ready.
  await pollFor('orders pulled while the feed is down', () => (liveOrders(venue, slugs).length === 0 ? true : undefined), 8_000);
  expect((await readiness(url)).status).toBe(503);
  expect((await httpGet(`${url}/healthz`)).status).toBe(200);

  // The feed comes back: reconnect, resync, ready, quoting.
  feedProxy.unblock();
  await pollFor('ready again', async () => ((await readiness(url)).status === 200 ? true : undefined), 15_000);
  expect(sumOf((await scrape(url)).samples, 'outcome_maker_feed_reconnects_total')).toBeGreaterThanOrEqual(1);
  await pollFor('quoting again', () => (liveOrders(venue, slugs).length > 0 ? true : undefined), 10_000);

  const stopped = await running.stop('SIGTERM');
  expect(stopped.code).toBe(0);
  expect(liveOrders(venue, slugs)).toEqual([]);
}, 60_000);
