/**
 * The order manager's venue port (src/orders/venue-port.ts) served by the simulator's matching engine in process:
 * what the bot's REST adapter does over HTTP against the simulator, done by direct engine commands for one account.
 * Acts at once when called; request latency and the rate limit are a decorator (./latency-venue.ts).
 *
 * Owns: the mapping of engine commands and failures onto the port's answers and typed errors (a refused placement
 * by its engine code, never by message text). Invariants: one engine command per placement, one per cancel batch,
 * per cancel-replace item a cancel then (unless STOP_ON_FAILURE and the cancel failed) a placement; only this
 * account's orders are reported; every placement attempt and cancel request is reported to the observer; `crossMarket`
 * carries several markets' batches in one call, each item with its own mode (a placement item ALLOW_FAILURE).
 * `cancelAcrossMarkets` is POST /orders/batch-cancel as the simulator serves it by default (`batchCancelMarkets:
 * mixed`: one request of up to CANCEL_BATCH_MAX ids cancels them whatever their markets, each refused id reported);
 * `cancelByClientOrderId` is POST /orders/cancel (an id the account never placed: the venue's 404, as an error).
 */
import { TICKS_PER_UNIT, limitOrderAmounts } from '../core/venue-rules/index.js';
import type { EngineErrorCode, EngineFailure, PlaceOutcome, SimEngine, SimOrder } from '../sim/engine/index.js';
import {
  DuplicateClientOrderIdError,
  OrderRejectedError,
  VenueRequestError,
  type CancelFailure,
  type CancelFailureReason,
  operationMode,
  type CancelReplaceBatch,
  type CancelReplaceItem,
  type CancelReplaceItemResult,
  type CrossMarketCancelReplace,
  type CancelOptions,
  type CancelResult,
  CANCEL_BATCH_MAX,
  type MaintenanceStatus,
  type PlaceRequest,
  type PlaceResult,
  type StatusQuery,
  type StatusResult,
  type VenueFill,
  type VenueOrderSnapshot,
  type VenuePort,
} from '../orders/venue-port.js';

/** The engine does not verify signatures (the server does); placements carry this placeholder. */
const UNSIGNED = '0x';

export interface EngineVenueObserver {
  /** A placement reached the engine: refused with `code`, or accepted (null). */
  onPlacement?(code: EngineErrorCode | null): void;
  /** A cancel request (batch or all) reached the engine, naming `orders` orders. */
  onCancelRequest?(orders: number): void;
  /** A cancel-replace batch reached the engine with `cancels` items that cancel an order (placement items excluded). */
  onCancelReplace?(cancels: number): void;
}

export interface EngineVenueOptions {
  readonly engine: SimEngine;
  readonly profileId: number;
  /** The account's taker fee rate (the engine refuses any other). */
  readonly feeRateBps: number;
  readonly observer?: EngineVenueObserver;
}

/** A refused placement's stable reason, by engine code. */
const REJECTION_REASONS: Partial<Record<EngineErrorCode, string>> = {
  POST_ONLY_WOULD_CROSS: 'post-only-would-cross',
  INSUFFICIENT_BALANCE: 'insufficient-balance',
  MARKET_RESOLVED: 'market-closed',
  MARKET_EXPIRED: 'market-closed',
  NOT_ORDER_OWNER: 'unauthorized',
  PROFILE_NOT_FOUND: 'unauthorized',
};

/** A refused cancel's reason, by engine code. */
const CANCEL_REASONS: Partial<Record<EngineErrorCode, CancelFailureReason>> = {
  ORDER_NOT_FOUND: 'not-found',
  NOT_CANCELLABLE: 'already-canceled',
  MARKET_RESOLVED: 'market-resolved',
  NOT_ORDER_OWNER: 'unauthorized',
};

export class EngineVenue implements VenuePort {
  private salt = 0;

  constructor(private readonly options: EngineVenueOptions) {}

  placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    try {
      request.beforeSend?.();
      const outcome = this.place(request);
      if (!outcome.ok) return Promise.reject(placementError(outcome, request.clientOrderId));
      return Promise.resolve(placeResult(outcome));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  cancelOrders(marketSlug: string, orderIds: readonly string[], options?: CancelOptions): Promise<CancelResult> {
    try {
      options?.beforeSend?.();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.options.observer?.onCancelRequest?.(orderIds.length);
    return this.cancelAnswer('cancelOrders', this.options.engine.cancelBatch(this.options.profileId, orderIds), marketSlug);
  }

  /** Orders of several markets: one request per CANCEL_BATCH_MAX ids, each id canceled on its own (a refusal per id). */
  cancelAcrossMarkets(byMarket: ReadonlyMap<string, readonly string[]>): Promise<CancelResult> {
    const { engine, profileId, observer } = this.options;
    const ids = [...new Set([...byMarket.values()].flat())];
    const out: { canceled: string[]; failed: CancelFailure[] } = { canceled: [], failed: [] };
    for (let from = 0; from < ids.length; from += CANCEL_BATCH_MAX) {
      const request = ids.slice(from, from + CANCEL_BATCH_MAX);
      observer?.onCancelRequest?.(request.length);
      for (const orderId of request) {
        const outcome = engine.cancel(profileId, orderId);
        if (outcome.ok) out.canceled.push(orderId);
        else out.failed.push({ orderId, reason: CANCEL_REASONS[outcome.code] ?? 'other', message: failureMessage(outcome) });
      }
    }
    return Promise.resolve(out);
  }

  /** One order by its clientOrderId: canceled (the clientOrderId in `canceled`), or the venue's refusal as an error. */
  cancelByClientOrderId(marketSlug: string, clientOrderId: string): Promise<CancelResult> {
    const { engine, profileId, observer } = this.options;
    observer?.onCancelRequest?.(1);
    const order = engine.orderByClientOrderId(profileId, clientOrderId);
    if (order === undefined) return Promise.reject(new VenueRequestError('cancelByClientOrderId', 404, `${marketSlug}: ORDER_NOT_FOUND (clientOrderId ${clientOrderId})`));
    const outcome = engine.cancel(profileId, order.id);
    if (!outcome.ok) return Promise.reject(new VenueRequestError('cancelByClientOrderId', outcome.status, `${marketSlug}: ${outcome.code} (clientOrderId ${clientOrderId})`));
    return Promise.resolve({ canceled: [clientOrderId], failed: [] });
  }

  cancelAll(marketSlug: string): Promise<CancelResult> {
    const live = this.options.engine.orders(this.options.profileId, marketSlug, ['LIVE']).length;
    this.options.observer?.onCancelRequest?.(live);
    return this.cancelAnswer('cancelAll', this.options.engine.cancelAll(this.options.profileId, marketSlug), marketSlug);
  }

  cancelReplace(batch: CancelReplaceBatch): Promise<readonly CancelReplaceItemResult[]> {
    try {
      batch.beforeSend?.();
      return Promise.resolve(this.operate(batch));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Several markets' batches in one request: each item carried out in order, as `cancelReplace` does. */
  readonly crossMarket: CrossMarketCancelReplace = {
    prepare: (batch) => Promise.resolve({ batch }),
    send: (take) => {
      try {
        return Promise.resolve(take().map((prepared) => ({ batch: prepared, results: this.operate(prepared.batch) })));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };

  /**
   * Per item: the cancel (by order id; a placement item's target, its own clientOrderId, names no order and fails),
   * then — unless the item's mode is STOP_ON_FAILURE and the cancel failed — the placement.
   */
  private operate(batch: Omit<CancelReplaceBatch, 'beforeSend'>): CancelReplaceItemResult[] {
    this.options.observer?.onCancelReplace?.(batch.items.filter((item) => item.cancelOrderId !== null).length);
    const results: CancelReplaceItemResult[] = [];
    for (const item of batch.items) {
      const code = this.cancelFor(item);
      const cancel = code === null ? { status: 'SUCCESS' as const, reason: null } : { status: 'FAILURE' as const, reason: code };
      const clientOrderId = item.place.clientOrderId;
      if (code !== null && operationMode(item, batch.mode) === 'STOP_ON_FAILURE') {
        results.push({ cancelOrderId: item.cancelOrderId, cancel, replacement: { status: 'NOT_ATTEMPTED', clientOrderId, placed: null, reason: null } });
        continue;
      }
      const placed = this.place(item.place);
      results.push({
        cancelOrderId: item.cancelOrderId,
        cancel,
        replacement: placed.ok
          ? { status: 'SUCCESS', clientOrderId, placed: placeResult(placed), reason: null }
          : { status: 'FAILURE', clientOrderId, placed: null, reason: REJECTION_REASONS[placed.code] ?? placed.code },
      });
    }
    return results;
  }

  /** The cancel half: null when it canceled, else the engine's code. */
  private cancelFor(item: CancelReplaceItem): string | null {
    const { engine, profileId } = this.options;
    const orderId = item.cancelOrderId ?? engine.orderByClientOrderId(profileId, item.place.clientOrderId)?.id;
    if (orderId === undefined) return 'ORDER_NOT_FOUND';
    const canceled = engine.cancel(profileId, orderId);
    return canceled.ok ? null : canceled.code;
  }

  statusBatch(queries: readonly StatusQuery[]): Promise<readonly StatusResult[]> {
    const engine = this.options.engine;
    return Promise.resolve(
      queries.map((query): StatusResult => {
        const found = 'orderId' in query ? engine.orderById(query.orderId) : engine.orderByClientOrderId(this.options.profileId, query.clientOrderId);
        if (found === undefined || found.profileId !== this.options.profileId) return { query, outcome: 'not_found' };
        return { query, outcome: 'found', order: snapshotOf(found) };
      }),
    );
  }

  listLiveOrders(marketSlug: string): Promise<readonly VenueOrderSnapshot[]> {
    return Promise.resolve(this.options.engine.orders(this.options.profileId, marketSlug, ['LIVE']).map(snapshotOf));
  }

  /** The engine has no trading restrictions. */
  maintenanceStatus(): Promise<MaintenanceStatus> {
    return Promise.resolve({ mode: 'normal', resumeAtMs: null });
  }

  private place(request: Omit<PlaceRequest, 'beforeSend'>): PlaceOutcome {
    const amounts = limitOrderAmounts(request.side, request.priceTicks, request.sizeRaw);
    this.salt += 1;
    const outcome = this.options.engine.place({
      profileId: this.options.profileId,
      marketSlug: request.marketSlug,
      orderType: request.orderType,
      tokenId: request.tokenId,
      side: request.side,
      makerAmount: amounts.makerAmount,
      takerAmount: amounts.takerAmount,
      priceTicks: request.priceTicks,
      feeRateBps: this.options.feeRateBps,
      salt: this.salt,
      postOnly: request.postOnly,
      clientOrderId: request.clientOrderId,
      stpPolicy: 'cancel_maker',
      signature: UNSIGNED,
      signedOrderEcho: {},
    });
    this.options.observer?.onPlacement?.(outcome.ok ? null : outcome.code);
    return outcome;
  }

  private cancelAnswer(operation: 'cancelOrders' | 'cancelAll', outcome: ReturnType<SimEngine['cancelBatch']>, marketSlug: string): Promise<CancelResult> {
    if (!outcome.ok) return Promise.reject(new VenueRequestError(operation, outcome.status, `${marketSlug}: ${outcome.code}`));
    return Promise.resolve({
      canceled: outcome.canceled,
      failed: outcome.failed.map((f) => ({ orderId: f.orderId, reason: CANCEL_REASONS[f.reason] ?? 'other', message: f.message })),
    });
  }
}

/** The engine's message of a refusal (its body's `message`), else its code. */
function failureMessage(failure: EngineFailure): string {
  return typeof failure.body.message === 'string' ? failure.body.message : failure.code;
}

function placementError(failure: EngineFailure, clientOrderId: string): Error {
  if (failure.code === 'DUPLICATE_CLIENT_ORDER_ID') return new DuplicateClientOrderIdError(clientOrderId);
  return new OrderRejectedError(REJECTION_REASONS[failure.code] ?? 'validation', failure.code, failure.status);
}

function placeResult(outcome: Extract<PlaceOutcome, { ok: true }>): PlaceResult {
  const { order, execution } = outcome;
  return { orderId: order.id, status: order.status, remainingRaw: order.remainingSizeRaw, fills: takerFills(outcome), reason: execution.reason ?? null };
}

/** The order's fill as taker at placement (average price rounded to the tick, as the REST adapter reads it). */
function takerFills(outcome: Extract<PlaceOutcome, { ok: true }>): VenueFill[] {
  const { execution } = outcome;
  const contracts = Number(execution.totalsRaw.contractsGross);
  const collateral = Number(execution.totalsRaw.usdGross);
  if (execution.tradeEventId === undefined || !(contracts > 0)) return [];
  const priceTicks = Math.min(TICKS_PER_UNIT - 1, Math.max(1, Math.round((collateral * TICKS_PER_UNIT) / contracts)));
  return [{ tradeEventId: execution.tradeEventId, sizeRaw: contracts, priceTicks, settlement: 'provisional' }];
}

function snapshotOf(order: SimOrder): VenueOrderSnapshot {
  return {
    orderId: order.id,
    clientOrderId: order.clientOrderId,
    marketSlug: order.marketSlug,
    tokenId: order.tokenId,
    side: order.side,
    priceTicks: order.priceTicks ?? 0,
    sizeRaw: order.originalSizeRaw,
    remainingRaw: order.remainingSizeRaw,
    status: order.status,
    createdAtMs: order.createdAtMs,
    fills: [],
  };
}
