/**
 * Public types of the simulator ENGINE: the seam between the in-memory exchange (markets, accounts,
 * matching, settlement, lifecycle, synthetic traders) and the server half (HTTP, Socket.IO, auth,
 * wire parsing). Everything here is transport-free; the few wire-ready shapes (UserOrder, MarketTrade,
 * OME/SETTLEMENT frames, error bodies) follow exchange-api.md and exchange-facts.md field for field.
 *
 * Units: prices are integer ticks (1 tick = 0.001), sizes and collateral are raw integers (1e6 = one
 * share / one USDC). Wire-ready shapes carry raw amounts as integer decimal strings and prices as decimal
 * strings, exactly as the venue prints them.
 *
 * This file holds the configuration (EngineOptions and what it contains) and re-exports the rest, one file per
 * part: state views and wire-ready reads (types-views.ts), commands and their outcomes (types-commands.ts),
 * socket frames and listeners (types-frames.ts), and the `SimEngine` interface (types-engine.ts).
 */
import type { Scheduler } from '../../core/clock.js';
import type { OrderType } from '../../core/venue-rules/index.js';
import type { Cadence, CryptoMarketOptions } from './crypto-markets.js';
import type { EngineErrorCode } from './types-commands.js';
import type { CancelReason, OrderStatus } from './types-views.js';
import type { WorldOptions } from './underlying.js';

export type { Outcome, OrderType, Side, Level } from '../../core/venue-rules/index.js';
export type * from './types-views.js';
export type * from './types-commands.js';
export type * from './types-frames.js';
export type * from './types-engine.js';

// ───────────────────────────── clock ─────────────────────────────

/** The injected time source is the project's clock seam (src/core/clock.ts). */
export type SimClock = Scheduler;

// ───────────────────────────── configuration ─────────────────────────────

export interface MarketSettings {
  /** Reward minimum order size, raw shares. */
  readonly minSizeRaw: number;
  /** Reward band around the midpoint, in ticks. */
  readonly maxSpreadTicks: number;
  /** Daily reward pool, raw USDC. */
  readonly dailyRewardRaw: number;
  /** Reward single-sided divisor (default 3). */
  readonly c: number;
}

export interface MarketSpec {
  /** Internal market id (integer). */
  readonly id: number;
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  /** 0x + 64 hex. */
  readonly conditionId: string;
  /** Position token ids, decimal strings (uint256). */
  readonly yesTokenId: string;
  readonly noTokenId: string;
  /** Per-market venue contracts, EIP-55 addresses. */
  readonly venue: { readonly exchange: string; readonly adapter: string };
  /** Trading stops, and resting orders are canceled, at this instant (ms since epoch). */
  readonly expirationMs: number;
  /** Defaults to the engine clock at creation. */
  readonly createdAtMs?: number;
  readonly categories: readonly string[];
  readonly categoryIds: readonly number[];
  readonly settings: MarketSettings;
  readonly isRewardable: boolean;
  /** NegRisk group this market is a submarket of. */
  readonly groupSlug?: string;
  /** Title of the group (taken from the first submarket that names it). */
  readonly groupTitle?: string;
  readonly negRiskRequestId?: string;
  /** Starting hidden fair value for synthetic traders (ticks); default 500. */
  readonly initialFairValueTicks?: number;
  /** Tags as the venue lists them (Pricechart, Hourly, Recurring…); none when absent. */
  readonly tags?: readonly string[];
  /** A crypto strike market of the crypto world: what settles it (src/sim/engine/crypto-markets.ts). */
  readonly oracle?: OracleSpec;
}

/** The settlement terms of a simulated crypto strike market: YES iff the price at expiry is strictly above `strike`. */
export interface OracleSpec {
  readonly ticker: string;
  /** The strike as the venue writes it (decimal string, USD). */
  readonly strike: string;
  /** 0x + 64 hex: the Pyth feed id the market names in priceOracleMetadata. */
  readonly pythFeedId: string;
  /** "Bitcoin". */
  readonly name: string;
  readonly cadence: Cadence;
  /** False for a market listed at run time (`listStrikeMarket`): no successor opens when it settles. Absent: recurring. */
  readonly recurring?: false;
}

export interface AccountSpec {
  readonly profileId: number;
  /** EIP-55 address (any case accepted; stored checksummed). */
  readonly address: string;
  /** Starting USDC, raw. */
  readonly usdcRaw: number;
  /** Starting outcome tokens by token id, raw. */
  readonly tokens?: Readonly<Record<string, number>>;
  /** Taker fee rate; default 300. Orders must be signed with exactly this rate. */
  readonly feeRateBps?: number;
  /** Set when this profile is a managed sub-account of the partner `partnerProfileId`. */
  readonly partnerProfileId?: number;
  /** Only server-managed-wallet profiles may redeem through the API. */
  readonly serverManagedWallet?: boolean;
}

/** Inclusive price band in ticks accepted for GTC/FAK orders (exchange-facts §1: configurable). */
export interface PriceBand {
  readonly minTicks: number;
  readonly maxTicks: number;
}

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
}
