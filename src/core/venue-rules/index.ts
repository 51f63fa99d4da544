/**
 * The venue's pure rules, below the wire layer: the price grid (ticks, tick size, bounds, average prices in
 * micro-units), size units and the size step, order amounts (collateral, maker/taker amounts of a limit or market
 * order), the `Level` type, the adjusted midpoint, and the feed's typed order events with the taker-fee pick.
 *
 * Every layer takes these facts from here: the wire layer (src/exchange/), the book store, the strategy contract,
 * the order manager, the simulator (src/sim/) and the backtest (src/backtest/). Each fact has this one owner.
 * Invariant: this module imports nothing of the project outside itself (enforced by eslint.config.js), so
 * nothing above it can leak in; everything in it is pure and exact (integers, bigint where products can overflow).
 */
export * from './units.js';
export * from './amounts.js';
export * from './book.js';
export * from './order-events.js';
export * from './fees.js';
