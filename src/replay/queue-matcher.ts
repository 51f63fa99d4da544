/**
 * Fills of simulated orders against a RECORDED market (a replay stream's books and trades), with a queue model.
 * Pure: no clock, no I/O; the caller passes times. Everything in YES terms (a BUY NO at q is a SELL at 1 − q),
 * integer ticks and raw sizes.
 *
 * Rules (docs/replay.md):
 * - an order priced through the recorded opposite side trades at once as a TAKER against the recorded levels, at
 *   their prices and never more than their sizes (what this replay already took from a level stays taken until
 *   the next recorded book); a post-only order that would do so is refused; the rest rests;
 * - a resting order joins the BACK of the queue at its price: `ahead` = the recorded size there when it arrives;
 * - a recorded trade at or through a resting order's price consumes the queue ahead first, then the order (partial
 *   fills), at the order's own price; one trade's volume is shared across our orders best price first, so the
 *   replay never fills more than traded;
 * - `conservative`: the queue ahead shrinks only by trades; `probabilistic`: also by cancellations, a level's
 *   unexplained decrease between two books taken from ahead of the order in proportion to its position
 *   (`ahead / level`); in both, the queue ahead never exceeds the recorded level (a level that emptied has nobody
 *   ahead);
 * - a recorded book that crosses a resting order without a trade does not fill it (the market did not trade there).
 *
 * Where the two models can differ (`queueStats`, kept by either model so one run can say it): only where recorded
 * size ahead of a resting order was canceled (a level's decrease no trade explains) by more than the level's own
 * shrinking already removes, AND a recorded trade later reached that order while it rested. Without such a trade both
 * models fill exactly the same (by induction: until then their states are equal), and the report says so.
 *
 * Invariants: every fill is at a price the recorded market traded at or through (maker) or at a recorded level's
 * price (taker); the maker volume filled from one trade ≤ that trade's size; remaining sizes never go negative.
 */
import type { Side } from '../core/venue-rules/index.js';

export type QueueModel = 'conservative' | 'probabilistic';
export type Levels = readonly (readonly [number, number])[];

export interface RecordedBook {
  /** Best first. */
  readonly bids: Levels;
  readonly asks: Levels;
}

export interface RecordedTrade {
  readonly priceTicks: number;
  readonly sizeRaw: number;
  /** The taker's side. */
  readonly takerSide: Side;
}

export interface MatcherOrder {
  readonly id: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly postOnly: boolean;
  /** FAK/FOK orders never rest. */
  readonly rests: boolean;
}

export interface MatcherFill {
  readonly orderId: string;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly liquidity: 'maker' | 'taker';
  readonly atMs: number;
}

export interface RestingOrder {
  readonly id: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly remainingRaw: number;
  /** Recorded size queued ahead of this order at its price. */
  readonly aheadRaw: number;
  readonly placedAtMs: number;
}

/** What the recorded data let the queue model do (see the header): the same figures whichever model ran. */
export interface QueueStats {
  /** Orders that rested (joined a queue). */
  readonly restingOrders: number;
  /** Of those, orders that found recorded size ahead of them at their price. */
  readonly ordersBehindQueue: number;
  /** Σ recorded size ahead of the orders when they arrived, raw. */
  readonly aheadOnArrivalRaw: number;
  /** Recorded size canceled ahead of resting orders that the probabilistic model removes and the conservative keeps, raw. */
  readonly canceledAheadRaw: number;
  /** Recorded trades that reached an order with such cancellations ahead of it: where the models can fill differently. */
  readonly tradesReachingMovedOrders: number;
}

export type PlaceOutcome =
  | { readonly status: 'rejected'; readonly reason: 'post-only-would-cross' | 'no-book' }
  | { readonly status: 'accepted'; readonly fills: readonly MatcherFill[]; readonly restingRaw: number };

interface Resting {
  id: string;
  side: Side;
  priceTicks: number;
  remainingRaw: number;
  aheadRaw: number;
  placedAtMs: number;
  seq: number;
  /** Cancellations ahead of it were recorded that the models count differently (see QueueStats). */
  moved: boolean;
}

const EMPTY: RecordedBook = { bids: [], asks: [] };

function sizeAt(levels: Levels, priceTicks: number): number {
  for (const [price, size] of levels) if (price === priceTicks) return size;
  return 0;
}

/** Does a `side` order at `priceTicks` trade against a level (or a trade print) at `levelTicks`? */
function crosses(side: Side, priceTicks: number, levelTicks: number): boolean {
  return side === 'BUY' ? levelTicks <= priceTicks : levelTicks >= priceTicks;
}

/** A fill that breaks the rules in the header: a bug, never a market condition. */
export class ReplayInvariantError extends Error {
  override readonly name = 'ReplayInvariantError';
}

/**
 * The fill invariants of one recorded trade, checked on every replay: maker fills only, on the side the taker hit,
 * at prices the trade printed at or through, adding up to no more than the trade. Throws ReplayInvariantError.
 */
export function checkTradeFills(trade: RecordedTrade, fills: readonly MatcherFill[], sides: ReadonlyMap<string, Side>): void {
  let total = 0;
  for (const fill of fills) {
    total += fill.sizeRaw;
    const side = sides.get(fill.orderId);
    const ok = fill.liquidity === 'maker' && side !== undefined && side !== trade.takerSide && crosses(trade.takerSide, trade.priceTicks, fill.priceTicks);
    if (!ok) throw new ReplayInvariantError(`fill of ${fill.orderId} at ${fill.priceTicks} is not reached by a ${trade.takerSide} trade at ${trade.priceTicks}`);
  }
  if (total > trade.sizeRaw) throw new ReplayInvariantError(`fills of ${total} raw from a trade of ${trade.sizeRaw} raw`);
}

export class QueueMatcher {
  private book: RecordedBook = EMPTY;
  private hasBook = false;
  private readonly orders = new Map<string, Resting>();
  /** Taken by this replay's taker orders from the current recorded book, by `side:price` of the level. */
  private readonly takenFromBook = new Map<string, number>();
  /** Traded volume per `side:price` of the resting side since the last book (explains part of a level's decrease). */
  private readonly tradedSinceBook = new Map<string, number>();
  private seq = 0;
  private stats: QueueStats = { restingOrders: 0, ordersBehindQueue: 0, aheadOnArrivalRaw: 0, canceledAheadRaw: 0, tradesReachingMovedOrders: 0 };

  constructor(private readonly model: QueueModel) {}

  /** What the recorded data let the queue model do so far (a copy). */
  queueStats(): QueueStats {
    return { ...this.stats };
  }

  get bookSeen(): boolean {
    return this.hasBook;
  }

  resting(): RestingOrder[] {
    return [...this.orders.values()].map(({ seq: _seq, moved: _moved, ...order }) => ({ ...order }));
  }

  /** A new recorded book replaces the last one; queues follow it (see the header). */
  onBook(book: RecordedBook): void {
    const previous = this.book;
    for (const order of this.orders.values()) {
      const own = order.side === 'BUY' ? 'bids' : 'asks';
      const before = sizeAt(previous[own], order.priceTicks);
      const after = sizeAt(book[own], order.priceTicks);
      const traded = this.tradedSinceBook.get(`${order.side}:${order.priceTicks}`) ?? 0;
      const canceled = before > 0 ? Math.max(0, before - after - traded) : 0;
      // Both models' queue ahead after this book; they differ by the canceled share the level's shrinking leaves.
      const kept = Math.max(0, Math.min(order.aheadRaw, after));
      const moved = Math.max(0, Math.min(order.aheadRaw - Math.floor((canceled * order.aheadRaw) / Math.max(1, before)), after));
      if (moved < kept) {
        order.moved = true;
        this.stats = { ...this.stats, canceledAheadRaw: this.stats.canceledAheadRaw + (kept - moved) };
      }
      order.aheadRaw = this.model === 'probabilistic' ? moved : kept;
    }
    this.book = book;
    this.hasBook = true;
    this.takenFromBook.clear();
    this.tradedSinceBook.clear();
  }

  /** Places an order that has reached the venue at `atMs`. */
  place(order: MatcherOrder, atMs: number): PlaceOutcome {
    if (!this.hasBook) return { status: 'rejected', reason: 'no-book' };
    const opposite = order.side === 'BUY' ? this.book.asks : this.book.bids;
    const oppositeSide: Side = order.side === 'BUY' ? 'SELL' : 'BUY';
    const crossing = opposite.some(([price]) => crosses(order.side, order.priceTicks, price));
    if (crossing && order.postOnly) return { status: 'rejected', reason: 'post-only-would-cross' };
    const fills: MatcherFill[] = [];
    let remaining = order.sizeRaw;
    for (const [price, size] of opposite) {
      if (remaining === 0 || !crosses(order.side, order.priceTicks, price)) break;
      const key = `${oppositeSide}:${price}`;
      const available = size - (this.takenFromBook.get(key) ?? 0);
      const take = Math.min(available, remaining);
      if (take <= 0) continue;
      this.takenFromBook.set(key, (this.takenFromBook.get(key) ?? 0) + take);
      remaining -= take;
      fills.push({ orderId: order.id, priceTicks: price, sizeRaw: take, liquidity: 'taker', atMs });
    }
    if (remaining > 0 && order.rests) {
      const own = order.side === 'BUY' ? this.book.bids : this.book.asks;
      const ahead = Math.max(0, sizeAt(own, order.priceTicks) - (this.takenFromBook.get(`${order.side}:${order.priceTicks}`) ?? 0));
      this.orders.set(order.id, { id: order.id, side: order.side, priceTicks: order.priceTicks, remainingRaw: remaining, aheadRaw: ahead, placedAtMs: atMs, seq: (this.seq += 1), moved: false });
      this.stats = {
        ...this.stats,
        restingOrders: this.stats.restingOrders + 1,
        ordersBehindQueue: this.stats.ordersBehindQueue + (ahead > 0 ? 1 : 0),
        aheadOnArrivalRaw: this.stats.aheadOnArrivalRaw + ahead,
      };
    }
    return { status: 'accepted', fills, restingRaw: remaining > 0 && order.rests ? remaining : 0 };
  }

  /** True when the order was resting (it is removed); false when it was not (filled, never rested, unknown). */
  cancel(orderId: string): boolean {
    return this.orders.delete(orderId);
  }

  /** A recorded trade: fills the resting orders it reached (see the header). */
  onTrade(trade: RecordedTrade, atMs: number): MatcherFill[] {
    const sides = new Map([...this.orders.values()].map((o) => [o.id, o.side]));
    const fills = this.fillFromTrade(trade, atMs);
    checkTradeFills(trade, fills, sides);
    return fills;
  }

  private fillFromTrade(trade: RecordedTrade, atMs: number): MatcherFill[] {
    const makerSide: Side = trade.takerSide === 'BUY' ? 'SELL' : 'BUY';
    const key = `${makerSide}:${trade.priceTicks}`;
    this.tradedSinceBook.set(key, (this.tradedSinceBook.get(key) ?? 0) + trade.sizeRaw);
    const reached = [...this.orders.values()]
      .filter((o) => o.side === makerSide && crosses(trade.takerSide, trade.priceTicks, o.priceTicks))
      .sort((a, b) => (makerSide === 'BUY' ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks) || a.seq - b.seq);
    if (reached.some((o) => o.moved)) this.stats = { ...this.stats, tradesReachingMovedOrders: this.stats.tradesReachingMovedOrders + 1 };
    const fills: MatcherFill[] = [];
    let volume = trade.sizeRaw;
    for (const order of reached) {
      if (volume === 0) break;
      const throughQueue = Math.min(volume, order.aheadRaw);
      order.aheadRaw -= throughQueue;
      volume -= throughQueue;
      const fill = Math.min(volume, order.remainingRaw);
      if (fill === 0) continue;
      volume -= fill;
      order.remainingRaw -= fill;
      fills.push({ orderId: order.id, priceTicks: order.priceTicks, sizeRaw: fill, liquidity: 'maker', atMs });
      if (order.remainingRaw === 0) this.orders.delete(order.id);
    }
    return fills;
  }
}
