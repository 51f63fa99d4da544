/**
 * The one shape a full order-book snapshot takes on its way into a book, whatever its source: a socket
 * `orderbookUpdate` frame (parsed in src/exchange/socket-wire.ts) or REST `GET /markets/{slug}/orderbook`
 * (parsed by the REST client, adapted by the composition root).
 *
 * Units: YES book, integer ticks (1..999) and raw sizes (1e6 = one share). Bids best (highest) first, asks
 * best (lowest) first. `adjustedMidpoint` is the venue's figure in price units (0..1), or null/absent.
 * Nothing here is validated: `BookState.fromSnapshot` is the single gate.
 */
import type { Level } from '../strategy/contract.js';

export interface BookSnapshot {
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
  readonly adjustedMidpoint?: number | null;
}

/** Where a snapshot came from; used in counters and logs. */
export type SnapshotSource = 'feed' | 'rest';
