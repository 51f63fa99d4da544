/**
 * Start-up reads on a busy account: a bot joining an account other bots already keep busy may see its first reads
 * refused (429 after the client's own retries), or the venue briefly failing (5xx, timeouts, network). A read
 * changes nothing, so it is retried here with the limiter's backoff (the configured `rateLimits.retry` initial and
 * maximum delays, doubling, never shorter than the venue's Retry-After) until a start-up budget is spent, instead of
 * the bot giving up (or, worse, quoting without having caught up).
 *
 * Owns: which start-up failures are worth another attempt and the delays between attempts. Pure policy plus a thin
 * loop on an injected sleep. Invariants: only reads go through here; a 4xx other than 429 (bad request, unknown
 * market, unauthorized) fails at once, as it would again; the total wait never exceeds the budget.
 */
import { ExchangeHttpError, ExchangeRateLimitedError, NetworkError } from '../exchange/errors.js';

export interface StartupRetryOptions {
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Total time the retries may wait. */
  readonly budgetMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly onRetry?: (what: string, attempt: number, waitMs: number, error: unknown) => void;
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
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (!isRetryableStartupError(error)) throw error;
      const waitMs = startupBackoffMs(attempt, error, options);
      if (waited + waitMs > options.budgetMs) throw error;
      options.onRetry?.(what, attempt + 1, waitMs, error);
      await options.sleep(waitMs);
      waited += waitMs;
    }
  }
}
