/**
 * The bot's own resting orders as strategies see them, and the YES book without them.
 *
 * A runner that knows the live orders passes a MarketViewWithOwnOrders; otherwise a strategy falls back
 * to the intents it returned last time for the market (OwnQuoteMemory), which is what the order
 * manager is working to make live. Subtracting them keeps a strategy from quoting around its own quotes
 * (a skewed quote would otherwise drag the mid, and the next quote with it) and from counting its own
 * orders as reward competition.
 *
 * Invariant: subtraction never makes a level negative; emptied levels are removed; malformed levels
 * (non-integer tick outside [1, 999], non-positive or non-finite size) are ignored.
 */
import { MAX_TICK, MIN_TICK, TICKS_PER_UNIT, type Level } from '../core/venue-rules/index.js';
import type { BookView, MarketView, OwnOrderView } from './contract.js';
import { toYesTerms } from './yes-terms.js';

export interface Levels {
  /** Best (highest) first. */
  readonly bids: readonly Level[];
  /** Best (lowest) first. */
  readonly asks: readonly Level[];
}

export interface Touch {
  readonly bestBid: Level | null;
  readonly bestAsk: Level | null;
}

/** The intents a strategy returned last, per market slug: the fallback picture of its own orders. */
export class OwnQuoteMemory {
  private readonly bySlug = new Map<string, readonly OwnOrderView[]>();

  recall(slug: string): readonly OwnOrderView[] {
    return this.bySlug.get(slug) ?? [];
  }

  remember(slug: string, orders: readonly OwnOrderView[]): void {
    this.bySlug.set(
      slug,
      orders.map((o) => ({ token: o.token, side: o.side, priceTicks: o.priceTicks, sizeRaw: o.sizeRaw })),
    );
  }
}

/** The bot's resting orders from the view when it carries them, else the remembered ones. */
export function ownOrdersOf(view: MarketView, memory: OwnQuoteMemory): readonly OwnOrderView[] {
  if ('ownOrders' in view && Array.isArray(view.ownOrders)) {
    const list: readonly unknown[] = view.ownOrders;
    return list.filter(isOwnOrder);
  }
  return memory.recall(view.market.slug);
}

/** The YES book's levels minus the bot's own orders (in YES terms), best first. */
export function othersBook(book: BookView, own: readonly OwnOrderView[]): Levels {
  const ownBids = new Map<number, number>();
  const ownAsks = new Map<number, number>();
  for (const order of own) {
    if (!isValidTick(order.priceTicks) || !(order.sizeRaw > 0)) continue;
    const yes = toYesTerms(order.token, order.side, order.priceTicks);
    const target = yes.side === 'bid' ? ownBids : ownAsks;
    target.set(yes.priceTicks, (target.get(yes.priceTicks) ?? 0) + order.sizeRaw);
  }
  return {
    bids: subtract(book.bids, ownBids).sort((a, b) => b.priceTicks - a.priceTicks),
    asks: subtract(book.asks, ownAsks).sort((a, b) => a.priceTicks - b.priceTicks),
  };
}

export function touchOf(levels: Levels): Touch {
  return { bestBid: levels.bids[0] ?? null, bestAsk: levels.asks[0] ?? null };
}

/** The touch's best bid and ask in price units (null: an empty side), as the pricer's ladder samples take it. */
export function touchPrices(touch: Touch): { readonly bid: number | null; readonly ask: number | null } {
  return {
    bid: touch.bestBid === null ? null : touch.bestBid.priceTicks / TICKS_PER_UNIT,
    ask: touch.bestAsk === null ? null : touch.bestAsk.priceTicks / TICKS_PER_UNIT,
  };
}

/** Mid of the touch in price units; null when a side is empty or the touch is locked or crossed. */
export function touchMid(touch: Touch): number | null {
  if (touch.bestBid === null || touch.bestAsk === null) return null;
  if (touch.bestBid.priceTicks >= touch.bestAsk.priceTicks) return null;
  return (touch.bestBid.priceTicks + touch.bestAsk.priceTicks) / (2 * TICKS_PER_UNIT);
}

/** Size-weighted touch price (leans toward the thinner side); null like touchMid. */
export function touchMicroprice(touch: Touch): number | null {
  if (touch.bestBid === null || touch.bestAsk === null) return null;
  const { bestBid: bid, bestAsk: ask } = touch;
  if (bid.priceTicks >= ask.priceTicks) return null;
  const total = bid.sizeRaw + ask.sizeRaw;
  if (!(total > 0)) return null;
  return (bid.priceTicks * ask.sizeRaw + ask.priceTicks * bid.sizeRaw) / (total * TICKS_PER_UNIT);
}

function subtract(levels: readonly Level[], own: ReadonlyMap<number, number>): Level[] {
  const merged = new Map<number, number>();
  for (const level of levels) {
    if (!isValidTick(level.priceTicks) || !Number.isFinite(level.sizeRaw) || level.sizeRaw <= 0) continue;
    merged.set(level.priceTicks, (merged.get(level.priceTicks) ?? 0) + level.sizeRaw);
  }
  const out: Level[] = [];
  for (const [priceTicks, sizeRaw] of merged) {
    const left = sizeRaw - (own.get(priceTicks) ?? 0);
    if (left > 0) out.push({ priceTicks, sizeRaw: left });
  }
  return out;
}

function isValidTick(ticks: number): boolean {
  return Number.isInteger(ticks) && ticks >= MIN_TICK && ticks <= MAX_TICK;
}

function isOwnOrder(value: unknown): value is OwnOrderView {
  if (typeof value !== 'object' || value === null) return false;
  if (!('token' in value) || !('side' in value) || !('priceTicks' in value) || !('sizeRaw' in value)) return false;
  return (
    (value.token === 'YES' || value.token === 'NO') &&
    (value.side === 'BUY' || value.side === 'SELL') &&
    typeof value.priceTicks === 'number' &&
    typeof value.sizeRaw === 'number'
  );
}
