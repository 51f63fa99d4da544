/**
 * The request model as a venue-port decorator, on virtual time: before `begin()` requests act at once; after it,
 * each waits for the limiter, acts one way after it starts (its `beforeSend` check when it leaves the limiter) and is
 * answered one way later, errors included; VirtualTime runs timers in due order and settles the promise work each
 * one starts before the next.
 */
import { describe, expect, it } from 'vitest';
import { LatencyVenue } from '../../../src/backtest/latency-venue.js';
import { VirtualTime } from '../../../src/backtest/virtual-time.js';
import { OrderRejectedError, PlacementWithheldError, type PlaceRequest, type VenuePort } from '../../../src/orders/venue-port.js';

const T0 = 1_000_000;

/** A port that notes the virtual time of every call that reaches it. */
function innerPort(time: VirtualTime, log: string[]): VenuePort {
  return {
    placeOrder: (r) => {
      log.push(`place ${r.clientOrderId} @${time.now() - T0}`);
      if (r.clientOrderId === 'bad') return Promise.reject(new OrderRejectedError('validation', 'bad order'));
      return Promise.resolve({ orderId: `o-${r.clientOrderId}`, status: 'LIVE', remainingRaw: r.sizeRaw, fills: [], reason: null });
    },
    cancelOrders: (_slug, ids) => {
      log.push(`cancel ${ids.join(',')} @${time.now() - T0}`);
      return Promise.resolve({ canceled: ids, failed: [] });
    },
    cancelAll: () => Promise.resolve({ canceled: [], failed: [] }),
    statusBatch: () => Promise.resolve([]),
    listLiveOrders: () => Promise.resolve([]),
    maintenanceStatus: () => Promise.resolve({ mode: 'normal', resumeAtMs: null }),
  };
}

const request = (clientOrderId: string, beforeSend?: () => void): PlaceRequest => ({
  marketSlug: 'm',
  clientOrderId,
  token: 'YES',
  tokenId: 'y',
  side: 'BUY',
  priceTicks: 400,
  sizeRaw: 1_000_000,
  postOnly: true,
  orderType: 'GTC',
  ...(beforeSend === undefined ? {} : { beforeSend }),
});

describe('LatencyVenue', () => {
  it('before begin(): acts at once', async () => {
    const time = new VirtualTime(T0);
    const log: string[] = [];
    const venue = new LatencyVenue(innerPort(time, log), time, { oneWayMs: 50, minRequestSpacingMs: 320, maxConcurrent: 2 });
    await expect(venue.placeOrder(request('a'))).resolves.toMatchObject({ orderId: 'o-a' });
    expect(log).toEqual(['place a @0']);
    expect(time.clock.pending()).toBe(0);
  });

  it('after begin(): spaced starts, one way to land, one way back; beforeSend at the start; errors at the answer time', async () => {
    const time = new VirtualTime(T0);
    const log: string[] = [];
    const venue = new LatencyVenue(innerPort(time, log), time, { oneWayMs: 50, minRequestSpacingMs: 320, maxConcurrent: 2 });
    venue.begin();
    const answers: string[] = [];
    const checks: number[] = [];
    void venue.placeOrder(request('a', () => checks.push(time.now() - T0))).then(() => answers.push(`a @${time.now() - T0}`));
    void venue.cancelOrders('m', ['x']).then(() => answers.push(`x @${time.now() - T0}`));
    venue.placeOrder(request('bad')).catch((error: unknown) => answers.push(`bad ${error instanceof OrderRejectedError ? error.reason : '?'} @${time.now() - T0}`));
    await time.runUntil(T0 + 2_000);
    // Starts at 0, 320, 640 (spacing; 2 in flight at most); each lands 50 ms later and is answered 50 ms after that.
    expect(log).toEqual(['place a @50', 'cancel x @370', 'place bad @690']);
    expect(checks).toEqual([0]);
    expect(answers).toEqual(['a @100', 'x @420', 'bad validation @740']);
    expect(venue.requests).toBe(3);
  });

  it('a placement withheld by its beforeSend never reaches the inner port', async () => {
    const time = new VirtualTime(T0);
    const log: string[] = [];
    const venue = new LatencyVenue(innerPort(time, log), time, { oneWayMs: 50, minRequestSpacingMs: 0, maxConcurrent: 2 });
    venue.begin();
    const outcome = venue.placeOrder(
      request('w', () => {
        throw new PlacementWithheldError('slot taken');
      }),
    );
    const settled = outcome.then(
      () => 'placed',
      (error: unknown) => (error instanceof PlacementWithheldError ? 'withheld' : 'other'),
    );
    await time.runUntil(T0 + 1_000);
    await expect(settled).resolves.toBe('withheld');
    expect(log).toEqual([]);
  });
});

describe('LatencyVenue: the bot\'s start order and the stop at the leave', () => {
  it('a cancel and a status lookup asked after queued placements leave before them; a routine listing after them', async () => {
    const time = new VirtualTime(T0);
    const log: string[] = [];
    const listed: VenuePort = { ...innerPort(time, log), listLiveOrders: (slug: string) => (log.push(`list ${slug} @${time.now() - T0}`), Promise.resolve([])), statusBatch: () => (log.push(`lookup @${time.now() - T0}`), Promise.resolve([])) };
    const ordered = new LatencyVenue(listed, time, { oneWayMs: 50, minRequestSpacingMs: 320, maxConcurrent: 2 });
    ordered.begin();
    void ordered.placeOrder(request('p1'));
    void ordered.placeOrder(request('p2'));
    void ordered.placeOrder(request('p3'));
    void ordered.listLiveOrders('m');
    void ordered.statusBatch([]);
    void ordered.cancelOrders('m', ['c']);
    void ordered.listLiveOrders('urgent', { urgent: true });
    await time.runUntil(T0 + 5_000);
    // p1 left at once (the limiter was idle); then the cancel and the confirming listing, the lookup, the placements, the read.
    expect(log).toEqual(['place p1 @50', 'cancel c @370', 'list urgent @690', 'lookup @1010', 'place p2 @1330', 'place p3 @1650', 'list m @1970']);
    expect([ordered.requests, ordered.withheld, ordered.queued()]).toEqual([7, 0, 0]);
  });

  it('a placement queued before its market\'s stop that would leave at or after it never leaves; counted withheld; its slot goes to the next', async () => {
    const time = new VirtualTime(T0);
    const log: string[] = [];
    const venue = new LatencyVenue(innerPort(time, log), time, { oneWayMs: 50, minRequestSpacingMs: 320, maxConcurrent: 2 });
    venue.begin();
    const stopAtMs = T0 + 500;
    // The executor's check as it runs when the request leaves (src/orders/plan-requests.ts withholdUnlessAllowed).
    const pastStop = (): void => {
      if (time.now() >= stopAtMs) throw new PlacementWithheldError('past its stop before settlement', { abortsPlan: false });
    };
    const outcomes: string[] = [];
    const track = (name: string, answer: Promise<unknown>): void => {
      answer.then(
        () => outcomes.push(`${name} placed @${time.now() - T0}`),
        (error: unknown) => outcomes.push(`${name} ${error instanceof PlacementWithheldError ? 'withheld' : 'failed'} @${time.now() - T0}`),
      );
    };
    track('a', venue.placeOrder(request('a', pastStop)));
    track('b', venue.placeOrder(request('b', pastStop)));
    track('late', venue.placeOrder(request('late', pastStop)));
    void venue.cancelOrders('m', ['x']);
    await time.runUntil(T0 + 3_000);
    // a at 0; the cancel at 320; b would leave at 640, past the stop at 500: withheld, and late with it (b sent
    // nothing, so the spacing is still the cancel's); nothing reaches the venue at or after the stop but the cancel.
    expect(log).toEqual(['place a @50', 'cancel x @370']);
    expect(outcomes).toEqual(['a placed @100', 'b withheld @640', 'late withheld @640']);
    expect([venue.requests, venue.withheld]).toEqual([2, 2]);
  });
});

describe('VirtualTime', () => {
  it('runs timers in due order and lets each one’s promise work schedule the next before moving on', async () => {
    const time = new VirtualTime(T0);
    const seen: number[] = [];
    const sleep = (ms: number): Promise<void> => new Promise((resolve) => time.schedule(ms, resolve));
    const chain = async (): Promise<void> => {
      for (let i = 0; i < 3; i += 1) {
        await sleep(100);
        seen.push(time.now() - T0);
      }
    };
    void chain();
    time.schedule(150, () => seen.push(-(time.now() - T0)));
    await time.runUntil(T0 + 250);
    expect(seen).toEqual([100, -150, 200]);
    expect(time.now()).toBe(T0 + 250);
    expect(time.nextDueMs()).toBe(T0 + 300);
    await time.runUntil(T0 + 1_000);
    expect(seen).toEqual([100, -150, 200, 300]);
    expect(time.nextDueMs()).toBeNull();
  });
});
