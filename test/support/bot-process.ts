/**
 * The bot as a child process (its real CLI, `node bin/outcome-maker.mjs run`) against a simulator that runs in
 * the test process, so the simulator outlives the bot across SIGKILLs and restarts and can be checked from
 * outside. For chaos, operations and shutdown tests.
 *
 * The bot sees the simulator as a `live` venue on 127.0.0.1 with the demo account's credentials in its
 * environment, exactly as it would see the real exchange. Every process is killed when the test stops it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/sim/index.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS } from '../../src/sim/engine/index.js';
import { currentCodeEnv } from './cli-process.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface BotConfigOverrides {
  readonly markets?: readonly string[];
  /** The whole `markets` section (selection rules, discovery); wins over `markets`. */
  readonly marketsSection?: Readonly<Record<string, unknown>>;
  /** Laid over the `pricing` section (the simulator's Hermes stand-in is always set). */
  readonly pricing?: Readonly<Record<string, unknown>>;
  readonly strategy?: { readonly name: string; readonly params: Readonly<Record<string, unknown>> };
  readonly orders?: Readonly<Record<string, unknown>>;
  readonly risk?: Readonly<Record<string, unknown>>;
  readonly shutdown?: Readonly<Record<string, unknown>>;
  readonly feed?: Readonly<Record<string, unknown>>;
  readonly maintenance?: Readonly<Record<string, unknown>>;
  readonly rateLimits?: Readonly<Record<string, unknown>>;
  readonly metrics?: Readonly<Record<string, unknown>>;
  readonly redemption?: Readonly<Record<string, unknown>>;
  /** The `calibration` section (offsets before settlement). */
  readonly calibration?: Readonly<Record<string, unknown>>;
  /** The `rewards` section (estimates, the venue's own figures' poll). */
  readonly rewards?: Readonly<Record<string, unknown>>;
  readonly botTag?: string;
  /** Laid over the `log` section (JSON at info by default). */
  readonly log?: Readonly<Record<string, unknown>>;
}

/** A simulator for process tests: loopback, synthetic flow unless told otherwise. */
export async function startProcessSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ port: 0, seed: 11, markets: 3, settlementDelayMs: 300, ...options });
}

/**
 * The simulator's crypto world with BTC alone and one daily strike market settling 12 hours from now (whatever the time
 * of day: it settles after the test), market makers on and no other flow: the venue of the rolling-markets tests.
 */
export async function startBtcDailyWorld(): Promise<{ readonly venue: RunningSimulator; readonly daily: string }> {
  const dailyHourUtc = (new Date().getUTCHours() + 12) % 24;
  const venue = await startProcessSimulator({
    markets: [],
    synthetic: { makers: { enabled: true }, noise: { ratePerMinute: 0 }, informed: { ratePerMinute: 0 } },
    world: {
      underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC'), leadMs: 500, makerLagMs: 0 },
      markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['daily'], strikesPerExpiry: 1, dailyHourUtc, recurring: false },
    },
  });
  const [daily] = venue.engine.markets().map((m) => m.slug);
  if (daily === undefined) {
    await venue.close();
    throw new Error('the world listed no market');
  }
  return { venue, daily };
}

/** The tradable (non-group) market slugs of a simulator. */
export function simMarketSlugs(sim: RunningSimulator, count = 2): string[] {
  return sim.engine
    .markets()
    .filter((m) => m.groupSlug === undefined)
    .slice(0, count)
    .map((m) => m.slug);
}

/** Writes a `live` config pointing at the simulator into a fresh temp dir; returns its path and the database path. */
export function writeBotConfig(sim: RunningSimulator, overrides: BotConfigOverrides = {}, dir = mkdtempSync(join(tmpdir(), 'om-bot-'))): { configPath: string; dbPath: string; dir: string } {
  const dbPath = join(dir, 'bot.db');
  const config = {
    version: 1,
    venue: { kind: 'live', baseUrl: sim.baseUrl, socketUrl: sim.socketUrl, headerPrefix: sim.headerPrefix },
    credentials: { apiTokenId: 'OM_TEST_TOKEN_ID', apiSecret: 'OM_TEST_SECRET', privateKey: 'OM_TEST_PRIVATE_KEY' },
    markets: overrides.marketsSection ?? { slugs: overrides.markets ?? simMarketSlugs(sim) },
    strategy: overrides.strategy ?? { name: 'fixed-spread', params: { bidSpread: 0.02, askSpread: 0.02, levels: 1, orderSize: 5 } },
    orders: { botTag: overrides.botTag ?? 'chaos', recvWindowMs: null, ...overrides.orders },
    risk: { maxPositionPerToken: 100, maxNetPosition: 60, maxOpenOrders: 6, maxNotional: 500, dailyLossLimit: 1000, ...overrides.risk },
    ...(overrides.rateLimits ? { rateLimits: overrides.rateLimits } : {}),
    ...(overrides.feed ? { feed: overrides.feed } : {}),
    ...(overrides.maintenance ? { maintenance: overrides.maintenance } : {}),
    ...(overrides.redemption ? { redemption: overrides.redemption } : {}),
    ...(overrides.calibration ? { calibration: overrides.calibration } : {}),
    ...(overrides.rewards ? { rewards: overrides.rewards } : {}),
    metrics: { enabled: true, port: 0, ...overrides.metrics },
    // The simulator's Pyth Hermes stand-in, never the public service (spawnBot gives it a key).
    pricing: { ...overrides.pricing, hermes: { endpoint: sim.hermesUrl } },
    shutdown: { budgetMs: 8000, ...overrides.shutdown },
    database: { path: dbPath },
    log: { level: 'info', pretty: false, ...overrides.log },
  };
  const configPath = join(dir, 'bot.yaml');
  writeFileSync(configPath, stringify(config));
  return { configPath, dbPath, dir };
}

export interface BotProcess {
  readonly child: ChildProcess;
  /** Every stdout/stderr line so far. */
  readonly lines: string[];
  /** Resolves with the first line matching, or rejects after `timeoutMs`. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Sends the signal; resolves with the exit code (or signal) and how long the exit took. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The environment of a bot process: PATH, HOME, JSON logs, for a live-kind config the simulator's demo credentials,
 * and the sources when dist/ is not a build of them (test/support/cli-process.ts: a bot never runs stale code).
 */
export function botEnv(sim: RunningSimulator | null): Record<string, string> {
  const demo = sim?.demoAccount;
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    ...currentCodeEnv(),
    ...(demo === undefined ? {} : { OM_TEST_TOKEN_ID: demo.tokenId, OM_TEST_SECRET: demo.secret, OM_TEST_PRIVATE_KEY: demo.privateKey }),
    PYTH_API_KEY: 'process-test-key',
    OM_LOG_FORMAT: 'json',
  };
}

/** Spawns `outcome-maker run --config <path>` with the simulator's demo credentials in its environment. */
export function spawnBot(sim: RunningSimulator, configPath: string, extraArgs: readonly string[] = []): BotProcess {
  return spawnWatched(process.execPath, [join(ROOT, 'bin', 'outcome-maker.mjs'), 'run', '--config', configPath, ...extraArgs], botEnv(sim));
}

/**
 * Spawns any command from the checkout's root with exactly `env`, its output collected line by line: the bot
 * started another way (`npm start -- --config …`), or with a config of its own kind (a paper config: `botEnv(null)`).
 */
export function spawnWatched(command: string, args: readonly string[], env: Readonly<Record<string, string>>): BotProcess {
  const child = spawn(command, [...args], { cwd: ROOT, env: { ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  const onData = (buffer: Buffer): void => {
    for (const line of buffer.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
  });
  return {
    child,
    lines,
    exited,
    waitForLine(match, timeoutMs = 20_000) {
      const found = lines.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise<string>((resolveLine, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching line within ${timeoutMs} ms; last lines:\n${lines.slice(-15).join('\n')}`)), timeoutMs);
        waiters.push({
          match,
          resolve: (line) => {
            clearTimeout(timer);
            resolveLine(line);
          },
        });
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`bot exited before a matching line; last lines:\n${lines.slice(-15).join('\n')}`));
        });
      });
    },
    async stop(signal = 'SIGTERM', timeoutMs = 15_000) {
      const started = Date.now();
      if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode, ms: 0 };
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const result = await exited;
      clearTimeout(timer);
      return { ...result, ms: Date.now() - started };
    },
  };
}

/** The bot's 'quoting' log line (the first quote cycle is done). */
export const isQuotingLine = (line: string): boolean => line.includes('"msg":"quoting"');

/** Live orders of the demo account on the simulator, in the given markets. */
export function liveOrders(sim: RunningSimulator, slugs: readonly string[]): { slug: string; id: string; clientOrderId: string | null }[] {
  const profileId = sim.demoAccount.profileId;
  return slugs.flatMap((slug) =>
    sim.engine.orders(profileId, slug, ['LIVE']).map((o) => ({ slug, id: o.id, clientOrderId: o.clientOrderId ?? null })),
  );
}
