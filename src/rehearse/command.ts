/**
 * `outcome-maker rehearse --config FILE [--duration S] [--seed N] [--metrics-port P]`: a live config rehearsed on the
 * simulator in one command. The simulator is started on 127.0.0.1 for that config (./plan.ts: the crypto world with
 * the tickers and cadences its `markets.select` names, its header prefix, EIP-712 domain and chain id), then the bot
 * runs the config as it is written — its strategy, selection, risk, orders, rate limits — through the LIVE code path
 * (venue.kind live: the HTTP client with HMAC headers, the socket, credentials read from an environment), pointed at
 * the simulator (./live-view.ts) with the simulator's demo account under the config's own credential variable names.
 * At the end it says what the simulator saw of the bot: the orders it placed, in which markets, and its fills.
 *
 * Owns: the order of those steps and the verdict. Invariants: the config file is not changed and nothing is read from
 * or written to the process's environment (the demo secrets live in an environment object handed to the bot); no
 * address is the live venue's (every URL is the simulator's on 127.0.0.1); the rehearsal writes its own ledger (a
 * fresh file in a temp directory, never the config's `database.path`) and serves metrics on a free port unless told;
 * a rehearsal whose first market cannot be joined before it ends says so before it starts; the simulator is closed
 * whatever the bot does. Exit code: the bot's (0 a clean stop), 2 for a config rehearse refuses.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig, Environment } from '../config/index.js';
import { withMetricsPort } from '../operator/metrics-port.js';
import { cryptoWorldOptions, DEFAULT_CRYPTO_WORLD } from '../sim/engine/index.js';
import { startSimulator, type RunningSimulator } from '../sim/index.js';
import { liveViewOnSimulator } from './live-view.js';
import { rehearsalPlan, type RehearsalPlan } from './plan.js';

export { RehearseUsageError } from './plan.js';

/** The demo account's USDC on the rehearsal's simulator. */
export const REHEARSAL_USDC = 1000;

export interface RehearseOptions {
  readonly configPath: string;
  /** Stop this long after launch (as `run --duration`); none: until SIGINT/SIGTERM. */
  readonly durationMs?: number;
  readonly seed: number;
  /** Default 0: any free port (a live bot of the same config may hold its own). */
  readonly metricsPort?: number;
  /** The rest of the bot's environment (the demo account's credentials are added to a copy). */
  readonly env: Environment;
  readonly nowMs: number;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The bot (src/app.ts `runBot`); injected so the CLI loads it lazily. */
  readonly runBot: (config: AppConfig, options: { dryRun: boolean; configPath: string; durationMs?: number; env: Environment }) => Promise<number>;
}

const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/** What the simulator saw the bot do: the orders it placed, in which markets, and its fills. */
interface Seen {
  readonly orders: Set<string>;
  readonly markets: Set<string>;
  executions: number;
}

function watchBot(simulator: RunningSimulator): { readonly seen: Seen; readonly stop: () => void } {
  const seen: Seen = { orders: new Set(), markets: new Set(), executions: 0 };
  const profileId = simulator.demoAccount.profileId;
  const stop = simulator.engine.on({
    orderEvent: (owner, frame) => {
      if (owner !== profileId || frame.source !== 'OME') return;
      seen.orders.add(frame.orderId);
      seen.markets.add(frame.marketSlug);
      if (frame.type === 'EXECUTION') seen.executions += 1;
    },
  });
  return { seen, stop };
}

function planLines(plan: RehearsalPlan, options: RehearseOptions, simulator: RunningSimulator, ledger: string): string[] {
  return [
    `rehearse: ${options.configPath} on the simulator at ${simulator.baseUrl} (never the live venue), its demo account under the config's credential names`,
    `rehearse: crypto world ${plan.tickers.join(', ')}, ${plan.cadences.join(' and ')} ladders of ${plan.strikesPerExpiry} strikes (seed ${options.seed}); header prefix ${plan.headerPrefix}; ledger ${ledger}`,
    plan.firstJoin === null
      ? 'rehearse: no market of this world can be joined by the selection'
      : `rehearse: the first market can be joined at ${hhmm(plan.firstJoin.atMs)} UTC (the ${plan.firstJoin.cadence} ladder settling at ${hhmm(plan.firstJoin.settlesAtMs)} UTC)`,
  ];
}

/** A warning when nothing can be joined before the rehearsal ends (its duration from now), else null. Pure. */
export function idleWarning(plan: RehearsalPlan, nowMs: number, durationMs: number | undefined): string | null {
  if (durationMs === undefined) return null;
  const endMs = nowMs + durationMs;
  if (plan.firstJoin !== null && plan.firstJoin.atMs < endMs) return null;
  const when = plan.firstJoin === null ? 'at all' : `before ${hhmm(plan.firstJoin.atMs)} UTC (markets.select.joinBeforeSettlementSec before the ${plan.firstJoin.cadence} settlement at ${hhmm(plan.firstJoin.settlesAtMs)} UTC)`;
  return `rehearse: warning: no market can be joined ${when}: a rehearsal of ${Math.round(durationMs / 1000)} s will quote nothing${plan.firstJoin === null ? '' : `; run it longer (--duration ${Math.ceil((plan.firstJoin.atMs - nowMs) / 1000) + 60}) or after that time`}`;
}

export async function runRehearsal(config: AppConfig, options: RehearseOptions): Promise<number> {
  const plan = rehearsalPlan(config, options.configPath, options.nowMs);
  const simulator = await startSimulator({
    port: 0,
    seed: options.seed,
    headerPrefix: plan.headerPrefix,
    domainName: plan.domainName,
    chainId: plan.chainId,
    world: cryptoWorldOptions({ tickers: plan.tickers, cadences: plan.cadences, strikesPerExpiry: plan.strikesPerExpiry, informedLeadMs: DEFAULT_CRYPTO_WORLD.informedLeadMs }),
    demo: { usdc: REHEARSAL_USDC },
    // The standalone simulator's default flow (`sim`): synthetic makers quoting around the hidden fair value, and takers.
    synthetic: {},
    // It shares the bot's event loop (as the paper bot's embedded simulator): a request it came to late is not held
    // against the bot's spacing.
    forgiveOwnStalls: true,
  });
  const watch = watchBot(simulator);
  try {
    const ledger = join(mkdtempSync(join(tmpdir(), 'om-rehearse-')), 'ledger.db');
    for (const line of planLines(plan, options, simulator, ledger)) options.stdout(`${line}\n`);
    const warning = idleWarning(plan, options.nowMs, options.durationMs);
    if (warning !== null) options.stderr(`${warning}\n`);
    const view = liveViewOnSimulator({ ...config, database: { ...config.database, path: ledger } }, simulator, options.env);
    const live = config.metrics.enabled ? withMetricsPort(view.config, { port: options.metricsPort ?? 0, setBy: '--metrics-port' }, options.configPath) : view.config;
    const code = await options.runBot(live, { dryRun: false, configPath: options.configPath, env: view.env, ...(options.durationMs === undefined ? {} : { durationMs: options.durationMs }) });
    const { seen } = watch;
    options.stdout(
      seen.orders.size === 0
        ? 'rehearsal: the bot placed no order on the simulator\n'
        : `rehearsal: the bot placed ${seen.orders.size} orders in ${seen.markets.size} markets of the simulator (${[...seen.markets].sort().join(', ')}); ${seen.executions} fills\n`,
    );
    return code;
  } finally {
    watch.stop();
    await simulator.close();
  }
}
