/**
 * Marks and position gauges: the books' mids into the ledger (its unrealized PnL), and the position, open-order,
 * exposure and PnL gauges, every few seconds and after a fill, not on every book update. A fill often comes just
 * before the price moves against it, so the book update that follows a fill marks again. Also what the account (every
 * bot of it) holds beyond this bot's ledger, on each read of its balances: a gauge and a snapshot in the ledger's
 * key-value table that `outcome-maker report --account` reads; never booked.
 *
 * Owns: the set of markets with a fill since their last book update. Invariants: only mids strictly inside (0, 1)
 * are recorded as marks; every publish ends with a daily-loss check of the kill switch (fresh marks or a fill judge
 * the loss now rather than at its next periodic check); a PnL the ledger cannot compute is logged, never thrown.
 */
import type { Logger } from 'pino';
import { compareAccount, KV_ACCOUNT_POSITIONS, type LedgerStore, type VenuePosition } from '../ledger/index.js';
import type { Metrics } from '../metrics/index.js';
import { marketNotionalRaw, type RiskOrder } from '../risk/limits.js';
import { errorText } from '../core/errors.js';

const DAY_MS = 86_400_000;

export interface PositionPublisherOptions {
  readonly ledger: Pick<LedgerStore, 'recordMark' | 'marketPosition' | 'pnl' | 'dailyPnl' | 'tokenBalances' | 'setKv'>;
  readonly markets: () => readonly string[];
  /** The market's mid (YES), null without a book. */
  readonly mid: (slug: string) => number | null;
  readonly riskOrders: (slug: string) => RiskOrder[];
  readonly positionCostRaw: (slug: string) => number;
  readonly metrics: Metrics;
  readonly now: () => number;
  /** Judges the daily loss now (the kill switch). */
  readonly checkLoss: () => void;
  readonly log: Logger;
}

export class PositionPublisher {
  /** Markets with a fill since their last book update: the next update re-marks positions. */
  private readonly markAfterFill = new Set<string>();

  constructor(private readonly options: PositionPublisherOptions) {}

  /** A fill booked in `slug`: published now, and again on the market's next book update. */
  filled(slug: string): void {
    this.publish();
    this.markAfterFill.add(slug);
  }

  /** A book update of `slug`. */
  bookChanged(slug: string): void {
    if (this.markAfterFill.delete(slug)) this.publish();
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
    for (const slug of this.options.markets()) {
      const mid = this.options.mid(slug);
      if (mid !== null && mid > 0 && mid < 1) ledger.recordMark({ marketSlug: slug, mid, atMs: now });
      const position = ledger.marketPosition(slug);
      metrics.position(slug, position.yesRaw, position.noRaw);
      const orders = this.options.riskOrders(slug);
      metrics.openOrders(slug, orders.length);
      metrics.exposure(slug, marketNotionalRaw(this.options.positionCostRaw(slug), orders));
    }
    try {
      const pnl = ledger.pnl();
      // Only the traded markets: a market the bot left has its series removed (src/markets/market-roster.ts), and over days
      // of rolling markets the ledger's list only grows.
      const traded = new Set(this.options.markets());
      for (const market of pnl.markets) if (traded.has(market.marketSlug)) metrics.pnl(market.marketSlug, market.realizedRaw, market.unrealizedRaw ?? 0);
      metrics.dailyPnl(ledger.dailyPnl(Math.floor(now / DAY_MS) * DAY_MS).totalRaw);
    } catch (error) {
      this.options.log.warn({ err: errorText(error) }, 'PnL unavailable');
    }
    this.options.checkLoss();
  }
}
