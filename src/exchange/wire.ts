/**
 * The REST wire format: zod schemas of every answer the client reads, and their conversion to typed domain values.
 * This module declares nothing: it re-exports its parts, one job each — field schemas and `parseAnswer`
 * (wire-fields.ts), error bodies (wire-error-bodies.ts), markets and reward settings (wire-markets.ts), the orderbook
 * (wire-orderbook.ts), the account's orders, placements and cancels (wire-orders.ts), market trades (wire-trades.ts),
 * maintenance, profile and redeem (wire-account.ts), the portfolio's positions (wire-portfolio.ts) and rewards
 * (wire-rewards.ts). Callers
 * import this module.
 *
 * Owns: what the client accepts from the venue. Rules: extra fields are tolerated (and dropped); numbers sent as
 * strings are accepted; wrong types are rejected with a ResponseValidationError naming the field path and value.
 * Prices become integer ticks and amounts raw 1e6 integers wherever the bot signs, books or compares them; floats
 * remain only for figures that are averages or venue metadata (weighted trade price, midpoints, PnL as reported).
 *
 * Unit choices the spec leaves open (documented in docs/exchange-client.md and docs/venue-facts.md): raw amount
 * strings with a fractional part are floored to the raw unit; the REST orderbook's `size` is raw 1e6 integers by
 * default (recorded from the live venue, see test/contract), `shares` on request; `expirationTimestamp` below 1e11 is
 * read as seconds. A size the venue left out is unknown (null), never 0. An order's `price`
 * must be a tick only for limit orders: a FOK order has no limit, and the venue prints its average fill price (or 0)
 * in that field, which is accepted and not read as a limit.
 */
export { address, integer, isoMs, numeric, parseAnswer, priceTicks, rawAmount, tokenId } from './wire-fields.js';
export * from './wire-error-bodies.js';
export * from './wire-markets.js';
export * from './wire-orderbook.js';
export * from './wire-orders.js';
export * from './wire-cancels.js';
export * from './wire-trades.js';
export * from './wire-account.js';
export * from './wire-portfolio.js';
export * from './wire-history.js';
export type { MarketRewards, PortfolioRewards } from './wire-rewards.js';
