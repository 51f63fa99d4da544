/**
 * Every Prometheus metric of the bot, in one place, on an injected prom-client Registry: `createMetrics` registers
 * them and implements the `Metrics` interface (metrics-port.ts). The names are listed in metric-names.ts, the label
 * values and their bound in metric-labels.ts; this module re-exports what callers use of them.
 *
 * Owns: metric names (all `outcome_maker_…`, listed in METRIC_NAMES), help texts, label sets, buckets and
 * the conversion from the bot's exact units (raw 1e6 integers, milliseconds) to Prometheus base units
 * (shares, USDC, seconds). Callers use the typed `Metrics` methods and never see a metric name.
 * Invariants: label values are bounded (each label keeps at most a fixed number of distinct values; the
 * rest are counted as `other`), so a bad caller cannot explode the series count; nothing here throws on a
 * bad number: a non-finite observation (or a negative counter increment) is dropped and counted in
 * `outcome_maker_metric_rejections_total`. Anomaly counters whose label values are known up front (malformed
 * frames by event, invalid venue answers by endpoint, ledger mismatches by kind, kill-switch trips by reason,
 * rejections by metric) start at 0, so `increase()` alerts see their first event.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { TRADING_MODES } from '../core/trading-mode.js';
import { RAW_PER_UNIT } from '../core/venue-rules/index.js';
import { API_ENDPOINT_LABELS } from '../exchange/endpoints.js';
import { BoundedLabel, FEED_EVENTS, KILL_REASONS, MARKOUT_HORIZON_LABELS, MARKOUT_MISSING_REASONS, ORDER_EVENT_GAP_CAUSES, REDEMPTION_RESULTS, RESYNC_REASONS, VENUE_ANOMALIES } from './metric-labels.js';
import { DROPPED_DEFAULT_METRICS, VALIDATED_METRICS } from './metric-names.js';
import { createCalibrationMetrics } from './calibration-metrics.js';
import { createCapitalMetrics } from './capital-metrics.js';
import { createLoopMetrics } from './loop-metrics.js';
import { createReconciliationMetrics } from './reconciliation-metrics.js';
import { createLedgerCheckMetrics } from './ledger-check-metrics.js';
import { createRebateResolutionMetrics } from './rebate-resolution-metrics.js';
import { createQuotingMetrics } from './quoting-metrics.js';
import type { Metrics } from './metrics-port.js';

export { DROPPED_DEFAULT_METRICS, METRIC_NAMES, METRIC_PREFIX, type MetricName } from './metric-names.js';
export type {
  FeedEvent,
  HttpStatus,
  MarkoutReferenceLabel,
  OrderEventGapCause,
  OrderSide,
  OrderToken,
  RedemptionResult,
  ResyncReason,
  RetryReason,
  VenueAnomaly,
} from './metric-labels.js';
export type { Metrics } from './metrics-port.js';

/** Per-fill markouts, USDC: a few cents either way is typical for a 5–50 share fill; whole dollars are news. */
const MARKOUT_BUCKETS = [-5, -2, -1, -0.5, -0.2, -0.1, -0.05, -0.02, -0.01, -0.005, 0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5];

export interface CreateMetricsOptions {
  readonly registry: Registry;
  /** Clock for book ages, ms since epoch (default Date.now). */
  readonly now?: () => number;
  /** Also register Node's default process metrics (default true). */
  readonly collectDefault?: boolean;
  /** Reported in outcome_maker_build_info{version}. */
  readonly version?: string;
  /** Reported in outcome_maker_build_info{code}: which form of the code runs (src/core/package-info.ts `runningCode`). */
  readonly code?: string;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const HTTP_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const WAIT_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.3, 0.6, 1, 2.5, 5, 10, 30, 60];

export function createMetrics(options: CreateMetricsOptions): Metrics {
  const registry = options.registry;
  const now = options.now ?? Date.now;
  const registers = [registry];
  if (options.collectDefault ?? true) {
    collectDefaultMetrics({ register: registry });
    for (const name of DROPPED_DEFAULT_METRICS) registry.removeSingleMetric(name);
  }

  const markets = new BoundedLabel(500);
  const endpoints = new BoundedLabel(64);
  /** Its own bound: the endpoints pre-set at 0 below must not use up the HTTP metrics' label budget. */
  const answerEndpoints = new BoundedLabel(64);
  const reasons = new BoundedLabel(64);
  const statuses = new BoundedLabel(64);
  const bookUpdatedAt = new Map<string, number>();

  const buildInfo = new Gauge({
    name: 'outcome_maker_build_info',
    help: 'Always 1; the labels say which build runs: its version, and its code (source, compiled or bundle).',
    labelNames: ['version', 'code'] as const,
    registers,
  });
  buildInfo.set({ version: options.version ?? 'unknown', code: options.code ?? 'unknown' }, 1);
  const rejections = new Counter({
    name: 'outcome_maker_metric_rejections_total',
    help: 'Observations dropped because their value was not a finite number (or a negative counter increment).',
    labelNames: ['metric'] as const,
    registers,
  });

  const bookUpdates = new Counter({ name: 'outcome_maker_book_updates_total', help: 'Order-book frames and snapshots applied.', labelNames: ['market'] as const, registers });
  const bookAge = new Gauge({
    name: 'outcome_maker_book_age_seconds',
    help: 'Seconds since the market\'s book was last updated (at scrape time).',
    labelNames: ['market'] as const,
    registers,
    collect() {
      const at = now();
      for (const [market, updated] of bookUpdatedAt) bookAge.set({ market }, Math.max(0, (at - updated) / 1000));
    },
  });
  const bookResyncs = new Counter({
    name: 'outcome_maker_book_resyncs_total',
    help: 'Book resynchronisations (resubscribe + REST snapshot), by reason.',
    labelNames: ['market', 'reason'] as const,
    registers,
  });
  const feedConnected = new Gauge({ name: 'outcome_maker_feed_connected', help: '1 while the market feed socket is connected.', registers });
  feedConnected.set(0);
  const feedReconnects = new Counter({ name: 'outcome_maker_feed_reconnects_total', help: 'Market feed reconnections.', registers });
  const feedFrozen = new Counter({ name: 'outcome_maker_feed_frozen_total', help: 'Times the watchdog found the feed silent while connected.', registers });
  const malformed = new Counter({
    name: 'outcome_maker_feed_malformed_frames_total',
    help: 'Feed frames rejected by validation, by event name.',
    labelNames: ['event'] as const,
    registers,
  });
  const requotes = new Counter({ name: 'outcome_maker_requotes_total', help: 'Requotes (strategy run and plan made).', labelNames: ['market'] as const, registers });
  const requoteLatency = new Histogram({
    name: 'outcome_maker_requote_latency_seconds',
    help: 'Time from a book change to the order plan.',
    labelNames: ['market'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const venueAnomalies = new Counter({
    name: 'outcome_maker_venue_anomalies_total',
    help: 'Venue behaviour worked around: unknown trading-mode strings, 425 without a trading-mode body, cancel-replace not offered.',
    labelNames: ['kind'] as const,
    registers,
  });
  for (const kind of VENUE_ANOMALIES) venueAnomalies.inc({ kind }, 0);
  const deferredListings = new Counter({
    name: 'outcome_maker_deferred_listings_total',
    help: 'Own-order listings run after a market started quoting (orders.startupListing: deferred): clean, found (orders of the bot the ledger did not know), failed (an attempt; retried).',
    labelNames: ['result'] as const,
    registers,
  });
  const deferredListingOrders = new Counter({
    name: 'outcome_maker_deferred_listing_orders_total',
    help: 'Orders of the bot the ledger did not know, found by a deferred own-order listing: adopted, or canceled (duplicate, slot taken, other market).',
    labelNames: ['action'] as const,
    registers,
  });
  for (const result of ['clean', 'found', 'failed'] as const) deferredListings.inc({ result }, 0);
  for (const action of ['adopted', 'canceled'] as const) deferredListingOrders.inc({ action }, 0);
  const riskBlocks = new Counter({
    name: 'outcome_maker_risk_blocks_total',
    help: 'Quotes or orders stopped by the risk gate or the trading mode, by reason.',
    labelNames: ['market', 'reason'] as const,
    registers,
  });
  const httpRequests = new Counter({
    name: 'outcome_maker_http_requests_total',
    help: 'HTTP attempts to the venue, by endpoint and status (a code, timeout or network).',
    labelNames: ['endpoint', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'outcome_maker_http_request_duration_seconds',
    help: 'Duration of HTTP attempts to the venue.',
    labelNames: ['endpoint', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const httpRetries = new Counter({
    name: 'outcome_maker_http_retries_total',
    help: 'HTTP retries, by endpoint and reason (too_early = 425, rate_limited = 429, server_error = 5xx).',
    labelNames: ['endpoint', 'reason'] as const,
    registers,
  });
  const invalidAnswers = new Counter({
    name: 'outcome_maker_invalid_answers_total',
    help: 'Venue answers with a 2xx status refused by validation (not JSON, or a field out of its schema), by endpoint.',
    labelNames: ['endpoint'] as const,
    registers,
  });
  const skippedParts = new Counter({
    name: 'outcome_maker_answer_parts_skipped_total',
    help: 'Parts of valid venue answers left out because they could not be read (a list element, a figure, a position whose market has no slug and matches no known market), by endpoint.',
    labelNames: ['endpoint'] as const,
    registers,
  });
  const queueDepth = new Gauge({ name: 'outcome_maker_limiter_queue_depth', help: 'Requests waiting in the rate limiter.', registers });
  queueDepth.set(0);
  const limiterWait = new Histogram({
    name: 'outcome_maker_limiter_wait_seconds',
    help: 'Time requests waited in the rate limiter before starting.',
    buckets: WAIT_BUCKETS,
    registers,
  });
  const sharedFallback = new Gauge({
    name: 'outcome_maker_shared_limiter_fallback',
    help: '1 while the shared rate limiter cannot reach Redis and uses its fallback share of the budget, else 0.',
    registers,
  });
  sharedFallback.set(0);
  const sharedFallbacks = new Counter({ name: 'outcome_maker_shared_limiter_fallbacks_total', help: 'Times the shared rate limiter fell back to its local share (Redis unreachable).', registers });
  sharedFallbacks.inc(0);
  const ordersPlaced = new Counter({ name: 'outcome_maker_orders_placed_total', help: 'Orders accepted by the venue.', labelNames: ['market', 'side'] as const, registers });
  const ordersCanceled = new Counter({ name: 'outcome_maker_orders_canceled_total', help: 'Orders canceled.', labelNames: ['market'] as const, registers });
  const ordersRejected = new Counter({
    name: 'outcome_maker_orders_rejected_total',
    help: 'Orders rejected by the venue, by reason.',
    labelNames: ['market', 'reason'] as const,
    registers,
  });
  const ordersUnknown = new Counter({
    name: 'outcome_maker_orders_unknown_total',
    help: 'Placements or cancels whose outcome was unknown (timeout, 5xx, disconnect).',
    labelNames: ['market'] as const,
    registers,
  });
  const openOrders = new Gauge({ name: 'outcome_maker_open_orders', help: 'Orders of the bot live on the book.', labelNames: ['market'] as const, registers });
  // side × token: a BUY of NO (the bot's ask, in YES terms) and a BUY of YES (its bid) are different fills.
  const fillLabels = ['market', 'side', 'token'] as const;
  const fills = new Counter({ name: 'outcome_maker_fills_total', help: 'Fills of the bot\'s orders, by side and token (YES or NO).', labelNames: fillLabels, registers });
  const fillShares = new Counter({ name: 'outcome_maker_fill_volume_shares_total', help: 'Shares filled, by side and token (YES or NO).', labelNames: fillLabels, registers });
  const fillUsdc = new Counter({ name: 'outcome_maker_fill_notional_usdc_total', help: 'USDC value of fills, by side and token (YES or NO).', labelNames: fillLabels, registers });
  const position = new Gauge({ name: 'outcome_maker_position_shares', help: 'Shares held, by token (YES or NO).', labelNames: ['market', 'token'] as const, registers });
  const pnl = new Gauge({ name: 'outcome_maker_pnl_usdc', help: 'Profit and loss in USDC, realized or unrealized.', labelNames: ['market', 'kind'] as const, registers });
  const dailyPnl = new Gauge({ name: 'outcome_maker_daily_pnl_usdc', help: 'Realized + unrealized PnL since 00:00 UTC, all markets, USDC.', registers });
  const exposure = new Gauge({ name: 'outcome_maker_exposure_usdc', help: 'USDC at risk (position cost + open and unknown BUY collateral).', labelNames: ['market'] as const, registers });
  const tradingMode = new Gauge({
    name: 'outcome_maker_trading_mode',
    help: 'Venue trading mode: 1 on the current mode, 0 on the others.',
    labelNames: ['mode'] as const,
    registers,
  });
  const killEngaged = new Gauge({ name: 'outcome_maker_kill_switch_engaged', help: '1 while the kill switch has paused quoting.', registers });
  killEngaged.set(0);
  const killTrips = new Counter({ name: 'outcome_maker_kill_switch_trips_total', help: 'Kill switch engagements, by reason.', labelNames: ['reason'] as const, registers });
  const expectedReward = new Gauge({
    name: 'outcome_maker_expected_reward_usdc_per_day',
    help: 'Liquidity reward the current quotes are expected to earn, USDC per day.',
    labelNames: ['market'] as const,
    registers,
  });
  const redemptions = new Counter({
    name: 'outcome_maker_redemptions_total',
    help: 'Redemption steps for resolved markets, by result (redeemed, inferred, nothing, retry, refused, failed).',
    labelNames: ['result'] as const,
    registers,
  });
  const redeemedUsdc = new Counter({ name: 'outcome_maker_redeemed_usdc_total', help: 'USDC payouts of resolved markets recorded in the ledger.', labelNames: ['market'] as const, registers });
  const feedAuthFailures = new Counter({
    name: 'outcome_maker_feed_auth_failures_total',
    help: 'Times the venue refused the socket\'s authentication (no order events); markets halted until it is accepted.',
    registers,
  });
  const restAuthRefusals = new Counter({
    name: 'outcome_maker_rest_auth_refusals_total',
    help: 'REST answers 401 or 403 (credentials refused); at risk.maxAuthRefusals in a row placements stop (kill switch, reason credentials).',
    registers,
  });
  const bookTokenMismatches = new Counter({
    name: 'outcome_maker_book_token_mismatches_total',
    help: 'Books rejected because their tokenId is not the market\'s YES token, by source (feed, rest).',
    labelNames: ['source'] as const,
    registers,
  });
  const feedUnitSwitches = new Counter({
    name: 'outcome_maker_feed_unit_switches_total',
    help: 'Times the socket\'s unit (bookSize, amounts) was found to differ from the one assumed and switched.',
    labelNames: ['what'] as const,
    registers,
  });
  const orderEventGaps = new Counter({
    name: 'outcome_maker_order_event_gaps_total',
    help: 'Order events lost, the market(s) resynced, by cause: book-shortfall (the book showed less than the bot\'s own resting orders past the grace period), unreadable (an order frame failed validation), unattributable (the account\'s frame could not be turned into fills).',
    labelNames: ['cause'] as const,
    registers,
  });
  const redemptionsPending = new Gauge({ name: 'outcome_maker_redemptions_pending', help: 'Resolved markets whose winnings are not yet redeemed and recorded.', registers });
  const foreignOrders = new Gauge({
    name: 'outcome_maker_foreign_orders',
    help: 'Live orders in a traded market that are not this bot\'s (another bot tag or no clientOrderId): left alone unless orders.foreignOrders is cancel.',
    labelNames: ['market'] as const,
    registers,
  });
  const accountUnbooked = new Gauge({
    name: 'outcome_maker_account_unbooked_shares',
    help: 'Account token balance minus this bot\'s ledger balance, by token: held by other bots of the account (reported, never booked).',
    labelNames: ['market', 'token'] as const,
    registers,
  });
  const modelFair = new Gauge({ name: 'outcome_maker_model_fair', help: 'The model\'s fair value of a priced market (probability of YES) at its last quote.', labelNames: ['market'] as const, registers });
  const modelUncertainty = new Gauge({ name: 'outcome_maker_model_uncertainty', help: 'One standard deviation of the model\'s fair value error, price units.', labelNames: ['market'] as const, registers });
  const quotedFrom = new Gauge({ name: 'outcome_maker_quoted_from', help: '1 for where a market\'s last quote took its reference: model, book or halted.', labelNames: ['market', 'source'] as const, registers });
  const unpriced = new Gauge({ name: 'outcome_maker_unpriced_markets', help: 'Traded markets the model cannot price, by reason.', labelNames: ['reason'] as const, registers });
  const underlyingPrice = new Gauge({ name: 'outcome_maker_underlying_price', help: 'Latest validated price of an underlying, USD, by source.', labelNames: ['ticker', 'source'] as const, registers });
  const underlyingAge = new Gauge({ name: 'outcome_maker_underlying_age_seconds', help: 'Age of the latest price of an underlying from a source, seconds.', labelNames: ['ticker', 'source'] as const, registers });
  const underlyingUpdates = new Counter({ name: 'outcome_maker_underlying_updates_total', help: 'Validated underlying prices received, by ticker and source.', labelNames: ['ticker', 'source'] as const, registers });
  const underlyingRefusals = new Counter({ name: 'outcome_maker_underlying_refusals_total', help: 'Underlying prices refused (never priced), by source and reason.', labelNames: ['source', 'reason'] as const, registers });
  const underlyingDivergence = new Gauge({ name: 'outcome_maker_underlying_divergence_bps', help: 'Distance between two sources of one underlying, basis points.', labelNames: ['ticker'] as const, registers });
  const fastMarketTrips = new Counter({ name: 'outcome_maker_fast_market_trips_total', help: 'Fast-market guard trips (quotes on the underlying pulled), by ticker.', labelNames: ['ticker'] as const, registers });
  const settlementChecks = new Counter({ name: 'outcome_maker_settlement_checks_total', help: 'Resolutions compared with the price the bot held: agree, disagree, too-close, no-price.', labelNames: ['result'] as const, registers });
  const underlyingExposure = new Gauge({ name: 'outcome_maker_underlying_exposure', help: 'Exposure to an underlying (Σ net YES × delta over its markets): unit=underlying (units of it) or usdc (notional).', labelNames: ['ticker', 'unit'] as const, registers });
  const surfaceVol = new Gauge({ name: 'outcome_maker_surface_volatility', help: 'Annualized volatility of an underlying to one settlement (expiry, ISO-8601), by part: realized, implied (the ladder\'s books), blended (priced with).', labelNames: ['ticker', 'expiry', 'part'] as const, registers });
  const tickers = new BoundedLabel(64);
  const fillMarkouts = new Histogram({
    name: 'outcome_maker_fill_markout_usdc',
    help: 'Per-fill markout in USDC (positive: the price moved in the fill\'s favour), by horizon (0s is the edge at fill time) and reference (mid: book mid without own orders; model: the fair value).',
    labelNames: ['horizon', 'reference'] as const,
    buckets: MARKOUT_BUCKETS,
    registers,
  });
  const fillMarkoutsMissing = new Counter({
    name: 'outcome_maker_fill_markouts_missing_total',
    help: 'Fill markouts recorded as missing (never guessed), by horizon, reference and reason (bot-down, late, no-reference, overflow).',
    labelNames: ['horizon', 'reference', 'reason'] as const,
    registers,
  });
  const markoutHorizon = (horizonMs: number): string => MARKOUT_HORIZON_LABELS.get(horizonMs) ?? 'other';
  for (const horizon of MARKOUT_HORIZON_LABELS.values()) {
    for (const reference of ['mid', 'model'] as const) for (const reason of MARKOUT_MISSING_REASONS) fillMarkoutsMissing.inc({ horizon, reference, reason }, 0);
  }
  for (const source of ['hermes', 'venue'] as const) for (const reason of ['malformed', 'non-finite', 'non-positive', 'future-dated', 'out-of-order']) underlyingRefusals.inc({ source, reason }, 0);
  for (const result of ['agree', 'disagree', 'too-close', 'no-price']) settlementChecks.inc({ result }, 0);
  for (const mode of TRADING_MODES) tradingMode.set({ mode }, mode === 'normal' ? 1 : 0);
  // Anomaly counters start at 0 for every label value known up front: a series that first appears at 1 is
  // invisible to `increase()`/`rate()`, so the alert on the first malformed frame or mismatch would never fire.
  for (const event of FEED_EVENTS) malformed.inc({ event }, 0);
  for (const endpoint of API_ENDPOINT_LABELS) invalidAnswers.inc({ endpoint: answerEndpoints.value(endpoint) }, 0);
  skippedParts.inc({ endpoint: answerEndpoints.value('GET /portfolio/positions') }, 0);
  skippedParts.inc({ endpoint: answerEndpoints.value('GET /portfolio/history') }, 0);
  for (const metric of VALIDATED_METRICS) rejections.inc({ metric }, 0);
  for (const reason of KILL_REASONS) killTrips.inc({ reason: reasons.value(reason) }, 0);
  for (const result of REDEMPTION_RESULTS) redemptions.inc({ result }, 0);
  for (const cause of ORDER_EVENT_GAP_CAUSES) orderEventGaps.inc({ cause }, 0);
  for (const source of ['feed', 'rest'] as const) bookTokenMismatches.inc({ source }, 0);
  for (const what of ['bookSize', 'amounts'] as const) feedUnitSwitches.inc({ what }, 0);
  redemptionsPending.set(0);

  const finite = (metric: string, value: number): boolean => {
    if (Number.isFinite(value)) return true;
    rejections.inc({ metric });
    return false;
  };
  /** A counter increment must be finite and not negative (prom-client throws on a decrease). */
  const countable = (metric: string, value: number): boolean => {
    if (Number.isFinite(value) && value >= 0) return true;
    rejections.inc({ metric });
    return false;
  };
  const rewardEstimate = new Counter({ name: 'outcome_maker_reward_estimate_usdc_total', help: 'Liquidity rewards ESTIMATED into the ledger (the bot\'s share of each minute\'s pool), USDC.', labelNames: ['market'] as const, registers });
  const rewardShare = new Gauge({ name: 'outcome_maker_reward_share', help: 'The bot\'s estimated share of the last scored minute\'s reward pool (0..1).', labelNames: ['market'] as const, registers });
  const rebateEstimate = new Counter({ name: 'outcome_maker_rebate_estimate_usdc_total', help: 'Maker rebates ESTIMATED into the ledger (taker fee × rebate rate per maker fill), USDC.', labelNames: ['market'] as const, registers });
  const venueRewards = new Gauge({ name: 'outcome_maker_venue_rewards_usdc', help: 'Today\'s rewards as the venue reports them (market "*": the account total), USDC.', labelNames: ['market'] as const, registers });
  const usdc = (raw: number): number => raw / RAW_PER_UNIT;
  let killed = false;

  /** Every per-market series, as remove() needs the full label set of each. */
  const forgetSeries = (market: string): void => {
    for (const metric of [bookUpdates, bookAge, requotes, ordersCanceled, ordersUnknown, openOrders, exposure, expectedReward, redeemedUsdc, foreignOrders, modelFair, modelUncertainty, rewardEstimate, rewardShare, rebateEstimate, venueRewards]) metric.remove({ market });
    for (const source of ['model', 'book', 'halted'] as const) quotedFrom.remove({ market, source });
    for (const token of ['YES', 'NO'] as const) accountUnbooked.remove({ market, token });
    requoteLatency.remove({ market });
    for (const side of ['BUY', 'SELL'] as const) {
      ordersPlaced.remove({ market, side });
      for (const token of ['YES', 'NO'] as const) for (const metric of [fills, fillShares, fillUsdc]) metric.remove({ market, side, token });
    }
    for (const token of ['YES', 'NO'] as const) position.remove({ market, token });
    for (const kind of ['realized', 'unrealized'] as const) pnl.remove({ market, kind });
    for (const reason of RESYNC_REASONS) bookResyncs.remove({ market, reason });
    for (const reason of reasons.values()) {
      riskBlocks.remove({ market, reason });
      ordersRejected.remove({ market, reason });
    }
  };

  return {
    ...createCalibrationMetrics(registers, countable),
    ...createCapitalMetrics(registers),
    ...createReconciliationMetrics(registers, (market) => markets.value(market), finite),
    ...createLedgerCheckMetrics(registers, (kind) => reasons.value(kind)),
    ...createRebateResolutionMetrics(registers),
    ...createQuotingMetrics(registers),
    ...createLoopMetrics(registers),
    registry,
    bookUpdated(market) {
      const label = markets.value(market);
      bookUpdates.inc({ market: label });
      bookUpdatedAt.set(label, now());
    },
    bookResynced(market, reason) {
      bookResyncs.inc({ market: markets.value(market), reason });
    },
    forgetMarket(market) {
      bookUpdatedAt.delete(market);
      forgetSeries(market);
      markets.forget(market);
    },
    feedConnected(connected) {
      feedConnected.set(connected ? 1 : 0);
    },
    feedReconnected() {
      feedReconnects.inc();
    },
    feedFrozen() {
      feedFrozen.inc();
    },
    malformedFrame(event) {
      const known = FEED_EVENTS.find((name) => name === event);
      malformed.inc({ event: known ?? 'other' });
    },
    requoted(market, latencyMs) {
      const label = markets.value(market);
      requotes.inc({ market: label });
      if (finite('outcome_maker_requote_latency_seconds', latencyMs)) requoteLatency.observe({ market: label }, Math.max(0, latencyMs) / 1000);
    },
    venueAnomaly(kind) {
      venueAnomalies.inc({ kind });
    },
    deferredListing(result, adopted, canceled) {
      deferredListings.inc({ result });
      if (countable('outcome_maker_deferred_listing_orders_total', adopted) && adopted > 0) deferredListingOrders.inc({ action: 'adopted' }, adopted);
      if (countable('outcome_maker_deferred_listing_orders_total', canceled) && canceled > 0) deferredListingOrders.inc({ action: 'canceled' }, canceled);
    },
    riskBlocked(market, reason) {
      riskBlocks.inc({ market: markets.value(market), reason: reasons.value(reason) });
    },
    httpRequest(endpoint, status, durationMs) {
      const labels = { endpoint: endpoints.value(endpoint), status: statuses.value(String(status)) };
      httpRequests.inc(labels);
      if (finite('outcome_maker_http_request_duration_seconds', durationMs)) httpDuration.observe(labels, Math.max(0, durationMs) / 1000);
    },
    httpRetry(endpoint, reason) {
      httpRetries.inc({ endpoint: endpoints.value(endpoint), reason });
    },
    invalidAnswer(endpoint) {
      invalidAnswers.inc({ endpoint: answerEndpoints.value(endpoint) });
    },
    answerPartsSkipped(endpoint, count) {
      if (count > 0) skippedParts.inc({ endpoint: answerEndpoints.value(endpoint) }, count);
    },
    limiterQueueDepth(depth) {
      if (finite('outcome_maker_limiter_queue_depth', depth)) queueDepth.set(depth);
    },
    limiterWaited(waitMs) {
      if (finite('outcome_maker_limiter_wait_seconds', waitMs)) limiterWait.observe(Math.max(0, waitMs) / 1000);
    },
    sharedLimiterFallback(active) {
      if (active) sharedFallbacks.inc();
      sharedFallback.set(active ? 1 : 0);
    },
    orderPlaced(market, side) {
      ordersPlaced.inc({ market: markets.value(market), side });
    },
    orderCanceled(market) {
      ordersCanceled.inc({ market: markets.value(market) });
    },
    orderRejected(market, reason) {
      ordersRejected.inc({ market: markets.value(market), reason: reasons.value(reason) });
    },
    orderUnknown(market) {
      ordersUnknown.inc({ market: markets.value(market) });
    },
    openOrders(market, count) {
      if (finite('outcome_maker_open_orders', count)) openOrders.set({ market: markets.value(market) }, count);
    },
    fill(market, side, token, sizeRaw, notionalRaw) {
      const labels = { market: markets.value(market), side, token };
      fills.inc(labels);
      if (countable('outcome_maker_fill_volume_shares_total', sizeRaw)) fillShares.inc(labels, sizeRaw / RAW_PER_UNIT);
      if (countable('outcome_maker_fill_notional_usdc_total', notionalRaw)) fillUsdc.inc(labels, usdc(notionalRaw));
    },
    position(market, yesRaw, noRaw) {
      const label = markets.value(market);
      if (finite('outcome_maker_position_shares', yesRaw)) position.set({ market: label, token: 'YES' }, yesRaw / RAW_PER_UNIT);
      if (finite('outcome_maker_position_shares', noRaw)) position.set({ market: label, token: 'NO' }, noRaw / RAW_PER_UNIT);
    },
    pnl(market, realizedRaw, unrealizedRaw) {
      const label = markets.value(market);
      if (finite('outcome_maker_pnl_usdc', realizedRaw)) pnl.set({ market: label, kind: 'realized' }, usdc(realizedRaw));
      if (finite('outcome_maker_pnl_usdc', unrealizedRaw)) pnl.set({ market: label, kind: 'unrealized' }, usdc(unrealizedRaw));
    },
    dailyPnl(totalRaw) {
      if (finite('outcome_maker_daily_pnl_usdc', totalRaw)) dailyPnl.set(usdc(totalRaw));
    },
    exposure(market, notionalRaw) {
      if (finite('outcome_maker_exposure_usdc', notionalRaw)) exposure.set({ market: markets.value(market) }, usdc(notionalRaw));
    },
    tradingMode(mode) {
      for (const name of TRADING_MODES) tradingMode.set({ mode: name }, name === mode ? 1 : 0);
    },
    killSwitch(engaged, reason) {
      if (engaged && !killed) killTrips.inc({ reason: reasons.value(reason ?? 'unspecified') });
      killed = engaged;
      killEngaged.set(engaged ? 1 : 0);
    },
    expectedRewardPerDay(market, usdcPerDay) {
      if (finite('outcome_maker_expected_reward_usdc_per_day', usdcPerDay)) expectedReward.set({ market: markets.value(market) }, usdcPerDay);
    },
    redemption(market, result, amountRaw) {
      redemptions.inc({ result });
      if (amountRaw !== undefined && countable('outcome_maker_redeemed_usdc_total', amountRaw)) redeemedUsdc.inc({ market: markets.value(market) }, usdc(amountRaw));
    },
    feedAuthFailure() {
      feedAuthFailures.inc();
    },
    restAuthRefused() {
      restAuthRefusals.inc();
    },
    bookTokenMismatch(source) {
      bookTokenMismatches.inc({ source });
    },
    feedUnitSwitch(what) {
      feedUnitSwitches.inc({ what });
    },
    orderEventGap(cause = 'book-shortfall') {
      orderEventGaps.inc({ cause });
    },
    redemptionsPending(count) {
      if (countable('outcome_maker_redemptions_pending', count)) redemptionsPending.set(count);
    },
    foreignOrders(market, count) {
      if (countable('outcome_maker_foreign_orders', count)) foreignOrders.set({ market: markets.value(market) }, count);
    },
    accountUnbooked(market, token, raw) {
      if (finite('outcome_maker_account_unbooked_shares', raw)) accountUnbooked.set({ market: markets.value(market), token }, raw / RAW_PER_UNIT);
    },
    modelFair(market, fair, uncertainty) {
      const labels = { market: markets.value(market) };
      if (finite('outcome_maker_model_fair', fair)) modelFair.set(labels, fair);
      if (finite('outcome_maker_model_uncertainty', uncertainty)) modelUncertainty.set(labels, uncertainty);
    },
    quotedFrom(market, source) {
      const m = markets.value(market);
      for (const s of ['model', 'book', 'halted'] as const) quotedFrom.set({ market: m, source: s }, s === source ? 1 : 0);
    },
    unpricedMarkets(countsByReason) {
      unpriced.reset();
      for (const [reason, count] of countsByReason) if (countable('outcome_maker_unpriced_markets', count)) unpriced.set({ reason: reasons.value(reason) }, count);
    },
    underlyingUpdate(ticker, source, price) {
      const labels = { ticker: tickers.value(ticker), source: reasons.value(source) };
      underlyingUpdates.inc(labels);
      if (finite('outcome_maker_underlying_price', price)) underlyingPrice.set(labels, price);
    },
    underlyingAge(ticker, source, ageMs) {
      if (finite('outcome_maker_underlying_age_seconds', ageMs)) underlyingAge.set({ ticker: tickers.value(ticker), source: reasons.value(source) }, Math.max(0, ageMs) / 1000);
    },
    underlyingRefusal(source, reason) {
      underlyingRefusals.inc({ source: reasons.value(source), reason: reasons.value(reason) });
    },
    underlyingDivergence(ticker, bps) {
      if (finite('outcome_maker_underlying_divergence_bps', bps)) underlyingDivergence.set({ ticker: tickers.value(ticker) }, bps);
    },
    fastMarketTrip(ticker) {
      fastMarketTrips.inc({ ticker: tickers.value(ticker) });
    },
    fillMarkout(horizonMs, reference, markoutRaw) {
      if (finite('outcome_maker_fill_markout_usdc', markoutRaw)) fillMarkouts.observe({ horizon: markoutHorizon(horizonMs), reference }, usdc(markoutRaw));
    },
    fillMarkoutMissing(horizonMs, reference, reason) {
      const known = MARKOUT_MISSING_REASONS.includes(reason) ? reason : 'other';
      fillMarkoutsMissing.inc({ horizon: markoutHorizon(horizonMs), reference, reason: known });
    },
    rewardAccrued(market, rewardRaw, share) {
      const label = markets.value(market);
      if (countable('outcome_maker_reward_estimate_usdc_total', rewardRaw)) rewardEstimate.inc({ market: label }, usdc(rewardRaw));
      if (finite('outcome_maker_reward_share', share)) rewardShare.set({ market: label }, share);
    },
    rebateAccrued(market, rebateRaw) {
      if (countable('outcome_maker_rebate_estimate_usdc_total', rebateRaw)) rebateEstimate.inc({ market: markets.value(market) }, usdc(rebateRaw));
    },
    venueRewards(market, rewardRaw) {
      if (finite('outcome_maker_venue_rewards_usdc', rewardRaw)) venueRewards.set({ market: markets.value(market) }, usdc(rewardRaw));
    },
    settlementCheck(result) {
      settlementChecks.inc({ result: reasons.value(result) });
    },
    pricedTickers(list) {
      for (const ticker of list) fastMarketTrips.inc({ ticker: tickers.value(ticker) }, 0);
    },
    surfaceVolatility(ticker, expiry, vols) {
      const t = tickers.value(ticker);
      for (const part of ['realized', 'implied', 'blended'] as const) {
        const value = vols[part];
        if (value === null) surfaceVol.remove({ ticker: t, expiry, part });
        else if (finite('outcome_maker_surface_volatility', value)) surfaceVol.set({ ticker: t, expiry, part }, value);
      }
    },
    forgetExpiry(ticker, expiry) {
      for (const part of ['realized', 'implied', 'blended'] as const) surfaceVol.remove({ ticker: tickers.value(ticker), expiry, part });
    },
    underlyingExposure(ticker, units, usdcValue) {
      const t = tickers.value(ticker);
      if (finite('outcome_maker_underlying_exposure', units)) underlyingExposure.set({ ticker: t, unit: 'underlying' }, units);
      if (finite('outcome_maker_underlying_exposure', usdcValue)) underlyingExposure.set({ ticker: t, unit: 'usdc' }, usdcValue);
    },
  };
}
