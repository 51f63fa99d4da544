/**
 * The local order book of one market: the current validated YES `BookState` and its NO view.
 *
 * Owns: wholesale replacement by full snapshots (the venue sends the whole book every time, with no
 * sequence numbers, so there are no deltas to apply or gaps to detect here). Invariant: a snapshot that
 * fails validation throws `BookRejectedError` and the previous book stays exactly as it was; readers hold
 * immutable `BookState`s, so a reader in the middle of a quote never sees a half-applied book.
 */
import { BookState } from './book-state.js';
import type { BookSnapshot } from './snapshot.js';

export interface ApplyResult {
  /** The book now in place. */
  readonly book: BookState;
  /** False when the snapshot repeats the book already in place (same levels and adjusted midpoint). */
  readonly changed: boolean;
}

export class OrderBook {
  private state: BookState | null = null;

  constructor(readonly slug: string) {}

  /** True once a snapshot has been applied. */
  get hasSnapshot(): boolean {
    return this.state !== null;
  }

  /** The YES book, or null before the first snapshot. */
  get yes(): BookState | null {
    return this.state;
  }

  /** The NO view derived from the YES book, or null before the first snapshot. */
  get no(): BookState | null {
    return this.state === null ? null : this.state.complement();
  }

  /** Validates and installs a full snapshot. Throws `BookRejectedError`; the previous book then stays. */
  apply(snapshot: BookSnapshot): ApplyResult {
    const next = BookState.fromSnapshot(snapshot);
    const previous = this.state;
    if (previous !== null && previous.adjustedMidpoint === next.adjustedMidpoint && previous.sameLevels(next)) {
      // Keep the instance readers already hold (and its cached NO view).
      return { book: previous, changed: false };
    }
    this.state = next;
    return { book: next, changed: true };
  }

  /** Forgets the book (e.g. when the market is unsubscribed). */
  clear(): void {
    this.state = null;
  }
}
