/**
 * `outcome-maker run` on the embedded simulator (a paper config, the real CLI as a child process), from launch to
 * exit (issue 32, items 4 and 5):
 * - `--duration` counts from launch: the stop comes that long after the process started, start-up included, and the
 *   summary says how long the run quoted (from the strategy runner's start to the stop);
 * - a clean stop logs no WARN, also while the venue answers slowly so that requests are queued and in flight when the
 *   bot stops: the client sends nothing once closed and the simulator closes after the bot's last request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { botEnv, isQuotingLine, spawnWatched, type BotProcess } from '../support/bot-process.js';
import { pollFor, scrape, stopAfterEach, sumOf } from './ops-support.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'om-run-timing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const started = stopAfterEach();

let configs = 0;
/** A paper config of its own (ledger in a temp dir, metrics on any free port): 2 generic markets, busy synthetic flow. */
function paperConfig(extra: Readonly<Record<string, unknown>> = {}): string {
  const path = join(dir, `paper-${(configs += 1)}.yaml`);
  const config = {
    ...extra,
    venue: { kind: 'sim', seed: 7, markets: 2, flow: { enabled: true, noiseTakersPerMinute: 60 } },
    strategy: { name: 'fixed-spread', params: { bidSpread: 0.01, askSpread: 0.01, levels: 2, levelSpacing: 0.01, orderSize: 10 } },
    orders: { botTag: 'timing' },
    metrics: { port: 0 },
    database: { path: join(dir, `paper-${configs}.db`) },
    log: { level: 'info', pretty: false },
  };
  writeFileSync(path, stringify(config));
  return path;
}

function run(configPath: string, args: readonly string[] = []): BotProcess {
  const bot = spawnWatched(process.execPath, [join(ROOT, 'bin', 'outcome-maker.mjs'), 'run', '--config', configPath, ...args], botEnv(null));
  started.bot = bot;
  return bot;
}

/** Lines at WARN or above (pino's JSON levels), and any line that is not JSON and names a warning. */
function warnings(bot: BotProcess): string[] {
  return bot.lines.filter((line) => /"level":(40|50|60|"warn"|"error"|"fatal")/.test(line));
}

const QUOTED = /^ {2}running +(\d+\.\d) s, from (\d+\.\d) s to (\d+\.\d) s after launch$/;
/** The split of that time (src/operator/quoting-time.ts): quoting, waiting, idle. */
const SPLIT = /^ {2}(quoting|waiting|idle) +(\d+\.\d) s \(/;

describe('run: --duration from launch, a clean stop without WARN', () => {
  // Long enough that a start-up on a machine loaded by the rest of the suite and a neighbour (13 s seen) still leaves
  // it quoting.
  const DURATION_S = 20;
  it(`--duration ${DURATION_S} stops ${DURATION_S} s after launch, start-up included, and the summary says how long it quoted`, async () => {
    const launchedAt = Date.now();
    const bot = run(paperConfig(), ['--duration', String(DURATION_S)]);
    const stopping = await bot.waitForLine((line) => line.includes('"reason":"duration elapsed"'), 60_000);
    const stoppedAfterMs = Date.parse(String((JSON.parse(stopping) as { time: string }).time)) - launchedAt;
    const exit = await bot.exited;
    expect(exit.code, bot.lines.slice(-12).join('\n')).toBe(0);
    // The timer runs from the process's start: the spawn itself takes a little before that (seconds on a loaded
    // machine, so the upper bound is loose here; the process's own clock below is held to half a second).
    expect(stoppedAfterMs).toBeGreaterThanOrEqual(DURATION_S * 1000);
    expect(stoppedAfterMs).toBeLessThan(DURATION_S * 1000 + 10_000);
    const quoted = bot.lines.map((line) => QUOTED.exec(line)).find((match) => match !== null);
    expect(quoted, bot.lines.slice(-12).join('\n')).toBeDefined();
    const [, length, from, to] = (quoted ?? []).map(Number);
    expect(to).toBeGreaterThanOrEqual(DURATION_S);
    expect(to).toBeLessThan(DURATION_S + 0.5);
    expect(from).toBeGreaterThan(0);
    const tenths = (s: number | undefined): number => Math.round((s ?? Number.NaN) * 10);
    expect(tenths(length)).toBe(tenths(to) - tenths(from));
    // The paper world's markets are all traded from the start: the time splits into waiting (to the first orders, long
    // on a loaded machine) and quoting, nothing idle; the three add up EXACTLY to the running time (one clock).
    const split = new Map(bot.lines.map((line) => SPLIT.exec(line)).flatMap((m) => (m === null ? [] : [[m[1], Number(m[2])] as const])));
    expect([...split.keys()].sort()).toEqual(['idle', 'quoting', 'waiting']);
    expect(split.get('idle')).toBe(0);
    expect(tenths(split.get('quoting')) + tenths(split.get('waiting'))).toBe(tenths(length));
    expect(warnings(bot)).toEqual([]);
  }, 90_000);

  it('a clean stop logs no WARN while the venue answers slowly (requests queued and in flight at the stop)', async () => {
    for (let round = 1; round <= 2; round += 1) {
      // The ledger check and the trading-mode poll every half second: reads are always under way when the stop comes.
      const bot = run(paperConfig({ maintenance: { ledgerCheckSec: 0.5, pollIntervalSec: 0.5 } }));
      const quoting = JSON.parse(await bot.waitForLine(isQuotingLine, 60_000)) as { simulator: string; metrics: string };
      // Every answer of the embedded simulator 150 ms late: the bot's requests pile up behind its limiter.
      const delayed = await fetch(`${quoting.simulator}/_sim/faults/delay`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 150 }) });
      expect(delayed.status).toBe(200);
      // The stop comes while requests wait in the bot's limiter.
      await pollFor('requests queued in the limiter', async () => (sumOf((await scrape(quoting.metrics)).samples, 'outcome_maker_limiter_queue_depth') > 0 ? true : undefined), 20_000, 20);
      const stopped = await bot.stop('SIGINT', 30_000);
      expect(stopped.code, `round ${round}: ${bot.lines.slice(-12).join('\n')}`).toBe(0);
      expect(bot.lines).toContain('outcome-maker summary');
      expect(bot.lines.some((line) => /^ {2}open orders +0$/.test(line))).toBe(true);
      expect(warnings(bot), `round ${round}`).toEqual([]);
    }
  }, 180_000);
});
