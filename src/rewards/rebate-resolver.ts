/**
 * Resolves each maker fill's rebate estimate from the public trade feed (`GET /markets/{slug}/events`): the maker's
 * own fill cannot say whether its taker traded the same token or the other one (a complementary match, about
 * p / (1 − p) times less fee on a bid near p = 0.95); the trade of the fill's txHash names the taker's side and token.
 * The corrected estimate (src/strategy/rebates.ts `estimateRebateFromTrade`, source 'trade') replaces the prior's in
 * the ledger once (src/ledger/rebate-resolution-repo.ts).
 *
 * Owns: when the feed is read and how far. Invariants: a pass every `tickMs` (5 s) looks at the ledger; reads are
 * the limiter's lowest class (`read`), only for a market that has pending mined fills, at once for the first and then
 * at most once per `intervalMs` (the venue caches the feed 30 s: reading more often shows nothing new), except the
 * one last read at shutdown; a read takes the newest pages only until they reach
 * before the earliest pending fill (or all pending txHashes are found, or `maxPages`); a row is resolved at most once
 * (the ledger's guard), so a restart neither re-resolves nor double-books; a fill still pending `maxAgeMs` after it
 * was booked keeps the prior's estimate and is counted unmatched; one read in flight at a time; a failed read or write
 * is logged (at most once per interval) and tried again next time, never thrown into the timer; once the stop's last
 * pass ended (`flush`), an answer still in flight is dropped, not written (the ledger closes next).
 */
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { FeeCurve } from '../core/venue-rules/index.js';
import { isTransportClosed } from '../exchange/errors.js';
import type { LedgerStore, PendingRebate } from '../ledger/index.js';
import type { RebateResolutionMetrics } from '../metrics/rebate-resolution-metrics.js';
import { estimateRebateFromTrade } from '../strategy/rebates.js';
import { feedCovers, matchFillsToTrades, type FeedTrade } from './rebate-match.js';

/** The venue caches the trade feed this long (spec: `Cache-Control: max-age=30`). */
export const TRADE_FEED_CACHE_MS = 30_000;
/** The ledger is looked at this often for pending mined fills (no request unless a market is due). */
export const RESOLVER_TICK_MS = 5_000;

/** One page of the trade feed as the resolver needs it (src/exchange/api.ts `getMarketTrades`). */
export interface TradeFeedPage {
  readonly trades: readonly FeedTrade[];
  readonly totalPages: number;
  /** Elements skipped as unreadable, each naming its field and value. */
  readonly skipped: readonly { readonly message: string }[];
}

export type ReadTradeFeed = (slug: string, page: number) => Promise<TradeFeedPage>;

export interface RebateResolverDeps {
  readonly read: ReadTradeFeed;
  readonly ledger: Pick<LedgerStore, 'rebateResolution'>;
  readonly scheduler: Scheduler;
  /** The markets traded now: only their pending fills are read for. */
  readonly markets: () => readonly string[];
  readonly feeCurve: FeeCurve;
  /** How often each market's feed may be read (default TRADE_FEED_CACHE_MS). */
  readonly intervalMs?: number;
  /** A fill still pending this long after it was booked is given up (unmatched). */
  readonly maxAgeMs: number;
  /** At most this many pages per market and read. */
  readonly maxPages: number;
  readonly metrics: RebateResolutionMetrics;
  readonly log: Pick<Logger, 'warn' | 'info'>;
}

export class RebateResolver {
  private cancel: (() => void) | null = null;
  private inFlight: Promise<void> | null = null;
  private readonly lastReadMs = new Map<string, number>();
  private loggedFailAtMs = Number.NEGATIVE_INFINITY;
  private loggedSkip = false;
  /** When the state gauges were last published (a ledger-wide count: at most once per interval unless a row changed). */
  private publishedAtMs = Number.NEGATIVE_INFINITY;
  private changed = true;
  /** Set once the stop's last pass (`flush`) ended, in time or not: a read still in flight then writes nothing. */
  private finished = false;

  constructor(private readonly deps: RebateResolverDeps) {}

  private get intervalMs(): number {
    return this.deps.intervalMs ?? TRADE_FEED_CACHE_MS;
  }

  start(): void {
    if (this.cancel !== null) return;
    const arm = (): void => {
      this.cancel = this.deps.scheduler.schedule(RESOLVER_TICK_MS, () => {
        void this.poll();
        if (this.cancel !== null) arm();
      });
    };
    arm();
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }

  /** One pass: reads the feed of each market whose pending fills are mined and due, resolves, gives up the too old. */
  poll(options: { readonly final?: boolean } = {}): Promise<void> {
    this.inFlight ??= this.pass(options.final === true).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The last pass before the ledger closes (ignores the interval), within `budgetMs`. */
  async flush(budgetMs: number): Promise<void> {
    // One budget for both: a pass still reading a market's trade pages (lowest priority, behind the stop's cancels)
    // is waited for within it, never past it (it once held a stop after its cancels until the shutdown budget ran out).
    let cancel: () => void = () => undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      cancel = this.deps.scheduler.schedule(budgetMs, () => resolve('timeout'));
    });
    try {
      if ((await Promise.race([this.inFlight ?? Promise.resolve(), timeout])) === 'timeout') return;
      await Promise.race([this.poll({ final: true }), timeout]);
    } finally {
      cancel();
      // The ledger closes next: an answer that comes later is dropped, not written (nor warned about).
      this.finished = true;
    }
  }

  private async pass(final: boolean): Promise<void> {
    try {
      const now = this.deps.scheduler.now();
      const bySlug = new Map<string, PendingRebate[]>();
      for (const row of this.deps.ledger.rebateResolution.pending(this.deps.markets())) {
        if (row.txHash === null) continue;
        const list = bySlug.get(row.marketSlug);
        if (list === undefined) bySlug.set(row.marketSlug, [row]);
        else list.push(row);
      }
      for (const [slug, rows] of bySlug) {
        if (!final && now - (this.lastReadMs.get(slug) ?? Number.NEGATIVE_INFINITY) < this.intervalMs) continue;
        this.lastReadMs.set(slug, now);
        const trades = await this.readCovering(slug, rows);
        if (this.finished) return;
        this.resolve(rows, trades);
      }
      const expired = this.deps.ledger.rebateResolution.expire(this.deps.scheduler.now() - this.deps.maxAgeMs, this.deps.scheduler.now());
      this.deps.metrics.rebateResolved('unmatched', 'none', expired);
      if (expired > 0) this.changed = true;
    } catch (error) {
      if (isTransportClosed(error) || this.finished) return;
      const now = this.deps.scheduler.now();
      if (now - this.loggedFailAtMs >= this.intervalMs) {
        this.loggedFailAtMs = now;
        this.deps.log.warn({ err: errorText(error) }, 'rebate resolution: a trade-feed read or ledger write failed; tried again at the next pass');
      }
    } finally {
      if (!this.finished) this.publishStates();
    }
  }

  /** The newest pages of a market's feed, until they reach before the earliest pending fill or hold every txHash. */
  private async readCovering(slug: string, rows: readonly PendingRebate[]): Promise<FeedTrade[]> {
    const earliest = Math.min(...rows.map((r) => r.atMs));
    const wanted = new Set(rows.map((r) => r.txHash));
    const trades: FeedTrade[] = [];
    for (let page = 1; page <= this.deps.maxPages; page += 1) {
      const answer = await this.deps.read(slug, page);
      this.noteSkipped(slug, answer.skipped);
      trades.push(...answer.trades);
      for (const t of answer.trades) wanted.delete(t.txHash);
      const oldest = answer.trades.at(-1)?.createdAtMs;
      if (answer.trades.length === 0 || page >= answer.totalPages || wanted.size === 0 || (oldest !== undefined && feedCovers(oldest, earliest))) break;
    }
    return trades;
  }

  private resolve(rows: readonly PendingRebate[], trades: readonly FeedTrade[]): void {
    const matched = matchFillsToTrades(rows, trades);
    for (const row of rows) {
      const trade = matched.get(row.fillId);
      if (trade === undefined) continue;
      // A rate the fill's report carried (source 'event') is the taker's own: kept, on the taker's notional.
      const reportedTakerFeeBps = row.feeSource === 'event' ? row.takerFeeBps : undefined;
      const estimate = estimateRebateFromTrade(row, trade, row.rebateRate, { curve: this.deps.feeCurve, reportedTakerFeeBps });
      if (estimate?.takerSide == null || estimate.match === null) continue;
      const booked = this.deps.ledger.rebateResolution.resolve({
        fillId: row.fillId,
        takerSide: estimate.takerSide,
        matchKind: estimate.match,
        takerFeeBps: estimate.takerFeeBps,
        takerFeeRaw: estimate.takerFeeRaw,
        rebateRaw: estimate.rebateRaw,
        resolvedAtMs: this.deps.scheduler.now(),
      });
      if (booked) {
        this.deps.metrics.rebateResolved('trade', estimate.match);
        this.changed = true;
      }
    }
  }

  private noteSkipped(slug: string, skipped: TradeFeedPage['skipped']): void {
    if (skipped.length === 0) return;
    this.deps.metrics.tradeFeedSkipped(skipped.length);
    if (this.loggedSkip) return;
    this.loggedSkip = true;
    this.deps.log.warn({ market: slug, skipped: skipped.length, first: skipped[0]?.message }, 'rebate resolution: trade-feed elements failed validation and were skipped (logged once; counted in outcome_maker_trade_feed_skipped_total)');
  }

  private publishStates(): void {
    const now = this.deps.scheduler.now();
    if (!this.changed && now - this.publishedAtMs < this.intervalMs) return;
    this.changed = false;
    this.publishedAtMs = now;
    try {
      this.deps.metrics.rebateStates(this.deps.ledger.rebateResolution.counts());
    } catch {
      // The ledger may be closing; the next pass publishes.
    }
  }
}
