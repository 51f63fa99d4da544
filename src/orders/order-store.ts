/**
 * The in-memory table of tracked orders, indexed by clientOrderId, venue orderId and market.
 *
 * Owns: lookup and indexing only. It is written by the executor alone (the only writer of order state); every
 * other module reads snapshots through the executor.
 *
 * Invariants: the open index holds exactly the stored orders whose state is open (records are immutable: a state
 * changes only through `put`); an orderId maps to at most one clientOrderId and is never re-pointed; terminal orders are kept
 * for `retainTerminalMs` after their last change (late fills still find them), then pruned; a market dropped
 * (src/orders/market-membership.ts, once every order of it is terminal and old enough) leaves no entry behind; `locks`
 * (src/orders/open-order-locks.ts) is updated by every `put` and drop, so it always equals the open orders' locks.
 */
import { isOpen } from './order-state.js';
import type { TrackedOrder } from './order-record.js';
import { getOrInsert } from '../core/maps.js';
import { OpenOrderLocks, type OpenOrderLocksView } from './open-order-locks.js';

export class OrderStore {
  private readonly byClientOrderId = new Map<string, TrackedOrder>();
  private readonly clientOrderIdByOrderId = new Map<string, string>();
  private readonly byMarket = new Map<string, Set<string>>();
  /** The open (non-terminal) orders' clientOrderIds, all and per market, in insertion order (the quote path reads them every cycle). */
  private readonly openIds = new Set<string>();
  private readonly openByMarket = new Map<string, Set<string>>();
  private readonly openLocks = new OpenOrderLocks();

  /** What the open orders lock (collateral of BUYs, tokens of SELLs), kept with every change. */
  get locks(): OpenOrderLocksView {
    return this.openLocks;
  }

  get(clientOrderId: string): TrackedOrder | undefined {
    return this.byClientOrderId.get(clientOrderId);
  }

  getByOrderId(orderId: string): TrackedOrder | undefined {
    const clientOrderId = this.clientOrderIdByOrderId.get(orderId);
    return clientOrderId === undefined ? undefined : this.byClientOrderId.get(clientOrderId);
  }

  /** Finds by venue id first, then by clientOrderId. */
  find(orderId: string | null | undefined, clientOrderId: string | null | undefined): TrackedOrder | undefined {
    const byId = orderId ? this.getByOrderId(orderId) : undefined;
    if (byId !== undefined) return byId;
    return clientOrderId ? this.byClientOrderId.get(clientOrderId) : undefined;
  }

  /** Inserts or replaces. Returns true when the order gained a venue id it did not have indexed before. */
  put(order: TrackedOrder): boolean {
    const previous = this.byClientOrderId.get(order.clientOrderId);
    if (previous !== undefined && previous.marketSlug !== order.marketSlug) this.forgetOpen(previous);
    this.openLocks.change(previous, order);
    this.byClientOrderId.set(order.clientOrderId, order);
    getOrInsert(this.byMarket, order.marketSlug, () => new Set<string>()).add(order.clientOrderId);
    if (isOpen(order.state)) {
      this.openIds.add(order.clientOrderId);
      getOrInsert(this.openByMarket, order.marketSlug, () => new Set<string>()).add(order.clientOrderId);
    } else this.forgetOpen(order);
    if (order.orderId !== null && !this.clientOrderIdByOrderId.has(order.orderId)) {
      this.clientOrderIdByOrderId.set(order.orderId, order.clientOrderId);
      return true;
    }
    return false;
  }

  inMarket(marketSlug: string): TrackedOrder[] {
    const ids = this.byMarket.get(marketSlug);
    if (ids === undefined) return [];
    const result: TrackedOrder[] = [];
    for (const id of ids) {
      const order = this.byClientOrderId.get(id);
      if (order !== undefined) result.push(order);
    }
    return result;
  }

  openInMarket(marketSlug: string): TrackedOrder[] {
    return this.ordersOf(this.openByMarket.get(marketSlug));
  }

  /** Every open order, in the order they were first stored. */
  open(): TrackedOrder[] {
    return this.ordersOf(this.openIds);
  }

  all(): TrackedOrder[] {
    return [...this.byClientOrderId.values()];
  }

  private ordersOf(ids: ReadonlySet<string> | undefined): TrackedOrder[] {
    const result: TrackedOrder[] = [];
    for (const id of ids ?? []) {
      const order = this.byClientOrderId.get(id);
      if (order !== undefined) result.push(order);
    }
    return result;
  }

  private forgetOpen(order: TrackedOrder): void {
    this.openIds.delete(order.clientOrderId);
    const market = this.openByMarket.get(order.marketSlug);
    if (market === undefined) return;
    market.delete(order.clientOrderId);
    if (market.size === 0) this.openByMarket.delete(order.marketSlug);
  }

  /** Forgets every order of a market and its index (the market was dropped). Returns how many were forgotten. */
  dropMarket(marketSlug: string): number {
    const ids = this.byMarket.get(marketSlug);
    if (ids === undefined) return 0;
    for (const id of ids) {
      const order = this.byClientOrderId.get(id);
      this.openLocks.change(order, undefined);
      this.byClientOrderId.delete(id);
      this.openIds.delete(id);
      if (order?.orderId != null && this.clientOrderIdByOrderId.get(order.orderId) === id) this.clientOrderIdByOrderId.delete(order.orderId);
    }
    this.byMarket.delete(marketSlug);
    this.openByMarket.delete(marketSlug);
    return ids.size;
  }

  /** Sizes of the indexes (memory checks): orders, linked venue ids, markets with an index. */
  counts(): { readonly orders: number; readonly orderIds: number; readonly markets: number } {
    return { orders: this.byClientOrderId.size, orderIds: this.clientOrderIdByOrderId.size, markets: this.byMarket.size };
  }

  /** Drops terminal orders unchanged since `olderThanMs`. Returns how many were dropped. */
  pruneTerminal(marketSlug: string, olderThanMs: number): number {
    let dropped = 0;
    for (const order of this.inMarket(marketSlug)) {
      if (isOpen(order.state) || order.updatedAtMs >= olderThanMs) continue;
      this.byClientOrderId.delete(order.clientOrderId);
      this.byMarket.get(marketSlug)?.delete(order.clientOrderId);
      if (order.orderId !== null) this.clientOrderIdByOrderId.delete(order.orderId);
      dropped += 1;
    }
    return dropped;
  }
}
