/**
 * Values derived from a validated config that several modules need: the per-market risk limits after
 * overrides, and the price band a market may be quoted in. Pure functions of the config.
 */
import type { AppConfig, MarketRiskLimits, PriceBand, RiskConfig } from './types.js';

/** The limits that apply to one market: `risk.*` with `risk.perMarket[slug]` laid over them. */
export function riskLimitsFor(risk: RiskConfig, slug: string): MarketRiskLimits {
  const override = Object.prototype.hasOwnProperty.call(risk.perMarket, slug) ? risk.perMarket[slug] : undefined;
  return {
    maxPositionPerTokenRaw: override?.maxPositionPerTokenRaw ?? risk.maxPositionPerTokenRaw,
    maxNetPositionRaw: override?.maxNetPositionRaw ?? risk.maxNetPositionRaw,
    maxOpenOrders: override?.maxOpenOrders ?? risk.maxOpenOrders,
    priceBand: override?.priceBand ?? risk.priceBand,
    stopBeforeExpirySec: override?.stopBeforeExpirySec ?? risk.stopBeforeExpirySec,
  };
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
