/**
 * The backtest's market feed: the engine's change notifications turned into what the bot's socket feed delivers —
 * the account's order events, taken from the engine as typed events (engine-order-events.ts) and read by the bot's
 * own order-event adapter (src/app/order-event-adapter.ts) into the executor's order events, and each market's book,
 * as the book store would hold it (src/book/book-state.ts), with a change notice when its levels changed.
 *
 * Owns: the frames and book changes not yet delivered, and the last delivered book of each market. Delivery runs
 * on the clock (a zero-delay timer after the engine command that produced them), never inside an engine command:
 * order events first, in the engine's order, then one book change per changed market, in market order.
 *
 * Invariants: only this account's frames are delivered; a frame the conversion or the adapter cannot read is a gap
 * (reported, as the bot reports it); a market's book is re-published only when its levels changed; a book that
 * fails the book store's checks is reported and leaves the market without a book until a good one comes.
 */
import { BookState } from '../book/book-state.js';
import type { Scheduler } from '../core/clock.js';
import type { OrderEventInput } from '../orders/order-events.js';
import type { OrderEventAdapter } from '../app/order-event-adapter.js';
import type { BookSnapshot, Level, OrderEventFrame, SimEngine } from '../sim/engine/index.js';
import { orderEventOf } from './engine-order-events.js';
import { adjustedMidpoint } from '../core/venue-rules/index.js';

export interface FeedBook {
  readonly snapshot: BookSnapshot;
  /** The YES and NO views; null when the snapshot failed the book checks. */
  readonly views: { readonly yes: BookState; readonly no: BookState } | null;
}

export interface EngineFeedOptions {
  readonly engine: SimEngine;
  readonly profileId: number;
  readonly scheduler: Scheduler;
  /** Traded markets, in order, with the reward minimum size the adjusted midpoint uses. */
  readonly markets: readonly { readonly slug: string; readonly minSizeRaw: number }[];
  readonly adapter: OrderEventAdapter;
  readonly onOrderEvent: (event: OrderEventInput) => void;
  /** An order frame of this account that could not be read. */
  readonly onGap: (marketSlug: string | null, reason: string) => void;
  readonly onBookChange: (slug: string) => void;
  /** A book failed the book store's checks. */
  readonly onRejectedBook: (slug: string) => void;
}

export class EngineFeed {
  private frames: OrderEventFrame[] = [];
  private readonly dirty = new Set<string>();
  private readonly books = new Map<string, FeedBook>();
  private scheduled = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: EngineFeedOptions) {
    this.unsubscribe = options.engine.on({
      orderEvent: (profileId, frame) => {
        if (profileId !== options.profileId) return;
        this.frames.push(frame);
        this.wake();
      },
      bookChanged: (slug) => {
        this.dirty.add(slug);
        this.wake();
      },
    });
  }

  /** Publishes every market's current book (the feed's first snapshot), without change notices. */
  prime(): void {
    for (const { slug } of this.options.markets) this.read(slug);
  }

  /** The market's book as last delivered; null before the first or after a rejected one. */
  book(slug: string): FeedBook | null {
    return this.books.get(slug) ?? null;
  }

  /** Delivers what is pending now (the harness calls it at the end, so nothing is left undelivered). */
  deliver(): void {
    this.scheduled = false;
    const frames = this.frames;
    this.frames = [];
    for (const frame of frames) {
      const converted = orderEventOf(frame);
      if (!converted.ok) {
        this.options.onGap(frame.marketSlug, converted.reason);
        continue;
      }
      const adapted = this.options.adapter.adapt(converted.event);
      if (adapted.kind === 'event') this.options.onOrderEvent(adapted.event);
      else if (adapted.kind === 'gap') this.options.onGap(adapted.marketSlug, adapted.reason);
    }
    if (this.dirty.size === 0) return;
    for (const { slug } of this.options.markets) {
      if (!this.dirty.has(slug)) continue;
      if (this.read(slug)) this.options.onBookChange(slug);
    }
    this.dirty.clear();
  }

  stop(): void {
    this.unsubscribe();
  }

  private wake(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.options.scheduler.schedule(0, () => this.deliver());
  }

  /** Re-reads the market's book; true when its levels changed. */
  private read(slug: string): boolean {
    const snapshot = this.options.engine.book(slug);
    if (snapshot === undefined) return false;
    const last = this.books.get(slug);
    if (last !== undefined && sameLevels(last.snapshot.bids, snapshot.bids) && sameLevels(last.snapshot.asks, snapshot.asks)) return false;
    const minSizeRaw = this.options.markets.find((m) => m.slug === slug)?.minSizeRaw ?? 0;
    let views: FeedBook['views'] = null;
    try {
      const yes = BookState.fromSnapshot({ bids: snapshot.bids, asks: snapshot.asks, adjustedMidpoint: adjustedMidpoint(snapshot, minSizeRaw) });
      views = { yes, no: yes.complement() };
    } catch {
      this.options.onRejectedBook(slug);
    }
    this.books.set(slug, { snapshot, views });
    return true;
  }
}

function sameLevels(a: readonly Level[], b: readonly Level[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.priceTicks !== y.priceTicks || x.sizeRaw !== y.sizeRaw) return false;
  }
  return true;
}
