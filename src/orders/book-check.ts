/**
 * Own orders against the public book (pure): where each resting order of the bot sits in the YES book, and the
 * levels where the book shows LESS than the bot's own resting size. The venue's book always contains the bot's
 * live orders, so a shortfall that outlasts the usual frame ordering means the order was filled or canceled and
 * its order event never came (a silent order stream while the connection and the books look healthy).
 *
 * Invariants: only orders the venue has acknowledged and that have not changed for `settledForMs` are judged (a
 * fresh placement or fill may be ahead of the book frame); pending cancels and unknown outcomes are never judged;
 * a shortfall within `toleranceRaw` (book sizes may be rounded on the wire) is not one; a level deeper than the
 * deepest one the book shows on its side is never judged (a venue may send a truncated book).
 */
import type { Outcome, Side } from '../core/venue-rules/index.js';
import { TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import type { OrderState } from './order-state.js';

export interface OwnRestingOrder {
  readonly token: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly remainingRaw: number;
  readonly state: OrderState;
  readonly updatedAtMs: number;
}

export interface BookLevels {
  readonly bids: readonly { readonly priceTicks: number; readonly sizeRaw: number }[];
  readonly asks: readonly { readonly priceTicks: number; readonly sizeRaw: number }[];
}

export interface Shortfall {
  readonly side: 'bid' | 'ask';
  /** YES price of the level, ticks. */
  readonly priceTicks: number;
  /** The bot's own resting size there, raw. */
  readonly ownRaw: number;
  /** What the book shows there, raw. */
  readonly bookRaw: number;
}

/** The YES-book side and price an order rests at: BUY NO at q is a YES ask at 1 − q, SELL NO at q a YES bid at 1 − q. */
export function yesLevelOf(order: Pick<OwnRestingOrder, 'token' | 'side' | 'priceTicks'>): { readonly side: 'bid' | 'ask'; readonly priceTicks: number } {
  if (order.token === 'YES') return { side: order.side === 'BUY' ? 'bid' : 'ask', priceTicks: order.priceTicks };
  return { side: order.side === 'BUY' ? 'ask' : 'bid', priceTicks: TICKS_PER_UNIT - order.priceTicks };
}

/** Levels where the book holds less than the bot's own settled resting orders (see the header). */
export function bookShortfalls(
  orders: readonly OwnRestingOrder[],
  book: BookLevels,
  options: { readonly nowMs: number; readonly settledForMs: number; readonly toleranceRaw: number },
): Shortfall[] {
  const own = new Map<string, { side: 'bid' | 'ask'; priceTicks: number; ownRaw: number }>();
  for (const order of orders) {
    if (order.state !== 'live' && order.state !== 'partially-filled') continue;
    if (options.nowMs - order.updatedAtMs < options.settledForMs || !(order.remainingRaw > 0)) continue;
    const level = yesLevelOf(order);
    const key = `${level.side}|${level.priceTicks}`;
    const entry = own.get(key) ?? { ...level, ownRaw: 0 };
    entry.ownRaw += order.remainingRaw;
    own.set(key, entry);
  }
  const shortfalls: Shortfall[] = [];
  for (const entry of own.values()) {
    const levels = entry.side === 'bid' ? book.bids : book.asks;
    if (beyondShownDepth(entry.side, entry.priceTicks, levels)) continue;
    const bookRaw = levels.find((level) => level.priceTicks === entry.priceTicks)?.sizeRaw ?? 0;
    if (entry.ownRaw - bookRaw > options.toleranceRaw) shortfalls.push({ ...entry, bookRaw });
  }
  return shortfalls.sort((a, b) => a.side.localeCompare(b.side) || a.priceTicks - b.priceTicks);
}

/** Whether a price lies deeper than every level the book shows on that side (bids below the lowest, asks above the highest). */
function beyondShownDepth(side: 'bid' | 'ask', priceTicks: number, levels: BookLevels['bids']): boolean {
  if (levels.length === 0) return false;
  const prices = levels.map((level) => level.priceTicks);
  return side === 'bid' ? priceTicks < Math.min(...prices) : priceTicks > Math.max(...prices);
}
