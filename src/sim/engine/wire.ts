/**
 * Wire-ready shapes the engine hands to the server: UserOrder (exchange-api.md), OME frames
 * (exchange-facts §5) and the public MarketTrade. Raw amounts are integer decimal strings, prices are
 * decimal strings as the venue prints them ("0.55"), times ISO-8601 (orders, trades, OME frames). OME frames follow
 * the official client's OmeOrderEvent: `userId`, `price` a number, `remainingSize` a raw integer number.
 */
import { RAW_PER_UNIT, rawToDecimal, ticksToPrice } from '../../core/venue-rules/index.js';
import type { CancelReason, ExecutionFrameStatus, ExecutionTotals, OmeEventType, OmeFrame, Side, SimOrder, UserOrder } from './types.js';

/** The official client's ExecutionTotalsRaw of a taker execution (fees in USDC; none in contracts). */
export function executionTotals(side: Side, contractsRaw: number, collateralRaw: number, feeRaw: number): ExecutionTotals {
  const net = side === 'BUY' ? collateralRaw + feeRaw : collateralRaw - feeRaw;
  return {
    contractsGross: String(contractsRaw),
    contractsFee: '0',
    contractsNet: String(contractsRaw),
    usdGross: String(collateralRaw),
    usdFee: String(feeRaw),
    usdNet: String(net),
  };
}

/** The last time formatted (many frames of one step share their millisecond): formatting took 2 % of a backtest. */
let lastIsoMs = Number.NaN;
let lastIso = '';

/** `ms` as an ISO-8601 UTC string (Date#toISOString; a time out of its range throws its RangeError, cached never). */
export function isoTime(ms: number): string {
  if (ms !== lastIsoMs) {
    lastIso = new Date(ms).toISOString();
    lastIsoMs = ms;
  }
  return lastIso;
}

/** collateral / size as a decimal price string with at most 6 places (half-up); "0" when size is 0. */
export function averagePrice(collateralRaw: number, sizeRaw: number): string {
  if (sizeRaw <= 0) return '0';
  const scale = BigInt(RAW_PER_UNIT);
  const micro = (BigInt(collateralRaw) * scale * 2n + BigInt(sizeRaw)) / (2n * BigInt(sizeRaw));
  return rawToDecimal(Number(micro));
}

/** An order's price for the wire: its limit, or for FOK (no limit) its average fill price. */
export function orderPrice(order: SimOrder): string {
  return order.priceTicks !== null ? ticksToPrice(order.priceTicks) : averagePrice(order.filledCollateralRaw, order.filledSizeRaw);
}

export function toUserOrder(order: SimOrder): UserOrder {
  const base = {
    id: order.id,
    ownerId: order.profileId,
    marketId: String(order.marketId),
    token: order.tokenId,
    type: order.type,
    status: order.status,
    side: order.side,
    makerAmount: String(order.makerAmount),
    takerAmount: String(order.takerAmount),
    price: orderPrice(order),
    originalSize: String(order.originalSizeRaw),
    remainingSize: String(order.remainingSizeRaw),
    createdAt: isoTime(order.createdAtMs),
  };
  return order.clientOrderId !== null ? { ...base, clientOrderId: order.clientOrderId } : base;
}

export interface OmeExtras {
  readonly status?: ExecutionFrameStatus;
  readonly reason?: CancelReason;
  readonly matchedSizeRaw?: number;
}

export function omeFrame(type: OmeEventType, eventId: number, order: SimOrder, nowMs: number, extras: OmeExtras = {}): OmeFrame {
  return {
    source: 'OME',
    type,
    eventId,
    orderId: order.id,
    ...(order.clientOrderId !== null ? { clientOrderId: order.clientOrderId } : {}),
    marketId: String(order.marketId),
    marketSlug: order.marketSlug,
    token: order.tokenId,
    side: order.side,
    userId: order.profileId,
    price: Number(orderPrice(order)),
    remainingSize: order.remainingSizeRaw,
    ...(extras.matchedSizeRaw !== undefined ? { matchedSize: String(extras.matchedSizeRaw) } : {}),
    ...(extras.status !== undefined ? { status: extras.status } : {}),
    ...(extras.reason !== undefined ? { reason: extras.reason } : {}),
    timestamp: isoTime(nowMs),
  };
}
