/**
 * The REST market trades (spec: MarketTrade, GET /markets/{slug}/events) → `MarketTradesPage`.
 *
 * Owns: the trades page's wire shape and its domain value. Invariants: prices exact, sizes raw, times in ms; a bad
 * element is skipped, never the page: it is returned in `skipped` as a ResponseValidationError naming its field path
 * (`events[3].side`) and value, for the caller to count; unknown fields (e.g. `profile`) are tolerated.
 *
 * Part of the REST wire format (wire.ts re-exports every part; callers import wire.ts). Rules of every part: extra
 * fields are tolerated (and dropped); numbers sent as strings are accepted; wrong types are rejected with a
 * ResponseValidationError naming the field path and value (parseAnswer); prices become integer ticks and amounts raw
 * 1e6 integers wherever the bot signs, books or compares them.
 */
import { z } from 'zod';
import type { Side } from '../core/venue-rules/index.js';
import { ResponseValidationError, type EndpointRef } from './errors.js';
import { integer, isoMs, numeric, orNull, parseAnswer, rawAmount, tokenId } from './wire-fields.js';

const MarketTradeWire = z.object({
  createdAt: isoMs,
  makerAmount: rawAmount,
  takerAmount: rawAmount,
  matchedSize: rawAmount,
  price: numeric,
  side: integer.pipe(z.union([z.literal(0), z.literal(1)])),
  title: z.string().nullish(),
  tokenId: tokenId,
  txHash: z.string().nullish(),
});
const EventsPageWire = z.object({
  events: z.array(z.unknown()),
  limit: integer.nullish(),
  page: integer.nullish(),
  totalPages: integer,
  totalRows: integer.nullish(),
});

export interface MarketTrade {
  readonly createdAtMs: number;
  /** Trade collateral, raw. */
  readonly collateralRaw: number;
  readonly takerAmountRaw: number;
  /** Taker's filled token amount, raw. */
  readonly matchedSizeRaw: number;
  /** Weighted average fill price (price units; may be off the tick). */
  readonly price: number;
  /** Taker side. */
  readonly side: Side;
  readonly tokenId: string;
  readonly txHash: string | null;
  readonly title: string | null;
}

export interface MarketTradesPage {
  readonly trades: readonly MarketTrade[];
  readonly page: number;
  readonly limit: number | null;
  readonly totalPages: number;
  readonly totalRows: number;
  /** The elements that failed validation (skipped), each naming its field path and value. */
  readonly skipped: readonly ResponseValidationError[];
}

/** Handles both the full page and the empty-page shape `{events: [], totalPages: 0}`. */
export function parseMarketTrades(data: unknown, endpoint: EndpointRef, status: number, requestedPage: number): MarketTradesPage {
  const wire = parseAnswer(EventsPageWire, data, endpoint, status);
  const trades: MarketTrade[] = [];
  const skipped: ResponseValidationError[] = [];
  wire.events.forEach((element, index) => {
    try {
      trades.push(toTrade(parseAnswer(MarketTradeWire, element, endpoint, status, ['events', index], data)));
    } catch (error) {
      if (!(error instanceof ResponseValidationError)) throw error;
      skipped.push(error);
    }
  });
  return {
    trades,
    page: wire.page ?? requestedPage,
    limit: orNull(wire.limit),
    totalPages: wire.totalPages,
    totalRows: wire.totalRows ?? wire.events.length,
    skipped,
  };
}

function toTrade(event: z.output<typeof MarketTradeWire>): MarketTrade {
  return {
    createdAtMs: event.createdAt,
    collateralRaw: event.makerAmount,
    takerAmountRaw: event.takerAmount,
    matchedSizeRaw: event.matchedSize,
    price: event.price,
    side: event.side === 0 ? 'BUY' : 'SELL',
    tokenId: event.tokenId,
    txHash: orNull(event.txHash),
    title: orNull(event.title),
  };
}
