/**
 * The simulator engine's options (EngineOptions) and what they contain: the clock, retention, the synthetic traders'
 * settings, the observer's counters, the crypto world. Read once at creation (src/sim/engine/engine.ts); the defaults
 * are documented in docs/sim-engine.md.
 *
 * Units: prices are integer ticks (1 tick = 0.001), sizes and collateral raw integers (1e6 = one share / one USDC).
 */
import type { Scheduler } from '../../core/clock.js';
import type { OrderType } from '../../core/venue-rules/index.js';
import type { CryptoMarketOptions } from './crypto-markets.js';
import type { FeeOptions, RewardOptions } from './types-rewards.js';
import type { EngineErrorCode } from './types-commands.js';
import type { AccountSpec, MarketSpec, PriceBand } from './types-specs.js';
import type { CancelReason, OrderStatus } from './types-views.js';
import type { WorldOptions } from './underlying.js';

// ───────────────────────────── clock ─────────────────────────────

/** The injected time source is the project's clock seam (src/core/clock.ts). */
export type SimClock = Scheduler;

// ───────────────────────────── configuration ─────────────────────────────

export interface RetentionOptions {
  /** Terminal (MATCHED/CANCELED/UNMATCHED) orders kept per (account, market); older ones are forgotten. Default 5000. */
  readonly terminalOrdersPerBook?: number;
  /** MINED trades kept per market for the public feed. Default 10000. */
  readonly tradesPerMarket?: number;
  /** Fills kept per account (synthetic accounts: min(this, 2000)). Default unbounded. */
  readonly fillsPerAccount?: number;
}

export interface FairValueOptions {
  /** Log-odds volatility per sqrt(hour) of the hidden fair value's random walk. Default 0.6. */
  readonly volatilityPerSqrtHour?: number | undefined;
  /** Expected jumps per hour. Default 0.5. */
  readonly jumpsPerHour?: number | undefined;
  /** Standard deviation of a jump, in log-odds. Default 0.8. */
  readonly jumpStdLogOdds?: number | undefined;
}

export interface PassiveMakerOptions {
  readonly enabled?: boolean | undefined;
  /** Levels quoted on each side. Default 3. */
  readonly levels?: number | undefined;
  /** Distance of the first level from the fair value, ticks. Default 20. */
  readonly spreadTicks?: number | undefined;
  /** Distance between levels, ticks. Default 10. */
  readonly levelStepTicks?: number | undefined;
  /** Size of each level, raw shares (multiple of the size step). Default 50 shares. */
  readonly sizeRaw?: number | undefined;
  /** Requote when the fair value moved at least this many ticks from the last quote. Default 3. */
  readonly requoteThresholdTicks?: number | undefined;
}

export interface NoiseTakerOptions {
  /** Expected marketable orders per minute per market. Default 2. */
  readonly ratePerMinute?: number | undefined;
  readonly minSizeRaw?: number | undefined;
  readonly maxSizeRaw?: number | undefined;
}

export interface InformedTakerOptions {
  /** Expected looks at the book per minute per market. Default 6. */
  readonly ratePerMinute?: number | undefined;
  /** Trade only when the touch is mispriced by at least this many ticks against the fair value. Default 5. */
  readonly edgeTicks?: number | undefined;
  readonly maxSizeRaw?: number | undefined;
}

/** Synthetic traders. All default values are documented in docs/sim-engine.md. */
export interface SyntheticOptions {
  /** Interval between synthetic steps. Default 1000 ms. */
  readonly stepMs?: number | undefined;
  /** Drive `syntheticStep()` from the clock. Default true; tests set false and call it themselves. */
  readonly autoStep?: boolean | undefined;
  /** Markets with synthetic flow (slugs); default all. */
  readonly markets?: readonly string[] | undefined;
  /** First profile id of the synthetic accounts (maker, noise, informed). Default 900000. */
  readonly profileIdBase?: number | undefined;
  /** Starting USDC of each synthetic account, raw. Default 10,000,000 USDC. */
  readonly usdcPerAccountRaw?: number | undefined;
  readonly fairValue?: FairValueOptions | undefined;
  readonly makers?: PassiveMakerOptions | undefined;
  readonly noise?: NoiseTakerOptions | undefined;
  readonly informed?: InformedTakerOptions | undefined;
  /**
   * Where the flow's random draws come from: `shared` (default) one stream for every market, drawn in listing order, so
   * listing one more market changes every other market's flow; `per-market` a stream of its own per market slug (the
   * fair-value walk, noise arrivals, sizes, slippage and sides, informed looks), so the markets two worlds of the same
   * seed share get the same arrivals whatever else is listed (common random numbers for paired comparisons).
   */
  readonly streams?: 'shared' | 'per-market' | undefined;
}

/** Counters an operator wants; the lead wires these to Prometheus. All optional. */
export interface EngineObserver {
  onPlaceAccepted?(orderType: OrderType, status: OrderStatus, synthetic: boolean): void;
  onPlaceRejected?(code: EngineErrorCode, synthetic: boolean): void;
  onCancel?(reason: CancelReason): void;
  onTrade?(marketSlug: string, contractsRaw: number, collateralRaw: number, feeRaw: number, synthetic: boolean): void;
  onSettlement?(status: 'MATCHED' | 'MINED'): void;
  onSyntheticStep?(durationMs: number, ordersPlaced: number): void;
  /** A listener threw; the engine swallowed it to stay consistent. */
  onListenerError?(error: unknown): void;
}

export interface EngineOptions {
  /** Seeds every random choice (order ids, tx hashes, synthetic flow). */
  readonly seed: number;
  readonly clock: SimClock;
  /** Delay from MATCHED to MINED. */
  readonly settlementDelayMs: number;
  /** Delay from resolution until the payout is posted (redeem works only after). Default 5000 ms. */
  readonly payoutDelayMs?: number;
  readonly markets: readonly MarketSpec[];
  readonly accounts: readonly AccountSpec[];
  /** Synthetic traders; off when absent. */
  readonly synthetic?: SyntheticOptions;
  /** Default {minTicks: 1, maxTicks: 999}. */
  readonly priceBand?: PriceBand;
  readonly retention?: RetentionOptions;
  readonly observer?: EngineObserver;
  /**
   * The crypto world: simulated underlyings and recurring strike markets on them (added to `markets`), resolved at
   * their settlement instant by the rule from the underlying. Absent: the generic world (markets as given).
   */
  readonly world?: { readonly underlying: WorldOptions; readonly markets: CryptoMarketOptions };
  /** Taker fees (fees.ts): the venue's dynamic curve (default with `world`) or the flat signed rate (default without). */
  readonly fees?: FeeOptions;
  /** Liquidity rewards and maker rebates (rewards.ts): scored each minute, paid daily; on by default with `world`. */
  readonly rewards?: RewardOptions;
}
