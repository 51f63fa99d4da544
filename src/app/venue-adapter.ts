/**
 * The adapter from the REST client (src/exchange) to the order manager's VenuePort (src/orders/venue-port.ts).
 *
 * Owns: the mapping of the client's typed errors onto the port's error contract, and of wire answers onto the
 * port's venue-neutral values. Invariants: a placement whose answer never came is OutcomeUnknownError (never a
 * rejection); a 409 is DuplicateClientOrderIdError ("already accepted"); a 425 trading-mode body is
 * TradingModeError; a fill is reported only when its price is exact on the tick grid (otherwise the settlement
 * frame, which carries exact amounts, reports it).
 */
import type { ExchangeApi } from '../exchange/api.js';
import {
  ExchangeHttpError,
  NetworkError,
  OrderBuildError,
  OutcomeUnknownError as ClientOutcomeUnknownError,
  RateLimitedError as ClientRateLimitedError,
  RequestInputError,
  TradingModeError as ClientTradingModeError,
  isDuplicateOrderError,
} from '../exchange/errors.js';
import type { OrderSigner, SigningMarket } from '../exchange/signer.js';
import { tradingModeOf, type BatchCancelResult, type PlacementResult, type UserOrder } from '../exchange/wire.js';
import { TICKS_PER_UNIT } from '../core/units.js';
import {
  DuplicateClientOrderIdError,
  OrderRejectedError,
  OutcomeUnknownError,
  PlacementWithheldError,
  RateLimitedError,
  TradingModeError,
  VenueRequestError,
  type CancelFailureReason,
  type CancelResult,
  type MaintenanceStatus,
  type PlaceRequest,
  type PlaceResult,
  type SettlementState,
  type StatusQuery,
  type StatusResult,
  type VenueFill,
  type VenueOperation,
  type VenueOrderSnapshot,
  type VenueOrderStatus,
  type VenuePort,
} from '../orders/venue-port.js';

export interface VenueAdapterOptions {
  readonly api: ExchangeApi;
  readonly signer: OrderSigner;
  /** The markets this bot trades, by slug (venue.exchange and token ids, for signing and for token → slug). */
  readonly markets: ReadonlyMap<string, SigningMarket>;
  /** Opt-in receive window for placements (ms), or null. */
  readonly recvWindowMs: number | null;
  /** A placement's smallest accepted size (raw) per market, or undefined for one size step. */
  readonly minSizeRaw?: (marketSlug: string) => number | undefined;
}

const CANCEL_REASONS: readonly (readonly [RegExp, CancelFailureReason])[] = [
  // Reasons come as text ("Order not found") or as codes ("NOT_FOUND", "ALREADY_CANCELED"): separators vary.
  [/already[\s_-]*cancell?ed|not[\s_-]*cancell?able/i, 'already-canceled'],
  [/not[\s_-]*found/i, 'not-found'],
  [/resolved/i, 'market-resolved'],
  [/unauthori[sz]ed/i, 'unauthorized'],
];

export function cancelFailureReason(reason: string | null, message: string | null): CancelFailureReason {
  const text = `${reason ?? ''} ${message ?? ''}`;
  for (const [pattern, mapped] of CANCEL_REASONS) if (pattern.test(text)) return mapped;
  return 'other';
}

function settlementOf(status: string | null): SettlementState {
  const upper = status?.toUpperCase() ?? '';
  if (upper === 'MINED' || upper === 'CONFIRMED') return 'mined';
  if (upper === 'FAILED') return 'failed';
  return 'provisional';
}

/**
 * The fill a placement (or a status lookup) reports for this order as taker: total contracts and collateral of the
 * execution. Reported only when the average price lies exactly on a tick; otherwise the SETTLEMENT frame, with
 * exact amounts, is the source.
 */
export function fillsOfExecution(result: PlacementResult): VenueFill[] {
  const execution = result.execution;
  if (!execution?.tradeEventId) return [];
  const contracts = execution.totalsRaw['contracts'];
  const collateral = execution.totalsRaw['collateral'];
  if (contracts === undefined || collateral === undefined || contracts <= 0) return [];
  const scaled = collateral * TICKS_PER_UNIT;
  if (scaled % contracts !== 0) return [];
  return [{ tradeEventId: execution.tradeEventId, sizeRaw: contracts, priceTicks: scaled / contracts, settlement: settlementOf(execution.settlementStatus) }];
}

function venueStatus(status: string | null, remainingRaw: number | null): VenueOrderStatus {
  const upper = status?.toUpperCase();
  if (upper === 'LIVE' || upper === 'MATCHED' || upper === 'CANCELED' || upper === 'UNMATCHED') return upper;
  return remainingRaw === 0 ? 'MATCHED' : 'LIVE';
}

export class VenueAdapter implements VenuePort {
  private readonly slugByToken = new Map<string, string>();

  constructor(private readonly options: VenueAdapterOptions) {
    for (const market of options.markets.values()) {
      this.slugByToken.set(market.tokens.yes, market.slug);
      this.slugByToken.set(market.tokens.no, market.slug);
    }
  }

  async placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    const market = this.options.markets.get(request.marketSlug);
    if (!market) throw new OrderRejectedError('unknown-market', `market ${request.marketSlug} is not configured`);
    if (request.orderType === 'FOK') {
      // A FOK order is sized in collateral and carries no limit price: it cannot be built from this request, and
      // sending it as anything else (a resting GTC) would be a different order.
      throw new OrderRejectedError('invalid-order', `orderType FOK is not supported by the venue adapter (clientOrderId ${request.clientOrderId})`);
    }
    let result: PlacementResult;
    try {
      const minSizeRaw = this.options.minSizeRaw?.(request.marketSlug);
      const signed = await this.options.signer.createOrder({
        market,
        tokenId: request.tokenId,
        side: request.side,
        orderType: request.orderType,
        priceTicks: request.priceTicks,
        sizeRaw: request.sizeRaw,
        postOnly: request.postOnly,
        clientOrderId: request.clientOrderId,
        ...(minSizeRaw === undefined ? {} : { minSizeRaw }),
        ...(this.options.recvWindowMs === null ? {} : { recvWindowMs: this.options.recvWindowMs }),
      });
      result = await this.options.api.placeOrder(signed, request.beforeSend ? { beforeSend: request.beforeSend } : {});
    } catch (error) {
      if (isDuplicateOrderError(error)) throw new DuplicateClientOrderIdError(request.clientOrderId);
      throw mapError('placeOrder', error);
    }
    const remainingRaw = result.order.remainingSizeRaw ?? request.sizeRaw;
    return {
      orderId: result.orderId,
      status: venueStatus(result.order.status, result.order.remainingSizeRaw),
      remainingRaw,
      fills: fillsOfExecution(result),
      reason: result.execution?.reason ?? null,
    };
  }

  async cancelOrders(_marketSlug: string, orderIds: readonly string[]): Promise<CancelResult> {
    if (orderIds.length === 0) return { canceled: [], failed: [] };
    try {
      return toCancelResult(await this.options.api.cancelOrders(orderIds));
    } catch (error) {
      throw mapError('cancelOrders', error);
    }
  }

  async cancelAll(marketSlug: string): Promise<CancelResult> {
    try {
      return toCancelResult(await this.options.api.cancelAll(marketSlug));
    } catch (error) {
      throw mapError('cancelAll', error);
    }
  }

  async statusBatch(queries: readonly StatusQuery[]): Promise<readonly StatusResult[]> {
    let answers;
    try {
      answers = await this.options.api.getOrderStatuses(queries);
    } catch (error) {
      throw mapError('statusBatch', error);
    }
    return queries.map((query, index): StatusResult => {
      const answer = answers.find((a) => a.index === index);
      if (!answer || answer.status === 'not_found') return { query, outcome: 'not_found' };
      if (answer.status === 'invalid' || !answer.data) return { query, outcome: 'invalid', message: `status lookup ${answer.status}` };
      const snapshot = this.snapshotOfPlacement(answer.data, answer.clientOrderId);
      return snapshot ? { query, outcome: 'found', order: snapshot } : { query, outcome: 'invalid', message: 'order of an unknown market' };
    });
  }

  async listLiveOrders(marketSlug: string): Promise<readonly VenueOrderSnapshot[]> {
    try {
      const orders = await this.options.api.getUserOrders(marketSlug, { statuses: ['LIVE'] });
      return orders.map((order) => snapshotOfUserOrder(marketSlug, order));
    } catch (error) {
      throw mapError('listLiveOrders', error);
    }
  }

  async maintenanceStatus(): Promise<MaintenanceStatus> {
    try {
      const status = await this.options.api.getMaintenanceStatus();
      return { mode: status.mode, resumeAtMs: status.resumeAtMs };
    } catch (error) {
      throw mapError('maintenanceStatus', error);
    }
  }

  private snapshotOfPlacement(result: PlacementResult, clientOrderId: string | null): VenueOrderSnapshot | null {
    const order = result.order;
    const slug = order.tokenId ? this.slugByToken.get(order.tokenId) : undefined;
    if (!slug || !order.tokenId || !order.side || order.priceTicks === null) return null;
    const sizeRaw = order.originalSizeRaw ?? order.remainingSizeRaw ?? 0;
    const remainingRaw = order.remainingSizeRaw ?? 0;
    return {
      orderId: result.orderId,
      clientOrderId: order.clientOrderId ?? clientOrderId,
      marketSlug: slug,
      tokenId: order.tokenId,
      side: order.side,
      priceTicks: order.priceTicks,
      sizeRaw,
      remainingRaw,
      status: venueStatus(order.status, order.remainingSizeRaw),
      createdAtMs: 0,
      fills: fillsOfExecution(result),
    };
  }
}

export function snapshotOfUserOrder(marketSlug: string, order: UserOrder): VenueOrderSnapshot {
  return {
    orderId: order.id,
    clientOrderId: order.clientOrderId,
    marketSlug,
    tokenId: order.tokenId,
    side: order.side,
    priceTicks: order.priceTicks,
    sizeRaw: order.originalSizeRaw,
    remainingRaw: order.remainingSizeRaw,
    status: order.status,
    createdAtMs: order.createdAtMs,
    fills: [],
  };
}

function toCancelResult(result: BatchCancelResult): CancelResult {
  return {
    canceled: result.canceled,
    failed: result.failed.map((f) => ({
      orderId: f.orderId,
      reason: cancelFailureReason(f.reason, f.message),
      message: f.message ?? f.reason ?? 'cancel failed',
    })),
  };
}

/** Operations that change nothing on the venue: whatever went wrong, nothing took effect. */
const READ_OPERATIONS: ReadonlySet<VenueOperation> = new Set<VenueOperation>(['statusBatch', 'listLiveOrders', 'maintenanceStatus']);

/**
 * The client's error → the port's error contract (see src/orders/venue-port.ts). A failed read (timeout, 5xx,
 * unreadable answer) is a VenueRequestError: a read changes nothing, so its outcome is never unknown. A failed
 * placement or cancel whose answer was lost or was a 5xx may have taken effect: OutcomeUnknownError.
 */
export function mapError(operation: VenueOperation, error: unknown): Error {
  if (error instanceof PlacementWithheldError) return error;
  if (error instanceof ClientTradingModeError) return new TradingModeError(operation, tradingModeOf(error.mode), error.resumeAtMs);
  if (error instanceof ClientRateLimitedError) return new RateLimitedError(operation, error.retryAfterMs);
  if (error instanceof OrderBuildError || error instanceof RequestInputError) {
    return operation === 'placeOrder' ? new OrderRejectedError('invalid-order', error.message) : new VenueRequestError(operation, null, error.message);
  }
  const status = error instanceof ExchangeHttpError ? error.status : null;
  const message = error instanceof Error ? error.message : String(error);
  if (operation === 'placeOrder' && status !== null && status >= 400 && status < 500) {
    return new OrderRejectedError(rejectionReason(status, message), message, status);
  }
  if (READ_OPERATIONS.has(operation)) return new VenueRequestError(operation, status, message);
  if (error instanceof ClientOutcomeUnknownError || error instanceof NetworkError) return new OutcomeUnknownError(operation, message);
  if (status !== null && status < 500) return new VenueRequestError(operation, status, message);
  return new OutcomeUnknownError(operation, message);
}

function rejectionReason(status: number, message: string): string {
  if (/post.?only/i.test(message)) return 'post-only-would-cross';
  if (/balance|collateral|insufficient/i.test(message)) return 'insufficient-balance';
  if (status === 401 || status === 403) return 'unauthorized';
  if (/resolved|expired|not tradable|closed/i.test(message)) return 'market-closed';
  return 'validation';
}
