/**
 * The order manager's venue port (src/orders/venue-port.ts) served by a RECORDED market: orders meet the replay's
 * queue model (./queue-matcher.ts) instead of a matching engine. Acts at once when called; request latency and the
 * rate limit are the backtest's decorator (src/backtest/latency-venue.ts).
 *
 * Owns: the account's orders on the replay venue (ids, states, remaining sizes), the trading mode of the recording,
 * and the fills' economics. Invariants: the venue speaks in the order's own token (a NO order is matched as a YES
 * order at 1 − p on the other side, and reported back in NO terms); a fill is reported once in the placement answer
 * (taker) or once as an execution and a settlement event (maker), and booked once through `onFill`, taker fees at
 * `feeRateBps` of the collateral (rounded up, as the venue), maker fills free; a clientOrderId is accepted once;
 * placements are refused in `cancel_only`/`disabled` (425 bodies: TradingModeError) and non-post-only ones in
 * `post_only`; cancels always go through.
 */
import { collateralRaw, complementTicks, type Outcome, type Side } from '../core/venue-rules/index.js';
import type { TradingMode } from '../core/trading-mode.js';
import { takerFee } from '../sim/engine/index.js';
import type { OrderEventInput } from '../orders/order-events.js';
import {
  DuplicateClientOrderIdError,
  OrderRejectedError,
  operationMode,
  TradingModeError,
  type CancelReplaceBatch,
  type CancelReplaceItemResult,
  type CancelOptions,
  type CancelResult,
  type MaintenanceStatus,
  type PlaceRequest,
  type PlaceResult,
  type StatusQuery,
  type StatusResult,
  type VenueFill,
  type VenueOrderSnapshot,
  type VenueOrderStatus,
  type VenuePort,
} from '../orders/venue-port.js';
import type { MatcherFill, QueueMatcher, RecordedTrade } from './queue-matcher.js';

/** A fill as the backtest's books take it (src/backtest/accounting.ts `AccountFill`). */
export interface ReplayFill {
  /** The venue's id of the trade (the fill part ids the executor reports derive from it). */
  readonly tradeEventId: string;
  readonly marketSlug: string;
  readonly outcome: Outcome;
  readonly side: Side;
  readonly sizeRaw: number;
  readonly priceTicks: number;
  readonly collateralRaw: number;
  readonly feeRaw: number;
  readonly liquidity: 'maker' | 'taker';
  readonly atMs: number;
}

export interface ReplayVenueOptions {
  readonly marketSlug: string;
  readonly tokens: { readonly yes: string; readonly no: string };
  readonly matcher: QueueMatcher;
  readonly now: () => number;
  readonly feeRateBps: number;
  /** Order events the venue's socket would push (executions and settlements of maker fills). */
  readonly onOrderEvent: (event: OrderEventInput) => void;
  readonly onFill: (fill: ReplayFill) => void;
  /** Put into every order and trade id (`rp<ids>-N`, `rt<ids>-N`), so several markets' venues never share an id. */
  readonly ids?: string;
}

interface VenueOrder {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly token: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  remainingRaw: number;
  status: VenueOrderStatus;
  readonly createdAtMs: number;
  readonly fills: VenueFill[];
}

export class ReplayVenue implements VenuePort {
  private readonly orders = new Map<string, VenueOrder>();
  private readonly byClientId = new Map<string, VenueOrder>();
  /** The LIVE ones (the listing and the report read them often). */
  private readonly live = new Map<string, VenueOrder>();
  private mode: TradingMode = 'normal';
  private nextId = 0;
  private nextTrade = 0;
  /** Requests served, by operation (the report's request count). */
  requests = 0;
  placedRaw = 0;
  filledRaw = 0;
  takerFills = 0;

  constructor(private readonly options: ReplayVenueOptions) {}

  /** The recording's trading mode from now on. */
  setMode(mode: TradingMode): void {
    this.mode = mode;
  }

  /** A recorded trade: maker fills of resting orders, reported as the socket would and booked. */
  onTrade(trade: RecordedTrade): void {
    for (const fill of this.options.matcher.onTrade(trade, this.options.now())) this.makerFill(fill);
  }

  /** Own orders resting now, in their own token's terms. */
  resting(): readonly VenueOrderSnapshot[] {
    return [...this.live.values()].map((o) => this.snapshot(o));
  }

  placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    this.requests += 1;
    return Promise.resolve().then(() => this.place(request));
  }

  cancelOrders(_marketSlug: string, orderIds: readonly string[], options?: CancelOptions): Promise<CancelResult> {
    try {
      options?.beforeSend?.();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.requests += 1;
    return Promise.resolve(this.cancel(orderIds));
  }

  cancelAll(_marketSlug: string): Promise<CancelResult> {
    this.requests += 1;
    return Promise.resolve(this.cancel([...this.live.keys()]));
  }

  cancelReplace(batch: CancelReplaceBatch): Promise<readonly CancelReplaceItemResult[]> {
    this.requests += 1;
    batch.beforeSend?.();
    return Promise.resolve(
      batch.items.map((item): CancelReplaceItemResult => {
        // A placement item's cancel target is its own clientOrderId: no such order, the cancel fails and touches nothing.
        const canceled = item.cancelOrderId === null ? null : this.cancel([item.cancelOrderId]);
        const failure = canceled === null ? { reason: 'not-found' } : canceled.failed[0];
        const cancel = failure === undefined ? { status: 'SUCCESS' as const, reason: null } : { status: 'FAILURE' as const, reason: failure.reason };
        if (failure !== undefined && operationMode(item, batch.mode) === 'STOP_ON_FAILURE') {
          return { cancelOrderId: item.cancelOrderId, cancel, replacement: { status: 'NOT_ATTEMPTED', clientOrderId: item.place.clientOrderId, placed: null, reason: null } };
        }
        try {
          const placed = this.place(item.place);
          return { cancelOrderId: item.cancelOrderId, cancel, replacement: { status: 'SUCCESS', clientOrderId: item.place.clientOrderId, placed, reason: null } };
        } catch (error) {
          const reason = error instanceof OrderRejectedError ? error.reason : error instanceof Error ? error.name : 'refused';
          return { cancelOrderId: item.cancelOrderId, cancel, replacement: { status: 'FAILURE', clientOrderId: item.place.clientOrderId, placed: null, reason } };
        }
      }),
    );
  }

  statusBatch(queries: readonly StatusQuery[]): Promise<readonly StatusResult[]> {
    this.requests += 1;
    return Promise.resolve(
      queries.map((query): StatusResult => {
        const order = 'orderId' in query ? this.orders.get(query.orderId) : this.byClientId.get(query.clientOrderId);
        return order === undefined ? { query, outcome: 'not_found' } : { query, outcome: 'found', order: this.snapshot(order) };
      }),
    );
  }

  listLiveOrders(_marketSlug: string): Promise<readonly VenueOrderSnapshot[]> {
    this.requests += 1;
    return Promise.resolve(this.resting());
  }

  maintenanceStatus(): Promise<MaintenanceStatus> {
    this.requests += 1;
    return Promise.resolve({ mode: this.mode, resumeAtMs: null });
  }

  private place(request: Omit<PlaceRequest, 'beforeSend'> & { readonly beforeSend?: () => void }): PlaceResult {
    request.beforeSend?.();
    if (this.byClientId.has(request.clientOrderId)) throw new DuplicateClientOrderIdError(request.clientOrderId);
    if (this.mode === 'cancel_only' || this.mode === 'disabled') throw new TradingModeError('placeOrder', this.mode, null);
    if (this.mode === 'post_only' && !request.postOnly) throw new TradingModeError('placeOrder', 'post_only', null);
    const yesSide: Side = request.token === 'YES' ? request.side : request.side === 'BUY' ? 'SELL' : 'BUY';
    const yesPrice = request.token === 'YES' ? request.priceTicks : complementTicks(request.priceTicks);
    const orderId = `rp${this.options.ids ?? ''}-${(this.nextId += 1)}`;
    const rests = request.orderType === 'GTC';
    const outcome = this.options.matcher.place({ id: orderId, side: yesSide, priceTicks: yesPrice, sizeRaw: request.sizeRaw, postOnly: request.postOnly, rests }, this.options.now());
    if (outcome.status === 'rejected') {
      throw new OrderRejectedError(outcome.reason === 'no-book' ? 'market-closed' : outcome.reason, `replay: ${outcome.reason}`, 400);
    }
    const order: VenueOrder = {
      orderId,
      clientOrderId: request.clientOrderId,
      token: request.token,
      side: request.side,
      priceTicks: request.priceTicks,
      sizeRaw: request.sizeRaw,
      remainingRaw: request.sizeRaw,
      status: 'LIVE',
      createdAtMs: this.options.now(),
      fills: [],
    };
    this.orders.set(orderId, order);
    this.byClientId.set(order.clientOrderId, order);
    this.placedRaw += request.sizeRaw;
    for (const fill of outcome.fills) order.fills.push(this.book(order, fill));
    const filled = request.sizeRaw - order.remainingRaw;
    order.status = outcome.restingRaw > 0 ? 'LIVE' : order.remainingRaw === 0 ? 'MATCHED' : filled > 0 ? 'CANCELED' : 'UNMATCHED';
    if (order.status === 'LIVE') this.live.set(orderId, order);
    return { orderId, status: order.status, remainingRaw: order.remainingRaw, fills: [...order.fills], reason: null };
  }

  private cancel(orderIds: readonly string[]): CancelResult {
    const canceled: string[] = [];
    const failed: CancelResult['failed'][number][] = [];
    for (const orderId of orderIds) {
      const order = this.orders.get(orderId);
      if (order === undefined) failed.push({ orderId, reason: 'not-found', message: 'no such order' });
      else if (order.status !== 'LIVE' || !this.options.matcher.cancel(orderId)) failed.push({ orderId, reason: 'already-canceled', message: `order is ${order.status}` });
      else {
        order.status = 'CANCELED';
        this.live.delete(orderId);
        canceled.push(orderId);
      }
    }
    return { canceled, failed };
  }

  /** A matcher fill of `order` (YES terms) in the order's own terms: remaining size, report and books. */
  private book(order: VenueOrder, fill: MatcherFill): VenueFill {
    const priceTicks = order.token === 'YES' ? fill.priceTicks : complementTicks(fill.priceTicks);
    const collateral = collateralRaw(fill.sizeRaw, priceTicks, order.side);
    order.remainingRaw -= fill.sizeRaw;
    this.filledRaw += fill.sizeRaw;
    const tradeEventId = `rt${this.options.ids ?? ''}-${(this.nextTrade += 1)}`;
    if (fill.liquidity === 'taker') this.takerFills += 1;
    this.options.onFill({
      tradeEventId,
      marketSlug: this.options.marketSlug,
      outcome: order.token,
      side: order.side,
      sizeRaw: fill.sizeRaw,
      priceTicks,
      collateralRaw: collateral,
      feeRaw: fill.liquidity === 'taker' ? takerFee(collateral, this.options.feeRateBps) : 0,
      liquidity: fill.liquidity,
      atMs: fill.atMs,
    });
    return { tradeEventId, sizeRaw: fill.sizeRaw, priceTicks, settlement: 'mined' };
  }

  private makerFill(fill: MatcherFill): void {
    const order = this.orders.get(fill.orderId);
    if (order === undefined) return;
    const reported = this.book(order, fill);
    order.fills.push(reported);
    if (order.remainingRaw === 0) {
      order.status = 'MATCHED';
      this.live.delete(order.orderId);
    }
    const atMs = fill.atMs;
    this.options.onOrderEvent({
      source: 'OME',
      type: 'EXECUTION',
      eventId: `${reported.tradeEventId}:ome`,
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      remainingRaw: order.remainingRaw,
      status: order.remainingRaw === 0 ? 'FILLED' : 'PARTIALLY_FILLED',
      atMs,
    });
    const maker = { orderId: order.orderId, clientOrderId: order.clientOrderId, role: 'maker' as const, sizeRaw: fill.sizeRaw, priceTicks: reported.priceTicks };
    this.options.onOrderEvent({ source: 'SETTLEMENT', type: 'MATCHED', eventId: `settlement:${reported.tradeEventId}`, tradeEventId: reported.tradeEventId, fills: [maker], atMs });
    this.options.onOrderEvent({ source: 'SETTLEMENT', type: 'MINED', eventId: `settlement:${reported.tradeEventId}`, tradeEventId: reported.tradeEventId, fills: [maker], atMs });
  }

  private snapshot(order: VenueOrder): VenueOrderSnapshot {
    return {
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      marketSlug: this.options.marketSlug,
      tokenId: order.token === 'YES' ? this.options.tokens.yes : this.options.tokens.no,
      side: order.side,
      priceTicks: order.priceTicks,
      sizeRaw: order.sizeRaw,
      remainingRaw: order.remainingRaw,
      status: order.status,
      createdAtMs: order.createdAtMs,
      fills: [...order.fills],
    };
  }
}
