/**
 * The label values of the bot's metrics: the types callers pass (venue anomalies, feed events, resync reasons,
 * HTTP statuses, sides, tokens, redemption results, markout references), the values known up front (their anomaly
 * counters start at 0, so `increase()` sees the first event), and `BoundedLabel`, which keeps a label's distinct
 * values bounded.
 *
 * Owns: which label values exist. Invariants: a BoundedLabel keeps at most `limit` distinct values (later ones are
 * `other`, an empty value is `none`, a value is cut to 120 characters), so no caller can explode the series count.
 */
import type { Mismatch } from '../ledger/types.js';
import type { KillReason } from '../risk/kill-switch.js';

/**
 * Venue behaviour the bot works around: a trading-mode string it does not know (read as cancel_only), a 425 without
 * the trading-mode body (maintenance status refreshed), cancel-replace not offered (404: cancels and placements used).
 */
export type VenueAnomaly = 'unknown_trading_mode' | 'maintenance_block_425' | 'cancel_replace_unsupported' | 'cancel_replace_mixed_markets' | 'batch_placements_refused';
export const VENUE_ANOMALIES: readonly VenueAnomaly[] = ['unknown_trading_mode', 'maintenance_block_425', 'cancel_replace_unsupported', 'cancel_replace_mixed_markets', 'batch_placements_refused'];

export type FeedEvent = 'orderbookUpdate' | 'orderEvent' | 'positions' | 'marketResolved' | 'marketCreated' | 'system' | 'exception' | 'oraclePriceData' | 'other';
export type OrderEventGapCause = 'book-shortfall' | 'unreadable' | 'unattributable';
export const ORDER_EVENT_GAP_CAUSES: readonly OrderEventGapCause[] = ['book-shortfall', 'unreadable', 'unattributable'];
export type ResyncReason = 'subscribe' | 'reconnect' | 'frozen' | 'invalid' | 'stale' | 'manual';
/** An HTTP status code, or why there was none. */
export type HttpStatus = number | 'timeout' | 'network';
export type RetryReason = 'too_early' | 'rate_limited' | 'server_error' | 'timeout' | 'network';
export type OrderSide = 'BUY' | 'SELL';
/** The outcome token of an order or a fill (two values: the label stays bounded). */
export type OrderToken = 'YES' | 'NO';
/** How one redemption step ended (see src/capital/settler.ts). */
export type RedemptionResult = 'redeemed' | 'inferred' | 'nothing' | 'retry' | 'refused' | 'failed';
export const REDEMPTION_RESULTS: readonly RedemptionResult[] = ['redeemed', 'inferred', 'nothing', 'retry', 'refused', 'failed'];

export const RESYNC_REASONS: readonly ResyncReason[] = ['subscribe', 'reconnect', 'frozen', 'invalid', 'stale', 'manual'];
export const FEED_EVENTS: readonly FeedEvent[] = ['orderbookUpdate', 'orderEvent', 'positions', 'marketResolved', 'marketCreated', 'system', 'exception', 'oraclePriceData', 'other'];
/** The ledger's mismatch kinds and the kill switch's trip reasons, pre-set to 0 (type-checked against their owners). */
export const LEDGER_MISMATCH_KINDS: readonly Mismatch['kind'][] = ['order-filled', 'position'];
export const KILL_REASONS: readonly KillReason[] = ['daily-loss', 'pnl-unavailable', 'manual', 'credentials'];

export type MarkoutReferenceLabel = 'mid' | 'model';
/** The markout horizons as labels (0s is the edge at fill time); any other horizon is `other`. */
export const MARKOUT_HORIZON_LABELS: ReadonlyMap<number, string> = new Map([
  [0, '0s'],
  [1_000, '1s'],
  [10_000, '10s'],
  [60_000, '60s'],
  [300_000, '300s'],
]);
export const MARKOUT_MISSING_REASONS: readonly string[] = ['bot-down', 'late', 'no-reference', 'overflow'];
/** At most `limit` distinct values per label; later ones become `other`. */
export class BoundedLabel {
  readonly #seen = new Set<string>();
  constructor(readonly limit: number) {}
  value(raw: string): string {
    const text = raw === '' ? 'none' : raw.slice(0, 120);
    if (this.#seen.has(text)) return text;
    if (this.#seen.size >= this.limit) return 'other';
    this.#seen.add(text);
    return text;
  }
  forget(raw: string): void {
    this.#seen.delete(raw);
  }
  values(): string[] {
    return [...this.#seen];
  }
}
