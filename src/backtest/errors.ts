/**
 * The backtest's typed errors: `BacktestConfigError` for bad options (names the field and the value, thrown
 * before anything runs) and `BacktestInvariantError` for a broken internal invariant (a bug, never input).
 */
import { describeValue } from '../core/venue-rules/index.js';

export class BacktestConfigError extends Error {
  override readonly name = 'BacktestConfigError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${describeValue(value)})`);
  }
}

export class BacktestInvariantError extends Error {
  override readonly name = 'BacktestInvariantError';
  constructor(
    readonly detail: string,
    options?: { readonly cause?: unknown },
  ) {
    super(`backtest invariant violated: ${detail}`, options);
  }
}
