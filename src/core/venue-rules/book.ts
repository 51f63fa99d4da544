/**
 * The venue's book facts: one price level, and the adjusted midpoint the venue publishes with every book.
 *
 * Owns: the `Level` shape (integer ticks, raw size) shared by the wire parsers, the book store, the strategy
 * contract, the simulator and the backtest; the adjusted-midpoint rule. Pure; no floats but the midpoint itself.
 */
import { TICKS_PER_UNIT } from './units.js';

/** One price level: integer ticks (1..999) and raw size (1e6 = one share). */
export interface Level {
  readonly priceTicks: number;
  readonly sizeRaw: number;
}

/** Both sides of a YES book, best first (bids highest first, asks lowest first). */
export interface BookLevels {
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

/**
 * The midpoint counting only price levels of at least `minSizeRaw` (the venue counts orders above the
 * reward minimum); falls back to the plain touch midpoint when a side has no such level; null when a
 * side of the book is empty. Price units (0..1).
 */
export function adjustedMidpoint(book: BookLevels, minSizeRaw: number): number | null {
  const bestBid = book.bids[0];
  const bestAsk = book.asks[0];
  if (bestBid === undefined || bestAsk === undefined) return null;
  const bid = book.bids.find((l) => l.sizeRaw >= minSizeRaw) ?? bestBid;
  const ask = book.asks.find((l) => l.sizeRaw >= minSizeRaw) ?? bestAsk;
  const useAdjusted = bid.priceTicks < ask.priceTicks;
  const b = useAdjusted ? bid : bestBid;
  const a = useAdjusted ? ask : bestAsk;
  return (b.priceTicks + a.priceTicks) / (2 * TICKS_PER_UNIT);
}
