/**
 * The `outcome-maker` command line: run, sim, report, check-config, resume.
 *
 * Owns: argument parsing (commander), the order of start-up checks and the exit codes:
 *   0 = done, 1 = runtime failure (the bot, the simulator, the report or a resume failed),
 *   2 = usage or config error (bad arguments, invalid config file, bad strategy params, missing
 *       credentials); nothing has touched the exchange when 2 is returned.
 * Every config problem is printed at once, with its path and (redacted where needed) value. The bot, the
 * simulator and the report are imported lazily so each command loads only what it needs.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { stringify } from 'yaml';
import {
  ConfigError,
  credentialIssues,
  loadConfigFile,
  resolvedConfigView,
  StrategyRegistryUnavailableError,
  validateStrategy,
  type AppConfig,
  type ConfigIssue,
  type Environment,
} from './config/index.js';
import { controlFilePath, requestResume } from './metrics/control.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

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

/** The specifier is a variable so this file compiles whether or not the module exists yet in a build. */
const importRelative = (specifier: string): Promise<unknown> => import(specifier);

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
    io.stderr(`outcome-maker: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  }
}

function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('outcome-maker')
    .description('Market-making daemon for a prediction-market CLOB exchange, with an embedded simulator.')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', '\nExit codes: 0 ok, 1 runtime failure, 2 usage or config error (nothing was sent to the exchange).');

  program
    .command('run')
    .description('run the bot with a config file')
    .requiredOption('-c, --config <file>', 'the bot\'s YAML config')
    .option('--dry-run', 'compute and log quotes without placing or canceling orders')
    .addOption(new Option('--duration <seconds>', 'stop after this many seconds').argParser(parsePositiveSeconds))
    .action(async (options: { config: string; dryRun?: boolean; duration?: number }) => {
      const { config } = await loadCheckedConfig(options.config, io, { requireCredentials: true });
      const app = await importCommand(io, './app.js', 'runBot', isRunBot);
      const code = await app(config, {
        dryRun: options.dryRun === true,
        configPath: options.config,
        ...(options.duration === undefined ? {} : { durationMs: Math.round(options.duration * 1000) }),
      });
      setExit(normaliseExitCode(code));
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
    .description('print fills, volume, positions and PnL from the ledger')
    .option('--db <path>', 'ledger database (default: database.path of --config, else the ledger default)')
    .option('-c, --config <file>', 'take the ledger path from this config')
    .option('--since <when>', 'from: today, 90m, 24h, 7d, 2025-01-31, an ISO date-time, or epoch ms')
    .option('--market <slug>', 'one market only')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json', 'csv']).default('table'))
    .action(async (options: { db?: string; config?: string; since?: string; market?: string; format: 'table' | 'json' | 'csv' }) => {
      if (options.db !== undefined && options.config !== undefined) throw new CliExit(EXIT_USAGE, 'report: give --db or --config, not both');
      const ledger = await importModule(() => import('./ledger/index.js'), 'src/ledger');
      const nowMs = Date.now();
      let sinceMs: number | undefined;
      try {
        sinceMs = options.since === undefined ? undefined : ledger.parseSince(options.since, nowMs);
      } catch (error) {
        throw new CliExit(EXIT_USAGE, error instanceof Error ? error.message : String(error));
      }
      const db = options.db ?? (options.config === undefined ? ledger.DEFAULT_LEDGER_PATH : loadConfigFile(options.config).database.path);
      try {
        const text = await ledger.runReport({ db, sinceMs, market: options.market, format: options.format, nowMs });
        io.stdout(text.endsWith('\n') ? text : `${text}\n`);
      } catch (error) {
        if (error instanceof ledger.ReportArgsError) throw new CliExit(EXIT_USAGE, error.message);
        throw new CliExit(EXIT_FAILURE, `report: ${error instanceof Error ? error.message : String(error)}`);
      }
    });

  program
    .command('check-config')
    .description('validate a config file and print it resolved, with credentials shown as variable names only')
    .argument('<file>', 'the YAML config')
    .action(async (file: string) => {
      const { config, strategyParams } = await loadCheckedConfig(file, io, { requireCredentials: false });
      const warnings = credentialIssues(config.credentials, io.env);
      const header = [
        `# ${file}: config OK, strategy "${config.strategy.name}" accepts its params (shown with their defaults)`,
        ...warnings.map((issue) => `# warning: ${issue.path}: ${issue.message} (\`run\` will refuse to start)`),
      ];
      const view = resolvedConfigView(config, io.env);
      io.stdout(`${header.join('\n')}\n${stringify({ ...view, strategy: { name: config.strategy.name, params: strategyParams } })}`);
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

  return program;
}

/** Load the config, validate the strategy params and (for `run`) the credentials. Exits 2 on any problem. */
async function loadCheckedConfig(
  file: string,
  io: CliIo,
  options: { requireCredentials: boolean },
): Promise<{ config: AppConfig; strategyParams: unknown }> {
  const config = loadConfigFile(file);
  const problems: ConfigIssue[] = [];
  let strategyParams: unknown = config.strategy.params;
  try {
    const strategy = await validateStrategy(config);
    if (strategy.ok) strategyParams = strategy.params;
    else problems.push(...strategy.issues);
  } catch (error) {
    if (error instanceof StrategyRegistryUnavailableError) throw new CliExit(EXIT_FAILURE, `outcome-maker: ${error.message}`);
    throw error;
  }
  if (options.requireCredentials) problems.push(...credentialIssues(config.credentials, io.env));
  if (problems.length > 0) throw new ConfigError(file, problems);
  return { config, strategyParams };
}

function parsePositiveSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return seconds;
}

function normaliseExitCode(code: unknown): number {
  return typeof code === 'number' && Number.isInteger(code) && code >= 0 && code <= 255 ? code : EXIT_FAILURE;
}

// ---------------------------------------------------------------------------------------------- lazy modules

type RunBot = (config: AppConfig, options: { dryRun: boolean; durationMs?: number; configPath: string }) => Promise<number>;
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
    throw new CliExit(EXIT_FAILURE, `outcome-maker: cannot load ${specifier}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const value: unknown = typeof loaded === 'object' && loaded !== null ? Reflect.get(loaded, name) : undefined;
  if (!guard(value)) throw new CliExit(EXIT_FAILURE, `outcome-maker: ${specifier} does not export ${name}()`);
  return value;
}

async function importModule<T extends object>(load: () => Promise<T>, label: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new CliExit(EXIT_FAILURE, `outcome-maker: cannot load ${label}: ${error instanceof Error ? error.message : String(error)}`);
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
