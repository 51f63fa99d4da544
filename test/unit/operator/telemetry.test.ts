import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { wireTelemetry, type Telemetry } from '../../../src/operator/telemetry.js';
import { BookRejectedError } from '../../../src/book/errors.js';
import type { FeedConnectionState } from '../../../src/book/feed-port.js';
import type { RetryReason } from '../../../src/exchange/http.js';
import { createMetrics } from '../../../src/metrics/index.js';
import type { PlanReport } from '../../../src/orders/executor-types.js';
import { IllegalTransitionError } from '../../../src/orders/order-state.js';
import { newOrder } from '../../../src/orders/order-record.js';

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

interface Harness {
  readonly telemetry: Telemetry;
  readonly registry: Registry;
  readonly logs: LogLine[];
}

const WARN = 40;
const ERROR = 50;

function harness(): Harness {
  const logs: LogLine[] = [];
  const log = pino(
    { level: 'debug' },
    {
      write: (line: string) => {
        const parsed: unknown = JSON.parse(line);
        if (typeof parsed !== 'object' || parsed === null) return;
        const fields: Record<string, unknown> = Object.fromEntries(Object.entries(parsed));
        const level = fields['level'];
        const msg = fields['msg'];
        logs.push({ level: typeof level === 'number' ? level : 0, msg: typeof msg === 'string' ? msg : '', fields });
      },
    },
  );
  const registry = new Registry();
  return { telemetry: wireTelemetry(createMetrics({ registry, collectDefault: false }), log), registry, logs };
}

/** The value of one series (for a histogram, name the sample, e.g. `..._count` or `..._sum`). */
async function sample(registry: Registry, name: string, labels: Readonly<Record<string, string>> = {}, sampleName = name): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const data = await metric.get();
  const sampleNameOf = (v: object): string => ('metricName' in v && typeof v.metricName === 'string' ? v.metricName : name);
  return data.values.find((v) => sampleNameOf(v) === sampleName && Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))?.value;
}

function state(status: FeedConnectionState['status'], connects: number): FeedConnectionState {
  return { status, sinceMs: 0, downSinceMs: status === 'connected' ? null : 0, lastConnectedAtMs: connects > 0 ? 0 : null, connects, closed: false };
}

function plan(overrides: Partial<PlanReport> = {}): PlanReport {
  return {
    marketSlug: 'btc',
    durationMs: 3,
    placed: 0,
    canceled: 0,
    kept: 0,
    waiting: 0,
    rejected: 0,
    unknown: 0,
    invalid: 0,
    blockedPlaces: 0,
    blockedCancels: 0,
    convertedToPostOnly: 0,
    aborted: null,
    ...overrides,
  };
}

describe('wireTelemetry: HTTP and limiter', () => {
  it('counts requests by endpoint and status, their durations, and the 429s', async () => {
    const h = harness();
    h.telemetry.http.onRequestEnd?.('POST /orders', 201, 120, 1);
    h.telemetry.http.onRequestEnd?.('POST /orders', 429, 40, 1);
    h.telemetry.http.onRequestEnd?.('GET /markets/{slug}', 'timeout', 10_000, 1);
    expect(h.telemetry.tally()).toEqual({ requests: 3, rateLimited: 1, placed: 0 });
    const name = 'outcome_maker_http_requests_total';
    expect(await sample(h.registry, name, { endpoint: 'POST /orders', status: '201' })).toBe(1);
    expect(await sample(h.registry, name, { endpoint: 'POST /orders', status: '429' })).toBe(1);
    expect(await sample(h.registry, name, { endpoint: 'GET /markets/{slug}', status: 'timeout' })).toBe(1);
    const duration = 'outcome_maker_http_request_duration_seconds';
    expect(await sample(h.registry, duration, { endpoint: 'POST /orders', status: '201' }, `${duration}_sum`)).toBeCloseTo(0.12, 9);
  });

  const retries: readonly (readonly [RetryReason, string])[] = [
    ['receive-window', 'too_early'],
    ['rate-limited', 'rate_limited'],
    ['server-error', 'server_error'],
  ];
  it.each(retries)('a %s retry counts as %s', async (reason, label) => {
    const h = harness();
    h.telemetry.http.onRetry?.('POST /orders', reason, 1, 500);
    expect(await sample(h.registry, 'outcome_maker_http_retries_total', { endpoint: 'POST /orders', reason: label })).toBe(1);
  });

  it('reports the limiter queue depth and waits', async () => {
    const h = harness();
    h.telemetry.http.onQueueDepth?.(4);
    h.telemetry.http.onQueueWait?.('cancel', 250);
    expect(await sample(h.registry, 'outcome_maker_limiter_queue_depth')).toBe(4);
    const wait = 'outcome_maker_limiter_wait_seconds';
    expect(await sample(h.registry, wait, {}, `${wait}_count`)).toBe(1);
    expect(await sample(h.registry, wait, {}, `${wait}_sum`)).toBeCloseTo(0.25, 9);
  });
});

describe('wireTelemetry: feed and books', () => {
  it('tracks the connection and counts every connection after the first as a reconnection', async () => {
    const h = harness();
    const feed = h.telemetry.feed;
    feed.onStateChange?.(state('connected', 1));
    expect(await sample(h.registry, 'outcome_maker_feed_connected')).toBe(1);
    expect(await sample(h.registry, 'outcome_maker_feed_reconnects_total')).toBe(0);
    feed.onStateChange?.(state('disconnected', 1));
    expect(await sample(h.registry, 'outcome_maker_feed_connected')).toBe(0);
    feed.onStateChange?.(state('connected', 2));
    feed.onStateChange?.(state('connected', 2));
    expect(await sample(h.registry, 'outcome_maker_feed_connected')).toBe(1);
    expect(await sample(h.registry, 'outcome_maker_feed_reconnects_total')).toBe(1);
    feed.onDisconnect?.('transport close');
    feed.onReconnectRequested?.('frozen');
    expect(h.logs.filter((l) => l.level === WARN).map((l) => l.msg)).toEqual(['feed disconnected', 'feed reconnect requested']);
  });

  it('counts malformed frames by event, unknown events as other', async () => {
    const h = harness();
    h.telemetry.feed.onMalformedFrame?.('orderEvent', 'makerMatches[0].price');
    h.telemetry.feed.onUnknownEvent?.('surprise');
    const name = 'outcome_maker_feed_malformed_frames_total';
    expect(await sample(h.registry, name, { event: 'orderEvent' })).toBe(1);
    expect(await sample(h.registry, name, { event: 'other' })).toBe(1);
  });

  it('counts applied books, and REST resyncs by why they happened', async () => {
    const h = harness();
    const books = h.telemetry.books;
    books.onSnapshotApplied?.('btc', 'feed', true);
    books.onSnapshotApplied?.('btc', 'rest', false);
    expect(await sample(h.registry, 'outcome_maker_book_updates_total', { market: 'btc' })).toBe(2);
    const resyncs = 'outcome_maker_book_resyncs_total';
    books.onFetch?.('btc', 'sync', 'applied', 5);
    expect(await sample(h.registry, resyncs, { market: 'btc', reason: 'subscribe' })).toBe(1);
    books.onFetch?.('btc', 'sync', 'applied', 5);
    expect(await sample(h.registry, resyncs, { market: 'btc', reason: 'reconnect' })).toBe(1);
    books.onSnapshotRejected?.('btc', 'feed', new BookRejectedError('bids[0].price', 1.5, 'out of range'));
    books.onFetch?.('btc', 'sync', 'applied', 5);
    expect(await sample(h.registry, resyncs, { market: 'btc', reason: 'invalid' })).toBe(1);
    expect(await sample(h.registry, 'outcome_maker_feed_malformed_frames_total', { event: 'orderbookUpdate' })).toBe(1);
    books.onFetch?.('btc', 'probe', 'mismatch', 5);
    expect(await sample(h.registry, resyncs, { market: 'btc', reason: 'stale' })).toBe(1);
    books.onFetch?.('btc', 'probe', 'confirmed', 5);
    books.onFetch?.('btc', 'sync', 'error', 5);
    expect(await sample(h.registry, resyncs, { market: 'btc', reason: 'reconnect' })).toBe(1);
    books.onFrozenFeed?.('btc');
    expect(await sample(h.registry, 'outcome_maker_feed_frozen_total')).toBe(1);
    expect(await sample(h.registry, resyncs, { market: 'btc', reason: 'frozen' })).toBe(1);
    // The book store logs staleness itself ('order book stale' / 'order book fresh'): telemetry adds no second line.
    const before = h.logs.length;
    books.onStaleChange?.('btc', true, 'rejected');
    books.onStaleChange?.('btc', false, null);
    expect(h.logs).toHaveLength(before);
  });
});

describe('wireTelemetry: orders, mode, ledger', () => {
  it('counts a plan’s cancels, rejections and unknown outcomes, and logs an aborted plan', async () => {
    const h = harness();
    h.telemetry.executor.onPlan?.(plan({ canceled: 2, rejected: 1, unknown: 3, aborted: 'rate-limited' }));
    expect(await sample(h.registry, 'outcome_maker_orders_canceled_total', { market: 'btc' })).toBe(2);
    expect(await sample(h.registry, 'outcome_maker_orders_rejected_total', { market: 'btc', reason: 'venue' })).toBe(1);
    expect(await sample(h.registry, 'outcome_maker_orders_unknown_total', { market: 'btc' })).toBe(3);
    expect(h.logs.find((l) => l.msg === 'plan aborted')?.fields).toMatchObject({ market: 'btc', aborted: 'rate-limited' });
    h.telemetry.executor.onPlan?.(plan());
    expect(h.logs.filter((l) => l.msg === 'plan aborted')).toHaveLength(1);
  });

  it('logs request errors, illegal transitions and stray orders', () => {
    const h = harness();
    h.telemetry.executor.onRequestError?.('cancelOrders', 'btc', new Error('boom'));
    h.telemetry.executor.onIllegalTransition?.(new IllegalTransitionError('cid-1', 'filled', 'live', 'venue-report'));
    h.telemetry.executor.onStrayOrder?.('btc', 'order-9', 'untracked');
    expect(h.logs.map((l) => [l.level, l.msg])).toEqual([
      [WARN, 'venue request failed'],
      [WARN, 'illegal order transition ignored'],
      [WARN, 'stray order of the bot found; canceling'],
    ]);
    expect(h.logs[0]!.fields).toMatchObject({ operation: 'cancelOrders', market: 'btc', err: 'boom' });
  });

  it('sets the trading-mode gauge to the new mode only', async () => {
    const h = harness();
    h.telemetry.mode.onModeChange?.({ from: 'normal', to: 'cancel_only', resumeAtMs: Date.parse('2026-03-23T13:00:00.000Z'), source: 'venue-error' });
    const name = 'outcome_maker_trading_mode';
    expect(await sample(h.registry, name, { mode: 'cancel_only' })).toBe(1);
    expect(await sample(h.registry, name, { mode: 'normal' })).toBe(0);
    expect(h.logs.at(-1)?.fields).toMatchObject({ from: 'normal', to: 'cancel_only', resumeAt: '2026-03-23T13:00:00.000Z', source: 'venue-error' });
    h.telemetry.mode.onPollError?.(new Error('poll failed'));
    expect(h.logs.at(-1)?.msg).toBe('maintenance poll failed');
  });

  it('order changes: a placement the venue accepted is counted once; each state change sets the open-orders gauge', async () => {
    const h = harness();
    const pending = newOrder({ clientOrderId: 'cid-1', marketSlug: 'btc', slot: 'bid-0', token: 'YES', tokenId: '101', side: 'BUY', priceTicks: 450, sizeRaw: 5_000_000, postOnly: true, orderType: 'GTC' }, 0);
    const live = { ...pending, state: 'live' as const, orderId: 'o-1' };
    let open = 0;
    h.telemetry.orderChanged(pending, null, () => ++open);
    h.telemetry.orderChanged(live, pending, () => ++open);
    h.telemetry.orderChanged({ ...live, remainingRaw: 4_000_000 }, live, () => ++open);
    h.telemetry.orderChanged({ ...live, state: 'pending-cancel' }, live, () => ++open);
    expect(await sample(h.registry, 'outcome_maker_orders_placed_total', { market: 'btc', side: 'BUY' })).toBe(1);
    expect(await sample(h.registry, 'outcome_maker_open_orders', { market: 'btc' })).toBe(2);
    expect(open).toBe(2);
  });

  it('counts ledger mismatches by kind: a persistent one toward the alert, a first sighting apart; the check logs them', async () => {
    const h = harness();
    const mismatch = { kind: 'position', marketSlug: 'btc', token: 'YES', venueRaw: 2_000_000, ledgerRaw: 1_000_000, pendingRaw: 0 } as const;
    h.telemetry.ledger.onMismatch?.(mismatch, 'first');
    expect(await sample(h.registry, 'outcome_maker_ledger_mismatch_first_sightings_total', { kind: 'position' })).toBe(1);
    expect(await sample(h.registry, 'outcome_maker_ledger_mismatches_total', { kind: 'position' })).toBe(0);
    h.telemetry.ledger.onMismatch?.(mismatch, 'persistent');
    expect(await sample(h.registry, 'outcome_maker_ledger_mismatches_total', { kind: 'position' })).toBe(1);
    expect(await sample(h.registry, 'outcome_maker_ledger_mismatch_first_sightings_total', { kind: 'position' })).toBe(1);
    h.telemetry.ledger.onConflict?.({ kind: 'fill-data-differs', key: 'tr-1', detail: 'size differs' });
    expect(h.logs.map((l) => l.msg)).toEqual(['ledger conflict']);
  });
});

describe('wireTelemetry: strategy runner', () => {
  it('counts requotes with their latency', async () => {
    const h = harness();
    h.telemetry.runner.onQuoteCycle?.('btc', 12, 2, null);
    expect(await sample(h.registry, 'outcome_maker_requotes_total', { market: 'btc' })).toBe(1);
    const latency = 'outcome_maker_requote_latency_seconds';
    expect(await sample(h.registry, latency, { market: 'btc' }, `${latency}_sum`)).toBeCloseTo(0.012, 9);
  });

  it('counts every strategy error but logs only the first per market', async () => {
    const h = harness();
    h.telemetry.runner.onStrategyError?.('btc', new Error('nope'));
    h.telemetry.runner.onStrategyError?.('btc', new Error('nope again'));
    h.telemetry.runner.onStrategyError?.('eth', 'a string');
    expect(await sample(h.registry, 'outcome_maker_risk_blocks_total', { market: 'btc', reason: 'strategy-error' })).toBe(2);
    expect(h.logs.filter((l) => l.level === ERROR).map((l) => [l.fields['market'], l.fields['err']])).toEqual([
      ['btc', 'nope'],
      ['eth', 'a string'],
    ]);
  });

  it('counts and logs failed cycles and invalid intents', async () => {
    const h = harness();
    h.telemetry.runner.onCycleError?.('btc', new Error('gate broke'));
    expect(await sample(h.registry, 'outcome_maker_risk_blocks_total', { market: 'btc', reason: 'quote-cycle-error' })).toBe(1);
    const rejected = ['a', 'b', 'c', 'd'].map((slot) => ({ intent: { slot }, field: 'slot', value: slot, reason: `bad ${slot}` }));
    h.telemetry.runner.onInvalidIntents?.('btc', rejected);
    expect(await sample(h.registry, 'outcome_maker_risk_blocks_total', { market: 'btc', reason: 'invalid-intent' })).toBe(1);
    expect(h.logs.at(-1)?.fields['rejected']).toEqual(['slot: bad a', 'slot: bad b', 'slot: bad c']);
  });

  it('publishes the expected reward per day from diagnostics when it is a finite number', async () => {
    const h = harness();
    const name = 'outcome_maker_expected_reward_usdc_per_day';
    h.telemetry.runner.onDiagnostics?.('btc', { expectedRewardPerDay: 4.25, other: 1 });
    expect(await sample(h.registry, name, { market: 'btc' })).toBe(4.25);
    h.telemetry.runner.onDiagnostics?.('btc', { expectedRewardPerDay: Number.NaN });
    h.telemetry.runner.onDiagnostics?.('btc', { somethingElse: 9 });
    expect(await sample(h.registry, name, { market: 'btc' })).toBe(4.25);
  });
});

describe('wireTelemetry: hooks never throw into the component', () => {
  it('takes non-finite and negative figures without throwing', () => {
    const h = harness();
    expect(() => {
      h.telemetry.http.onRequestEnd?.('GET /x', 200, Number.NaN, 1);
      h.telemetry.http.onQueueDepth?.(Number.POSITIVE_INFINITY);
      h.telemetry.http.onQueueWait?.('read', -5);
      h.telemetry.runner.onQuoteCycle?.('btc', Number.NaN, 0, 'halted');
      h.telemetry.executor.onPlan?.(plan({ canceled: -1, rejected: Number.NaN }));
    }).not.toThrow();
  });
});
