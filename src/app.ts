/**
 * The `run` command's process shell around the Bot: logger with secret censoring, signals, the optional run
 * duration, pm2's `ready` message, the paper-trading ledger reset, and the summary printed on exit.
 *
 * Invariants: SIGINT/SIGTERM stop quoting and cancel the bot's orders within the shutdown budget; a second
 * signal exits at once, but only when it comes more than SECOND_SIGNAL_GRACE_MS after the first: one signal
 * delivered twice (to the process group and to the process, as `timeout` and some supervisors do) still cancels
 * cleanly; SIGUSR2 lifts a kill-switch pause; the exit code is 0 only for a clean stop. The ledger's owner lock
 * (src/ledger/owner-lock.ts) is taken before anything touches the ledger (the paper rotation included) and released
 * on every exit; a ledger another process holds returns 2 having changed nothing; a busy metrics port returns 2
 * before the ledger is touched (no paper rotation, no ledger file, no summary). `--duration` counts from launch (the
 * process's start), start-up included; a stop asked for during start-up ends the start at its next step and stops
 * what it started (src/app/start-abort.ts); the summary
 * says how long the run ran from the strategy runner's start to the stop, and how that time split into quoting, waiting
 * (markets expected, no order) and idle (nothing to quote, as between two hourly ladders). Started by an npm script, the bot
 * also stops cleanly when npm goes away (./app/parent-watch.ts).
 */
import { existsSync, renameSync } from 'node:fs';
import type { Logger } from 'pino';
import type { AppConfig } from './config/types.js';
import { createLogger, LogCensor } from './log.js';
import { Bot, type BotSummary } from './app/bot.js';
import { tenthsOf, type QuotingTotals } from './operator/quoting-time.js';
import { MetricsPortError } from './app/resources.js';
import { CredentialsRefusedError } from './venue/credentials-check.js';
import { errorText } from './core/errors.js';
import { watchParent } from './app/parent-watch.js';
import { acquireLedgerLock, LedgerLockedError, type LedgerLock } from './ledger/owner-lock.js';

export interface RunOptions {
  readonly dryRun: boolean;
  /** Stop this long after launch (the process's start: start-up counts), e.g. `--duration`. */
  readonly durationMs?: number;
  readonly configPath: string;
  /** Where `metrics.port` came from when not the config file (`--metrics-port`, `OM_METRICS_PORT`), for errors. */
  readonly metricsPortSetBy?: string;
  /** Where the credentials are read (default: the process's environment; `rehearse` gives the simulator's demo account). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Milliseconds since launch (Node's time origin: the process's start). */
const sinceLaunchMs = (): number => performance.now();
/** The launch in the bot's clock (Date.now, the system scheduler's), for the summary's times. */
const LAUNCH_AT_MS = Math.round(performance.timeOrigin);

const usdc = (raw: number): string => (raw / 1e6).toFixed(2);

/** A second SIGINT/SIGTERM within this long of the first is the same request delivered twice, not "exit now". */
export const SECOND_SIGNAL_GRACE_MS = 1000;

/**
 * What a stop signal means, given when the first one came (null: none yet): 'stop' (a clean shutdown), 'repeat'
 * (the same request delivered twice: ignored) or 'exit-now' (an operator insisting). Pure.
 */
export function signalAction(firstAtMs: number | null, nowMs: number, graceMs = SECOND_SIGNAL_GRACE_MS): 'stop' | 'repeat' | 'exit-now' {
  if (firstAtMs === null) return 'stop';
  return nowMs - firstAtMs <= graceMs ? 'repeat' : 'exit-now';
}

/**
 * When the run began and stopped, in the bot's clock (the scheduler's: Date.now, wall ms), for the summary's
 * `running` line: the launch (Node's time origin, rounded to the ms) and the moment the stop was asked for.
 */
export interface RunTimes {
  readonly launchAtMs: number;
  readonly stoppedAtMs: number;
}

const tenths = (t: number): string => `${(t / 10).toFixed(1)} s`;

/**
 * The summary's `running` line and the split of that time (src/operator/quoting-time.ts): quoting, waiting with
 * markets expected, idle with nothing to quote (between two ladders). Both ends of `running` are the quoting clock's
 * own first and last observations, so the three parts add up to it exactly; printed to the tenth, the ends are
 * rounded once and the parts apportioned to fill exactly the printed span. Without a clock (a stop before quoting
 * began) only the time of the stop. Pure.
 */
export function runningLines(quoting: QuotingTotals | null, times: RunTimes): string[] {
  if (quoting === null) return [`  running        never quoting (stopped ${tenths(Math.round((times.stoppedAtMs - times.launchAtMs) / 100))} after launch, before quoting began)`];
  const from = Math.round((quoting.fromMs - times.launchAtMs) / 100);
  const to = Math.round((quoting.toMs - times.launchAtMs) / 100);
  const [q = 0, w = 0, i = 0] = tenthsOf([quoting.quotingMs, quoting.waitingMs, quoting.idleMs], to - from);
  return [
    `  running        ${tenths(to - from)}, from ${tenths(from)} to ${tenths(to)} after launch`,
    `  quoting        ${tenths(q)} (an order of the bot on the book)`,
    `  waiting        ${tenths(w)} (markets expected, no order: joining, no book yet, halted, blocked)`,
    `  idle           ${tenths(i)} (nothing to quote: no market traded before its stop, as between two ladders)`,
  ];
}

export function formatSummary(summary: BotSummary, times?: RunTimes): string {
  return [
    'outcome-maker summary',
    ...(times === undefined ? [] : runningLines(summary.quoting, times)),
    `  orders placed  ${summary.placed}${summary.placed === 0 ? ' (nothing was placed)' : ''}`,
    `  fills          ${summary.fills}`,
    `  volume         ${usdc(summary.volumeRaw)} USDC`,
    `  realized PnL   ${usdc(summary.realizedPnlRaw)} USDC`,
    `  unrealized PnL ${usdc(summary.unrealizedPnlRaw)} USDC`,
    `  requests       ${summary.requests}`,
    `  429 answers    ${summary.rateLimited}`,
    `  open orders    ${summary.openOrders}`,
  ].join('\n');
}

/**
 * Paper trading starts a fresh simulator every run, so a ledger from an earlier paper session describes
 * positions this venue never had: it is kept beside as `<path>.previous` and a new one is started.
 */
function rotatePaperLedger(config: AppConfig): string | null {
  const path = config.database.path;
  if (config.venue.kind !== 'sim' || path === ':memory:' || !existsSync(path)) return null;
  const previous = `${path}.previous`;
  renameSync(path, previous);
  for (const suffix of ['-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, previous + suffix);
  return previous;
}

export async function runBot(config: AppConfig, options: RunOptions): Promise<number> {
  const censor = new LogCensor();
  const logger = createLogger({ level: config.log.level, pretty: config.log.pretty === 'auto' ? process.env['OM_LOG_FORMAT'] !== 'json' && process.stdout.isTTY : config.log.pretty, censor });
  let lock: LedgerLock;
  try {
    lock = acquireLedgerLock(config.database.path);
  } catch (error) {
    if (!(error instanceof LedgerLockedError)) throw error;
    logger.error({ ledger: error.ledgerPath, holderPid: error.holder?.pid ?? null, lockFile: error.lockPath }, error.message);
    return 2;
  }
  const releaseLock = (): void => lock.release();
  process.once('exit', releaseLock);
  // The scheduler's timers are unref'd: without a handle of its own, a start-up waiting only on them (a retry's
  // backoff with the metrics server disabled) would leave Node an empty loop, and it would exit mid-start (code 13).
  const keepAlive = setInterval(() => undefined, 60_000);
  try {
    return await runLocked(config, options, { logger, censor, lock });
  } finally {
    clearInterval(keepAlive);
    releaseLock();
    process.off('exit', releaseLock);
  }
}

async function runLocked(config: AppConfig, options: RunOptions, shell: { readonly logger: Logger; readonly censor: LogCensor; readonly lock: LedgerLock }): Promise<number> {
  const { logger, censor, lock } = shell;
  if (lock.tookOverFrom !== null) {
    const { holder, why } = lock.tookOverFrom;
    logger.warn({ ledger: lock.ledgerPath, previousPid: holder.pid, since: holder.startedAt, why }, 'ledger lock left by a process that is gone: taken over');
  }
  const bot = new Bot(config, {
    dryRun: options.dryRun,
    logger,
    env: options.env ?? process.env,
    onSecret: (value) => censor.addSecret(value),
    // Once the metrics port is bound: a busy port leaves the previous paper ledger where it was.
    beforeLedger: () => {
      const rotated = rotatePaperLedger(config);
      if (rotated) logger.info({ previous: rotated }, 'paper session: previous ledger kept aside, starting a fresh one');
    },
    ...(options.metricsPortSetBy === undefined ? {} : { metricsPortSetBy: options.metricsPortSetBy }),
  });

  const hardDeadline = (): void => {
    // The shutdown budget is a promise to pm2 (kill_timeout is above it): never overrun it.
    setTimeout(() => {
      logger.error({ budgetMs: config.shutdown.budgetMs }, 'shutdown budget exceeded: exiting');
      process.exit(1);
    }, config.shutdown.budgetMs + 500).unref();
  };
  let quotingFromMs: number | null = null;
  let stopping: Promise<number> | null = null;
  /** The exit code when the run ends on an error of its own (credentials refused: 2), whatever the stop's outcome. */
  let exitCode: number | null = null;
  let stopRequested: () => void = () => undefined;
  const whenStopRequested = new Promise<void>((resolveStop) => (stopRequested = resolveStop));
  /** Whether a stop was asked for (a closure: its answer changes while the start-up is awaited). */
  const stopAsked = (): boolean => stopping !== null;
  const stop = (reason: string): Promise<number> => {
    stopping ??= (async () => {
      logger.info({ reason }, 'stopping: quoting stops, orders are canceled');
      const stoppedAtMs = Date.now();
      stopRequested();
      // A stop during start-up does not wait for the start: bot.stop() ends it at its next step (src/app/start-abort.ts).
      hardDeadline();
      const { clean, summary } = await bot.stop();
      process.stdout.write(`${formatSummary(summary, { launchAtMs: LAUNCH_AT_MS, stoppedAtMs })}\n`);
      return exitCode ?? (clean ? 0 : 1);
    })();
    return stopping;
  };
  let firstSignalAtMs: number | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    const now = Date.now();
    const action = signalAction(firstSignalAtMs, now);
    if (action === 'repeat') {
      logger.info({ signal }, 'signal repeated within the grace period: the clean shutdown goes on');
      return;
    }
    if (action === 'exit-now') {
      logger.error({ signal }, 'second signal: exiting at once');
      process.exit(130);
    }
    firstSignalAtMs = now;
    void stop(signal);
  };
  const onResume = (): void => {
    logger.warn({ resumed: bot.resume() }, 'SIGUSR2: resume requested');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGUSR2', onResume);
  const stopParentWatch = watchParent({
    env: process.env,
    ppid: () => process.ppid,
    every: (ms, run) => {
      const timer = setInterval(run, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
    onOrphaned: (previousPpid, currentPpid) => {
      logger.warn({ previousPpid, currentPpid }, 'the process that started the bot is gone: stopping as on SIGTERM');
      void stop('parent process gone');
    },
  });
  const detach = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGUSR2', onResume);
    stopParentWatch();
  };
  // --duration counts from launch: start-up is part of it.
  if (options.durationMs !== undefined) {
    setTimeout(() => void stop('duration elapsed'), Math.max(0, options.durationMs - sinceLaunchMs())).unref();
  }

  // The feed refused the credentials at start-up: one error line, the stop, exit 2.
  void bot.whenFailed().then((error) => {
    if (stopAsked()) return;
    exitCode = error.exitCode;
    logger.error({ source: error.source }, error.message);
    void stop('credentials refused');
  });
  const startup = bot.start();
  startup.catch(() => undefined);
  try {
    await Promise.race([startup, whenStopRequested]);
  } catch (error) {
    if (!stopAsked() && !bot.venueTouched) {
      // Preflight (metrics port, ledger file): nothing of the venue was opened, no order can exist. No summary.
      const busyPort = error instanceof MetricsPortError;
      logger.error({ err: errorText(error), ...(busyPort ? { metricsPort: error.port, host: error.host } : {}) }, busyPort ? error.message : 'start-up failed before the venue was touched');
      await bot.stop();
      detach();
      return busyPort ? 2 : 1;
    }
    if (stopAsked()) {
      // A stop (a signal, the duration, the parent gone) came while starting: the start ended where it was.
      logger.info({ reason: errorText(error) }, 'start-up ended by the stop');
      const code = await stop('stop requested');
      detach();
      return code;
    }
    if (error instanceof CredentialsRefusedError) {
      // One line naming the likely cause; nothing was composed, so nothing was placed and nothing is canceled.
      exitCode = error.exitCode;
      logger.error({ source: error.source, status: error.status }, error.message);
      await stop('credentials refused');
      detach();
      return error.exitCode;
    }
    logger.error({ err: errorText(error) }, 'start-up failed');
    await stop('start-up failure');
    detach();
    return 1;
  }
  if (!stopAsked()) {
    quotingFromMs = sinceLaunchMs();
    await Promise.race([bot.whenQuoting(), whenStopRequested]);
    if (!stopAsked()) {
      logger.info({ metrics: bot.metricsUrl, simulator: bot.simulator?.baseUrl ?? null, sinceLaunchSec: Number((quotingFromMs / 1000).toFixed(1)) }, 'quoting');
      if (typeof process.send === 'function') process.send('ready');
    }
  }
  await whenStopRequested;
  const code = await stop('stop requested'); // the stop already under way (a signal, the duration, the parent gone)
  detach();
  return code;
}
