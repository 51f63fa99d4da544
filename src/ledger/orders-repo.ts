/**
 * Orders as the order manager reported them: immutable terms (market, slot, token, side, price, size)
 * and the mutable status, remaining size and venue id.
 *
 * Invariants: re-recording an order with different terms is a LedgerConflictError and changes nothing
 * (re-recording the same order only fills in a venue id not yet known; status moves through updateOrder);
 * remaining size only ever decreases; a terminal status (filled, canceled, rejected) is never replaced by
 * a non-terminal one (a reordered, older update is 'stale'); the venue id, once known, never changes.
 *
 * Open orders read once stay in memory (`openByClientId`, `openByVenueId`): the executor's stream of updates for an
 * order (its venue id, its status, its fills) then costs one UPDATE each, not a SELECT and a row parse first
 * (issue 43: the ledger's reads on the path of the order events). The cache holds what SQLite holds: an entry is
 * replaced by the row each UPDATE writes, in the same transaction; a rollback empties it (`LedgerContext.onRollback`);
 * an order leaves it once terminal (a late update then reads SQLite); this repo is the only writer of the table.
 */
import { LedgerConflictError, LedgerInputError } from './errors.js';
import type { LedgerContext } from './context.js';
import { toOrder } from './rows.js';
import {
  TERMINAL_ORDER_STATUSES,
  type LedgerOrder,
  type LedgerOrderStatus,
  type OrderInput,
  type OrderRef,
  type OrderUpdate,
} from './types.js';
import { normaliseOrder, normaliseOrderRef, normaliseOrderUpdate } from './validate.js';

export type OrderRecordOutcome = 'inserted' | 'updated' | 'duplicate';
export type OrderUpdateOutcome = 'updated' | 'stale' | 'unknown';

const ORDER_COLUMNS = `client_order_id, venue_order_id, market_slug, slot, token, token_id, side, order_type,
  post_only, price_ticks, size_raw, remaining_raw, status, created_at_ms, updated_at_ms`;

export function isTerminal(status: LedgerOrderStatus): boolean {
  return TERMINAL_ORDER_STATUSES.includes(status);
}

export class OrdersRepo {
  /** Open orders as SQLite holds them, by client order id (see the header). */
  private readonly openByClientId = new Map<string, LedgerOrder>();
  /** The client order id of each cached order with a venue id. */
  private readonly openByVenueId = new Map<string, string>();
  private readonly insert;
  private readonly byClientId;
  private readonly byVenueId;
  private readonly update;
  private readonly open;
  private readonly active;

  constructor(private readonly ctx: LedgerContext) {
    ctx.onRollback(() => {
      this.openByClientId.clear();
      this.openByVenueId.clear();
    });
    const db = ctx.db;
    this.insert = db.prepare(
      `INSERT INTO orders (${ORDER_COLUMNS}) VALUES (@clientOrderId, @venueOrderId, @marketSlug, @slot, @token,
        @tokenId, @side, @orderType, @postOnly, @priceTicks, @sizeRaw, @remainingRaw, @status, @atMs, @atMs)`,
    );
    this.byClientId = db.prepare(`SELECT ${ORDER_COLUMNS} FROM orders WHERE client_order_id = ?`);
    this.byVenueId = db.prepare(`SELECT ${ORDER_COLUMNS} FROM orders WHERE venue_order_id = ?`);
    this.update = db.prepare(
      `UPDATE orders SET status = @status, remaining_raw = @remainingRaw, venue_order_id = @venueOrderId,
        updated_at_ms = @updatedAtMs WHERE client_order_id = @clientOrderId`,
    );
    this.open = db.prepare(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE status NOT IN ('filled', 'canceled', 'rejected')
        ORDER BY created_at_ms, client_order_id`,
    );
    this.active = db.prepare(
      `SELECT ${ORDER_COLUMNS} FROM orders
        WHERE updated_at_ms >= ? OR status NOT IN ('filled', 'canceled', 'rejected')
        ORDER BY created_at_ms, client_order_id`,
    );
  }

  record(input: OrderInput): OrderRecordOutcome {
    const order = normaliseOrder(input);
    return this.ctx.write('recordOrder', () => {
      const stored = this.find({ clientOrderId: order.clientOrderId });
      if (!stored) {
        if (order.venueOrderId !== null) this.assertVenueIdFree(order.venueOrderId, order.clientOrderId);
        this.insert.run({ ...order, postOnly: order.postOnly ? 1 : 0 });
        this.ctx.afterCommit(() => this.ctx.book.noteTokenId(order.marketSlug, order.token, order.tokenId, 'order'));
        return 'inserted';
      }
      const terms: ReadonlyArray<readonly [string, unknown, unknown]> = [
        ['marketSlug', stored.marketSlug, order.marketSlug],
        ['slot', stored.slot, order.slot],
        ['token', stored.token, order.token],
        ['tokenId', stored.tokenId, order.tokenId],
        ['side', stored.side, order.side],
        ['orderType', stored.orderType, order.orderType],
        ['postOnly', stored.postOnly, order.postOnly],
        ['priceTicks', stored.priceTicks, order.priceTicks],
        ['sizeRaw', stored.sizeRaw, order.sizeRaw],
      ];
      for (const [field, was, now] of terms) {
        if (was !== now) throw new LedgerConflictError(field, was, now, `order ${order.clientOrderId}`);
      }
      if (order.venueOrderId === null || order.venueOrderId === stored.venueOrderId) return 'duplicate';
      const change = { status: null, remainingRaw: null, venueOrderId: order.venueOrderId, atMs: order.atMs };
      return this.apply(stored, change) === 'updated' ? 'updated' : 'duplicate';
    });
  }

  updateOrder(ref: OrderRef, update: OrderUpdate): OrderUpdateOutcome {
    const key = normaliseOrderRef(ref);
    const change = normaliseOrderUpdate(update);
    return this.ctx.write('updateOrder', () => {
      const stored = key.column === 'client_order_id' ? this.find({ clientOrderId: key.id }) : this.find({ venueOrderId: key.id });
      return stored ? this.apply(stored, change) : 'unknown';
    });
  }

  find(ref: OrderRef): LedgerOrder | null {
    const clientOrderId = 'clientOrderId' in ref ? ref.clientOrderId : this.openByVenueId.get(ref.venueOrderId);
    const cached = clientOrderId === undefined ? undefined : this.openByClientId.get(clientOrderId);
    if (cached !== undefined) return cached;
    const row = 'clientOrderId' in ref ? this.byClientId.get(ref.clientOrderId) : this.byVenueId.get(ref.venueOrderId);
    if (row === undefined) return null;
    const order = toOrder(row);
    this.remember(order);
    return order;
  }

  /** Keeps an open order in memory; forgets a terminal one. */
  private remember(order: LedgerOrder): void {
    if (isTerminal(order.status)) {
      this.openByClientId.delete(order.clientOrderId);
      if (order.venueOrderId !== null) this.openByVenueId.delete(order.venueOrderId);
      return;
    }
    this.openByClientId.set(order.clientOrderId, order);
    if (order.venueOrderId !== null) this.openByVenueId.set(order.venueOrderId, order.clientOrderId);
  }

  /** Orders not in a terminal status, oldest first. */
  openOrders(): LedgerOrder[] {
    return this.open.all().map(toOrder);
  }

  /** Orders updated at or after `sinceMs`, plus every open order. */
  recentlyActive(sinceMs: number): LedgerOrder[] {
    return this.active.all(sinceMs).map(toOrder);
  }

  private apply(
    stored: LedgerOrder,
    change: { status: LedgerOrderStatus | null; remainingRaw: number | null; venueOrderId: string | null; atMs: number },
  ): OrderUpdateOutcome {
    if (change.remainingRaw !== null && change.remainingRaw > stored.sizeRaw) {
      throw new LedgerInputError('update.remainingRaw', change.remainingRaw, `exceeds the order's size ${stored.sizeRaw}`);
    }
    let venueOrderId = stored.venueOrderId;
    if (change.venueOrderId !== null && change.venueOrderId !== venueOrderId) {
      if (venueOrderId !== null) {
        throw new LedgerConflictError('venueOrderId', venueOrderId, change.venueOrderId, `order ${stored.clientOrderId}`);
      }
      this.assertVenueIdFree(change.venueOrderId, stored.clientOrderId);
      venueOrderId = change.venueOrderId;
    }
    let status = stored.status;
    if (change.status !== null && !(isTerminal(stored.status) && !isTerminal(change.status))) status = change.status;
    const remainingRaw = change.remainingRaw === null ? stored.remainingRaw : Math.min(stored.remainingRaw, change.remainingRaw);
    if (status === stored.status && remainingRaw === stored.remainingRaw && venueOrderId === stored.venueOrderId) {
      return 'stale';
    }
    const updatedAtMs = Math.max(stored.updatedAtMs, change.atMs);
    this.update.run({ clientOrderId: stored.clientOrderId, status, remainingRaw, venueOrderId, updatedAtMs });
    this.remember({ ...stored, status, remainingRaw, venueOrderId, updatedAtMs });
    return 'updated';
  }

  private assertVenueIdFree(venueOrderId: string, clientOrderId: string): void {
    const owner = this.find({ venueOrderId });
    if (owner && owner.clientOrderId !== clientOrderId) {
      throw new LedgerConflictError('venueOrderId owner', owner.clientOrderId, clientOrderId, `venue order ${venueOrderId}`);
    }
  }
}
