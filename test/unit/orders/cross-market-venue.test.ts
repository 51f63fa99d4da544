/**
 * The cross-market batcher (src/orders/cross-market-venue.ts) over a scripted inner port: batches of several markets
 * gathered while a request waits for the limiter and taken when it leaves, most urgent first, results split back per
 * caller index-aligned, a withheld batch answered alone, whole-request errors to every caller, the mixed-market
 * refusal (one market per request for good, logged and reported once), a content refusal retried batch by batch, the
 * hold-off between requests, and pass-through of everything else.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { CrossMarketVenue } from '../../../src/orders/cross-market-venue.js';
import {
  MixedMarketsRefusedError,
  OutcomeUnknownError,
  PlacementWithheldError,
  VenueRequestError,
  type CancelReplaceBatch,
  type CancelReplaceItemResult,
  type CrossMarketCancelReplace,
  type PreparedBatch,
  type PreparedBatchAnswer,
  type VenuePort,
} from '../../../src/orders/venue-port.js';
import { flushAsync } from '../../support/fake-venue.js';

/** One request the inner port saw: the batches it took, as `market:items`. */
type Sent = string[];

/** An inner port whose requests wait for `release()` (the rate limiter), then take their batches and answer them. */
class ScriptedInner {
  readonly sent: Sent[] = [];
  /** Errors the next requests throw (in order), instead of answering. */
  readonly failures: Error[] = [];
  readonly plain: string[] = [];
  /** Per request: whether it was announced as carrying cancels. */
  readonly cancelFlags: boolean[] = [];
  private gates: (() => void)[] = [];
  readonly crossMarket: CrossMarketCancelReplace = {
    prepare: (batch) => (batch.marketSlug === 'unknown' ? Promise.reject(new VenueRequestError('cancelReplace', null, 'market unknown is not configured')) : Promise.resolve({ batch })),
    send: (take, request) => {
      this.cancelFlags.push(request?.cancels ?? true);
      return this.send(take);
    },
  };

  get waitingRequests(): number {
    return this.gates.length;
  }

  /** Lets the oldest waiting request leave the limiter. */
  release(): void {
    this.gates.shift()?.();
  }

  private async send(take: () => readonly PreparedBatch[]): Promise<readonly PreparedBatchAnswer[]> {
    await new Promise<void>((resolve) => this.gates.push(resolve));
    const batches = take();
    if (batches.length === 0) return [];
    this.sent.push(batches.map((b) => `${b.batch.marketSlug}:${b.batch.items.length}`));
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    return batches.map((batch) => ({ batch, results: batch.batch.items.map((item) => ok(item.place.clientOrderId, item.cancelOrderId)) }));
  }

  port(): VenuePort {
    const refuse = (): Promise<never> => Promise.reject(new Error('not used'));
    return {
      placeOrder: (request) => {
        this.plain.push(`place ${request.clientOrderId}`);
        return Promise.resolve({ orderId: 'o-1', status: 'LIVE', remainingRaw: request.sizeRaw, fills: [], reason: null });
      },
      cancelOrders: refuse,
      cancelAll: refuse,
      statusBatch: refuse,
      listLiveOrders: (slug) => {
        this.plain.push(`list ${slug}`);
        return Promise.resolve([]);
      },
      maintenanceStatus: () => Promise.resolve({ mode: 'normal', resumeAtMs: null }),
      crossMarket: this.crossMarket,
    };
  }
}

function ok(clientOrderId: string, cancelOrderId: string | null): CancelReplaceItemResult {
  return {
    cancelOrderId,
    cancel: { status: 'SUCCESS', reason: null },
    replacement: { status: 'SUCCESS', clientOrderId, placed: { orderId: `new-${clientOrderId}`, status: 'LIVE', remainingRaw: 1_000_000, fills: [], reason: null }, reason: null },
  };
}

function batch(marketSlug: string, items: number, urgency = 0, beforeSend?: () => void, placements = false): CancelReplaceBatch {
  return {
    marketSlug,
    mode: 'STOP_ON_FAILURE',
    urgency,
    ...(beforeSend === undefined ? {} : { beforeSend }),
    items: Array.from({ length: items }, (_, i) => ({
      cancelOrderId: placements ? null : `old-${marketSlug}-${i}`,
      place: { marketSlug, clientOrderId: `${marketSlug}-${i}`, token: 'YES', tokenId: '1', side: 'BUY', priceTicks: 500, sizeRaw: 1_000_000, postOnly: true, orderType: 'GTC' },
    })),
  };
}

/** Settles a promise into a value or its error, so several callers can be awaited without unhandled rejections. */
const settled = <T,>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> => promise.then((value) => ({ value }), (error: unknown) => ({ error }));

function setup(options: ConstructorParameters<typeof CrossMarketVenue>[1] = {}) {
  const inner = new ScriptedInner();
  const warnings: string[] = [];
  let refusals = 0;
  const venue = new CrossMarketVenue(inner.port(), { log: { warn: (_o, msg) => warnings.push(msg) }, onMixedMarketsRefused: () => (refusals += 1), ...options });
  const replace = (b: CancelReplaceBatch) => settled(venue.cancelReplace!(b));
  return { inner, venue, warnings, replace, refusals: () => refusals };
}

describe('CrossMarketVenue', () => {
  it('gathers the batches of several markets that arrive while a request waits, and splits the answer back per caller', async () => {
    const { inner, venue, replace } = setup();
    const a = replace(batch('a', 2));
    await flushAsync();
    const b = replace(batch('b', 3));
    const c = replace(batch('c', 1));
    await flushAsync();
    expect(inner.waitingRequests).toBe(1);
    inner.release();
    const [ra, rb, rc] = await Promise.all([a, b, c]);
    expect(inner.sent).toEqual([['a:2', 'b:3', 'c:1']]);
    expect(ra).toEqual({ value: [ok('a-0', 'old-a-0'), ok('a-1', 'old-a-1')] });
    expect(rb).toEqual({ value: [ok('b-0', 'old-b-0'), ok('b-1', 'old-b-1'), ok('b-2', 'old-b-2')] });
    expect(rc).toEqual({ value: [ok('c-0', 'old-c-0')] });
    expect(venue.gathersAcrossMarkets).toBe(true);
    expect(venue.queued).toBe(0);
  });

  it('fills a request with the most urgent batches first up to maxOperations; the rest goes in the next request, passed-over first', async () => {
    const { inner, replace } = setup({ maxOperations: 50 });
    const calls = [replace(batch('low', 20, 1)), replace(batch('high', 20, 9)), replace(batch('mid', 20, 5))];
    await flushAsync();
    inner.release();
    await flushAsync();
    const late = replace(batch('urgent', 20, 99));
    await flushAsync();
    inner.release();
    await Promise.all([...calls, late]);
    expect(inner.sent).toEqual([
      ['high:20', 'mid:20'],
      ['low:20', 'urgent:20'],
    ]);
  });

  it("a batch whose own check throws when the request leaves is answered with that error alone; the others are sent", async () => {
    const { inner, replace } = setup();
    const withheld = replace(batch('a', 1, 0, () => {
      throw new PlacementWithheldError('trading mode cancel_only');
    }));
    const sent = replace(batch('b', 1));
    await flushAsync();
    inner.release();
    expect(await withheld).toEqual({ error: new PlacementWithheldError('trading mode cancel_only') });
    expect(await sent).toMatchObject({ value: [{ cancelOrderId: 'old-b-0' }] });
    expect(inner.sent).toEqual([['b:1']]);
  });

  it('an unknown outcome of the whole request reaches every caller of it, and only them', async () => {
    const { inner, replace } = setup();
    const unknown = new OutcomeUnknownError('cancelReplace', 'timeout');
    inner.failures.push(unknown);
    const a = replace(batch('a', 1));
    const b = replace(batch('b', 1));
    await flushAsync();
    inner.release();
    expect(await a).toEqual({ error: unknown });
    expect(await b).toEqual({ error: unknown });
    const c = replace(batch('c', 1));
    await flushAsync();
    inner.release();
    expect(await c).toMatchObject({ value: [{ cancelOrderId: 'old-c-0' }] });
  });

  it('a batch its port cannot prepare fails alone, before anything is sent', async () => {
    const { inner, replace } = setup();
    const bad = replace(batch('unknown', 1));
    const good = replace(batch('a', 1));
    await flushAsync();
    inner.release();
    expect(await bad).toMatchObject({ error: { name: 'VenueRequestError' } });
    expect(await good).toMatchObject({ value: [{ cancelOrderId: 'old-a-0' }] });
    expect(inner.sent).toEqual([['a:1']]);
  });

  it('the venue refusing several markets in one request: the batches go again one market per request, for good; logged and reported once', async () => {
    const { inner, venue, replace, warnings, refusals } = setup();
    inner.failures.push(new MixedMarketsRefusedError('400: operations[1].replacement.marketSlug'));
    const calls = [replace(batch('a', 1)), replace(batch('b', 2))];
    await flushAsync();
    inner.release();
    await flushAsync();
    inner.release();
    await flushAsync();
    inner.release();
    const results = await Promise.all(calls);
    expect(results.map((r) => 'value' in r)).toEqual([true, true]);
    expect(inner.sent).toEqual([['a:1', 'b:2'], ['a:1'], ['b:2']]);
    expect(venue.mixesMarkets).toBe(false);
    // Later requests never mix markets; two batches of one market still share one.
    const later = [replace(batch('c', 1)), replace(batch('d', 1)), replace(batch('c', 2))];
    await flushAsync();
    inner.release();
    await flushAsync();
    inner.release();
    await Promise.all(later);
    expect(inner.sent.slice(3)).toEqual([['c:1', 'c:2'], ['d:1']]);
    expect([refusals(), warnings.length]).toEqual([1, 1]);
  });

  it('a 400 of a request carrying several batches: each goes again alone, and only the one refused again gets the error', async () => {
    const { inner, replace } = setup();
    const refused = new VenueRequestError('cancelReplace', 400, 'operations[0].cancel.clientOrderId: not found');
    inner.failures.push(refused);
    const a = replace(batch('a', 1));
    const b = replace(batch('b', 1));
    await flushAsync();
    inner.release();
    await flushAsync();
    inner.failures.push(refused);
    inner.release();
    await flushAsync();
    inner.release();
    expect(await a).toEqual({ error: refused });
    expect(await b).toMatchObject({ value: [{ cancelOrderId: 'old-b-0' }] });
    expect(inner.sent).toEqual([['a:1', 'b:1'], ['a:1'], ['b:1']]);
  });

  it('holds off the next request: it is opened holdOffMs after the previous one left', async () => {
    const scheduler = new ManualClock(0);
    const { inner, replace } = setup({ holdOffMs: 480, scheduler });
    const first = replace(batch('a', 1));
    await flushAsync();
    inner.release();
    await first;
    const second = replace(batch('b', 1));
    await flushAsync();
    expect(inner.waitingRequests).toBe(0);
    scheduler.advance(479);
    await flushAsync();
    expect(inner.waitingRequests).toBe(0);
    scheduler.advance(1);
    await flushAsync();
    expect(inner.waitingRequests).toBe(1);
    inner.release();
    expect(await second).toMatchObject({ value: [{ cancelOrderId: 'old-b-0' }] });
  });

  it('a request lingers lingerMs before it reaches the limiter, so batches of one moment share it', async () => {
    const scheduler = new ManualClock(0);
    const { inner, replace } = setup({ lingerMs: 5, scheduler });
    const a = replace(batch('a', 1));
    await flushAsync();
    scheduler.advance(3);
    const b = replace(batch('b', 1));
    await flushAsync();
    expect(inner.waitingRequests).toBe(0);
    scheduler.advance(2);
    await flushAsync();
    expect(inner.waitingRequests).toBe(1);
    inner.release();
    await Promise.all([a, b]);
    expect(inner.sent).toEqual([['a:1', 'b:1']]);
  });

  it('a request opened for placements alone is announced without cancels (it waits its turn with placements)', async () => {
    const { inner, replace } = setup();
    const first = replace(batch('a', 2, 0, undefined, true));
    await flushAsync();
    inner.release();
    await first;
    const second = replace(batch('b', 1));
    await flushAsync();
    inner.release();
    await second;
    expect(inner.cancelFlags).toEqual([false, true]);
  });

  it('passes every other call through, and an inner port without crossMarket gets each batch as before', async () => {
    const { inner, venue } = setup();
    await venue.listLiveOrders('a');
    await venue.placeOrder(batch('a', 1).items[0]!.place);
    expect(inner.plain).toEqual(['list a', 'place a-0']);
    const plain: string[] = [];
    const { crossMarket: _cross, ...withoutCross } = inner.port();
    const direct = new CrossMarketVenue({
      ...withoutCross,
      cancelReplace: (b) => {
        plain.push(b.marketSlug);
        return Promise.resolve([]);
      },
    });
    await direct.cancelReplace!(batch('x', 1));
    expect(plain).toEqual(['x']);
    expect(direct.gathersAcrossMarkets).toBe(false);
    expect(new CrossMarketVenue(withoutCross).cancelReplace).toBeUndefined();
  });
});
