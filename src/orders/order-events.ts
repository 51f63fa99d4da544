/**
 * Order events from the socket, in the order manager's own typed form, and their deduplication.
 *
 * Owns: `OrderEventInput` (what the socket adapter must hand over: already validated, ticks and raw sizes),
 * the dedupe key of an event, and `BoundedDedupe` (remembers the last N keys).
 *
 * Invariants:
 * - OME frames are unique by eventId; SETTLEMENT frames share `settlement:<tradeEventId>` across MATCHED,
 *   MINED and FAILED, so their key is eventId + type (dedupe by eventId alone would drop the MINED update);
 * - dedupe memory is bounded: the oldest key is forgotten first. A repeat older than the memory is still
 *   harmless: fills are deduplicated per order by tradeEventId, and remaining sizes only go down.
 */
import { describeValue } from '../core/venue-rules/index.js';

export type OmeEventType = 'PLACEMENT' | 'UPDATE' | 'CANCELLATION' | 'EXECUTION';
export type ExecutionStatus = 'FILLED' | 'PARTIALLY_FILLED' | 'KILLED';
export type SettlementEventType = 'MATCHED' | 'MINED' | 'FAILED';

/** A matching-engine frame about one of the account's orders. */
export interface OmeEventInput {
  readonly source: 'OME';
  readonly type: OmeEventType;
  readonly eventId: string;
  readonly orderId: string;
  readonly clientOrderId?: string | null | undefined;
  /** Unfilled size after this event, raw. */
  readonly remainingRaw: number;
  /** On EXECUTION: FILLED, PARTIALLY_FILLED or KILLED. */
  readonly status?: ExecutionStatus | null | undefined;
  /** e.g. STP_MAKER_CANCELLED on a CANCELLATION. */
  readonly reason?: string | null | undefined;
  readonly atMs: number;
}

/** One of the account's orders in a settled trade: the taker order, or a maker match. */
export interface SettlementFillInput {
  readonly orderId?: string | null | undefined;
  readonly clientOrderId?: string | null | undefined;
  readonly role: 'taker' | 'maker';
  readonly sizeRaw: number;
  readonly priceTicks: number;
}

/** A settlement frame, reduced to the account's own orders in the trade. */
export interface SettlementEventInput {
  readonly source: 'SETTLEMENT';
  readonly type: SettlementEventType;
  readonly eventId: string;
  readonly tradeEventId: string;
  readonly fills: readonly SettlementFillInput[];
  readonly atMs: number;
}

export type OrderEventInput = OmeEventInput | SettlementEventInput;

export class OrderEventError extends Error {
  override readonly name = 'OrderEventError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`order event ${field}: ${reason} (got ${describeValue(value)})`);
  }
}

export function eventKey(event: OrderEventInput): string {
  return event.source === 'OME' ? `OME:${event.eventId}` : `SETTLEMENT:${event.type}:${event.eventId}`;
}

const isRaw = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
const isTicks = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= 999;

/** Null when the event is usable, else a typed error naming the bad field (the event is then dropped). */
export function validateOrderEvent(event: OrderEventInput): OrderEventError | null {
  if (typeof event.eventId !== 'string' || event.eventId.length === 0) return new OrderEventError('eventId', event.eventId, 'empty');
  if (!Number.isFinite(event.atMs)) return new OrderEventError('atMs', event.atMs, 'not a finite time');
  if (event.source === 'OME') {
    if (event.orderId.length === 0) return new OrderEventError('orderId', event.orderId, 'empty');
    if (!isRaw(event.remainingRaw)) return new OrderEventError('remainingRaw', event.remainingRaw, 'not a non-negative raw integer');
    return null;
  }
  if (event.tradeEventId.length === 0) return new OrderEventError('tradeEventId', event.tradeEventId, 'empty');
  for (const [i, fill] of event.fills.entries()) {
    if (!fill.orderId && !fill.clientOrderId) return new OrderEventError(`fills[${i}]`, fill.orderId, 'neither orderId nor clientOrderId');
    if (!isRaw(fill.sizeRaw) || fill.sizeRaw === 0) return new OrderEventError(`fills[${i}].sizeRaw`, fill.sizeRaw, 'not a positive raw integer');
    if (!isTicks(fill.priceTicks)) return new OrderEventError(`fills[${i}].priceTicks`, fill.priceTicks, 'not a tick in [1, 999]');
  }
  return null;
}

/** Remembers the last `capacity` keys; `seen(key)` answers whether it was already there, and records it. */
export class BoundedDedupe {
  private readonly keys = new Set<string>();

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new OrderEventError('dedupeCapacity', capacity, 'must be a positive integer');
  }

  seen(key: string): boolean {
    if (this.keys.has(key)) return true;
    this.keys.add(key);
    if (this.keys.size > this.capacity) {
      const oldest = this.keys.values().next();
      if (oldest.done !== true) this.keys.delete(oldest.value);
    }
    return false;
  }

  get size(): number {
    return this.keys.size;
  }
}
