/**
 * The retry policy of every request the client sends, as one table: per request kind and per failure, what the
 * transport (http.ts) does — retry or not, how many times, which wait, whether Retry-After is honoured, and which
 * error it gives up with.
 *
 * Owns: the request kinds (each endpoint of endpoints.ts has one), the failure classes (`classifyStatus` maps an
 * answer onto them), the table `RETRY_TABLE`, and the default numbers `RETRY_DEFAULTS`. These defaults are the only
 * ones: the config's `rateLimits.retry` defaults read them (src/config/schema.ts), and a transport built without a
 * policy uses them. Pure: no state, no I/O.
 *
 * Invariants: every (kind, failure) pair has exactly one row; a request that may have taken effect at the venue
 * (a placement, a cancel-replace) is never retried once it may have reached it — no answer, a 5xx or an unreadable
 * 2xx is an unknown outcome; a refusal that proves nothing took effect (425 receive window, 429) may be retried by
 * every kind; a trading-mode or maintenance refusal is never retried blindly (the caller refreshes the mode); a bare
 * 503 of a trading request is never retried by the transport: the venue's API reference ("Maintenance mode") says
 * POST /orders answers 503 in `cancel_only` and `disabled` and that clients must refresh the maintenance status rather
 * than retry, so the caller (src/venue/unavailable-answer.ts) refreshes the mode and tells a refusal from an unknown
 * outcome.
 */

/** What a request does at the venue, which decides what may be retried. */
export const REQUEST_KINDS = ['read', 'account', 'place', 'cancel', 'cancel-replace', 'redeem'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/**
 * How a request failed:
 * - `receive-window`: 425 of a request whose body opted into the receive window (`recvWindow`), no trading-mode body;
 * - `maintenance`: any other 425 without the trading-mode body (a maintenance block of unknown shape);
 * - `trading-mode`: an answer carrying the trading-mode body `{code, message, mode, resumeAt}` (425, 503, any status);
 * - `rate-limited`: 429; `unavailable`: 503 without the trading-mode body; `server-error`: any other 5xx;
 * - `refused`: any other status that is not an answer (4xx);
 * - `timeout`, `connection`: no answer (no answer within the timeout; connection refused or lost);
 * - `unreadable-answer`: a 2xx whose body is not JSON or fails its wire.ts schema.
 */
export const REQUEST_FAILURES = ['receive-window', 'maintenance', 'trading-mode', 'rate-limited', 'unavailable', 'server-error', 'refused', 'timeout', 'connection', 'unreadable-answer'] as const;
export type RequestFailure = (typeof REQUEST_FAILURES)[number];

/**
 * What the transport does:
 * - `re-stamp`: retried at once, body timestamp and HMAC re-stamped, up to `maxReceiveWindowRetries`;
 * - `wait-retry-after`: waits Retry-After (seconds or HTTP date), else `rateLimitBaseMs` doubling capped at
 *   `rateLimitMaxMs`; the whole limiter of the credentials pauses as long; up to `maxRateLimitRetries`, then
 *   ExchangeRateLimitedError; a Retry-After beyond `maxRetryAfterMs` fails at once;
 * - `backoff`: waits `serverErrorBaseMs` doubling capped at `serverErrorMaxMs`, jittered to [50 %, 100 %); up to
 *   `maxServerErrorRetries`, then the last answer's typed error;
 * - `outcome-unknown`: not retried; ExchangeOutcomeUnknownError carrying the clientOrderId (resolve it by lookup);
 * - `fail`: not retried; the failure's typed error at once (the status's error, ExchangeTradingModeError,
 *   NetworkError, ResponseValidationError).
 */
export type RetryAction = 're-stamp' | 'wait-retry-after' | 'backoff' | 'outcome-unknown' | 'fail';

export interface RetryPolicy {
  /** Re-stamped retries after a 425 receive-window failure. */
  readonly maxReceiveWindowRetries: number;
  /** Retries after 429 before ExchangeRateLimitedError. */
  readonly maxRateLimitRetries: number;
  /** Retries after 5xx (only where the table says `backoff`). */
  readonly maxServerErrorRetries: number;
  /** First wait after a 429 without Retry-After; doubles each time. */
  readonly rateLimitBaseMs: number;
  /** Cap of the doubling wait after 429. */
  readonly rateLimitMaxMs: number;
  /** A Retry-After longer than this is not waited out: ExchangeRateLimitedError at once (the caller decides). */
  readonly maxRetryAfterMs: number;
  /** First backoff after 5xx; doubles each time, then jittered to [50 %, 100 %). */
  readonly serverErrorBaseMs: number;
  readonly serverErrorMaxMs: number;
}

/**
 * The one set of default numbers. The config exposes one count and one backoff for 429 and 5xx alike
 * (`rateLimits.retry.maxRetries`, `initialBackoffMs`, `maxBackoffMs`, `maxRetryAfterSec`), so the two rows share them;
 * the receive-window retries are not configurable.
 */
export const RETRY_DEFAULTS: RetryPolicy = {
  maxReceiveWindowRetries: 2,
  maxRateLimitRetries: 3,
  maxServerErrorRetries: 3,
  rateLimitBaseMs: 1000,
  rateLimitMaxMs: 30_000,
  maxRetryAfterMs: 120_000,
  serverErrorBaseMs: 1000,
  serverErrorMaxMs: 30_000,
};

type Row = Readonly<Record<RequestFailure, RetryAction>>;

/** A request with no effect at the venue, or whose effect is safe to ask for twice. */
const SAFE: Row = {
  'receive-window': 're-stamp',
  maintenance: 'fail',
  'trading-mode': 'fail',
  'rate-limited': 'wait-retry-after',
  unavailable: 'backoff',
  'server-error': 'backoff',
  refused: 'fail',
  timeout: 'fail',
  connection: 'fail',
  'unreadable-answer': 'fail',
};

/** A request that may have taken effect once it may have reached the venue: never sent twice. */
const TAKES_EFFECT: Row = {
  ...SAFE,
  unavailable: 'outcome-unknown',
  'server-error': 'outcome-unknown',
  timeout: 'outcome-unknown',
  connection: 'outcome-unknown',
  'unreadable-answer': 'outcome-unknown',
};

/**
 * A cancel: safe to ask twice, so retried after a 5xx; but a bare 503 may be the venue's maintenance refusal, which is
 * not retried blindly: the caller refreshes the mode and looks the orders up.
 */
const CANCEL: Row = { ...SAFE, unavailable: 'fail' };

/**
 * The table. Reads, profile/auth reads, cancels and redemptions are retried after 5xx (a cancel or a redemption asked
 * twice does nothing more; a lost cancel answer is a NetworkError the order manager resolves by lookup), a cancel not
 * after a bare 503; placements and cancel-replaces are not.
 */
export const RETRY_TABLE: Readonly<Record<RequestKind, Row>> = {
  read: SAFE,
  account: SAFE,
  place: TAKES_EFFECT,
  cancel: CANCEL,
  'cancel-replace': TAKES_EFFECT,
  redeem: SAFE,
};

/** A row with its numbers (from the policy). */
export type RetryRule =
  | { readonly action: 're-stamp'; readonly retries: number }
  | { readonly action: 'wait-retry-after'; readonly retries: number; readonly baseMs: number; readonly capMs: number; readonly maxRetryAfterMs: number }
  | { readonly action: 'backoff'; readonly retries: number; readonly baseMs: number; readonly capMs: number }
  | { readonly action: 'outcome-unknown' | 'fail' };

/** The policy: RETRY_DEFAULTS with `overrides` laid over them (the config's, or a caller's). */
export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { ...RETRY_DEFAULTS, ...overrides };
}

/** What the transport does for a `kind` request that failed with `failure`, with the policy's numbers. */
export function retryRule(kind: RequestKind, failure: RequestFailure, policy: RetryPolicy = RETRY_DEFAULTS): RetryRule {
  const action = RETRY_TABLE[kind][failure];
  switch (action) {
    case 're-stamp':
      return { action, retries: policy.maxReceiveWindowRetries };
    case 'wait-retry-after':
      return { action, retries: policy.maxRateLimitRetries, baseMs: policy.rateLimitBaseMs, capMs: policy.rateLimitMaxMs, maxRetryAfterMs: policy.maxRetryAfterMs };
    case 'backoff':
      return { action, retries: policy.maxServerErrorRetries, baseMs: policy.serverErrorBaseMs, capMs: policy.serverErrorMaxMs };
    case 'outcome-unknown':
    case 'fail':
      return { action };
  }
}

/**
 * The failure an error answer is (2xx and accepted statuses are answers, not failures): `tradingMode` when its body
 * is the trading-mode body, `receiveWindow` when the request's body opted into the receive window.
 */
export function classifyStatus(status: number, answer: { readonly tradingMode: boolean; readonly receiveWindow: boolean }): RequestFailure {
  if (answer.tradingMode) return 'trading-mode';
  if (status === 425) return answer.receiveWindow ? 'receive-window' : 'maintenance';
  if (status === 429) return 'rate-limited';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'server-error';
  return 'refused';
}

/** Doubling backoff: base × 2^(retry−1), capped. `retry` counts from 1. */
export function exponentialDelay(retry: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
}

/** Equal jitter: a delay in [delay/2, delay). */
export function jittered(delayMs: number, random: () => number): number {
  return Math.round(delayMs / 2 + (delayMs / 2) * random());
}
