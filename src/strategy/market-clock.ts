/**
 * Time to a market's expiry as strategies see it, from the view's injected clock only.
 * Invariant: time left is never negative; a market past its expiry is closed and gets no quotes.
 */
import type { MarketInfo } from './contract.js';

/** True once `now` has reached the market's expiry (never for a market without one). */
export function isExpired(market: MarketInfo, now: number): boolean {
  return market.expiresAtMs !== null && Number.isFinite(market.expiresAtMs) && now >= market.expiresAtMs;
}

/** ms until expiry, ≥ 0; null when the market has no (finite) expiry. */
export function msToExpiry(market: MarketInfo, now: number): number | null {
  if (market.expiresAtMs === null || !Number.isFinite(market.expiresAtMs)) return null;
  return Math.max(0, market.expiresAtMs - now);
}
