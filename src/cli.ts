/**
 * The `outcome-maker` command line: run, rehearse, sim, report, check-config, doctor, approve, resume, record, import, backtest,
 * price. One convention: every command that reads a config takes `--config`; `--version` prints package.json's.
 *
 * Owns: argument parsing (commander), the order of start-up checks and the exit codes:
 *   0 = done, 1 = runtime failure (the bot, the simulator, the report or a resume failed),
 *   2 = usage or config error (bad arguments, invalid config file, bad strategy params, missing
 *       credentials); nothing has touched the exchange when 2 is returned;
 *   3 = check-config only: `config OK, but …` (a valid file whose credential variables are not all set).
 * Every config problem is printed at once, with its path and (redacted where needed) value. The bot, the
 * simulator and the report are imported lazily so each command loads only what it needs.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { stringify } from 'yaml';
import {
  ConfigError,
  credentialIssues,
  loadCheckedConfigFile,
  loadConfigFile,
  credentialStatus,
  StrategyRegistryUnavailableError,
  type AppConfig,
  type Environment,
} from './config/index.js';
import { configToFile } from './config/file-view.js';
import { simListing } from './config/sim-listing.js';
import { METRICS_PORT_ENV, metricsPortOverride, MetricsPortUsageError, withMetricsPort } from './operator/metrics-port.js';
import { collect, parsePositiveSeconds, parseWholeNumber, portArgument } from './cli-arguments.js';
import { controlFilePath, requestResume, requestStatus } from './metrics/control.js';
import { formatStatus, parseStatusAnswer } from './operator/status-command.js';
import { unsharedSiblings } from './config/sibling-configs.js';
import { errorText } from './core/errors.js';
import { NPM_START_CONFIG, packageRoot, packageVersion } from './core/package-info.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** check-config: the file is valid, but a credential variable it names is unset (`run` would refuse to start). */
export const EXIT_CONFIG_INCOMPLETE = 3;

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Environment;
  /**
   * Loads the lazily imported command modules (`./app.js`, `./sim/cli.js`), relative to this file.
   * Default: dynamic import. Tests inject fakes to see exactly what a command passes on.
   */
  readonly load?: (specifier: string) => Promise<unknown>;
}

const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
};

/**
 * The modules a command imports on demand, each by a literal specifier: a bundler (bin/build-bundle.mjs) follows them
 * and keeps each a chunk of its own. `CliIo.load` replaces this in tests.
 */
const COMMAND_MODULES: Readonly<Record<string, () => Promise<unknown>>> = {
  './app.js': () => import('./app.js'),
  './sim/cli.js': () => import('./sim/cli.js'),
};
const importRelative = (specifier: string): Promise<unknown> => {
  const load = COMMAND_MODULES[specifier];
  return load === undefined ? Promise.reject(new Error(`no command module ${specifier}`)) : load();
};

/** A failure with its exit code, thrown inside a command and turned into output by `main`. */
class CliExit extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Run the CLI with `argv` (arguments after the program name). Resolves to the exit code; never throws. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode = EXIT_OK;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    if (error instanceof CliExit) {
      io.stderr(`${error.message}\n`);
      return error.code;
    }
    if (error instanceof ConfigError) {
      io.stderr(`${error.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr(`outcome-maker: ${errorText(error)}\n`);
    return EXIT_FAILURE;
  }
}

function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('outcome-maker')
    .description('Market-making daemon for a prediction-market CLOB exchange, with an embedded simulator.')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .version(packageVersion(), '-V, --version', 'print the version (package.json)')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', '\nExit codes: 0 ok, 1 runtime failure, 2 usage or config error (nothing was sent to the exchange), 3 check-config: config OK, but a credential variable is unset.');

  program
    .command('run')
    .description('run the bot with a config file')
    .requiredOption('-c, --config <file>', 'the bot\'s YAML config')
    .option('--dry-run', 'compute and log quotes without placing or canceling orders')
    .addOption(new Option('--duration <seconds>', 'stop this many seconds after launch (start-up included)').argParser(parsePositiveSeconds))
    .addOption(new Option('--metrics-port <port>', `serve /metrics, /healthz and /readyz on this port instead of metrics.port (0: any free port; default: $${METRICS_PORT_ENV}, else the config's)`).argParser(portArgument))
    .action(async (options: { config: string; dryRun?: boolean; duration?: number; metricsPort?: number }) => {
      const loaded = await loadCheckedConfig(options.config, io, { requireCredentials: true });
      let port: ReturnType<typeof metricsPortOverride>;
      let config: AppConfig;
      try {
        port = metricsPortOverride(options.metricsPort, io.env);
        config = port === null ? loaded.config : withMetricsPort(loaded.config, port, options.config);
      } catch (error) {
        if (error instanceof MetricsPortUsageError) throw new CliExit(EXIT_USAGE, `run: ${error.message}`);
        throw error;
      }
      const app = await importCommand(io, './app.js', 'runBot', isRunBot);
      const code = await app(config, {
        dryRun: options.dryRun === true,
        configPath: options.config,
        ...(options.duration === undefined ? {} : { durationMs: Math.round(options.duration * 1000) }),
        ...(port === null ? {} : { metricsPortSetBy: port.setBy }),
      });
      setExit(normaliseExitCode(code));
    });

  program
    .command('rehearse')
    .description('rehearse a live config on the simulator in one command: starts it on 127.0.0.1 for the config (its tickers, cadences and header prefix) and runs the bot against it with the demo account; the file is not changed (docs/going-live.md)')
    .requiredOption('-c, --config <file>', 'the live bot\'s YAML config')
    .addOption(new Option('--duration <seconds>', 'stop this many seconds after launch (start-up included); default: until SIGINT/SIGTERM').argParser(parsePositiveSeconds))
    .addOption(new Option('--seed <n>', 'seed of the simulator: its markets, prices and flow').default(1).argParser(parseWholeNumber))
    .addOption(new Option('--metrics-port <port>', 'serve /metrics, /healthz and /readyz on this port (default 0: any free port)').argParser(portArgument))
    .action(async (options: { config: string; duration?: number; seed: number; metricsPort?: number }) => {
      const { config } = await loadCheckedConfig(options.config, io, { requireCredentials: false });
      const rehearse = await importModule(() => import('./rehearse/command.js'), 'the rehearsal');
      const runBot = await importCommand(io, './app.js', 'runBot', isRunBot);
      try {
        const code = await rehearse.runRehearsal(config, {
          configPath: options.config,
          seed: options.seed,
          env: io.env,
          nowMs: Date.now(),
          stdout: io.stdout,
          stderr: io.stderr,
          runBot,
          ...(options.duration === undefined ? {} : { durationMs: Math.round(options.duration * 1000) }),
          ...(options.metricsPort === undefined ? {} : { metricsPort: options.metricsPort }),
        });
        setExit(normaliseExitCode(code));
      } catch (error) {
        if (error instanceof rehearse.RehearseUsageError) throw new CliExit(EXIT_USAGE, `rehearse: ${error.message}`);
        throw new CliExit(EXIT_FAILURE, `rehearse: ${errorText(error)}`);
      }
    });

  program
    .command('sim')
    .description('run the embedded exchange simulator on its own (arguments go to the simulator; try `sim --help`)')
    .helpOption(false)
    .passThroughOptions()
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[args...]', 'simulator arguments')
    .action(async (args: string[]) => {
      const runSim = await importCommand(io, './sim/cli.js', 'runSimCommand', isRunSim);
      setExit(normaliseExitCode(await runSim(args)));
    });

  program
    .command('report')
    .description('print fills, volume, positions and PnL from the ledger; --account: the account\'s balances against every bot\'s ledger')
    .option('--db <path>', `ledger database (default: database.path of --config, else that of ${NPM_START_CONFIG}, the ledger \`npm start\` writes); repeatable with --account`, collect, [])
    .option('-c, --config <file>', 'take the ledger path from this config; repeatable with --account', collect, [])
    .option('--account', 'several bots share one account: compare the account\'s balances (last read by any of them) with the sum of their ledgers')
    .option('--since <when>', 'from: today, 90m, 24h, 7d, 2025-01-31, an ISO date-time, or epoch ms')
    .option('--market <slug>', 'one market only')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json', 'csv', 'html']).default('table'))
    .option('--wide', 'table: the full tables at any width with the exact decimals (default: 120 columns, USDC at cents, prices at the tick)')
    .action(async (options: { db: string[]; config: string[]; account?: boolean; since?: string; market?: string; format: 'table' | 'json' | 'csv' | 'html'; wide?: boolean }) => {
      const ledger = await importModule(() => import('./ledger/index.js'), 'src/ledger');
      const nowMs = Date.now();
      if (options.account === true) {
        if (options.since !== undefined) throw new CliExit(EXIT_USAGE, 'report --account: --since does not apply (balances are as of the last read)');
        const format = options.format;
        if (format === 'html') throw new CliExit(EXIT_USAGE, 'report --account: --format html is for one ledger (table, json or csv here)');
        const ledgers = [
          ...options.config.map((file) => {
            const config = loadConfigFile(file);
            return { label: config.orders.botTag, db: config.database.path };
          }),
          ...options.db.map((db) => ({ label: db, db })),
        ];
        if (ledgers.length === 0) throw new CliExit(EXIT_USAGE, 'report --account: name every bot of the account with --config <file> (or --db <path>), repeated');
        try {
          io.stdout(await ledger.runAccountReport({ ledgers, market: options.market, format, nowMs }));
        } catch (error) {
          if (error instanceof ledger.ReportArgsError) throw new CliExit(EXIT_USAGE, error.message);
          throw new CliExit(EXIT_FAILURE, `report: ${errorText(error)}`);
        }
        return;
      }
      if (options.db.length + options.config.length > 1) throw new CliExit(EXIT_USAGE, 'report: give one --db or one --config (several only with --account)');
      let sinceMs: number | undefined;
      try {
        sinceMs = options.since === undefined ? undefined : ledger.parseSince(options.since, nowMs);
      } catch (error) {
        throw new CliExit(EXIT_USAGE, errorText(error));
      }
      const db = options.db[0] ?? loadConfigFile(options.config[0] ?? defaultReportConfig(io)).database.path;
      try {
        const text = await ledger.runReport({ db, sinceMs, market: options.market, format: options.format, nowMs, wide: options.wide === true });
        io.stdout(text.endsWith('\n') ? text : `${text}\n`);
      } catch (error) {
        if (error instanceof ledger.ReportArgsError) throw new CliExit(EXIT_USAGE, error.message);
        throw new CliExit(EXIT_FAILURE, `report: ${errorText(error)}`);
      }
    });

  program
    .command('check-config')
    .description('validate a config file and print it in the file\'s own names and units (a valid config), with credentials as variable names only')
    .argument('[file]', 'the YAML config (or --config)')
    .option('-c, --config <file>', 'the YAML config')
    .action(async (positional: string | undefined, options: { config?: string }) => {
      const file = configArgument(positional, options.config, 'check-config');
      const { config, strategyParams } = await loadCheckedConfig(file, io, { requireCredentials: false });
      io.stdout(`${checkConfigHeader(file, config, io.env).join('\n')}\n${stringify(configToFile(config, strategyParams))}`);
      const unset = credentialIssues(config.credentials, io.env);
      if (unset.length > 0) {
        io.stderr(`${file}: config OK, but ${unset.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}: \`run\` will refuse to start (exit ${EXIT_CONFIG_INCOMPLETE})\n`);
        setExit(EXIT_CONFIG_INCOMPLETE);
      }
    });

  program
    .command('doctor')
    .description('read-only checks before the first live order: venue, clock, token scope, profile, markets, balance, approvals, trading mode, socket units, rate limits, budgets')
    .requiredOption('-c, --config <file>', 'the live bot\'s YAML config')
    .option('--json', 'print one JSON object')
    .option('--rpc-url <url>', 'a JSON-RPC endpoint of the chain: reads the USDC balance and the SELL approvals on-chain')
    .addOption(new Option('--socket-wait <seconds>', 'how long to wait for the socket and its first books').argParser(parsePositiveSeconds))
    .option('--sim', 'try doctor on the simulator of a sim config (e.g. config/paper.yaml): starts it on 127.0.0.1, checks it, stops it')
    .action(async (options: { config: string; json?: boolean; rpcUrl?: string; socketWait?: number; sim?: boolean }) => {
      const { config } = await loadCheckedConfig(options.config, io, { requireCredentials: true });
      const doctor = await importModule(() => import('./doctor/index.js'), 'src/doctor');
      const onSim = options.sim === true ? await importModule(() => import('./doctor/on-sim.js'), 'src/doctor') : null;
      try {
        const { code } = await (onSim?.runDoctorOnSimulator ?? doctor.runDoctorCommand)(
          {
            configPath: options.config,
            config,
            env: io.env,
            json: options.json === true,
            ...(options.rpcUrl === undefined ? {} : { rpcUrl: options.rpcUrl }),
            ...(options.socketWait === undefined ? {} : { socketWaitMs: Math.round(options.socketWait * 1000) }),
          },
          io.stdout,
        );
        setExit(code);
      } catch (error) {
        if (error instanceof doctor.DoctorUsageError) throw new CliExit(EXIT_USAGE, error.message);
        throw new CliExit(EXIT_FAILURE, `doctor: ${errorText(error)}`);
      }
    });

  program
    .command('approve')
    .description('list the USDC allowances and conditional-token approvals the wallet needs (venue.chain); with --yes (or y at a prompt) send the missing ones (docs/going-live.md)')
    .requiredOption('-c, --config <file>', 'the live bot\'s YAML config (its venue.chain and credentials.privateKey)')
    .option('--rpc-url <url>', 'a JSON-RPC endpoint of the chain (default: venue.chain.rpcUrl)')
    .option('--yes', 'send the missing approvals without asking')
    .action(async (options: { config: string; rpcUrl?: string; yes?: boolean }) => {
      const config = loadConfigFile(options.config);
      const approvals = await importModule(() => import('./capital/approve-command.js'), 'src/approvals');
      try {
        setExit(
          await approvals.runApprove({
            configPath: options.config,
            config,
            env: io.env,
            yes: options.yes === true,
            confirm: approvals.terminalConfirm(),
            stdout: io.stdout,
            ...(options.rpcUrl === undefined ? {} : { rpcUrl: options.rpcUrl }),
          }),
        );
      } catch (error) {
        if (error instanceof approvals.ApproveUsageError) throw new CliExit(EXIT_USAGE, error.message);
        throw error;
      }
    });

  program
    .command('status')
    .description('what the running bot that uses this config says of itself: its status line, and why each unquoted market has no order')
    .requiredOption('-c, --config <file>', 'the running bot\'s config')
    .option('--timeout <seconds>', 'how long to wait for the bot', parsePositiveSeconds, 5)
    .option('--json', 'print the bot\'s answer as JSON')
    .action(async (options: { config: string; timeout: number; json?: boolean }) => {
      const config = loadConfigFile(options.config);
      if (!config.metrics.enabled) throw new CliExit(EXIT_USAGE, `status: ${options.config} sets metrics.enabled: false, so the bot has no operations endpoint`);
      const path = controlFilePath(config.database.path);
      if (path === null) throw new CliExit(EXIT_USAGE, 'status: the config uses an in-memory ledger (database.path: ":memory:"), so the bot has no control file');
      const result = await requestStatus(path, { timeoutMs: options.timeout * 1000 });
      if (!result.ok) throw new CliExit(EXIT_FAILURE, `status: ${result.message}`);
      const answer = parseStatusAnswer(result.status);
      if (answer === null) throw new CliExit(EXIT_FAILURE, 'status: the bot\'s answer is not a status (an older or newer version?)');
      io.stdout(options.json === true ? `${JSON.stringify(answer)}\n` : formatStatus(answer));
    });

  program
    .command('resume')
    .description('lift a kill-switch pause of the running bot that uses this config')
    .requiredOption('-c, --config <file>', 'the running bot\'s config')
    .option('--timeout <seconds>', 'how long to wait for the bot', parsePositiveSeconds, 5)
    .action(async (options: { config: string; timeout: number }) => {
      const config = loadConfigFile(options.config);
      if (!config.metrics.enabled) throw new CliExit(EXIT_USAGE, `resume: ${options.config} sets metrics.enabled: false, so the bot has no control endpoint`);
      const path = controlFilePath(config.database.path);
      if (path === null) throw new CliExit(EXIT_USAGE, 'resume: the config uses an in-memory ledger (database.path: ":memory:"), so the bot has no control file');
      const result = await requestResume(path, { timeoutMs: options.timeout * 1000 });
      if (!result.ok) throw new CliExit(EXIT_FAILURE, `resume: ${result.message}`);
      io.stdout(result.wasPaused ? 'resumed: quoting restarts\n' : 'the bot was not paused; nothing to do\n');
    });

  program
    .command('record')
    .description('record the configured markets\' books, trades, resolutions, trading modes and gaps into a replay stream (quotes nothing)')
    .requiredOption('-c, --config <file>', 'a bot config: its venue, credentials, markets and feed settings')
    .requiredOption('--out <dir>', 'directory of the replay stream (rotated .ndjson.gz parts)')
    .addOption(new Option('--duration <seconds>', 'stop after this many seconds').argParser(parsePositiveSeconds))
    .action(async (options: { config: string; out: string; duration?: number }) => {
      const { config } = await loadCheckedConfig(options.config, io, { requireCredentials: true });
      const { runRecord } = await importModule(() => import('./replay/record-command.js'), 'the recorder');
      setExit(
        normaliseExitCode(await runRecord(config, { out: options.out, ...(options.duration === undefined ? {} : { durationMs: Math.round(options.duration * 1000) }) })),
      );
    });

  program
    .command('backtest')
    .description('--replay: replay a recorded stream (docs/replay.md); --synthetic: run the simulator\'s seeded synthetic flow (docs/backtest.md); both through the strategy, the risk gate and the real order manager')
    .option('--replay <path>', 'a replay stream: a .ndjson.gz file or a recording directory')
    .option('--synthetic', 'the synthetic backtest: the matching engine and seeded synthetic traders on a virtual clock')
    .requiredOption('-c, --config <file>', 'the bot config whose strategy, orders, risk and rate limits are run')
    .option('--duration <duration>', '--synthetic: virtual time, e.g. 90s, 30m, 2h (default 1h)')
    .option('--seed <n>', '--synthetic: seed of the engine and the flow (default: venue.seed of a simulator config, else 1)', parseWholeNumber)
    .addOption(new Option('--world <world>', '--synthetic: generic markets, or crypto strike markets priced from their underlying (default: the config\'s venue.world, else crypto)').choices(['generic', 'crypto']))
    .option('--market <slug>', '--replay: replay only this market of the stream (default: every market, together under one bot)')
    .addOption(new Option('--latency-ms <ms>', 'one-way request latency').default(50).argParser(parseWholeNumber))
    .addOption(new Option('--queue-model <model>', 'how the queue ahead of an order shrinks').choices(['conservative', 'probabilistic']).default('conservative'))
    .addOption(new Option('--fee-bps <bps>', 'taker fee rate (maker fills are free)').default(300).argParser(parseWholeNumber))
    .option('--out <dir>', 'also write report.html (charts) and report.json there')
    .option('--json', 'print the figures as one JSON object')
    .option('--sweep <name=a,b,c>', 'run every combination (strategy parameters, latencyMs, queueModel); repeatable', collect, [])
    .option('--compare <file>', 'also run this config on the same recording and print one row per config; repeatable', collect, [])
    .option('--allow-truncated', '--replay: replay a recording cut short or corrupt up to its last complete line (the reports say where it ends); without it such a recording is an error naming the file and the byte')
    .action(
      async (
        options: { replay?: string; synthetic?: boolean; duration?: string; seed?: number; world?: 'generic' | 'crypto'; config: string; market?: string; latencyMs: number; queueModel: 'conservative' | 'probabilistic'; feeBps: number; out?: string; json?: boolean; sweep: string[]; compare: string[]; allowTruncated?: boolean },
        command: Command,
      ) => {
        if ((options.replay === undefined) === (options.synthetic !== true)) throw new CliExit(EXIT_USAGE, 'backtest: give one of --replay <path> and --synthetic');
        const syntheticOnly = ['duration', 'seed', 'world'].filter((name) => options.replay !== undefined && command.getOptionValueSource(name) === 'cli');
        if (syntheticOnly.length > 0) throw new CliExit(EXIT_USAGE, `backtest --replay: ${syntheticOnly.map((name) => `--${name}`).join(', ')}: only for --synthetic`);
        const { config } = await loadCheckedConfig(options.config, io, { requireCredentials: false });
        if (options.synthetic === true) {
          const synthetic = await importModule(() => import('./backtest/synthetic-command.js'), 'the synthetic backtest');
          try {
            io.stdout(await synthetic.runSyntheticFromCli(config, { ...options, given: (name) => command.getOptionValueSource(name) === 'cli' }));
          } catch (error) {
            throw new CliExit(error instanceof synthetic.SyntheticUsageError ? EXIT_USAGE : EXIT_FAILURE, `backtest --synthetic: ${errorText(error)}`);
          }
          return;
        }
        const replay = options.replay;
        if (replay === undefined) return;
        const compared: { name: string; config: AppConfig }[] = [];
        for (const file of options.compare) compared.push({ name: file, config: (await loadCheckedConfig(file, io, { requireCredentials: false })).config });
        const { runReplayCommand, runCompareCommand, ReplaySelectionError } = await importModule(() => import('./replay/backtest-command.js'), 'the replay backtest');
        try {
          const run = compared.length === 0 ? (o: Parameters<typeof runReplayCommand>[1]) => runReplayCommand(config, o) : (o: Parameters<typeof runReplayCommand>[1]) => runCompareCommand([{ name: options.config, config }, ...compared], o);
          io.stdout(
            await run({
              replay,
              ...(options.market === undefined ? {} : { market: options.market }),
              latencyMs: options.latencyMs,
              queueModel: options.queueModel,
              feeRateBps: options.feeBps,
              ...(options.out === undefined ? {} : { out: options.out }),
              json: options.json === true,
              sweep: options.sweep,
              allowTruncated: options.allowTruncated === true,
            }),
          );
        } catch (error) {
          throw new CliExit(error instanceof ReplaySelectionError ? EXIT_USAGE : EXIT_FAILURE, `backtest: ${errorText(error)}`);
        }
      },
    );

  const importGroup = program.command('import').description('turn recordings of another venue, or an underlying\'s price history, into a replay stream (see docs/replay.md)');
  importGroup
    .command('polymarket')
    .description('Polymarket books and trades (JSON arrays of book and trade records, see docs/replay.md) → one replay stream')
    .requiredOption('--books <file>', 'book snapshots of the YES token (the "up" file)')
    .requiredOption('--trades <file>', 'trades of the YES token')
    .option('--books-other <file>', 'book snapshots of the other token (checked against the YES book)')
    .option('--trades-other <file>', 'trades of the other token (added as YES trades at 1 − p, other side)')
    .requiredOption('--market <slug>', 'the market\'s slug: its name in the stream and the reports')
    .option('--title <text>', 'the market\'s title (reports name the market by it)')
    .option('--ticker <symbol>', 'terms: the underlying that settles the market, e.g. SOL')
    .option('--strike <usd>', 'terms: the strike (a strike market, or the opening price of an up/down one)')
    .option('--window-open <instant>', 'terms: an up/down market\'s window open (ISO-8601 or ms); its strike is the underlying\'s first price in that minute')
    .option('--settles <instant>', 'terms: the settlement instant (ISO-8601 or ms)')
    .option('--reward-min-size <shares>', 'liquidity rewards: minimum order size')
    .option('--reward-max-spread <price>', 'liquidity rewards: band around the midpoint, e.g. 0.03')
    .option('--reward-daily <usdc>', 'liquidity rewards: daily reward pool')
    .option('--underlying <stream>', 'add the prices of an underlying stream (made by `import underlying`)')
    .option('--asset-price-ticker <symbol>', 'add the records\' own asset_price as this ticker\'s price')
    .requiredOption('--out <path>', 'the replay stream to write (.ndjson.gz)')
    .action(async (options: Omit<import('./replay/import-command.js').ImportPolymarketArgs, 'nowMs'>) => {
      const { importPolymarketFiles } = await importModule(() => import('./replay/import-command.js'), 'the importer');
      try {
        io.stdout(`${JSON.stringify(importPolymarketFiles(options))}\n`);
      } catch (error) {
        throw new CliExit(EXIT_FAILURE, `import polymarket: ${errorText(error)}`);
      }
    });
  importGroup
    .command('underlying')
    .description('an underlying\'s price history (Pyth TradingView-history JSON, an exchange kline CSV, or timestamp,price CSV) → an underlying stream')
    .requiredOption('--ticker <symbol>', 'the underlying, e.g. SOL')
    .requiredOption('--from <file>', 'the history file (its shape is detected from its content)')
    .requiredOption('--out <path>', 'the stream to write (.ndjson.gz)')
    .action(async (options: { ticker: string; from: string; out: string }) => {
      const { importUnderlyingFile } = await importModule(() => import('./replay/import-command.js'), 'the importer');
      try {
        io.stdout(`${JSON.stringify(importUnderlyingFile(options))}\n`);
      } catch (error) {
        throw new CliExit(EXIT_FAILURE, `import underlying: ${errorText(error)}`);
      }
    });

  program
    .command('price')
    .description('read market objects (one JSON a line, as /markets answers hold them) and print the terms the bot reads; with --spot, --vol and --at also the model\'s fair value, delta and uncertainty; with --books and --underlying, every recorded book priced as the bot would have at its instant (docs/pricing.md)')
    .requiredOption('--markets <file>', 'market objects, one JSON object a line (a venue-samples capture line is read through its body)')
    .option('--spot <price>', 'the underlying\'s price in USD, or TICKER=price pairs: --spot BTC=88000,ETH=3000 (one bare price only when every market has the same ticker)')
    .option('--vol <annualized>', 'annualized volatility as a fraction, 0.01 to 5, e.g. 0.6 (60 %/yr)')
    .option('--at <instant>', 'price at this instant (ISO-8601 or ms; default now)')
    .option('--books <file>', 'recorded orderbook answers with their capture time, one {capturedAt, request, body} a line')
    .option('--underlying <streams...>', 'underlying streams made by `import underlying` (with --books)')
    .option('--implied-weight <0..1>', 'with --books: weight of the ladder\'s implied variance against the realized one (pricing.surface.impliedWeight)')
    .option('--profile-strength <0..1>', 'with --books: strength of the intraday variance profile (pricing.surface.profile.strength; 0: a flat clock)')
    .option('--fit-tails', 'with --books: fit a Student-t per expiry to its ladder (pricing.surface.tails.fit)')
    .option('--stale-sec <seconds>', 'with --books: an underlying price older than this halts (default 90: a 1-minute history)')
    .option('--min-strikes <n>', 'with --books: an expiry needs this many strikes with usable books for an implied part (pricing.surface.implied.minStrikes, default 2)')
    .action(async (options: { markets: string; spot?: string; vol?: string; at?: string; books?: string; underlying?: string[]; impliedWeight?: string; profileStrength?: string; fitTails?: boolean; staleSec?: string; minStrikes?: string }) => {
      const cmd = await importModule(() => import('./pricing/price-cli.js'), 'the price command');
      let result;
      try {
        result = cmd.runPrice(options, Date.now());
      } catch (error) {
        if (error instanceof cmd.PriceUsageError) throw new CliExit(EXIT_USAGE, `price: ${error.message}`);
        throw error;
      }
      for (const line of result.lines) io.stdout(`${line}\n`);
      // --books: the lines it could not read and the summary go to stderr, never among the data.
      for (const line of result.errors ?? []) io.stderr(`${line}\n`);
      if (result.summary !== undefined) io.stderr(`${result.summary}\n`);
      if (result.failed > 0) setExit(EXIT_FAILURE);
    });

  return program;
}

/** Load the config, validate the strategy params and (for `run`) the credentials, every problem at once. Exits 2 on any. */
async function loadCheckedConfig(
  file: string,
  io: CliIo,
  options: { requireCredentials: boolean },
): Promise<{ config: AppConfig; strategyParams: unknown }> {
  try {
    return await loadCheckedConfigFile(file, { requireCredentials: options.requireCredentials, env: io.env });
  } catch (error) {
    if (error instanceof StrategyRegistryUnavailableError) throw new CliExit(EXIT_FAILURE, `outcome-maker: ${error.message}`);
    throw error;
  }
}

/** The config file of a command that takes it as `[file]` or `--config <file>` (one of them, not both). */
function configArgument(positional: string | undefined, option: string | undefined, command: string): string {
  if (positional !== undefined && option !== undefined && positional !== option) throw new CliExit(EXIT_USAGE, `${command}: give the config once (${positional} or --config ${option})`);
  const file = option ?? positional;
  if (file === undefined) throw new CliExit(EXIT_USAGE, `${command}: name the config: ${command} --config <file>`);
  return file;
}

/** check-config's comment lines: the verdict, each credential variable and whether it is set, the warnings. */
function checkConfigHeader(file: string, config: AppConfig, env: Environment): string[] {
  const credentials =
    config.credentials === null
      ? ['# credentials: none (the simulator generates a wallet and an API token for the session)']
      : credentialStatus(config.credentials, env).map((row) => `# credentials.${row.field}: ${row.env} is ${row.set ? 'set' : 'not set'}`);
  const listing = config.venue.kind === 'sim' ? simListing(config.venue) : null;
  const unset = credentialIssues(config.credentials, env).length;
  return [
    `# ${file}: config OK${unset === 0 ? '' : `, but ${unset} credential variable${unset === 1 ? '' : 's'} not set (see below; exit ${EXIT_CONFIG_INCOMPLETE})`}, strategy "${config.strategy.name}" accepts its params (shown with their defaults)`,
    '# Printed in the file\'s own names and units: this output is itself a valid config.',
    ...(listing === null ? [] : [`# venue: ${listing.text}; without a markets section the bot trades every one of them`]),
    ...credentials,
    ...credentialIssues(config.credentials, env).map((issue) => `# warning: ${issue.path}: ${issue.message} (\`run\` will refuse to start)`),
    ...unsharedSiblings(file, config, env).map((found) => `# warning: rateLimits.shared: ${found.message}`),
  ];
}

/** `report` with neither --db nor --config reads the ledger `npm start` writes: that of config/paper.yaml in the package. */
function defaultReportConfig(io: CliIo): string {
  const path = join(packageRoot(), NPM_START_CONFIG);
  io.stderr(`report: the ledger of ${NPM_START_CONFIG} (what \`npm start\` runs); give --config or --db for another\n`);
  return path;
}

function normaliseExitCode(code: unknown): number {
  return typeof code === 'number' && Number.isInteger(code) && code >= 0 && code <= 255 ? code : EXIT_FAILURE;
}

// ---------------------------------------------------------------------------------------------- lazy modules

type RunBot = (config: AppConfig, options: { dryRun: boolean; durationMs?: number; configPath: string; metricsPortSetBy?: string; env?: Environment }) => Promise<number>;
type RunSim = (argv: string[]) => Promise<number>;

function isRunBot(value: unknown): value is RunBot {
  return typeof value === 'function';
}
function isRunSim(value: unknown): value is RunSim {
  return typeof value === 'function';
}

/** Import `specifier` (relative to this file) and return its export `name`, checked by `guard`. */
async function importCommand<T>(io: CliIo, specifier: string, name: string, guard: (value: unknown) => value is T): Promise<T> {
  let loaded: unknown;
  try {
    loaded = await (io.load ?? importRelative)(specifier);
  } catch (error) {
    throw new CliExit(EXIT_FAILURE, `outcome-maker: cannot load ${specifier}: ${errorText(error)}`);
  }
  const value: unknown = typeof loaded === 'object' && loaded !== null ? Reflect.get(loaded, name) : undefined;
  if (!guard(value)) throw new CliExit(EXIT_FAILURE, `outcome-maker: ${specifier} does not export ${name}()`);
  return value;
}

async function importModule<T extends object>(load: () => Promise<T>, label: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new CliExit(EXIT_FAILURE, `outcome-maker: cannot load ${label}: ${errorText(error)}`);
  }
}

function isMainModule(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isMainModule()) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
