/**
 * The REST orderbook (GET /markets/{slug}/orderbook) → `OrderbookSnapshot`: levels in ticks, sizes raw (the live
 * venue's unit, recorded in test/contract) or in shares on request, aggregated per price and sorted best first.
 *
 * Owns: the orderbook's wire shape and its size unit. Invariants: bids descend, asks ascend, one level per price.
 *
 * Part of the REST wire format (wire.ts re-exports every part; callers import wire.ts). Rules of every part: extra
 * fields are tolerated (and dropped); numbers sent as strings are accepted; wrong types are rejected with a
 * ResponseValidationError naming the field path and value (parseAnswer); prices become integer ticks and amounts raw
 * 1e6 integers wherever the bot signs, books or compares them.
 */
import { z } from 'zod';
import type { Side, Level } from '../core/venue-rules/index.js';
import type { EndpointRef } from './errors.js';
import { numeric, orNull, parseAnswer, priceTicks, rawAmount, sharesAsRaw, tokenId } from './wire-fields.js';
import { spreadTicks } from './wire-markets.js';

/**
 * The unit of `size` in REST orderbook levels: raw 1e6 integers (what the live venue sends: recorded answers in
 * test/contract) or shares (an older guess; kept for a venue that sends decimals).
 */
export type BookSizeUnit = 'shares' | 'raw';

/** The REST client's default book size unit: the live venue's REST orderbook sends raw 1e6 integers. */
export const DEFAULT_BOOK_SIZE_UNIT: BookSizeUnit = 'raw';

function orderbookSchema(unit: BookSizeUnit) {
  const level = (side: Side) =>
    z.object({
      price: priceTicks,
      size: unit === 'shares' ? sharesAsRaw : rawAmount,
      // Each recorded level carries its side (BUY in bids, SELL in asks); one on the wrong list is refused.
      side: z
        .string()
        .transform((value) => value.toUpperCase())
        .pipe(z.literal(side, { error: `not ${side} (the side of this list)` }))
        .nullish(),
    });
  return z.object({
    bids: z.array(level('BUY')),
    asks: z.array(level('SELL')),
    tokenId: tokenId.nullish(),
    adjustedMidpoint: numeric.nullish(),
    // Recorded: a string in price units ("0.035"); numbers accepted too.
    maxSpread: numeric.nullish(),
    // Recorded: a string of raw units ("100000000" = 100 shares).
    minSize: rawAmount.nullish(),
    lastTradePrice: numeric.nullish(),
  });
}
const ORDERBOOK_SCHEMAS: Readonly<Record<BookSizeUnit, ReturnType<typeof orderbookSchema>>> = {
  shares: orderbookSchema('shares'),
  raw: orderbookSchema('raw'),
};

/** A full YES-book snapshot (NO orders folded in), in ticks and raw sizes. */
export interface OrderbookSnapshot {
  readonly slug: string;
  readonly tokenId: string | null;
  /** Best (highest) first; zero sizes dropped; duplicate prices merged. */
  readonly bids: readonly Level[];
  /** Best (lowest) first. */
  readonly asks: readonly Level[];
  /** The venue's adjusted midpoint in price units (0..1). */
  readonly adjustedMidpoint: number | null;
  /** `maxSpread` as sent, in price units (0.035). */
  readonly maxSpread: number | null;
  /** `maxSpread` in ticks (0.035 → 35); null when absent. */
  readonly maxSpreadTicks: number | null;
  /** `minSize` in raw units ("100000000" → 100000000 = 100 shares); null when absent. */
  readonly minSize: number | null;
  readonly lastTradePrice: number | null;
}

function aggregate(levels: readonly { price: number; size: number }[], descending: boolean): Level[] {
  const byPrice = new Map<number, number>();
  for (const { price, size } of levels) {
    if (size > 0) byPrice.set(price, (byPrice.get(price) ?? 0) + size);
  }
  return [...byPrice.entries()]
    .map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw }))
    .sort((a, b) => (descending ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks));
}

export function parseOrderbook(slug: string, data: unknown, endpoint: EndpointRef, status: number, unit: BookSizeUnit): OrderbookSnapshot {
  const wire = parseAnswer(ORDERBOOK_SCHEMAS[unit], data, endpoint, status);
  return {
    slug,
    tokenId: orNull(wire.tokenId),
    bids: aggregate(wire.bids, true),
    asks: aggregate(wire.asks, false),
    adjustedMidpoint: orNull(wire.adjustedMidpoint),
    maxSpread: orNull(wire.maxSpread),
    maxSpreadTicks: wire.maxSpread === null || wire.maxSpread === undefined ? null : spreadTicks(wire.maxSpread),
    minSize: orNull(wire.minSize),
    lastTradePrice: orNull(wire.lastTradePrice),
  };
}
