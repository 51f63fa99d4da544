/**
 * The VenuePort contract (src/orders/venue-port.ts), written once and run against every implementation: the test
 * double (test/support/fake-venue.ts) and the real adapter over the simulator (src/venue/venue-adapter.ts → REST
 * client → src/sim). See venue-port.contract.test.ts for the two factories.
 *
 * Owns: the cases and the `VenueUnderTest` seam a factory provides (the port, one market, and the few controls a
 * case needs to arrange the venue: trading modes, a counterparty's resting ask, a counterparty hitting our bid,
 * settlement, a forced cancel-replace failure, a lost answer). A control says WHAT the venue meets; each factory
 * says how (the simulator really rests and matches orders; the double, which does not match by itself, is told the
 * outcome through its fault controls).
 *
 * Invariants: assertions are on typed values only (results, snapshots, error classes and their typed fields),
 * never on message text; every price is integer ticks, every size a raw 1e6 integer; each case gets a fresh venue
 * (a factory's `close()` runs after each case) and uses its own clientOrderIds.
 */
import { afterEach, expect, it } from 'vitest';
import {
  DuplicateClientOrderIdError,
  OrderRejectedError,
  OutcomeUnknownError,
  RateLimitedError,
  TradingModeError,
  VenueRequestError,
  type CancelReplaceBatch,
  type CancelReplaceItemResult,
  type PlaceRequest,
  type PlaceResult,
  type StatusResult,
  type TradingMode,
  type VenueOrderSnapshot,
  type VenuePort,
} from '../../src/orders/venue-port.js';

/** The port with cancel-replace (both implementations offer it). */
export type ContractPort = VenuePort & Required<Pick<VenuePort, 'cancelReplace'>>;

export type RestrictedMode = Exclude<TradingMode, 'normal'>;

export interface ContractMarket {
  readonly slug: string;
  readonly yesTokenId: string;
  readonly noTokenId: string;
}

/** One implementation of the port, freshly started, with the controls the cases arrange the venue through. */
export interface VenueUnderTest {
  readonly port: ContractPort;
  readonly market: ContractMarket;
  /** The venue's clock (ms since epoch). */
  now(): number;
  /** The venue enters `mode` until `resumeAtMs`. */
  setTradingMode(mode: RestrictedMode, resumeAtMs: number): void;
  /** Every restriction is lifted. */
  clearTradingMode(): void;
  /** A counterparty's YES ask rests at `priceTicks`; the next placement of ours is post-only and crosses it. */
  arrangePostOnlyCross(priceTicks: number): Promise<void>;
  /** A counterparty's YES ask of `sizeRaw` rests at `priceTicks`; the next placement of ours (a BUY YES at that price, at least that size) takes it. */
  arrangeTakerFill(priceTicks: number, sizeRaw: number): Promise<void>;
  /** The next placement is beyond the account's free collateral (the case sends `UNAFFORDABLE_SIZE_RAW` at 500 ticks). */
  arrangeInsufficientBalance(): void;
  /** A counterparty takes `sizeRaw` of our resting YES bid (a maker fill of ours at the bid's price). */
  hitOurBid(order: { readonly orderId: string; readonly priceTicks: number }, sizeRaw: number): Promise<void>;
  /** Every provisional fill settles on chain (MATCHED → MINED). */
  settleTrades(): Promise<void>;
  /** The cancel half of the next cancel-replace operation fails (the order stays as it was). */
  forceNextReplaceCancelFailure(): void;
  /** The answer to the next placement is lost (HTTP 500 on the wire); `applied`: whether it took effect anyway. */
  loseNextPlacementAnswer(applied: boolean): void;
  /** The answer to the next cancel is lost (HTTP 500) on every attempt the client makes; `applied`: whether it took effect. */
  loseCancelAnswers(applied: boolean): void;
  /** The next placement is refused with 429 (Retry-After 1 s) for as long as the client retries it. */
  rateLimitNextPlacement(): void;
  close(): Promise<void>;
}

/** 30,000 shares: at 0.500 that is 15,000 USDC, more than the simulator's demo account holds (10,000 USDC). */
export const UNAFFORDABLE_SIZE_RAW = 30_000_000_000;

const HOUR_MS = 3_600_000;

/** Awaits `promise`, which must reject with an instance of `type`; returns the error, narrowed. */
async function rejection<T extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  let outcome: unknown;
  try {
    outcome = await promise;
  } catch (error) {
    if (error instanceof type) return error;
    throw new Error(`expected ${type.name}, got ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  throw new Error(`expected ${type.name}, but the call resolved with ${JSON.stringify(outcome)}`);
}

/**
 * Registers the contract cases (call inside a describe). `start` gives a fresh venue per case; it is closed after
 * the case, whatever its outcome.
 */
export function venuePortCases(start: () => Promise<VenueUnderTest>): void {
  let current: VenueUnderTest | null = null;
  afterEach(async () => {
    const venue = current;
    current = null;
    if (venue !== null) await venue.close();
  });
  const fresh = async (): Promise<VenueUnderTest> => {
    current = await start();
    return current;
  };

  /** A post-only GTC BUY of the YES token (a bid resting below the empty book's asks). */
  const bid = (v: VenueUnderTest, clientOrderId: string, priceTicks: number, sizeRaw: number, extra: Partial<PlaceRequest> = {}): PlaceRequest => ({
    marketSlug: v.market.slug,
    clientOrderId,
    token: 'YES',
    tokenId: v.market.yesTokenId,
    side: 'BUY',
    priceTicks,
    sizeRaw,
    postOnly: true,
    orderType: 'GTC',
    ...extra,
  });

  const lookup = async (v: VenueUnderTest, clientOrderId: string): Promise<StatusResult> => {
    const [result] = await v.port.statusBatch([{ clientOrderId }]);
    if (result === undefined) throw new Error('statusBatch answered no result for one query');
    return result;
  };

  const found = async (v: VenueUnderTest, clientOrderId: string): Promise<VenueOrderSnapshot> => {
    const result = await lookup(v, clientOrderId);
    if (result.outcome !== 'found') throw new Error(`lookup of ${clientOrderId}: ${result.outcome}`);
    return result.order;
  };

  const liveIds = async (v: VenueUnderTest): Promise<(string | null)[]> =>
    (await v.port.listLiveOrders(v.market.slug)).map((o) => o.clientOrderId).sort();

  const restingAnswer = (sizeRaw: number): PlaceResult => ({ orderId: expect.any(String) as string, status: 'LIVE', remainingRaw: sizeRaw, fills: [], reason: null });

  const replaceBatch = (v: VenueUnderTest, cancelOrderId: string, clientOrderId: string, priceTicks: number, sizeRaw: number): CancelReplaceBatch => {
    const { beforeSend: _unused, ...place } = bid(v, clientOrderId, priceTicks, sizeRaw);
    return { marketSlug: v.market.slug, mode: 'STOP_ON_FAILURE', items: [{ cancelOrderId, place }] };
  };

  // ───────────────────────────── placing, listing, looking up ─────────────────────────────

  it('a post-only GTC bid rests: LIVE in the answer, listed live with its clientOrderId, ticks and raw size', async () => {
    const v = await fresh();
    const placed = await v.port.placeOrder(bid(v, 'ct-rest-1', 455, 10_000_000));
    expect(placed).toEqual(restingAnswer(10_000_000));

    const live = await v.port.listLiveOrders(v.market.slug);
    expect(live).toEqual([
      {
        orderId: placed.orderId,
        clientOrderId: 'ct-rest-1',
        marketSlug: v.market.slug,
        tokenId: v.market.yesTokenId,
        side: 'BUY',
        priceTicks: 455,
        sizeRaw: 10_000_000,
        remainingRaw: 10_000_000,
        status: 'LIVE',
        createdAtMs: expect.any(Number) as number,
        fills: [],
      },
    ]);
  });

  it('status lookup by clientOrderId and by orderId: found with the order as listed; an unknown id is not_found', async () => {
    const v = await fresh();
    const placed = await v.port.placeOrder(bid(v, 'ct-look-1', 300, 2_000_000));
    const [listed] = await v.port.listLiveOrders(v.market.slug);

    const results = await v.port.statusBatch([{ clientOrderId: 'ct-look-1' }, { orderId: placed.orderId }, { clientOrderId: 'ct-never-placed' }]);
    expect(results.map((r) => r.outcome)).toEqual(['found', 'found', 'not_found']);
    expect(results.map((r) => r.query)).toEqual([{ clientOrderId: 'ct-look-1' }, { orderId: placed.orderId }, { clientOrderId: 'ct-never-placed' }]);
    for (const result of results.slice(0, 2)) {
      if (result.outcome !== 'found') throw new Error('unreachable');
      expect(result.order).toEqual(listed);
    }
  });

  it('a status lookup of 0 or of more than 50 queries is refused (VenueRequestError)', async () => {
    const v = await fresh();
    const error = await rejection(v.port.statusBatch([]), VenueRequestError);
    expect(error.operation).toBe('statusBatch');
    const tooMany = Array.from({ length: 51 }, (_, i) => ({ clientOrderId: `ct-many-${i}` }));
    expect((await rejection(v.port.statusBatch(tooMany), VenueRequestError)).operation).toBe('statusBatch');
  });

  it('a repeated clientOrderId is DuplicateClientOrderIdError; only the first order exists', async () => {
    const v = await fresh();
    const first = await v.port.placeOrder(bid(v, 'ct-dup-1', 400, 5_000_000));
    const error = await rejection(v.port.placeOrder(bid(v, 'ct-dup-1', 401, 5_000_000)), DuplicateClientOrderIdError);
    expect(error.clientOrderId).toBe('ct-dup-1');
    const live = await v.port.listLiveOrders(v.market.slug);
    expect(live.map((o) => [o.orderId, o.priceTicks])).toEqual([[first.orderId, 400]]);
  });

  it('a clientOrderId stays taken after its order was canceled (DuplicateClientOrderIdError)', async () => {
    const v = await fresh();
    const first = await v.port.placeOrder(bid(v, 'ct-dup-2', 400, 5_000_000));
    expect((await v.port.cancelOrders(v.market.slug, [first.orderId])).canceled).toEqual([first.orderId]);
    await rejection(v.port.placeOrder(bid(v, 'ct-dup-2', 401, 5_000_000)), DuplicateClientOrderIdError);
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
  });

  // ───────────────────────────── rejections ─────────────────────────────

  it('a post-only bid that would cross the book is OrderRejectedError post-only-would-cross (HTTP 400); nothing rests', async () => {
    const v = await fresh();
    await v.arrangePostOnlyCross(550);
    const error = await rejection(v.port.placeOrder(bid(v, 'ct-cross-1', 550, 1_000_000)), OrderRejectedError);
    expect({ reason: error.reason, status: error.status, operation: error.operation }).toEqual({ reason: 'post-only-would-cross', status: 400, operation: 'placeOrder' });
    expect((await lookup(v, 'ct-cross-1')).outcome).toBe('not_found');
    expect(await liveIds(v)).toEqual([]);
  });

  it('a bid beyond the free collateral is OrderRejectedError insufficient-balance (HTTP 400); nothing rests', async () => {
    const v = await fresh();
    v.arrangeInsufficientBalance();
    const error = await rejection(v.port.placeOrder(bid(v, 'ct-broke-1', 500, UNAFFORDABLE_SIZE_RAW, { postOnly: false })), OrderRejectedError);
    expect({ reason: error.reason, status: error.status }).toEqual({ reason: 'insufficient-balance', status: 400 });
    expect((await lookup(v, 'ct-broke-1')).outcome).toBe('not_found');
    expect(await liveIds(v)).toEqual([]);
  });

  it('an order the port cannot build (post-only FAK, FOK) is OrderRejectedError invalid-order, refused unsent (no HTTP status)', async () => {
    const v = await fresh();
    for (const [clientOrderId, extra] of [
      ['ct-invalid-1', { orderType: 'FAK' }],
      ['ct-invalid-2', { orderType: 'FOK', postOnly: false }],
    ] as const) {
      const error = await rejection(v.port.placeOrder(bid(v, clientOrderId, 300, 1_000_000, extra)), OrderRejectedError);
      expect({ reason: error.reason, status: error.status }).toEqual({ reason: 'invalid-order', status: null });
      expect((await lookup(v, clientOrderId)).outcome).toBe('not_found');
    }
    // Refused before the trading mode is consulted: the request never leaves.
    v.setTradingMode('post_only', v.now() + HOUR_MS);
    const error = await rejection(v.port.placeOrder(bid(v, 'ct-invalid-3', 300, 1_000_000, { orderType: 'FAK' })), OrderRejectedError);
    expect(error.reason).toBe('invalid-order');
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
  });

  it('a placement whose answer was lost is OutcomeUnknownError; the lookup by clientOrderId tells whether it took effect', async () => {
    const v = await fresh();
    v.loseNextPlacementAnswer(true);
    const applied = await rejection(v.port.placeOrder(bid(v, 'ct-lost-1', 300, 1_000_000)), OutcomeUnknownError);
    expect(applied.operation).toBe('placeOrder');
    expect(await found(v, 'ct-lost-1')).toMatchObject({ clientOrderId: 'ct-lost-1', status: 'LIVE', priceTicks: 300, sizeRaw: 1_000_000 });

    v.loseNextPlacementAnswer(false);
    await rejection(v.port.placeOrder(bid(v, 'ct-lost-2', 301, 1_000_000)), OutcomeUnknownError);
    expect((await lookup(v, 'ct-lost-2')).outcome).toBe('not_found');
    expect(await liveIds(v)).toEqual(['ct-lost-1']);
  });

  it('a placement refused with 429 after the client’s retries is RateLimitedError (with the venue’s wait) and took no effect', async () => {
    const v = await fresh();
    v.rateLimitNextPlacement();
    const error = await rejection(v.port.placeOrder(bid(v, 'ct-429-1', 300, 1_000_000)), RateLimitedError);
    expect({ operation: error.operation, retryAfterMs: error.retryAfterMs }).toEqual({ operation: 'placeOrder', retryAfterMs: 1_000 });
    expect((await lookup(v, 'ct-429-1')).outcome).toBe('not_found');
  });

  // ───────────────────────────── cancels ─────────────────────────────

  it('cancel: confirmed and no longer live; a second cancel of it is refused as already-canceled', async () => {
    const v = await fresh();
    const placed = await v.port.placeOrder(bid(v, 'ct-cancel-1', 350, 5_000_000));
    expect(await v.port.cancelOrders(v.market.slug, [placed.orderId])).toEqual({ canceled: [placed.orderId], failed: [] });
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
    expect((await found(v, 'ct-cancel-1')).status).toBe('CANCELED');

    const again = await v.port.cancelOrders(v.market.slug, [placed.orderId]);
    expect(again.canceled).toEqual([]);
    expect(again.failed.map((f) => [f.orderId, f.reason])).toEqual([[placed.orderId, 'already-canceled']]);
  });

  it('cancel of an unknown order is refused as not-found; a batch cancels what it can and lists the rest', async () => {
    const v = await fresh();
    const unknown = '3f1c2b9e-0d5a-4c4e-9a51-7b2d8e6f1a00';
    const alone = await v.port.cancelOrders(v.market.slug, [unknown]);
    expect(alone.canceled).toEqual([]);
    expect(alone.failed.map((f) => [f.orderId, f.reason])).toEqual([[unknown, 'not-found']]);

    const placed = await v.port.placeOrder(bid(v, 'ct-cancel-2', 350, 1_000_000));
    const mixed = await v.port.cancelOrders(v.market.slug, [placed.orderId, unknown]);
    expect(mixed.canceled).toEqual([placed.orderId]);
    expect(mixed.failed.map((f) => [f.orderId, f.reason])).toEqual([[unknown, 'not-found']]);
  });

  it('a cancel whose answer was lost is OutcomeUnknownError; the lookup tells whether it took effect', async () => {
    const v = await fresh();
    const a = await v.port.placeOrder(bid(v, 'ct-cancel-lost-1', 300, 1_000_000));
    v.loseCancelAnswers(true);
    const applied = await rejection(v.port.cancelOrders(v.market.slug, [a.orderId]), OutcomeUnknownError);
    expect(applied.operation).toBe('cancelOrders');
    expect((await found(v, 'ct-cancel-lost-1')).status).toBe('CANCELED');

    const b = await v.port.placeOrder(bid(v, 'ct-cancel-lost-2', 301, 1_000_000));
    v.loseCancelAnswers(false);
    await rejection(v.port.cancelOrders(v.market.slug, [b.orderId]), OutcomeUnknownError);
    expect((await found(v, 'ct-cancel-lost-2')).status).toBe('LIVE');
    expect(await liveIds(v)).toEqual(['ct-cancel-lost-2']);
  });

  it('cancelAll cancels every live order of the account in the market', async () => {
    const v = await fresh();
    const a = await v.port.placeOrder(bid(v, 'ct-all-1', 300, 1_000_000));
    const b = await v.port.placeOrder({ ...bid(v, 'ct-all-2', 300, 2_000_000), token: 'NO', tokenId: v.market.noTokenId });
    const result = await v.port.cancelAll(v.market.slug);
    expect([...result.canceled].sort()).toEqual([a.orderId, b.orderId].sort());
    expect(result.failed).toEqual([]);
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
    expect(await v.port.cancelAll(v.market.slug)).toEqual({ canceled: [], failed: [] });
  });

  // ───────────────────────────── trading modes ─────────────────────────────

  it('maintenance status maps each mode with its resume time, and normal once lifted', async () => {
    const v = await fresh();
    expect(await v.port.maintenanceStatus()).toEqual({ mode: 'normal', resumeAtMs: null });
    for (const mode of ['post_only', 'cancel_only', 'disabled'] as const) {
      const resumeAtMs = v.now() + HOUR_MS;
      v.setTradingMode(mode, resumeAtMs);
      expect(await v.port.maintenanceStatus()).toEqual({ mode, resumeAtMs });
      v.clearTradingMode();
    }
    expect(await v.port.maintenanceStatus()).toEqual({ mode: 'normal', resumeAtMs: null });
  });

  it('cancel_only: a placement is TradingModeError (mode, resume time) and takes no effect; a cancel still works', async () => {
    const v = await fresh();
    const resting = await v.port.placeOrder(bid(v, 'ct-mode-1', 300, 1_000_000));
    const resumeAtMs = v.now() + HOUR_MS;
    v.setTradingMode('cancel_only', resumeAtMs);

    const error = await rejection(v.port.placeOrder(bid(v, 'ct-mode-2', 301, 1_000_000)), TradingModeError);
    expect({ operation: error.operation, mode: error.mode, resumeAtMs: error.resumeAtMs, unknownMode: error.unknownMode }).toEqual({
      operation: 'placeOrder',
      mode: 'cancel_only',
      resumeAtMs,
      unknownMode: null,
    });
    expect((await lookup(v, 'ct-mode-2')).outcome).toBe('not_found');

    expect(await v.port.cancelOrders(v.market.slug, [resting.orderId])).toEqual({ canceled: [resting.orderId], failed: [] });
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
  });

  it('post_only: a post-only GTC bid rests; one that is not post-only is TradingModeError post_only', async () => {
    const v = await fresh();
    const resumeAtMs = v.now() + HOUR_MS;
    v.setTradingMode('post_only', resumeAtMs);
    expect(await v.port.placeOrder(bid(v, 'ct-po-1', 300, 1_000_000))).toEqual(restingAnswer(1_000_000));
    const error = await rejection(v.port.placeOrder(bid(v, 'ct-po-2', 301, 1_000_000, { postOnly: false })), TradingModeError);
    expect({ mode: error.mode, resumeAtMs: error.resumeAtMs }).toEqual({ mode: 'post_only', resumeAtMs });
    expect(await liveIds(v)).toEqual(['ct-po-1']);
  });

  it('disabled: placements, cancels and cancel-replaces are TradingModeError disabled; the order stays live', async () => {
    const v = await fresh();
    const resting = await v.port.placeOrder(bid(v, 'ct-off-1', 300, 1_000_000));
    const resumeAtMs = v.now() + HOUR_MS;
    v.setTradingMode('disabled', resumeAtMs);
    const place = await rejection(v.port.placeOrder(bid(v, 'ct-off-2', 301, 1_000_000)), TradingModeError);
    expect({ operation: place.operation, mode: place.mode, resumeAtMs: place.resumeAtMs }).toEqual({ operation: 'placeOrder', mode: 'disabled', resumeAtMs });
    const cancel = await rejection(v.port.cancelOrders(v.market.slug, [resting.orderId]), TradingModeError);
    expect({ operation: cancel.operation, mode: cancel.mode }).toEqual({ operation: 'cancelOrders', mode: 'disabled' });
    const all = await rejection(v.port.cancelAll(v.market.slug), TradingModeError);
    expect({ operation: all.operation, mode: all.mode }).toEqual({ operation: 'cancelAll', mode: 'disabled' });
    const replace = await rejection(v.port.cancelReplace(replaceBatch(v, resting.orderId, 'ct-off-3', 302, 1_000_000)), TradingModeError);
    expect({ operation: replace.operation, mode: replace.mode }).toEqual({ operation: 'cancelReplace', mode: 'disabled' });
    expect(await liveIds(v)).toEqual(['ct-off-1']);
  });

  // ───────────────────────────── cancel-replace ─────────────────────────────

  it('cancel-replace: the old order is canceled and the replacement rests, in one answer per item', async () => {
    const v = await fresh();
    const old = await v.port.placeOrder(bid(v, 'ct-cr-1', 400, 2_000_000));
    const results = await v.port.cancelReplace(replaceBatch(v, old.orderId, 'ct-cr-2', 410, 3_000_000));
    expect(results).toEqual<CancelReplaceItemResult[]>([
      {
        cancelOrderId: old.orderId,
        cancel: { status: 'SUCCESS', reason: null },
        replacement: { status: 'SUCCESS', clientOrderId: 'ct-cr-2', placed: restingAnswer(3_000_000), reason: null },
      },
    ]);
    const live = await v.port.listLiveOrders(v.market.slug);
    expect(live.map((o) => [o.orderId, o.clientOrderId, o.priceTicks, o.sizeRaw])).toEqual([[results[0]?.replacement.placed?.orderId, 'ct-cr-2', 410, 3_000_000]]);
    expect((await found(v, 'ct-cr-1')).status).toBe('CANCELED');
  });

  it('cancel-replace: a cancel FAILURE leaves the replacement NOT_ATTEMPTED (forced, and for an order already canceled)', async () => {
    const v = await fresh();
    const old = await v.port.placeOrder(bid(v, 'ct-crf-1', 400, 2_000_000));
    v.forceNextReplaceCancelFailure();
    const [forced] = await v.port.cancelReplace(replaceBatch(v, old.orderId, 'ct-crf-2', 410, 2_000_000));
    expect(forced?.cancel.status).toBe('FAILURE');
    expect(forced?.cancel.reason).toEqual(expect.any(String));
    expect(forced?.replacement).toEqual({ status: 'NOT_ATTEMPTED', clientOrderId: 'ct-crf-2', placed: null, reason: null });
    expect(await liveIds(v)).toEqual(['ct-crf-1']);
    expect((await lookup(v, 'ct-crf-2')).outcome).toBe('not_found');

    await v.port.cancelOrders(v.market.slug, [old.orderId]);
    const [gone] = await v.port.cancelReplace(replaceBatch(v, old.orderId, 'ct-crf-3', 410, 2_000_000));
    expect(gone?.cancel.status).toBe('FAILURE');
    expect(gone?.replacement).toEqual({ status: 'NOT_ATTEMPTED', clientOrderId: 'ct-crf-3', placed: null, reason: null });
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
    expect((await lookup(v, 'ct-crf-3')).outcome).toBe('not_found');
  });

  it('cancel-replace: a replacement whose clientOrderId is taken FAILS after its cancel succeeded; ALLOW_FAILURE places after a failed cancel', async () => {
    const v = await fresh();
    await v.port.placeOrder(bid(v, 'ct-cra-1', 380, 1_000_000));
    const old = await v.port.placeOrder(bid(v, 'ct-cra-2', 400, 2_000_000));
    const [taken] = await v.port.cancelReplace(replaceBatch(v, old.orderId, 'ct-cra-1', 410, 2_000_000));
    expect(taken?.cancel).toEqual({ status: 'SUCCESS', reason: null });
    expect(taken?.replacement).toEqual({ status: 'FAILURE', clientOrderId: 'ct-cra-1', placed: null, reason: expect.any(String) as string });
    expect(await liveIds(v)).toEqual(['ct-cra-1']);

    const [allowed] = await v.port.cancelReplace({ ...replaceBatch(v, old.orderId, 'ct-cra-3', 420, 2_000_000), mode: 'ALLOW_FAILURE' });
    expect(allowed?.cancel.status).toBe('FAILURE');
    expect(allowed?.replacement).toEqual({ status: 'SUCCESS', clientOrderId: 'ct-cra-3', placed: restingAnswer(2_000_000), reason: null });
    expect(await liveIds(v)).toEqual(['ct-cra-1', 'ct-cra-3']);
  });

  it('cancel-replace in cancel_only: the cancel goes through, the replacement is refused (nothing new rests)', async () => {
    const v = await fresh();
    const old = await v.port.placeOrder(bid(v, 'ct-crm-1', 400, 2_000_000));
    v.setTradingMode('cancel_only', v.now() + HOUR_MS);
    const outcome = await v.port.cancelReplace(replaceBatch(v, old.orderId, 'ct-crm-2', 410, 2_000_000)).then(
      (results) => ({ results }),
      (error: unknown) => ({ error }),
    );
    expect(outcome).toEqual({
      results: [
        {
          cancelOrderId: old.orderId,
          cancel: { status: 'SUCCESS', reason: null },
          replacement: { status: 'FAILURE', clientOrderId: 'ct-crm-2', placed: null, reason: expect.any(String) as string },
        },
      ],
    });
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
    expect((await lookup(v, 'ct-crm-2')).outcome).toBe('not_found');
  });

  // ───────────────────────────── fills ─────────────────────────────

  it('a taker fill: in the placement answer and in the lookup by clientOrderId, at the fill’s raw size and ticks', async () => {
    const v = await fresh();
    await v.arrangeTakerFill(550, 4_000_000);
    const placed = await v.port.placeOrder(bid(v, 'ct-take-1', 550, 4_000_000, { postOnly: false }));
    // The placement answer (the official client's CreatedOrder) carries no remaining size: it is reported as the full
    // size (unknown, never 0); what matched is in `fills`.
    expect(placed).toEqual({
      orderId: expect.any(String) as string,
      status: 'MATCHED',
      remainingRaw: 4_000_000,
      fills: [{ tradeEventId: expect.any(String) as string, sizeRaw: 4_000_000, priceTicks: 550, settlement: 'provisional' }],
      reason: null,
    });
    const tradeEventId = placed.fills[0]?.tradeEventId;

    const order = await found(v, 'ct-take-1');
    expect(order).toMatchObject({ orderId: placed.orderId, status: 'MATCHED', sizeRaw: 4_000_000, remainingRaw: 0, priceTicks: 550 });
    expect(order.fills).toEqual([{ tradeEventId, sizeRaw: 4_000_000, priceTicks: 550, settlement: 'provisional' }]);
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);

    await v.settleTrades();
    expect((await found(v, 'ct-take-1')).fills).toEqual([{ tradeEventId, sizeRaw: 4_000_000, priceTicks: 550, settlement: 'mined' }]);
  });

  it('a partial taker fill: the remainder rests; the lookup has the remaining size and the fill, the listing no fills', async () => {
    const v = await fresh();
    await v.arrangeTakerFill(560, 3_000_000);
    const placed = await v.port.placeOrder(bid(v, 'ct-take-2', 560, 10_000_000, { postOnly: false }));
    expect(placed).toEqual({
      orderId: expect.any(String) as string,
      status: 'LIVE',
      remainingRaw: 10_000_000,
      fills: [{ tradeEventId: expect.any(String) as string, sizeRaw: 3_000_000, priceTicks: 560, settlement: 'provisional' }],
      reason: null,
    });
    const order = await found(v, 'ct-take-2');
    expect(order).toMatchObject({ status: 'LIVE', sizeRaw: 10_000_000, remainingRaw: 7_000_000, priceTicks: 560 });
    expect(order.fills).toEqual(placed.fills);
    const live = await v.port.listLiveOrders(v.market.slug);
    expect(live.map((o) => [o.clientOrderId, o.sizeRaw, o.remainingRaw, o.fills])).toEqual([['ct-take-2', 10_000_000, 7_000_000, []]]);
  });

  it('a FAK bid takes what it meets and never rests: the rest is canceled', async () => {
    const v = await fresh();
    await v.arrangeTakerFill(560, 3_000_000);
    const placed = await v.port.placeOrder(bid(v, 'ct-fak-1', 560, 10_000_000, { postOnly: false, orderType: 'FAK' }));
    const fill = { tradeEventId: expect.any(String) as string, sizeRaw: 3_000_000, priceTicks: 560, settlement: 'provisional' };
    expect(placed).toEqual({ orderId: expect.any(String) as string, status: 'CANCELED', remainingRaw: 10_000_000, fills: [fill], reason: null });
    // The lookup has what the answer left out: the remaining (canceled) size.
    const order = await found(v, 'ct-fak-1');
    expect(order).toMatchObject({ status: 'CANCELED', sizeRaw: 10_000_000, remainingRaw: 7_000_000, priceTicks: 560 });
    expect(order.fills).toEqual(placed.fills);
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
  });

  it('a FAK bid that meets nothing is UNMATCHED at once and never rests', async () => {
    const v = await fresh();
    const placed = await v.port.placeOrder(bid(v, 'ct-fak-2', 300, 1_000_000, { postOnly: false, orderType: 'FAK' }));
    expect(placed).toEqual({ orderId: expect.any(String) as string, status: 'UNMATCHED', remainingRaw: 1_000_000, fills: [], reason: null });
    expect(await found(v, 'ct-fak-2')).toMatchObject({ status: 'UNMATCHED', remainingRaw: 1_000_000, fills: [] });
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
  });

  it('listing: newest first', async () => {
    const v = await fresh();
    for (const [i, price] of [300, 310, 320].entries()) await v.port.placeOrder(bid(v, `ct-order-${i}`, price, 1_000_000));
    expect((await v.port.listLiveOrders(v.market.slug)).map((o) => o.clientOrderId)).toEqual(['ct-order-2', 'ct-order-1', 'ct-order-0']);
  });

  it('a maker fill lowers the remaining size the lookup and the listing report (the fill itself comes as events)', async () => {
    const v = await fresh();
    const placed = await v.port.placeOrder(bid(v, 'ct-make-1', 450, 10_000_000));
    await v.hitOurBid({ orderId: placed.orderId, priceTicks: 450 }, 4_000_000);

    const order = await found(v, 'ct-make-1');
    expect(order).toMatchObject({ orderId: placed.orderId, status: 'LIVE', sizeRaw: 10_000_000, remainingRaw: 6_000_000, priceTicks: 450 });
    expect(order.fills).toEqual([]);
    const live = await v.port.listLiveOrders(v.market.slug);
    expect(live.map((o) => [o.clientOrderId, o.sizeRaw, o.remainingRaw, o.fills])).toEqual([['ct-make-1', 10_000_000, 6_000_000, []]]);

    await v.hitOurBid({ orderId: placed.orderId, priceTicks: 450 }, 6_000_000);
    expect(await found(v, 'ct-make-1')).toMatchObject({ status: 'MATCHED', remainingRaw: 0, fills: [] });
    expect(await v.port.listLiveOrders(v.market.slug)).toEqual([]);
    // A filled order cannot be canceled: refused as already-canceled (the venue's NOT_CANCELLABLE).
    const cancel = await v.port.cancelOrders(v.market.slug, [placed.orderId]);
    expect(cancel.failed.map((f) => [f.orderId, f.reason])).toEqual([[placed.orderId, 'already-canceled']]);
  });
}
