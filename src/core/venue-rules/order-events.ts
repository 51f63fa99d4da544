/**
 * The feed's order events in their typed, venue-neutral form (exchange-facts §5): integer price ticks or exact
 * micro-unit average prices, raw (1e6) integer amounts, string ids, ms timestamps. The socket's frame parser
 * (src/exchange/socket-wire.ts) produces them from wire frames; the backtest builds them from the simulator engine's
 * typed events (src/backtest/engine-order-events.ts); the order-event adapter (src/venue/order-event-adapter.ts) reads
 * them. They live here, below both the wire layer and the backtest, so the backtest needs nothing of src/exchange/.
 *
 * Owns: these shapes, and which fee field of a settlement is the taker's fee (`pickFee`). Pure: no parsing here.
 */
import type { Side } from './units.js';

export type OmeEventType = 'PLACEMENT' | 'UPDATE' | 'CANCELLATION' | 'EXECUTION';
export type ExecutionStatus = 'FILLED' | 'PARTIALLY_FILLED' | 'KILLED';

/** Matching-engine order lifecycle event (source OME). */
export interface OmeOrderEvent {
  readonly source: 'OME';
  readonly type: OmeEventType;
  /** Dedupe key. Monotonic numbers on lifecycle frames (kept as text), `terminal:<id>` on some executions. */
  readonly eventId: string;
  readonly orderId: string;
  readonly clientOrderId?: string;
  readonly marketId: string;
  /** Position token id of the order. */
  readonly token: string;
  readonly side: Side;
  /** Price in ticks when on the tick grid (a limit order's price); null when absent, 0 or an off-grid average. */
  readonly priceTicks: number | null;
  /** The price as sent, exact in micro-units (price × 1e6); null when absent. FOK: the average fill price. */
  readonly priceMicros: number | null;
  /** Unfilled size, raw (see `AmountUnit`). */
  readonly remainingRaw: number;
  /** Size matched by the event that produced this frame (EXECUTION frames), raw, when sent. */
  readonly matchedRaw?: number;
  /** Market slug, when sent (the venue documents marketId only). */
  readonly marketSlug?: string;
  /** On EXECUTION frames. */
  readonly status?: ExecutionStatus;
  /** E.g. STP_MAKER_CANCELLED on a CANCELLATION. */
  readonly reason?: string;
  readonly timestampMs: number | null;
}

export type SettlementType = 'MATCHED' | 'MINED' | 'FAILED';

export interface SettlementMakerMatch {
  readonly account: string;
  readonly orderId: string;
  readonly matchedSizeRaw: number;
  readonly priceTicks: number;
}

export type FeeUnit = 'collateral' | 'contracts';

/**
 * Settlement lifecycle of one trade (source SETTLEMENT): MATCHED (provisional) then MINED or FAILED.
 * Only what identifies the frame is certain (the official client types every other field optional): a fill is
 * read from `makerMatches` (this account's maker orders) or from the taker's order and amounts; a frame with
 * neither is a bare status update of a trade (see src/venue/order-event-adapter.ts).
 */
export interface SettlementOrderEvent {
  readonly source: 'SETTLEMENT';
  readonly type: SettlementType;
  /** `settlement:<tradeEventId>` on the wire; dedupe key. */
  readonly eventId: string;
  /** Shared by the MATCHED and the terminal MINED/FAILED of one fill (`tradeEventId`, else from `eventId`). */
  readonly tradeEventId: string;
  /** `orderId` as sent: the taker's order, or (on some venues) the receiving account's own order. */
  readonly orderId?: string;
  /** The taker's order, when the venue names it explicitly (preferred over `orderId`). */
  readonly takerOrderId?: string;
  /** The taker's account address, when sent. */
  readonly takerAccount?: string;
  readonly clientOrderId?: string;
  readonly makerMatches: readonly SettlementMakerMatch[];
  readonly marketSlug?: string;
  /** Position token id of the taker's side. */
  readonly tokenId?: string;
  /** 'YES' | 'NO' label of the taker's token, when sent. */
  readonly token?: 'YES' | 'NO';
  readonly side?: Side;
  /** The trade price (the taker's weighted average over its makers), exact in micro-units (price × 1e6); null when absent. */
  readonly priceMicros: number | null;
  /** The same price in ticks when it lies on the tick grid, else null. */
  readonly priceTicks: number | null;
  readonly amountContractsRaw?: number;
  readonly amountCollateralRaw?: number;
  /** Taker fee: in contracts (feeAmountContracts, BUY fills) or collateral (feeAmountCollateral / feeAmount / fee). */
  readonly feeRaw?: number;
  readonly feeUnit?: FeeUnit;
  readonly effectiveFeeBps?: number;
  /** True on a provisional MATCHED (fee fields are estimates; a later FAILED can roll the fill back). */
  readonly isEstimate: boolean;
  readonly txHash?: string;
  readonly timestampMs: number | null;
}

export type OrderEvent = OmeOrderEvent | SettlementOrderEvent;

/**
 * BUY fills pay the fee in contracts, SELL fills in collateral; a lone field is taken as sent; both without a side:
 * the non-zero one, collateral when both are.
 */
export function pickFee(s: Side | undefined, contracts: number | undefined, collateral: number | undefined): { raw: number; unit: FeeUnit } | null {
  if (contracts !== undefined && collateral !== undefined) {
    if (s === undefined) return collateral === 0 && contracts > 0 ? { raw: contracts, unit: 'contracts' } : { raw: collateral, unit: 'collateral' };
    return s === 'BUY' ? { raw: contracts, unit: 'contracts' } : { raw: collateral, unit: 'collateral' };
  }
  if (contracts !== undefined) return { raw: contracts, unit: 'contracts' };
  if (collateral !== undefined) return { raw: collateral, unit: 'collateral' };
  return null;
}
