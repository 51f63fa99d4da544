/**
 * An in-memory venue implementing the order manager's `VenuePort`, with fault injection, for executor tests.
 *
 * It holds orders per market, answers placements (409 on a repeated clientOrderId), cancels (with per-order 207
 * failures), status lookups (with ids hidden from lookups for a while), listings and the trading mode (it refuses
 * what the mode forbids, and counts such requests as violations). It does not match orders by itself: tests
 * call `fill()` / `settle()` / `venueCancel()`, which produce the socket frames the real venue would send into an
 * outbox the test delivers in any order (or twice) through `takeEvents()`.
 *
 * Also: `advance()` / `until()`, which move a ManualClock while letting promises run in between, so
 * async code driven by timers can be tested without real sleeps.
 *
 * Held to the VenuePort contract (test/contract/venue-port-cases.ts), which the real adapter over the simulator
 * passes too. What that pins here, as the real venue answers:
 * - a placement answer carries no remaining size (the official client's CreatedOrder has none): `remainingRaw` is
 *   the order's full size, and what matched at placement is in `fills`;
 * - a status lookup reports only the fills the placement answer reported (the order's own taker fills, with their
 *   current settlement state); maker fills show only as a lower remaining size (they arrive as socket frames);
 * - a listing of live orders reports no fills at all, newest first (the later placement first within one ms);
 * - a FAK order never rests (CANCELED after a partial fill, UNMATCHED when it took nothing); a FOK order, or a
 *   post-only order that is not GTC, is refused unsent as OrderRejectedError `invalid-order` (no HTTP status);
 * - `settle()` moves the fill's settlement state that lookups report (MINED → mined, FAILED → failed).
 */
import type { ManualClock } from '../../src/core/clock.js';
import type { OrderEventInput } from '../../src/orders/order-events.js';
import {
  CancelReplaceUnsupportedError,
  MaintenanceBlockError,
  DuplicateClientOrderIdError,
  OrderRejectedError,
  OutcomeUnknownError,
  operationMode,
  RateLimitedError,
  TradingModeError,
  VenueRequestError,
  type CancelFailureReason,
  type CancelReplaceBatch,
  type CancelReplaceItemResult,
  type CancelOptions,
  type CancelResult,
  type MaintenanceStatus,
  type PlaceRequest,
  type PlaceResult,
  type StatusOptions,
  type StatusQuery,
  type StatusResult,
  type VenueFill,
  type VenueOperation,
  type ListOptions,
  type VenueOrderSnapshot,
  type VenueOrderStatus,
  type VenuePort,
} from '../../src/orders/venue-port.js';

export interface FakeOrder {
  orderId: string;
  clientOrderId: string | null;
  marketSlug: string;
  tokenId: string;
  side: 'BUY' | 'SELL';
  priceTicks: number;
  sizeRaw: number;
  remainingRaw: number;
  status: VenueOrderStatus;
  postOnly: boolean;
  createdAtMs: number;
  /** Every fill of the order (maker and taker), with its current settlement state. */
  fills: VenueFill[];
  /** Trade ids of the fills the placement answer reported (taker fills): the only fills a status lookup reports. */
  placementTradeIds: string[];
}

export type PlaceFault =
  | { readonly kind: 'unknown'; readonly applied: boolean }
  | { readonly kind: 'trading-mode'; readonly mode: 'post_only' | 'cancel_only' | 'disabled'; readonly resumeAtMs: number | null }
  | { readonly kind: 'rejected'; readonly reason: string }
  | { readonly kind: 'rate-limited' }
  /** The order is accepted, but the answer is a 409 (as after a transport-level retry of an accepted POST). */
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'fill-at-placement'; readonly sizeRaw: number; readonly tradeEventId: string }
  | { readonly kind: 'canceled-at-placement'; readonly reason: string };

export type RequestFault =
  | { readonly kind: 'unknown'; readonly applied: boolean }
  /** A 425 without the trading-mode body (MaintenanceBlockError): nothing applied. */
  | { readonly kind: 'maintenance-block' }
  | { readonly kind: 'trading-mode'; readonly mode: 'post_only' | 'cancel_only' | 'disabled'; readonly resumeAtMs: number | null }
  | { readonly kind: 'rate-limited' }
  | { readonly kind: 'failed' };

export interface Call {
  readonly op: VenueOperation;
  readonly atMs: number;
  readonly detail: string;
}

interface Hold {
  readonly promise: Promise<void>;
  release(): void;
  reached: boolean;
}

export class FakeVenue implements VenuePort {
  readonly orders = new Map<string, FakeOrder>();
  readonly calls: Call[] = [];
  /** Markets of the listings asked as urgent (cancel priority: confirming a leave or a shutdown), in order. */
  readonly urgentListings: string[] = [];
  /** Markets of the listings a first quote waits for (placement class: start-up adoption listed first), in order. */
  readonly firstQuoteListings: string[] = [];
  /** Markets of the deferred listings (probe class: sent once the market's first quotes are out), in order. */
  readonly deferredListings: string[] = [];
  /** Requests the venue's trading mode forbade (the bot should never send them). */
  readonly modeViolations: Call[] = [];
  /** Cancels refused because the venue is `disabled` (the bot tries cancels in every mode, once until released). */
  readonly refusedCancels: Call[] = [];
  /** In `disabled`, accept cancels instead of refusing them with 425 (the spec says they are refused). */
  cancelsAllowedWhenDisabled = false;
  mode: MaintenanceStatus = { mode: 'normal', resumeAtMs: null };
  /** While true, calls are not recorded (a cancel-replace's own placement is part of its one request). */
  protected quiet = false;
  private outbox: OrderEventInput[] = [];
  private nextId = 1;
  private nextEvent = 1;
  private readonly placeFaults: PlaceFault[] = [];
  private readonly requestFaults = new Map<VenueOperation, RequestFault[]>();
  private readonly cancelFailures = new Map<string, CancelFailureReason>();
  private readonly hiddenFromLookup = new Map<string, number>();
  private readonly holds = new Map<VenueOperation, Hold[]>();

  constructor(private readonly now: () => number) {}

  // ───────────── fault injection ─────────────

  failNextPlace(fault: PlaceFault): void {
    this.placeFaults.push(fault);
  }

  failNext(op: Exclude<VenueOperation, 'placeOrder'>, fault: RequestFault): void {
    const list = this.requestFaults.get(op) ?? [];
    list.push(fault);
    this.requestFaults.set(op, list);
  }

  /** The next cancel of this order is refused with `reason` (207 partial answer) and leaves it as it is. */
  failCancelOf(orderId: string, reason: CancelFailureReason): void {
    this.cancelFailures.set(orderId, reason);
  }

  /** Status lookups answer not_found for this clientOrderId/orderId the next `times` times. */
  hideFromLookup(id: string, times: number): void {
    this.hiddenFromLookup.set(id, times);
  }

  /** The next call of `op` waits (after recording the call) until `release()` is called. */
  hold(op: VenueOperation): Hold {
    let release: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold: Hold = { promise, release, reached: false };
    const list = this.holds.get(op) ?? [];
    list.push(hold);
    this.holds.set(op, list);
    return hold;
  }

  // ───────────── the market, driven by the test ─────────────

  /** An order already on the venue (e.g. left by a previous run). */
  seedOrder(order: Partial<FakeOrder> & Pick<FakeOrder, 'marketSlug' | 'tokenId' | 'side' | 'priceTicks' | 'sizeRaw'>): FakeOrder {
    const full: FakeOrder = {
      orderId: this.newOrderId(),
      clientOrderId: null,
      remainingRaw: order.sizeRaw,
      status: 'LIVE',
      postOnly: false,
      createdAtMs: this.now(),
      fills: [],
      placementTradeIds: [],
      ...order,
    };
    this.orders.set(full.orderId, full);
    return full;
  }

  /** A maker fill of a resting order: OME EXECUTION + SETTLEMENT MATCHED into the outbox. */
  fill(orderId: string, sizeRaw: number, tradeEventId = `trade-${this.nextEvent}`): string {
    const order = this.mustGet(orderId);
    const size = Math.min(sizeRaw, order.remainingRaw);
    order.remainingRaw -= size;
    if (order.remainingRaw === 0) order.status = 'MATCHED';
    order.fills.push({ tradeEventId, sizeRaw: size, priceTicks: order.priceTicks, settlement: 'provisional' });
    this.outbox.push({
      source: 'OME',
      type: 'EXECUTION',
      eventId: String(this.nextEvent++),
      orderId,
      clientOrderId: order.clientOrderId,
      remainingRaw: order.remainingRaw,
      status: order.remainingRaw === 0 ? 'FILLED' : 'PARTIALLY_FILLED',
      atMs: this.now(),
    });
    this.outbox.push({
      source: 'SETTLEMENT',
      type: 'MATCHED',
      eventId: `settlement:${tradeEventId}`,
      tradeEventId,
      fills: [{ orderId, role: 'maker', sizeRaw: size, priceTicks: order.priceTicks }],
      atMs: this.now(),
    });
    return tradeEventId;
  }

  /** The settlement of an earlier fill: SETTLEMENT MINED or FAILED into the outbox. */
  settle(orderId: string, tradeEventId: string, type: 'MINED' | 'FAILED'): void {
    const order = this.mustGet(orderId);
    const index = order.fills.findIndex((f) => f.tradeEventId === tradeEventId);
    const fill = order.fills[index];
    if (fill === undefined) throw new Error(`no fill ${tradeEventId} on ${orderId}`);
    // The venue's lookup follows the settlement (execution.settlementStatus MINED / FAILED).
    order.fills[index] = { ...fill, settlement: type === 'MINED' ? 'mined' : 'failed' };
    this.outbox.push({
      source: 'SETTLEMENT',
      type,
      eventId: `settlement:${tradeEventId}`,
      tradeEventId,
      fills: [{ orderId, role: 'maker', sizeRaw: fill.sizeRaw, priceTicks: fill.priceTicks }],
      atMs: this.now(),
    });
  }

  /** The venue cancels an order by itself (STP maker cancel, operator...): OME CANCELLATION into the outbox. */
  venueCancel(orderId: string, reason = 'STP_MAKER_CANCELLED'): void {
    const order = this.mustGet(orderId);
    order.status = 'CANCELED';
    this.outbox.push({ source: 'OME', type: 'CANCELLATION', eventId: String(this.nextEvent++), orderId, clientOrderId: order.clientOrderId, remainingRaw: order.remainingRaw, reason, atMs: this.now() });
  }

  /** Frames produced so far, oldest first; the outbox is emptied. */
  takeEvents(): OrderEventInput[] {
    const events = this.outbox;
    this.outbox = [];
    return events;
  }

  live(marketSlug?: string): FakeOrder[] {
    return [...this.orders.values()].filter((o) => o.status === 'LIVE' && (marketSlug === undefined || o.marketSlug === marketSlug));
  }

  byClientOrderId(clientOrderId: string): FakeOrder | undefined {
    return [...this.orders.values()].find((o) => o.clientOrderId === clientOrderId);
  }

  callsOf(op: VenueOperation): Call[] {
    return this.calls.filter((c) => c.op === op);
  }

  // ───────────── VenuePort ─────────────

  async placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    // The request leaves at once (no limiter here): its last-moment check runs now, as the adapter's transport runs it.
    request.beforeSend?.();
    this.record('placeOrder', `${request.clientOrderId} ${request.side} ${request.token} ${request.priceTicks}x${request.sizeRaw}${request.postOnly ? ' post-only' : ''}`);
    await this.waitHold('placeOrder');
    // Refused unsent, as the real adapter does before anything reaches the venue (whatever the trading mode).
    if (request.orderType === 'FOK') throw new OrderRejectedError('invalid-order', `orderType FOK is not supported (clientOrderId ${request.clientOrderId})`);
    if (request.postOnly && request.orderType !== 'GTC') throw new OrderRejectedError('invalid-order', `postOnly is allowed for GTC orders only (got ${request.orderType})`);
    const mode = this.mode.mode;
    if (mode === 'disabled' || mode === 'cancel_only' || (mode === 'post_only' && !request.postOnly)) {
      this.modeViolations.push({ op: 'placeOrder', atMs: this.now(), detail: request.clientOrderId });
      throw new TradingModeError('placeOrder', mode, this.mode.resumeAtMs);
    }
    const fault = this.placeFaults.shift();
    if (fault?.kind === 'trading-mode') throw new TradingModeError('placeOrder', fault.mode, fault.resumeAtMs);
    if (fault?.kind === 'rejected') throw new OrderRejectedError(fault.reason, 'refused by the fake venue', 400);
    if (fault?.kind === 'rate-limited') throw new RateLimitedError('placeOrder', 1000);
    if ([...this.orders.values()].some((o) => o.clientOrderId === request.clientOrderId)) throw new DuplicateClientOrderIdError(request.clientOrderId);
    if (fault?.kind === 'unknown' && !fault.applied) throw new OutcomeUnknownError('placeOrder', 'timeout (not applied)');
    const order = this.seedOrder({
      clientOrderId: request.clientOrderId,
      marketSlug: request.marketSlug,
      tokenId: request.tokenId,
      side: request.side,
      priceTicks: request.priceTicks,
      sizeRaw: request.sizeRaw,
      postOnly: request.postOnly,
    });
    this.outbox.push({ source: 'OME', type: 'PLACEMENT', eventId: String(this.nextEvent++), orderId: order.orderId, clientOrderId: order.clientOrderId, remainingRaw: order.remainingRaw, atMs: this.now() });
    let reason: string | null = null;
    if (fault?.kind === 'fill-at-placement') {
      const size = Math.min(fault.sizeRaw, order.remainingRaw);
      order.remainingRaw -= size;
      if (order.remainingRaw === 0) order.status = 'MATCHED';
      order.fills.push({ tradeEventId: fault.tradeEventId, sizeRaw: size, priceTicks: order.priceTicks, settlement: 'provisional' });
      order.placementTradeIds.push(fault.tradeEventId);
    }
    if (fault?.kind === 'canceled-at-placement') {
      order.status = 'CANCELED';
      reason = fault.reason;
    }
    // A FAK order never rests: what it did not take is canceled (UNMATCHED when it took nothing).
    if (request.orderType === 'FAK' && order.status === 'LIVE') order.status = order.fills.length > 0 ? 'CANCELED' : 'UNMATCHED';
    if (fault?.kind === 'unknown') throw new OutcomeUnknownError('placeOrder', 'timeout (applied)');
    if (fault?.kind === 'duplicate') throw new DuplicateClientOrderIdError(request.clientOrderId);
    // The answer carries no remaining size (reported as the full size: unknown, never 0); the fills say what matched.
    return { orderId: order.orderId, status: order.status, remainingRaw: order.sizeRaw, fills: order.fills.map((f) => ({ ...f })), reason };
  }

  /** Cancels across markets (`cancelAcrossMarkets`) and by clientOrderId (`cancelByClientOrderId`): off unless offered. */
  cancelAcrossMarkets?: (byMarket: ReadonlyMap<string, readonly string[]>) => Promise<CancelResult>;
  cancelByClientOrderId?: (marketSlug: string, clientOrderId: string) => Promise<CancelResult>;

  /** Offers the optional cancels of the port (a venue with POST /orders/batch-cancel across markets and POST /orders/cancel). */
  offerNewCancels(): void {
    this.cancelAcrossMarkets = async (byMarket) => {
      this.record('cancelAcrossMarkets', [...byMarket].map(([slug, ids]) => `${slug} ${ids.join(',')}`).join('; '));
      await this.waitHold('cancelAcrossMarkets');
      this.checkCancelMode('cancelAcrossMarkets');
      const fault = this.takeFault('cancelAcrossMarkets');
      if (fault !== undefined && !(fault.kind === 'unknown' && fault.applied)) this.throwFault('cancelAcrossMarkets', fault);
      const results = [...byMarket].map(([slug, ids]) => this.cancelIn(slug, ids));
      if (fault !== undefined) this.throwFault('cancelAcrossMarkets', fault);
      return { canceled: results.flatMap((r) => r.canceled), failed: results.flatMap((r) => r.failed) };
    };
    this.cancelByClientOrderId = async (marketSlug, clientOrderId) => {
      this.record('cancelByClientOrderId', `${marketSlug} ${clientOrderId}`);
      await this.waitHold('cancelByClientOrderId');
      this.checkCancelMode('cancelByClientOrderId');
      const fault = this.takeFault('cancelByClientOrderId');
      if (fault !== undefined && !(fault.kind === 'unknown' && fault.applied)) this.throwFault('cancelByClientOrderId', fault);
      const order = this.byClientOrderId(clientOrderId);
      const result = order === undefined ? { canceled: [], failed: [{ orderId: clientOrderId, reason: 'not-found' as const, message: 'Order not found' }] } : this.cancelIn(marketSlug, [order.orderId]);
      if (fault !== undefined) this.throwFault('cancelByClientOrderId', fault);
      return { canceled: result.canceled.length > 0 ? [clientOrderId] : [], failed: result.failed.map((f) => ({ ...f, orderId: clientOrderId })) };
    };
  }

  async cancelOrders(marketSlug: string, orderIds: readonly string[], options?: CancelOptions): Promise<CancelResult> {
    options?.beforeSend?.();
    this.record('cancelOrders', `${marketSlug} ${orderIds.join(',')}`);
    await this.waitHold('cancelOrders');
    this.checkCancelMode('cancelOrders');
    const fault = this.takeFault('cancelOrders');
    if (fault !== undefined && !(fault.kind === 'unknown' && fault.applied)) this.throwFault('cancelOrders', fault);
    const result = this.cancelIn(marketSlug, orderIds);
    if (fault !== undefined) this.throwFault('cancelOrders', fault);
    return result;
  }

  private cancelIn(marketSlug: string, orderIds: readonly string[]): CancelResult {
    const canceled: string[] = [];
    const failed: { orderId: string; reason: CancelFailureReason; message: string }[] = [];
    for (const orderId of orderIds) {
      const order = this.orders.get(orderId);
      const refusal = this.cancelFailures.get(orderId);
      if (refusal !== undefined) {
        this.cancelFailures.delete(orderId);
        failed.push({ orderId, reason: refusal, message: `refused: ${refusal}` });
      } else if (order === undefined) {
        failed.push({ orderId, reason: 'not-found', message: 'Order not found' });
      } else if (order.status !== 'LIVE' || order.marketSlug !== marketSlug) {
        failed.push({ orderId, reason: 'already-canceled', message: 'Order not found or already canceled' });
      } else {
        order.status = 'CANCELED';
        canceled.push(orderId);
      }
    }
    return { canceled, failed };
  }

  async cancelAll(marketSlug: string): Promise<CancelResult> {
    this.record('cancelAll', marketSlug);
    await this.waitHold('cancelAll');
    this.checkCancelMode('cancelAll');
    const fault = this.takeFault('cancelAll');
    if (fault !== undefined && !(fault.kind === 'unknown' && fault.applied)) this.throwFault('cancelAll', fault);
    const canceled: string[] = [];
    for (const order of this.live(marketSlug)) {
      order.status = 'CANCELED';
      canceled.push(order.orderId);
    }
    if (fault !== undefined) this.throwFault('cancelAll', fault);
    return { canceled, failed: [] };
  }

  async statusBatch(queries: readonly StatusQuery[], options?: StatusOptions): Promise<readonly StatusResult[]> {
    options?.beforeSend?.();
    this.record('statusBatch', queries.map((q) => ('orderId' in q ? q.orderId : q.clientOrderId)).join(','));
    await this.waitHold('statusBatch');
    if (queries.length === 0 || queries.length > 50) throw new VenueRequestError('statusBatch', 400, 'items must be 1–50');
    const fault = this.takeFault('statusBatch');
    if (fault !== undefined) this.throwFault('statusBatch', fault);
    return queries.map((query): StatusResult => {
      const id = 'orderId' in query ? query.orderId : query.clientOrderId;
      const hidden = this.hiddenFromLookup.get(id) ?? 0;
      if (hidden > 0) {
        this.hiddenFromLookup.set(id, hidden - 1);
        return { query, outcome: 'not_found' };
      }
      const order = 'orderId' in query ? this.orders.get(query.orderId) : this.byClientOrderId(query.clientOrderId);
      return order === undefined ? { query, outcome: 'not_found' } : { query, outcome: 'found', order: this.snapshot(order, 'lookup') };
    });
  }

  async listLiveOrders(marketSlug: string, options: ListOptions = {}): Promise<readonly VenueOrderSnapshot[]> {
    this.record('listLiveOrders', marketSlug);
    if (options.urgent === true) this.urgentListings.push(marketSlug);
    if (options.beforeFirstQuote === true) this.firstQuoteListings.push(marketSlug);
    if (options.deferred === true) this.deferredListings.push(marketSlug);
    await this.waitHold('listLiveOrders');
    const fault = this.takeFault('listLiveOrders');
    if (fault !== undefined) this.throwFault('listLiveOrders', fault);
    // Newest first, as the venue lists them: by creation time, and the later placement first within one millisecond.
    return this.live(marketSlug)
      .reverse()
      .sort((a, b) => b.createdAtMs - a.createdAtMs)
      .map((o) => this.snapshot(o, 'listing'));
  }

  async maintenanceStatus(): Promise<MaintenanceStatus> {
    this.record('maintenanceStatus', '');
    const fault = this.takeFault('maintenanceStatus');
    if (fault !== undefined) this.throwFault('maintenanceStatus', fault);
    return this.mode;
  }

  // ───────────── internals ─────────────

  /**
   * The order as the venue reports it: a lookup carries the placement answer's (taker) fills, a listing none (the
   * venue's user-orders entries have no fills); maker fills show only in `remainingRaw`.
   */
  private snapshot(order: FakeOrder, view: 'lookup' | 'listing'): VenueOrderSnapshot {
    return {
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      marketSlug: order.marketSlug,
      tokenId: order.tokenId,
      side: order.side,
      priceTicks: order.priceTicks,
      sizeRaw: order.sizeRaw,
      remainingRaw: order.remainingRaw,
      status: order.status,
      createdAtMs: order.createdAtMs,
      fills: view === 'listing' ? [] : order.fills.filter((f) => order.placementTradeIds.includes(f.tradeEventId)).map((f) => ({ ...f })),
    };
  }

  private newOrderId(): string {
    return `00000000-0000-4000-8000-${String(this.nextId++).padStart(12, '0')}`;
  }

  private mustGet(orderId: string): FakeOrder {
    const order = this.orders.get(orderId);
    if (order === undefined) throw new Error(`fake venue: no order ${orderId}`);
    return order;
  }

  protected record(op: VenueOperation, detail: string): void {
    if (this.quiet) return;
    this.calls.push({ op, atMs: this.now(), detail });
  }

  protected async waitHold(op: VenueOperation): Promise<void> {
    const hold = this.holds.get(op)?.shift();
    if (hold === undefined) return;
    hold.reached = true;
    await hold.promise;
  }

  protected takeFault(op: VenueOperation): RequestFault | undefined {
    return this.requestFaults.get(op)?.shift();
  }

  protected checkCancelMode(op: VenueOperation): void {
    if (this.mode.mode !== 'disabled' || this.cancelsAllowedWhenDisabled) return;
    this.refusedCancels.push({ op, atMs: this.now(), detail: 'cancel while disabled' });
    throw new TradingModeError(op, 'disabled', this.mode.resumeAtMs);
  }

  protected throwFault(op: VenueOperation, fault: RequestFault): never {
    switch (fault.kind) {
      case 'unknown':
        throw new OutcomeUnknownError(op, fault.applied ? 'timeout (applied)' : 'timeout (not applied)');
      case 'maintenance-block':
        throw new MaintenanceBlockError(op, 'injected 425 without a body');
      case 'trading-mode':
        throw new TradingModeError(op, fault.mode, fault.resumeAtMs);
      case 'rate-limited':
        throw new RateLimitedError(op, 1000);
      case 'failed':
        throw new VenueRequestError(op, 500, 'injected failure');
    }
  }
}

/** Forced outcome of one cancel-replace operation (as the simulator's fault rules). */
export interface ReplaceFault {
  readonly cancel?: 'FAILURE' | 'UNKNOWN';
  /** With cancel UNKNOWN: whether the cancel really happened. */
  readonly cancelApplied?: boolean;
  readonly replacement?: 'FAILURE' | 'UNKNOWN' | 'NOT_ATTEMPTED';
  /** With replacement UNKNOWN: whether the replacement was really placed. */
  readonly replacementApplied?: boolean;
}

/** The fake venue with POST /orders/cancel-replace/batch (opt-in, so plain-path tests keep their request counts). */
export class FakeReplaceVenue extends FakeVenue {
  /** False: answers every cancel-replace with the 404 of a venue that does not offer it. */
  offersCancelReplace = true;
  private readonly replaceFaults: ReplaceFault[] = [];

  failNextReplace(...faults: ReplaceFault[]): void {
    this.replaceFaults.push(...faults);
  }

  async cancelReplace(batch: CancelReplaceBatch): Promise<readonly CancelReplaceItemResult[]> {
    this.record('cancelReplace', batch.items.map((i) => `${i.cancelOrderId}>${i.place.clientOrderId} ${i.place.priceTicks}`).join(','));
    await this.waitHold('cancelReplace');
    if (!this.offersCancelReplace) throw new CancelReplaceUnsupportedError('404 Not Found');
    batch.beforeSend?.();
    this.checkCancelMode('cancelReplace');
    const fault = this.takeFault('cancelReplace');
    if (fault !== undefined && !(fault.kind === 'unknown' && fault.applied)) this.throwFault('cancelReplace', fault);
    const results = await this.operate(batch);
    if (fault !== undefined) this.throwFault('cancelReplace', fault);
    return results;
  }

  /** Placement operations (no order to cancel) are left NOT_ATTEMPTED although their mode allows them (a venue refusing them). */
  placementItemsNotAttempted = false;

  /** Carries one batch's operations out, in order (each with its own mode: `operationMode`). */
  protected async operate(batch: Omit<CancelReplaceBatch, 'beforeSend'>): Promise<CancelReplaceItemResult[]> {
    const results: CancelReplaceItemResult[] = [];
    for (const item of batch.items) {
      const forced = this.replaceFaults.shift() ?? {};
      // A placement item (no order to cancel) names its own clientOrderId: no such order exists yet.
      const order = item.cancelOrderId === null ? [...this.orders.values()].find((o) => o.clientOrderId === item.place.clientOrderId) : this.orders.get(item.cancelOrderId);
      const cancelNow = (): boolean => {
        if (order === undefined || order.status !== 'LIVE' || order.marketSlug !== batch.marketSlug) return false;
        order.status = 'CANCELED';
        return true;
      };
      let cancel: CancelReplaceItemResult['cancel'];
      if (forced.cancel === 'FAILURE') cancel = { status: 'FAILURE', reason: 'forced failure' };
      else if (forced.cancel === 'UNKNOWN') {
        if (forced.cancelApplied === true) cancelNow();
        cancel = { status: 'UNKNOWN', reason: 'forced unknown' };
      } else cancel = cancelNow() ? { status: 'SUCCESS', reason: null } : { status: 'FAILURE', reason: 'Order not found or already canceled' };
      const base = { clientOrderId: item.place.clientOrderId, placed: null };
      let replacement: CancelReplaceItemResult['replacement'];
      if (operationMode(item, batch.mode) === 'STOP_ON_FAILURE' && cancel.status !== 'SUCCESS') replacement = { ...base, status: 'NOT_ATTEMPTED', reason: null };
      else if (forced.replacement === 'NOT_ATTEMPTED' || (item.cancelOrderId === null && this.placementItemsNotAttempted)) replacement = { ...base, status: 'NOT_ATTEMPTED', reason: null };
      else if (forced.replacement === 'FAILURE') replacement = { ...base, status: 'FAILURE', reason: 'forced failure' };
      else if (forced.replacement === 'UNKNOWN') {
        if (forced.replacementApplied === true) await this.placeQuietly(item.place);
        replacement = { ...base, status: 'UNKNOWN', reason: 'forced unknown' };
      } else {
        try {
          replacement = { ...base, status: 'SUCCESS', placed: await this.placeQuietly(item.place), reason: null };
        } catch (error) {
          replacement = { ...base, status: 'FAILURE', reason: error instanceof Error ? error.message : String(error) };
        }
      }
      results.push({ cancelOrderId: item.cancelOrderId, cancel, replacement });
    }
    return results;
  }

  private async placeQuietly(request: PlaceRequest): Promise<PlaceResult> {
    this.quiet = true;
    try {
      return await this.placeOrder(request);
    } finally {
      this.quiet = false;
    }
  }
}

/** Lets pending promise callbacks (and I/O callbacks) run. */
export async function flushAsync(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Moves the scheduler forward by `ms` in steps, letting promises settle between steps. */
export async function advance(scheduler: ManualClock, ms: number, stepMs = 10): Promise<void> {
  const end = scheduler.now() + ms;
  await flushAsync();
  while (scheduler.now() < end) {
    scheduler.advance(Math.min(stepMs, end - scheduler.now()));
    await flushAsync();
  }
}

/** Advances the scheduler until `condition()` holds, failing after `maxMs` of scheduler time. */
export async function until(scheduler: ManualClock, condition: () => boolean, maxMs = 60_000, stepMs = 10): Promise<void> {
  const end = scheduler.now() + maxMs;
  await flushAsync();
  while (!condition()) {
    if (scheduler.now() >= end) throw new Error(`condition not met within ${maxMs} ms of scheduler time`);
    scheduler.advance(stepMs);
    await flushAsync();
  }
}

/** Resolves a promise while advancing the scheduler (for calls that wait on timers). */
export async function settle<T>(scheduler: ManualClock, promise: Promise<T>, maxMs = 60_000, stepMs = 10): Promise<T> {
  const box: { result: { ok: true; value: T } | { ok: false; error: unknown } | null } = { result: null };
  promise.then(
    (value) => {
      box.result = { ok: true, value };
    },
    (error: unknown) => {
      box.result = { ok: false, error };
    },
  );
  await until(scheduler, () => box.result !== null, maxMs, stepMs);
  const settled = box.result;
  if (settled === null) throw new Error('unreachable: until() returned before the promise settled');
  if (!settled.ok) throw settled.error instanceof Error ? settled.error : new Error(String(settled.error));
  return settled.value;
}
