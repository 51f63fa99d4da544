/**
 * `npm start` across an hour boundary, as a process: the real entry (`node bin/outcome-maker.mjs run --config`, as
 * `npm start` runs it; the build in dist/ when it is current, else the sources) on the embedded simulator's crypto
 * world with the DEFAULT account (externally owned: the API redeem is refused). The session's clock starts 10 s before
 * the next UTC hour (`venue.startBeforeHourSec`, shared by the simulator, the bot and its ledger), so the bot quotes
 * the hourly BTC ladder, holds some of its tokens when it settles, and the winnings come back through the on-chain
 * path (the capital core over the engine's port). Then `report --config` (the CLI, a process, on the same ledger) shows
 * the redemption with the capital by state. Seconds, not an hour.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { spawnWatched, type BotProcess } from '../support/bot-process.js';
import { builtCliIsCurrent, runCliProcess } from '../support/cli-process.js';

const ROOT = join(import.meta.dirname, '..', '..');
let bot: BotProcess | null = null;
let dir: string | null = null;
afterEach(async () => {
  await bot?.stop('SIGKILL', 5_000);
  bot = null;
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

interface LogLine {
  readonly msg?: string;
  readonly market?: string;
  readonly usdcInRaw?: number;
  readonly time?: number;
}

function paperConfig(path: string, dbPath: string): void {
  const config = {
    version: 1,
    venue: {
      kind: 'sim',
      seed: 7,
      world: 'crypto',
      underlying: { tickers: ['BTC'], cadences: ['hourly'], strikesPerExpiry: 2 },
      startingCollateral: 1000,
      // The session starts 10 s before the hour (the bot quotes ~7 s after launch); the payout is posted 0.5 s after the settlement.
      startBeforeHourSec: 10,
      settlementDelayMs: 200,
      payoutDelayMs: 500,
      rewards: { enabled: false },
      // Many takers: the bot, the best bid and ask, is filled on both sides of each market before the settlement.
      flow: { enabled: true, noiseTakersPerMinute: 600 },
    },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 10, inventoryRange: 50 } },
    orders: { botTag: 'hour' },
    pricing: { stopBeforeSettlementSec: 1 },
    risk: { maxPositionPerToken: 200, maxNetPosition: 100, maxOpenOrders: 8, maxNotional: 800, dailyLossLimit: 50 },
    redemption: { retryInitialSec: 0.5, retryMaxSec: 1 },
    capital: { intervalSec: 0.5, chainCheckSec: 1, chainUsdcInFlightSec: 1 },
    metrics: { enabled: false },
    database: { path: dbPath },
    log: { level: 'info', statusIntervalSec: 0 },
  };
  writeFileSync(path, stringify(config));
}

describe('npm start across an hour boundary (a process, paper, the default account)', () => {
  it('the settled hourly market\'s winnings come back on-chain; `report` shows the redemption and the capital by state', async () => {
    dir = mkdtempSync(join(tmpdir(), 'om-hour-'));
    const configPath = join(dir, 'paper.yaml');
    const dbPath = join(dir, 'paper.db');
    paperConfig(configPath, dbPath);
    const env = { PATH: process.env['PATH'] ?? '', HOME: dir, OM_LOG_FORMAT: 'json', ...(builtCliIsCurrent() ? {} : { OUTCOME_MAKER_FROM_SOURCE: '1' }) };
    bot = spawnWatched(process.execPath, [join(ROOT, 'bin', 'outcome-maker.mjs'), 'run', '--config', configPath], env);
    const redeemedLine = await bot.waitForLine((line) => line.includes('"msg":"redeemed on-chain"'), 40_000);
    const redeemed = JSON.parse(redeemedLine) as LogLine;
    const stopped = await bot.stop('SIGINT', 15_000);
    expect(stopped.code).toBe(0);
    const lines = bot.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LogLine);
    // The venue refused the API redeem (externally owned), so the market went to the on-chain path.
    expect(lines.some((l) => l.msg?.startsWith('the venue refuses API redemption for this account') === true)).toBe(true);
    expect(redeemed.market).toMatch(/^dollarbtc-above-/);
    expect(redeemed.usdcInRaw).toBeGreaterThan(0);
    // Every on-chain redemption of the run, and its USDC (each hourly market the bot held winners of).
    const all = lines.filter((l) => l.msg === 'redeemed on-chain');
    const totalRaw = all.reduce((sum, l) => sum + (l.usdcInRaw ?? 0), 0);

    const report = await runCliProcess(['report', '--config', configPath, '--format', 'json'], dir);
    expect(report.code, report.stderr).toBe(0);
    const json = JSON.parse(report.stdout) as { capital: { redeemedTodayUsdc: number; apiRedeemedTodayUsdc: number; unredeemedUsdc: number; gasToday: { transactions: number } } };
    expect(json.capital.redeemedTodayUsdc).toBe(Number((totalRaw / 1e6).toFixed(2)));
    expect(json.capital.apiRedeemedTodayUsdc).toBe(0);
    expect(json.capital.gasToday.transactions).toBeGreaterThanOrEqual(all.length);
    const table = await runCliProcess(['report', '--config', configPath], dir);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('capital by state (USDC, as of ');
    expect(table.stdout).toMatch(new RegExp(`redeemed today \\(on-chain and API, UTC day\\) +${(totalRaw / 1e6).toFixed(2).replace('.', '\\.')}\\n`));
    expect(table.stdout).toMatch(/free \(wallet at the chain check [0-9: -]+, less open BUYs\) +[0-9]+\.[0-9]{2}\n/);
  }, 90_000);
});
