/**
 * The reference ("fair") price a strategy quotes around, chosen from an ordered list of sources with
 * fallback: `model` (the fair value from the underlying that settles the market: `view.model`, src/pricing),
 * `mid` and `microprice` of the YES book WITHOUT the bot's own orders, or the venue's `adjustedMidpoint`.
 *
 * Invariants: returns null rather than invent a price. `model` is usable exactly when the view carries the model's
 * fair value, and then it needs no book at all (a one-sided or empty book is no reason to stop quoting a priced
 * market). The book sources need a sound book: a locked/crossed book (bad data) means no book reference.
 */
import { z } from 'zod';
import { TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import type { MarketView, OwnOrderView } from './contract.js';
import { othersBook, touchMicroprice, touchMid, touchOf } from './own-orders.js';

export const REFERENCE_SOURCES = ['model', 'mid', 'microprice', 'adjustedMidpoint'] as const;
export type ReferenceSource = (typeof REFERENCE_SOURCES)[number];

/** The default of every built-in strategy: the model where the market is priced, else the book. */
export const DEFAULT_REFERENCE_SOURCES: readonly ReferenceSource[] = ['model', 'mid', 'adjustedMidpoint'];

/** Zod schema of a source list: 1–4 distinct sources, tried in order. */
export const referenceSourcesSchema = z
  .array(z.enum(REFERENCE_SOURCES))
  .min(1)
  .refine((list) => new Set(list).size === list.length, { message: 'sources must be distinct' });

export interface ReferencePrice {
  /** Price units, strictly inside (0, 1). */
  readonly price: number;
  readonly source: ReferenceSource;
}

export interface ReferenceOptions {
  readonly sources: readonly ReferenceSource[];
  /** The bot's resting orders, taken out of the book before mid/microprice. */
  readonly own: readonly OwnOrderView[];
  /** mid/microprice are unusable when the others' touch is wider than this (price units); null: no limit. */
  readonly maxTouchSpread: number | null;
}

export function referencePrice(view: MarketView, options: ReferenceOptions): ReferencePrice | null {
  const touch = touchOf(othersBook(view.yes, options.own));
  const { bestBid, bestAsk } = touch;
  const crossed = bestBid !== null && bestAsk !== null && bestBid.priceTicks >= bestAsk.priceTicks;
  const touchTooWide =
    options.maxTouchSpread !== null &&
    bestBid !== null &&
    bestAsk !== null &&
    (bestAsk.priceTicks - bestBid.priceTicks) / TICKS_PER_UNIT > options.maxTouchSpread + 1e-12;

  for (const source of options.sources) {
    let price: number | null;
    if (source === 'model') price = view.model?.fair ?? null;
    else if (crossed) price = null; // bad book data: no book reference
    else if (source === 'adjustedMidpoint') price = view.yes.adjustedMidpoint;
    else if (touchTooWide) price = null;
    else price = source === 'mid' ? touchMid(touch) : touchMicroprice(touch);
    if (price !== null && Number.isFinite(price) && price > 0 && price < 1) return { price, source };
  }
  return null;
}
