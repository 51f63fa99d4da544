/**
 * The backtest's public surface: `runBacktest(options) → BacktestResult`, its option and result types, the
 * typed errors, and `comparisonTable` for side-by-side tables. See docs/backtest.md.
 */
export { runBacktest } from './harness.js';
export { backtestSettingsSchema, resolveOptions } from './options.js';
export type { BacktestOptions, BacktestSettings, LatencyModel, StrategySpec } from './options.js';
export type { BacktestObserver, BacktestResult, BacktestView, MarketResult, RequestCounts, RunCounters, SubmittedIntent } from './result.js';
export { BacktestConfigError, BacktestInvariantError } from './errors.js';
export { RequestPipe, type RequestTiming } from './request-pipe.js';
export { EngineVenue, type EngineVenueObserver, type EngineVenueOptions } from './engine-venue.js';
export { LatencyVenue } from './latency-venue.js';
export { Trader, type TraderOptions, type TraderOrderOptions } from './trader.js';
export { comparisonTable, type LabelledResult } from './report.js';
export { gateIntents, type GateInput, type GateMarketState, type GateOutcome } from '../risk/gate.js';
