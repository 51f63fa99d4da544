/**
 * Start-up and stop of the real CLI (`outcome-maker run`, a child process) against a simulator in the test process
 * (issue 16, item 5, and the config migration of item 3):
 * - a busy metrics port is found before the ledger or the venue is touched: exit 2 naming metrics.port and the port
 *   (and `--metrics-port` when it came from there), no ledger file, no summary; `--metrics-port` moves the port;
 * - a database path that cannot be opened is found before the bot speaks to the venue: exit 1, not one request sent;
 * - a config that still uses `orders.cancelUnknownOrdersOnStart` is refused with a migration error naming the new
 *   key: exit 2, not one request sent;
 * - one SIGTERM delivered twice within a millisecond (to the process group and to the process, as `timeout` and some
 *   supervisors do) is one stop: the orders are canceled and the exit is clean (0), not the "exit at once" path.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { poll } from '../support/poll.js';
import { isQuotingLine, liveOrders, simMarketSlugs, spawnBot, startProcessSimulator, writeBotConfig } from '../support/bot-process.js';

function requestsOf(sim: RunningSimulator): number {
  return sim.control.requestLog().filter((entry) => entry.tokenId === sim.demoAccount.tokenId).length;
}

async function busyPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port };
}

describe('CLI start-up preflight and signals', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startProcessSimulator({ seed: 61, synthetic: {} });
  }, 30_000);
  afterAll(async () => {
    await sim?.close();
  });

  it('a busy metrics port stops the bot before the ledger or the venue is touched: exit 2 naming metrics.port and the port, no summary', async () => {
    const { server, port } = await busyPort();
    try {
      sim.control.clearRequestLog();
      const { configPath, dbPath } = writeBotConfig(sim, { botTag: 'busyport', metrics: { port } });
      const bot = spawnBot(sim, configPath);
      const exit = await bot.exited;
      expect(exit.code).toBe(2);
      const text = bot.lines.join('\n');
      expect(text).toContain(`metrics.port: ${port} on 127.0.0.1 is in use by another process`);
      expect(text).toContain('--metrics-port N');
      expect(text).not.toContain('stopping: quoting stops');
      expect(text).not.toContain('outcome-maker summary');
      expect(existsSync(dbPath), 'the ledger file').toBe(false);
      expect(existsSync(`${dbPath}.lock`), 'the lock file').toBe(false);
      expect(requestsOf(sim)).toBe(0);

      // The same port given on the command line is named as such; another port there lets the bot start.
      const flagged = spawnBot(sim, configPath, ['--metrics-port', String(port)]);
      expect((await flagged.exited).code).toBe(2);
      expect(flagged.lines.join('\n')).toContain(`metrics.port: ${port} (set by --metrics-port) on 127.0.0.1 is in use`);
      // --duration 1 ends during start-up: the start finishes, then the stop cancels what it started (exit 0).
      const moved = spawnBot(sim, configPath, ['--metrics-port', '0', '--duration', '1']);
      const listening = await moved.waitForLine((line) => line.includes('"msg":"metrics server listening"'), 30_000);
      expect(listening).not.toContain(`:${port}"`);
      expect((await moved.exited).code).toBe(0);
      expect(moved.lines).toContain('outcome-maker summary');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('an unusable database file stops the bot before its first request to the venue', async () => {
    sim.control.clearRequestLog();
    const { configPath, dbPath } = writeBotConfig(sim, { botTag: 'baddb' });
    mkdirSync(dbPath); // a directory where the ledger file should be
    const bot = spawnBot(sim, configPath);
    const exit = await bot.exited;
    expect(exit.code).toBe(1);
    expect(bot.lines.join('\n')).toContain('start-up failed');
    expect(requestsOf(sim)).toBe(0);
  }, 30_000);

  it('an old config with orders.cancelUnknownOrdersOnStart is refused, naming orders.foreignOrders', async () => {
    sim.control.clearRequestLog();
    const { configPath } = writeBotConfig(sim, { botTag: 'oldconf', orders: { cancelUnknownOrdersOnStart: true } });
    const bot = spawnBot(sim, configPath);
    const exit = await bot.exited;
    expect(exit.code).toBe(2);
    const text = bot.lines.join('\n');
    expect(text).toContain('orders.cancelUnknownOrdersOnStart');
    expect(text).toContain('orders.foreignOrders');
    expect(requestsOf(sim)).toBe(0);
  }, 30_000);

  it('one SIGTERM delivered twice is one clean stop: orders canceled, exit 0', async () => {
    const slugs = simMarketSlugs(sim, 1);
    const { configPath } = writeBotConfig(sim, { botTag: 'twice', markets: slugs });
    const bot = spawnBot(sim, configPath);
    try {
      await bot.waitForLine(isQuotingLine, 30_000);
      const own = (): number => liveOrders(sim, slugs).filter((o) => o.clientOrderId?.startsWith('twice-') === true).length;
      await poll(() => (own() > 0 ? true : undefined), { timeoutMs: 20_000, intervalMs: 50, failure: () => `no live order of the bot; last lines:\n${bot.lines.slice(-10).join('\n')}` });
      // The second one as soon as the first is being handled (two sent in one tick merge into one pending signal).
      bot.child.kill('SIGTERM');
      await bot.waitForLine((line) => line.includes('stopping: quoting stops'), 5_000);
      bot.child.kill('SIGTERM');
      const exit = await bot.exited;
      expect(exit.code).toBe(0);
      expect(own()).toBe(0);
      expect(bot.lines.join('\n')).toContain('signal repeated within the grace period');
    } finally {
      await bot.stop('SIGKILL');
    }
  }, 60_000);
});
