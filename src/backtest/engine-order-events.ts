/**
 * The simulator engine's typed order events (OME and SETTLEMENT, src/sim/engine/types-frames.ts) → the feed's
 * order events (src/core/venue-rules/order-events.ts), which the bot's order-event adapter reads. The backtest takes
 * the engine's events directly instead of serialising them and running them back through the socket parser.
 *
 * Owns: the conversion, which yields what the socket parser yields for the same frame (with raw amounts): prices
 * exact in micro-units with ticks when on the grid, amounts as raw integers, times in ms, the trade's id, the
 * taker fee picked as the parser picks it (`pickFee`).
 * Invariants: pure; a value the venue rules reject (an amount that is not a raw integer, a price off (0, 1)) is a
 * failure naming the field and the value, never a throw and never a guess.
 */
import {
  averagePriceMicros,
  parseScaled,
  pickFee,
  priceToTicks,
  ticksIfOnGrid,
  UnitError,
  type OmeOrderEvent,
  type OrderEvent,
  type SettlementOrderEvent,
} from '../core/venue-rules/index.js';
import type { OmeFrame, OrderEventFrame, SettlementFrame } from '../sim/engine/index.js';

export type ConvertedOrderEvent = { readonly ok: true; readonly event: OrderEvent } | { readonly ok: false; readonly reason: string };

export function orderEventOf(frame: OrderEventFrame): ConvertedOrderEvent {
  try {
    return { ok: true, event: frame.source === 'OME' ? omeEventOf(frame) : settlementEventOf(frame) };
  } catch (error) {
    if (error instanceof UnitError) return { ok: false, reason: error.message };
    throw error;
  }
}

function rawAmount(field: string, value: string | number): number {
  return parseScaled(field, value, 0);
}

function timeMs(field: string, iso: string): number {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms) || ms < 0) throw new UnitError(field, iso, 'not an ISO-8601 date');
  return Math.trunc(ms);
}

function omeEventOf(f: OmeFrame): OmeOrderEvent {
  const priceMicros = averagePriceMicros('price', f.price);
  return {
    source: 'OME',
    type: f.type,
    eventId: String(f.eventId),
    orderId: f.orderId,
    ...(f.clientOrderId === undefined ? {} : { clientOrderId: f.clientOrderId }),
    marketId: f.marketId,
    token: f.token,
    side: f.side,
    priceTicks: ticksIfOnGrid(priceMicros),
    priceMicros,
    remainingRaw: rawAmount('remainingSize', f.remainingSize),
    ...(f.matchedSize === undefined ? {} : { matchedRaw: rawAmount('matchedSize', f.matchedSize) }),
    ...(f.marketSlug === '' ? {} : { marketSlug: f.marketSlug }),
    ...(f.status === undefined ? {} : { status: f.status }),
    ...(f.reason === undefined ? {} : { reason: f.reason }),
    timestampMs: timeMs('timestamp', f.timestamp),
  };
}

function settlementEventOf(f: SettlementFrame): SettlementOrderEvent {
  const priceMicros = averagePriceMicros('price', f.price);
  const fee = pickFee(f.side, rawAmount('feeAmountContracts', f.feeAmountContracts), rawAmount('feeAmountCollateral', f.feeAmountCollateral));
  return {
    source: 'SETTLEMENT',
    type: f.type,
    eventId: f.eventId,
    tradeEventId: f.tradeEventId,
    ...(f.orderId === undefined ? {} : { orderId: f.orderId }),
    takerOrderId: f.takerOrderId,
    ...(f.takerAccount === '' ? {} : { takerAccount: f.takerAccount }),
    ...(f.clientOrderId === undefined ? {} : { clientOrderId: f.clientOrderId }),
    makerMatches: f.makerMatches.map((m, i) => ({
      account: m.account,
      orderId: m.orderId,
      matchedSizeRaw: rawAmount(`makerMatches[${i}].matchedSize`, m.matchedSize),
      priceTicks: priceToTicks(`makerMatches[${i}].price`, m.price),
    })),
    marketSlug: f.marketSlug,
    tokenId: f.tokenId,
    token: f.token,
    side: f.side,
    priceMicros,
    priceTicks: ticksIfOnGrid(priceMicros),
    amountContractsRaw: rawAmount('amountContracts', f.amountContracts),
    amountCollateralRaw: rawAmount('amountCollateral', f.amountCollateral),
    ...(fee === null ? {} : { feeRaw: fee.raw, feeUnit: fee.unit }),
    effectiveFeeBps: f.effectiveFeeBps,
    isEstimate: f.isEstimate,
    ...(f.txHash === undefined || f.txHash === '' ? {} : { txHash: f.txHash }),
    timestampMs: Math.trunc(f.timestamp),
  };
}
