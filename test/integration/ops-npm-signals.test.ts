/**
 * Signals reach the bot however it is started: the bot run as a user runs it, `npm start -- --config <test config>`
 * (npm → `sh -c "exec node bin/outcome-maker.mjs run …"`, so the bot is npm's child), against a simulator in the
 * test process. SIGTERM and SIGINT sent to the npm process (the PID that started it) stop the bot cleanly: its
 * orders are canceled on the simulator, npm exits 0 and the bot's process is gone (no orphan). When npm itself is
 * SIGKILLed (it cannot pass anything on), the bot notices it was orphaned and stops the same way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { botEnv, isQuotingLine, liveOrders, simMarketSlugs, spawnWatched, startProcessSimulator, writeBotConfig, type BotProcess } from '../support/bot-process.js';
import { pollFor, stopAfterEach } from './ops-support.js';

const started = stopAfterEach();
/** The bot behind npm: SIGKILLing npm at teardown would not reach it, so a failed test kills it by PID. */
let lastBotPid: number | null = null;
afterEach(() => {
  if (lastBotPid !== null && isRunning(lastBotPid)) process.kill(lastBotPid, 'SIGKILL');
  lastBotPid = null;
});

const pidLine = z.looseObject({ pid: z.number().int().positive() });

/** `npm start -- --config <path>` with the simulator's demo credentials; resolves once quoting, with the bot's PID. */
async function npmStart(configPath: string, sim: Parameters<typeof botEnv>[0]): Promise<{ npm: BotProcess; botPid: number }> {
  const npm = spawnWatched('npm', ['start', '--', '--config', configPath], { ...botEnv(sim), npm_config_update_notifier: 'false', npm_config_fund: 'false' });
  started.bot = npm;
  const quoting = await npm.waitForLine(isQuotingLine, 40_000);
  const botPid = pidLine.parse(JSON.parse(quoting)).pid;
  lastBotPid = botPid;
  return { npm, botPid };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start: the bot stops with its launcher', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the npm process: orders canceled, npm exits 0, the bot is gone`, async () => {
      const venue = await startProcessSimulator({ synthetic: {} });
      started.sim = venue;
      const slugs = simMarketSlugs(venue);
      const { configPath } = writeBotConfig(venue, { markets: slugs });
      const { npm, botPid } = await npmStart(configPath, venue);
      expect(botPid).not.toBe(npm.child.pid);
      await pollFor('the bot quoting on the simulator', () => (liveOrders(venue, slugs).length > 0 ? true : undefined), 10_000);

      const stopped = await npm.stop(signal, 20_000);
      expect(stopped.code).toBe(0);
      expect(npm.lines.some((line) => line.includes('"msg":"stopping: quoting stops, orders are canceled"') && line.includes(`"reason":"${signal}"`))).toBe(true);
      expect(liveOrders(venue, slugs)).toEqual([]);
      await pollFor(`bot process ${botPid} gone`, () => (isRunning(botPid) ? undefined : true), 5_000);
    }, 90_000);
  }

  it('npm SIGKILLed: the orphaned bot cancels its orders and exits', async () => {
    const venue = await startProcessSimulator({ synthetic: {} });
    started.sim = venue;
    const slugs = simMarketSlugs(venue);
    const { configPath } = writeBotConfig(venue, { markets: slugs });
    const { npm, botPid } = await npmStart(configPath, venue);
    await pollFor('the bot quoting on the simulator', () => (liveOrders(venue, slugs).length > 0 ? true : undefined), 10_000);

    npm.child.kill('SIGKILL');
    await npm.exited;
    // npm's stdio pipes are the bot's too: its lines keep coming after npm is gone.
    await npm.waitForLine((line) => line.includes('the process that started the bot is gone'), 10_000).catch(() => undefined);
    await pollFor(`bot process ${botPid} gone`, () => (isRunning(botPid) ? undefined : true), 15_000);
    expect(npm.lines.some((line) => line.includes('the process that started the bot is gone'))).toBe(true);
    expect(liveOrders(venue, slugs)).toEqual([]);
  }, 90_000);
});
