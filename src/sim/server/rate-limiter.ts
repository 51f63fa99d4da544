/**
 * Per-credential rate limits of exchange-api.md § Limits: at most `maxConcurrent` requests in flight
 * (2) and at least `minIntervalMs` (300 ms) between request starts, keyed by API token id.
 *
 * A request may come with `lateMs`: how late the server's own event loop may have come to it (loop-lateness.ts). Its
 * start then counts from `nowMs - lateMs` (at most one interval back), so a request
 * the server stamped late does not make the next one, sent on time, look early; a client that sends too early is
 * still refused, since the allowance is the server's own lateness, never the client's spacing.
 *
 * Owns: admission of a request at its start. Invariants: a rejected request is not a "start" (it neither
 * occupies a slot nor moves the interval), so a client that honours Retry-After is admitted next time;
 * `release()` is idempotent; time comes only from the `nowMs` and `lateMs` arguments (the injected clock).
 */

export interface RateLimitOptions {
  readonly enabled: boolean;
  readonly maxConcurrent: number;
  readonly minIntervalMs: number;
}

export const SPEC_RATE_LIMITS: RateLimitOptions = { enabled: true, maxConcurrent: 2, minIntervalMs: 300 };

export type Admission =
  | { readonly ok: true; readonly release: () => void }
  | { readonly ok: false; readonly reason: 'concurrency' | 'interval'; readonly retryAfterSeconds: number };

interface KeyState {
  inFlight: number;
  lastStartMs: number | null;
}

export class TokenRateLimiter {
  private readonly states = new Map<string, KeyState>();
  private options: RateLimitOptions;

  constructor(options: RateLimitOptions = SPEC_RATE_LIMITS) {
    this.options = validate(options);
  }

  get config(): RateLimitOptions {
    return this.options;
  }

  configure(options: RateLimitOptions): void {
    this.options = validate(options);
  }

  /** Admits a request arriving at `nowMs`, which the server may have come to `lateMs` late (default 0). */
  tryAcquire(key: string, nowMs: number, lateMs = 0): Admission {
    const state = this.stateOf(key);
    if (this.options.enabled) {
      if (state.inFlight >= this.options.maxConcurrent) return { ok: false, reason: 'concurrency', retryAfterSeconds: 1 };
      if (state.lastStartMs !== null) {
        const elapsed = nowMs - state.lastStartMs;
        if (elapsed < this.options.minIntervalMs) {
          return { ok: false, reason: 'interval', retryAfterSeconds: Math.max(1, Math.ceil((this.options.minIntervalMs - elapsed) / 1000)) };
        }
      }
    }
    state.inFlight += 1;
    // At most one interval back: never before the previous start (an admitted request is an interval after it).
    state.lastStartMs = nowMs - Math.min(Math.max(0, lateMs), this.options.minIntervalMs);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        state.inFlight -= 1;
      },
    };
  }

  inFlight(key: string): number {
    return this.states.get(key)?.inFlight ?? 0;
  }

  private stateOf(key: string): KeyState {
    let state = this.states.get(key);
    if (!state) {
      state = { inFlight: 0, lastStartMs: null };
      this.states.set(key, state);
    }
    return state;
  }
}

function validate(options: RateLimitOptions): RateLimitOptions {
  if (!Number.isSafeInteger(options.maxConcurrent) || options.maxConcurrent < 1) {
    throw new RangeError(`rateLimit.maxConcurrent: must be an integer >= 1 (got ${options.maxConcurrent})`);
  }
  if (!Number.isSafeInteger(options.minIntervalMs) || options.minIntervalMs < 0) {
    throw new RangeError(`rateLimit.minIntervalMs: must be an integer >= 0 (got ${options.minIntervalMs})`);
  }
  return { enabled: options.enabled, maxConcurrent: options.maxConcurrent, minIntervalMs: options.minIntervalMs };
}
