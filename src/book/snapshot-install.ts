/**
 * Installs a full book snapshot (from the feed or REST) into a market's record, or rejects it.
 *
 * Owns the acceptance rule for one snapshot: its token must be the market's YES token (`yesTokenOf`) when both are
 * known, and the book itself must pass `OrderBook.apply`'s checks (crossed, malformed…). A rejected snapshot leaves
 * the previous book in place, marks the record `invalid`, is counted through the observer and logged once per market,
 * source and kind. An accepted one clears `invalid`, confirms the book as current now (`lastFreshMs`) and, when its
 * levels changed, stamps `lastUpdateMs` and marks the market for a coalesced change notification.
 * Invariant: nothing here throws; the caller (BookStore) decides what a rejection leads to (a sync, a stale market).
 */
import type { Scheduler } from '../core/clock.js';
import type { MarketEntry } from './book-entry.js';
import type { BookStoreObserver } from './book-store-types.js';
import type { ChangeCoalescer } from './coalescer.js';
import { BookRejectedError } from './errors.js';
import { describeError, type OnceLog } from './log.js';
import type { BookSnapshot, SnapshotSource } from './snapshot.js';

export interface SnapshotInstallerDeps {
  readonly scheduler: Scheduler;
  readonly onceLog: OnceLog;
  readonly observer: BookStoreObserver;
  readonly coalescer: ChangeCoalescer;
  readonly yesTokenOf?: (slug: string) => string | null;
  /** Calls an observer hook without letting it throw into the book store. */
  readonly notify: (call: () => void) => void;
}

export class SnapshotInstaller {
  constructor(private readonly deps: SnapshotInstallerDeps) {}

  /** Validates and installs a snapshot; true when it is now the market's book (confirmed current). */
  install(entry: MarketEntry, snapshot: BookSnapshot, source: SnapshotSource): boolean {
    const { onceLog, observer, notify } = this.deps;
    let changed: boolean;
    try {
      this.checkToken(entry, snapshot, source);
      changed = entry.book.apply(snapshot).changed;
    } catch (caught) {
      const error =
        caught instanceof BookRejectedError ? caught : new BookRejectedError('snapshot', snapshot, describeError(caught));
      entry.invalid = true;
      onceLog.warnOnce(
        `rejected:${entry.slug}:${source}:${error.field.replace(/\[\d+\]/g, '[]')}:${error.reason}`,
        { market: entry.slug, source, field: error.field, value: error.message },
        'order-book snapshot rejected; keeping the previous book',
      );
      notify(() => observer.onSnapshotRejected?.(entry.slug, source, error));
      return false;
    }
    const now = this.deps.scheduler.now();
    entry.invalid = false;
    entry.lastFreshMs = now;
    if (changed) {
      entry.lastUpdateMs = now;
      this.deps.coalescer.mark(entry.slug);
    }
    notify(() => observer.onSnapshotApplied?.(entry.slug, source, changed));
    return true;
  }

  /** Throws BookRejectedError for a snapshot of another token than the market's YES token. */
  private checkToken(entry: MarketEntry, snapshot: BookSnapshot, source: SnapshotSource): void {
    const tokenId = snapshot.tokenId;
    if (tokenId === undefined || tokenId === null) return;
    const yesTokenId = this.deps.yesTokenOf?.(entry.slug) ?? null;
    if (yesTokenId === null || tokenId === yesTokenId) return;
    this.deps.notify(() => this.deps.observer.onTokenMismatch?.(entry.slug, source, tokenId, yesTokenId));
    this.deps.onceLog.warnOnce(
      `token:${entry.slug}:${source}:${tokenId}`,
      { market: entry.slug, source, field: 'tokenId', tokenId, yesTokenId },
      'order book for another token than the market\'s YES token rejected; keeping the previous book',
    );
    throw new BookRejectedError('tokenId', tokenId, `not the market's YES token ${yesTokenId}`);
  }
}
