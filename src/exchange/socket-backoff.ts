/**
 * The market feed's reconnection backoff: its options and defaults, their validation (`resolveBackoff`: a bad value
 * is a MarketDataConfigError naming `feed.backoff.<key>` and the value) and the delay before each retry
 * (`backoffDelay`: capped exponential growth, minus up to `jitter` of it for a uniform draw the caller supplies from
 * its seeded PRNG).
 *
 * Owns: the backoff rule. Invariants: pure; the resolved options are frozen.
 */
import { MarketDataConfigError } from '../book/errors.js';

export interface BackoffOptions {
  /** Delay before the first retry after a failure (before jitter). */
  readonly initialMs: number;
  /** Cap on the delay. */
  readonly maxMs: number;
  /** Growth per consecutive failure. */
  readonly multiplier: number;
  /** Fraction of the delay that is randomised away: delay × (1 − jitter × u), u uniform in [0, 1). */
  readonly jitter: number;
  /** Seed of the jitter's PRNG (deterministic runs and tests). */
  readonly seed: number;
  /** A connection that stayed up this long resets the failure count. */
  readonly resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = Object.freeze({
  initialMs: 500,
  maxMs: 30_000,
  multiplier: 2,
  jitter: 0.5,
  seed: 1,
  resetAfterMs: 30_000,
});

export function resolveBackoff(overrides: Partial<BackoffOptions> = {}): BackoffOptions {
  const backoff: BackoffOptions = { ...DEFAULT_BACKOFF, ...overrides };
  const positive = ['initialMs', 'maxMs', 'resetAfterMs'] as const;
  for (const key of positive) {
    if (!Number.isFinite(backoff[key]) || backoff[key] <= 0) {
      throw new MarketDataConfigError(`feed.backoff.${key}`, backoff[key], 'must be a positive number of ms');
    }
  }
  if (backoff.maxMs < backoff.initialMs) {
    throw new MarketDataConfigError('feed.backoff.maxMs', backoff.maxMs, `must be at least initialMs (${backoff.initialMs})`);
  }
  if (!Number.isFinite(backoff.multiplier) || backoff.multiplier < 1) {
    throw new MarketDataConfigError('feed.backoff.multiplier', backoff.multiplier, 'must be ≥ 1');
  }
  if (!Number.isFinite(backoff.jitter) || backoff.jitter < 0 || backoff.jitter > 1) {
    throw new MarketDataConfigError('feed.backoff.jitter', backoff.jitter, 'must be in [0, 1]');
  }
  if (!Number.isSafeInteger(backoff.seed)) {
    throw new MarketDataConfigError('feed.backoff.seed', backoff.seed, 'must be an integer');
  }
  return Object.freeze(backoff);
}

/** Delay before retry number `failures` (0-based): capped exponential growth, minus up to `jitter` of it. */
export function backoffDelay(backoff: BackoffOptions, failures: number, uniform: number): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * Math.pow(backoff.multiplier, Math.max(0, failures)));
  return Math.round(base * (1 - backoff.jitter * uniform));
}
