import type { Level } from '../core/venue-rules/index.js';
/**
 * The one shape a full order-book snapshot takes on its way into a book, whatever its source: a socket
 * `orderbookUpdate` frame (parsed in src/exchange/socket-wire.ts) or REST `GET /markets/{slug}/orderbook`
 * (parsed by the REST client, adapted by the composition root).
 *
 * Units: YES book, integer ticks (1..999) and raw sizes (1e6 = one share). Bids best (highest) first, asks
 * best (lowest) first. `adjustedMidpoint` is the venue's figure in price units (0..1), or null/absent.
 * Nothing here is validated: `BookState.fromSnapshot` is the single gate.
 */

export interface BookSnapshot {
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
  readonly adjustedMidpoint?: number | null;
  /**
   * The token the venue says the book is for (it sends the market's YES token id); absent or null when not sent. The
   * book store rejects a book whose token is not the market's YES token (it would invert every quote).
   */
  readonly tokenId?: string | null;
}

/** Where a snapshot came from; used in counters and logs. */
export type SnapshotSource = 'feed' | 'rest';
