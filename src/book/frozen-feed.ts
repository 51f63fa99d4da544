/**
 * The frozen-feed check of the book store: after a probe found a market's REST book different from the local one
 * while the feed claims to be connected, the feed gets `confirmMs` to send that market a frame. If none comes, the
 * feed is frozen: logged, counted (`onFrozenFeed`) and asked to reconnect (which resyncs every market).
 *
 * Owns the suspicion timer of each market's record (`MarketEntry.frozenSuspicion`). Invariants: at most one timer
 * per market (a new suspicion replaces the old); any frame for the market, a feed that is not connected, a removed
 * market or a stopped store clears it (the caller calls `clear`, or `stillWatched` answers false when it fires).
 * Nothing here throws into a timer.
 */
import type { Scheduler } from '../core/clock.js';
import type { MarketEntry } from './book-entry.js';
import type { BookStoreObserver } from './book-store-types.js';
import { describeError, safeLog, type MarketDataLogger, type OnceLog } from './log.js';

export interface FrozenFeedDeps {
  readonly scheduler: Scheduler;
  readonly confirmMs: number;
  readonly logger: MarketDataLogger;
  readonly onceLog: OnceLog;
  readonly observer: BookStoreObserver;
  readonly notify: (call: () => void) => void;
  /** The store still runs, still holds this very record, and the feed still claims to be connected. */
  readonly stillWatched: (entry: MarketEntry) => boolean;
  readonly reconnect: (reason: string) => void;
}

export class FrozenFeedWatch {
  constructor(private readonly deps: FrozenFeedDeps) {}

  suspect(entry: MarketEntry): void {
    this.clear(entry);
    const framesAtMismatch = entry.feedFrames;
    const { scheduler, confirmMs, logger } = this.deps;
    entry.frozenSuspicion = scheduler.schedule(confirmMs, () => {
      entry.frozenSuspicion = null;
      if (entry.feedFrames !== framesAtMismatch || !this.deps.stillWatched(entry)) return;
      safeLog(() =>
        logger.warn({ market: entry.slug, confirmMs }, 'market feed frozen: REST book differed and no frame followed; reconnecting the feed'),
      );
      this.deps.notify(() => this.deps.observer.onFrozenFeed?.(entry.slug));
      try {
        this.deps.reconnect(`frozen feed detected on ${entry.slug}`);
      } catch (error) {
        this.deps.onceLog.warnOnce('reconnect-failed', { err: describeError(error) }, 'feed reconnect request failed');
      }
    });
  }

  clear(entry: MarketEntry): void {
    if (entry.frozenSuspicion !== null) {
      entry.frozenSuspicion();
      entry.frozenSuspicion = null;
    }
  }
}
