/**
 * Typed errors of the market-data layer.
 *
 * Owns: `BookRejectedError`, raised when a snapshot cannot become a book (crossed or locked, a side out of
 * order, a duplicate price, a price off the tick grid or outside (0, 1), a non-positive size). It names
 * the offending field (e.g. `bids[3].priceTicks`) and value; the book it was meant for is left unchanged.
 */
import { describeValue } from '../core/venue-rules/index.js';

export class BookRejectedError extends Error {
  override readonly name = 'BookRejectedError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${describeValue(value)})`);
  }
}

/** A market-data setting that cannot work (e.g. a non-positive interval), named with its value. */
export class MarketDataConfigError extends Error {
  override readonly name = 'MarketDataConfigError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${describeValue(value)})`);
  }
}
