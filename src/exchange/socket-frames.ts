/**
 * The market feed's typed, venue-neutral outputs (what socket-wire.ts's parsers produce): the feed's event names,
 * the size units a frame may use, and one output shape per event (book, positions, resolution, notices, the
 * underlying's price; order events are src/core/venue-rules/order-events.ts, `marketCreated` lifecycle-wire.ts).
 * socket-wire.ts re-exports them; consumers never see a wire field.
 *
 * Owns: these shapes and the event-name list. Invariants: prices in ticks, amounts raw (1e6) integers, times in ms.
 */
import type { BookSnapshot } from '../book/snapshot.js';
import type { OrderEvent } from '../core/venue-rules/index.js';
import type { MarketCreatedFrame } from './lifecycle-wire.js';

/** 'raw': integer 1e6-scaled amounts ("5000000" = 5 shares). 'shares': whole units, ≤ 6 decimals ("5"). */
export type SizeUnit = 'raw' | 'shares';
/** Unit of order-event and position amounts. */
export type AmountUnit = SizeUnit;
/** Unit of book level sizes (exchange-facts §5 says shares; the REST client has the same switch). */
export type BookSizeUnit = SizeUnit;

/** The Socket.IO event names the feed understands. */
export const FEED_EVENTS = [
  'orderbookUpdate',
  'orderEvent',
  'positions',
  'marketResolved',
  'marketCreated',
  'system',
  'exception',
  'oraclePriceData',
] as const;
export type FeedEventName = (typeof FEED_EVENTS)[number];

export function isFeedEventName(name: string): name is FeedEventName {
  return (FEED_EVENTS as readonly string[]).includes(name);
}

export interface OrderbookFrame {
  readonly slug: string;
  readonly snapshot: BookSnapshot;
  /** The YES token id the book is for, when the venue sends it. */
  readonly tokenId: string | null;
  readonly venueTimestampMs: number | null;
}

export interface PositionEntry {
  readonly tokenId: string;
  /** Conditional-token balance, raw (see `AmountUnit`). */
  readonly balanceRaw: number;
  /** Informational figures as the venue sends them (floats, display and reconciliation hints only). */
  readonly averageFillPrice: number | null;
  readonly costBasis: number | null;
  readonly marketValue: number | null;
  readonly marketId: string | null;
}

export interface PositionsFrame {
  readonly account: string;
  readonly marketSlug: string;
  readonly positions: readonly PositionEntry[];
  readonly type: string | null;
}

export interface MarketResolvedFrame {
  readonly slug: string;
  /** Null for a payout-split resolution. */
  readonly winningOutcome: 'YES' | 'NO' | null;
  readonly winningIndex: number | null;
  readonly resolutionDateMs: number | null;
}

/** `system` confirmations and `exception` reports (auth failures arrive as exceptions). */
export interface NoticeFrame {
  readonly message: string | null;
  readonly payload: unknown;
}

/**
 * The underlying's price as the venue publishes it for one market (official client 1.1.0: `oraclePriceData
 * {marketAddress: string | null, marketSlug, timestamp (ms), value (number)}`). The value's sanity (finite, > 0, not
 * future-dated) is the price store's to judge (src/pricing/underlying/store.ts), so every refusal is counted there.
 */
export interface OraclePriceFrame {
  readonly slug: string;
  readonly marketAddress: string | null;
  readonly timestampMs: number;
  readonly value: number;
}

export interface FeedFrameMap {
  oraclePriceData: OraclePriceFrame;
  orderbookUpdate: OrderbookFrame;
  orderEvent: OrderEvent;
  positions: PositionsFrame;
  marketResolved: MarketResolvedFrame;
  marketCreated: MarketCreatedFrame;
  system: NoticeFrame;
  exception: NoticeFrame;
}

export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly path: string; readonly value: unknown; readonly message: string };
