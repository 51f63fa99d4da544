/**
 * The order of cross-market cancel-replace requests, the pure part: how urgent a market's batch of operations is, and
 * which of the waiting batches the next request carries (src/orders/cross-market-venue.ts applies it).
 *
 * Owns: `operationUrgency`, `batchUrgency` and `selectBatches`. Pure: no state, no I/O, no clock.
 *
 * Urgency of one operation: how far the slot's order is from its intent, in ticks (a placement into an empty slot
 * counts EMPTY_SLOT_TICKS; a replacement at the intent's own price — a size change, an order grown old — counts 1),
 * × its size in shares, × 4·p·(1 − p) for the intent's price p (1 at 0.50, 0.64 at 0.20, 0.36 at 0.10): a tick of
 * error costs most near the money, where fills are likeliest and a strike's fair value moves fastest with its
 * underlying. A batch's urgency is the sum of its operations'.
 *
 * Selection, for one request of at most `maxOperations` operations:
 * - batches an earlier request passed over go first, oldest first; then the others, most urgent first (ties: oldest
 *   first);
 * - a batch goes whole (it is one market's plan, answered together) and only if it still fits; a smaller one behind it
 *   may fill the room;
 * - a batch marked `alone` travels alone (a refused shared request is retried batch by batch);
 * - with `oneMarket` (the venue refused operations of several markets in one request), only batches of the first
 *   chosen batch's market.
 * Invariants: the output is the request's order; every batch that fits an empty request is chosen within a bounded
 * number of requests (one passed over leads the requests after, oldest first); deterministic for the same input.
 */
import { TICKS_PER_UNIT } from '../core/venue-rules/index.js';

/** A placement into an empty slot counts as this far off (the requote bench's penalty for an unquoted slot). */
export const EMPTY_SLOT_TICKS = 20;

const RAW_PER_SHARE = 1_000_000;

export interface OperationFacts {
  /** The price of the order the operation replaces; null: the slot is empty (a placement). */
  readonly fromPriceTicks: number | null;
  /** The intent's price. */
  readonly toPriceTicks: number;
  readonly sizeRaw: number;
}

/** Ticks off × shares × 4·p·(1 − p); ≥ 0, and 0 only for a size of 0. */
export function operationUrgency(op: OperationFacts): number {
  const ticks = op.fromPriceTicks === null ? EMPTY_SLOT_TICKS : Math.max(1, Math.abs(op.toPriceTicks - op.fromPriceTicks));
  const p = Math.min(1, Math.max(0, op.toPriceTicks / TICKS_PER_UNIT));
  return ticks * (Math.max(0, op.sizeRaw) / RAW_PER_SHARE) * 4 * p * (1 - p);
}

/** The sum of the operations' urgencies. */
export function batchUrgency(ops: readonly OperationFacts[]): number {
  return ops.reduce((sum, op) => sum + operationUrgency(op), 0);
}

/** A batch waiting for a request. */
export interface WaitingBatch {
  /** Arrival order (smaller: older); unique. */
  readonly key: number;
  readonly marketSlug: string;
  readonly operations: number;
  readonly urgency: number;
  /** An earlier request was taken without it. */
  readonly passedOver: boolean;
  /** It must travel in a request of its own. */
  readonly alone: boolean;
}

export interface Selection {
  /** Keys of the batches the request carries, in request order. */
  readonly chosen: readonly number[];
  /** Keys of the batches left waiting. */
  readonly left: readonly number[];
}

/** Which waiting batches one request of at most `maxOperations` operations carries (see the header). */
export function selectBatches(waiting: readonly WaitingBatch[], options: { readonly maxOperations: number; readonly oneMarket: boolean }): Selection {
  const ordered = [...waiting].sort((a, b) => {
    if (a.passedOver !== b.passedOver) return a.passedOver ? -1 : 1;
    if (!a.passedOver && b.urgency !== a.urgency) return b.urgency - a.urgency;
    return a.key - b.key;
  });
  const chosen: number[] = [];
  let room = Math.max(1, Math.floor(options.maxOperations));
  let market: string | null = null;
  let closed = false;
  for (const batch of ordered) {
    if (closed) break;
    const first = chosen.length === 0;
    // The first batch goes even when it alone exceeds the room (the port refuses it, rather than it waiting forever).
    if (!first && (batch.alone || (options.oneMarket && batch.marketSlug !== market) || batch.operations > room)) continue;
    chosen.push(batch.key);
    room -= batch.operations;
    market ??= batch.marketSlug;
    closed = batch.alone;
  }
  const taken = new Set(chosen);
  return { chosen, left: ordered.filter((b) => !taken.has(b.key)).map((b) => b.key) };
}
