/**
 * `outcome-maker backtest --synthetic --config FILE [--duration D] [--seed N] [--world generic|crypto] [--json]`:
 * the synthetic backtest (src/backtest: the simulator's matching engine and seeded synthetic flow, through the bot's
 * real strategy runner, account view, gate and order executor on a virtual clock) run from a bot config, and its
 * report for a person: every amount in USDC and every size in shares, never raw units.
 *
 * Owns: the mapping config → backtest options (`syntheticOptions`, pure: the config's strategy, risk limits, order
 * management and rate limits; the flow of the benchmarks: bench/strategies.ts for the generic world, bench/pricing.ts
 * for the crypto world, priced from the underlying with the config's pricer settings; the crypto world is the
 * config's — `venue.underlying` tickers, cadences, strikes per expiry, the informed traders' lead and the maker's lag,
 * the simulator's defaults for a live config — recurring as the venue's: each ladder is followed by the next as it
 * settles) and the report's two renderings (`formatSyntheticReport`, `syntheticJson`, pure). What is traded is the
 * config's own bot: its `markets` section (slugs, groups, `select` with every rule, `exclude`) decides, run by the
 * daemon's selection, discovery and roster (src/markets/selection-loop.ts via src/backtest/market-roll.ts). A crypto
 * world a live config asks for is generated for that selection: the tickers and cadences `markets.select` names.
 * Invariants: the same config, seed and duration give the same report (virtual time, seeded engine); a config or
 * option the backtest refuses is a `SyntheticUsageError` naming the field and the value, before anything runs — a
 * world that cannot hold what the selection names (a ticker or cadence it does not simulate) included; a selection
 * that joined nothing over the whole run is a `SyntheticUsageError` saying why each market was skipped, never a table
 * of zeros; a run whose engine broke its own invariants is an error, never a table.
 */
import type { AppConfig } from '../config/types.js';
import { validateStrategy } from '../config/index.js';
import type { StrategyModule } from '../strategy/contract.js';
import { DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS, nextExpiry, type Cadence } from '../sim/engine/index.js';
import { describeSelection, reasonSummary } from '../markets/selection-loop.js';
import { BacktestConfigError } from './errors.js';
import { runBacktest } from './harness.js';
import type { BacktestOptions } from './options.js';
import { comparisonTable } from './report.js';
import { traderOrdersOf } from './trader.js';
import type { BacktestResult } from './result.js';
import { fixedDecimal } from '../ledger/report-text.js';

const HOUR_MS = 3_600_000;
/** The benchmarks' virtual start: midnight UTC (the hourly ladders settle on each hour, the daily ones at 16:00). */
export const SYNTHETIC_START_MS = Date.UTC(2026, 0, 1, 0, 0);
/** bench/strategies.ts: markets of the generic world. */
export const GENERIC_MARKETS = 4;
/** A live config's backtest wallet: the simulator's default `venue.startingCollateral`, 1,000 USDC. */
const DEFAULT_STARTING_COLLATERAL_RAW = 1_000_000_000;
/** bench/pricing.ts: the informed traders see the underlying this long before it is published. */
export const INFORMED_LEAD_MS = 1500;
/** The backtest's own ceiling on a run. */
const MAX_DURATION_MS = 30 * 24 * HOUR_MS;

export type SyntheticWorld = 'generic' | 'crypto';

export interface SyntheticCommandOptions {
  readonly configPath: string;
  readonly durationMs: number;
  /** Default: the config's `venue.seed` (a simulator config), else 1. */
  readonly seed?: number;
  /** Default: the config's `venue.world` (a simulator config), else crypto (what the live venue lists). */
  readonly world?: SyntheticWorld;
  readonly latencyMs: number;
  readonly feeRateBps: number;
  readonly json: boolean;
}

/** Bad input of the command (an option, or a config field the backtest refuses): names the field and the value. */
export class SyntheticUsageError extends Error {
  override readonly name = 'SyntheticUsageError';
}

/** `90s`, `30m`, `2h`, `1d`, or a number of seconds → ms. Throws SyntheticUsageError naming the value. */
export function parseVirtualDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)?$/.exec(text.trim());
  const unit = { s: 1000, m: 60_000, h: HOUR_MS, d: 24 * HOUR_MS } as const;
  const ms = match?.[1] === undefined ? Number.NaN : Math.round(Number(match[1]) * unit[(match[2] as keyof typeof unit | undefined) ?? 's']);
  if (!Number.isSafeInteger(ms) || ms < 1000 || ms > MAX_DURATION_MS) {
    throw new SyntheticUsageError(`--duration ${JSON.stringify(text)}: expected a virtual duration from 1s to 30d (e.g. 90s, 30m, 2h; a bare number is seconds)`);
  }
  return ms;
}

/** What the run was: shown above the table and in the JSON. */
export interface SyntheticSetup {
  readonly configPath: string;
  readonly strategy: string;
  readonly seed: number;
  readonly world: SyntheticWorld;
  readonly durationMs: number;
  readonly stepMs: number;
  readonly tickers: readonly string[];
  /** The crypto world's ladders (empty in the generic world): cadences, strikes per expiry, recurring. */
  readonly cadences: readonly Cadence[];
  readonly strikesPerExpiry: number;
  readonly recurring: boolean;
  /** The first settlement after the start (the crypto world); null in the generic world. */
  readonly settlesAtMs: number | null;
  readonly priced: boolean;
  readonly latency: { readonly oneWayMs: number; readonly minRequestSpacingMs: number; readonly maxConcurrent: number };
  readonly feeRateBps: number;
  /** The config's `markets` section in words (src/markets/selection-loop.ts `describeSelection`). */
  readonly selection: string;
}

/** The world a config asks for when the command does not say. */
function worldOf(config: AppConfig, asked: SyntheticWorld | undefined): SyntheticWorld {
  if (asked !== undefined) return asked;
  return config.venue.kind === 'sim' ? config.venue.world : 'crypto';
}

/**
 * The crypto world's tickers and cadences: a simulator config's own (`venue.underlying`), else generated for the
 * selection (the tickers and cadences `markets.select` names; every one the world simulates where it names none).
 * Throws SyntheticUsageError when the world cannot hold what the selection names. Pure.
 */
export function worldForSelection(config: AppConfig, world: SyntheticWorld): { readonly tickers: readonly string[]; readonly cadences: readonly Cadence[] } {
  const select = config.markets.select;
  const named = { tickers: select?.tickers ?? null, cadences: select?.cadences ?? null };
  if (world === 'generic') {
    if (named.tickers !== null || named.cadences !== null) {
      throw new SyntheticUsageError(`markets.select names ${named.tickers === null ? '' : `tickers [${named.tickers.join(', ')}]`}${named.tickers !== null && named.cadences !== null ? ' and ' : ''}${named.cadences === null ? '' : `cadences [${named.cadences.join(', ')}]`}: the generic world has no crypto strike market, so the selection would match nothing (run --world crypto)`);
    }
    return { tickers: [], cadences: [] };
  }
  const underlying = config.venue.kind === 'sim' ? config.venue.underlying : null;
  const simulated = DEFAULT_UNDERLYINGS.map((u) => u.ticker);
  const source = underlying === null ? 'the crypto world' : 'venue.underlying';
  const tickers = underlying?.tickers ?? named.tickers ?? simulated;
  const cadences: readonly Cadence[] = underlying?.cadences ?? named.cadences ?? DEFAULT_CRYPTO_MARKETS.cadences;
  const worldTickers = underlying === null ? simulated : tickers;
  const missingTickers = (named.tickers ?? []).filter((t) => !worldTickers.includes(t));
  const missingCadences = (named.cadences ?? []).filter((c) => !cadences.includes(c));
  const missing = [...(missingTickers.length > 0 ? [`tickers [${missingTickers.join(', ')}] (${source} has ${worldTickers.join(', ')})`] : []), ...(missingCadences.length > 0 ? [`cadences [${missingCadences.join(', ')}] (${source} has ${cadences.join(', ')})`] : [])];
  if (missing.length > 0) throw new SyntheticUsageError(`markets.select names ${missing.join(' and ')}: a world too small for the selection`);
  return { tickers: tickers.filter((t) => simulated.includes(t)), cadences };
}

/** The config and the command's options → the backtest's options and what to show about them. Pure. */
export function syntheticOptions(config: AppConfig, module: StrategyModule, options: SyntheticCommandOptions): { readonly options: BacktestOptions; readonly setup: SyntheticSetup } {
  const world = worldOf(config, options.world);
  const seed = options.seed ?? (config.venue.kind === 'sim' ? config.venue.seed : 1);
  const underlying = config.venue.kind === 'sim' ? config.venue.underlying : null;
  const crypto = world === 'crypto';
  const { tickers, cadences } = worldForSelection(config, world);
  const strikesPerExpiry = underlying?.strikesPerExpiry ?? DEFAULT_CRYPTO_MARKETS.strikesPerExpiry;
  const settlesAtMs = crypto ? Math.min(...cadences.map((c) => nextExpiry(c, SYNTHETIC_START_MS, DEFAULT_CRYPTO_MARKETS.dailyHourUtc))) : null;
  const risk = config.risk;
  const latency = { oneWayMs: options.latencyMs, minRequestSpacingMs: config.rateLimits.minTimeMs, maxConcurrent: config.rateLimits.maxConcurrent };
  const backtest: BacktestOptions = {
    strategy: { module, params: config.strategy.params },
    selection: { rules: config.markets, feedIds: config.pricing.feedIds },
    seed,
    startMs: SYNTHETIC_START_MS,
    durationMs: options.durationMs,
    stepMs: 1000,
    ...(world === 'generic' ? { markets: { count: config.venue.kind === 'sim' && config.venue.world === 'generic' ? config.venue.markets : GENERIC_MARKETS } } : {}),
    ...(crypto
      ? {
          world: {
            underlying: {
              underlyings: DEFAULT_UNDERLYINGS.filter((u) => tickers.includes(u.ticker)),
              leadMs: underlying?.informedLeadMs ?? INFORMED_LEAD_MS,
              ...(underlying === null ? {} : { makerLagMs: underlying.makerLagMs }),
            },
            markets: { ...DEFAULT_CRYPTO_MARKETS, cadences, strikesPerExpiry, recurring: true },
          },
          pricing: config.pricing.pricer,
        }
      : {}),
    // The config's wallet: its USDC (a live config: the simulator's default 1,000) and its kind (externally owned by default).
    account: {
      feeRateBps: options.feeRateBps,
      usdcRaw: config.venue.kind === 'sim' ? config.venue.startingCollateralRaw : DEFAULT_STARTING_COLLATERAL_RAW,
      serverManagedWallet: config.venue.kind === 'sim' ? config.venue.serverManagedWallet : false,
    },
    risk: {
      maxPositionPerTokenRaw: risk.maxPositionPerTokenRaw,
      maxNetPositionRaw: risk.maxNetPositionRaw,
      maxOpenOrders: risk.maxOpenOrders,
      priceBand: risk.priceBand,
      // Priced markets stop at the pricer's stop before settlement, as the bot's (src/pricing/live-pricing.ts riskConfig).
      stopBeforeExpiryMs: crypto ? config.pricing.pricer.stopBeforeSettlementMs : risk.stopBeforeExpiryMs,
      maxNotionalRaw: risk.maxNotionalRaw,
    },
    orders: traderOrdersOf(config),
    latency,
  };
  return {
    options: backtest,
    setup: {
      configPath: options.configPath,
      strategy: config.strategy.name,
      seed,
      world,
      durationMs: options.durationMs,
      stepMs: 1000,
      tickers,
      cadences,
      strikesPerExpiry: crypto ? strikesPerExpiry : 0,
      recurring: crypto,
      settlesAtMs,
      priced: crypto,
      latency,
      feeRateBps: options.feeRateBps,
      selection: describeSelection(config.markets),
    },
  };
}

// ---------------------------------------------------------------------------------------------- rendering

/** Raw 1e6 → a number at `digits` decimals (display only: the result's integers are rounded once, here). */
const units = (raw: number, digits: number): number => Number((raw / 1e6).toFixed(digits));
const usdc = (raw: number): number => units(raw, 2);
const shares = (raw: number): number => units(raw, 2);
const pct = (fraction: number): number => Number((fraction * 100).toFixed(1));

function durationText(ms: number): string {
  if (ms % HOUR_MS === 0) return `${ms / HOUR_MS} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${(ms / 1000).toFixed(0)} s`;
}

/** The roll's join and leave events (a selection may leave a market and take it back: each counts). Pure. */
export function joinsAndLeaves(joins: number, leaves: number): string {
  return `${joins} join${joins === 1 ? '' : 's'} and ${leaves} leave${leaves === 1 ? '' : 's'}`;
}

function setupLines(setup: SyntheticSetup, result: BacktestResult): string[] {
  const ladders = `${setup.cadences.join(' and ')} ladders of ${setup.strikesPerExpiry} strike${setup.strikesPerExpiry === 1 ? '' : 's'}`;
  const world =
    setup.world === 'crypto'
      ? `crypto world: ${result.markets.length} strike markets traded on ${setup.tickers.join(', ')} (${ladders}, the next listed as one settles: ${joinsAndLeaves(result.roll.joined, result.roll.left)}), the first settling ${new Date(setup.settlesAtMs ?? 0).toISOString().slice(11, 16)} UTC; informed traders ahead of the published price; priced from the underlying`
      : `generic world: ${result.markets.length} markets, a passive maker, noise and informed takers; quoted from the book`;
  const selection = result.roll.selection;
  const traded = selection === null ? '' : `: ${selection.joined.length} joined, at most ${selection.peakJoined} at once, of ${selection.candidates} listed`;
  return [
    `synthetic backtest of ${setup.strategy} (${setup.configPath}): seed ${setup.seed}, ${durationText(setup.durationMs)} of virtual time in ${setup.stepMs / 1000} s steps`,
    `selection ${setup.selection}${traded}`,
    world,
    `requests: ${setup.latency.oneWayMs} ms one way, ${setup.latency.minRequestSpacingMs} ms between starts, at most ${setup.latency.maxConcurrent} in flight; taker fee ${setup.feeRateBps} bps`,
  ];
}

function perMarketTable(result: BacktestResult): string {
  const header = ['market', 'fills', 'volume (USDC)', 'PnL (USDC)', 'fees (USDC)', 'YES held', 'NO held', 'max |YES−NO|', 'quoting', 'settles (UTC)'];
  const rows = result.markets.map((m) => [
    m.slug,
    String(m.fills),
    usdc(m.volumeRaw).toFixed(2),
    usdc(m.pnlRaw).toFixed(2),
    usdc(m.feesRaw).toFixed(2),
    shares(m.finalYesRaw).toFixed(2),
    shares(m.finalNoRaw).toFixed(2),
    shares(m.maxAbsInventoryRaw).toFixed(2),
    `${pct(m.quotingFraction).toFixed(1)} %`,
    m.expiresAtMs === null ? '-' : new Date(m.expiresAtMs).toISOString().slice(0, 16).replace('T', ' '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** The report as text: what ran, the totals (src/backtest/report.ts), one row per market (sizes in shares). Pure. */
export function formatSyntheticReport(setup: SyntheticSetup, result: BacktestResult): string {
  return `${[...setupLines(setup, result), '', comparisonTable([{ label: setup.strategy, result }]), '', formatCapitalLine(result), '', 'per market (held and |YES−NO| in shares, at the end and at most):', perMarketTable(result)].join('\n')}\n`;
}

/**
 * The text report's `capital:` line: what the capital core brought back (redeemed and merged on-chain through the
 * engine's port) and the gas it paid. Every USDC figure at cents, rounded once from its raw integer (half away from
 * zero: 0.015 gas is 0.02, where a float would print 0.01). Pure.
 */
export function formatCapitalLine(result: Pick<BacktestResult, 'capital' | 'pnlRaw'>): string {
  const c = result.capital;
  if (c === null) return 'capital: on-chain redemption and merges off (winnings stay in their tokens)';
  const cents = (raw: number): string => fixedDecimal(raw, 2);
  return `capital: ${cents(c.redeemedRaw)} USDC redeemed (${c.redemptions} redemptions), ${cents(c.mergedRaw)} USDC merged (${c.merges} merges), gas ${cents(c.gasUsdcRaw)} USDC (PnL after gas ${cents(result.pnlRaw - c.gasUsdcRaw)}), ${c.reverted} reverted`;
}

/** The JSON report's `capital` (null when off): USDC at cents, the gas at 1e-4 USDC, each rounded once from its raw integer. Pure. */
export function capitalSummaryJson(result: Pick<BacktestResult, 'capital' | 'pnlRaw'>): Record<string, unknown> | null {
  const c = result.capital;
  if (c === null) return null;
  return {
    redeemedUsdc: Number(fixedDecimal(c.redeemedRaw, 2)),
    mergedUsdc: Number(fixedDecimal(c.mergedRaw, 2)),
    gasUsdc: Number(fixedDecimal(c.gasUsdcRaw, 4)),
    pnlAfterGasUsdc: Number(fixedDecimal(result.pnlRaw - c.gasUsdcRaw, 2)),
    redemptions: c.redemptions,
    merges: c.merges,
    reverted: c.reverted,
  };
}

/** The report as one JSON object: USDC at cents, shares at 0.01, fractions in percent; no raw unit. Pure. */
export function syntheticJson(setup: SyntheticSetup, result: BacktestResult): Record<string, unknown> {
  return {
    strategy: setup.strategy,
    config: setup.configPath,
    seed: setup.seed,
    world: setup.world,
    virtualSeconds: setup.durationMs / 1000,
    tickers: setup.tickers,
    cadences: setup.cadences,
    strikesPerExpiry: setup.strikesPerExpiry,
    recurring: setup.recurring,
    selection: selectionJson(setup, result),
    marketsJoined: result.roll.joined,
    marketsLeft: result.roll.left,
    latency: setup.latency,
    feeRateBps: setup.feeRateBps,
    pnlUsdc: usdc(result.pnlRaw),
    realizedUsdc: usdc(result.realizedRaw),
    unrealizedUsdc: usdc(result.unrealizedRaw),
    feesUsdc: usdc(result.feesRaw),
    pnlAtMidUsdc: result.pnlAtMidRaw === null ? null : usdc(result.pnlAtMidRaw),
    fills: result.fills,
    volumeUsdc: usdc(result.volumeRaw),
    maxAbsInventoryShares: shares(result.maxAbsInventoryRaw),
    maxHoldingShares: shares(result.maxTokenRaw),
    twoSidedPct: pct(result.twoSidedFraction),
    quotingPct: pct(result.quotingFraction),
    expectedRewardPerDayUsdc: Number(result.expectedRewardPerDay.toFixed(2)),
    scoredRewardUsdc: Number(result.scoredRewardUsdc.toFixed(2)),
    rebatesUsdc: usdc(result.rebatesRaw),
    requests: { total: result.requests.total, placements: result.requests.placements, cancelRequests: result.requests.cancelRequests, rejectedPlacements: result.requests.rejectedPlacements, sent: result.requests.sent, withheld: result.requests.withheld },
    quoteCycles: result.counters.quoteCycles,
    capital: capitalSummaryJson(result),
    markoutUsdcPerFill: Object.fromEntries(result.markouts.map((h) => [`${h.horizonMs / 1000}s`, h.fills === 0 ? null : Number(h.meanPerFillUsdc.toFixed(4))])),
    markets: result.markets.map((m) => ({
      market: m.slug,
      settlesAt: m.expiresAtMs === null ? null : new Date(m.expiresAtMs).toISOString(),
      fills: m.fills,
      volumeUsdc: usdc(m.volumeRaw),
      pnlUsdc: usdc(m.pnlRaw),
      feesUsdc: usdc(m.feesRaw),
      yesShares: shares(m.finalYesRaw),
      noShares: shares(m.finalNoRaw),
      maxAbsInventoryShares: shares(m.maxAbsInventoryRaw),
      quotingPct: pct(m.quotingFraction),
    })),
  };
}

/** What the selection was and did, for the JSON: its rules in words, the markets joined, the reasons others were not. */
function selectionJson(setup: SyntheticSetup, result: BacktestResult): Record<string, unknown> {
  const selection = result.roll.selection;
  return {
    rules: setup.selection,
    joined: selection?.joined.length ?? result.roll.joined,
    peakJoined: selection?.peakJoined ?? null,
    listed: selection?.candidates ?? null,
    notJoined: selection === null ? null : reasonSummary(selection.neverJoined),
  };
}

/** Runs the command; returns what to print. Throws SyntheticUsageError for bad input, Error for a broken run. */
export async function runSyntheticCommand(config: AppConfig, options: SyntheticCommandOptions): Promise<string> {
  const check = await validateStrategy(config);
  if (!check.ok) throw new SyntheticUsageError(check.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  const { options: backtest, setup } = syntheticOptions(config, check.module, options);
  let result: BacktestResult;
  try {
    result = await runBacktest(backtest);
  } catch (error) {
    if (error instanceof BacktestConfigError) throw new SyntheticUsageError(error.message);
    throw error;
  }
  if (result.engineInvariantViolations.length > 0) throw new Error(`the engine broke its invariants (no report): ${result.engineInvariantViolations.join('; ')}`);
  const selection = result.roll.selection;
  if (selection !== null && selection.joined.length === 0) {
    throw new SyntheticUsageError(`the selection (${setup.selection}) joined none of the ${selection.candidates} markets the ${setup.world} world listed in ${durationText(setup.durationMs)}: ${reasonSummary(selection.neverJoined)}`);
  }
  return options.json ? `${JSON.stringify(syntheticJson(setup, result))}\n` : formatSyntheticReport(setup, result);
}

/** The CLI's options of `backtest` (src/cli.ts), `given(name)`: the user wrote that option (not its default). */
export interface SyntheticCliOptions {
  readonly config: string;
  readonly duration?: string;
  readonly seed?: number;
  readonly world?: SyntheticWorld;
  readonly latencyMs: number;
  readonly feeBps: number;
  readonly json?: boolean;
  readonly given: (option: string) => boolean;
}

/** Options of `backtest` that only a replay reads: refused with --synthetic rather than silently ignored. */
const REPLAY_ONLY = [
  ['market', '--market'],
  ['queueModel', '--queue-model'],
  ['out', '--out'],
  ['sweep', '--sweep'],
  ['compare', '--compare'],
] as const;

/** `backtest --synthetic` from the command line: checks the options, runs, returns what to print. */
export async function runSyntheticFromCli(config: AppConfig, cli: SyntheticCliOptions): Promise<string> {
  const replayOnly = REPLAY_ONLY.filter(([name]) => cli.given(name)).map(([, flag]) => flag);
  if (replayOnly.length > 0) throw new SyntheticUsageError(`${replayOnly.join(', ')}: only for --replay (a synthetic run has no recorded queue, market list or report page)`);
  return runSyntheticCommand(config, {
    configPath: cli.config,
    durationMs: parseVirtualDuration(cli.duration ?? '1h'),
    ...(cli.seed === undefined ? {} : { seed: cli.seed }),
    ...(cli.world === undefined ? {} : { world: cli.world }),
    latencyMs: cli.latencyMs,
    feeRateBps: cli.feeBps,
    json: cli.json === true,
  });
}
