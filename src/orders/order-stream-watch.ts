/**
 * OrderStreamWatch: notices order events that never came. On every book change of a market it compares the book
 * with the bot's own resting orders (book-check.ts); a shortfall still there `graceMs` later, on the latest book and
 * for orders unchanged all that time (the order event normally follows the book frame within milliseconds, and a
 * new placement shows in the book within one frame), means a fill or cancel the bot was not told about, and the
 * market is resynced at once (its live orders re-read, vanished ones looked up, the ledger caught up) instead of
 * waiting for the periodic ledger check.
 *
 * The bot also sweeps every market once a second (`sweep`): a fill can leave the book exactly as it was before the
 * bot's order appeared in it, and then no book change ever comes.
 *
 * Order events known to be lost (an order frame that failed validation, a settlement frame that is the account's but
 * cannot be attributed: src/venue/order-event-adapter.ts) come in through `reportGap` and resync the market at once,
 * without the grace period: the same resync, with its own shorter cooldown (`gapCooldownMs`).
 *
 * Owns: one grace timer per market and the resync cooldowns. Invariants: at most one resync per market in flight
 * (a gap reported during one runs one more resync after it, since the lost event may postdate its reads); at most one
 * shortfall resync per `cooldownMs` and one gap resync per `gapCooldownMs` (a gap inside the cooldown is deferred to
 * its end, never dropped); a market with a stale or missing book is never judged; nothing runs after stop().
 */
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import { bookShortfalls, type BookLevels, type OwnRestingOrder, type Shortfall } from './book-check.js';
import { getOrInsert } from '../core/maps.js';
import { errorText } from '../core/errors.js';

export interface OrderStreamWatchOptions {
  readonly scheduler: Scheduler;
  /** The bot's open orders in a market (any state: only settled live ones are judged). */
  readonly ownOrders: (slug: string) => readonly OwnRestingOrder[];
  /** The market's fresh YES book; null when missing or stale. */
  readonly book: (slug: string) => BookLevels | null;
  /** Re-reads the market's orders and catches the ledger up. */
  readonly resync: (slug: string) => Promise<void>;
  readonly log: Logger;
  /** Called once per resync started for a shortfall. */
  readonly onGap?: (slug: string, shortfalls: readonly Shortfall[]) => void;
  readonly graceMs?: number;
  readonly cooldownMs?: number;
  /** Minimum time between two resyncs of one market for reported gaps (default 1 s). */
  readonly gapCooldownMs?: number;
  readonly toleranceRaw?: number;
}

interface MarketWatch {
  cancelTimer: (() => void) | null;
  resyncing: boolean;
  lastResyncMs: number;
  /** A gap was reported while a resync ran, or during the gap cooldown: the reason of the resync still owed. */
  gapPending: string | null;
  cancelGapTimer: (() => void) | null;
}

export class OrderStreamWatch {
  private readonly markets = new Map<string, MarketWatch>();
  private stopped = false;
  private readonly graceMs: number;
  private readonly cooldownMs: number;
  private readonly gapCooldownMs: number;
  private readonly toleranceRaw: number;

  constructor(private readonly options: OrderStreamWatchOptions) {
    this.graceMs = options.graceMs ?? 2_000;
    this.cooldownMs = options.cooldownMs ?? 15_000;
    this.gapCooldownMs = options.gapCooldownMs ?? 1_000;
    this.toleranceRaw = options.toleranceRaw ?? 10_000;
  }

  /** A book change in `slug`: starts the grace timer on a shortfall, clears it when the book agrees again. */
  onBook(slug: string): void {
    if (this.stopped) return;
    const watch = this.watchOf(slug);
    if (this.shortfalls(slug, 0).length === 0) {
      watch.cancelTimer?.();
      watch.cancelTimer = null;
      return;
    }
    if (watch.cancelTimer !== null) return;
    watch.cancelTimer = this.options.scheduler.schedule(this.graceMs, () => {
      watch.cancelTimer = null;
      this.confirm(slug, watch);
    });
  }

  /**
   * Judges every market as if its book had changed: a fill that leaves the book as it was before the bot's order
   * showed in it (placement and fill inside one coalesced frame) changes nothing there, so call this periodically.
   */
  sweep(slugs: Iterable<string>): void {
    for (const slug of slugs) this.onBook(slug);
  }

  /**
   * Order events of `slug` were lost or unreadable (`reason` says which): resync the market at once (after the one in
   * flight, or at the end of the gap cooldown).
   */
  reportGap(slug: string, reason: string): void {
    if (this.stopped) return;
    const watch = this.watchOf(slug);
    if (watch.resyncing || watch.cancelGapTimer !== null) {
      watch.gapPending = reason;
      return;
    }
    const waitMs = watch.lastResyncMs + this.gapCooldownMs - this.options.scheduler.now();
    if (waitMs > 0) {
      watch.gapPending = reason;
      watch.cancelGapTimer = this.options.scheduler.schedule(waitMs, () => {
        watch.cancelGapTimer = null;
        this.owedGap(slug, watch);
      });
      return;
    }
    this.runResync(slug, watch, { reason });
  }

  stop(): void {
    this.stopped = true;
    for (const watch of this.markets.values()) {
      watch.cancelTimer?.();
      watch.cancelGapTimer?.();
    }
    this.markets.clear();
  }

  private owedGap(slug: string, watch: MarketWatch): void {
    const reason = watch.gapPending;
    watch.gapPending = null;
    if (reason !== null) this.reportGap(slug, reason);
  }

  private confirm(slug: string, watch: MarketWatch): void {
    if (this.stopped || watch.resyncing) return;
    // Judged again on the latest book, counting only orders unchanged through the whole grace period.
    const shortfalls = this.shortfalls(slug, this.graceMs);
    if (shortfalls.length === 0) return;
    const now = this.options.scheduler.now();
    if (now - watch.lastResyncMs < this.cooldownMs) {
      // Judge again once the cooldown is over (the book may not change in between).
      watch.cancelTimer = this.options.scheduler.schedule(watch.lastResyncMs + this.cooldownMs - now, () => {
        watch.cancelTimer = null;
        this.confirm(slug, watch);
      });
      return;
    }
    this.options.onGap?.(slug, shortfalls);
    this.options.log.warn({ market: slug, shortfalls, graceMs: this.graceMs }, 'the book shows less than the bot\'s own resting orders: order events missing; resyncing the market');
    this.runResync(slug, watch, null);
  }

  private runResync(slug: string, watch: MarketWatch, gap: { readonly reason: string } | null): void {
    watch.resyncing = true;
    watch.lastResyncMs = this.options.scheduler.now();
    if (gap !== null) this.options.log.warn({ market: slug, reason: gap.reason }, 'order events lost or unreadable; resyncing the market at once');
    this.options
      .resync(slug)
      .catch((error: unknown) => this.options.log.warn({ market: slug, err: errorText(error) }, 'resync after missing order events failed'))
      .finally(() => {
        watch.resyncing = false;
        if (!this.stopped && watch.gapPending !== null && watch.cancelGapTimer === null) this.owedGap(slug, watch);
      });
  }

  private shortfalls(slug: string, settledForMs: number): Shortfall[] {
    const book = this.options.book(slug);
    if (book === null) return [];
    return bookShortfalls(this.options.ownOrders(slug), book, {
      nowMs: this.options.scheduler.now(),
      settledForMs,
      toleranceRaw: this.toleranceRaw,
    });
  }

  private watchOf(slug: string): MarketWatch {
    return getOrInsert(this.markets, slug, () => ({
      cancelTimer: null,
      resyncing: false,
      lastResyncMs: Number.NEGATIVE_INFINITY,
      gapPending: null,
      cancelGapTimer: null,
    }));
  }
}
