/**
 * Market data as the bot and the recorder read it: the socket feed, the local books (REST snapshots, watchdog,
 * freshness) and the socket's size units settled from evidence. One construction, so a recording sees exactly
 * what the bot would have seen.
 *
 * Owns: building the three and wiring books ← feed. Invariants: a market without a usable book gets its snapshot
 * at placement priority (nothing can be quoted there until it answers); a book of another token than the market's
 * YES token is rejected (it would invert every quote).
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import type { Scheduler } from '../core/clock.js';
import type { ExchangeClient } from '../exchange/client.js';
import { MarketFeed, type MarketFeedObserver, type MarketFeedOptions } from '../exchange/socket.js';
import { BookStore, type BookStoreObserver } from '../book/book-store.js';
import { SocketUnits } from '../book/size-units.js';
import { componentLogger } from '../log.js';
import type { OpenVenue } from './venue.js';

export interface MarketDataDeps {
  readonly config: AppConfig;
  readonly venue: OpenVenue;
  readonly client: ExchangeClient;
  /** The market's YES token id (books of any other token are rejected). */
  readonly yesTokenOf: (slug: string) => string | null;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly feedObserver: MarketFeedObserver;
  readonly booksObserver: BookStoreObserver;
  /** The unit an own order's placement frame shows (the bot only: it knows its orders' sizes exactly). */
  readonly amountEvidence?: MarketFeedOptions['amountEvidence'];
}

export interface MarketData {
  readonly units: SocketUnits;
  readonly feed: MarketFeed;
  readonly books: BookStore;
}

export function buildMarketData(deps: MarketDataDeps): MarketData {
  const { config, venue, client, scheduler, log } = deps;
  const units = new SocketUnits(config.venue.units);
  const feed = new MarketFeed({
    units,
    ...(deps.amountEvidence === undefined ? {} : { amountEvidence: deps.amountEvidence }),
    url: venue.socketUrl,
    namespace: venue.socketNamespace,
    credentials: venue.credentials,
    headerPrefix: venue.headerPrefix,
    scheduler,
    logger: componentLogger(log, 'feed'),
    observer: deps.feedObserver,
    subscribeLifecycle: config.markets.discovery.lifecycleEvents,
  });
  const books = new BookStore({
    // The watchdog's probe of a quiet book goes right after cancels (its answer decides whether a market is halted);
    // a book a quote waits for goes before routine placements; the rest is a read (docs/rate-limits.md).
    fetchSnapshot: async (slug, { urgent, purpose, onSent }) => {
      const snapshot = await client.api.getOrderbook(slug, { priority: purpose === 'probe' ? 'probe' : urgent ? 'place' : 'read', onSent });
      return { bids: snapshot.bids, asks: snapshot.asks, adjustedMidpoint: snapshot.adjustedMidpoint, tokenId: snapshot.tokenId };
    },
    yesTokenOf: deps.yesTokenOf,
    units,
    feed,
    scheduler,
    watchdog: {
      intervalMs: config.feed.watchdogIntervalMs,
      quietAfterMs: config.feed.quietThresholdMs,
      staleAfterMs: config.feed.staleAfterMs,
      socketDownGraceMs: config.risk.socketDownGraceMs,
    },
    observer: deps.booksObserver,
    logger: componentLogger(log, 'books'),
  });
  return { units, feed, books };
}
