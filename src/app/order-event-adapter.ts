/**
 * Socket order frames (src/exchange/socket-wire.ts) → the executor's order events (src/orders/order-events.ts).
 *
 * Owns: which part of a settlement frame is this account's. A SETTLEMENT frame describes the trade from the
 * taker's side and goes to every account in it: the taker finds itself by `orderId`/`clientOrderId`, each maker in
 * `makerMatches` by its account address. Invariant: one input frame yields at most one event, and a fill is
 * attributed only to an order of this account.
 */
import type { OrderEvent } from '../exchange/socket-wire.js';
import { TICKS_PER_UNIT } from '../core/units.js';
import type { OrderEventInput, SettlementFillInput } from '../orders/order-events.js';

export interface OrderEventAdapterOptions {
  /** This account's wallet address (any case). */
  readonly account: string;
  /** Is this venue order id or client order id one of ours? */
  readonly isOwnOrder: (ids: { orderId?: string | undefined; clientOrderId?: string | undefined }) => boolean;
  /** Called when a taker fill's average price is off the tick grid and had to be rounded (logged and counted). */
  readonly onInexactPrice?: (tradeEventId: string, priceMicros: number) => void;
  readonly now: () => number;
}

export function toOrderEventInput(frame: OrderEvent, options: OrderEventAdapterOptions): OrderEventInput | null {
  const atMs = frame.timestampMs ?? options.now();
  if (frame.source === 'OME') {
    return {
      source: 'OME',
      type: frame.type,
      eventId: frame.eventId,
      orderId: frame.orderId,
      clientOrderId: frame.clientOrderId,
      remainingRaw: frame.remainingRaw,
      status: frame.status,
      reason: frame.reason,
      atMs,
    };
  }
  const fills: SettlementFillInput[] = [];
  const account = options.account.toLowerCase();
  if ((frame.orderId !== undefined || frame.clientOrderId !== undefined) && options.isOwnOrder({ orderId: frame.orderId, clientOrderId: frame.clientOrderId })) {
    let priceTicks = frame.priceTicks;
    if (priceTicks === null) {
      // An average over several maker prices: rounded to the nearest tick for the order state; the exact
      // collateral is in the frame and in the venue's records (reconciliation repairs any residue).
      priceTicks = Math.min(TICKS_PER_UNIT - 1, Math.max(1, Math.round(frame.priceMicros / 1000)));
      options.onInexactPrice?.(frame.tradeEventId, frame.priceMicros);
    }
    fills.push({ orderId: frame.orderId, clientOrderId: frame.clientOrderId, role: 'taker', sizeRaw: frame.amountContractsRaw, priceTicks });
  }
  for (const match of frame.makerMatches) {
    if (match.account.toLowerCase() !== account) continue;
    fills.push({ orderId: match.orderId, role: 'maker', sizeRaw: match.matchedSizeRaw, priceTicks: match.priceTicks });
  }
  if (fills.length === 0) return null;
  return { source: 'SETTLEMENT', type: frame.type, eventId: frame.eventId, tradeEventId: frame.tradeEventId, fills, atMs };
}
