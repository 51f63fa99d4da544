/**
 * The bot's metrics as its callers see them (`Metrics`): one typed method per event or figure, in the bot's exact
 * units (raw 1e6 integers, milliseconds); callers never see a metric name. createMetrics (metrics.ts) implements it
 * on prom-client.
 *
 * Owns: the metrics interface. Invariants: no method throws on a bad number (the implementation drops and counts it).
 */
import type { Registry } from 'prom-client';
import type { TradingMode } from '../core/trading-mode.js';
import type { CalibrationMetrics } from './calibration-metrics.js';
import type { CapitalMetrics } from './capital-metrics.js';
import type { LedgerCheckMetrics } from './ledger-check-metrics.js';
import type { LoopMetrics } from './loop-metrics.js';
import type { ReconciliationMetrics } from './reconciliation-metrics.js';
import type { RebateResolutionMetrics } from './rebate-resolution-metrics.js';
import type { QuotingMetrics } from './quoting-metrics.js';
import type { HttpStatus, MarkoutReferenceLabel, OrderEventGapCause, OrderSide, OrderToken, RedemptionResult, ResyncReason, RetryReason, VenueAnomaly } from './metric-labels.js';

/** The bot's metrics. Sizes and amounts are raw integers (1e6 = 1 share / 1 USDC), durations milliseconds. */
export interface Metrics extends CalibrationMetrics, CapitalMetrics, ReconciliationMetrics, RebateResolutionMetrics, LoopMetrics, QuotingMetrics, LedgerCheckMetrics {
  readonly registry: Registry;
  /** A book frame (or snapshot) was applied: counts it and restarts the market's book age. */
  bookUpdated(market: string): void;
  bookResynced(market: string, reason: ResyncReason): void;
  /** Drop every per-market series of a market the bot no longer trades. */
  forgetMarket(market: string): void;
  feedConnected(connected: boolean): void;
  feedReconnected(): void;
  /** The watchdog found the feed silent while connected. */
  feedFrozen(): void;
  /** A frame failed validation; unknown event names are counted as `other`. */
  malformedFrame(event: string): void;
  /** A requote finished: latency from the book change to the plan. */
  requoted(market: string, latencyMs: number): void;
  /** The risk gate or trading mode stopped a quote or order. */
  riskBlocked(market: string, reason: string): void;
  /** One HTTP attempt finished (`endpoint` is a route template such as `POST /orders`, never a raw path). */
  httpRequest(endpoint: string, status: HttpStatus, durationMs: number): void;
  httpRetry(endpoint: string, reason: RetryReason): void;
  /** A 2xx answer of the venue failed validation (not JSON, or a field out of its schema); `endpoint` as in httpRequest. */
  invalidAnswer(endpoint: string): void;
  /** Parts of a valid answer left out because they could not be read (each logged with its path by the caller). */
  answerPartsSkipped(endpoint: string, count: number): void;
  limiterQueueDepth(depth: number): void;
  /** Time a request waited in the limiter before it started. */
  limiterWaited(waitMs: number): void;
  /** The shared (Redis) rate limiter entered (true) or left (false) its fallback share; each entry is counted. */
  sharedLimiterFallback(active: boolean): void;
  orderPlaced(market: string, side: OrderSide): void;
  orderCanceled(market: string): void;
  orderRejected(market: string, reason: string): void;
  /** A placement or cancel whose outcome is unknown (timeout, 5xx, disconnect). */
  orderUnknown(market: string): void;
  openOrders(market: string, count: number): void;
  /** One fill part of the bot's order: `token` is the outcome token the order traded (YES or NO). */
  fill(market: string, side: OrderSide, token: OrderToken, sizeRaw: number, notionalRaw: number): void;
  position(market: string, yesRaw: number, noRaw: number): void;
  /** Signed raw USDC. */
  pnl(market: string, realizedRaw: number, unrealizedRaw: number): void;
  /** Realized + unrealized since 00:00 UTC, all markets, signed raw USDC. */
  dailyPnl(totalRaw: number): void;
  /** USDC at risk in the market (position cost + open and unknown BUY collateral), raw. */
  exposure(market: string, notionalRaw: number): void;
  tradingMode(mode: TradingMode): void;
  /** Kill switch state; a change to engaged counts one trip for `reason`. */
  killSwitch(engaged: boolean, reason?: string): void;
  expectedRewardPerDay(market: string, usdcPerDay: number): void;
  /** A redemption step for a resolved market ended with `result`; `amountRaw` is the payout recorded (redeemed, inferred). */
  redemption(market: string, result: RedemptionResult, amountRaw?: number): void;
  /** Resolved markets whose winnings are not yet redeemed and recorded. */
  redemptionsPending(count: number): void;
  /**
   * Order events lost, market(s) resynced: `book-shortfall` (the book showed less than the bot's own resting orders
   * past the grace period, the default), `unreadable` (an order frame failed validation), `unattributable` (a frame of
   * the account's that could not be turned into fills).
   */
  orderEventGap(cause?: OrderEventGapCause): void;
  /** The venue refused the socket's authentication (no order events): every market halted until it is accepted. */
  /** A REST answer 401 or 403: the venue refused the credentials. */
  restAuthRefused(): void;
  feedAuthFailure(): void;
  /** A book (socket or REST) for another token than the market's YES token: rejected. */
  bookTokenMismatch(source: 'feed' | 'rest'): void;
  /** The socket's unit of book sizes or amounts settled to another unit than assumed (evidence from REST). */
  feedUnitSwitch(what: 'bookSize' | 'amounts'): void;
  /** Live orders in a traded market that are not this bot's (other bot tags, no clientOrderId), at the last listing. */
  foreignOrders(market: string, count: number): void;
  /**
   * The account's token balance less this bot's ledger balance (raw): what other bots (or people) of the account hold.
   * Reported only, never booked (see src/booking/ledger-sync.ts).
   */
  accountUnbooked(market: string, token: 'YES' | 'NO', raw: number): void;
  /** One occurrence of a venue behaviour the bot works around (see VenueAnomaly). */
  venueAnomaly(kind: VenueAnomaly): void;
  /** A deferred own-order listing: its result, and the orders of the bot it adopted and canceled (the ledger knew none). */
  deferredListing(result: 'clean' | 'found' | 'failed', adopted: number, canceled: number): void;
  /** The model's fair value and uncertainty of a priced market (price units), at its last quote. */
  modelFair(market: string, fair: number, uncertainty: number): void;
  /** Where a market's reference came from at its last quote cycle: 'model', 'book', or 'halted'. */
  quotedFrom(market: string, source: 'model' | 'book' | 'halted'): void;
  /** Traded markets the model cannot price, counted by reason (the whole set: reasons absent now are removed). */
  unpricedMarkets(countsByReason: ReadonlyMap<string, number>): void;
  /** A validated underlying price from a source ('hermes' | 'venue'). */
  underlyingUpdate(ticker: string, source: string, price: number): void;
  /** Age of a ticker's latest price from a source, ms. */
  underlyingAge(ticker: string, source: string, ageMs: number): void;
  /** An underlying price refused (malformed, non-finite, non-positive, future-dated, out-of-order). */
  underlyingRefusal(source: string, reason: string): void;
  /** Distance between two sources of one ticker, basis points. */
  underlyingDivergence(ticker: string, bps: number): void;
  fastMarketTrip(ticker: string): void;
  /** After a resolution: did the price the bot held imply the venue's outcome ('agree' | 'disagree' | 'too-close' | 'no-price')? */
  settlementCheck(result: string): void;
  /** The bot's exposure to an underlying: delta-equivalent units of it, and their USDC notional. */
  underlyingExposure(ticker: string, units: number, usdc: number): void;
  /**
   * The volatility surface of one expiry of an underlying (annualized over the time left): the realized, the ladder's
   * implied (null: none now; its series is removed) and the blended one the model prices with. `expiry` is the
   * settlement instant (ISO-8601); the label set leaves with the expiry (`forgetExpiry`).
   */
  surfaceVolatility(ticker: string, expiry: string, vols: { readonly realized: number | null; readonly implied: number | null; readonly blended: number | null }): void;
  /** The last market of an expiry left: its surface series are removed. */
  forgetExpiry(ticker: string, expiry: string): void;
  /** The underlyings the bot prices, known at start: their anomaly counters start at 0 (so `increase()` sees the first). */
  pricedTickers(tickers: readonly string[]): void;
  /** A fill's markout written to the ledger (src/markouts/sampler.ts): horizon ms, reference, signed raw USDC. */
  fillMarkout(horizonMs: number, reference: MarkoutReferenceLabel, markoutRaw: number): void;
  /** A fill's markout recorded as missing, with why (bot-down, late, no-reference, overflow). */
  fillMarkoutMissing(horizonMs: number, reference: MarkoutReferenceLabel, reason: string): void;
  /** A market's minute of liquidity reward ESTIMATED into the ledger (src/rewards/reward-accrual.ts): raw USDC, share 0..1. */
  rewardAccrued(market: string, rewardRaw: number, share: number): void;
  /** A maker fill's rebate ESTIMATED into the ledger: raw USDC. */
  rebateAccrued(market: string, rebateRaw: number): void;
  /** The venue's own reward figure for today (the portfolio's `rewards`), raw USDC; market '*' is the total. */
  venueRewards(market: string, rewardRaw: number): void;
}
