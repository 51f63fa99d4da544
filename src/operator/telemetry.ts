/**
 * Telemetry wiring: every component's observer hooks → the Prometheus metrics (src/metrics) and the log.
 *
 * Owns: the translation of component observations into metric calls, in one place, so components stay free of
 * prom-client; and the request tally (requests sent, 429 answers, orders placed) that the run summary reads (`tally()`), counted
 * here and nowhere else. Invariant: a hook never throws into the component (metrics calls are cheap and total).
 */
import type { Logger } from 'pino';
import type { Metrics, RetryReason as MetricRetryReason } from '../metrics/index.js';
import type { TransportObserver } from '../exchange/http.js';
import type { MarketFeedObserver } from '../exchange/socket.js';
import type { BookStoreObserver } from '../book/book-store.js';
import type { ExecutorObserver } from '../orders/executor.js';
import type { TradingModeObserver } from '../orders/trading-mode.js';
import type { LedgerObserver } from '../ledger/index.js';
import type { RunnerObserver } from '../strategy/runner.js';
import type { TrackedOrder } from '../orders/order-record.js';
import { errorText } from '../core/errors.js';
import { isPostOnlyCross } from '../orders/venue-port.js';
import { isTransportClosed } from '../exchange/errors.js';

export interface Telemetry {
  readonly http: TransportObserver;
  readonly feed: MarketFeedObserver;
  readonly books: BookStoreObserver;
  readonly executor: ExecutorObserver;
  readonly mode: TradingModeObserver;
  readonly ledger: LedgerObserver;
  readonly runner: RunnerObserver;
  /** An order's change (the executor's onOrderChange): placed orders counted, the market's open-orders gauge. */
  orderChanged(order: TrackedOrder, previous: TrackedOrder | null, openInMarket: () => number): void;
  /** Requests answered and 429 answers so far (a copy). */
  tally(): RequestTally;
}

export interface RequestTally {
  readonly requests: number;
  readonly rateLimited: number;
  /** Orders the venue accepted (placed) this run. */
  readonly placed: number;
}

const RETRY_REASONS: Readonly<Record<string, MetricRetryReason>> = {
  'receive-window': 'too_early',
  'rate-limited': 'rate_limited',
  'server-error': 'server_error',
};

export function wireTelemetry(metrics: Metrics, log: Logger): Telemetry {
  const counters = { requests: 0, rateLimited: 0, placed: 0 };
  const warnedStrategy = new Set<string>();
  /** Markets whose book was installed by a REST sync at least once, and those whose last snapshot was rejected. */
  const synced = new Set<string>();
  const rejectedBooks = new Set<string>();
  let connectsSeen = 0;
  let sharedFallback = false;
  const loggedSkips = new Set<string>();
  return {
    tally: () => ({ ...counters }),
    orderChanged: (order, previous, openInMarket) => {
      if (previous === null || previous.state === order.state) return;
      const accepted = order.state === 'live' || order.state === 'partially-filled' || order.state === 'filled';
      if (accepted && (previous.state === 'pending-new' || previous.state === 'unknown')) {
        counters.placed += 1;
        metrics.orderPlaced(order.marketSlug, order.side);
      }
      metrics.openOrders(order.marketSlug, openInMarket());
    },
    http: {
      onRequestEnd: (endpoint, status, ms) => {
        counters.requests += 1;
        if (status === 429) counters.rateLimited += 1;
        metrics.httpRequest(endpoint, status, ms);
      },
      onRetry: (endpoint, reason) => metrics.httpRetry(endpoint, RETRY_REASONS[reason] ?? 'server_error'),
      // Counted here, once per answer; not logged here: the caller that gets the error logs it (its message names the
      // endpoint, the field and the value), so a second line would only repeat it.
      onInvalidAnswer: (endpoint) => metrics.invalidAnswer(endpoint),
      // Parts of an answer left out (one bad element never fails the whole answer): counted, and each new path logged.
      onSkippedParts: (endpoint, skipped) => {
        metrics.answerPartsSkipped(endpoint, skipped.length);
        const fresh = skipped.filter((s) => !loggedSkips.has(`${endpoint} ${s.path}`));
        for (const s of fresh) loggedSkips.add(`${endpoint} ${s.path}`);
        if (fresh.length > 0) log.warn({ endpoint, skipped: fresh }, 'venue answer: parts that could not be read were left out (counted in outcome_maker_answer_parts_skipped_total; each path logged once)');
      },
      onQueueDepth: (depth) => metrics.limiterQueueDepth(depth),
      onQueueWait: (_priority, ms) => metrics.limiterWaited(ms),
      // The shared (Redis) limiter: every entry into its fallback share is logged and counted; the return too.
      onSharedLimitState: (state) => {
        if (state.mode === 'fallback' && !sharedFallback) log.warn({ reason: state.reason }, 'shared rate limiter: redis unreachable, using the fallback share');
        if (state.mode === 'shared' && sharedFallback) log.info('shared rate limiter: redis reachable again, shared limit restored');
        if ((state.mode === 'fallback') !== sharedFallback) metrics.sharedLimiterFallback(state.mode === 'fallback');
        sharedFallback = state.mode === 'fallback';
      },
    },
    feed: {
      onStateChange: (state) => {
        metrics.feedConnected(state.status === 'connected');
        // Every connection after the first is a reconnection, whoever dropped the last one.
        if (state.status === 'connected' && state.connects > connectsSeen) {
          if (connectsSeen > 0) metrics.feedReconnected();
          connectsSeen = state.connects;
        }
      },
      onDisconnect: (reason) => log.warn({ reason }, 'feed disconnected'),
      onReconnectRequested: (reason) => log.warn({ reason }, 'feed reconnect requested'),
      onMalformedFrame: (event) => metrics.malformedFrame(event),
      onUnknownEvent: (event) => metrics.malformedFrame(`unknown:${event}`.slice(0, 40)),
    },
    books: {
      onSnapshotApplied: (slug) => metrics.bookUpdated(slug),
      onFetch: (slug, purpose, outcome) => {
        // A REST sync that installed a book, or a probe that found the local book wrong, is a resync.
        if (outcome === 'mismatch') metrics.bookResynced(slug, 'stale');
        if (purpose !== 'sync' || outcome !== 'applied') return;
        metrics.bookResynced(slug, rejectedBooks.delete(slug) ? 'invalid' : synced.has(slug) ? 'reconnect' : 'subscribe');
        synced.add(slug);
      },
      onSnapshotRejected: (slug, _source, error) => {
        rejectedBooks.add(slug);
        metrics.malformedFrame('orderbookUpdate');
        log.warn({ market: slug, err: error.message }, 'order book rejected');
      },
      onFrozenFeed: (slug) => {
        metrics.feedFrozen();
        metrics.bookResynced(slug, 'frozen');
        log.warn({ market: slug }, 'feed frozen: book resynced from REST, reconnecting');
      },
      // Not logged here: the book store logs 'order book stale' / 'order book fresh' itself (one line per event).
    },
    executor: {
      onPlan: (report) => {
        for (let i = 0; i < report.canceled; i += 1) metrics.orderCanceled(report.marketSlug);
        for (let i = 0; i < report.rejected; i += 1) metrics.orderRejected(report.marketSlug, 'venue');
        for (let i = 0; i < report.unknown; i += 1) metrics.orderUnknown(report.marketSlug);
        if (report.aborted) log.warn({ market: report.marketSlug, aborted: report.aborted }, 'plan aborted');
      },
      onIllegalTransition: (error) => log.warn({ err: error.message }, 'illegal order transition ignored'),
      // A request the stopping bot no longer sent (TransportClosedError) is not a failure of the venue.
      onRequestError: (operation, slug, error) => log[isTransportClosed(error) ? 'debug' : isPostOnlyCross(error) ? 'info' : 'warn']({ operation, market: slug, err: errorText(error) }, 'venue request failed'),
      onStrayOrder: (slug, orderId, reason) => log.warn({ market: slug, orderId, reason }, 'stray order of the bot found; canceling'),
      onCancelReplaceUnsupported: () => metrics.venueAnomaly('cancel_replace_unsupported'),
      onBatchPlacementsRefused: () => metrics.venueAnomaly('batch_placements_refused'),
      onDeferredListing: (slug, result) => {
        if (!('report' in result)) return metrics.deferredListing('failed', 0, 0);
        const { adopted, canceled } = result.report;
        metrics.deferredListing(adopted + canceled > 0 ? 'found' : 'clean', adopted, canceled);
        // The ledger did not know them: a new or replaced ledger, or another process with this bot tag.
        if (adopted + canceled > 0) log.warn({ market: slug, adopted, canceled, afterMs: result.delayMs }, 'deferred own-order listing found orders of the bot the ledger did not know');
      },
    },
    mode: {
      onModeChange: (change) => {
        metrics.tradingMode(change.to);
        log.warn({ from: change.from, to: change.to, resumeAt: change.resumeAtMs === null ? null : new Date(change.resumeAtMs).toISOString(), source: change.source }, 'trading mode changed');
      },
      onPollError: (error) => log[isTransportClosed(error) ? 'debug' : 'warn']({ err: errorText(error) }, 'maintenance poll failed'),
      onUnknownMode: (raw, first) => {
        metrics.venueAnomaly('unknown_trading_mode');
        if (first) log.warn({ mode: raw }, 'unknown trading mode from the venue: treated as cancel_only');
      },
      onHold: (action, reason) => {
        if (reason === 'unexplained-425') metrics.venueAnomaly('maintenance_block_425');
        log.warn({ action, reason }, 'venue refused; held until the trading mode allows');
      },
    },
    ledger: {
      // Counted here; logged by the check that found it (src/booking/ledger-sync.ts: a first sighting at info, a
      // persistent one as the WARN). Only a persistent one counts toward the critical alert.
      onMismatch: (mismatch, sighting) => {
        if (sighting === 'persistent') metrics.ledgerMismatch(mismatch.kind);
        else metrics.ledgerMismatchFirstSighting(mismatch.kind);
      },
      onConflict: (conflict) => log.warn({ conflict }, 'ledger conflict'),
    },
    runner: {
      onQuoteCycle: (slug, latencyMs) => metrics.requoted(slug, latencyMs),
      onStrategyError: (slug, error) => {
        metrics.riskBlocked(slug, 'strategy-error');
        if (!warnedStrategy.has(slug)) {
          warnedStrategy.add(slug);
          log.error({ market: slug, err: errorText(error) }, 'strategy threw; no quotes for this market this cycle');
        }
      },
      onCycleError: (slug, error) => {
        metrics.riskBlocked(slug, 'quote-cycle-error');
        log.error({ market: slug, err: errorText(error) }, 'quote cycle failed (gate or submission threw); the next trigger retries');
      },
      onInvalidIntents: (slug, rejected) => {
        metrics.riskBlocked(slug, 'invalid-intent');
        log.warn({ market: slug, rejected: rejected.slice(0, 3).map((r) => `${r.field}: ${r.reason}`) }, 'strategy returned invalid intents (dropped)');
      },
      onDiagnostics: (slug, figures) => {
        const reward = figures['expectedRewardPerDay'];
        if (reward !== undefined && Number.isFinite(reward)) metrics.expectedRewardPerDay(slug, reward);
      },
    },
  };
}
