/**
 * Start-up reads on a busy account: a bot joining an account other bots already keep busy may see its first reads
 * refused (429 after the client's own retries), or the venue briefly failing (5xx, timeouts, network). A read
 * changes nothing, so it is retried here with the limiter's backoff (the configured `rateLimits.retry` initial and
 * maximum delays, doubling, never shorter than the venue's Retry-After) until a start-up budget is spent, instead of
 * the bot giving up (or, worse, quoting without having caught up).
 *
 * A venue that gives no answer at all (connection refused, DNS, timeouts: NetworkError) is not a busy account: with
 * `venue` given, such failures in a row get their own, shorter bound (`startup.venueTimeoutSec`, wall clock from the
 * first of them), after which start-up fails with VenueUnreachableError naming the venue's URL and the cause.
 *
 * Owns: which start-up failures are worth another attempt and the delays between attempts. Pure policy plus a thin
 * loop on an injected sleep. Invariants: only reads go through here; a 4xx other than 429 (bad request, unknown
 * market, unauthorized) fails at once, as it would again; the total wait never exceeds the budget; an unreachable
 * venue is given up on once `unreachableBudgetMs` has passed since its first failure (plus the one read in flight).
 */
import { ExchangeHttpError, ExchangeRateLimitedError, NetworkError, type NetworkFailure } from '../exchange/errors.js';

export interface StartupRetryOptions {
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Total time the retries may wait. */
  readonly budgetMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly onRetry?: (what: string, attempt: number, waitMs: number, error: unknown) => void;
  /** The bound on a venue that does not answer at all (see the header); without it, the general budget applies. */
  readonly venue?: { readonly url: string; readonly unreachableBudgetMs: number; readonly now: () => number };
}

/** Start-up gave up on a venue that did not answer for `unreachableBudgetMs`. */
export class VenueUnreachableError extends Error {
  override readonly name = 'VenueUnreachableError';
  constructor(
    readonly url: string,
    readonly failure: string,
    readonly forMs: number,
    readonly budgetMs: number,
    readonly last: NetworkError,
  ) {
    super(
      `the venue at ${url} cannot be reached: ${failure} (no answer for ${(forMs / 1000).toFixed(1)} s, startup.venueTimeoutSec: ${budgetMs / 1000}; last: ${last.message}); check venue.baseUrl, the network and the venue's status`,
    );
  }
}

/**
 * The cause of a request that got no answer, as an operator reads it: the OS error code (ECONNREFUSED, ENOTFOUND…)
 * found in `text`, or "timed out". Pure.
 */
export function noAnswerCause(failure: NetworkFailure, text: string): string {
  if (failure === 'timeout') return 'timed out';
  return /\b(E[A-Z][A-Z0-9_]{2,})\b/.exec(text)?.[1] ?? 'connection failed';
}

/** The retry log line's words for a retryable start-up failure: plain about what happened. Pure. */
export function startupRetryMessage(error: unknown): string {
  if (error instanceof NetworkError) return 'start-up read: the venue does not answer; retrying';
  if (error instanceof ExchangeRateLimitedError || (error instanceof ExchangeHttpError && error.status === 429)) return 'start-up read refused (rate limited): retrying (the account may be busy)';
  return 'start-up read failed (the venue answered with an error): retrying';
}

/** Default budget: long enough for a bot to get its turn on an account that other bots keep busy. */
export const STARTUP_READ_BUDGET_MS = 120_000;

/** A start-up read failure that another attempt may cure: rate limited, a 5xx, a timeout or the network. */
export function isRetryableStartupError(error: unknown): boolean {
  if (error instanceof ExchangeRateLimitedError || error instanceof NetworkError) return true;
  if (error instanceof ExchangeHttpError) return error.status >= 500 || error.status === 429 || error.status === 408;
  return false;
}

/** The delay before attempt `attempt + 1` (0-based): doubling from the initial, capped, at least the Retry-After. */
export function startupBackoffMs(attempt: number, error: unknown, options: Pick<StartupRetryOptions, 'initialBackoffMs' | 'maxBackoffMs'>): number {
  const doubling = Math.min(options.maxBackoffMs, options.initialBackoffMs * 2 ** Math.min(attempt, 30));
  const retryAfter = error instanceof ExchangeRateLimitedError && error.retryAfterMs !== null ? error.retryAfterMs : 0;
  return Math.max(doubling, retryAfter);
}

/** Runs `read`, retrying retryable failures with backoff until the budget is spent; then the last error is thrown. */
export async function retryStartupRead<T>(what: string, read: () => Promise<T>, options: StartupRetryOptions): Promise<T> {
  let waited = 0;
  let unreachableSinceMs: number | null = null;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (!isRetryableStartupError(error)) throw error;
      let waitMs = startupBackoffMs(attempt, error, options);
      const venue = options.venue;
      if (venue !== undefined && error instanceof NetworkError) {
        const now = venue.now();
        unreachableSinceMs ??= now;
        const leftMs = unreachableSinceMs + venue.unreachableBudgetMs - now;
        if (leftMs <= 0) throw new VenueUnreachableError(venue.url, noAnswerCause(error.failure, error.message), now - unreachableSinceMs, venue.unreachableBudgetMs, error);
        waitMs = Math.min(waitMs, leftMs);
      } else {
        unreachableSinceMs = null;
        if (waited + waitMs > options.budgetMs) throw error;
      }
      options.onRetry?.(what, attempt + 1, waitMs, error);
      await options.sleep(waitMs);
      waited += waitMs;
    }
  }
}
