/**
 * Public types of the simulator ENGINE: the seam between the in-memory exchange (markets, accounts,
 * matching, settlement, lifecycle, synthetic traders) and the server half (HTTP, Socket.IO, auth,
 * wire parsing). Everything here is transport-free; the few wire-ready shapes (UserOrder, MarketTrade,
 * OME/SETTLEMENT frames, error bodies) follow exchange-api.md and exchange-facts.md field for field.
 *
 * Units: prices are integer ticks (1 tick = 0.001), sizes and collateral are raw integers (1e6 = one
 * share / one USDC). Wire-ready shapes carry raw amounts as integer decimal strings and prices as decimal
 * strings, exactly as the venue prints them.
 */
import type { Outcome, OrderType, Side, Level } from '../../core/venue-rules/index.js';

export type { Outcome, OrderType, Side, Level } from '../../core/venue-rules/index.js';

// ───────────────────────────── clock ─────────────────────────────

/** The injected time source is the project's clock seam (src/core/clock.ts). */
import type { Scheduler } from '../../core/clock.js';
import type { CryptoMarketOptions } from './crypto-markets.js';
import type { UnderlyingWorld, WorldOptions } from './underlying.js';
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
  readonly cadence: 'hourly' | 'daily';
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

// ───────────────────────────── state views ─────────────────────────────

export type MarketStatus = 'FUNDED' | 'RESOLVED';

export interface SimMarket extends MarketSpec {
  readonly createdAtMs: number;
  readonly status: MarketStatus;
  /** True once the clock reached expirationMs. */
  readonly expired: boolean;
  /** Not expired and not resolved. */
  readonly tradable: boolean;
  /** 0 = YES won, 1 = NO won; null when unresolved or resolved as a split. */
  readonly winningOutcomeIndex: 0 | 1 | null;
  /** Non-null for a payout-split resolution: [yesNumerator, noNumerator]. */
  readonly payoutNumerators: readonly [number, number] | null;
  readonly resolvedAtMs: number | null;
  /** Redemption works only once the payout is posted. */
  readonly payoutPosted: boolean;
  /** Sum of matched collateral, raw USDC. */
  readonly volumeRaw: number;
  readonly lastTradeTicks: number | null;
}

export interface SimGroup {
  readonly slug: string;
  readonly title: string;
  readonly negRiskRequestId: string | null;
  readonly markets: readonly SimMarket[];
}

export interface SimAccount {
  readonly profileId: number;
  /** EIP-55. */
  readonly address: string;
  readonly feeRateBps: number;
  readonly partnerProfileId: number | null;
  readonly serverManagedWallet: boolean;
  /** One of the engine's synthetic traders. */
  readonly synthetic: boolean;
}

export interface BalanceEntry {
  readonly totalRaw: number;
  /** Part of total reserved by resting orders (BUY: collateral; SELL: tokens). Free = total − locked. */
  readonly lockedRaw: number;
}

export interface Balances {
  readonly usdc: BalanceEntry;
  /** Every token the account ever held, by token id. */
  readonly tokens: Readonly<Record<string, BalanceEntry>>;
}

export interface BookSnapshot {
  /** YES bids (incl. SELL NO at 1 − p), best (highest) first. */
  readonly bids: readonly Level[];
  /** YES asks (incl. BUY NO at 1 − p), best (lowest) first. */
  readonly asks: readonly Level[];
}

export type OrderStatus = 'LIVE' | 'MATCHED' | 'CANCELED' | 'UNMATCHED';
export type StpPolicy = 'cancel_maker' | 'cancel_taker' | 'cancel_both';
/** Why an order left the book without filling in full. */
export type CancelReason =
  | 'USER_CANCELED'
  | 'STP_MAKER_CANCELLED'
  | 'STP_TAKER_REJECTED'
  | 'UNFILLED_REMAINDER' // FAK remainder, or a killed FOK
  | 'MARKET_EXPIRED'
  | 'MARKET_RESOLVED'
  | 'ORDER_EXPIRED'; // the order's signed `expiration` passed while it rested

export interface SimOrder {
  /** UUID v4. */
  readonly id: string;
  readonly profileId: number;
  readonly marketId: number;
  readonly marketSlug: string;
  readonly tokenId: string;
  readonly outcome: Outcome;
  readonly type: OrderType;
  readonly side: Side;
  /** Limit price in ticks of the order's own token; null for FOK. */
  readonly priceTicks: number | null;
  readonly makerAmount: number;
  readonly takerAmount: number;
  /** Shares ordered, raw. FOK BUY: the shares it bought (its size is a budget, not a share count). */
  readonly originalSizeRaw: number;
  readonly remainingSizeRaw: number;
  readonly filledSizeRaw: number;
  /** Collateral paid (BUY) or received before fees (SELL) over all fills, raw. */
  readonly filledCollateralRaw: number;
  readonly feePaidRaw: number;
  readonly status: OrderStatus;
  readonly cancelReason: CancelReason | null;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly clientOrderId: string | null;
  readonly feeRateBps: number;
  readonly postOnly: boolean;
  readonly stpPolicy: StpPolicy;
  readonly salt: number;
  readonly signature: string;
  /** The signed order as received, echoed back in the placement answer. */
  readonly signedOrderEcho: Readonly<Record<string, unknown>>;
  /** When the signed `expiration` (unix seconds) ends the order, ms since epoch; null = no expiry. */
  readonly expiresAtMs: number | null;
}

// ───────────────────────────── commands ─────────────────────────────

export interface PlaceInput {
  /** Effective profile (after delegation). */
  readonly profileId: number;
  readonly marketSlug: string;
  readonly orderType: OrderType;
  readonly tokenId: string;
  readonly side: Side;
  readonly makerAmount: number;
  readonly takerAmount: number;
  /** Limit price in ticks of `tokenId`; null for FOK (and required otherwise). */
  readonly priceTicks: number | null;
  readonly feeRateBps: number;
  readonly salt: number;
  readonly postOnly: boolean;
  readonly clientOrderId?: string;
  readonly stpPolicy: StpPolicy;
  readonly signature: string;
  readonly signedOrderEcho: Readonly<Record<string, unknown>>;
  /**
   * The signed `expiration` in unix SECONDS (the official client's UnsignedOrder.expiration); 0 or absent = no
   * expiry. A resting order is canceled (OME CANCELLATION, reason ORDER_EXPIRED) at that instant; one already past
   * is refused with a 400 naming `order.expiration`.
   */
  readonly expirationSec?: number;
}

/** One maker order hit by a placement (placement answer's `makerMatches`). */
export interface MakerMatch {
  /** Match id (UUID v4). */
  readonly id: string;
  /** ISO-8601. */
  readonly createdAt: string;
  /** Raw shares, integer decimal string. */
  readonly matchedSize: string;
  /** The maker's order id. */
  readonly orderId: string;
}

export type SettlementStatus = 'UNMATCHED' | 'MATCHED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED' | 'DELAYED';

/**
 * Raw integer decimal strings, the taker's view of its execution: the official client's ExecutionTotalsRaw.
 * Gross = before the fee, fee = taken, net = after it. The simulator charges taker fees in USDC, so the
 * contracts fee is always "0" and contractsNet = contractsGross.
 */
export interface ExecutionTotals {
  /** Shares matched. */
  readonly contractsGross: string;
  readonly contractsFee: string;
  readonly contractsNet: string;
  /** Collateral paid (BUY) or received (SELL) before the fee. */
  readonly usdGross: string;
  /** Taker fee charged (USDC). */
  readonly usdFee: string;
  /** BUY: usdGross + usdFee spent; SELL: usdGross − usdFee received. */
  readonly usdNet: string;
}

export interface Execution {
  readonly matched: boolean;
  readonly settlementStatus: SettlementStatus;
  readonly tradeEventId?: string;
  readonly clientOrderId?: string;
  readonly feeRateBps: number;
  /** Fee actually charged over notional, in bps (0 when nothing matched). */
  readonly effectiveFeeBps: number;
  readonly totalsRaw: ExecutionTotals;
  /** e.g. `STP_TAKER_REJECTED`. */
  readonly reason?: string;
  /** Own maker orders canceled by self-trade prevention. */
  readonly stpMakerCancels?: readonly string[];
}

export interface ValidationErrorBody {
  readonly message: readonly { readonly field: string; readonly message: string }[];
  readonly error: 'Bad Request';
  readonly statusCode: 400;
}
export interface FrameworkErrorBody {
  readonly message: string;
  readonly error: string;
  readonly statusCode: number;
}
export type ErrorBody = ValidationErrorBody | FrameworkErrorBody;

export type EngineErrorCode =
  | 'MARKET_NOT_FOUND'
  | 'PROFILE_NOT_FOUND'
  | 'ORDER_NOT_FOUND'
  | 'NOT_ORDER_OWNER'
  | 'MARKET_RESOLVED'
  | 'MARKET_EXPIRED'
  | 'MARKET_NOT_RESOLVED'
  | 'ALREADY_RESOLVED'
  | 'NOT_CANCELLABLE'
  | 'INVALID_ORDER'
  | 'TOKEN_NOT_IN_MARKET'
  | 'PRICE_OUT_OF_BAND'
  | 'AMOUNTS_MISMATCH'
  | 'SIZE_NOT_ON_STEP'
  | 'FEE_RATE_MISMATCH'
  | 'INSUFFICIENT_BALANCE'
  | 'DUPLICATE_CLIENT_ORDER_ID'
  | 'POST_ONLY_WOULD_CROSS'
  | 'MIXED_MARKETS'
  | 'REDEEM_NOT_ALLOWED'
  | 'PAYOUT_NOT_POSTED'
  | 'NOTHING_TO_REDEEM'
  | 'INVALID_ARGUMENT';

export interface EngineFailure {
  readonly ok: false;
  /** HTTP status the server should answer with. */
  readonly status: number;
  readonly code: EngineErrorCode;
  /** Spec error body, ready to send. */
  readonly body: ErrorBody;
}

export type PlaceOutcome =
  | {
      readonly ok: true;
      readonly order: SimOrder;
      readonly makerMatches: readonly MakerMatch[];
      readonly execution: Execution;
    }
  | EngineFailure;

export type CancelMessage = 'Order canceled successfully' | 'Delayed order canceled successfully';
export type CancelOutcome = { readonly ok: true; readonly message: CancelMessage; readonly order: SimOrder } | EngineFailure;

export interface BatchCancelFailure {
  readonly orderId: string;
  readonly reason: EngineErrorCode;
  readonly message: string;
}
export type BatchCancelOutcome =
  | { readonly ok: true; readonly canceled: readonly string[]; readonly failed: readonly BatchCancelFailure[] }
  | EngineFailure;

export type ResolveInput =
  | { readonly winningOutcomeIndex: 0 | 1 }
  | { readonly payoutNumerators: readonly [number, number] };
export type ResolveOutcome = { readonly ok: true; readonly market: SimMarket } | EngineFailure;

export type RedeemOutcome =
  | {
      readonly ok: true;
      readonly conditionId: string;
      readonly marketSlug: string;
      /** Raw USDC paid out. */
      readonly payoutRaw: number;
      readonly yesBurnedRaw: number;
      readonly noBurnedRaw: number;
    }
  | EngineFailure;

export type FairValueOutcome = { readonly ok: true; readonly fairValueTicks: number } | EngineFailure;

export interface DepositInput {
  readonly usdcRaw?: number;
  readonly tokens?: Readonly<Record<string, number>>;
}
export type DepositOutcome = { readonly ok: true; readonly balances: Balances } | EngineFailure;

// ───────────────────────────── wire-ready reads ─────────────────────────────

/** exchange-api.md UserOrder, no additional properties. */
export interface UserOrder {
  readonly id: string;
  readonly ownerId: number;
  readonly marketId: string;
  readonly token: string;
  readonly type: OrderType;
  readonly status: OrderStatus;
  readonly side: Side;
  readonly makerAmount: string;
  readonly takerAmount: string;
  readonly price: string;
  readonly originalSize: string;
  readonly remainingSize: string;
  readonly createdAt: string;
  readonly clientOrderId?: string;
}

/** exchange-api.md MarketTrade (no `profile`: synthetic and test accounts have no public profile). */
export interface MarketTrade {
  readonly createdAt: string;
  readonly makerAmount: string;
  readonly takerAmount: string;
  readonly matchedSize: string;
  readonly price: number;
  readonly side: 0 | 1;
  readonly title: string;
  readonly tokenId: string;
  readonly txHash: string;
}

/** How one fill moved tokens: an ordinary transfer, a minted YES/NO pair, or a merged (burned) pair. */
export type FillKind = 'TRANSFER' | 'MINT' | 'MERGE';

/** One side of one fill, as the account saw it. */
export interface AccountFill {
  readonly tradeEventId: string;
  readonly matchId: string;
  readonly role: 'TAKER' | 'MAKER';
  readonly orderId: string;
  readonly clientOrderId: string | null;
  readonly marketSlug: string;
  readonly tokenId: string;
  readonly outcome: Outcome;
  readonly side: Side;
  /** Execution price in ticks of this account's token (the maker's price). */
  readonly priceTicks: number;
  readonly sizeRaw: number;
  /** Collateral paid (BUY) or received before fee (SELL). */
  readonly collateralRaw: number;
  readonly feeRaw: number;
  readonly kind: FillKind;
  readonly counterpartyProfileId: number;
  readonly settlementStatus: 'MATCHED' | 'MINED';
  readonly matchedAtMs: number;
  readonly minedAtMs: number | null;
  readonly txHash: string | null;
}

export interface TokenPosition {
  readonly tokenId: string;
  readonly balanceRaw: number;
  readonly lockedRaw: number;
  /** Average-cost basis of the tokens held, raw USDC (fees excluded). */
  readonly costBasisRaw: number;
  /** costBasis / balance as a price (0..1); null when flat. Display only. */
  readonly averageFillPrice: number | null;
  /** Realised PnL from sells, merges and redemptions, raw USDC (fees excluded). */
  readonly realisedPnlRaw: number;
}

export interface PositionSummary {
  readonly marketSlug: string;
  readonly marketId: number;
  readonly conditionId: string;
  readonly yes: TokenPosition;
  readonly no: TokenPosition;
  readonly liveOrders: number;
  /** USDC locked by this market's resting BUY orders, raw. */
  readonly collateralLockedRaw: number;
  /** Taker fees paid in this market, raw. */
  readonly feesPaidRaw: number;
}

// ───────────────────────────── socket frames ─────────────────────────────

export type OmeEventType = 'PLACEMENT' | 'UPDATE' | 'CANCELLATION' | 'EXECUTION';
export type ExecutionFrameStatus = 'FILLED' | 'PARTIALLY_FILLED' | 'KILLED';

/** `orderEvent` with source OME: the official client's OmeOrderEvent (exchange-facts §5). */
export interface OmeFrame {
  readonly source: 'OME';
  readonly type: OmeEventType;
  /** Monotonic per engine. */
  readonly eventId: number;
  readonly orderId: string;
  readonly clientOrderId?: string;
  readonly marketId: string;
  readonly marketSlug: string;
  readonly token: string;
  readonly side: Side;
  /** The owner's profile id. */
  readonly userId: number;
  /** Price as a JSON number (0.55); FOK: average fill price, 0 if none. */
  readonly price: number;
  /** Raw shares as a JSON integer (same unit as UserOrder.remainingSize). */
  readonly remainingSize: number;
  /** Raw shares, integer decimal string: size matched in the event that produced this frame (EXECUTION only). */
  readonly matchedSize?: string;
  readonly status?: ExecutionFrameStatus;
  /** CANCELLATION: e.g. STP_MAKER_CANCELLED. */
  readonly reason?: CancelReason;
  /** ISO-8601 (the official client types it as a string). */
  readonly timestamp: string;
}

export interface SettlementMakerMatch {
  /** Maker address, EIP-55. */
  readonly account: string;
  readonly orderId: string;
  /** Raw shares, integer decimal string. */
  readonly matchedSize: string;
  /** Maker's price in the maker's own token, decimal string. */
  readonly price: string;
}

/** `orderEvent` with source SETTLEMENT (exchange-facts §5). Describes the trade from the taker's side. */
export interface SettlementFrame {
  readonly source: 'SETTLEMENT';
  readonly type: 'MATCHED' | 'MINED' | 'FAILED';
  /** `settlement:<tradeEventId>`. */
  readonly eventId: string;
  /** Taker's order; present only in the taker's copy. */
  readonly orderId?: string;
  readonly clientOrderId?: string;
  /** The taker's order id, in every copy (makers' too). */
  readonly takerOrderId: string;
  /** The taker's wallet address (EIP-55), in every copy. */
  readonly takerAccount: string;
  readonly makerMatches: readonly SettlementMakerMatch[];
  readonly marketSlug: string;
  readonly txHash?: string;
  /** Taker's token. */
  readonly tokenId: string;
  /** 'YES' or 'NO': the outcome of the taker's token. */
  readonly token: Outcome;
  /** Taker's side. */
  readonly side: Side;
  /** Taker's weighted average price, decimal string. */
  readonly price: string;
  /** Raw shares, integer decimal string. */
  readonly amountContracts: string;
  /** Raw USDC, integer decimal string (taker's notional before fee). */
  readonly amountCollateral: string;
  /** The taker's signed fee rate. */
  readonly configuredFeeRateBps: number;
  /** Fee actually charged over the notional, bps. */
  readonly effectiveFeeBps: number;
  /** Raw USDC fee charged to the taker, integer decimal string. */
  readonly feeAmountCollateral: string;
  /** Fee taken in contracts: always "0" (the simulator charges fees in USDC). */
  readonly feeAmountContracts: string;
  /** True on the pre-chain MATCHED frame (the official client: fee fields are estimates there). */
  readonly isEstimate: boolean;
  readonly tradeEventId: string;
  /** ms since epoch. */
  readonly timestamp: number;
}

export type OrderEventFrame = OmeFrame | SettlementFrame;

export interface MarketResolvedFrame {
  readonly slug: string;
  /** null for a payout split. */
  readonly winningOutcome: Outcome | null;
  readonly winningIndex: 0 | 1 | null;
  readonly payoutNumerators: readonly [number, number] | null;
  /** ISO-8601. */
  readonly resolutionDate: string;
}

/** Change notifications. Called synchronously after the engine's state is consistent again. */
export interface EngineListener {
  bookChanged?(slug: string): void;
  orderEvent?(profileId: number, frame: OrderEventFrame): void;
  positionsChanged?(profileId: number, slug: string): void;
  marketResolved?(frame: MarketResolvedFrame): void;
  /** Market expired or resolved, or the payout was posted. */
  marketStatusChanged?(slug: string): void;
  tradeMined?(slug: string): void;
}

export interface EngineStats {
  readonly restingOrders: number;
  readonly tradesMatched: number;
  readonly tradesMined: number;
  readonly feesCollectedRaw: number;
  readonly ordersPlaced: number;
}

// ───────────────────────────── the engine ─────────────────────────────

export interface SimEngine {
  /** The crypto world's underlyings (true and published prices); null in the generic world. */
  underlying(): UnderlyingWorld | null;
  markets(): readonly SimMarket[];
  market(slug: string): SimMarket | undefined;
  marketById(id: number): SimMarket | undefined;
  marketByConditionId(conditionId: string): SimMarket | undefined;
  groups(): readonly SimGroup[];
  group(slug: string): SimGroup | undefined;

  accounts(): readonly SimAccount[];
  account(profileId: number): SimAccount | undefined;
  /** Case-insensitive. */
  accountByAddress(address: string): SimAccount | undefined;
  /** Add an account at run time (admin). Fails on a duplicate profile id or address. */
  addAccount(spec: AccountSpec): { readonly ok: true; readonly account: SimAccount } | EngineFailure;
  /** Credit USDC and/or tokens (admin). Tokens granted without their complement break pair balance on purpose only in tests. */
  deposit(profileId: number, input: DepositInput): DepositOutcome;
  balances(profileId: number): Balances | undefined;

  /** YES book with NO orders folded in; undefined for an unknown slug. */
  book(slug: string): BookSnapshot | undefined;
  lastTradeTicks(slug: string): number | null;

  place(input: PlaceInput): PlaceOutcome;
  cancel(profileId: number, orderId: string): CancelOutcome;
  /** All ids must belong to one market. */
  cancelBatch(profileId: number, orderIds: readonly string[]): BatchCancelOutcome;
  cancelAll(profileId: number, slug: string): BatchCancelOutcome;

  /** The account's orders in one market with one of `statuses`, newest first, at most `limit`. */
  orders(profileId: number, slug: string, statuses: readonly OrderStatus[], limit?: number): SimOrder[];
  orderById(id: string): SimOrder | undefined;
  orderByClientOrderId(profileId: number, clientOrderId: string): SimOrder | undefined;
  userOrder(order: SimOrder): UserOrder;

  /** MINED trades of these markets, newest first. */
  trades(slugs: readonly string[]): MarketTrade[];
  /** Every fill of the account (both roles), newest first. */
  accountTrades(profileId: number): AccountFill[];
  positions(profileId: number): PositionSummary[];

  resolve(slug: string, input: ResolveInput): ResolveOutcome;
  payoutPosted(slug: string): boolean;
  redeem(profileId: number, conditionId: string): RedeemOutcome;

  fairValueTicks(slug: string): number | null;
  setFairValue(slug: string, ticks: number): FairValueOutcome;
  /** One round of synthetic flow (no-op when synthetic is off). */
  syntheticStep(): void;

  on(listener: EngineListener): () => void;
  stats(): EngineStats;
  /** Violated invariants (empty when sound): balances, locks, pairs, collateral, crossed books. O(state). */
  checkInvariants(): string[];
  /** Cancel every timer the engine scheduled. Idempotent. */
  stop(): void;
}
