/**
 * The pricing layer's shared shapes: a market's settlement terms (what decides it), an underlying price update
 * (what a source says), and a model fair value (what the bot thinks it is worth).
 *
 * Owns: these types only. The parser (`terms.ts`), the model (`model/`), the price store and its sources
 * (`underlying/`) and the bot's market pricer (`market-pricer.ts`) all speak them, so a fact has one shape.
 * Invariants: money amounts that are signed or booked never appear here (these are floats for maths, except the
 * strike, which is kept as its exact decimal string beside the float); times are ms since the epoch.
 */

/** How the venue decides a market, read from its description and metadata (../shared/spec/exchange-facts.md §9). */
export type SettlementRule =
  /** YES iff the OPEN of the 1-minute Pyth candle that opens at the settlement instant is strictly above the strike. */
  | 'pyth-candle-open-1m'
  /** "Up" iff the closing Chainlink TWAP (metadata.chainlinkDataStream) is >= the one captured at the window open. */
  | 'chainlink-twap'
  /** "Up" iff an exchange's candle closes at or above its open (a third party's report; unconfirmed). */
  | 'exchange-candle';

export type PriceSourceKind = 'pyth' | 'chainlink' | 'exchange';

/** 64 lower-case hex digits with a 0x prefix. */
export type FeedId = `0x${string}`;

export interface MarketTerms {
  /** The market's slug (for logs and metrics). */
  readonly slug: string;
  /** Upper-case ticker of the underlying, e.g. 'BTC'. */
  readonly ticker: string;
  /** Pyth feed id: `priceOracleMetadata.pythAddress` when present, else the configured map; null when unknown. */
  readonly feedId: FeedId | null;
  /** 'strike': "$X above $K"; 'updown': the strike is the price at the window's open. */
  readonly family: 'strike' | 'updown';
  /** The strike as the venue wrote it (exact decimal string, USD), null for an up/down market not yet opened. */
  readonly strike: string | null;
  /** The strike as a float, for the maths only; null when `strike` is null. */
  readonly strikeValue: number | null;
  /** 'above' is strict (S > K); 'at-or-above' (S >= K) is the up/down rule. */
  readonly comparison: 'above' | 'at-or-above';
  /** The settlement instant, ms (`expirationTimestamp`). */
  readonly settlesAtMs: number;
  /** Window open for up/down markets (ms), null for strike markets. */
  readonly windowStartMs: number | null;
  readonly rule: SettlementRule;
  readonly source: PriceSourceKind;
  /** Hourly | Daily | Weekly from the tags, null when none. */
  readonly cadence: 'hourly' | 'daily' | 'weekly' | null;
}

/**
 * The parser's answer. `recognisedCrypto` says the market is about a crypto underlying even when it cannot be
 * priced (its rule is unreadable or not implemented, or its feed is unknown): such a market is left alone by default.
 */
export type TermsResult =
  | { readonly ok: true; readonly terms: MarketTerms }
  | { readonly ok: false; readonly reason: string; readonly recognisedCrypto: boolean; readonly ticker: string | null };

/** Where an underlying price came from. 'hermes': Pyth's Hermes stream or latest read; 'venue': an `oraclePriceData` frame. */
export type UnderlyingSourceName = 'hermes' | 'venue';

/** One validated price of one underlying, as a source reported it. */
export interface UnderlyingQuote {
  readonly ticker: string;
  readonly source: UnderlyingSourceName;
  /** USD per unit, finite and > 0. */
  readonly price: number;
  /** Pyth's confidence interval (USD, >= 0); null when the source gives none (venue frames). */
  readonly conf: number | null;
  /** The source's own timestamp, ms. */
  readonly publishTimeMs: number;
  /** When this process received it, ms (the injected clock). */
  readonly receiveTimeMs: number;
  /** The market a venue frame was about; null for Hermes. */
  readonly marketSlug: string | null;
}

/** The model's answer for one market at one instant (pure maths; floats). */
export interface FairValue {
  /** Probability that the market resolves YES, strictly inside (0, 1) after the floor and cap. */
  readonly fair: number;
  /** d fair / d S: sensitivity to the underlying, per 1 USD of the underlying. */
  readonly delta: number;
  /** One standard deviation of the fair value's error, price units (>= 0): feed confidence, age and volatility. */
  readonly uncertainty: number;
}
