import { describe, expect, it, vi } from 'vitest';
import { computeSignature, signingMessage } from '../../../src/exchange/auth.js';
import {
  ExchangeClientError,
  FrameworkError,
  MessageError,
  NetworkError,
  ExchangeOutcomeUnknownError,
  ExchangeRateLimitedError,
  RequestInputError,
  ResponseValidationError,
  ExchangeTradingModeError,
  TransportClosedError,
  UnexpectedResponseError,
  ValidationError,
} from '../../../src/exchange/errors.js';
import { HttpTransport, parseRetryAfter, strictEncode, type HttpRequest, type HttpTransportOptions, type TransportObserver } from '../../../src/exchange/http.js';
import { RequestLimiter } from '../../../src/exchange/limiter.js';
import { seededRandom } from '../../support/fake-time.js';
import { headerOf, type RecordedRequest } from '../../support/recording-server.js';
import { rejection, useTransportRig } from '../../support/transport-rig.js';

const SECRET = Buffer.from('super-secret-key').toString('base64');
const CREDS = { tokenId: 'tok-1', secret: SECRET };

const rig = useTransportRig(CREDS);

function transport(overrides: Partial<HttpTransportOptions> = {}): HttpTransport {
  return rig.transport({ random: seededRandom(7), timeoutMs: 2000, ...overrides });
}

const GET: HttpRequest = { method: 'GET', pathTemplate: '/markets/{slug}', path: '/markets/btc', auth: true, priority: 'read', kind: 'read' };
const PLACE: HttpRequest = {
  method: 'POST',
  pathTemplate: '/orders',
  path: '/orders',
  body: (nowMs) => ({ order: { salt: 1 }, timestamp: nowMs, recvWindow: 1000 }),
  auth: true,
  priority: 'place',
  kind: 'place',
  clientOrderId: 'om-btc-bid-0-7',
};

/** The signature the server should have received for this request. */
function expectSigned(request: RecordedRequest, prefix = 'lmts'): void {
  const timestamp = headerOf(request.headers, `${prefix}-timestamp`) ?? '';
  expect(headerOf(request.headers, `${prefix}-api-key`)).toBe('tok-1');
  expect(headerOf(request.headers, `${prefix}-signature`)).toBe(computeSignature(SECRET, signingMessage(timestamp, request.method, request.url, request.body)));
}

describe('signing', () => {
  it('signs timestamp, method, the exact path with query and the exact body', async () => {
    const t = transport();
    await t.send({ ...PLACE, path: '/orders', query: [['onBehalfOf', '12']], clientOrderId: null });
    const [request] = rig.server.requests;
    expect(request!.url).toBe('/orders?onBehalfOf=12');
    expect(request!.body).toBe(JSON.stringify({ order: { salt: 1 }, timestamp: rig.time.now(), recvWindow: 1000 }));
    expect(headerOf(request!.headers, 'lmts-timestamp')).toBe(new Date(rig.time.now()).toISOString());
    expect(headerOf(request!.headers, 'content-type')).toBe('application/json');
    expectSigned(request!);
  });

  it('encodes path and query strictly so the URL parser sends what was signed', async () => {
    const slug = strictEncode("odd slug's (1)*!");
    await transport().send({ ...GET, path: `/markets/${slug}`, query: [['statuses', 'LIVE'], ['statuses', 'MATCHED'], ['q', "a b'c"]] });
    const [request] = rig.server.requests;
    expect(request!.url).toBe("/markets/odd%20slug%27s%20%281%29%2A%21?statuses=LIVE&statuses=MATCHED&q=a%20b%27c");
    expectSigned(request!);
  });

  it('uses the configured header prefix and keeps a base path prefix in the signed path', async () => {
    await transport({ headerPrefix: 'Acme', baseUrl: `${rig.server.url}/api/` }).send(GET);
    const [request] = rig.server.requests;
    expect(request!.url).toBe('/api/markets/btc');
    expectSigned(request!, 'acme');
  });

  it('sends public requests without auth headers, and refuses an authenticated one without credentials', async () => {
    await transport().send({ ...GET, auth: false });
    expect(Object.keys(rig.server.requests[0]!.headers).filter((h) => h.startsWith('lmts-'))).toEqual([]);
    const noCreds = new HttpTransport({ baseUrl: rig.server.url, limiter: new RequestLimiter({ minTimeMs: 0 }) });
    const error = await rejection(noCreds.send(GET), RequestInputError);
    expect(error.field).toBe('credentials');
    expect(rig.server.requests).toHaveLength(1);
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => transport({ baseUrl: 'ftp://127.0.0.1' })).toThrow(RequestInputError);
    expect(() => transport({ baseUrl: 'not a url' })).toThrow(RequestInputError);
  });
});

describe('retry table', () => {
  it.each([
    [400, { message: [{ field: 'limit', message: 'too big' }], error: 'Bad Request', statusCode: 400 }, ValidationError],
    [401, { message: 'Unauthorized', error: 'Unauthorized', statusCode: 401 }, FrameworkError],
    [403, { message: 'Forbidden', error: 'Forbidden', statusCode: 403 }, FrameworkError],
    [404, { message: 'Order not found' }, MessageError],
    [409, { message: 'Duplicate clientOrderId', error: 'Conflict', statusCode: 409 }, FrameworkError],
  ] as const)('%i is not retried', async (status, body, type) => {
    rig.server.setHandler(() => ({ status, body }));
    const error = await rejection<ValidationError | FrameworkError | MessageError>(transport().send(GET), type);
    expect(error.status).toBe(status);
    expect(error.endpoint).toEqual({ method: 'GET', pathTemplate: '/markets/{slug}' });
    expect(error.body).toEqual(body);
    expect(rig.server.requests).toHaveLength(1);
    expect(rig.time.sleeps).toEqual([]);
  });

  it('425 receive window: re-stamps the HMAC timestamp, signature and body timestamp, then succeeds', async () => {
    rig.server.setHandler((request) => {
      rig.time.advance(1500);
      return request.index === 0 ? { status: 425, body: { message: 'Request outside receive window' } } : { status: 201, body: { ok: true } };
    });
    const answer = await transport().send(PLACE);
    expect(answer).toEqual({ status: 201, body: { ok: true } });
    const [first, second] = rig.server.requests;
    const stamp = (r: RecordedRequest): unknown => {
      const body: unknown = JSON.parse(r.body);
      return typeof body === 'object' && body !== null ? Reflect.get(body, 'timestamp') : undefined;
    };
    expect(stamp(second!)).toBe(Number(stamp(first!)) + 1500);
    expect(headerOf(second!.headers, 'lmts-timestamp')).toBe(new Date(Number(stamp(second!))).toISOString());
    expect(headerOf(second!.headers, 'lmts-signature')).not.toBe(headerOf(first!.headers, 'lmts-signature'));
    expectSigned(first!);
    expectSigned(second!);
  });

  it('425 receive window gives up after the configured retries with the typed body error', async () => {
    rig.server.setHandler(() => ({ status: 425, body: { message: 'stale' } }));
    const withWindow: HttpRequest = { ...GET, method: 'POST', body: (nowMs) => ({ timestamp: nowMs, recvWindow: 1000 }) };
    const error = await rejection(transport({ retry: { maxReceiveWindowRetries: 2 } }).send(withWindow), MessageError);
    expect(error.status).toBe(425);
    expect(rig.server.requests).toHaveLength(3);
  });

  it('425 without the trading-mode body on a request without a receive window is a maintenance block: not retried', async () => {
    rig.server.setHandler(() => ({ status: 425, body: { message: 'Too Early' } }));
    const kinds: string[] = [];
    const error = await rejection(transport({ observer: { onErrorStatus: (_e, _s, kind) => kinds.push(kind) } }).send(GET), MessageError);
    expect(error.status).toBe(425);
    expect(rig.server.requests).toHaveLength(1);
    expect(kinds).toEqual(['maintenance']);
    expect(rig.time.sleeps).toEqual([]);
  });

  it.each([425, 503])('%i with a trading-mode body is a maintenance block: ExchangeTradingModeError, not retried', async (status) => {
    rig.server.setHandler(() => ({
      status,
      body: { code: 'trading_disabled', message: 'Trading is disabled', mode: 'disabled', resumeAt: '2026-03-23T13:00:00.000Z' },
    }));
    const kinds: string[] = [];
    const error = await rejection(transport({ observer: { onErrorStatus: (_e, _s, kind) => kinds.push(kind) } }).send(PLACE), ExchangeTradingModeError);
    expect([error.status, error.mode, error.resumeAtMs]).toEqual([status, 'disabled', Date.parse('2026-03-23T13:00:00.000Z')]);
    expect(rig.server.requests).toHaveLength(1);
    expect(kinds).toEqual(['trading-mode']);
  });

  it('429 with Retry-After waits exactly that long, then retries', async () => {
    rig.server.enqueue({ status: 429, headers: { 'retry-after': '2' }, body: { message: 'Too Many Requests' } });
    const answer = await transport().send(GET);
    expect(answer.status).toBe(200);
    expect(rig.time.sleeps).toEqual([2000]);
    expect(rig.server.requests).toHaveLength(2);
    expectSigned(rig.server.requests[1]!);
    expect(headerOf(rig.server.requests[1]!.headers, 'lmts-timestamp')).not.toBe(headerOf(rig.server.requests[0]!.headers, 'lmts-timestamp'));
  });

  it('429 with an HTTP-date Retry-After waits until that date', async () => {
    rig.server.enqueue({ status: 429, headers: { 'retry-after': new Date(rig.time.now() + 3000).toUTCString() }, body: {} });
    await transport().send(GET);
    expect(rig.time.sleeps).toEqual([3000]);
  });

  it('429 without Retry-After backs off from 1 s doubling, capped, then ExchangeRateLimitedError', async () => {
    rig.server.setHandler(() => ({ status: 429, body: { message: 'Too Many Requests' } }));
    const error = await rejection(transport({ retry: { maxRateLimitRetries: 4, rateLimitMaxMs: 3000 } }).send(GET), ExchangeRateLimitedError);
    expect(rig.time.sleeps).toEqual([1000, 2000, 3000, 3000]);
    expect(rig.server.requests).toHaveLength(5);
    expect([error.attempts, error.retryAfterMs]).toEqual([5, null]);
  });

  it('429 with a Retry-After beyond the limit fails at once, carrying the wait', async () => {
    rig.server.setHandler(() => ({ status: 429, headers: { 'retry-after': '120' }, body: {} }));
    const error = await rejection(transport({ retry: { maxRetryAfterMs: 60_000 } }).send(GET), ExchangeRateLimitedError);
    expect(error.retryAfterMs).toBe(120_000);
    expect(rig.server.requests).toHaveLength(1);
    expect(rig.time.sleeps).toEqual([]);
  });

  it('429: a request queued behind the refused one starts only after the Retry-After pause, never in the gap before it', async () => {
    let answered = 0;
    rig.server.setHandler(() => {
      answered += 1;
      return answered === 1 ? { status: 429, headers: { 'retry-after': '2' }, body: { message: 'Too Many Requests' } } : { status: 200, body: {} };
    });
    // When each attempt left the limiter, on the transport's clock (the pause is waited out on it).
    const starts: { label: string; atMs: number }[] = [];
    const limiter = new RequestLimiter({ maxConcurrent: 1, minTimeMs: 0 }, { now: rig.time.now, setTimer: rig.time.setTimer });
    const t = transport({ limiter, timeoutMs: 60_000, observer: { onRequestStart: (label) => starts.push({ label, atMs: rig.time.now() }) } });
    const refusedAt = rig.time.now();
    await Promise.all([t.send(GET), t.send({ ...GET, pathTemplate: '/markets/{other}', path: '/markets/eth' })]);
    // The refused request, then the queued one and the retry (in either order), both after the pause.
    expect(starts).toHaveLength(3);
    expect(starts[0]).toEqual({ label: 'GET /markets/{slug}', atMs: refusedAt });
    expect(starts.slice(1).map((start) => start.label).sort()).toEqual(['GET /markets/{other}', 'GET /markets/{slug}']);
    for (const next of starts.slice(1)) expect(next.atMs - refusedAt, `${next.label} after the 429`).toBeGreaterThanOrEqual(2000);
  });

  it('429 on a placement is retried (the venue did not take it)', async () => {
    rig.server.enqueue({ status: 429, headers: { 'retry-after': '1' }, body: {} });
    rig.server.setHandler(() => ({ status: 201, body: { order: { id: 'x' } } }));
    expect((await transport().send(PLACE)).status).toBe(201);
    expect(rig.server.requests).toHaveLength(2);
  });

  it.each([500, 502, 503, 504])('%i is retried with jittered, doubling backoff from the seeded random', async (status) => {
    rig.server.enqueue({ status, body: { message: 'boom', error: 'Internal', statusCode: status } }, { status, rawBody: '<html>x</html>' });
    const answer = await transport({ retry: { serverErrorBaseMs: 400, serverErrorMaxMs: 10_000 } }).send(GET);
    expect(answer.status).toBe(200);
    const random = seededRandom(7);
    const expected = [400, 800].map((d) => Math.round(d / 2 + (d / 2) * random()));
    expect(rig.time.sleeps).toEqual(expected);
    expect(rig.time.sleeps[0]).toBeGreaterThanOrEqual(200);
    expect(rig.time.sleeps[0]).toBeLessThan(400);
    expect(rig.time.sleeps[1]).toBeGreaterThanOrEqual(400);
    expect(rig.time.sleeps[1]).toBeLessThan(800);
    for (const request of rig.server.requests) expectSigned(request);
  });

  it('5xx gives up after the configured retries with the typed error of the last answer', async () => {
    rig.server.setHandler(() => ({ status: 502, rawBody: 'Bad Gateway' }));
    const error = await rejection(transport({ retry: { maxServerErrorRetries: 2 } }).send(GET), UnexpectedResponseError);
    expect(error.status).toBe(502);
    expect(rig.server.requests).toHaveLength(3);
  });
});

describe('placements whose outcome is unknown are never retried', () => {
  it('5xx → ExchangeOutcomeUnknownError carrying the clientOrderId', async () => {
    rig.server.setHandler(() => ({ status: 500, body: { message: 'Internal server error', error: 'Internal', statusCode: 500 } }));
    const error = await rejection(transport().send(PLACE), ExchangeOutcomeUnknownError);
    expect([error.clientOrderId, error.reason, error.status]).toEqual(['om-btc-bid-0-7', 'server-error', 500]);
    expect(rig.server.requests).toHaveLength(1);
  });

  it('timeout → ExchangeOutcomeUnknownError (timeout); for a read → NetworkError (timeout)', async () => {
    // The server holds each request until the transport's clock is past its 100 ms timeout.
    rig.server.setHandler(() => {
      rig.time.advance(100);
      return { hang: true };
    });
    const placement = await rejection(transport({ timeoutMs: 100 }).send(PLACE), ExchangeOutcomeUnknownError);
    expect([placement.reason, placement.clientOrderId]).toEqual(['timeout', 'om-btc-bid-0-7']);
    const read = await rejection(transport({ timeoutMs: 100 }).send(GET), NetworkError);
    expect(read.failure).toBe('timeout');
    expect(read.message).toContain('no answer within 100 ms');
    expect(rig.server.requests).toHaveLength(2);
    // An answer 1 ms inside the timeout is an answer, however long it takes in real time.
    rig.server.setHandler(() => {
      rig.time.advance(99);
      return { status: 200, body: { ok: true }, delayMs: 50 };
    });
    expect(await transport({ timeoutMs: 100 }).send(GET)).toEqual({ status: 200, body: { ok: true } });
  });

  it('lost connection → ExchangeOutcomeUnknownError (connection); for a read → NetworkError (connection)', async () => {
    rig.server.setHandler(() => ({ destroy: true }));
    const placement = await rejection(transport().send(PLACE), ExchangeOutcomeUnknownError);
    expect(placement.reason).toBe('connection');
    const read = await rejection(transport().send(GET), NetworkError);
    expect(read.failure).toBe('connection');
    expect(rig.server.requests).toHaveLength(2);
  });

  it('an unreadable 2xx → ExchangeOutcomeUnknownError for a placement, ResponseValidationError for a read', async () => {
    rig.server.setHandler(() => ({ status: 201, rawBody: 'OK!' }));
    expect((await rejection(transport().send(PLACE), ExchangeOutcomeUnknownError)).reason).toBe('unparseable-answer');
    expect((await rejection(transport().send(GET), ResponseValidationError)).path).toBe('(root)');
  });
});

describe('secrets stay out of errors', () => {
  it('scrubs the secret and the signature echoed by the server', async () => {
    rig.server.setHandler((request) => ({
      status: 401,
      body: { message: `bad signature ${headerOf(request.headers, 'lmts-signature') ?? ''} for secret ${SECRET}`, error: 'Unauthorized', statusCode: 401 },
    }));
    const error = await rejection(transport().send(GET), FrameworkError);
    const signature = headerOf(rig.server.requests[0]!.headers, 'lmts-signature')!;
    for (const text of [error.message, JSON.stringify(error), JSON.stringify(error.body)]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(signature);
    }
    expect(error.message).toContain('[redacted]');
  });

  it('every error is an ExchangeClientError with a code', async () => {
    rig.server.setHandler(() => ({ status: 418, rawBody: '' }));
    const error = await rejection(transport().send(GET), ExchangeClientError);
    expect(error.code).toBe('EXCHANGE_UNEXPECTED_RESPONSE');
  });
});

describe('observer hooks', () => {
  it('reports starts, ends with status and duration, retries with reason, and error statuses', async () => {
    const events: string[] = [];
    const observer: TransportObserver = {
      onRequestStart: (endpoint, attempt) => events.push(`start ${endpoint} #${attempt}`),
      onRequestEnd: (endpoint, status, ms, attempt) => events.push(`end ${endpoint} ${status} #${attempt} ${ms >= 0 ? 'ms' : 'bad'}`),
      onRetry: (endpoint, reason, attempt, delayMs) => events.push(`retry ${endpoint} ${reason} #${attempt} ${delayMs}`),
      onErrorStatus: (endpoint, status, kind) => events.push(`status ${endpoint} ${status} ${kind}`),
    };
    rig.server.enqueue({ status: 429, headers: { 'retry-after': '1' }, body: {} });
    await transport({ observer }).send(GET);
    expect(events).toEqual([
      'start GET /markets/{slug} #1',
      'end GET /markets/{slug} 429 #1 ms',
      'status GET /markets/{slug} 429 rate-limited',
      'retry GET /markets/{slug} rate-limited #1 1000',
      'start GET /markets/{slug} #2',
      'end GET /markets/{slug} 200 #2 ms',
    ]);
  });

  it('an observer that throws cannot break a request', async () => {
    const observer: TransportObserver = {
      onRequestStart: () => {
        throw new Error('metrics down');
      },
      onQueueDepth: () => {
        throw new Error('metrics down');
      },
    };
    expect((await transport({ observer }).send(GET)).status).toBe(200);
  });
});

describe('close: nothing is sent after it, what was sent gets its answer', () => {
  it('a request in flight is answered and whenIdle waits for it; one queued behind it and a later one are refused unsent', async () => {
    let answerFirst: (reply: { status: number; body: unknown }) => void = () => undefined;
    rig.server.setHandler((request) => (request.index === 0 ? new Promise((resolveReply) => (answerFirst = resolveReply)) : { status: 200, body: {} }));
    const noAnswers: string[] = [];
    const limiter = new RequestLimiter({ minTimeMs: 0, maxConcurrent: 1 }, { now: rig.time.now, setTimer: rig.time.setTimer });
    const t = transport({ limiter, observer: { onNoAnswer: (endpoint) => noAnswers.push(endpoint) } });
    const inFlight = t.send(GET);
    await rig.server.waitForRequests(1);
    const queued = rejection(t.send({ ...GET, path: '/markets/eth' }), TransportClosedError);
    let idle = false;
    t.close();
    const drained = t.whenIdle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    answerFirst({ status: 200, body: { slug: 'btc' } });
    expect((await inFlight).body).toEqual({ slug: 'btc' });
    await drained;
    expect((await queued).message).toBe('GET /markets/{slug}: not sent: the client is closed (the bot is stopping)');
    expect((await rejection(t.send(GET), TransportClosedError)).code).toBe('EXCHANGE_TRANSPORT_CLOSED');
    expect(rig.server.requests).toHaveLength(1);
    expect(noAnswers).toEqual([]);
  });

  it('a retry that falls due after close is not sent', async () => {
    rig.server.enqueue({ status: 503, body: {} });
    let wake: () => void = () => undefined;
    let sleeping = false;
    const t = transport({ sleep: () => new Promise<void>((resolveSleep) => ((sleeping = true), (wake = resolveSleep))) });
    const pending = t.send(GET);
    await vi.waitFor(() => expect(sleeping).toBe(true));
    t.close();
    wake();
    await rejection(pending, TransportClosedError);
    expect(rig.server.requests).toHaveLength(1);
  });

  it('a connection failure after close is not reported as an unreachable venue', async () => {
    let cut: () => void = () => undefined;
    rig.server.setHandler(() => new Promise((resolveReply) => (cut = () => resolveReply({ destroy: true }))));
    const noAnswers: string[] = [];
    const t = transport({ observer: { onNoAnswer: (endpoint) => noAnswers.push(endpoint) } });
    const pending = rejection(t.send(GET), NetworkError);
    await rig.server.waitForRequests(1);
    t.close();
    cut();
    expect((await pending).failure).toBe('connection');
    expect(noAnswers).toEqual([]);
  });
});

describe('Retry-After parsing', () => {
  it('reads seconds, decimals and HTTP dates; ignores garbage', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter('0.5', 0)).toBe(500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(parseRetryAfter(null, 0)).toBeNull();
  });
});
