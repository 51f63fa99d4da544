/**
 * Placement answers kept for `POST /orders/status/batch` (exchange-facts §6: `data: {order, makerMatches,
 * execution}`), with the execution's `settlementStatus` kept current from SETTLEMENT frames.
 *
 * Owns: a bounded map orderId → {makerMatches, execution}. Invariants: insertion order eviction once
 * `capacity` is reached; an order whose answer was evicted (or that was never placed through this server)
 * gets an execution derived from the engine's order (`matched` and totals), never an invented match.
 */
import type { Execution, MakerMatch, SettlementFrame, SimOrder } from '../engine/index.js';
import { executionTotals } from '../engine/wire.js';

export interface StoredPlacement {
  readonly makerMatches: readonly MakerMatch[];
  execution: Execution;
}

export class PlacementStore {
  private readonly byOrderId = new Map<string, StoredPlacement>();

  constructor(private readonly capacity = 100_000) {}

  remember(orderId: string, makerMatches: readonly MakerMatch[], execution: Execution): void {
    if (this.byOrderId.size >= this.capacity) {
      const oldest = this.byOrderId.keys().next();
      if (!oldest.done) this.byOrderId.delete(oldest.value);
    }
    this.byOrderId.set(orderId, { makerMatches, execution });
  }

  /** Applies a SETTLEMENT frame's status to the taker order it describes. */
  onSettlement(frame: SettlementFrame): void {
    if (frame.orderId === undefined) return;
    const stored = this.byOrderId.get(frame.orderId);
    if (stored && stored.execution.tradeEventId === frame.tradeEventId) {
      stored.execution = { ...stored.execution, settlementStatus: frame.type };
    }
  }

  get(orderId: string): StoredPlacement | undefined {
    return this.byOrderId.get(orderId);
  }

  /** The stored answer, or one derived from the order's state. */
  placementOf(order: SimOrder): StoredPlacement {
    return this.get(order.id) ?? { makerMatches: [], execution: derivedExecution(order) };
  }
}

function derivedExecution(order: SimOrder): Execution {
  const matched = order.filledSizeRaw > 0;
  return {
    matched,
    settlementStatus: matched ? 'MATCHED' : 'UNMATCHED',
    ...(order.clientOrderId === null ? {} : { clientOrderId: order.clientOrderId }),
    feeRateBps: order.feeRateBps,
    effectiveFeeBps: order.filledCollateralRaw > 0 ? Math.round((order.feePaidRaw * 10_000) / order.filledCollateralRaw) : 0,
    totalsRaw: executionTotals(order.side, order.filledSizeRaw, order.filledCollateralRaw, order.feePaidRaw),
  };
}
