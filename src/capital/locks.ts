/**
 * What the bot's open SELL orders lock per market (pure): those tokens stay out of a merge, or the order would find
 * its tokens gone. Used by the bot's and the backtest's wiring alike.
 */
import type { Outcome, Side } from '../core/venue-rules/index.js';

export interface LockingOrder {
  readonly marketSlug: string;
  readonly token: Outcome;
  readonly side: Side;
  readonly remainingRaw: number;
}

/** Remaining SELL size per market and token (raw). */
export function sellLocks(orders: readonly LockingOrder[]): Map<string, { yesRaw: number; noRaw: number }> {
  const out = new Map<string, { yesRaw: number; noRaw: number }>();
  for (const order of orders) {
    if (order.side !== 'SELL' || order.remainingRaw <= 0) continue;
    const entry = out.get(order.marketSlug) ?? { yesRaw: 0, noRaw: 0 };
    if (order.token === 'YES') entry.yesRaw += order.remainingRaw;
    else entry.noRaw += order.remainingRaw;
    out.set(order.marketSlug, entry);
  }
  return out;
}
