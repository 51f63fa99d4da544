/**
 * A 2xx answer that fails validation (not JSON, or its wire.ts schema) is reported to the transport observer once
 * per answer, whichever endpoint and whichever way it failed, and through the bot's telemetry wiring counts in
 * `outcome_maker_invalid_answers_total{endpoint}` (pre-set at 0 for every endpoint).
 */
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { wireTelemetry } from '../../../src/operator/telemetry.js';
import { ExchangeApi } from '../../../src/exchange/api.js';
import { API_ENDPOINT_LABELS } from '../../../src/exchange/endpoints.js';
import { ExchangeOutcomeUnknownError, ResponseValidationError } from '../../../src/exchange/errors.js';
import type { TransportObserver } from '../../../src/exchange/http.js';
import { createMetrics } from '../../../src/metrics/index.js';
import { signedTestOrder, useTransportRig } from '../../support/transport-rig.js';

const CREDS = { tokenId: 'tok-7', secret: Buffer.from('invalid-answers-secret').toString('base64') };
const INVALID = 'outcome_maker_invalid_answers_total';

const rig = useTransportRig(CREDS);

function api(observer: TransportObserver): ExchangeApi {
  return new ExchangeApi({ transport: rig.transport({ random: () => 0, observer }), profileId: 9 });
}

interface Reported {
  readonly endpoint: string;
  readonly status: number;
  readonly error: ResponseValidationError;
}

function recorder(): { observer: TransportObserver; reported: Reported[] } {
  const reported: Reported[] = [];
  return { observer: { onInvalidAnswer: (endpoint, status, error) => reported.push({ endpoint, status, error }) }, reported };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

function signedOrder(): ReturnType<typeof signedTestOrder> {
  return signedTestOrder(rig.time.now, 'om-btc-bid-0-9');
}

describe('transport observer: onInvalidAnswer', () => {
  it('an answer that fails its schema: reported once with the route template, the field and the value, then thrown', async () => {
    const { observer, reported } = recorder();
    rig.server.enqueue({ body: { bids: [{ price: 'NaN', size: 5 }], asks: [] } });
    const error = await failure(api(observer).getOrderbook('btc-100k'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(reported.map((r) => [r.endpoint, r.status, r.error.path, r.error.value])).toEqual([['GET /markets/{slug}/orderbook', 200, 'bids[0].price', '"NaN"']]);
    expect(reported[0]?.error).toBe(error);
  });

  it('an answer that is not JSON: reported once', async () => {
    const { observer, reported } = recorder();
    rig.server.enqueue({ rawBody: '{"active": [' });
    expect(await failure(api(observer).getMaintenanceStatus())).toBeInstanceOf(ResponseValidationError);
    expect(reported.map((r) => [r.endpoint, r.status, r.error.path])).toEqual([['GET /maintenance/status', 200, '(root)']]);
  });

  it('a placement answer that cannot be read (schema or not JSON): reported once, thrown as an unknown outcome', async () => {
    const { observer, reported } = recorder();
    const client = api(observer);
    const order = await signedOrder();
    rig.server.enqueue({ status: 201, body: { order: { status: 'LIVE' } } }, { status: 201, rawBody: 'not json at all' });
    for (let i = 0; i < 2; i += 1) {
      const error = await failure(client.placeOrder(order));
      expect(error).toBeInstanceOf(ExchangeOutcomeUnknownError);
      if (error instanceof ExchangeOutcomeUnknownError) expect([error.reason, error.clientOrderId, error.status]).toEqual(['unparseable-answer', 'om-btc-bid-0-9', 201]);
    }
    expect(reported.map((r) => [r.endpoint, r.status])).toEqual([
      ['POST /orders', 201],
      ['POST /orders', 201],
    ]);
    expect(rig.server.requests).toHaveLength(2);
  });

  it('is not called for valid answers or error statuses, and once for an invalid answer after retries', async () => {
    const { observer, reported } = recorder();
    const client = api(observer);
    rig.server.enqueue(
      { body: { active: [], scheduled: [] } },
      { status: 404, body: { message: 'Market not found', error: 'Not Found', statusCode: 404 } },
      { status: 503, body: { message: 'busy', error: 'Service Unavailable', statusCode: 503 } },
      { status: 503, body: { message: 'busy', error: 'Service Unavailable', statusCode: 503 } },
      { body: { active: 'everything' } },
    );
    await client.getMaintenanceStatus();
    await failure(client.getMarket('gone'));
    expect(reported).toEqual([]);
    expect(await failure(client.getMaintenanceStatus())).toBeInstanceOf(ResponseValidationError);
    expect(rig.server.requests).toHaveLength(5);
    expect(reported.map((r) => r.endpoint)).toEqual(['GET /maintenance/status']);
  });

  it('an observer that throws changes nothing: the caller still gets the validation error', async () => {
    const observer: TransportObserver = {
      onInvalidAnswer: () => {
        throw new Error('metrics down');
      },
    };
    rig.server.enqueue({ body: { results: 'nope' } });
    expect(await failure(api(observer).getOrderStatuses([{ clientOrderId: 'om-1' }]))).toBeInstanceOf(ResponseValidationError);
  });
});

describe('telemetry: outcome_maker_invalid_answers_total', () => {
  async function counts(registry: Registry): Promise<Map<string, number>> {
    const metric = registry.getSingleMetric(INVALID);
    if (!metric) throw new Error(`no metric ${INVALID}`);
    const data = await metric.get();
    return new Map(data.values.map((v) => [String(v.labels['endpoint']), v.value]));
  }

  it('starts at 0 for every endpoint and counts each invalid answer once, by route template, without a log line of its own', async () => {
    const registry = new Registry();
    const lines: string[] = [];
    const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
    const telemetry = wireTelemetry(createMetrics({ registry, collectDefault: false }), log);
    const client = api(telemetry.http);

    const before = await counts(registry);
    expect([...before.keys()].sort()).toEqual([...API_ENDPOINT_LABELS].sort());
    expect([...before.values()].every((v) => v === 0)).toBe(true);

    rig.server.enqueue(
      { body: { bids: [{ price: 0.4, size: -3 }], asks: [] } },
      { rawBody: '{"bids": [{"price": 0.4' },
      { body: [{ id: 5, status: 'ALIVE' }] },
      { status: 201, rawBody: 'not json at all' },
      { body: { bids: [], asks: [] } },
    );
    await failure(client.getOrderbook('btc-100k'));
    await failure(client.getOrderbook('eth-5k'));
    await failure(client.getUserOrders('btc-100k'));
    await failure(client.placeOrder(await signedOrder()));
    await client.getOrderbook('btc-100k');

    const after = await counts(registry);
    expect(after.get('GET /markets/{slug}/orderbook')).toBe(2);
    expect(after.get('GET /markets/{slug}/user-orders')).toBe(1);
    expect(after.get('POST /orders')).toBe(1);
    expect([...after.values()].reduce((a, b) => a + b, 0)).toBe(4);
    // Raw paths never become labels.
    expect([...after.keys()].some((label) => label.includes('btc-100k'))).toBe(false);
    // The caller that gets the error logs it; the counting hook adds no line.
    expect(lines).toEqual([]);
  });
});
