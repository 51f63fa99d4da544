/**
 * Backtest options: the zod schema (strict: unknown keys are errors), the defaults (the bot's own config
 * defaults wherever the bot has one, so a backtest quotes like a default bot), and `resolveOptions`, which
 * validates everything — strategy parameters included — before anything runs.
 *
 * Units: times in ms, prices in integer ticks, sizes and collateral raw (1e6 = one share / one USDC).
 */
import { z } from 'zod';
import { MAX_TICK, MIN_TICK, RAW_PER_UNIT } from '../core/venue-rules/index.js';
import { VENUE_MAX_CONCURRENT, VENUE_MIN_TIME_MS } from '../config/index.js';
import { BOT_TAG_PATTERN, BOT_TAG_RULE } from '../orders/client-order-id.js';
import type { RiskLimits } from '../risk/limits.js';
import { isStrategyModule, parseStrategyParams } from '../strategy/registry.js';
import type { Strategy, StrategyModule } from '../strategy/contract.js';
import { syntheticOptionsSchema, type EngineOptions, type MarketSpec, type PriceBand, type SyntheticOptions } from '../sim/engine/index.js';
import type { PricerSettings } from '../pricing/market-pricer.js';
import { BacktestConfigError } from './errors.js';
import type { BacktestObserver } from './result.js';
import type { TraderOrderOptions } from './trader.js';
import type { MarketAdmission, MarketSelectionSpec } from './market-roll.js';

const HOUR_MS = 3_600_000;
const MAX_DURATION_MS = 30 * 24 * HOUR_MS;
const USDC = RAW_PER_UNIT;

const int = (min: number, max: number): z.ZodInt => z.int().min(min).max(max);
const raw = int(0, Number.MAX_SAFE_INTEGER);
const tick = int(MIN_TICK, MAX_TICK);
const band = z
  .strictObject({ minTicks: tick, maxTicks: tick })
  .refine((b) => b.minTicks < b.maxTicks, { message: 'minTicks must be below maxTicks', path: ['maxTicks'] });

const sizeTolerance = z.union([
  z.strictObject({ kind: z.literal('raw'), raw }),
  z.strictObject({ kind: z.literal('percent'), percent: z.number().min(0).max(100) }),
]);

/** The synthetic traders' options, less the stepping (the backtest drives the steps). */
const syntheticSchema = syntheticOptionsSchema.omit({ stepMs: true, autoStep: true });

/** The fields of a market spec the backtest itself reads (the engine checks the rest when it starts). */
const marketShape = z.looseObject({
  slug: z.string(),
  yesTokenId: z.string(),
  noTokenId: z.string(),
  expirationMs: z.int(),
  isRewardable: z.boolean(),
  settings: z.looseObject({ minSizeRaw: raw, maxSpreadTicks: int(0, MAX_TICK), dailyRewardRaw: raw, c: z.number().gt(0) }),
});

const marketSpecs = z
  .array(z.custom<MarketSpec>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'expected a market spec object'))
  .min(1)
  .superRefine((specs, ctx) => {
    specs.forEach((spec, i) => {
      const issue = marketShape.safeParse(spec).error?.issues[0];
      if (issue) ctx.addIssue({ code: 'custom', path: [i, ...issue.path.filter((k) => typeof k !== 'symbol')], message: issue.message });
    });
  });

export const backtestSettingsSchema = z.strictObject({
  /** Seeds the engine: synthetic flow, order ids, everything random. */
  seed: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** Virtual start, ms since epoch. */
  startMs: raw.default(Date.UTC(2026, 0, 1)),
  durationMs: int(1, MAX_DURATION_MS),
  /** Virtual time between steps; synthetic traders act once per step. */
  stepMs: int(10, HOUR_MS).default(1000),
  /** Markets: explicit specs, or `{count}` generated with `generateMarkets(count, seed, startMs)`. */
  markets: z.union([z.strictObject({ count: int(1, 100) }), marketSpecs]).default({ count: 3 }),
  /** Synthetic traders (docs/sim-engine.md); informed traders are on by default. */
  synthetic: syntheticSchema.default({}),
  /** Venue price band (ticks), as the engine enforces it. */
  venuePriceBand: band.default({ minTicks: MIN_TICK, maxTicks: MAX_TICK }),
  settlementDelayMs: int(0, HOUR_MS).default(2000),
  /** The bot's account on the engine. */
  account: z
    .strictObject({
      usdcRaw: raw.default(100_000 * USDC),
      feeRateBps: int(0, 10_000).default(300),
      /** The share of a taker's fee paid back to the maker (the rebate ESTIMATE of each maker fill: src/strategy/rebates.ts). */
      rebateRate: z.number().min(0).max(1).default(0),
      /**
       * false (default): an externally owned wallet, as the going-live guide sets up: the API redeem is refused and
       * capital comes back through the on-chain path (`capital`). true: a server-managed wallet.
       */
      serverManagedWallet: z.boolean().default(false),
    })
    .prefault({}),
  /**
   * The capital core (src/capital/core.ts) over the engine's port: resolved markets redeemed on-chain, complete sets
   * merged (docs/settlement.md). `enabled: false` leaves the winnings in their tokens (the run before issue 38).
   */
  capital: z
    .strictObject({
      enabled: z.boolean().default(true),
      merge: z
        .strictObject({
          enabled: z.boolean().default(true),
          minSetsRaw: raw.default(5 * USDC),
          minTimeToSettleMs: raw.default(120_000),
        })
        .prefault({}),
      intervalMs: int(100, HOUR_MS).default(5_000),
      retry: z.strictObject({ initialMs: int(1, HOUR_MS).default(5_000), maxMs: int(1, HOUR_MS).default(60_000) }).prefault({}),
      /**
       * Gas charged per redeem or merge transaction, raw USDC (default 0.005 USDC: a redeem or merge is ~150k gas at
       * ~0.01 gwei on Base, 1.5e-6 ETH, 0.0045 USDC at 3,000 USDC/ETH, rounded up). 0: not modelled.
       */
      gasUsdcRaw: raw.default(5_000),
      ethPriceUsdcRaw: int(1, Number.MAX_SAFE_INTEGER).default(3_000 * USDC),
    })
    .prefault({}),
  /** Risk limits, applied by src/risk/limits.ts exactly as the bot applies them (defaults: the config's). */
  risk: z
    .strictObject({
      maxPositionPerTokenRaw: raw.default(500 * USDC),
      maxNetPositionRaw: raw.default(250 * USDC),
      maxOpenOrders: int(1, 200).default(6),
      priceBand: band.default({ minTicks: 20, maxTicks: 980 }),
      stopBeforeExpiryMs: raw.default(HOUR_MS),
      maxNotionalRaw: raw.default(1000 * USDC),
    })
    .prefault({}),
  /** Order management, as the bot's `orders` config section (src/orders/reconcile.ts options). */
  orders: z
    .strictObject({
      botTag: z.string().regex(BOT_TAG_PATTERN, `expected ${BOT_TAG_RULE}`).default('bt'),
      priceToleranceTicks: int(0, 998).default(0),
      sizeTolerance: sizeTolerance.default({ kind: 'percent', percent: 0 }),
      maxOrderAgeMs: raw.default(1_800_000),
      coolOffMs: raw.default(10_000),
      /** postOnly for intents that do not say. */
      postOnly: z.boolean().default(true),
      cancelBatchSize: int(1, 500).default(50),
      /** Replace a changed quote with one cancel-replace request (the bot's `orders.cancelReplace`, on by default). */
      cancelReplace: z.strictObject({ enabled: z.boolean().default(true), batchSize: int(1, 50).default(50) }).prefault({}),
    })
    .prefault({}),
  /**
   * Cancel-replace batches of several markets share requests, placements into empty slots included (the bot's
   * src/orders/cross-market-venue.ts, with its hold-off while other requests wait: the request model starts requests
   * by the bot's classes, cancel-replace first); false: one request per market's batch and one per placement.
   */
  crossMarketBatches: z.boolean().default(true),
  /** Requote every market at least this often (the runner's periodic tick). */
  requoteIntervalMs: int(1, HOUR_MS).default(5000),
  /** Requote a market when its book changed (as the live runner does). */
  quoteOnBookChange: z.boolean().default(true),
  /**
   * Request model. Each request (a placement, a cancel batch, a cancel-replace batch, a status lookup) waits for the rate limiter (at most
   * `maxConcurrent` in flight, `minRequestSpacingMs` between starts, one queue per account, started by the bot's classes:
   * cancels, lookups, placements, reads), acts on the venue
   * `oneWayMs` after it starts and is answered `oneWayMs` later. All zero: everything acts at once.
   */
  latency: z
    .strictObject({
      oneWayMs: int(0, 60_000).default(50),
      minRequestSpacingMs: int(0, 60_000).default(VENUE_MIN_TIME_MS + 20),
      maxConcurrent: int(1, 16).default(VENUE_MAX_CONCURRENT),
    })
    .prefault({}),
  /** Mid history the view carries (the bot's: 1 h / 2,000 mids). Recent fills are the bot's account view's (30 min / 500). */
  midHistory: z.strictObject({ horizonMs: int(1, 7 * 24 * HOUR_MS).default(HOUR_MS), max: int(1, 100_000).default(2000) }).prefault({}),
  /**
   * Time a market's leave has to cancel its orders and confirm them gone (./market-roll.ts: every market is left at
   * its stop before expiry); the bot's shutdown budget by default.
   */
  leaveBudgetMs: int(0, HOUR_MS).default(10_000),
});

export type BacktestSettings = z.input<typeof backtestSettingsSchema>;
type ParsedSettings = z.output<typeof backtestSettingsSchema>;

/** Which strategy to run and its parameters (checked against the module's schema, like `strategy.params`). */
export interface StrategySpec<P = unknown> {
  readonly module: StrategyModule<P>;
  readonly params?: unknown;
}

export interface BacktestOptions<P = unknown> extends BacktestSettings {
  readonly strategy: StrategySpec<P>;
  readonly observer?: BacktestObserver;
  /**
   * Which markets the trader joins (those listed at the start, and every one the engine lists later), asked once per
   * market with the moment it is listed; default: all.
   */
  readonly admits?: MarketAdmission;
  /**
   * A bot config's `markets` section, run by the daemon's own selection, discovery and roster (./market-roll.ts):
   * what the config's bot would trade in this world, joined and left as the daemon does. Not with `admits`.
   */
  readonly selection?: MarketSelectionSpec;
  /**
   * The crypto world (src/sim/engine/underlying.ts): its strike markets are the markets traded (`markets` is then
   * ignored): those listed at the start, and, when it is `recurring`, each ladder listed as the previous one settles
   * (joined then, left at its stop before settlement); their hidden fair value is the digital on the simulated
   * underlying.
   */
  readonly world?: NonNullable<EngineOptions['world']>;
  /**
   * Price the markets from their underlying as the bot does (src/pricing/market-pricer.ts), fed with the world's
   * PUBLISHED price once a step; absent: every market is quoted from its book. Needs `world`.
   */
  readonly pricing?: PricerSettings;
  /**
   * Record calibration as the live bot does (./calibration.ts): the model's and the book mid's predictions of YES at
   * fixed offsets before each priced market's settlement (default 50, 30, 10, 5 and 1 minutes), scored against the
   * engine's resolutions in `BacktestResult.calibration`. Needs `pricing`.
   */
  readonly calibration?: { readonly offsetsMs?: readonly number[] };
}

export interface LatencyModel {
  readonly oneWayMs: number;
  readonly minRequestSpacingMs: number;
  readonly maxConcurrent: number;
}

export interface ResolvedOptions {
  readonly strategyName: string;
  /** A fresh strategy instance (no memory shared with another run). */
  readonly strategy: Strategy;
  readonly seed: number;
  readonly startMs: number;
  readonly durationMs: number;
  readonly stepMs: number;
  /** Explicit specs, or `{count}` to generate. */
  readonly markets: readonly MarketSpec[] | { readonly count: number };
  readonly synthetic: SyntheticOptions;
  readonly venuePriceBand: PriceBand;
  readonly settlementDelayMs: number;
  readonly account: { readonly usdcRaw: number; readonly feeRateBps: number; readonly rebateRate: number; readonly serverManagedWallet: boolean };
  readonly capital: ParsedSettings['capital'];
  readonly risk: RiskLimits;
  readonly orders: TraderOrderOptions;
  readonly requoteIntervalMs: number;
  readonly quoteOnBookChange: boolean;
  readonly crossMarketBatches: boolean;
  readonly latency: LatencyModel;
  readonly midHistory: { readonly horizonMs: number; readonly max: number };
  readonly leaveBudgetMs: number;
  readonly observer: BacktestObserver;
  readonly admits: MarketAdmission;
  readonly selection: MarketSelectionSpec | null;
  readonly world: NonNullable<EngineOptions['world']> | null;
  readonly pricing: PricerSettings | null;
  readonly calibration: { readonly offsetsMs?: readonly number[] } | null;
}

/** Validates every option; throws `BacktestConfigError` naming the first bad field. Changes nothing. */
export function resolveOptions<P>(options: BacktestOptions<P>): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new BacktestConfigError('options', options, 'expected an object');
  const { strategy: spec, observer, world, pricing, calibration, admits, selection, ...settings } = options;
  if (admits !== undefined && typeof admits !== 'function') throw new BacktestConfigError('admits', admits, 'expected a function (market, nowMs) => boolean');
  if (admits !== undefined && selection !== undefined) throw new BacktestConfigError('selection', 'with admits', 'give one of admits (a predicate) and selection (a config\'s markets section)');
  if (pricing !== undefined && world === undefined) throw new BacktestConfigError('pricing', pricing, 'needs `world` (the underlying it prices from)');
  if (calibration !== undefined && pricing === undefined) throw new BacktestConfigError('calibration', calibration, 'needs `pricing` (the model it scores)');
  calibration?.offsetsMs?.forEach((offset, i) => {
    if (!Number.isSafeInteger(offset) || offset <= 0) throw new BacktestConfigError(`calibration.offsetsMs[${i}]`, offset, 'must be a positive integer of ms');
  });
  const strategy = createStrategy(spec);
  const parsed = backtestSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue ? issue.path.filter((k): k is string | number => typeof k !== 'symbol') : [];
    const field = formatPath(path);
    const value = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : valueAt(settings, path);
    const reason = issue?.code === 'unrecognized_keys' ? 'unknown option' : (issue?.message ?? 'invalid');
    throw new BacktestConfigError(issue?.code === 'unrecognized_keys' ? formatPath([...path, issue.keys[0] ?? '']) : field, value, reason);
  }
  const s: ParsedSettings = parsed.data;
  return { ...s, strategyName: spec.module.name, strategy, observer: observer ?? {}, admits: admits ?? (() => true), selection: selection ?? null, world: world ?? null, pricing: pricing ?? null, calibration: calibration ?? null };
}

function createStrategy<P>(spec: StrategySpec<P> | undefined): Strategy {
  if (typeof spec !== 'object' || spec === null) throw new BacktestConfigError('strategy', spec, 'expected {module, params}');
  const candidate: unknown = spec.module;
  if (!isStrategyModule(candidate)) throw new BacktestConfigError('strategy.module', candidate, 'not a StrategyModule ({name, description, paramsSchema, create})');
  const params = parseStrategyParams(spec.module, spec.params);
  if (!params.ok) {
    const first = params.issues[0];
    throw new BacktestConfigError(first?.path ?? 'strategy.params', first?.value, first?.message ?? 'invalid parameters');
  }
  return spec.module.create(params.value);
}

function formatPath(keys: readonly (string | number)[]): string {
  if (keys.length === 0) return 'options';
  let out = '';
  for (const key of keys) out += typeof key === 'number' ? `[${key}]` : out === '' ? key : `.${key}`;
  return out;
}

function valueAt(root: unknown, keys: readonly (string | number)[]): unknown {
  let cur: unknown = root;
  for (const key of keys) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    const next: unknown = Reflect.get(cur, key);
    cur = next;
  }
  return cur;
}
