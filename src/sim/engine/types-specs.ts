/**
 * The simulator engine's base types: what a market, its settlement terms and an account are when the engine is
 * configured (MarketSpec, OracleSpec, AccountSpec), and the accepted price band. Every other types-*.ts file may
 * import this one; it imports no other part of the engine but the cadence list (cadences.ts), so the engine's types
 * form no circle.
 *
 * Units: prices are integer ticks (1 tick = 0.001), sizes and collateral raw integers (1e6 = one share / one USDC).
 */
import type { Cadence } from './cadences.js';

export interface MarketSettings {
  /** Reward minimum order size, raw shares. */
  readonly minSizeRaw: number;
  /** Reward band around the midpoint, in ticks. */
  readonly maxSpreadTicks: number;
  /** Daily reward pool, raw USDC. */
  readonly dailyRewardRaw: number;
  /** Reward single-sided divisor (default 3). */
  readonly c: number;
  /**
   * Maker rebate rate (the official client's MarketSettings.rebateRate, "Market maker rebate rate"): the fraction of
   * the taker fee of each fill paid to the fill's maker. The venue's unit and formula are unconfirmed (exchange-facts
   * §8); absent: no rebate.
   */
  readonly rebateRate?: number;
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
