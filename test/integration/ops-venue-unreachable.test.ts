/**
 * A venue that does not answer, through the real CLI: at start-up (a live config pointing at a closed loopback port)
 * `run` gives up after `startup.venueTimeoutSec` and exits non-zero with an error naming the URL and the cause; a
 * running bot whose venue goes away (the simulator stopped under it) says so plainly, keeps running, and /readyz
 * turns 503 naming the venue's URL and the cause.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { stringify } from 'yaml';
import { z } from 'zod';
import { isQuotingLine, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig } from '../support/bot-process.js';
import { runCliProcess } from '../support/cli-process.js';
import { metricsUrlOf, pollFor, readiness, stopAfterEach } from './ops-support.js';

const started = stopAfterEach();

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

const timedLine = z.looseObject({ time: z.string(), msg: z.string() });

it('run against a closed port exits non-zero within startup.venueTimeoutSec, naming the URL and the cause', async () => {
  const port = await closedPort();
  const dir = mkdtempSync(join(tmpdir(), 'om-unreachable-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const configPath = join(dir, 'live.yaml');
  writeFileSync(
    configPath,
    stringify({
      version: 1,
      venue: { kind: 'live', baseUrl, socketUrl: `ws://127.0.0.1:${port}` },
      credentials: { apiTokenId: 'OM_TEST_TOKEN_ID', apiSecret: 'OM_TEST_SECRET', privateKey: 'OM_TEST_PRIVATE_KEY' },
      markets: { slugs: ['any-market'] },
      strategy: { name: 'fixed-spread', params: { bidSpread: 0.02, askSpread: 0.02, levels: 1, orderSize: 5 } },
      risk: { maxPositionPerToken: 100, maxNetPosition: 60, maxOpenOrders: 6, maxNotional: 500, dailyLossLimit: 1000 },
      metrics: { enabled: false },
      database: { path: join(dir, 'live.db') },
      log: { level: 'info', pretty: false },
      startup: { venueTimeoutSec: 3 },
    }),
  );
  const result = await runCliProcess(['run', '--config', configPath], dir, {
    OM_TEST_TOKEN_ID: '3f2a1c4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b',
    OM_TEST_SECRET: Buffer.alloc(32, 7).toString('base64'),
    OM_TEST_PRIVATE_KEY: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
    OM_LOG_FORMAT: 'json',
  });
  expect(result.code, result.stdout + result.stderr).not.toBe(0);
  expect(result.code).not.toBeNull();
  const lines = `${result.stdout}\n${result.stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => timedLine.parse(JSON.parse(line)));
  const opened = lines.find((line) => line.msg === 'venue open');
  const failed = lines.find((line) => line.msg === 'start-up failed');
  expect(opened).toBeDefined();
  expect(String(failed?.['err'])).toContain(`the venue at ${baseUrl} cannot be reached: ECONNREFUSED`);
  // Bounded: the bound (3 s) and one more attempt, measured on the bot's own clock.
  const tookMs = Date.parse(failed?.time ?? '') - Date.parse(opened?.time ?? '');
  expect(tookMs).toBeGreaterThanOrEqual(2_900);
  expect(tookMs).toBeLessThan(5_000);
  const retries = lines.filter((line) => line.msg === 'start-up read: the venue does not answer; retrying');
  expect(retries.length).toBeGreaterThan(0);
  expect(retries.every((line) => line['venue'] === baseUrl && line['cause'] === 'ECONNREFUSED')).toBe(true);
  expect(result.stdout + result.stderr).not.toContain('account may be busy');
  expect(lines.some((line) => line.msg.startsWith('venue unreachable'))).toBe(false); // one line per event: the retry's
}, 60_000);

it('a running bot whose venue goes away says so, keeps running, and is not ready, naming the URL and the cause', async () => {
  const venue = await startProcessSimulator({ synthetic: {} });
  started.sim = venue;
  const slugs = simMarketSlugs(venue);
  const { configPath } = writeBotConfig(venue, { markets: slugs, maintenance: { pollIntervalSec: 1 }, shutdown: { budgetMs: 2000 } });
  const running = spawnBot(venue, configPath);
  started.bot = running;
  const url = await metricsUrlOf(running);
  await running.waitForLine(isQuotingLine, 30_000);
  await pollFor('ready', async () => ((await readiness(url)).status === 200 ? true : undefined));

  started.sim = null;
  await venue.close();
  const reason = `venue unreachable: ${venue.baseUrl} (ECONNREFUSED)`;
  const down = await pollFor('not ready, naming the venue', async () => {
    const answer = await readiness(url);
    return answer.status === 503 && answer.body.reasons.includes(reason) ? answer : undefined;
  }, 15_000);
  expect(down.body.ready).toBe(false);
  await running.waitForLine((line) => line.includes('"msg":"venue unreachable: requests get no answer; retrying, not ready until it answers"'), 5_000);
  expect(running.lines.filter((line) => line.includes('"msg":"venue unreachable: requests get no answer'))).toHaveLength(1);
  expect(running.lines.some((line) => line.includes('account may be busy'))).toBe(false);
  expect(running.child.exitCode).toBeNull(); // still running, still retrying
  await running.stop('SIGTERM');
}, 60_000);
