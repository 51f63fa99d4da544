/**
 * Many bots, one account: THREE bots (real CLI processes) on one simulator account and one API token, two on the same
 * markets, for BENCH_MULTIBOT_SECONDS (default 30) each run: once with each bot limiting only itself (no Redis), once
 * with the shared limiter through a redis-server on a free loopback port. Prints, per run: 429 answers, requests/s per
 * bot and combined (the venue allows ≤ 3.3/s per token).
 *
 * `npx tsx bench/multi-bot.ts` (needs redis-server for the shared run: apt-get install redis-server).
 */
import { pathToFileURL } from 'node:url';
import type { RunningSimulator } from '../src/sim/index.js';
import { simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig, isQuotingLine, type BotProcess } from '../test/support/bot-process.js';
import { redisServerBinary, startTestRedis, type TestRedis } from '../test/support/redis-server.js';

const SECONDS = Number(process.env['BENCH_MULTIBOT_SECONDS'] ?? 30);

interface RunFigures {
  readonly requests: number;
  readonly rateLimited: number;
  readonly perBot: readonly number[];
  readonly combined: number;
}

function demoEntries(sim: RunningSimulator, sinceSeq: number) {
  return sim.control.requestLog({ sinceSeq }).filter((e) => e.tokenId === sim.demoAccount.tokenId);
}

/** Requests each bot sent, from its own summary line `requests N` printed at exit. */
function summaryRequests(bot: BotProcess): number {
  const line = bot.lines.find((l) => /^\s*requests\s+\d+/.test(l));
  return line ? Number(/(\d+)/.exec(line)?.[1] ?? 0) : 0;
}

async function runOnce(redis: TestRedis | null): Promise<RunFigures> {
  const sim = await startProcessSimulator({
    seed: 23,
    markets: 12,
    synthetic: { stepMs: 400, fairValue: { volatilityPerSqrtHour: 4, jumpsPerHour: 120 }, noise: { ratePerMinute: 120 }, makers: { requoteThresholdTicks: 1 } },
  });
  const bots: BotProcess[] = [];
  try {
    const slugs = simMarketSlugs(sim, 4);
    const plan: [string, string[]][] = [
      ['alpha', slugs.slice(0, 2)],
      ['beta', slugs.slice(0, 2)],
      ['gamma', slugs.slice(2, 4)],
    ];
    const from = Math.max(0, ...sim.control.requestLog().map((e) => e.seq));
    const started = Date.now();
    for (const [tag, markets] of plan) {
      const { configPath } = writeBotConfig(sim, {
        markets,
        botTag: tag,
        strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 2, levelSpacing: 0.01, orderSize: 5 } },
        ...(redis ? { rateLimits: { shared: { redis: redis.url } } } : {}),
      });
      bots.push(spawnBot(sim, configPath, ['--duration', String(SECONDS)]));
    }
    await Promise.all(bots.map((bot) => bot.waitForLine(isQuotingLine, 90_000).catch(() => '')));
    await Promise.all(bots.map((bot) => bot.exited));
    const elapsed = (Date.now() - started) / 1000;
    const entries = demoEntries(sim, from);
    const perBot = bots.map((bot) => summaryRequests(bot) / elapsed);
    return { requests: entries.length, rateLimited: entries.filter((e) => e.status === 429).length, perBot, combined: entries.length / elapsed };
  } finally {
    await Promise.all(bots.map((bot) => bot.stop('SIGKILL', 5000).catch(() => undefined)));
    await sim.close();
  }
}

export async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  const alone = await runOnce(null);
  out['noRedis.rateLimited'] = alone.rateLimited;
  out['noRedis.requestsPerSec'] = Number(alone.combined.toFixed(2));
  out['noRedis.perBotRequestsPerSec'] = alone.perBot.map((r) => r.toFixed(2)).join(' / ');
  if (redisServerBinary() === null) {
    out['shared'] = 'not available: redis-server is not installed';
    return out;
  }
  const redis = await startTestRedis();
  try {
    const shared = await runOnce(redis);
    out['shared.rateLimited'] = shared.rateLimited;
    out['shared.requestsPerSec'] = Number(shared.combined.toFixed(2));
    out['shared.perBotRequestsPerSec'] = shared.perBot.map((r) => r.toFixed(2)).join(' / ');
  } finally {
    await redis.stop();
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await run();
  console.log(`multi-bot: 3 bots, one token, ${SECONDS} s per run (venue allows ≤ 3.33 requests/s per token)`);
  for (const [key, value] of Object.entries(figures)) console.log(`  ${key.padEnd(32)} ${value}`);
}
