import { execFileSync, spawnSync } from 'node:child_process';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { API_ENDPOINT_LABELS } from '../../../src/exchange/endpoints.js';
import { createMetrics, DROPPED_DEFAULT_METRICS, lintExposition, METRIC_NAMES, type Metrics } from '../../../src/metrics/index.js';

function setup(options: { collectDefault?: boolean; now?: () => number } = {}): { registry: Registry; metrics: Metrics } {
  const registry = new Registry();
  const metrics = createMetrics({ registry, collectDefault: options.collectDefault ?? false, version: '1.2.3', code: 'bundle', ...(options.now ? { now: options.now } : {}) });
  return { registry, metrics };
}

async function value(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const data = await metric.get();
  const match = data.values.find((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want));
  return match?.value;
}

function exerciseAll(metrics: Metrics): void {
  metrics.bookUpdated('alpha');
  metrics.bookResynced('alpha', 'frozen');
  metrics.feedConnected(true);
  metrics.feedReconnected();
  metrics.feedFrozen();
  metrics.malformedFrame('orderbookUpdate');
  metrics.requoted('alpha', 2.5);
  metrics.riskBlocked('alpha', 'position_limit');
  metrics.httpRequest('POST /orders', 201, 120);
  metrics.httpRequest('POST /orders', 429, 40);
  metrics.httpRequest('DELETE /orders/:id', 'timeout', 10_000);
  metrics.httpRetry('POST /orders', 'rate_limited');
  metrics.invalidAnswer('GET /markets/{slug}/orderbook');
  metrics.limiterQueueDepth(3);
  metrics.limiterWaited(450);
  metrics.orderPlaced('alpha', 'BUY');
  metrics.orderCanceled('alpha');
  metrics.orderRejected('alpha', 'post_only_would_cross');
  metrics.orderUnknown('alpha');
  metrics.openOrders('alpha', 4);
  metrics.fill('alpha', 'SELL', 'YES', 7_123_000, 3_953_265);
  metrics.position('alpha', 10_000_000, 2_500_000);
  metrics.pnl('alpha', -1_500_000, 250_000);
  metrics.dailyPnl(-1_250_000);
  metrics.exposure('alpha', 5_000_000);
  metrics.tradingMode('post_only');
  metrics.killSwitch(true, 'daily_loss');
  metrics.expectedRewardPerDay('alpha', 1.25);
  metrics.ledgerMismatch('position');
  metrics.ledgerMismatchFirstSighting('order-filled');
  metrics.redemption('alpha', 'retry');
  metrics.redemption('alpha', 'redeemed', 12_500_000);
  metrics.redemptionsPending(2);
  metrics.orderEventGap();
  metrics.modelFair('alpha', 0.62, 0.01);
  metrics.quotedFrom('alpha', 'model');
  metrics.unpricedMarkets(new Map([['no-strike', 1]]));
}

describe('createMetrics', () => {
  it('registers exactly METRIC_NAMES, all prefixed', async () => {
    const { registry } = setup();
    const names = (await registry.getMetricsAsJSON()).map((m) => m.name).sort();
    expect(names).toEqual([...METRIC_NAMES].sort());
    expect(METRIC_NAMES.every((name) => name.startsWith('outcome_maker_'))).toBe(true);
  });

  it('converts raw units and milliseconds to shares, USDC and seconds', async () => {
    const { registry, metrics } = setup();
    exerciseAll(metrics);
    expect(await value(registry, 'outcome_maker_fill_volume_shares_total', { market: 'alpha', side: 'SELL', token: 'YES' })).toBe(7.123);
    expect(await value(registry, 'outcome_maker_fill_notional_usdc_total', { market: 'alpha', side: 'SELL', token: 'YES' })).toBe(3.953265);
    expect(await value(registry, 'outcome_maker_position_shares', { market: 'alpha', token: 'NO' })).toBe(2.5);
    expect(await value(registry, 'outcome_maker_pnl_usdc', { market: 'alpha', kind: 'realized' })).toBe(-1.5);
    expect(await value(registry, 'outcome_maker_daily_pnl_usdc')).toBe(-1.25);
    expect(await value(registry, 'outcome_maker_redeemed_usdc_total', { market: 'alpha' })).toBe(12.5);
    expect(await value(registry, 'outcome_maker_redemptions_total', { result: 'redeemed' })).toBe(1);
    expect(await value(registry, 'outcome_maker_redemptions_total', { result: 'retry' })).toBe(1);
    expect(await value(registry, 'outcome_maker_redemptions_total', { result: 'refused' }), 'pre-set to 0 for alerts').toBe(0);
    expect(await value(registry, 'outcome_maker_redemptions_pending')).toBe(2);
    expect(await value(registry, 'outcome_maker_order_event_gaps_total')).toBe(1);
    const text = await registry.metrics();
    expect(text).toContain('outcome_maker_limiter_wait_seconds_sum 0.45');
    expect(text).toContain('outcome_maker_requote_latency_seconds_sum{market="alpha"} 0.0025');
    expect(text).toContain('outcome_maker_http_requests_total{endpoint="POST /orders",status="429"} 1');
    expect(text).toContain('outcome_maker_http_requests_total{endpoint="DELETE /orders/:id",status="timeout"} 1');
    expect(text).toContain('outcome_maker_build_info{version="1.2.3",code="bundle"} 1');
  });

  it('computes book age at scrape time from the injected clock', async () => {
    let now = 1_000_000;
    const { registry, metrics } = setup({ now: () => now });
    metrics.bookUpdated('alpha');
    now += 12_500;
    expect(await value(registry, 'outcome_maker_book_age_seconds', { market: 'alpha' })).toBe(12.5);
    metrics.bookUpdated('alpha');
    expect(await value(registry, 'outcome_maker_book_age_seconds', { market: 'alpha' })).toBe(0);
    expect(await value(registry, 'outcome_maker_book_updates_total', { market: 'alpha' })).toBe(2);
  });

  it('keeps the trading mode one-hot and counts a kill-switch trip once per engagement', async () => {
    const { registry, metrics } = setup();
    expect(await value(registry, 'outcome_maker_trading_mode', { mode: 'normal' })).toBe(1);
    metrics.tradingMode('cancel_only');
    expect(await value(registry, 'outcome_maker_trading_mode', { mode: 'normal' })).toBe(0);
    expect(await value(registry, 'outcome_maker_trading_mode', { mode: 'cancel_only' })).toBe(1);
    metrics.killSwitch(true, 'daily_loss');
    metrics.killSwitch(true, 'daily_loss');
    expect(await value(registry, 'outcome_maker_kill_switch_trips_total', { reason: 'daily_loss' })).toBe(1);
    expect(await value(registry, 'outcome_maker_kill_switch_engaged')).toBe(1);
    metrics.killSwitch(false);
    metrics.killSwitch(true, 'daily_loss');
    expect(await value(registry, 'outcome_maker_kill_switch_trips_total', { reason: 'daily_loss' })).toBe(2);
  });

  it('bounds label values: unknown feed events and excess endpoints become "other"', async () => {
    const { registry, metrics } = setup();
    metrics.malformedFrame('some-new-event');
    for (let i = 0; i < 70; i += 1) metrics.httpRequest(`GET /x${i}`, 200, 1);
    const text = await registry.metrics();
    expect(text).toContain('outcome_maker_feed_malformed_frames_total{event="other"} 1');
    expect(text).toContain('outcome_maker_http_requests_total{endpoint="other",status="200"} 6');
    expect(text).not.toContain('endpoint="GET /x64"');
  });

  it('pre-sets invalid venue answers at 0 for every endpoint (without using up the HTTP endpoint labels) and counts them', async () => {
    const { registry, metrics } = setup();
    for (const endpoint of API_ENDPOINT_LABELS) expect(await value(registry, 'outcome_maker_invalid_answers_total', { endpoint })).toBe(0);
    metrics.invalidAnswer('GET /maintenance/status');
    metrics.invalidAnswer('GET /maintenance/status');
    expect(await value(registry, 'outcome_maker_invalid_answers_total', { endpoint: 'GET /maintenance/status' })).toBe(2);
    for (let i = 0; i < 64; i += 1) metrics.httpRequest(`GET /y${i}`, 200, 1);
    expect(await registry.metrics()).not.toContain('outcome_maker_http_requests_total{endpoint="other"');
  });

  it('drops non-finite observations and negative counter increments, and counts them', async () => {
    const { registry, metrics } = setup();
    metrics.requoted('alpha', Number.NaN);
    metrics.exposure('alpha', Number.POSITIVE_INFINITY);
    expect(await value(registry, 'outcome_maker_requotes_total', { market: 'alpha' })).toBe(1);
    expect(await value(registry, 'outcome_maker_exposure_usdc', { market: 'alpha' })).toBeUndefined();
    expect(await value(registry, 'outcome_maker_metric_rejections_total', { metric: 'outcome_maker_exposure_usdc' })).toBe(1);
    expect(() => metrics.fill('alpha', 'BUY', 'NO', -1_000_000, 500_000)).not.toThrow();
    expect(await value(registry, 'outcome_maker_metric_rejections_total', { metric: 'outcome_maker_fill_volume_shares_total' })).toBe(1);
    expect(await value(registry, 'outcome_maker_fill_notional_usdc_total', { market: 'alpha', side: 'BUY', token: 'NO' })).toBe(0.5);
    metrics.redemption('alpha', 'inferred', -5);
    expect(await value(registry, 'outcome_maker_redemptions_total', { result: 'inferred' })).toBe(1);
    expect(await value(registry, 'outcome_maker_metric_rejections_total', { metric: 'outcome_maker_redeemed_usdc_total' })).toBe(1);
  });

  it('forgets every per-market series of a market', async () => {
    const { registry, metrics } = setup();
    exerciseAll(metrics);
    metrics.bookUpdated('beta');
    metrics.forgetMarket('alpha');
    const text = await registry.metrics();
    expect(text).not.toContain('market="alpha"');
    expect(text).toContain('market="beta"');
  });

  it('passes the exposition lint, including Node default metrics', async () => {
    const { registry, metrics } = setup({ collectDefault: true });
    exerciseAll(metrics);
    const text = await registry.metrics();
    expect(lintExposition(text)).toEqual([]);
    expect(text).toContain('process_resident_memory_bytes');
    for (const dropped of DROPPED_DEFAULT_METRICS) expect(text).not.toContain(`${dropped} `);
  });

  const promtool = spawnSync('promtool', ['--version']).status === 0;
  it.runIf(promtool)('passes promtool check metrics', async () => {
    const { registry, metrics } = setup({ collectDefault: true });
    exerciseAll(metrics);
    const text = await registry.metrics();
    expect(() => execFileSync('promtool', ['check', 'metrics'], { input: text, stdio: ['pipe', 'pipe', 'pipe'] })).not.toThrow();
  });
});
