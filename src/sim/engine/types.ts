/**
 * Public types of the simulator ENGINE: the seam between the in-memory exchange (markets, accounts,
 * matching, settlement, lifecycle, synthetic traders) and the server half (HTTP, Socket.IO, auth,
 * wire parsing). Everything here is transport-free; the few wire-ready shapes (UserOrder, MarketTrade,
 * OME/SETTLEMENT frames, error bodies) follow exchange-api.md and exchange-facts.md field for field.
 *
 * Units: prices are integer ticks (1 tick = 0.001), sizes and collateral are raw integers (1e6 = one
 * share / one USDC). Wire-ready shapes carry raw amounts as integer decimal strings and prices as decimal
 * strings, exactly as the venue prints them.
 *
 * This file is the barrel: it declares nothing and re-exports every part, one file per part, each importing only
 * the parts below it (no circle; test/unit/lint/import-cycles.test.ts): what a market and an account are
 * (types-specs.ts, the base), state views and wire-ready reads (types-views.ts), commands and their outcomes
 * (types-commands.ts), socket frames and listeners (types-frames.ts), the engine's options (types-options.ts) and
 * the `SimEngine` interface (types-engine.ts). Inside the engine, a types-*.ts file imports its parts directly,
 * never this barrel; every other module may import this one.
 */

export type { Outcome, OrderType, Side, Level } from '../../core/venue-rules/index.js';
export type * from './types-specs.js';
export type * from './types-views.js';
export type * from './types-commands.js';
export type * from './types-frames.js';
export type * from './types-options.js';
export type * from './types-engine.js';
export type * from './types-rewards.js';
