/**
 * Engine types, part 2 (see types.ts): read-only views of markets, groups, accounts, balances, books and orders,
 * and the wire-ready reads (UserOrder, MarketTrade, account fills, positions).
 */
import type { Level, OrderType, Outcome, Side } from '../../core/venue-rules/index.js';
import type { MarketSpec } from './types-specs.js';

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

/**
 * A conditional-token action of an account outside the order book, as the venue's history lists it: a claim
 * (`redeemPositions`, through the API or on-chain), a merge (`mergePositions`) or a split (`splitPosition`).
 */
export interface CapitalAction {
  /** Unique per account, in the order they happened. */
  readonly seq: number;
  readonly kind: 'Claim' | 'Merge' | 'Split';
  readonly atMs: number;
  readonly txHash: string;
  readonly marketSlug: string;
  /** USDC paid out (claim, merge) or put in (split), raw. */
  readonly collateralRaw: number;
  /** YES and NO burned (claim, merge) or minted (split), raw. */
  readonly tokensRaw: readonly [number, number];
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
