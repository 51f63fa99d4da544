/**
 * Values derived from a validated config that several modules need: the per-market risk limits after
 * overrides, the price band a market may be quoted in, and the transport's retry policy. Pure functions of the config.
 */
import type { RetryPolicy } from '../exchange/retry-table.js';
import type { AppConfig, MarketRiskLimits, PriceBand, RetryConfig, RiskConfig } from './types.js';

/** The limits that apply to one market: `risk.*` with `risk.perMarket[slug]` laid over them. */
export function riskLimitsFor(risk: RiskConfig, slug: string): MarketRiskLimits {
  const override = Object.prototype.hasOwnProperty.call(risk.perMarket, slug) ? risk.perMarket[slug] : undefined;
  return {
    maxPositionPerTokenRaw: override?.maxPositionPerTokenRaw ?? risk.maxPositionPerTokenRaw,
    maxNetPositionRaw: override?.maxNetPositionRaw ?? risk.maxNetPositionRaw,
    maxOpenOrders: override?.maxOpenOrders ?? risk.maxOpenOrders,
    priceBand: override?.priceBand ?? risk.priceBand,
    stopBeforeExpiryMs: override?.stopBeforeExpiryMs ?? risk.stopBeforeExpiryMs,
  };
}

/** How long before its expiry the bot stops quoting a market, and the config key that says so. */
export interface ExpiryStop {
  readonly ms: number;
  readonly key: string;
}

/**
 * The stop before expiry the bot applies to one market: `risk.perMarket.<slug>.stopBeforeExpirySec` when set; else, for
 * a market priced from its underlying (the pricing terms read it), `pricing.stopBeforeSettlementSec`; else
 * `risk.stopBeforeExpirySec`. The one rule of the bot (src/pricing/live-pricing.ts `riskConfig`) and of `doctor`.
 */
export function expiryStopFor(risk: RiskConfig, stopBeforeSettlementMs: number, slug: string, priced: boolean): ExpiryStop {
  const own = Object.prototype.hasOwnProperty.call(risk.perMarket, slug) ? risk.perMarket[slug]?.stopBeforeExpiryMs : undefined;
  if (own !== undefined) return { ms: own, key: `risk.perMarket.${slug}.stopBeforeExpirySec` };
  return priced ? { ms: stopBeforeSettlementMs, key: 'pricing.stopBeforeSettlementSec' } : { ms: risk.stopBeforeExpiryMs, key: 'risk.stopBeforeExpirySec' };
}

/**
 * Where a market may be quoted: the venue's band intersected with the market's risk band. The schema
 * guarantees the intersection is not empty (minTicks < maxTicks).
 */
export function effectivePriceBand(config: AppConfig, slug: string): PriceBand {
  const venue = config.venue.priceBand;
  const own = riskLimitsFor(config.risk, slug).priceBand;
  return { minTicks: Math.max(venue.minTicks, own.minTicks), maxTicks: Math.min(venue.maxTicks, own.maxTicks) };
}

/**
 * `rateLimits.retry` → the numbers of the retry table (src/exchange/retry-table.ts): one retry count and one backoff
 * for 429 and 5xx alike. Fields the config does not set (the receive-window retries) keep the table's defaults; the
 * config's own defaults are read from the same `RETRY_DEFAULTS` (schema.ts), so an unset section changes nothing.
 */
export function transportRetryPolicy(retry: RetryConfig): Partial<RetryPolicy> {
  return {
    maxRateLimitRetries: retry.maxRetries,
    maxServerErrorRetries: retry.maxRetries,
    rateLimitBaseMs: retry.initialBackoffMs,
    serverErrorBaseMs: retry.initialBackoffMs,
    rateLimitMaxMs: retry.maxBackoffMs,
    serverErrorMaxMs: retry.maxBackoffMs,
    maxRetryAfterMs: retry.maxRetryAfterMs,
  };
}

/** The order manager's settings from the `orders` and `markets` sections (the bot, the backtests and tests share them). */
export function orderManagerSettings(config: AppConfig) {
  return {
    reconcile: {
      priceToleranceTicks: config.orders.refreshTolerance.priceTicks,
      sizeTolerance: config.orders.refreshTolerance.size,
      maxOrderAgeMs: config.orders.maxOrderAgeMs,
      coolOffMs: config.orders.filledOrderDelayMs,
    },
    defaultPostOnly: config.orders.postOnly,
    foreignPolicy: config.orders.foreignOrders === 'cancel' ? ('cancel' as const) : ('leave' as const),
    exclusiveMarkets: config.markets.exclusive,
    cancelReplace: config.orders.cancelReplace,
    batchPlacements: config.orders.batchPlacements,
  };
}
