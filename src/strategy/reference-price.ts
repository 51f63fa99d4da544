/**
 * The reference ("fair") price a strategy quotes around, chosen from an ordered list of sources with
 * fallback: `mid` and `microprice` of the YES book WITHOUT the bot's own orders, or the venue's
 * `adjustedMidpoint`.
 *
 * Invariant: returns null rather than invent a price. No usable source, or a locked/crossed book (bad
 * data), means no reference, and a strategy then quotes nothing.
 */
import { z } from 'zod';
import { TICKS_PER_UNIT } from '../core/units.js';
import type { MarketView, OwnOrderView } from './contract.js';
import { othersBook, touchMicroprice, touchMid, touchOf } from './own-orders.js';

export const REFERENCE_SOURCES = ['mid', 'microprice', 'adjustedMidpoint'] as const;
export type ReferenceSource = (typeof REFERENCE_SOURCES)[number];

/** Zod schema of a source list: 1–3 distinct sources, tried in order. */
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
  if (bestBid !== null && bestAsk !== null && bestBid.priceTicks >= bestAsk.priceTicks) return null;
  const touchTooWide =
    options.maxTouchSpread !== null &&
    bestBid !== null &&
    bestAsk !== null &&
    (bestAsk.priceTicks - bestBid.priceTicks) / TICKS_PER_UNIT > options.maxTouchSpread + 1e-12;

  for (const source of options.sources) {
    let price: number | null;
    if (source === 'adjustedMidpoint') price = view.yes.adjustedMidpoint;
    else if (touchTooWide) price = null;
    else price = source === 'mid' ? touchMid(touch) : touchMicroprice(touch);
    if (price !== null && Number.isFinite(price) && price > 0 && price < 1) return { price, source };
  }
  return null;
}
