/**
 * Marks and position gauges: the books' mids into the ledger (its unrealized PnL), and the position, open-order,
 * exposure and PnL gauges, every few seconds and soon after a fill, not on every book update. A fill often comes just
 * before the price moves against it, so the book update that follows a fill marks again. Also what the account (every
 * bot of it) holds beyond this bot's ledger, on each read of its balances: a gauge and a snapshot in the ledger's
 * key-value table that `outcome-maker report --account` reads; never booked.
 *
 * Off the quoting path: a fill or a book update never publishes in its own handling (that would read the ledger's PnL
 * in SQLite between a frame and the requests it causes); it asks for one publish within AFTER_FILL_PUBLISH_MS, and
 * every ask until it runs joins it. Positions are read from the position book in memory; the marks of every market
 * are written in one transaction.
 *
 * Owns: the set of markets with a fill since their last book update, the one publish asked for. Invariants: only mids
 * strictly inside (0, 1) are recorded as marks; every publish ends with a daily-loss check of the kill switch (fresh
 * marks or a fill judge the loss within AFTER_FILL_PUBLISH_MS rather than at its next periodic check); a PnL the
 * ledger cannot compute is logged, never thrown; at most one publish is pending, none after `stop`.
 */
import type { Logger } from 'pino';
import type { CancelTimer, Scheduler } from '../core/clock.js';
import { compareAccount, KV_ACCOUNT_POSITIONS, type LedgerStore, type MarkInput, type VenuePosition } from '../ledger/index.js';
import type { Metrics } from '../metrics/index.js';
import { marketNotionalRaw, type RiskOrder } from '../risk/limits.js';
import { errorText } from '../core/errors.js';

const DAY_MS = 86_400_000;
/** A fill (or the book update after it) publishes within this long, once for every ask in between. */
export const AFTER_FILL_PUBLISH_MS = 1_000;

export interface PositionPublisherOptions {
  readonly ledger: Pick<LedgerStore, 'recordMarks' | 'positionBook' | 'pnl' | 'dailyPnl' | 'tokenBalances' | 'setKv'>;
  /** Where a publish asked for by a fill waits (never run inside the caller's handling). */
  readonly scheduler: Scheduler;
  readonly markets: () => readonly string[];
  /** The market's mid (YES), null without a book. */
  readonly mid: (slug: string) => number | null;
  readonly riskOrders: (slug: string) => RiskOrder[];
  readonly positionCostRaw: (slug: string) => number;
  readonly metrics: Metrics;
  readonly now: () => number;
  /** Judges the daily loss now (the kill switch), from `dailyPnlRaw` when the publish has just read it. */
  readonly checkLoss: (dailyPnlRaw?: number) => void;
  readonly log: Logger;
}

export class PositionPublisher {
  /** Markets with a fill since their last book update: the next update re-marks positions. */
  private readonly markAfterFill = new Set<string>();
  private pending: CancelTimer | null = null;
  private stopped = false;

  constructor(private readonly options: PositionPublisherOptions) {}

  /** A fill booked in `slug`: published soon, and again soon after the market's next book update. */
  filled(slug: string): void {
    this.soon();
    this.markAfterFill.add(slug);
  }

  /** A book update of `slug`. */
  bookChanged(slug: string): void {
    if (this.markAfterFill.delete(slug)) this.soon();
  }

  /** Whether a publish is asked for and not yet run. */
  get publishPending(): boolean {
    return this.pending !== null;
  }

  /** No publish after this (the one pending is dropped). */
  stop(): void {
    this.stopped = true;
    this.pending?.();
    this.pending = null;
  }

  /** One publish within AFTER_FILL_PUBLISH_MS, shared by every ask until it runs. */
  private soon(): void {
    if (this.pending !== null || this.stopped) return;
    this.pending = this.options.scheduler.schedule(AFTER_FILL_PUBLISH_MS, () => {
      this.pending = null;
      if (!this.stopped) this.publish();
    });
  }

  /** A read of the account's balances (the whole account, every bot of it), per traded market. */
  accountRead(positions: readonly VenuePosition[]): void {
    const { ledger, metrics } = this.options;
    for (const row of compareAccount(positions, [ledger.tokenBalances()], new Set(this.options.markets()))) {
      metrics.accountUnbooked(row.marketSlug, row.token, row.unbookedRaw);
    }
    const snapshot = { atMs: this.options.now(), positions: positions.map((p) => ({ marketSlug: p.marketSlug, yesRaw: p.yesRaw, noRaw: p.noRaw })) };
    ledger.setKv(KV_ACCOUNT_POSITIONS, JSON.stringify(snapshot));
  }

  publish(): void {
    const { ledger, metrics } = this.options;
    const now = this.options.now();
    const marks: MarkInput[] = [];
    const slugs = this.options.markets();
    for (const slug of slugs) {
      const mid = this.options.mid(slug);
      if (mid !== null && mid > 0 && mid < 1) marks.push({ marketSlug: slug, mid, atMs: now });
    }
    if (marks.length > 0) ledger.recordMarks(marks);
    for (const slug of slugs) {
      const position = ledger.positionBook.marketPosition(slug);
      metrics.position(slug, position.yesRaw, position.noRaw);
      const orders = this.options.riskOrders(slug);
      metrics.openOrders(slug, orders.length);
      metrics.exposure(slug, marketNotionalRaw(this.options.positionCostRaw(slug), orders));
    }
    let dailyRaw: number | undefined;
    try {
      // Only the traded markets, read for them alone: a market the bot left has its series removed
      // (src/markets/market-roster.ts), and over days of rolling markets the ledger's list only grows.
      const pnl = ledger.pnl({ marketSlugs: slugs });
      for (const market of pnl.markets) metrics.pnl(market.marketSlug, market.realizedRaw, market.unrealizedRaw ?? 0);
      dailyRaw = ledger.dailyPnl(Math.floor(now / DAY_MS) * DAY_MS).totalRaw;
      metrics.dailyPnl(dailyRaw);
    } catch (error) {
      this.options.log.warn({ err: errorText(error) }, 'PnL unavailable');
    }
    // The daily PnL just read, judged as it is (read once per publish, not again by the kill switch).
    this.options.checkLoss(dailyRaw);
  }
}
