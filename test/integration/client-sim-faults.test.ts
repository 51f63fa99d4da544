/**
 * The bot's real REST client (src/exchange) against the embedded simulator (src/sim) when things go wrong:
 * trading modes (post_only, cancel_only, disabled; maintenance status), a stale receive window, injected 5xx on
 * reads, cancels and placements (unknown outcome, resolved by clientOrderId), an injected 429 burst, and the
 * spec's real rate limits with zero 429s from the simulator's limiter.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { FrameworkError, isDuplicateOrderError, ExchangeOutcomeUnknownError, ExchangeTradingModeError } from '../../src/exchange/errors.js';
import type { FetchLike } from '../../src/exchange/http.js';
import { RETRY_DEFAULTS } from '../../src/exchange/retry-table.js';
import { deriveAccountCredentials } from '../../src/sim/index.js';
import { waitUntil } from '../support/sim-http.js';
import {
  ARRIVAL_MARGIN_MS,
  clientSimPerTest,
  lastSeq,
  placeLimit,
  rejectionOf,
  signLimit,
  tokenLog,
  type ClientSim,
} from '../support/client-sim.js';

const startHarness = clientSimPerTest({ invariants: true });

/** Statuses the simulator answered a token on one method + path since `seq`. */
function answered(sim: ClientSim['sim'], tokenId: string, method: string, path: string, sinceSeq: number): number[] {
  return tokenLog(sim, tokenId, sinceSeq)
    .filter((e) => e.method === method && e.path === path)
    .map((e) => e.status);
}

describe('client ↔ simulator: trading modes', () => {
  it('reports each mode in the maintenance status and blocks what it forbids with ExchangeTradingModeError (never retried)', async () => {
    const h = await startHarness();
    const { demo, sim, clock, simMarket, signing } = h;
    const api = demo.client.api;
    const token = sim.demoAccount.tokenId;
    const resting = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true });
    // The specification's 425 for placements here; the API reference's 503 (the simulator's default) at the end.
    sim.control.updateSettings({ placementModeRefusal: '425' });

    // post_only: only post-only GTC placements.
    const postOnlyEnds = clock.now() + 60_000;
    sim.control.setTradingMode({ mode: 'post_only', resumeAtMs: postOnlyEnds });
    const postOnly = await api.getMaintenanceStatus();
    expect(postOnly).toMatchObject({ mode: 'post_only', resumeAtMs: postOnlyEnds, scheduled: [] });
    expect(postOnly.active.map((w) => [w.mode, w.endsAtMs, typeof w.message, typeof w.startsAtMs])).toEqual([['post_only', postOnlyEnds, 'string', 'number']]);
    let seq = lastSeq(sim);
    const notPostOnly = await rejectionOf(placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 301, sizeRaw: 1_000_000 }), ExchangeTradingModeError);
    expect(notPostOnly).toMatchObject({ status: 425, mode: 'post_only', tradingCode: 'trading_post_only', resumeAtMs: postOnlyEnds });
    expect(answered(sim, token, 'POST', '/orders', seq)).toEqual([425]);
    const allowed = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 302, sizeRaw: 1_000_000, postOnly: true });
    expect(allowed.order.status).toBe('LIVE');
    sim.control.clearTradingMode();

    // cancel_only: every placement is refused, cancels go through.
    const cancelOnlyEnds = clock.now() + 120_000;
    sim.control.setTradingMode({ mode: 'cancel_only', resumeAtMs: cancelOnlyEnds });
    expect(await api.getMaintenanceStatus()).toMatchObject({ mode: 'cancel_only', resumeAtMs: cancelOnlyEnds });
    seq = lastSeq(sim);
    const cancelOnly = await rejectionOf(placeLimit(demo.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true }), ExchangeTradingModeError);
    expect(cancelOnly).toMatchObject({ status: 425, mode: 'cancel_only', tradingCode: 'trading_cancel_only', resumeAtMs: cancelOnlyEnds });
    expect(answered(sim, token, 'POST', '/orders', seq)).toEqual([425]);
    expect(await api.cancelOrder(allowed.orderId)).toEqual({ message: 'Order canceled successfully', delayed: false });

    // disabled on top of cancel_only: the most restrictive window is in force; placements AND cancels are refused.
    const disabledEnds = clock.now() + 30_000;
    sim.control.setTradingMode({ mode: 'disabled', resumeAtMs: disabledEnds });
    const disabledStatus = await api.getMaintenanceStatus();
    expect(disabledStatus).toMatchObject({ mode: 'disabled', resumeAtMs: disabledEnds });
    expect(disabledStatus.active.map((w) => w.mode).sort()).toEqual(['cancel_only', 'disabled']);
    seq = lastSeq(sim);
    const disabled = await rejectionOf(placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 303, sizeRaw: 1_000_000, postOnly: true }), ExchangeTradingModeError);
    expect(disabled).toMatchObject({ status: 425, mode: 'disabled', tradingCode: 'trading_disabled', resumeAtMs: disabledEnds });
    const noCancel = await rejectionOf(api.cancelOrder(resting.orderId), ExchangeTradingModeError);
    expect(noCancel).toMatchObject({ mode: 'disabled', resumeAtMs: disabledEnds, endpoint: { method: 'DELETE', pathTemplate: '/orders/{orderId}' } });
    await rejectionOf(api.cancelOrders([resting.orderId]), ExchangeTradingModeError);
    await rejectionOf(api.cancelAll(simMarket.slug), ExchangeTradingModeError);
    expect(tokenLog(sim, token, seq).map((e) => e.status)).toEqual([425, 425, 425, 425]);
    // Reads stay available.
    expect((await api.getUserOrders(simMarket.slug)).map((o) => o.id)).toEqual([resting.orderId]);
    expect(sim.engine.orderById(resting.orderId)?.status).toBe('LIVE');

    // A window scheduled ahead is reported as scheduled; windows end by themselves at resumeAt.
    const laterStart = clock.now() + 600_000;
    sim.control.setTradingMode({ mode: 'disabled', startsAtMs: laterStart, resumeAtMs: laterStart + 60_000 });
    clock.jump(120_001);
    const after = await api.getMaintenanceStatus();
    expect(after).toMatchObject({ mode: 'normal', resumeAtMs: null, active: [] });
    expect(after.scheduled.map((w) => [w.mode, w.startsAtMs, w.endsAtMs])).toEqual([['disabled', laterStart, laterStart + 60_000]]);
    const resumed = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 304, sizeRaw: 1_000_000 });
    expect(resumed.order.status).toBe('LIVE');
    expect(await api.cancelOrder(resting.orderId)).toMatchObject({ delayed: false });

    // The API reference's 503 of POST /orders in cancel_only: a bare 503, never retried by the client (the caller
    // refreshes the mode: src/venue/unavailable-answer.ts).
    sim.control.updateSettings({ placementModeRefusal: '503' });
    sim.control.setTradingMode({ mode: 'cancel_only', resumeAtMs: clock.now() + 60_000 });
    seq = lastSeq(sim);
    const refused = await rejectionOf(placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 305, sizeRaw: 1_000_000, postOnly: true }), ExchangeOutcomeUnknownError);
    expect(refused).toMatchObject({ reason: 'unavailable', status: 503 });
    expect(answered(sim, token, 'POST', '/orders', seq)).toEqual([503]);
    sim.control.clearTradingMode();
  });
});

describe('client ↔ simulator: receive window', () => {
  it('a placement that arrives outside its receive window (425) is re-stamped and retried, and rests once', async () => {
    const h = await startHarness();
    const { demo, sim, clock, signing } = h;
    const order = await signLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 420, sizeRaw: 2_000_000, postOnly: true, clientOrderId: 'om-t-rw-1', recvWindowMs: 1_000 });
    // The first attempt spends 1.5 s "in transit": stamped at T, it reaches the venue at T + 1.5 s.
    demo.observer.onStart = (endpoint, attempt) => {
      if (endpoint === 'POST /orders' && attempt === 1) clock.jump(1_500);
    };
    const seq = lastSeq(sim);
    const placed = await demo.client.api.placeOrder(order);
    expect(placed.order).toMatchObject({ status: 'LIVE', clientOrderId: 'om-t-rw-1' });
    expect(answered(sim, sim.demoAccount.tokenId, 'POST', '/orders', seq)).toEqual([425, 201]);
    expect(demo.observer.retries('POST /orders')).toEqual([{ reason: 'receive-window', attempt: 1, delayMs: 0 }]);
    // The retry carried a fresh `timestamp` (the old one was 1.5 s old against a 1 s window) and placed one order.
    expect(sim.control.accountOrders(sim.demoAccount.profileId).filter((o) => o.clientOrderId === 'om-t-rw-1')).toHaveLength(1);
  });

  it('when every attempt arrives stale the 425 surfaces after the re-stamp budget, and nothing was placed', async () => {
    const h = await startHarness();
    const { demo, sim, clock, signing } = h;
    const order = await signLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 420, sizeRaw: 2_000_000, postOnly: true, clientOrderId: 'om-t-rw-2', recvWindowMs: 500 });
    demo.observer.onStart = (endpoint) => {
      if (endpoint === 'POST /orders') clock.jump(1_000);
    };
    const seq = lastSeq(sim);
    const stale = await rejectionOf(demo.client.api.placeOrder(order), FrameworkError);
    demo.observer.onStart = null;
    expect(stale).toMatchObject({ status: 425, body: { error: 'Too Early', statusCode: 425 } });
    expect(answered(sim, sim.demoAccount.tokenId, 'POST', '/orders', seq)).toEqual([425, 425, 425]);
    const [lookup] = await demo.client.api.getOrderStatuses([{ clientOrderId: 'om-t-rw-2' }]);
    expect(lookup).toMatchObject({ status: 'not_found', clientOrderId: 'om-t-rw-2' });
  });
});

describe('client ↔ simulator: injected server errors', () => {
  it('a 500 on a read is retried with backoff and succeeds', async () => {
    const h = await startHarness();
    const { demo, sim, simMarket, signing } = h;
    const resting = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true });
    const path = `/markets/${simMarket.slug}/user-orders`;
    sim.control.failNextRequests({ status: 500, count: 2, pathPrefix: path });
    const seq = lastSeq(sim);
    const orders = await demo.client.api.getUserOrders(simMarket.slug);
    expect(orders.map((o) => o.id)).toEqual([resting.orderId]);
    expect(answered(sim, sim.demoAccount.tokenId, 'GET', path, seq)).toEqual([500, 500, 200]);
    const retries = demo.observer.retries('GET /markets/{slug}/user-orders');
    expect(retries.map((r) => [r.reason, r.attempt])).toEqual([
      ['server-error', 1],
      ['server-error', 2],
    ]);
    // Jittered doubling from the retry table's default base (1 s): [500, 1000) then [1000, 2000).
    const base = RETRY_DEFAULTS.serverErrorBaseMs;
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(base / 2);
    expect(retries[0]?.delayMs).toBeLessThan(base);
    expect(retries[1]?.delayMs).toBeGreaterThanOrEqual(base);
    expect(retries[1]?.delayMs).toBeLessThan(2 * base);
    expect(sim.control.pendingFaults()).toEqual([]);
  });

  it('a 503 on POST /orders before it took effect: ExchangeOutcomeUnknownError, not retried; the lookup says not_found', async () => {
    const h = await startHarness();
    const { demo, sim, signing } = h;
    const order = await signLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 410, sizeRaw: 3_000_000, postOnly: true, clientOrderId: 'om-t-u-1' });
    sim.control.failNextRequests({ status: 503, count: 1, pathPrefix: '/orders', phase: 'before' });
    const seq = lastSeq(sim);
    const unknown = await rejectionOf(demo.client.api.placeOrder(order), ExchangeOutcomeUnknownError);
    expect(unknown).toMatchObject({ reason: 'unavailable', status: 503, clientOrderId: 'om-t-u-1', endpoint: { method: 'POST', pathTemplate: '/orders' } });
    expect(answered(sim, sim.demoAccount.tokenId, 'POST', '/orders', seq)).toEqual([503]);

    const [lookup] = await demo.client.api.getOrderStatuses([{ clientOrderId: 'om-t-u-1' }]);
    expect(lookup).toMatchObject({ status: 'not_found', clientOrderId: 'om-t-u-1', data: null });
    expect(sim.control.accountOrders(sim.demoAccount.profileId)).toEqual([]);
    // Not there, so placing the same signed order again is safe; it rests once.
    const placed = await demo.client.api.placeOrder(order);
    expect(placed.order).toMatchObject({ status: 'LIVE', clientOrderId: 'om-t-u-1' });
    expect(sim.control.accountOrders(sim.demoAccount.profileId)).toHaveLength(1);
  });

  it('a 503 on POST /orders after it took effect: ExchangeOutcomeUnknownError; the lookup finds it live, a re-send is a 409', async () => {
    const h = await startHarness();
    const { demo, counterparty, sim, simMarket, signing } = h;
    const order = await signLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 410, sizeRaw: 3_000_000, postOnly: true, clientOrderId: 'om-t-u-2' });
    sim.control.failNextRequests({ status: 503, count: 1, pathPrefix: '/orders', phase: 'after' });
    const unknown = await rejectionOf(demo.client.api.placeOrder(order), ExchangeOutcomeUnknownError);
    expect(unknown).toMatchObject({ reason: 'unavailable', status: 503, clientOrderId: 'om-t-u-2' });

    const [lookup] = await demo.client.api.getOrderStatuses([{ clientOrderId: 'om-t-u-2' }]);
    expect(lookup?.status).toBe('found');
    expect(lookup?.data?.order).toMatchObject({ status: 'LIVE', priceTicks: 410, remainingSizeRaw: 3_000_000, clientOrderId: 'om-t-u-2' });
    const id = lookup?.orderId ?? '';
    expect(sim.engine.orderById(id)).toMatchObject({ status: 'LIVE', clientOrderId: 'om-t-u-2' });
    expect(sim.engine.book(simMarket.slug)?.bids).toEqual([{ priceTicks: 410, sizeRaw: 3_000_000 }]);

    const resend = await demo.client.api.placeOrder(order).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDuplicateOrderError(resend)).toBe(true);
    expect(sim.control.accountOrders(sim.demoAccount.profileId).map((o) => o.id)).toEqual([id]);

    // A taker whose answer is lost after it traded: the lookup shows the fill and its maker match.
    const maker = await placeLimit(counterparty.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 2_000_000, postOnly: true });
    const taker = await signLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 650, sizeRaw: 2_000_000, clientOrderId: 'om-t-u-3' });
    sim.control.failNextRequests({ status: 503, count: 1, pathPrefix: '/orders', phase: 'after' });
    await rejectionOf(demo.client.api.placeOrder(taker), ExchangeOutcomeUnknownError);
    const [filled] = await demo.client.api.getOrderStatuses([{ clientOrderId: 'om-t-u-3' }]);
    expect(filled?.data?.order).toMatchObject({ status: 'MATCHED', remainingSizeRaw: 0 });
    expect(filled?.data?.execution).toMatchObject({ matched: true, settlementStatus: 'MATCHED', totals: { contractsGross: 2_000_000, usdGross: 1_200_000 } });
    expect(filled?.data?.makerMatches.map((m) => [m.orderId, m.matchedSizeRaw])).toEqual([[maker.orderId, 2_000_000]]);
  });

  it('a cancel answered 503 after it took effect is not retried blindly (the caller refreshes the mode and looks the order up)', async () => {
    const h = await startHarness();
    const { demo, sim, signing } = h;
    const order = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true });
    const path = `/orders/${order.orderId}`;
    sim.control.failNextRequests({ status: 503, count: 1, pathPrefix: path, phase: 'after' });
    const seq = lastSeq(sim);
    // A bare 503 may be the venue's maintenance refusal: the transport does not retry it; the order manager looks up.
    const refused = await rejectionOf(demo.client.api.cancelOrder(order.orderId), FrameworkError);
    expect(refused).toMatchObject({ status: 503 });
    expect(answered(sim, sim.demoAccount.tokenId, 'DELETE', path, seq)).toEqual([503]);
    expect(sim.engine.orderById(order.orderId)?.status).toBe('CANCELED');
  });
});

describe('client ↔ simulator: rate limits', () => {
  it('a 429 burst: the client waits Retry-After each time (holding its other requests) and succeeds', async () => {
    const h = await startHarness();
    const { demo, sim, simMarket } = h;
    const token = sim.demoAccount.tokenId;
    const path = `/markets/${simMarket.slug}/user-orders`;
    sim.control.failNextRequests({ status: 429, count: 2, pathPrefix: path, retryAfterSeconds: 1 });
    const seq = lastSeq(sim);
    const started = performance.now();
    const reading = demo.client.api.getUserOrders(simMarket.slug);
    // Once the client has taken the first 429 in, every request of the token waits out the pause.
    await waitUntil(() => (demo.observer.retries('GET /markets/{slug}/user-orders').length > 0 ? true : undefined), 3_000, 'the first 429');
    const positions = await demo.client.api.getPositions();
    expect(await reading).toEqual([]);
    expect(positions).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);

    expect(demo.observer.retries('GET /markets/{slug}/user-orders')).toEqual([
      { reason: 'rate-limited', attempt: 1, delayMs: 1_000 },
      { reason: 'rate-limited', attempt: 2, delayMs: 1_000 },
    ]);
    const log = tokenLog(sim, token, seq);
    const reads = log.filter((e) => e.path === path);
    expect(reads.map((e) => [e.status, e.outcome])).toEqual([
      [429, 'injected'],
      [429, 'injected'],
      [200, 'handled'],
    ]);
    const [first, second, third] = reads.map((e) => e.atMs);
    if (first === undefined || second === undefined || third === undefined) throw new Error('missing log entries');
    expect(second - first).toBeGreaterThanOrEqual(995);
    expect(third - second).toBeGreaterThanOrEqual(995);
    const positionsAt = log.find((e) => e.path === '/portfolio/positions')?.atMs ?? 0;
    expect(positionsAt - first).toBeGreaterThanOrEqual(995);
    expect(sim.control.requestStats()[token]).toMatchObject({ rateLimited: 0, injected: 2 });
  });

  it('why the margin: spacing sends exactly 300 ms apart draws a 429 once one request is slower in transit than the next', async () => {
    // A third account whose network path holds its second request in transit until the third is sent: the client
    // spaced the two sends 300 ms apart, the venue sees them arrive together. (A hold of a fixed 50 ms would make the
    // same point, but on a loaded machine the held request's timer can fire after the next send, and the two then
    // arrive the other way round: two 429s, one for each.)
    const jitter = deriveAccountCredentials(11, 'jitter', 3);
    const h = await startHarness({
      simLimits: { enabled: true, maxConcurrent: 2, minIntervalMs: 300 },
      accounts: [{ profileId: 3, address: jitter.address, usdc: '10', apiTokens: [{ tokenId: jitter.tokenId, secret: jitter.secret, scopes: ['trading'] }] }],
    });
    let sends = 0;
    let releaseHeld = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      releaseHeld = resolve;
    });
    const slowSecond: FetchLike = async (url, init) => {
      sends += 1;
      if (sends === 2) await held;
      if (sends === 3) releaseHeld();
      return fetch(url, init);
    };
    const { client, observer } = await h.connect(jitter, { fetch: slowSecond, limits: { maxConcurrent: 2, minTimeMs: 300 } });
    const [first, second] = await Promise.all([client.api.getPositions(), client.api.getPositions()]);
    expect([first, second]).toEqual([[], []]);
    // The client kept 300 ms between sends, but the venue counted arrivals closer than that: one 429, honoured.
    const arrivals = h.sim.control.requestLog().filter((e) => e.tokenId === jitter.tokenId && e.path === '/portfolio/positions');
    expect(arrivals.map((e) => e.status)).toHaveLength(3);
    expect(h.sim.control.requestStats()[jitter.tokenId]).toMatchObject({ rateLimited: 1 });
    expect(observer.retries('GET /portfolio/positions')).toEqual([{ reason: 'rate-limited', attempt: 1, delayMs: 1_000 }]);
  });

  it('at the spec’s limits (2 in flight, 300 ms) the simulator serves the client zero 429s; cancels start first', async () => {
    // The simulator enforces exactly the spec's limits; the client runs 2 in flight and 300 ms plus a margin
    // for arrival jitter (ARRIVAL_MARGIN_MS): the venue counts arrivals, the client can only space sends.
    const h = await startHarness({
      simLimits: { enabled: true, maxConcurrent: 2, minIntervalMs: 300 },
      clientLimits: { maxConcurrent: 2, minTimeMs: 300 + ARRIVAL_MARGIN_MS },
    });
    const { demo, sim, simMarket, signing } = h;
    const token = sim.demoAccount.tokenId;
    expect(sim.control.state().rateLimits).toEqual({ enabled: true, maxConcurrent: 2, minIntervalMs: 300 });
    const resting = await placeLimit(demo.client, signing, { outcome: 'YES', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true });
    const order = await signLimit(demo.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 300, sizeRaw: 1_000_000, postOnly: true });

    // A burst, queued while the limiter still spaces from the last placement: the cancel must start first, then
    // the placement, then the reads in the order asked.
    const seq = lastSeq(sim);
    const [book, mine, placed, canceled, positions] = await Promise.all([
      demo.client.api.getOrderbook(simMarket.slug),
      demo.client.api.getUserOrders(simMarket.slug),
      demo.client.api.placeOrder(order),
      demo.client.api.cancelOrder(resting.orderId),
      demo.client.api.getPositions(),
    ]);
    expect(canceled.delayed).toBe(false);
    expect(placed.order.status).toBe('LIVE');
    expect(book.tokenId).toBe(simMarket.yesTokenId);
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(positions.length).toBe(1);
    const burst = sim.control.requestLog({ sinceSeq: seq });
    expect(burst.map((e) => `${e.method} ${e.path}`)).toEqual([
      `DELETE /orders/${resting.orderId}`,
      'POST /orders',
      `GET /markets/${simMarket.slug}/orderbook`,
      `GET /markets/${simMarket.slug}/user-orders`,
      'GET /portfolio/positions',
    ]);
    // The log keeps when the client built each signed request (its signed timestamp): at or before its arrival, at ms
    // precision; a public request carries none.
    for (const e of burst) {
      if (e.tokenId === null) expect(e.signedAtMs, `${e.method} ${e.path}`).toBeUndefined();
      else expect(e.atMs - (e.signedAtMs ?? Number.NaN), `${e.method} ${e.path}`).toBeGreaterThanOrEqual(0);
    }
    expect(burst.filter((e) => e.signedAtMs !== undefined)).toHaveLength(4);
    const statuses = await demo.client.api.getOrderStatuses([{ orderId: placed.orderId }, { orderId: resting.orderId }]);
    expect(statuses.map((s) => s.data?.order.status)).toEqual(['LIVE', 'CANCELED']);

    // Every request of the token arrived at least 300 ms after the previous one, and none was refused.
    // (Public reads go unsigned, so the simulator counts them under no token; the client spaced them all the same.)
    const signed = tokenLog(sim, token);
    expect(signed.map((e) => `${e.method} ${e.path.replace(/^\/(markets|profiles)\/[^/]+/, '/$1/*')}`)).toEqual([
      'GET /profiles/*',
      'POST /orders',
      'DELETE /orders/' + resting.orderId,
      'POST /orders',
      'GET /markets/*/user-orders',
      'GET /portfolio/positions',
      'POST /orders/status/batch',
    ]);
    const arrivals = signed.map((e) => e.atMs);
    for (let i = 1; i < arrivals.length; i += 1) expect((arrivals[i] ?? 0) - (arrivals[i - 1] ?? 0)).toBeGreaterThanOrEqual(300);
    expect(sim.control.requestStats()[token]).toEqual({ requests: arrivals.length, rateLimited: 0, injected: 0, errors: 0 });
    expect(demo.observer.statuses().filter((s) => s === 429)).toEqual([]);
  });
});
