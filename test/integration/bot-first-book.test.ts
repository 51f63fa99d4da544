/**
 * A market whose first book is slow to come (it waits behind the start-up requests of every market; here the venue
 * refuses its book a few times) is held from quoting when its stale grace runs out, but that is routine: the real bot
 * (`outcome-maker run`) logs it at info ("market waiting for its first book"), never the WARN halt "market halted: data
 * not fresh; canceling its orders", and quotes it once its book comes (docs/rate-limits.md, the headroom rule).
 */
import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { CHAOS_FLOW } from '../support/chaos-rig.js';
import { isQuotingLine, liveOrders, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig, type BotProcess } from '../support/bot-process.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

it('a first book slower than the stale grace: an info line, no WARN halt, quoted once it comes', async () => {
  // Synthetic flow keeps the books moving (each change confirms a book, and settles the socket's size unit).
  const sim = await startProcessSimulator({ seed: 30, markets: 6, synthetic: CHAOS_FLOW });
  cleanups.push(() => sim.close());
  const [fast, slow] = simMarketSlugs(sim, 2);
  if (fast === undefined || slow === undefined) throw new Error('the simulator lists fewer than two markets');
  // The slow market's book is refused (503) four times: its first book comes seconds after its 1 s grace ran out.
  sim.control.failNextRequests({ status: 503, count: 4, pathPrefix: `/markets/${slow}/orderbook` });
  // Every first book over REST (feed.firstBookWaitSec 0), where the refusals delay it: the feed's first frame would
  // bring it otherwise (src/book/book-store.ts).
  const paths = writeBotConfig(sim, { markets: [fast, slow], risk: { staleGraceSec: 1 }, feed: { firstBookWaitSec: 0 } });
  const bot: BotProcess = spawnBot(sim, paths.configPath);
  cleanups.push(async () => {
    await bot.stop('SIGKILL', 2_000);
    rmSync(paths.dir, { recursive: true, force: true });
  });
  const mentions = (msg: string, market: string) => (line: string) => line.includes(`"msg":"${msg}`) && line.includes(`"market":"${market}"`);

  await bot.waitForLine(mentions('market waiting for its first book; not quoted until it comes', slow), 60_000);
  await bot.waitForLine(isQuotingLine, 60_000);
  await bot.waitForLine(mentions('market data fresh again; quoting resumes', slow), 60_000);
  for (let i = 0; i < 100 && liveOrders(sim, [slow]).length === 0; i += 1) await sleep(100);
  expect(liveOrders(sim, [slow]).length, 'the slow market is quoted once its book came').toBeGreaterThan(0);
  const stopped = await bot.stop('SIGINT', 20_000);
  expect(stopped.code, bot.lines.slice(-10).join('\n')).toBe(0);

  // Until its first book came (and quoting resumed there), the slow market was never reported as a WARN halt. (After
  // it, with a 1 s grace, a loaded machine may halt either market for real: not this test's subject.)
  const untilBook = bot.lines.slice(0, bot.lines.findIndex(mentions('market data fresh again; quoting resumes', slow)));
  const waiting = untilBook.filter(mentions('market waiting for its first book', slow));
  expect(waiting).toHaveLength(1);
  expect(waiting[0]).toContain('"level":"info"');
  expect(untilBook.filter(mentions('market halted: data not fresh', slow))).toEqual([]);
  expect(sim.control.pendingFaults(), 'every refusal was used').toEqual([]);
}, 120_000);
