/**
 * The markout of one ledger fill, exactly: the fill in YES terms, the reference prices it is judged against (the book
 * mid without the bot's own orders, the model's fair value) as integer millionths, and the markout in raw USDC.
 *
 * Invariants: every figure is an integer (prices in millionths of a unit, sizes and USDC in raw 1e6 units); a bid
 * fill (BUY YES, SELL NO) gains when the reference ends above its YES price, an ask fill (SELL YES, BUY NO) when it
 * ends below; the markout is rounded half away from zero to the raw unit, once; a reference that cannot be read (a
 * side of the book empty, a locked or crossed touch, a fair value outside (0, 1)) is null, never a guess.
 */
import type { Outcome, Side } from '../core/venue-rules/index.js';
import type { BookView, OwnOrderView } from '../strategy/contract.js';
import { othersBook, touchOf } from '../strategy/own-orders.js';
import { toYesTerms } from '../strategy/yes-terms.js';

/** What a markout needs of a fill (its ledger columns). */
export interface MarkoutFillTerms {
  readonly token: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
}

/** One unit of price, in millionths. */
export const MICROS_PER_UNIT = 1_000_000;
/** One tick (0.001), in millionths. */
const MICROS_PER_TICK = 1_000;

/**
 * The fill's markout in raw USDC against `refMicros` (the reference's YES price, millionths):
 * bid: (ref − price) × size; ask: (price − ref) × size.
 */
export function fillMarkoutRaw(fill: MarkoutFillTerms, refMicros: number): number {
  const yes = toYesTerms(fill.token, fill.side, fill.priceTicks);
  const priceMicros = BigInt(yes.priceTicks * MICROS_PER_TICK);
  const edge = yes.side === 'bid' ? BigInt(refMicros) - priceMicros : priceMicros - BigInt(refMicros);
  const scaled = edge * BigInt(fill.sizeRaw);
  const unit = BigInt(MICROS_PER_UNIT);
  const negative = scaled < 0n;
  const magnitude = negative ? -scaled : scaled;
  const rounded = (magnitude + unit / 2n) / unit;
  return Number(negative ? -rounded : rounded);
}

/** The YES book's mid without the bot's own orders, millionths; null when a side is empty or the touch is locked. */
export function othersMidMicros(book: BookView, own: readonly OwnOrderView[]): number | null {
  const touch = touchOf(othersBook(book, own));
  if (touch.bestBid === null || touch.bestAsk === null) return null;
  if (touch.bestBid.priceTicks >= touch.bestAsk.priceTicks) return null;
  return ((touch.bestBid.priceTicks + touch.bestAsk.priceTicks) * MICROS_PER_TICK) / 2;
}

/** A fair value (price units) as millionths; null unless it rounds strictly inside (0, 1). */
export function fairMicros(fair: number): number | null {
  if (!Number.isFinite(fair)) return null;
  const micros = Math.round(fair * MICROS_PER_UNIT);
  return micros >= 1 && micros < MICROS_PER_UNIT ? micros : null;
}
