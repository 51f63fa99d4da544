/**
 * The HTTP transport: one signed attempt at a time through the credentials' limiter, with the retry table of
 * retry-table.ts (the spec and exchange-facts §7), per-attempt timeouts and typed errors.
 *
 * Owns: the exact bytes sent (URL, query encoding, body string) and that they are what is HMAC-signed; carrying out
 * the retry table's rule for the request's kind and its failure (retry-table.ts decides, this module waits, re-signs
 * and throws); turning failures into typed errors. The wire itself is http-sender.ts (node:http(s) with keep-alive by
 * default, or an injected fetch).
 *
 * How a failure is told: an answer with the trading-mode body `{code, message, mode, resumeAt}` (any status) is
 * `trading-mode` (ExchangeTradingModeError); a 425 of a request whose body carries `recvWindow` is `receive-window`
 * (re-stamped: HMAC timestamp, signature and the body's `timestamp`), any other 425 `maintenance` (the caller
 * refreshes GET /maintenance/status); 429 waits Retry-After, pausing the whole limiter; statuses in the request's
 * `acceptStatuses` are answers. A 2xx answer that fails validation (`request` reads it with the caller's wire.ts
 * parser) is reported once to `observer.onInvalidAnswer`: the one place every invalid answer passes.
 *
 * Invariants: every attempt is built and signed afresh inside its limiter slot; the API secret and the signature
 * never appear in an error (server text is scrubbed); observers cannot break a request; once `close()` ran no attempt
 * starts (a request not yet sent rejects with TransportClosedError, which is not a failure to reach the venue), and
 * `whenIdle()` says when the attempts already started have their answers (so the venue can close after the last one).
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_HEADER_PREFIX, signRequest, authHeaderNames, type ApiCredentials } from './auth.js';
import {
  endpointLabel,
  NetworkError,
  ExchangeOutcomeUnknownError,
  ExchangeRateLimitedError,
  RequestInputError,
  ResponseValidationError,
  TransportClosedError,
  scrubSecrets,
  ExchangeTradingModeError,
  type EndpointRef,
  type HttpMethod,
  type HttpStatusError,
  type NetworkFailure,
} from './errors.js';
import { fetchSender, nodeSender, type FetchLike, type Sender } from './http-sender.js';
import { realSleep, realTimer, sharedLimiters, type LimiterConfig, type LimiterObserver, type RequestLimiter, type RequestPriority } from './limiter.js';
import { createSharedGate, type SharedLimiterOptions } from './shared-limiter.js';
import { classifyStatus, exponentialDelay, jittered, retryPolicy, retryRule, type RequestFailure, type RequestKind, type RetryPolicy, type RetryRule } from './retry-table.js';

export type { FetchLike } from './http-sender.js';
import { errorFromBody } from './wire.js';
import { errorText } from '../core/errors.js';

export type RetryReason = 'receive-window' | 'rate-limited' | 'server-error';
export type ErrorStatusKind = RetryReason | 'trading-mode' | 'maintenance';

/** Metrics hooks. Endpoint labels are `METHOD /path/{template}` (a bounded set). */
export interface TransportObserver extends LimiterObserver {
  onRequestStart?(endpoint: string, attempt: number): void;
  /** The request has been handed to the OS (the moment the limiter spaces by). */
  onRequestSent?(endpoint: string, attempt: number): void;
  /** `status` is the HTTP status, or `timeout` / `network` when no answer came. */
  onRequestEnd?(endpoint: string, status: number | 'timeout' | 'network', ms: number, attempt: number): void;
  /** No answer came (after onRequestEnd): why, as the OS or the timeout says it (secrets scrubbed). */
  onNoAnswer?(endpoint: string, failure: NetworkFailure, detail: string): void;
  onRetry?(endpoint: string, reason: RetryReason, attempt: number, delayMs: number): void;
  /** 425 (receive window or trading mode), 429 and 5xx answers. */
  onErrorStatus?(endpoint: string, status: number, kind: ErrorStatusKind): void;
  /**
   * A 2xx answer failed validation (not JSON, or its schema in wire.ts): once per answer, before the error is thrown
   * (for a placement as ExchangeOutcomeUnknownError). `error` names the field path and the value.
   */
  onInvalidAnswer?(endpoint: string, status: number, error: ResponseValidationError): void;
  /** A valid answer whose parts could not be read were left out (an element of a list, a figure): each with its path. */
  onSkippedParts?(endpoint: string, skipped: readonly { readonly path: string; readonly reason: string }[]): void;
}

export interface HttpTransportOptions {
  /** e.g. https://api.example.com (no trailing path needed; a path prefix is kept and signed). */
  readonly baseUrl: string;
  /** Needed for authenticated requests. */
  readonly credentials?: ApiCredentials;
  /** Auth header prefix (`{prefix}-api-key`...); default the live venue's `lmts` (auth.ts). */
  readonly headerPrefix?: string;
  /** Send through this fetch instead of the default node:http(s) sender (tests, custom dispatchers). */
  readonly fetch?: FetchLike;
  /** Default: the shared limiter of these credentials (sharedLimiters), built with `limits`. */
  readonly limiter?: RequestLimiter;
  readonly limits?: Partial<LimiterConfig>;
  /**
   * One limit per API token across processes (shared-limiter.ts): the default limiter of these credentials gets a
   * Redis gate. Ignored with an explicit `limiter` or without credentials.
   */
  readonly shared?: Pick<SharedLimiterOptions, 'redisUrl' | 'fallbackShare'> & Partial<SharedLimiterOptions>;
  /** Laid over the retry table's defaults (retry-table.ts `RETRY_DEFAULTS`); the bot passes its config's. */
  readonly retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout; default 10 s. */
  readonly timeoutMs?: number;
  /**
   * Arms an attempt's answer timeout (`timeoutMs` from when the attempt leaves the limiter); returns its cancel.
   * Default: a Node timer. Tests pass a fake clock's, so a slow machine never turns an answer into a timeout.
   */
  readonly setTimer?: (fn: () => void, ms: number) => () => void;
  /** Wall clock (ms since epoch) for HMAC and body timestamps. */
  readonly now?: () => number;
  /** Monotonic clock (ms) for durations. */
  readonly monotonicNow?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Random in [0, 1) for backoff jitter. */
  readonly random?: () => number;
  readonly observer?: TransportObserver;
  readonly userAgent?: string;
}

export interface HttpRequest {
  readonly method: HttpMethod;
  /** The bounded label, e.g. `/orders/{orderId}`. */
  readonly pathTemplate: string;
  /** The concrete path, segments already encoded (see `encodePathSegment`). */
  readonly path: string;
  /** Query parameters in order; repeat a key for a repeatable parameter. */
  readonly query?: readonly (readonly [string, string])[];
  readonly headers?: Readonly<Record<string, string>>;
  /** Built for every attempt with that attempt's clock (so a receive-window `timestamp` is fresh). */
  readonly body?: (nowMs: number) => unknown;
  readonly auth: boolean;
  readonly priority: RequestPriority;
  /** What the request does at the venue: its row of the retry table (retry-table.ts). */
  readonly kind: RequestKind;
  /** The clientOrderId an ExchangeOutcomeUnknownError of this request carries (a placement's; null: none). */
  readonly clientOrderId?: string | null;
  /** Runs when an attempt is about to be sent (after the limiter's wait); what it throws cancels the request unsent. */
  readonly beforeSend?: () => void;
  /** Error statuses whose body is an answer for this endpoint (e.g. 409 of POST /orders/cancel-replace). */
  readonly acceptStatuses?: readonly number[];
}

export interface HttpAnswer {
  readonly status: number;
  /** Parsed JSON; undefined for an empty body. */
  readonly body: unknown;
}

/** encodeURIComponent plus `!'()*`, so the URL parser never re-encodes what was signed. */
export function strictEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export const encodePathSegment = strictEncode;

export function buildQuery(query: readonly (readonly [string, string])[] | undefined): string {
  if (!query || query.length === 0) return '';
  return `?${query.map(([k, v]) => `${strictEncode(k)}=${strictEncode(v)}`).join('&')}`;
}

/** Retry-After: delta seconds (integer or decimal) or an HTTP date → ms from now; null when absent or invalid. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - nowMs) : null;
}

/** A 2xx body: undefined when empty, else its JSON; ResponseValidationError when it is not JSON. */
function parseJsonAnswer(endpoint: EndpointRef, status: number, text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    const excerpt = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    throw new ResponseValidationError(endpoint, status, [{ path: '(root)', message: 'answer is not JSON', value: JSON.stringify(excerpt) }]);
  }
}

/** The observer's kind of an error status (null: not reported as one). */
const STATUS_KINDS: Readonly<Record<RequestFailure, ErrorStatusKind | null>> = {
  'receive-window': 'receive-window',
  maintenance: 'maintenance',
  'trading-mode': 'trading-mode',
  'rate-limited': 'rate-limited',
  unavailable: 'server-error',
  'server-error': 'server-error',
  refused: null,
  timeout: null,
  connection: null,
  'unreadable-answer': null,
};

/** The observer's retry reason of each retrying action. */
const RETRY_REASONS = { 're-stamp': 'receive-window', 'wait-retry-after': 'rate-limited', backoff: 'server-error' } as const satisfies Record<string, RetryReason>;

type AttemptResult =
  | { readonly kind: 'late' }
  | { readonly kind: 'answer'; readonly status: number; readonly text: string; readonly retryAfter: string | null; readonly receiveWindow: boolean }
  | { readonly kind: 'failed'; readonly failure: NetworkFailure; readonly detail: string };

/** A refused answer judged: its typed error, the retry table's rule, and for a 429 its Retry-After and the wait. */
interface Verdict {
  readonly error: HttpStatusError;
  readonly rule: RetryRule;
  readonly retryAfterMs: number | null;
  readonly waitMs: number;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

function describeFailure(error: unknown): string {
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? `${errorText(error)}: ${errorText(cause)}` : errorText(error);
}

export class HttpTransport {
  readonly baseUrl: string;
  readonly limiter: RequestLimiter;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly credentials: ApiCredentials | undefined;
  private readonly headerPrefix: string;
  private readonly sender: Sender;
  private readonly closeSender: () => void;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => () => void;
  private readonly now: () => number;
  private readonly monotonicNow: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly observer: TransportObserver;
  private readonly userAgent: string | undefined;
  private readonly unobserve: () => void;
  private readonly releaseLimiter: () => Promise<void>;
  private closing: Promise<void> | null = null;
  /** Set by `close()`: no attempt starts any more. */
  private closed = false;
  /** Attempts started and not finished (sent or being sent). */
  private attempts = 0;
  private readonly onIdle = new Set<() => void>();

  constructor(options: HttpTransportOptions) {
    const url = URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '') {
      throw new RequestInputError('baseUrl', options.baseUrl, 'must be an http(s) URL without a query');
    }
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.baseUrl = `${this.origin}${this.basePath}`;
    this.credentials = options.credentials;
    this.headerPrefix = options.headerPrefix ?? DEFAULT_HEADER_PREFIX;
    if (options.fetch) {
      this.sender = fetchSender(options.fetch);
      this.closeSender = () => undefined;
    } else {
      const sender = nodeSender();
      this.sender = sender.send;
      this.closeSender = () => sender.close();
    }
    this.retry = retryPolicy(options.retry);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.setTimer = options.setTimer ?? realTimer;
    this.now = options.now ?? Date.now;
    this.monotonicNow = options.monotonicNow ?? (() => performance.now());
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.observer = options.observer ?? {};
    this.userAgent = options.userAgent;
    if (options.limiter) {
      this.limiter = options.limiter;
      this.releaseLimiter = async () => undefined;
    } else {
      const tokenId = options.credentials?.tokenId;
      const shared = options.shared;
      const limits = options.limits;
      const use = sharedLimiters.use(tokenId ?? 'anonymous', limits, {
        now: this.monotonicNow,
        ...(shared && tokenId !== undefined
          ? {
              gate: () =>
                createSharedGate({
                  ...shared,
                  tokenId,
                  maxConcurrent: shared.maxConcurrent ?? limits?.maxConcurrent ?? 2,
                  minTimeMs: shared.minTimeMs ?? limits?.minTimeMs ?? 300,
                }),
            }
          : {}),
      });
      this.limiter = use.limiter;
      this.releaseLimiter = () => use.release();
    }
    this.unobserve = this.limiter.observe(this.observer);
  }

  get hasCredentials(): boolean {
    return this.credentials !== undefined;
  }

  /**
   * Refuses every request not sent yet (queued in the limiter, waiting to retry, or made later: each rejects with
   * TransportClosedError and sends nothing), detaches this transport's observer from its (possibly shared) limiter and
   * closes idle connections; the last transport of a Redis-gated limiter closes its gate. Attempts already started go
   * on to their answer: `whenIdle` waits for them, so whoever closes the venue after this can do it after the last
   * request.
   */
  close(): void {
    this.closed = true;
    this.unobserve();
    // Connections close once the attempts on them have their answers (destroying them would cut those short).
    this.closing ??= Promise.all([this.releaseLimiter().catch(() => undefined), this.whenIdle().then(() => this.closeSender())]).then(() => undefined);
  }

  /**
   * `close()`, and the connections destroyed at once: an attempt still waiting for its answer ends now (its outcome is
   * unknown, as after a timeout). For a stop that cannot wait: a start-up that is still connecting, or a venue that
   * did not answer within the drain.
   */
  abort(): void {
    this.close();
    this.closeSender();
  }

  /** Resolves once `close()` has released everything (a gated limiter's Redis connection included). */
  whenClosed(): Promise<void> {
    return this.closing ?? Promise.resolve();
  }

  /** Resolves once no attempt is started and unfinished (at once when none is); after `close()`, none starts again. */
  whenIdle(): Promise<void> {
    if (this.attempts === 0) return Promise.resolve();
    return new Promise((resolveIdle) => this.onIdle.add(resolveIdle));
  }

  /** Sends `request` with the retry table; resolves with a 2xx answer (its body JSON-parsed) or throws a typed error. */
  async send(request: HttpRequest): Promise<HttpAnswer> {
    return this.request(request, (answer) => answer);
  }

  /**
   * Sends `request` and reads its 2xx answer with `read` (a wire.ts parser). Every answer's validation passes here:
   * a ResponseValidationError (the body is not JSON, or `read` refused it) is reported once to
   * `observer.onInvalidAnswer`, then thrown as the retry table's row `unreadable-answer` says (for a placement:
   * ExchangeOutcomeUnknownError `unparseable-answer`).
   */
  async request<T>(request: HttpRequest, read: (answer: HttpAnswer, endpoint: EndpointRef) => T): Promise<T> {
    const endpoint: EndpointRef = { method: request.method, pathTemplate: request.pathTemplate };
    const { status, text } = await this.exchange(request, endpoint);
    try {
      return read({ status, body: parseJsonAnswer(endpoint, status, text) }, endpoint);
    } catch (error) {
      if (!(error instanceof ResponseValidationError)) throw error;
      this.emit((o) => o.onInvalidAnswer?.(endpointLabel(endpoint), status, error));
      if (this.rule(request, 'unreadable-answer').action === 'outcome-unknown') throw new ExchangeOutcomeUnknownError(endpoint, request.clientOrderId ?? null, 'unparseable-answer', status, error.message);
      throw error;
    }
  }

  /** The retry loop: the first 2xx (or accepted) answer's status and text, or a typed error, as the retry table says. */
  private async exchange(request: HttpRequest, endpoint: EndpointRef): Promise<{ readonly status: number; readonly text: string }> {
    const label = endpointLabel(endpoint);
    if (this.closed) throw new TransportClosedError(endpoint);
    if (request.auth && !this.credentials) throw new RequestInputError('credentials', undefined, `are required for ${label}`);
    const retries: Record<RetryReason, number> = { 'receive-window': 0, 'rate-limited': 0, 'server-error': 0 };
    for (let attempt = 1; ; attempt++) {
      // The answer is judged inside the limiter slot: a 429's pause must be set before the slot frees, or a request
      // queued behind this one starts in the gap (the Retry-After is every request's, not this one's only).
      const result = await this.limiter.schedule(request.priority, async (markSent, onTime, markNotSent) => {
        // Closed while it waited in the limiter or before a retry: it is never sent.
        if (this.closed) {
          markNotSent();
          throw new TransportClosedError(endpoint);
        }
        const outcome = await this.attempt(request, label, attempt, markSent, onTime, markNotSent);
        return outcome.kind === 'answer' ? { ...outcome, verdict: this.judge(request, endpoint, outcome, retries['rate-limited']) } : outcome;
      });
      // Not sent: its start permit lapsed before it reached the wire. Asked again (not a retry: nothing was sent).
      if (result.kind === 'late') continue;
      if (result.kind === 'failed') {
        // No answer: never retried (the table has no retry for `timeout` or `connection`).
        if (this.rule(request, result.failure).action === 'outcome-unknown') {
          throw new ExchangeOutcomeUnknownError(endpoint, request.clientOrderId ?? null, result.failure, null, result.detail);
        }
        throw new NetworkError(endpoint, result.failure, result.detail);
      }
      const { status, text, verdict } = result;
      if (verdict === null) return { status, text };
      const { error, rule } = verdict;
      let delayMs: number;
      switch (rule.action) {
        case 'fail':
          throw error;
        case 'outcome-unknown':
          throw new ExchangeOutcomeUnknownError(endpoint, request.clientOrderId ?? null, status === 503 ? 'unavailable' : 'server-error', status, error.message);
        case 're-stamp':
          if (retries['receive-window'] >= rule.retries) throw error;
          delayMs = 0;
          break;
        case 'wait-retry-after': {
          // The pause of every start was set when the answer came (judge); this request waits as long.
          delayMs = verdict.waitMs;
          if (retries['rate-limited'] >= rule.retries || (verdict.retryAfterMs !== null && verdict.retryAfterMs > rule.maxRetryAfterMs)) {
            throw new ExchangeRateLimitedError(endpoint, attempt, verdict.retryAfterMs);
          }
          break;
        }
        case 'backoff':
          if (retries['server-error'] >= rule.retries) throw error;
          delayMs = jittered(exponentialDelay(retries['server-error'] + 1, rule.baseMs, rule.capMs), this.random);
          break;
      }
      const reason = RETRY_REASONS[rule.action];
      retries[reason] += 1;
      this.emit((o) => o.onRetry?.(label, reason, attempt, delayMs));
      if (delayMs > 0) await this.sleep(delayMs);
    }
  }

  /**
   * What an answer means: null for a 2xx (or accepted) one, else its typed error and the retry table's rule. A
   * rate-limited answer pauses every start of these credentials at once (bounded by maxRetryAfterMs, so an absurd
   * Retry-After cannot freeze the client), also when this request gives up: the venue's ban outlives it.
   */
  private judge(request: HttpRequest, endpoint: EndpointRef, answer: Extract<AttemptResult, { kind: 'answer' }>, rateLimitedRetries: number): Verdict | null {
    const { status, text } = answer;
    if ((status >= 200 && status < 300) || request.acceptStatuses?.includes(status) === true) return null;
    const error = errorFromBody(status, endpoint, text);
    const failure = classifyStatus(status, { tradingMode: error instanceof ExchangeTradingModeError, receiveWindow: answer.receiveWindow });
    const statusKind = STATUS_KINDS[failure];
    if (statusKind !== null) this.emit((o) => o.onErrorStatus?.(endpointLabel(endpoint), status, statusKind));
    const rule = this.rule(request, failure);
    if (rule.action !== 'wait-retry-after') return { error, rule, retryAfterMs: null, waitMs: 0 };
    const retryAfterMs = parseRetryAfter(answer.retryAfter, this.now());
    const waitMs = retryAfterMs ?? exponentialDelay(rateLimitedRetries + 1, rule.baseMs, rule.capMs);
    this.limiter.pauseFor(Math.min(waitMs, rule.maxRetryAfterMs));
    return { error, rule, retryAfterMs, waitMs };
  }

  /** The retry table's rule for this request's kind and `failure`, with this transport's numbers. */
  private rule(request: HttpRequest, failure: RequestFailure): RetryRule {
    return retryRule(request.kind, failure, this.retry);
  }

  /** One attempt, counted while it runs (`whenIdle`). */
  private async attempt(request: HttpRequest, label: string, attempt: number, markSent: () => void, onTime: () => boolean, markNotSent: () => void): Promise<AttemptResult> {
    this.attempts += 1;
    try {
      return await this.attemptOnce(request, label, attempt, markSent, onTime, markNotSent);
    } finally {
      this.attempts -= 1;
      if (this.attempts === 0) {
        for (const resolveIdle of this.onIdle) resolveIdle();
        this.onIdle.clear();
      }
    }
  }

  /** One attempt: build the body and sign with this moment's clock, send, read the whole answer. */
  private async attemptOnce(request: HttpRequest, label: string, attempt: number, markSent: () => void, onTime: () => boolean, markNotSent: () => void): Promise<AttemptResult> {
    try {
      request.beforeSend?.();
    } catch (error) {
      // Withheld by its own check as it left the limiter: nothing was sent, so no start is counted.
      markNotSent();
      throw error;
    }
    const nowMs = this.now();
    const pathWithQuery = `${this.basePath}${request.path}${buildQuery(request.query)}`;
    const bodyValue = request.body?.(nowMs);
    const bodyText = bodyValue === undefined ? '' : JSON.stringify(bodyValue);
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (bodyText !== '') headers['content-type'] = 'application/json';
    if (this.userAgent) headers['user-agent'] = this.userAgent;
    let signature = '';
    if (request.auth && this.credentials) {
      const auth = signRequest({
        credentials: this.credentials,
        method: request.method,
        pathWithQuery,
        body: bodyText,
        nowMs,
        prefix: this.headerPrefix,
      });
      signature = auth[authHeaderNames(this.headerPrefix).signature] ?? '';
      Object.assign(headers, auth);
    }
    const secrets = [this.credentials?.secret ?? '', signature];
    // The last moment before the wire: a start permit that lapsed while this was prepared (a loaded loop) sends nothing.
    if (!onTime()) return { kind: 'late' };
    const controller = new AbortController();
    const cancelTimeout = this.setTimer(() => controller.abort(), this.timeoutMs);
    const started = this.monotonicNow();
    let sent = false;
    this.emit((o) => o.onRequestStart?.(label, attempt));
    try {
      const response = await this.sender(
        {
          url: new URL(`${this.origin}${pathWithQuery}`),
          method: request.method,
          headers,
          body: bodyText === '' ? undefined : bodyText,
          signal: controller.signal,
        },
        () => {
          if (sent) return;
          sent = true;
          // Observers first: a stamp taken there is never later than the limiter's own (markSent runs the pump), so
          // the gaps between observed sends are never shorter than the spacing the limiter keeps.
          this.emit((o) => o.onRequestSent?.(label, attempt));
          markSent();
        },
      );
      this.emit((o) => o.onRequestEnd?.(label, response.status, this.monotonicNow() - started, attempt));
      const receiveWindow = typeof bodyValue === 'object' && bodyValue !== null && typeof Reflect.get(bodyValue, 'recvWindow') === 'number';
      return { kind: 'answer', status: response.status, text: scrubSecrets(response.text, secrets), retryAfter: response.retryAfter, receiveWindow };
    } catch (error) {
      const failure: NetworkFailure = controller.signal.aborted || isAbort(error) ? 'timeout' : 'connection';
      this.emit((o) => o.onRequestEnd?.(label, failure === 'timeout' ? 'timeout' : 'network', this.monotonicNow() - started, attempt));
      const detail = scrubSecrets(failure === 'timeout' ? `no answer within ${this.timeoutMs} ms` : describeFailure(error), secrets);
      // After close() the venue may be closing too (the embedded simulator goes last): not a sign it is unreachable.
      if (!this.closed) this.emit((o) => o.onNoAnswer?.(label, failure, detail));
      return { kind: 'failed', failure, detail };
    } finally {
      cancelTimeout();
    }
  }

  /** Reports the parts of an answer its parser left out (ExchangeApi, after a lenient parse) to the observer. */
  reportSkipped(endpoint: EndpointRef, skipped: readonly { readonly path: string; readonly reason: string }[]): void {
    if (skipped.length > 0) this.emit((o) => o.onSkippedParts?.(endpointLabel(endpoint), skipped));
  }

  private emit(call: (observer: TransportObserver) => void): void {
    try {
      call(this.observer);
    } catch {
      // An observer must never break request flow.
    }
  }
}
