/**
 * One market's YES book with NO orders folded in, price-time priority.
 *
 * Levels are indexed by YES tick (1..999); each level keeps its orders in arrival order (a Map, so
 * removal from the middle is O(1)) and its total size. Best bid/ask are tracked incrementally: adding
 * is O(1), removing the last order of the best level scans to the next level (O(levels) ≤ 999).
 *
 * Invariants: an entry's `remainingRaw` is > 0 while it rests; a level's total is the sum of its entries;
 * `bestBid` is the highest non-empty bid tick (0 if none), `bestAsk` the lowest non-empty ask (1000 if none).
 */
import { MAX_TICK, MIN_TICK, TICKS_PER_UNIT } from '../../core/venue-rules/index.js';
import { EngineInvariantError } from './errors.js';
import type { BookSnapshot, Level } from './types.js';

export type BookSide = 'bid' | 'ask';

/** What the book needs of a resting order. */
export interface BookEntry {
  readonly id: string;
  readonly profileId: number;
  readonly bookSide: BookSide;
  /** Price on the YES book. */
  readonly yesTicks: number;
  remainingSizeRaw: number;
}

class PriceLevel<E extends BookEntry> {
  readonly entries = new Map<string, E>();
  totalRaw = 0;
}

export const NO_BID = 0;
export const NO_ASK = TICKS_PER_UNIT;

export class OrderBook<E extends BookEntry> {
  private readonly bidLevels: (PriceLevel<E> | undefined)[] = new Array<PriceLevel<E> | undefined>(TICKS_PER_UNIT);
  private readonly askLevels: (PriceLevel<E> | undefined)[] = new Array<PriceLevel<E> | undefined>(TICKS_PER_UNIT);
  private best = { bid: NO_BID, ask: NO_ASK };
  private count = 0;

  get bestBid(): number {
    return this.best.bid;
  }
  get bestAsk(): number {
    return this.best.ask;
  }
  get size(): number {
    return this.count;
  }

  add(entry: E): void {
    const t = entry.yesTicks;
    if (!Number.isInteger(t) || t < MIN_TICK || t > MAX_TICK) throw new EngineInvariantError(`book price ${t} out of range`);
    if (entry.remainingSizeRaw <= 0) throw new EngineInvariantError(`resting order ${entry.id} with size ${entry.remainingSizeRaw}`);
    const levels = entry.bookSide === 'bid' ? this.bidLevels : this.askLevels;
    let level = levels[t];
    if (!level) {
      level = new PriceLevel<E>();
      levels[t] = level;
    }
    level.entries.set(entry.id, entry);
    level.totalRaw += entry.remainingSizeRaw;
    this.count += 1;
    if (entry.bookSide === 'bid') {
      if (t > this.best.bid) this.best.bid = t;
    } else if (t < this.best.ask) {
      this.best.ask = t;
    }
  }

  /** Take an entry off the book (whatever its remaining size). */
  remove(entry: E): void {
    const levels = entry.bookSide === 'bid' ? this.bidLevels : this.askLevels;
    const level = levels[entry.yesTicks];
    if (!level?.entries.delete(entry.id)) throw new EngineInvariantError(`order ${entry.id} is not on the book`);
    level.totalRaw -= entry.remainingSizeRaw;
    this.count -= 1;
    if (level.entries.size === 0) {
      levels[entry.yesTicks] = undefined;
      this.repairBest(entry.bookSide, entry.yesTicks);
    }
  }

  /** Reduce a resting entry's size by a fill; removes it when it reaches zero. */
  fill(entry: E, sizeRaw: number): void {
    const levels = entry.bookSide === 'bid' ? this.bidLevels : this.askLevels;
    const level = levels[entry.yesTicks];
    if (!level?.entries.has(entry.id)) throw new EngineInvariantError(`order ${entry.id} is not on the book`);
    if (sizeRaw <= 0 || sizeRaw > entry.remainingSizeRaw) {
      throw new EngineInvariantError(`fill ${sizeRaw} of order ${entry.id} with ${entry.remainingSizeRaw} left`);
    }
    level.totalRaw -= sizeRaw;
    entry.remainingSizeRaw -= sizeRaw;
    if (entry.remainingSizeRaw === 0) {
      level.entries.delete(entry.id);
      this.count -= 1;
      if (level.entries.size === 0) {
        levels[entry.yesTicks] = undefined;
        this.repairBest(entry.bookSide, entry.yesTicks);
      }
    }
  }

  /**
   * Resting entries a taker on `takerSide` could trade with, best price first, arrival order within a
   * price, while the YES price is within `yesLimit` (inclusive; null = no limit). Lazy: stop early freely.
   */
  *crossing(takerSide: BookSide, yesLimit: number | null): Generator<E> {
    if (takerSide === 'bid') {
      const limit = yesLimit ?? MAX_TICK;
      for (let t = this.best.ask; t <= limit && t <= MAX_TICK; t += 1) {
        const level = this.askLevels[t];
        if (level) yield* level.entries.values();
      }
    } else {
      const limit = yesLimit ?? MIN_TICK;
      for (let t = this.best.bid; t >= limit && t >= MIN_TICK; t -= 1) {
        const level = this.bidLevels[t];
        if (level) yield* level.entries.values();
      }
    }
  }

  /** Would an order on `side` at YES price `yesTicks` cross the book? */
  wouldCross(side: BookSide, yesTicks: number): boolean {
    return side === 'bid' ? this.best.ask <= yesTicks : this.best.bid >= yesTicks;
  }

  levelSize(side: BookSide, yesTicks: number): number {
    return (side === 'bid' ? this.bidLevels : this.askLevels)[yesTicks]?.totalRaw ?? 0;
  }

  snapshot(maxLevels = Number.POSITIVE_INFINITY): BookSnapshot {
    const bids: Level[] = [];
    const asks: Level[] = [];
    for (let t = this.best.bid; t >= MIN_TICK && bids.length < maxLevels; t -= 1) {
      const level = this.bidLevels[t];
      if (level) bids.push({ priceTicks: t, sizeRaw: level.totalRaw });
    }
    for (let t = this.best.ask; t <= MAX_TICK && asks.length < maxLevels; t += 1) {
      const level = this.askLevels[t];
      if (level) asks.push({ priceTicks: t, sizeRaw: level.totalRaw });
    }
    return { bids, asks };
  }

  /** Every resting entry (for lifecycle cancels and invariant checks). */
  *entries(): Generator<E> {
    for (const level of this.bidLevels) if (level) yield* level.entries.values();
    for (const level of this.askLevels) if (level) yield* level.entries.values();
  }

  /** Internal consistency (level totals, best prices); returns violations. */
  audit(): string[] {
    const problems: string[] = [];
    let count = 0;
    let bestBid = NO_BID;
    let bestAsk = NO_ASK;
    for (let t = MIN_TICK; t <= MAX_TICK; t += 1) {
      for (const [side, levels] of [['bid', this.bidLevels] as const, ['ask', this.askLevels] as const]) {
        const level = levels[t];
        if (!level) continue;
        if (level.entries.size === 0) problems.push(`empty ${side} level kept at ${t}`);
        let total = 0;
        for (const e of level.entries.values()) {
          total += e.remainingSizeRaw;
          count += 1;
          if (e.remainingSizeRaw <= 0) problems.push(`order ${e.id} rests with size ${e.remainingSizeRaw}`);
          if (e.yesTicks !== t || e.bookSide !== side) problems.push(`order ${e.id} filed at the wrong level`);
        }
        if (total !== level.totalRaw) problems.push(`${side} level ${t} total ${level.totalRaw} != ${total}`);
        if (side === 'bid') bestBid = Math.max(bestBid, t);
        else bestAsk = Math.min(bestAsk, t);
      }
    }
    if (count !== this.count) problems.push(`book count ${this.count} != ${count}`);
    if (bestBid !== this.best.bid) problems.push(`best bid ${this.best.bid} != ${bestBid}`);
    if (bestAsk !== this.best.ask) problems.push(`best ask ${this.best.ask} != ${bestAsk}`);
    if (bestBid >= bestAsk) problems.push(`crossed book at rest: bid ${bestBid} >= ask ${bestAsk}`);
    return problems;
  }

  private repairBest(side: BookSide, emptiedTick: number): void {
    if (side === 'bid') {
      if (emptiedTick !== this.best.bid) return;
      let t = emptiedTick - 1;
      while (t >= MIN_TICK && !this.bidLevels[t]) t -= 1;
      this.best.bid = t >= MIN_TICK ? t : NO_BID;
    } else {
      if (emptiedTick !== this.best.ask) return;
      let t = emptiedTick + 1;
      while (t <= MAX_TICK && !this.askLevels[t]) t += 1;
      this.best.ask = t <= MAX_TICK ? t : NO_ASK;
    }
  }
}
