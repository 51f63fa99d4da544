/**
 * Market data as the bot and the recorder read it: the socket feed, the local books (REST snapshots, watchdog,
 * freshness) and the socket's size units settled from evidence. One construction, so a recording sees exactly
 * what the bot would have seen.
 *
 * Owns: building the three and wiring books ← feed, and the REST fetch timeout for the number of markets. Invariants:
 * a market without a usable book gets its snapshot at placement priority (nothing can be quoted there until it
 * answers); a book of another token than the market's YES token is rejected (it would invert every quote); a fetch is
 * not abandoned while it may still be waiting behind one sync of every market.
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import type { Scheduler } from '../core/clock.js';
import type { ExchangeClient } from '../exchange/client.js';
import { MarketFeed, type MarketFeedObserver, type MarketFeedOptions } from '../exchange/socket.js';
import { BookStore, type BookStoreObserver } from '../book/book-store.js';
import { DEFAULT_WATCHDOG_CONFIG } from '../book/watchdog.js';
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
  /** How many markets the books follow (sizes the REST fetch timeout: `snapshotFetchTimeoutMs`). */
  readonly marketCount: number;
}

/**
 * How long a REST book fetch may take before it is abandoned: the usual 10 s, plus its wait for the rate limiter behind
 * a sync of every market (at start-up and after each reconnect all of them fetch at once), counted twice because
 * while cross-market cancel-replace requests wait such fetches share the starts with them
 * (src/orders/cross-market-venue.ts; they get two of three).
 * A timeout counted from the queue instead let a 50-market start abandon most first books, each then re-synced by the
 * watchdog one per tick (over a minute for all of them).
 */
export function snapshotFetchTimeoutMs(marketCount: number, minTimeMs: number): number {
  return DEFAULT_WATCHDOG_CONFIG.fetchTimeoutMs + 2 * Math.max(1, marketCount) * Math.max(0, minTimeMs);
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
    // The first book of a market from the feed's first frame (a full book), REST only when none comes in time.
    ...(config.feed.firstBookWaitMs > 0 ? { firstBookFromFeedMs: config.feed.firstBookWaitMs } : {}),
    scheduler,
    watchdog: {
      intervalMs: config.feed.watchdogIntervalMs,
      quietAfterMs: config.feed.quietThresholdMs,
      staleAfterMs: config.feed.staleAfterMs,
      socketDownGraceMs: config.risk.socketDownGraceMs,
      fetchTimeoutMs: snapshotFetchTimeoutMs(deps.marketCount, config.rateLimits.minTimeMs),
    },
    observer: deps.booksObserver,
    logger: componentLogger(log, 'books'),
  });
  return { units, feed, books };
}
