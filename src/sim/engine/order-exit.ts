/**
 * How an order leaves the book or ends: the terminal transition of an order off the book (`finish`), the cancel of
 * a resting order (by the user, STP, expiry of the order or its market, resolution) and the order-expiry check.
 *
 * Invariants: a canceled order's lock is released in full and the order leaves its book in the same step; every
 * terminal order is counted once for retention; CANCELLATION carries a `reason` unless the user canceled.
 */
import { EngineInvariantError } from './errors.js';
import type { EngineCore } from './core.js';
import { unlock } from './ledger.js';
import type { MarketState, OrderRecord } from './state.js';
import type { CancelReason, OrderStatus } from './types.js';

/** Move an order that is off the book to a terminal status. */
export function finish(core: EngineCore, order: OrderRecord, status: OrderStatus, reason: CancelReason | null, emit = true): void {
  order.status = status;
  order.cancelReason = status === 'MATCHED' ? null : reason;
  order.updatedAtMs = core.clock.now();
  if (emit && status !== 'MATCHED') {
    if (reason === 'STP_TAKER_REJECTED') core.emitOme(order, 'CANCELLATION', { reason });
    else core.emitOme(order, 'EXECUTION', { status: 'KILLED' });
  }
  core.markTerminal(order);
}

export function cancelResting(core: EngineCore, order: OrderRecord, reason: CancelReason): void {
  const market = core.marketsById.get(order.marketId);
  const account = core.accountsById.get(order.profileId);
  if (!market || !account) throw new EngineInvariantError(`order ${order.id} lost its market or account`);
  market.book.remove(order);
  unlock(order.side === 'BUY' ? account.usdc : account.token(order.tokenId), order.lockedRaw, 'cancel');
  order.lockedRaw = 0;
  order.status = 'CANCELED';
  order.cancelReason = reason;
  order.updatedAtMs = core.clock.now();
  core.emitOme(order, 'CANCELLATION', reason === 'USER_CANCELED' ? {} : { reason });
  core.markTerminal(order);
  core.enqueue({ kind: 'book', slug: market.spec.slug });
  core.observer.onCancel?.(reason);
}

export function cancelAllResting(core: EngineCore, market: MarketState, reason: CancelReason): void {
  for (const order of [...market.book.entries()]) cancelResting(core, order, reason);
}

/** The order's signed expiration passed: a still-resting order leaves the book and its lock is released. */
export function expireOrder(core: EngineCore, order: OrderRecord): void {
  if (order.status !== 'LIVE' || order.expiresAtMs === null || core.clock.now() < order.expiresAtMs) return;
  cancelResting(core, order, 'ORDER_EXPIRED');
}
