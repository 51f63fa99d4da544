/**
 * The chaos suite's invariant checks themselves (test/support/chaos-invariants.ts): each must pass on a sound state
 * and name the culprit on a broken one, or a green chaos run would prove nothing.
 */
import { describe, expect, it } from 'vitest';
import { formatClientOrderId, marketKey } from '../../src/orders/client-order-id.js';
import {
  exposureUtilization,
  exposureViolations,
  fillViolations,
  modeViolations,
  orphanViolations,
  positionViolations,
  rateLimitViolations,
  slotViolations,
  stalledMs,
  hopArrivals,
  type ExposureLimits,
  type LedgerFillRow,
  type LoggedRequest,
  type VenueLiveOrder,
} from '../support/chaos-invariants.js';

const SLUG = 'sim-btc-above-100k-0';
const cid = (slot: string, sequence: number, tag = 'chaos'): string => formatClientOrderId({ botTag: tag, marketKey: marketKey(SLUG), slot, sequence });
const live = (orderId: string, clientOrderId: string | null, extra: Partial<VenueLiveOrder> = {}): VenueLiveOrder => ({
  marketSlug: SLUG,
  orderId,
  clientOrderId,
  outcome: 'YES',
  side: 'BUY',
  priceTicks: 500,
  remainingRaw: 5_000_000,
  ...extra,
});

describe('one order per slot, no orphan', () => {
  it('passes one order per slot and ignores foreign orders', () => {
    const orders = [live('a', cid('bid-0', 1)), live('b', cid('ask-0', 2)), live('c', null), live('d', cid('bid-0', 3, 'other'))];
    expect(slotViolations(orders, 'chaos')).toEqual([]);
  });

  it('names a slot holding two live orders', () => {
    const violations = slotViolations([live('a', cid('bid-0', 1)), live('b', cid('bid-0', 2))], 'chaos');
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain(`${SLUG}|bid-0 holds 2 live orders`);
  });

  it('names a live tagged order the ledger does not hold as open (matched by clientOrderId or venue id)', () => {
    const orders = [live('a', cid('bid-0', 1)), live('b', cid('ask-0', 2)), live('c', null)];
    const ledger = [{ clientOrderId: cid('bid-0', 1), venueOrderId: null }, { clientOrderId: 'something-else', venueOrderId: 'b' }];
    expect(orphanViolations(orders, ledger, 'chaos')).toEqual([]);
    expect(orphanViolations(orders, ledger.slice(0, 1), 'chaos')).toEqual([`orphan: live order b (${cid('ask-0', 2)}) in ${SLUG} is not open in the ledger`]);
  });
});

describe('every fill once', () => {
  const row = (tradeEventId: string, orderId: string, sizeRaw: number, extra: Partial<LedgerFillRow> = {}): LedgerFillRow => ({
    tradeEventId,
    orderId,
    sizeRaw,
    state: 'mined',
    source: 'venue',
    kind: 'trade',
    ...extra,
  });

  it('passes when each venue fill is in the ledger once, provisional or mined', () => {
    const venue = [{ tradeEventId: 't1', orderId: 'o1', sizeRaw: 1_000_000 }, { tradeEventId: 't2', orderId: 'o1', sizeRaw: 2_000_000 }];
    expect(fillViolations(venue, [row('t1', 'o1', 1_000_000), row('t2', 'o1', 2_000_000, { state: 'provisional' })])).toEqual({ violations: [], standIns: 0 });
  });

  it('names a missing fill, a wrong size, a fill the venue never recorded and a failed fill that did happen', () => {
    const venue = [{ tradeEventId: 't1', orderId: 'o1', sizeRaw: 1_000_000 }, { tradeEventId: 't2', orderId: 'o2', sizeRaw: 2_000_000 }, { tradeEventId: 't4', orderId: 'o4', sizeRaw: 1_000 }];
    const ledger = [row('t2', 'o2', 1_500_000), row('t3', 'o3', 1_000), row('t4', 'o4', 1_000, { state: 'failed' })];
    const { violations } = fillViolations(venue, ledger);
    expect(violations).toContain('fill t2|o2: ledger size 1500000, venue size 2000000');
    expect(violations).toContain('ledger fill t3|o3 (1000 raw) is not a fill the venue recorded');
    expect(violations.some((v) => v.startsWith('order o1: venue fills missing from the ledger total 1000000'))).toBe(true);
    expect(violations.some((v) => v.startsWith('order o4: venue fills missing from the ledger total 1000'))).toBe(true);
  });

  it('accepts fills learnt through a reconciliation stand-in only when the stand-ins cover exactly what is missing', () => {
    const venue = [{ tradeEventId: 't1', orderId: 'o1', sizeRaw: 1_000_000 }, { tradeEventId: 't2', orderId: 'o1', sizeRaw: 2_000_000 }];
    const covered = fillViolations(venue, [row('t1', 'o1', 1_000_000), row('reconcile:o1:1000000+2000000', 'o1', 2_000_000, { source: 'reconcile' })]);
    expect(covered).toEqual({ violations: [], standIns: 1 });
    const short = fillViolations(venue, [row('reconcile:o1:0+1000000', 'o1', 1_000_000, { source: 'reconcile' })]);
    expect(short.violations).toEqual(['order o1: venue fills missing from the ledger total 3000000 raw, reconciliation stand-ins total 1000000 raw']);
  });

  it('counts a fill recorded twice', () => {
    const venue = [{ tradeEventId: 't1', orderId: 'o1', sizeRaw: 1_000_000 }];
    expect(fillViolations(venue, [row('t1', 'o1', 1_000_000), row('t1', 'o1', 1_000_000)]).violations).toEqual(['fill t1|o1 is in the ledger 2 times']);
  });
});

describe('positions equal', () => {
  it('compares per market and token, absent counting as 0', () => {
    const venue = [{ marketSlug: 'm', token: 'YES' as const, balanceRaw: 5 }, { marketSlug: 'm', token: 'NO' as const, balanceRaw: 0 }];
    expect(positionViolations(venue, [{ marketSlug: 'm', token: 'YES', balanceRaw: 5 }])).toEqual([]);
    expect(positionViolations(venue, [{ marketSlug: 'm', token: 'YES', balanceRaw: 4 }, { marketSlug: 'n', token: 'NO', balanceRaw: 1 }])).toEqual([
      'position m|YES: venue 5 raw, ledger 4 raw',
      'position n|NO: venue 0 raw, ledger 1 raw',
    ]);
  });
});

describe('exposure within the limits', () => {
  const limits: ExposureLimits = { maxPositionPerTokenRaw: 10_000_000, maxNetPositionRaw: 8_000_000, maxOpenOrders: 2, maxNotionalRaw: 20_000_000 };

  it('passes a position plus live orders inside every limit', () => {
    const market = { marketSlug: SLUG, yesRaw: 5_000_000, noRaw: 0, costRaw: 2_500_000, live: [live('a', null, { remainingRaw: 3_000_000 })] };
    expect(exposureViolations([market], limits, 't')).toEqual([]);
  });

  it('reports the highest share of a position limit used', () => {
    const market = { marketSlug: SLUG, yesRaw: 5_000_000, noRaw: 0, costRaw: 0, live: [live('a', null, { remainingRaw: 3_000_000 })] };
    expect(exposureUtilization([market], limits)).toBe(1); // worst-case YES − NO 8 of 8
    expect(exposureUtilization([{ ...market, live: [] }], limits)).toBeCloseTo(5 / 8);
  });

  it('names each limit the worst case breaks', () => {
    const market = {
      marketSlug: SLUG,
      yesRaw: 8_000_000,
      noRaw: 0,
      costRaw: 19_000_000,
      live: [live('a', null, { remainingRaw: 3_000_000 }), live('b', null, { outcome: 'NO', side: 'SELL', remainingRaw: 1_000_000 }), live('c', null, { remainingRaw: 1_000 })],
    };
    const violations = exposureViolations([market], limits, 't');
    expect(violations).toContain(`t ${SLUG}: YES held 8000000 + live BUY YES 3001000 > 10000000`);
    expect(violations).toContain(`t ${SLUG}: worst-case YES − NO 12001000 > 8000000`);
    expect(violations).toContain(`t ${SLUG}: 3 live orders > 2`);
    expect(violations).toContain('t: notional 20500500 raw > 20000000');
  });
});

describe('rate limits', () => {
  const req = (atMs: number, outcome: LoggedRequest['outcome'] = 'handled', durationMs = 5): LoggedRequest => ({
    atMs,
    durationMs,
    method: 'GET',
    path: '/x',
    status: outcome === 'rate_limited' ? 429 : 200,
    outcome,
  });

  it('passes when nothing was refused; an injected 429 is not the bot’s', () => {
    expect(rateLimitViolations([req(0), req(320), req(640, 'injected')], { minIntervalMs: 300, stalls: [] })).toEqual({ violations: [], noise: [] });
  });

  it('blames the bot for a short gap the simulator did not stall over, and not for one it did', () => {
    const requests = [req(1000), req(1250, 'rate_limited')];
    expect(rateLimitViolations(requests, { minIntervalMs: 300, stalls: [] }).violations).toEqual(['rate limited: GET /x at 1250, 250 ms after the previous request (50 ms short)']);
    // The simulator's loop stalled 60 ms until 1000: the previous request was stamped late.
    expect(rateLimitViolations(requests, { minIntervalMs: 300, stalls: [{ endMs: 1001, ms: 60 }] })).toEqual({
      violations: [],
      noise: ['rate limited: GET /x at 1250, 250 ms after the previous request (50 ms short)'],
    });
  });

  it('adds up the stalls of the interval before the previous stamp; a stall before that interval explains nothing', () => {
    const requests = [req(1000), req(1250, 'rate_limited')];
    const message = 'rate limited: GET /x at 1250, 250 ms after the previous request (50 ms short)';
    // A loaded machine: the loop lost the CPU three times in a row before stamping the previous request.
    const series = [{ endMs: 760, ms: 15 }, { endMs: 900, ms: 15 }, { endMs: 990, ms: 20 }];
    expect(rateLimitViolations(requests, { minIntervalMs: 300, stalls: series })).toEqual({ violations: [], noise: [message] });
    // Together too short: the bot's.
    expect(rateLimitViolations(requests, { minIntervalMs: 300, stalls: series.slice(1) }).violations).toEqual([message]);
    // Long, but over before the interval, or begun after the previous stamp: the bot's.
    expect(rateLimitViolations(requests, { minIntervalMs: 300, stalls: [{ endMs: 650, ms: 200 }, { endMs: 1200, ms: 190 }] }).violations).toEqual([message]);
  });

  it('through a proxy, a short gap is explained when the two requests reached the proxy far enough apart, not when they came close', () => {
    const signed = (r: LoggedRequest, signedAtMs: number): LoggedRequest => ({ ...r, method: 'POST', path: '/orders', signedAtMs });
    // The bot sent 300 ms apart; the first request waited 240 ms in the hop, so the simulator saw 60 ms.
    const atSim = [signed(req(1240), 1000), signed(req(1300, 'rate_limited'), 1300)];
    const message = 'rate limited: POST /orders at 1300, 60 ms after the previous request (240 ms short';
    const kept = [
      { atMs: 1001, method: 'POST', path: '/orders', signedAtMs: 1000 },
      { atMs: 1301, method: 'POST', path: '/orders', signedAtMs: 1300 },
    ];
    expect(rateLimitViolations(atSim, { minIntervalMs: 300, stalls: [] }).violations).toEqual([`${message})`]);
    expect(rateLimitViolations(atSim, { minIntervalMs: 300, stalls: [], hop: hopArrivals(atSim, kept) })).toEqual({ violations: [], noise: [`${message}; 300 ms apart at the hop)`] });
    // Sent 60 ms apart (both reached the hop so): still the bot's.
    const close = [kept[0]!, { ...kept[1]!, atMs: 1061 }];
    expect(rateLimitViolations(atSim, { minIntervalMs: 300, stalls: [], hop: hopArrivals(atSim, close) }).violations).toEqual([`${message}; 60 ms apart at the hop)`]);
    // A request the hop never saw (another signed time), or an unsigned one: no hop time.
    expect(hopArrivals([signed(req(5), 7), req(9)], kept).size).toBe(0);
  });

  it('counts the part of a stall before the previous stamp when the stamp fell inside it (a callback run mid-stall)', () => {
    const requests = [req(1000), req(1250, 'rate_limited')];
    const message = 'rate limited: GET /x at 1250, 250 ms after the previous request (50 ms short)';
    // Measured under load: the loop stamped a request 188 ms into a 705 ms stretch without timers.
    expect(rateLimitViolations(requests, { minIntervalMs: 300, stalls: [{ endMs: 1500, ms: 700 }] })).toEqual({ violations: [], noise: [message] });
    // Only 30 ms of the stretch came before the stamp: not enough for 50 ms short.
    expect(rateLimitViolations(requests, { minIntervalMs: 300, stalls: [{ endMs: 1100, ms: 130 }] }).violations).toEqual([message]);
    // A stall that began before the interval counts only from the interval's start.
    expect(stalledMs([{ endMs: 1000, ms: 600 }], 700, 1000)).toBe(300);
    expect(stalledMs([{ endMs: 800, ms: 50 }, { endMs: 1100, ms: 150 }, { endMs: 600, ms: 10 }], 700, 1000)).toBe(100);
  });
});

describe('trading modes', () => {
  const req = (atMs: number, method: string, path: string, status: number, durationMs = 2): LoggedRequest => ({ atMs, durationMs, method, path, status, outcome: status >= 400 ? 'error' : 'handled' });
  const window = { mode: 'cancel_only' as const, startsAtMs: 1000, resumeAtMs: 5000 };

  it('allows the request that told the bot and what was in flight; nothing after', () => {
    const requests = [req(900, 'POST', '/orders', 201), req(1100, 'POST', '/orders', 425), req(1150, 'POST', '/orders', 425), req(2000, 'POST', '/orders/cancel-batch', 200), req(5100, 'POST', '/orders', 201)];
    expect(modeViolations(requests, [window], { maxInFlight: 2, graceMs: 250 })).toEqual([]);
  });

  it('names a placement sent once the mode was known', () => {
    const requests = [req(1100, 'POST', '/orders', 425), req(1600, 'POST', '/orders', 425)];
    expect(modeViolations(requests, [window], { maxInFlight: 2, graceMs: 250 })).toEqual([
      'cancel_only window: POST /orders sent at 1600 (498 ms after the bot learnt the mode), answered 425',
    ]);
  });

  it('judges a signed request by when the bot built it, not when it arrived (a loaded machine held it on the way)', () => {
    const teller = req(1100, 'POST', '/orders', 425);
    // Built 100 ms before the bot could know, arrived 700 ms late: it was in flight when the bot learnt.
    const held = { ...req(1800, 'POST', '/orders/cancel-replace/batch', 425), signedAtMs: 1000 };
    expect(modeViolations([teller, held], [window], { maxInFlight: 2, graceMs: 250 })).toEqual([]);
    // Built 400 ms after the bot learnt: forbidden however soon it arrived.
    const after = { ...req(1510, 'POST', '/orders/cancel-replace/batch', 425), signedAtMs: 1502 };
    expect(modeViolations([teller, after], [window], { maxInFlight: 2, graceMs: 250 })).toEqual([
      'cancel_only window: POST /orders/cancel-replace/batch sent at 1510 (408 ms after the bot learnt the mode, built 400 ms after), answered 425',
    ]);
    // Built before, but more than were in flight: the surplus is named.
    const three = [1000, 1010, 1020].map((signedAtMs, i) => ({ ...req(1800 + i, 'POST', '/orders', 425), signedAtMs }));
    expect(modeViolations([teller, ...three], [window], { maxInFlight: 2, graceMs: 250 })).toEqual(['cancel_only window: 3 forbidden requests around discovery (more than 2 in flight)']);
  });

  it('counts a maintenance read as learning the mode; disabled: one refused cancel, not a retry loop; post_only only non-post-only placements', () => {
    const read = req(1100, 'GET', '/maintenance/status', 200);
    const disabled = [{ ...window, mode: 'disabled' as const }];
    expect(modeViolations([read, req(1500, 'DELETE', '/orders/all/x', 425)], disabled, { maxInFlight: 2, graceMs: 250 })).toEqual([]);
    // After a refused cancel: what was queued then (at most maxInFlight), not a retry loop.
    const loop = [read, req(1500, 'DELETE', '/orders/all/x', 425), ...[1800, 2100, 2400].map((at) => req(at, 'POST', '/orders/cancel-batch', 425))];
    expect(modeViolations(loop.slice(0, 4), disabled, { maxInFlight: 2, graceMs: 250 })).toEqual([]);
    expect(modeViolations(loop, disabled, { maxInFlight: 2, graceMs: 250 })).toEqual([
      'disabled window: POST /orders/cancel-batch sent at 2400 (1298 ms after the bot learnt the mode), answered 425',
    ]);
    expect(modeViolations([read, req(1500, 'POST', '/orders', 425)], disabled, { maxInFlight: 2, graceMs: 250 })).toHaveLength(1);
    expect(modeViolations([read, req(1500, 'DELETE', '/orders/all/x', 200)], [window], { maxInFlight: 2, graceMs: 250 })).toEqual([]);
    expect(modeViolations([read, req(1500, 'POST', '/orders', 201), req(1900, 'POST', '/orders', 425)], [{ ...window, mode: 'post_only' }], { maxInFlight: 2, graceMs: 250 })).toHaveLength(1);
  });
});
