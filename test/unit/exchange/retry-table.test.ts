/**
 * The retry table walked row by row through the real transport: for every request kind and every failure, a local
 * server produces that failure and the test checks what the row states — how many requests went out, which waits,
 * and which error the transport gave up with. Then the table's links: every endpoint has a kind and every kind an
 * endpoint; the config's defaults are the table's; a config override reaches the transport; ExchangeApi sends each
 * endpoint with its kind.
 */
import { describe, expect, it } from 'vitest';
import { parseConfigText, transportRetryPolicy } from '../../../src/config/index.js';
import { ExchangeApi } from '../../../src/exchange/api.js';
import { API_ENDPOINTS } from '../../../src/exchange/endpoints.js';
import {
  ExchangeClientError,
  ExchangeHttpError,
  ExchangeOutcomeUnknownError,
  ExchangeRateLimitedError,
  ExchangeTradingModeError,
  MessageError,
  NetworkError,
  ResponseValidationError,
} from '../../../src/exchange/errors.js';
import type { HttpRequest } from '../../../src/exchange/http.js';
import {
  classifyStatus,
  REQUEST_FAILURES,
  REQUEST_KINDS,
  RETRY_DEFAULTS,
  RETRY_TABLE,
  retryRule,
  type RequestFailure,
  type RequestKind,
  type RetryPolicy,
} from '../../../src/exchange/retry-table.js';
import { seededRandom } from '../../support/fake-time.js';
import type { Reply } from '../../support/recording-server.js';
import { rejection, signedTestOrder, useTransportRig } from '../../support/transport-rig.js';

const CREDS = { tokenId: 'tok-rt', secret: Buffer.from('retry-table-secret').toString('base64') };
const rig = useTransportRig(CREDS);

/** Small numbers, all different, so each row's waits and counts are its own. */
const POLICY: RetryPolicy = {
  maxReceiveWindowRetries: 2,
  maxRateLimitRetries: 3,
  maxServerErrorRetries: 1,
  rateLimitBaseMs: 100,
  rateLimitMaxMs: 250,
  maxRetryAfterMs: 5_000,
  serverErrorBaseMs: 40,
  serverErrorMaxMs: 60,
};
const TIMEOUT_MS = 80;
const CLIENT_ORDER_ID = 'om-rt-bid-0-1';
const TRADING_MODE = { code: 'trading_disabled', message: 'Trading is disabled', mode: 'disabled', resumeAt: '2026-03-23T13:00:00.000Z' };

/** The reply that makes `failure` (always the same: the test sees how often the transport asks again). */
const REPLIES: Readonly<Record<RequestFailure, Reply>> = {
  'receive-window': { status: 425, body: { message: 'Request outside receive window' } },
  maintenance: { status: 425, body: { message: 'Too Early' } },
  'trading-mode': { status: 503, body: TRADING_MODE },
  'rate-limited': { status: 429, body: { message: 'ThrottlerException: Too Many Requests' } },
  unavailable: { status: 503, body: { message: 'Service Unavailable', error: 'Service Unavailable', statusCode: 503 } },
  'server-error': { status: 500, body: { message: 'Internal server error', error: 'Internal', statusCode: 500 } },
  refused: { status: 404, body: { message: 'Order not found' } },
  timeout: { hang: true },
  connection: { destroy: true },
  'unreadable-answer': { status: 200, rawBody: 'OK!' },
};

/** The error a `fail` row gives up with, per failure. */
const TYPED_ERRORS: Readonly<Record<RequestFailure, abstract new (...args: never[]) => ExchangeClientError>> = {
  'receive-window': MessageError,
  maintenance: MessageError,
  'trading-mode': ExchangeTradingModeError,
  'rate-limited': ExchangeRateLimitedError,
  unavailable: ExchangeHttpError,
  'server-error': ExchangeHttpError,
  refused: MessageError,
  timeout: NetworkError,
  connection: NetworkError,
  'unreadable-answer': ResponseValidationError,
};

/** A `kind` request; its body opts into the receive window only for the receive-window failure. */
function requestOf(kind: RequestKind, failure: RequestFailure): HttpRequest {
  const stamped = failure === 'receive-window';
  return {
    method: 'POST',
    pathTemplate: '/rt',
    path: '/rt',
    auth: true,
    priority: 'read',
    kind,
    clientOrderId: CLIENT_ORDER_ID,
    body: (nowMs) => (stamped ? { timestamp: nowMs, recvWindow: 1000 } : { n: 1 }),
  };
}

function send(kind: RequestKind, failure: RequestFailure): Promise<unknown> {
  return rig.transport({ retry: POLICY, timeoutMs: TIMEOUT_MS, random: seededRandom(3) }).send(requestOf(kind, failure));
}

const ROWS = REQUEST_KINDS.flatMap((kind) => REQUEST_FAILURES.map((failure) => [kind, failure, RETRY_TABLE[kind][failure]] as const));

describe('the retry table, every row through the transport', () => {
  it('has one row per kind and failure', () => {
    expect(ROWS).toHaveLength(REQUEST_KINDS.length * REQUEST_FAILURES.length);
    expect(new Set(ROWS.map(([k, f]) => `${k}/${f}`)).size).toBe(ROWS.length);
  });

  it.each(ROWS)('%s × %s → %s', async (kind, failure, action) => {
    const reply = REPLIES[failure];
    rig.server.setHandler(() => {
      // Every attempt at a later moment (a re-stamped retry shows it); a hang holds the request past the timeout.
      rig.time.advance(failure === 'timeout' ? TIMEOUT_MS : 7);
      return reply;
    });
    const rule = retryRule(kind, failure, POLICY);
    expect(rule.action).toBe(action);
    switch (rule.action) {
      case 're-stamp': {
        const error = await rejection(send(kind, failure), MessageError);
        expect(error.status).toBe(425);
        expect(rig.server.requests).toHaveLength(rule.retries + 1);
        expect(rig.time.sleeps).toEqual([]);
        const stamps = rig.server.requests.map((r) => Number(Reflect.get(JSON.parse(r.body) as object, 'timestamp')));
        expect(new Set(stamps).size).toBe(stamps.length);
        break;
      }
      case 'wait-retry-after': {
        // Without Retry-After: the doubling wait, capped, `retries` times, then ExchangeRateLimitedError.
        const error = await rejection(send(kind, failure), ExchangeRateLimitedError);
        expect(rig.server.requests).toHaveLength(rule.retries + 1);
        expect(rig.time.sleeps).toEqual([100, 200, 250]);
        expect([error.attempts, error.retryAfterMs]).toEqual([rule.retries + 1, null]);
        // With a Retry-After: exactly that wait, then the answer.
        rig.server.enqueue({ ...reply, headers: { 'retry-after': '2' } }, { status: 200, body: { ok: true } });
        rig.time.sleeps.length = 0;
        expect(await send(kind, failure)).toEqual({ status: 200, body: { ok: true } });
        expect(rig.time.sleeps).toEqual([2000]);
        // A Retry-After beyond maxRetryAfterMs: not waited out.
        rig.server.enqueue({ ...reply, headers: { 'retry-after': String(rule.maxRetryAfterMs / 1000 + 1) } });
        rig.time.sleeps.length = 0;
        expect((await rejection(send(kind, failure), ExchangeRateLimitedError)).retryAfterMs).toBe(rule.maxRetryAfterMs + 1000);
        expect(rig.time.sleeps).toEqual([]);
        break;
      }
      case 'backoff': {
        const error = await rejection(send(kind, failure), ExchangeHttpError);
        expect(error.status).toBe((reply as { status: number }).status);
        expect(rig.server.requests).toHaveLength(rule.retries + 1);
        const random = seededRandom(3);
        expect(rig.time.sleeps).toEqual([40].map((d) => Math.round(d / 2 + (d / 2) * random())));
        break;
      }
      case 'outcome-unknown': {
        const error = await rejection(send(kind, failure), ExchangeOutcomeUnknownError);
        const reason = failure === 'unreadable-answer' ? 'unparseable-answer' : failure;
        expect([error.clientOrderId, error.reason]).toEqual([CLIENT_ORDER_ID, reason]);
        expect(rig.server.requests).toHaveLength(1);
        expect(rig.time.sleeps).toEqual([]);
        break;
      }
      case 'fail': {
        const error = await rejection(send(kind, failure), TYPED_ERRORS[failure]);
        if (error instanceof NetworkError) expect(error.failure).toBe(failure);
        if (error instanceof ExchangeHttpError) expect(error.status).toBe((reply as { status: number }).status);
        expect(rig.server.requests).toHaveLength(1);
        expect(rig.time.sleeps).toEqual([]);
        break;
      }
    }
  });

  it('classifies an answer by its body first, then its status', () => {
    const plain = { tradingMode: false, receiveWindow: false };
    expect(classifyStatus(425, { tradingMode: false, receiveWindow: true })).toBe('receive-window');
    expect(classifyStatus(425, plain)).toBe('maintenance');
    expect(classifyStatus(425, { tradingMode: true, receiveWindow: true })).toBe('trading-mode');
    expect(classifyStatus(503, { tradingMode: true, receiveWindow: false })).toBe('trading-mode');
    expect([429, 500, 502, 503, 504, 400, 401, 404, 409].map((s) => classifyStatus(s, plain))).toEqual(['rate-limited', 'server-error', 'server-error', 'unavailable', 'server-error', 'refused', 'refused', 'refused', 'refused']);
  });
});

describe('the table is the one owner of the retry defaults', () => {
  it('every endpoint has a kind of the table, and every kind an endpoint', () => {
    const kinds = new Set(Object.values(API_ENDPOINTS).map((e) => e.kind));
    expect([...kinds].sort()).toEqual([...REQUEST_KINDS].sort());
  });

  it("the config's defaults are the table's; a written value overrides them and reaches the transport", async () => {
    const defaults = parseConfigText('strategy: {name: fixed-spread}\n', { source: '<test>', baseDir: '/srv' });
    expect({ ...RETRY_DEFAULTS, ...transportRetryPolicy(defaults.rateLimits.retry) }).toEqual(RETRY_DEFAULTS);
    const written = parseConfigText('strategy: {name: fixed-spread}\nrateLimits: {retry: {maxRetries: 1, initialBackoffMs: 30, maxBackoffMs: 45}}\n', { source: '<test>', baseDir: '/srv' });
    rig.server.setHandler(() => REPLIES['rate-limited']);
    await rejection(rig.transport({ retry: transportRetryPolicy(written.rateLimits.retry) }).send(requestOf('read', 'rate-limited')), ExchangeRateLimitedError);
    expect(rig.time.sleeps).toEqual([30]);
    rig.server.setHandler(() => REPLIES['server-error']);
    rig.time.sleeps.length = 0;
    await rejection(rig.transport({ retry: transportRetryPolicy(written.rateLimits.retry), random: () => 0 }).send(requestOf('cancel', 'server-error')), ExchangeHttpError);
    expect(rig.time.sleeps).toEqual([15]);
  });

  it('ExchangeApi sends each endpoint with its kind: a cancel and a redemption are retried after 5xx, a cancel-replace is not', async () => {
    const api = new ExchangeApi({ transport: rig.transport({ retry: { ...POLICY, maxServerErrorRetries: 1 }, random: () => 0 }), profileId: 9 });
    rig.server.enqueue(REPLIES['server-error'], { status: 200, body: { message: 'Order canceled successfully', order: { id: '0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d' } } });
    await api.cancelOrder('0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d');
    expect(rig.server.requests).toHaveLength(2);
    rig.server.enqueue(REPLIES['server-error'], { status: 201, body: {} });
    await api.redeem(`0x${'cd'.repeat(32)}`);
    expect(rig.server.requests).toHaveLength(4);
    rig.server.enqueue(REPLIES['server-error']);
    const order = await signedTestOrder(rig.time.now, 'om-rt-cr-1');
    const error = await rejection(api.cancelReplace({ cancel: { orderId: '0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d' }, order, mode: 'STOP_ON_FAILURE' }), ExchangeOutcomeUnknownError);
    expect([error.clientOrderId, error.reason]).toEqual(['om-rt-cr-1', 'server-error']);
    expect(rig.server.requests).toHaveLength(5);
  });
});
