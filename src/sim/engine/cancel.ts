/**
 * The cancel commands: one order, a batch (one market), and every order of an account in a market.
 *
 * Invariants: the spec's failure cases are checked in the spec's order (not found, not the owner, resolved, not
 * cancellable); a batch cancels what it can and reports the rest per order; a cancel changes only the orders named.
 */
import { listKey, type EngineCore } from './core.js';
import { failure, fieldFailure, MESSAGES } from './errors.js';
import { refreshExpiry } from './lifecycle.js';
import { cancelResting } from './order-exit.js';
import type { OrderRecord } from './state.js';
import type { BatchCancelFailure, BatchCancelOutcome, CancelOutcome, EngineFailure } from './types.js';

export function cancel(core: EngineCore, profileId: number, orderId: string): CancelOutcome {
  return core.command(() => {
    const order = core.ordersById.get(orderId);
    const checked = checkCancellable(core, profileId, order);
    if (checked !== null) return checked;
    if (!order) return failure(404, 'ORDER_NOT_FOUND', MESSAGES.orderNotFound);
    cancelResting(core, order, 'USER_CANCELED');
    return { ok: true, message: 'Order canceled successfully', order: order.view() };
  });
}

/** The spec's cancel failure cases, in the spec's order; null when the order can be canceled. */
function checkCancellable(core: EngineCore, profileId: number, order: OrderRecord | undefined): EngineFailure | null {
  if (!order) return failure(404, 'ORDER_NOT_FOUND', MESSAGES.orderNotFound);
  if (order.profileId !== profileId) return failure(401, 'NOT_ORDER_OWNER', MESSAGES.unauthorized);
  const market = core.marketsById.get(order.marketId);
  if (!market) return failure(404, 'ORDER_NOT_FOUND', MESSAGES.orderNotFound);
  refreshExpiry(core, market);
  if (market.status === 'RESOLVED') return failure(400, 'MARKET_RESOLVED', MESSAGES.marketResolved);
  if (order.status !== 'LIVE') return failure(400, 'NOT_CANCELLABLE', MESSAGES.notCancellable);
  return null;
}

export function cancelBatch(core: EngineCore, profileId: number, orderIds: readonly string[]): BatchCancelOutcome {
  return core.command(() => {
    if (orderIds.length === 0) return fieldFailure('INVALID_ARGUMENT', 'orderIds', 'orderIds must not be empty');
    const marketIds = new Set<number>();
    for (const id of orderIds) {
      const order = core.ordersById.get(id);
      if (order) marketIds.add(order.marketId);
    }
    if (marketIds.size > 1) return failure(400, 'MIXED_MARKETS', 'All orders must belong to the same market');
    const canceled: string[] = [];
    const failed: BatchCancelFailure[] = [];
    for (const id of new Set(orderIds)) {
      const order = core.ordersById.get(id);
      const problem = checkCancellable(core, profileId, order);
      if (problem !== null || !order) {
        const message = problem && typeof problem.body.message === 'string' ? problem.body.message : MESSAGES.orderNotFound;
        failed.push({ orderId: id, reason: problem?.code ?? 'ORDER_NOT_FOUND', message });
        continue;
      }
      cancelResting(core, order, 'USER_CANCELED');
      canceled.push(id);
    }
    return { ok: true, canceled, failed };
  });
}

export function cancelAll(core: EngineCore, profileId: number, slug: string): BatchCancelOutcome {
  return core.command(() => {
    const market = core.marketsBySlug.get(slug);
    if (!market) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
    if (!core.accountsById.has(profileId)) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
    refreshExpiry(core, market);
    if (market.status === 'RESOLVED') return failure(400, 'MARKET_RESOLVED', MESSAGES.marketResolved);
    const live = [...(core.orderLists.get(listKey(profileId, market.spec.id))?.live ?? [])];
    for (const order of live) cancelResting(core, order, 'USER_CANCELED');
    return { ok: true, canceled: live.map((o) => o.id), failed: [] };
  });
}
