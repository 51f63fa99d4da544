/**
 * The order recorder: every change of a tracked order (the executor's `onOrderChange`) → the ledger's order row.
 *
 * Owns: the mapping of `TrackedOrder` to ledger order rows. Invariants: a new order is recorded once; an order
 * adopted after a restart that the ledger already holds (with details the venue's listing does not carry: postOnly,
 * order type) is brought up to date instead of recorded anew (which would be a conflict); nothing is written once
 * `close()` ran.
 */
import type { LedgerStore } from '../ledger/index.js';
import type { TrackedOrder } from '../orders/order-record.js';

export type OrderLedger = Pick<LedgerStore, 'getOrder' | 'recordOrder' | 'updateOrder'>;

export class OrderRecorder {
  private closed = false;

  constructor(private readonly ledger: OrderLedger) {}

  record(order: TrackedOrder, previous: TrackedOrder | null): void {
    if (this.closed) return;
    const ledger = this.ledger;
    const adoptedKnown = previous === null && ledger.getOrder({ clientOrderId: order.clientOrderId }) !== null;
    if (previous === null && !adoptedKnown) {
      ledger.recordOrder({
        clientOrderId: order.clientOrderId,
        ...(order.orderId === null ? {} : { venueOrderId: order.orderId }),
        marketSlug: order.marketSlug,
        slot: order.slot,
        token: order.token,
        tokenId: order.tokenId,
        side: order.side,
        orderType: order.orderType,
        postOnly: order.postOnly,
        priceTicks: order.priceTicks,
        sizeRaw: order.sizeRaw,
        remainingRaw: order.remainingRaw,
        status: order.state,
        atMs: order.createdAtMs,
      });
      return;
    }
    ledger.updateOrder(
      { clientOrderId: order.clientOrderId },
      { status: order.state, remainingRaw: order.remainingRaw, ...(order.orderId === null ? {} : { venueOrderId: order.orderId }), atMs: order.updatedAtMs },
    );
  }

  /** Nothing reaches the ledger after this (the ledger is about to close). */
  close(): void {
    this.closed = true;
  }
}
