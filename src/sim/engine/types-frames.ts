/**
 * Engine types, part 4 (see types.ts): the socket frames the engine emits (OME, SETTLEMENT, marketCreated,
 * marketResolved), its
 * listener and observer-free stats.
 */
import type { Outcome, Side } from '../../core/venue-rules/index.js';
import type { CancelReason } from './types-views.js';

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

/** `marketCreated` (the official client's MarketCreatedEvent): a market listed while the engine runs. */
export interface MarketCreatedFrame {
  readonly slug: string;
  readonly title: string;
  /** The simulator lists order-book markets only. */
  readonly type: 'CLOB';
  readonly groupSlug?: string;
  readonly categoryIds: readonly number[];
  /** ISO-8601, as the market object's `createdAt`. */
  readonly createdAt: string;
}

/** `marketResolved` (the official client's MarketResolvedEvent, plus `payoutNumerators` for a split). */
export interface MarketResolvedFrame {
  readonly slug: string;
  readonly type: 'CLOB';
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
  /** A market was listed after the engine was built (a recurring successor, or `listStrikeMarket`). */
  marketCreated?(frame: MarketCreatedFrame): void;
  /** Market expired or resolved, or the payout was posted. */
  marketStatusChanged?(slug: string): void;
  /** A market was listed while the engine runs (the crypto world's next ladder opening as one settles). */
  marketListed?(slug: string): void;
  tradeMined?(slug: string): void;
}

export interface EngineStats {
  readonly restingOrders: number;
  readonly tradesMatched: number;
  readonly tradesMined: number;
  readonly feesCollectedRaw: number;
  readonly ordersPlaced: number;
}
