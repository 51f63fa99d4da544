/**
 * Holds order-event parts that name an order the bot cannot match yet (an orderId not linked to a
 * clientOrderId, typically a frame that overtook the placement answer), until the order is linked or the
 * part expires.
 *
 * Invariants: bounded by `capacity` keys (the oldest key is evicted first) and by `ttlMs` per key; parts come
 * out in arrival order; `take` removes what it returns.
 */
import type { OmeEventInput, SettlementEventInput, SettlementFillInput } from './order-events.js';

export type OrphanPart =
  | { readonly kind: 'ome'; readonly event: OmeEventInput }
  | { readonly kind: 'settlement'; readonly event: SettlementEventInput; readonly fill: SettlementFillInput };

interface Entry {
  readonly firstAtMs: number;
  readonly parts: OrphanPart[];
}

export class OrphanEvents {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly capacity: number,
    readonly ttlMs: number,
  ) {}

  /** Adds a part under `key`; returns the parts evicted or expired to make room (for counting). */
  add(key: string, part: OrphanPart, nowMs: number): OrphanPart[] {
    const dropped = this.expire(nowMs);
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      entry.parts.push(part);
      return dropped;
    }
    this.entries.set(key, { firstAtMs: nowMs, parts: [part] });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      dropped.push(...(this.entries.get(oldest.value)?.parts ?? []));
      this.entries.delete(oldest.value);
    }
    return dropped;
  }

  take(key: string): OrphanPart[] {
    const entry = this.entries.get(key);
    if (entry === undefined) return [];
    this.entries.delete(key);
    return entry.parts;
  }

  /** Removes and returns parts older than the TTL. */
  expire(nowMs: number): OrphanPart[] {
    const dropped: OrphanPart[] = [];
    for (const [key, entry] of this.entries) {
      if (nowMs - entry.firstAtMs < this.ttlMs) continue;
      dropped.push(...entry.parts);
      this.entries.delete(key);
    }
    return dropped;
  }

  get size(): number {
    return this.entries.size;
  }
}
