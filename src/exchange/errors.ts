/**
 * Typed errors of the exchange client. Every error the client throws is an `ExchangeClientError` with a stable
 * `code`; callers branch on the class (or `code`), never on message text.
 *
 * Owns: one class per error body shape of the spec's Errors section (ValidationError, FrameworkError,
 * MessageError, ExchangeTradingModeError) plus UnexpectedResponseError for a body that is none of them; the transport's
 * failures (NetworkError, ExchangeOutcomeUnknownError, ExchangeRateLimitedError); ResponseValidationError for an answer
 * that failed its schema; the two local input errors (OrderBuildError, RequestInputError); and `VenueRefusal`, the
 * one reading of the venue's refusal wording (it sends no code for those). The `Exchange` prefix keeps these apart
 * from the order manager's port errors of the same concepts (src/orders/venue-port.ts).
 *
 * Invariants: fields are readonly; messages and fields never contain the API secret, the request signature or the
 * private key (the transport scrubs server text before it gets here, see `scrubSecrets`); values are described
 * briefly (long strings cut) so an error is always safe to log.
 */
import { describeValue } from '../core/venue-rules/index.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

/** An endpoint as a bounded label: method + path template, e.g. `DELETE /orders/{orderId}`. */
export interface EndpointRef {
  readonly method: HttpMethod;
  readonly pathTemplate: string;
}

export function endpointLabel(endpoint: EndpointRef): string {
  return `${endpoint.method} ${endpoint.pathTemplate}`;
}

/** Common base of every error the exchange client throws. */
export abstract class ExchangeClientError extends Error {
  abstract readonly code: string;
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP answers with an error status, one class per body shape.

export interface FieldMessage {
  readonly field: string;
  readonly message: string;
}

export interface ValidationErrorBody {
  readonly message: readonly FieldMessage[];
  readonly error: string;
  readonly statusCode: number;
}

export interface FrameworkErrorBody {
  readonly message: string;
  readonly error: string;
  readonly statusCode: number;
}

export interface MessageErrorBody {
  readonly message: string;
}

export interface TradingModeErrorBody {
  readonly code: string;
  readonly message: string;
  readonly mode: string;
  readonly resumeAt: string | null;
}

/**
 * Why the venue refused a request, when its answer says so. The venue sends no code for these refusals: only the
 * message text of its error body (exchange-api.md § Errors, e.g. 400 `Market has already been resolved`). This is
 * the one place that wording is read; everything downstream branches on `ExchangeHttpError.refusal`.
 */
export type VenueRefusal = 'post-only-would-cross' | 'insufficient-balance' | 'market-closed';

const REFUSAL_WORDING: readonly (readonly [RegExp, VenueRefusal])[] = [
  [/post.?only/i, 'post-only-would-cross'],
  [/balance|collateral|insufficient/i, 'insufficient-balance'],
  [/resolved|expired|not tradable|closed/i, 'market-closed'],
];

/** The refusal a client-side error body (4xx) names, or null. Authentication failures (401/403) name none. */
export function venueRefusalOf(status: number, bodyText: string): VenueRefusal | null {
  if (status < 400 || status >= 500 || status === 401 || status === 403) return null;
  for (const [pattern, refusal] of REFUSAL_WORDING) if (pattern.test(bodyText)) return refusal;
  return null;
}

/** Base of the errors that carry an HTTP status, the endpoint and the parsed body. */
export abstract class ExchangeHttpError<B = unknown> extends ExchangeClientError {
  /** What the body says was refused (see `VenueRefusal`), or null. */
  readonly refusal: VenueRefusal | null;
  constructor(
    readonly status: number,
    readonly endpoint: EndpointRef,
    readonly body: B,
    detail: string,
  ) {
    super(`${endpointLabel(endpoint)} answered ${status}: ${detail}`);
    this.refusal = venueRefusalOf(status, detail);
  }
}

/** 400 `{message: [{field, message}], error, statusCode}`. */
export class ValidationError extends ExchangeHttpError<ValidationErrorBody> {
  override readonly name = 'ValidationError';
  readonly code = 'EXCHANGE_VALIDATION';
  constructor(status: number, endpoint: EndpointRef, body: ValidationErrorBody) {
    super(status, endpoint, body, body.message.map((m) => (m.field ? `${m.field}: ${m.message}` : m.message)).join('; '));
  }
  get fields(): readonly FieldMessage[] {
    return this.body.message;
  }
}

/** `{message, error, statusCode}` (the web framework's own shape: 401, 403, 404, 413, 500...). */
export class FrameworkError extends ExchangeHttpError<FrameworkErrorBody> {
  override readonly name = 'FrameworkError';
  readonly code = 'EXCHANGE_FRAMEWORK';
  constructor(status: number, endpoint: EndpointRef, body: FrameworkErrorBody) {
    super(status, endpoint, body, `${body.error}: ${body.message}`);
  }
}

/** `{message}` only. */
export class MessageError extends ExchangeHttpError<MessageErrorBody> {
  override readonly name = 'MessageError';
  readonly code = 'EXCHANGE_MESSAGE';
  constructor(status: number, endpoint: EndpointRef, body: MessageErrorBody) {
    super(status, endpoint, body, body.message);
  }
}

/**
 * A trading-mode block `{code, message, mode, resumeAt}` (425 per the spec, 503 in older docs). Never retried:
 * the caller refreshes the maintenance status and waits until `resumeAtMs`.
 */
export class ExchangeTradingModeError extends ExchangeHttpError<TradingModeErrorBody> {
  override readonly name = 'ExchangeTradingModeError';
  readonly code = 'EXCHANGE_TRADING_MODE';
  /** The venue's mode, e.g. `disabled`, `cancel_only`, `post_only` (an open set). */
  readonly mode: string;
  /** The venue's reason code, e.g. `trading_disabled`. */
  readonly tradingCode: string;
  /** When the mode is expected to end, ms since epoch; null when the venue did not say or said nonsense. */
  readonly resumeAtMs: number | null;
  constructor(status: number, endpoint: EndpointRef, body: TradingModeErrorBody) {
    super(status, endpoint, body, `trading mode ${body.mode} (${body.code}) until ${body.resumeAt ?? 'unknown'}: ${body.message}`);
    this.mode = body.mode;
    this.tradingCode = body.code;
    const parsed = body.resumeAt === null ? Number.NaN : Date.parse(body.resumeAt);
    this.resumeAtMs = Number.isFinite(parsed) ? parsed : null;
  }
}

/** An error status whose body matches none of the spec's shapes (HTML from a proxy, empty body...). */
export class UnexpectedResponseError extends ExchangeHttpError<string> {
  override readonly name = 'UnexpectedResponseError';
  readonly code = 'EXCHANGE_UNEXPECTED_RESPONSE';
  constructor(status: number, endpoint: EndpointRef, bodyExcerpt: string) {
    super(status, endpoint, bodyExcerpt, bodyExcerpt === '' ? '(empty body)' : `unrecognised body ${JSON.stringify(bodyExcerpt)}`);
  }
}

/** Every error class that carries an HTTP status. */
export type HttpStatusError = ValidationError | FrameworkError | MessageError | ExchangeTradingModeError | UnexpectedResponseError;

// ---------------------------------------------------------------------------------------------------------------
// Transport failures.

export type NetworkFailure = 'timeout' | 'connection';

/** No answer: the request timed out or the connection failed (for anything but POST /orders). */
export class NetworkError extends ExchangeClientError {
  override readonly name = 'NetworkError';
  readonly code = 'EXCHANGE_NETWORK';
  constructor(
    readonly endpoint: EndpointRef,
    readonly failure: NetworkFailure,
    detail: string,
  ) {
    super(`${endpointLabel(endpoint)}: ${failure === 'timeout' ? 'timed out' : 'connection failed'}: ${detail}`);
  }
}

/**
 * The transport was closed (the bot is stopping) before this request was sent: nothing reached the venue. Not a
 * sign of an unreachable venue; a request in flight when the transport closed still gets its answer.
 */
export class TransportClosedError extends ExchangeClientError {
  override readonly name = 'TransportClosedError';
  readonly code = 'EXCHANGE_TRANSPORT_CLOSED';
  constructor(readonly endpoint: EndpointRef) {
    super(`${endpointLabel(endpoint)}: not sent: the client is closed (the bot is stopping)`);
  }
}

/** Whether `error`, or an error it wraps (`cause`, a few levels deep), is a TransportClosedError. */
export function isTransportClosed(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof TransportClosedError) return true;
    current = current.cause;
  }
  return false;
}

/** `unavailable`: a 503 without the trading-mode body (perhaps the venue's maintenance refusal: src/venue/unavailable-answer.ts). */
export type OutcomeUnknownReason = 'timeout' | 'connection' | 'server-error' | 'unavailable' | 'unparseable-answer';

/**
 * A placement whose outcome is unknown: it may or may not rest on the book. Never retried blindly: resolve it by
 * `clientOrderId` (POST /orders/status/batch) before placing again.
 */
export class ExchangeOutcomeUnknownError extends ExchangeClientError {
  override readonly name = 'ExchangeOutcomeUnknownError';
  readonly code = 'EXCHANGE_OUTCOME_UNKNOWN';
  constructor(
    readonly endpoint: EndpointRef,
    readonly clientOrderId: string | null,
    readonly reason: OutcomeUnknownReason,
    /** The HTTP status when there was one (5xx, or a 2xx whose answer could not be read). */
    readonly status: number | null,
    readonly detail: string,
  ) {
    super(`${endpointLabel(endpoint)}: outcome unknown (${reason}${status === null ? '' : ` ${status}`}) for clientOrderId ${clientOrderId ?? '(none)'}: ${detail}`);
  }
}

/** 429 after the configured retries, or a Retry-After longer than the client is willing to wait. */
export class ExchangeRateLimitedError extends ExchangeClientError {
  override readonly name = 'ExchangeRateLimitedError';
  readonly code = 'EXCHANGE_RATE_LIMITED';
  constructor(
    readonly endpoint: EndpointRef,
    readonly attempts: number,
    /** The venue's last Retry-After in ms, when it sent one. */
    readonly retryAfterMs: number | null,
  ) {
    super(`${endpointLabel(endpoint)}: rate limited after ${attempts} attempt(s)${retryAfterMs === null ? '' : `, Retry-After ${retryAfterMs} ms`}`);
  }
}

export interface ResponseIssue {
  /** Field path in the answer, e.g. `bids[3].price`; `(root)` for the whole body. */
  readonly path: string;
  readonly message: string;
  /** Brief description of the offending value. */
  readonly value: string;
}

/** A 2xx answer that failed its schema: names the first offending field and its value. */
export class ResponseValidationError extends ExchangeClientError {
  override readonly name = 'ResponseValidationError';
  readonly code = 'EXCHANGE_RESPONSE_INVALID';
  readonly path: string;
  readonly value: string;
  constructor(
    readonly endpoint: EndpointRef,
    readonly status: number,
    readonly issues: readonly ResponseIssue[],
  ) {
    const first = issues[0] ?? { path: '(root)', message: 'invalid', value: '?' };
    const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
    super(`${endpointLabel(endpoint)} answer ${status} failed validation at ${first.path}: ${first.message} (got ${first.value})${more}`);
    this.path = first.path;
    this.value = first.value;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Local input errors: thrown before anything is signed or sent.

export type OrderBuildErrorCode =
  | 'PRICE_OFF_TICK'
  | 'PRICE_OUT_OF_BAND'
  | 'SIZE_OFF_STEP'
  | 'SIZE_BELOW_MINIMUM'
  | 'AMOUNT_INVALID'
  | 'UNKNOWN_TOKEN'
  | 'MARKET_NOT_TRADABLE'
  | 'POST_ONLY_REQUIRES_GTC'
  | 'CLIENT_ORDER_ID_INVALID'
  | 'RECV_WINDOW_INVALID'
  | 'STP_POLICY_INVALID'
  | 'ORDER_TYPE_INVALID'
  | 'SIDE_INVALID'
  | 'SIGNER_CONFIG_INVALID';

/** An order (or the signer's configuration) that must not be signed. Names the field and the value. */
export class OrderBuildError extends ExchangeClientError {
  override readonly name = 'OrderBuildError';
  constructor(
    readonly code: OrderBuildErrorCode,
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${code}: ${field} ${reason} (got ${describeValue(value)})`);
  }
}

/** An endpoint argument that the spec forbids (bad UUID, limit out of range...): nothing was sent. */
export class RequestInputError extends ExchangeClientError {
  override readonly name = 'RequestInputError';
  readonly code = 'REQUEST_INPUT_INVALID';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${describeValue(value)})`);
  }
}

// ---------------------------------------------------------------------------------------------------------------

const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret (ignoring empty ones) in `text`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** True for the 409 a duplicate clientOrderId gets on POST /orders: the first placement was accepted. */
export function isDuplicateOrderError(error: unknown): error is HttpStatusError {
  return error instanceof ExchangeHttpError && error.status === 409 && error.endpoint.pathTemplate === '/orders';
}
