import { afterAll, expect, it } from 'vitest';
import { isQuotingLine, liveOrders, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig } from '../support/bot-process.js';
import type { RunningSimulator } from '../../src/sim/index.js';

let sim: RunningSimulator;
afterAll(async () => { await sim?.close(); });

it('smoke: bot process quotes on a standalone sim and SIGTERM leaves no live order', async () => {
  sim = await startProcessSimulator({ synthetic: {} });
  const { configPath } = writeBotConfig(sim);
  const bot = spawnBot(sim, configPath);
  await bot.waitForLine(isQuotingLine, 30_000);
  const slugs = simMarketSlugs(sim);
  expect(liveOrders(sim, slugs).length).toBeGreaterThan(0);
  const result = await bot.stop('SIGTERM');
  console.log(result, bot.lines.slice(-4));
  expect(result.code).toBe(0);
  expect(liveOrders(sim, slugs)).toEqual([]);
}, 60_000);
