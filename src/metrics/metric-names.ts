/**
 * The names of the bot's metrics: every `outcome_maker_…` metric createMetrics registers (METRIC_NAMES, checked by
 * the exposition tests), Node's default metrics dropped, and the metrics whose observations are checked for
 * finiteness (their rejection counters start at 0).
 *
 * Owns: the metric name set. Invariants: every name carries METRIC_PREFIX; a name is listed here once.
 */


export const METRIC_PREFIX = 'outcome_maker_';

/** Every metric this module registers (Node's default process metrics come on top, unprefixed). */
export const METRIC_NAMES = [
  'outcome_maker_build_info',
  'outcome_maker_metric_rejections_total',
  'outcome_maker_book_updates_total',
  'outcome_maker_book_age_seconds',
  'outcome_maker_book_resyncs_total',
  'outcome_maker_feed_connected',
  'outcome_maker_feed_reconnects_total',
  'outcome_maker_feed_frozen_total',
  'outcome_maker_feed_malformed_frames_total',
  'outcome_maker_requotes_total',
  'outcome_maker_requote_latency_seconds',
  'outcome_maker_risk_blocks_total',
  'outcome_maker_http_requests_total',
  'outcome_maker_http_request_duration_seconds',
  'outcome_maker_http_retries_total',
  'outcome_maker_invalid_answers_total',
  'outcome_maker_limiter_queue_depth',
  'outcome_maker_limiter_wait_seconds',
  'outcome_maker_shared_limiter_fallback',
  'outcome_maker_shared_limiter_fallbacks_total',
  'outcome_maker_orders_placed_total',
  'outcome_maker_orders_canceled_total',
  'outcome_maker_orders_rejected_total',
  'outcome_maker_orders_unknown_total',
  'outcome_maker_open_orders',
  'outcome_maker_fills_total',
  'outcome_maker_fill_volume_shares_total',
  'outcome_maker_fill_notional_usdc_total',
  'outcome_maker_position_shares',
  'outcome_maker_pnl_usdc',
  'outcome_maker_daily_pnl_usdc',
  'outcome_maker_exposure_usdc',
  'outcome_maker_trading_mode',
  'outcome_maker_kill_switch_engaged',
  'outcome_maker_kill_switch_trips_total',
  'outcome_maker_expected_reward_usdc_per_day',
  'outcome_maker_ledger_mismatches_total',
  'outcome_maker_redemptions_total',
  'outcome_maker_redeemed_usdc_total',
  'outcome_maker_redemptions_pending',
  'outcome_maker_order_event_gaps_total',
  'outcome_maker_feed_auth_failures_total',
  'outcome_maker_book_token_mismatches_total',
  'outcome_maker_feed_unit_switches_total',
  'outcome_maker_foreign_orders',
  'outcome_maker_account_unbooked_shares',
  'outcome_maker_venue_anomalies_total',
  'outcome_maker_deferred_listings_total',
  'outcome_maker_deferred_listing_orders_total',
  'outcome_maker_model_fair',
  'outcome_maker_model_uncertainty',
  'outcome_maker_quoted_from',
  'outcome_maker_unpriced_markets',
  'outcome_maker_underlying_price',
  'outcome_maker_underlying_age_seconds',
  'outcome_maker_underlying_updates_total',
  'outcome_maker_underlying_refusals_total',
  'outcome_maker_underlying_divergence_bps',
  'outcome_maker_fast_market_trips_total',
  'outcome_maker_settlement_checks_total',
  'outcome_maker_underlying_exposure',
  'outcome_maker_surface_volatility',
  'outcome_maker_fill_markout_usdc',
  'outcome_maker_fill_markouts_missing_total',
  'outcome_maker_reward_estimate_usdc_total',
  'outcome_maker_reward_share',
  'outcome_maker_rebate_estimate_usdc_total',
  'outcome_maker_venue_rewards_usdc',
  'outcome_maker_calibration_predictions_total',
  'outcome_maker_calibration_scored_total',
  'outcome_maker_calibration_log_loss_total',
  'outcome_maker_calibration_brier_total',
] as const;

export type MetricName = (typeof METRIC_NAMES)[number];

/**
 * prom-client default metrics removed because they break `promtool check metrics` (gauges named `_total`).
 * The same figures remain, split by type, in nodejs_active_handles / _requests / _resources.
 */
export const DROPPED_DEFAULT_METRICS: readonly string[] = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** Metrics whose observations are checked for finiteness (their rejections are pre-set to 0). */
export const VALIDATED_METRICS: readonly MetricName[] = [
  'outcome_maker_requote_latency_seconds',
  'outcome_maker_http_request_duration_seconds',
  'outcome_maker_limiter_queue_depth',
  'outcome_maker_limiter_wait_seconds',
  'outcome_maker_open_orders',
  'outcome_maker_fill_volume_shares_total',
  'outcome_maker_fill_notional_usdc_total',
  'outcome_maker_position_shares',
  'outcome_maker_pnl_usdc',
  'outcome_maker_daily_pnl_usdc',
  'outcome_maker_exposure_usdc',
  'outcome_maker_expected_reward_usdc_per_day',
  'outcome_maker_redeemed_usdc_total',
  'outcome_maker_redemptions_pending',
  'outcome_maker_foreign_orders',
  'outcome_maker_deferred_listing_orders_total',
  'outcome_maker_account_unbooked_shares',
  'outcome_maker_model_fair',
  'outcome_maker_model_uncertainty',
  'outcome_maker_unpriced_markets',
  'outcome_maker_underlying_price',
  'outcome_maker_underlying_age_seconds',
  'outcome_maker_underlying_divergence_bps',
  'outcome_maker_underlying_exposure',
  'outcome_maker_surface_volatility',
  'outcome_maker_fill_markout_usdc',
  'outcome_maker_reward_estimate_usdc_total',
  'outcome_maker_reward_share',
  'outcome_maker_rebate_estimate_usdc_total',
  'outcome_maker_venue_rewards_usdc',
  'outcome_maker_calibration_log_loss_total',
  'outcome_maker_calibration_brier_total',
];
