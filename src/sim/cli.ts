/**
 * `outcome-maker sim` / `npx tsx src/sim/cli.ts`: runs the exchange simulator standalone on 127.0.0.1,
 * prints ONE JSON line on stdout (base URL, socket URL, header prefix, Hermes URL, world, demo account with
 * credentials and private key, market slugs), then serves until SIGINT/SIGTERM and exits 0 after a clean shutdown.
 * `--world crypto` serves the paper world (`npm start`'s): recurring strike ladders on simulated underlyings, their
 * oracle frames and the Pyth Hermes stand-in, with the keys of the bot config's `venue.underlying` as options.
 *
 * Owns: option parsing and file loading for the standalone run. Invariants: bad options or files exit 2
 * with one clear message on stderr (never a stack trace, never a secret); stdout carries only the JSON line.
 */
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CADENCES, cryptoWorldOptions, DEFAULT_CRYPTO_WORLD, FEE_MODELS, syntheticOptionsSchema, type Cadence, type EngineOptions, type FeeModel, type SyntheticOptions } from './engine/index.js';
import { BATCH_CANCEL_MARKET_RULES, BATCH_MARKET_RULES, HISTORY_AMOUNT_FORMS, LIFECYCLE_AUTH_MODES, PLACEMENT_MODE_REFUSALS, RESOLVED_AUDIENCES, UNKNOWN_TARGET_RULES, type SimSettings } from './server/settings.js';
import { drainClients } from './drain.js';
import { loadAccountsFile, loadMarketsFile, readStructuredFile } from './server/config-files.js';
import { DEFAULT_MARKET_COUNT, DEFAULT_SEED, DEFAULT_SETTLEMENT_DELAY_MS, startSimulator, type RunningSimulator } from './index.js';
import { SPEC_RATE_LIMITS } from './server/rate-limiter.js';
import type { AccountConfig } from './server/accounts-config.js';
import { errorText } from '../core/errors.js';
import { DEFAULT_HEADER_PREFIX } from '../exchange/auth.js';

export interface SimCommandIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  /** Resolves when the process is asked to stop (default: first SIGINT or SIGTERM). */
  readonly stopSignal?: Promise<unknown>;
  /** Called once the simulator is serving (tests use it to stop the command). */
  readonly onStarted?: (sim: RunningSimulator) => void;
}

interface SimCliOptions {
  port: number;
  seed: number;
  markets: string;
  accounts?: string;
  headerPrefix: string;
  rateLimit: boolean;
  maxConcurrent: number;
  minIntervalMs: number;
  settlementDelayMs: number;
  payoutDelayMs?: number;
  feeModel?: FeeModel;
  rewardScoreSec?: number;
  rewardPayoutSec?: number;
  synthetic: boolean;
  syntheticConfig?: string;
  syntheticStepMs?: number;
  noiseRate?: number;
  informedRate?: number;
  domainName?: string;
  chainId?: number;
  feedCoalesceMs?: number;
  socketBookUnit?: 'raw' | 'shares';
  demoUsdc?: string;
  drainMs: number;
  world: 'generic' | 'crypto';
  tickers: string[];
  cadences: Cadence[];
  strikesPerExpiry: number;
  informedLeadMs: number;
  makerLagMs: number;
  surface?: boolean;
  lifecycleAuth: SimSettings['lifecycleAuth'];
  marketResolvedAudience: SimSettings['marketResolvedAudience'];
  cancelReplaceBatchMarkets: SimSettings['cancelReplaceBatchMarkets'];
  cancelReplaceUnknownTarget: SimSettings['cancelReplaceUnknownTarget'];
  placementModeRefusal: SimSettings['placementModeRefusal'];
  batchCancelMarkets: SimSettings['batchCancelMarkets'];
  historyAmounts: SimSettings['historyAmounts'];
}

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be an integer between ${min} and ${max}`);
    return n;
  };
}

/** A comma-separated list of distinct names out of `allowed`. */
function list<T extends string>(allowed: readonly T[]) {
  return (value: string): T[] => {
    const names = value.split(',').map((v) => v.trim());
    const chosen: T[] = [];
    for (const name of names) {
      const match = allowed.find((a) => a === name);
      if (match === undefined) throw new InvalidArgumentError(`must be a comma-separated list of ${allowed.join(', ')} (got ${JSON.stringify(name)})`);
      if (chosen.includes(match)) throw new InvalidArgumentError(`names ${match} twice`);
      chosen.push(match);
    }
    return chosen;
  };
}

function rate(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n) || n > 600) throw new InvalidArgumentError('must be a number between 0 and 600 (per minute)');
  return n;
}

export function buildSimCommand(): Command {
  return new Command('sim')
    .description('Run the embedded exchange simulator standalone (HTTP + Socket.IO on 127.0.0.1)')
    .addOption(new Option('--port <n>', 'port to listen on (0 = a free one)').argParser(integer(0, 65_535)).default(0))
    .addOption(new Option('--seed <n>', 'seed for markets, ids, synthetic flow and the demo account').argParser(integer(-(2 ** 31), 2 ** 31 - 1)).default(DEFAULT_SEED))
    .option('--markets <count|file>', 'number of generated markets, or a JSON/YAML markets file', String(DEFAULT_MARKET_COUNT))
    .option('--accounts <file>', 'JSON/YAML accounts file (profile id, address, usdc, tokens, apiTokens)')
    .option('--header-prefix <prefix>', 'HMAC header prefix (the live venue\'s lmts; svc is the specification\'s)', DEFAULT_HEADER_PREFIX)
    .option('--no-rate-limit', 'turn the per-token rate limits off')
    .addOption(new Option('--max-concurrent <n>', 'concurrent requests per token').argParser(integer(1, 1000)).default(SPEC_RATE_LIMITS.maxConcurrent))
    .addOption(new Option('--min-interval-ms <n>', 'minimum ms between request starts per token').argParser(integer(0, 60_000)).default(SPEC_RATE_LIMITS.minIntervalMs))
    .addOption(new Option('--settlement-delay-ms <n>', 'MATCHED → MINED delay').argParser(integer(0, 3_600_000)).default(DEFAULT_SETTLEMENT_DELAY_MS))
    .addOption(new Option('--payout-delay-ms <n>', 'resolution → payout posted delay').argParser(integer(0, 86_400_000)))
    .addOption(new Option('--fee-model <model>', "taker fees: 'curve' (the venue's dynamic fee, approximated; crypto-world default) or 'flat' (the signed feeRateBps; generic default)").choices(FEE_MODELS))
    .addOption(new Option('--reward-score-sec <n>', 'seconds between liquidity-reward scoring rounds (default 60)').argParser(integer(1, 604_800)))
    .addOption(new Option('--reward-payout-sec <n>', 'seconds between reward and rebate payouts (default 86400)').argParser(integer(1, 604_800)))
    .option('--no-synthetic', 'turn synthetic traders off')
    .option('--synthetic-config <file>', 'JSON/YAML synthetic-trader options (engine schema)')
    .addOption(new Option('--synthetic-step-ms <n>', 'interval between synthetic steps').argParser(integer(10, 3_600_000)))
    .addOption(new Option('--noise-rate <perMinute>', 'noise-taker orders per minute per market').argParser(rate))
    .addOption(new Option('--informed-rate <perMinute>', 'informed-taker looks per minute per market').argParser(rate))
    .option('--domain-name <name>', "EIP-712 domain name (default 'Limitless CTF Exchange')")
    .addOption(new Option('--chain-id <n>', 'EIP-712 chain id (default 8453)').argParser(integer(1)))
    .addOption(new Option('--feed-coalesce-ms <n>', 'orderbookUpdate coalescing tick').argParser(integer(1, 10_000)))
    .addOption(new Option('--socket-book-unit <unit>', 'unit of orderbookUpdate level sizes (the live venue\'s is not recorded)').choices(['raw', 'shares']).default('shares'))
    .option('--demo-usdc <amount>', 'starting USDC of the demo account, in units')
    .addOption(new Option('--world <world>', "'crypto': recurring strike markets on simulated underlyings, oracle frames and Hermes (the paper world); 'generic': long-dated markets").choices(['generic', 'crypto']).default('generic'))
    .addOption(new Option('--tickers <list>', 'crypto world: tickers, comma-separated').argParser(list(DEFAULT_CRYPTO_WORLD.tickers)).default([...DEFAULT_CRYPTO_WORLD.tickers]))
    .addOption(new Option('--cadences <list>', `crypto world: cadences, comma-separated (${CADENCES.join(', ')})`).argParser(list(CADENCES)).default([...DEFAULT_CRYPTO_WORLD.cadences]))
    .addOption(new Option('--strikes-per-expiry <n>', 'crypto world: strikes per ticker and expiry').argParser(integer(1, 9)).default(DEFAULT_CRYPTO_WORLD.strikesPerExpiry))
    .addOption(new Option('--informed-lead-ms <n>', 'crypto world: the informed traders see the underlying this long before it is published').argParser(integer(0, 60_000)).default(DEFAULT_CRYPTO_WORLD.informedLeadMs))
    .option('--surface', 'crypto world: an intraday volatility profile and fat-tailed jumps, the makers quoting the true surface (docs/simulator.md)')
    .addOption(new Option('--maker-lag-ms <n>', 'crypto world: the synthetic maker follows the published underlying this much later').argParser(integer(0, 600_000)).default(DEFAULT_CRYPTO_WORLD.makerLagMs))
    .addOption(new Option('--lifecycle-auth <mode>', 'whether subscribe_market_lifecycle needs an authenticated socket (unconfirmed on the venue)').choices(LIFECYCLE_AUTH_MODES).default('public'))
    .addOption(new Option('--market-resolved-audience <who>', "marketResolved to 'all' connections or only lifecycle and the market's price 'subscribers'").choices(RESOLVED_AUDIENCES).default('all'))
    .addOption(new Option('--cancel-replace-batch-markets <rule>', "'single': refuse a cancel-replace batch mixing markets (400); 'mixed': accept it").choices(BATCH_MARKET_RULES).default('mixed'))
    .addOption(new Option('--placement-mode-refusal <form>', "how POST /orders is refused in cancel_only/disabled: '503' (the API reference), '503-with-mode' (503 with the trading-mode body) or '425' (the specification)").choices(PLACEMENT_MODE_REFUSALS).default('503'))
    .addOption(new Option('--batch-cancel-markets <rule>', "'single': refuse a POST /orders/batch-cancel naming orders of several markets (400); 'mixed': accept it").choices(BATCH_CANCEL_MARKET_RULES).default('mixed'))
    .addOption(new Option('--history-amounts <form>', "GET /portfolio/history amounts: 'raw' 1e6 integer strings (the documented positions shape) or 'decimal' (\"12.5\")").choices(HISTORY_AMOUNT_FORMS).default('raw'))
    .addOption(
      new Option('--cancel-replace-unknown-target <rule>', "'refuse': 400 for a cancel target {clientOrderId} naming no order; 'failure': cancel FAILURE").choices(UNKNOWN_TARGET_RULES).default('failure'),
    )
    .addOption(
      new Option('--drain-ms <n>', 'after SIGINT/SIGTERM keep serving until no client is connected or sending (3 s quiet), at most this long')
        .argParser(integer(0, 300_000))
        .default(0),
    );
}

async function syntheticOf(options: SimCliOptions): Promise<SyntheticOptions | false> {
  if (!options.synthetic) return false;
  const base = options.syntheticConfig === undefined ? {} : await readStructuredFile(options.syntheticConfig);
  const parsed = syntheticOptionsSchema.safeParse(base);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${options.syntheticConfig ?? 'synthetic'}: ${issue ? issue.path.map(String).join('.') : '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const merged: SyntheticOptions = {
    ...parsed.data,
    ...(options.syntheticStepMs === undefined ? {} : { stepMs: options.syntheticStepMs }),
    ...(options.noiseRate === undefined ? {} : { noise: { ...parsed.data.noise, ratePerMinute: options.noiseRate } }),
    ...(options.informedRate === undefined ? {} : { informed: { ...parsed.data.informed, ratePerMinute: options.informedRate } }),
  };
  const checked = syntheticOptionsSchema.safeParse(merged);
  if (!checked.success) throw new Error(`synthetic options: ${checked.error.issues[0]?.message ?? 'invalid'}`);
  return checked.data;
}

/** Quiet time that ends a drain early (a bot's shutdown sends a request at least every ~1.5 s, fallback included). */
const DRAIN_IDLE_MS = 3_000;

function defaultStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}

/**
 * Runs `sim` with `argv` (the arguments after `sim`). Resolves with the exit code: 0 after a clean
 * shutdown, 2 for bad options or files, 1 if the simulator failed to start.
 */
export async function runSimCommand(argv: readonly string[], io: SimCommandIo = { stdout: (l) => process.stdout.write(`${l}\n`), stderr: (l) => process.stderr.write(`${l}\n`) }): Promise<number> {
  const command = buildSimCommand()
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stderr(s.trimEnd()), writeErr: (s) => io.stderr(s.trimEnd()) });
  let options: SimCliOptions;
  try {
    command.parse([...argv], { from: 'user' });
    options = command.opts<SimCliOptions>();
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }

  let sim: RunningSimulator;
  try {
    const nowMs = Date.now();
    const crypto = options.world === 'crypto';
    const world: EngineOptions['world'] | undefined = crypto
      ? cryptoWorldOptions({ tickers: options.tickers, cadences: options.cadences, strikesPerExpiry: options.strikesPerExpiry, informedLeadMs: options.informedLeadMs, makerLagMs: options.makerLagMs, surface: options.surface === true })
      : undefined;
    // The crypto world lists its own markets: generic ones only when --markets is given.
    const genericMarkets = crypto && command.getOptionValueSource('markets') === 'default' ? undefined : options.markets;
    const markets = genericMarkets === undefined ? undefined : /^\d+$/.test(genericMarkets) ? Number(genericMarkets) : await loadMarketsFile(genericMarkets, nowMs);
    const accounts: AccountConfig[] = options.accounts === undefined ? [] : await loadAccountsFile(options.accounts);
    const synthetic = await syntheticOf(options);
    sim = await startSimulator({
      port: options.port,
      seed: options.seed,
      ...(markets === undefined ? {} : { markets }),
      ...(world === undefined ? {} : { world }),
      settings: {
        lifecycleAuth: options.lifecycleAuth,
        marketResolvedAudience: options.marketResolvedAudience,
        cancelReplaceBatchMarkets: options.cancelReplaceBatchMarkets,
        cancelReplaceUnknownTarget: options.cancelReplaceUnknownTarget,
        placementModeRefusal: options.placementModeRefusal,
        batchCancelMarkets: options.batchCancelMarkets,
        historyAmounts: options.historyAmounts,
      },
      accounts,
      headerPrefix: options.headerPrefix,
      rateLimit: options.rateLimit ? { maxConcurrent: options.maxConcurrent, minIntervalMs: options.minIntervalMs } : false,
      settlementDelayMs: options.settlementDelayMs,
      ...(options.payoutDelayMs === undefined ? {} : { payoutDelayMs: options.payoutDelayMs }),
      ...(options.feeModel === undefined ? {} : { fees: { model: options.feeModel } }),
      rewards: {
        ...(options.rewardScoreSec === undefined ? {} : { scoreIntervalSec: options.rewardScoreSec }),
        ...(options.rewardPayoutSec === undefined ? {} : { payoutIntervalSec: options.rewardPayoutSec }),
      },
      synthetic,
      ...(options.domainName === undefined ? {} : { domainName: options.domainName }),
      ...(options.chainId === undefined ? {} : { chainId: options.chainId }),
      ...(options.feedCoalesceMs === undefined ? {} : { feedCoalesceMs: options.feedCoalesceMs }),
      ...(options.socketBookUnit === undefined ? {} : { socketBookSizeUnit: options.socketBookUnit }),
      ...(options.demoUsdc === undefined ? {} : { demo: { usdc: options.demoUsdc } }),
    });
  } catch (error) {
    io.stderr(`sim: ${errorText(error)}`);
    return 2;
  }

  io.stdout(
    JSON.stringify({
      baseUrl: sim.baseUrl,
      socketUrl: sim.socketUrl,
      socketNamespace: '/markets',
      headerPrefix: sim.headerPrefix,
      adminUrl: `${sim.baseUrl}/_sim`,
      hermesUrl: sim.hermesUrl,
      world: options.world,
      demoAccount: {
        profileId: sim.demoAccount.profileId,
        tokenId: sim.demoAccount.tokenId,
        secret: sim.demoAccount.secret,
        privateKey: sim.demoAccount.privateKey,
        address: sim.demoAccount.address,
        scopes: sim.demoAccount.scopes,
      },
      markets: sim.engine.markets().map((m) => m.slug),
    }),
  );
  io.onStarted?.(sim);
  await (io.stopSignal ?? defaultStopSignal());
  try {
    if (options.drainMs > 0) await drainClients(sim, { drainMs: options.drainMs, idleMs: DRAIN_IDLE_MS });
    await sim.close();
    return 0;
  } catch (error) {
    io.stderr(`sim: shutdown failed: ${errorText(error)}`);
    return 1;
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  runSimCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`sim: ${errorText(error)}\n`);
      process.exit(1);
    },
  );
}
