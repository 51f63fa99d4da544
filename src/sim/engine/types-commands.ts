/**
 * Engine types, part 3 (see types.ts): command inputs and outcomes (placement, cancels, resolution, redemption,
 * deposits), the execution answer and the spec's error bodies and codes.
 */
import type { OrderType, Side } from '../../core/venue-rules/index.js';
import type { Balances, SimMarket, SimOrder, StpPolicy } from './types-views.js';

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
  | 'DUPLICATE_MARKET'
  | 'REDEEM_NOT_ALLOWED'
  | 'PAYOUT_NOT_POSTED'
  | 'NOTHING_TO_REDEEM'
  | 'INSUFFICIENT_COLLATERAL'
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

/** A strike market listed at run time (listing.ts); the field names are the admin route's (`POST /_sim/markets`). */
export interface ListStrikeMarketInput {
  /** One of the crypto world's tickers (BTC, ETH, …). */
  readonly ticker: string;
  /** The settlement instant, ms since epoch: a whole minute in the future (its expiration). */
  readonly settlesAt: number;
  /** USD as a decimal string with at most the ticker's decimals; absent: at the money (the published spot). */
  readonly strike?: string;
}
export type ListStrikeMarketOutcome = { readonly ok: true; readonly market: SimMarket } | EngineFailure;

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

/** A complete-set merge (`mergePositions`): the sets burned and the USDC paid (1 per set). */
export type MergeOutcome =
  | {
      readonly ok: true;
      readonly conditionId: string;
      readonly marketSlug: string;
      readonly usdcRaw: number;
      readonly yesBurnedRaw: number;
      readonly noBurnedRaw: number;
    }
  | EngineFailure;

/** A split (`splitPosition`): the USDC put in and the sets minted (1 per USDC). */
export type SplitOutcome =
  | { readonly ok: true; readonly conditionId: string; readonly marketSlug: string; readonly usdcRaw: number; readonly yesMintedRaw: number; readonly noMintedRaw: number }
  | EngineFailure;

export type FairValueOutcome = { readonly ok: true; readonly fairValueTicks: number } | EngineFailure;

export interface DepositInput {
  readonly usdcRaw?: number;
  readonly tokens?: Readonly<Record<string, number>>;
}
export type DepositOutcome = { readonly ok: true; readonly balances: Balances } | EngineFailure;
