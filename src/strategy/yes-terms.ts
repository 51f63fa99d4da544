/**
 * YES terms: on a binary market every order is a bid or an ask on the YES book.
 * BUY YES at p is a bid at p; SELL YES at p is an ask at p; BUY NO at q is an ask at 1 − q;
 * SELL NO at q is a bid at 1 − q (the venue folds NO orders into the YES book the same way).
 *
 * Invariant: conversions are exact in ticks (complementTicks), never through a float.
 */
import { complementTicks, RAW_PER_UNIT } from '../core/venue-rules/index.js';
import type { Outcome, Side } from '../core/venue-rules/index.js';
import type { PositionView } from './contract.js';

export type YesSide = 'bid' | 'ask';

export interface YesTermsPrice {
  readonly side: YesSide;
  readonly priceTicks: number;
}

/** An order (token, side, price) seen as a bid or an ask on the YES book. */
export function toYesTerms(token: Outcome, side: Side, priceTicks: number): YesTermsPrice {
  if (token === 'YES') return { side: side === 'BUY' ? 'bid' : 'ask', priceTicks };
  return { side: side === 'BUY' ? 'ask' : 'bid', priceTicks: complementTicks(priceTicks) };
}

/** The order that puts a YES-terms bid/ask on the book through `token`. */
export function fromYesTerms(side: YesSide, yesTicks: number, token: Outcome): { side: Side; priceTicks: number } {
  if (token === 'YES') return { side: side === 'bid' ? 'BUY' : 'SELL', priceTicks: yesTicks };
  return { side: side === 'bid' ? 'SELL' : 'BUY', priceTicks: complementTicks(yesTicks) };
}

/** Net YES exposure in shares: YES held minus NO held (holding NO is being short YES). Float, for maths. */
export function netYesShares(position: PositionView): number {
  return (position.yesRaw - position.noRaw) / RAW_PER_UNIT;
}
