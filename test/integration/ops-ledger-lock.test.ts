/**
 * The ledger's owner lock, with real processes (the CLI as a child process): a paper bot owns its ledger; a second `run` of
 * the same config exits 2 naming the ledger and the owner's PID, having renamed and deleted nothing (the paper
 * rotation included); `report` reads the ledger while the owner runs; after the owner is SIGKILLed its lock file is
 * left behind, and the next bot takes it over (saying so) and removes it when it stops.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { stringify } from 'yaml';
import { botEnv, isQuotingLine, spawnWatched, type BotProcess } from '../support/bot-process.js';
import { runCliProcess } from '../support/cli-process.js';
import { jsonLines, pollFor, ROOT, stopAfterEach } from './ops-support.js';

const started = stopAfterEach();

/** A paper config (embedded simulator, so `run` rotates its ledger) in a fresh folder. */
function writePaperConfig(): { configPath: string; dbPath: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'om-lock-'));
  const dbPath = join(dir, 'paper.db');
  const config = {
    version: 1,
    venue: { kind: 'sim', seed: 5, markets: 2, settlementDelayMs: 100, flow: { enabled: true, noiseTakersPerMinute: 30 } },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 1, orderSize: 5 } },
    orders: { botTag: 'lock' },
    risk: { maxPositionPerToken: 100, maxNetPosition: 60, maxOpenOrders: 6, maxNotional: 500, dailyLossLimit: 1000 },
    metrics: { enabled: true, port: 0 },
    database: { path: dbPath },
    log: { level: 'info', pretty: false },
    shutdown: { budgetMs: 5000 },
  };
  const configPath = join(dir, 'paper.yaml');
  writeFileSync(configPath, stringify(config));
  return { configPath, dbPath, dir };
}

const runPaper = (configPath: string): BotProcess => spawnWatched(process.execPath, [join(ROOT, 'bin', 'outcome-maker.mjs'), 'run', '--config', configPath], botEnv(null));

it('one process owns a ledger: a second run exits 2 having touched nothing; a SIGKILLed owner\'s lock is taken over', async () => {
  const { configPath, dbPath, dir } = writePaperConfig();
  const first = runPaper(configPath);
  started.bot = first;
  await first.waitForLine(isQuotingLine, 30_000);
  const firstPid = first.child.pid;
  if (firstPid === undefined) throw new Error('the first bot has no PID');
  const lockPath = `${resolve(dbPath)}.lock`;
  expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: firstPid });
  const filesBefore = readdirSync(dir).sort();

  // The same config again: refused before anything is opened, renamed or deleted.
  const second = runPaper(configPath);
  const secondExit = await second.exited;
  expect(secondExit.code).toBe(2);
  const refusal = jsonLines(second).find((line) => line.msg.includes('is in use'));
  expect(refusal?.msg).toContain(resolve(dbPath));
  expect(refusal?.msg).toContain(`held by process ${firstPid}`);
  expect(refusal?.['holderPid']).toBe(firstPid);
  expect(second.lines.some((line) => line.includes('previous ledger kept aside'))).toBe(false);
  expect(second.lines.some((line) => line.includes('metrics server listening'))).toBe(false);
  expect(readdirSync(dir).sort()).toEqual(filesBefore);
  expect(existsSync(`${dbPath}.previous`)).toBe(false);

  // A reader is welcome while the owner runs.
  const report = await runCliProcess(['report', '--config', configPath, '--format', 'json'], dir);
  expect(report.code, report.stderr).toBe(0);
  expect(report.stdout.trim().startsWith('{')).toBe(true);
  expect(first.child.exitCode).toBeNull();

  // The owner dies without releasing: its lock stays, naming a dead PID, and the next run takes it over.
  first.child.kill('SIGKILL');
  await first.exited;
  expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: firstPid });
  const third = runPaper(configPath);
  started.bot = third;
  await third.waitForLine(isQuotingLine, 30_000);
  const takeover = jsonLines(third).find((line) => line.msg === 'ledger lock left by a process that is gone: taken over');
  expect(takeover?.['previousPid']).toBe(firstPid);
  expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: third.child.pid });
  // Only now, with the lock held, is the dead bot's ledger kept aside.
  expect(existsSync(`${dbPath}.previous`)).toBe(true);

  const stopped = await third.stop('SIGTERM');
  expect(stopped.code).toBe(0);
  await pollFor('the lock file removed', () => (existsSync(lockPath) ? undefined : true), 5_000);
}, 90_000);
