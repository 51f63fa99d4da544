/**
 * The backtest's market feed: the engine's change notifications turned into what the bot's socket feed delivers —
 * the account's order events, taken from the engine as typed events (engine-order-events.ts) and read by the bot's
 * own order-event adapter (src/venue/order-event-adapter.ts) into the executor's order events, and each market's book,
 * as the book store would hold it (src/book/book-state.ts), with a change notice when its levels changed.
 *
 * Owns: the frames, listings and book changes not yet delivered, the markets it publishes books of, and the last
 * delivered book of each. Delivery runs on the clock (a zero-delay timer after the engine command that produced
 * them), never inside an engine command: order events first, in the engine's order, then the markets listed
 * meanwhile (`onMarketListed`, in listing order), then one book change per changed market, in market order.
 *
 * Invariants: only this account's frames are delivered (whatever the market: a market no longer published still
 * has its orders' events delivered); a frame the conversion or the adapter cannot read is a gap (reported, as the
 * bot reports it); a market's book is re-published only when its levels changed, and only while it is published
 * (`addMarket` .. `removeMarket`; its last book is forgotten then); a book that fails the book store's checks is
 * reported and leaves the market without a book until a good one comes.
 */
import { BookState } from '../book/book-state.js';
import type { Scheduler } from '../core/clock.js';
import type { OrderEventInput } from '../orders/order-events.js';
import type { OrderEventAdapter } from '../venue/order-event-adapter.js';
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
  /** The markets published from the start, in order, with the reward minimum size the adjusted midpoint uses. */
  readonly markets: readonly FeedMarket[];
  readonly adapter: OrderEventAdapter;
  readonly onOrderEvent: (event: OrderEventInput) => void;
  /** An order frame of this account that could not be read. */
  readonly onGap: (marketSlug: string | null, reason: string) => void;
  readonly onBookChange: (slug: string) => void;
  /** A book failed the book store's checks. */
  readonly onRejectedBook: (slug: string) => void;
  /** The engine listed a market while running (default: nobody listens). */
  readonly onMarketListed?: (slug: string) => void;
}

/** A published market: its slug and the reward minimum size its adjusted midpoint uses. */
export interface FeedMarket {
  readonly slug: string;
  readonly minSizeRaw: number;
}

export class EngineFeed {
  private frames: OrderEventFrame[] = [];
  private listed: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly books = new Map<string, FeedBook>();
  /** Published markets (slug → reward minimum size), in the order they were added. */
  private readonly markets = new Map<string, number>();
  private scheduled = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: EngineFeedOptions) {
    for (const market of options.markets) this.markets.set(market.slug, market.minSizeRaw);
    this.unsubscribe = options.engine.on({
      marketListed: (slug) => {
        if (options.onMarketListed === undefined) return;
        this.listed.push(slug);
        this.wake();
      },
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
    for (const slug of this.markets.keys()) this.read(slug);
  }

  /** Publishes a market from now on: its current book is read at once (no change notice), then its changes. */
  addMarket(market: FeedMarket): void {
    if (this.markets.has(market.slug)) return;
    this.markets.set(market.slug, market.minSizeRaw);
    this.read(market.slug);
  }

  /** Stops publishing a market's book and forgets it (its orders' events still come). */
  removeMarket(slug: string): void {
    this.markets.delete(slug);
    this.books.delete(slug);
    this.dirty.delete(slug);
  }

  /** How many markets are published. */
  get marketCount(): number {
    return this.markets.size;
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
    const listed = this.listed;
    this.listed = [];
    for (const slug of listed) this.options.onMarketListed?.(slug);
    if (this.dirty.size === 0) return;
    for (const slug of this.markets.keys()) {
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
    const minSizeRaw = this.markets.get(slug) ?? 0;
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
