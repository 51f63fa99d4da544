/**
 * The adapter from the REST client (src/exchange) to the order manager's VenuePort (src/orders/venue-port.ts).
 *
 * Owns: the mapping of the client's typed errors onto the port's error contract, and of wire answers onto the
 * port's venue-neutral values; the cross-market cancel-replace request (`crossMarket`: batches signed when prepared,
 * taken when the request leaves the limiter, a mixed-market 400 read as MixedMarketsRefusedError). Invariants: every mapped error carries the client's as `cause`; a rejected placement
 * is classified by error class, HTTP status and the client's `refusal`, never by message text; a placement whose
 * answer never came is OutcomeUnknownError (never a rejection); a 409 is DuplicateClientOrderIdError ("already
 * accepted"); a 425 trading-mode body (ExchangeTradingModeError) is TradingModeError; a bare 503 of a placement or a
 * cancel or a cancel-replace is explained by the maintenance status refreshed at once (unavailable-answer.ts); a size or status the venue left out (the official client's CreatedOrder has neither) is
 * unknown: never read as 0 or as terminal. A taker fill in a placement or lookup answer (`execution.totalsRaw`) is
 * reported at its gross contracts (what the order matched) and its exact collateral and fee go to `onTakerFill`. Each
 * call's limiter class is the shared table's (src/orders/request-class.ts), as the backtest's request model orders them.
 */
import type { ExchangeApi } from '../exchange/api.js';
import {
  ExchangeHttpError,
  NetworkError,
  OrderBuildError,
  ExchangeOutcomeUnknownError,
  ExchangeRateLimitedError,
  RequestInputError,
  ExchangeTradingModeError,
  ValidationError,
  isDuplicateOrderError,
  isTransportClosed,
  venueRefusalOf,
} from '../exchange/errors.js';
import type { TakenCancelReplace } from '../exchange/api.js';
import type { OrderSigner, SignedOrder, SigningMarket } from '../exchange/signer.js';
import type { CancelReplaceOperation, CancelReplaceOutcome } from '../exchange/cancel-replace-wire.js';
import type { BatchCancelResult, MaintenanceStatus as WireMaintenanceStatus, PlacementResult, UserOrder } from '../exchange/wire.js';
import { isKnownTradingMode, toTradingMode } from '../core/trading-mode.js';
import { explainUnavailable, isBareUnavailable, type RefusableAction } from './unavailable-answer.js';
import { VenueCancels, type CancelFact, type CancelOutcome } from './venue-cancels.js';
import { TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import {
  CancelReplaceUnsupportedError,
  DuplicateClientOrderIdError,
  MixedMarketsRefusedError,
  operationMode,
  MaintenanceBlockError,
  OrderRejectedError,
  OutcomeUnknownError,
  PlacementWithheldError,
  RateLimitedError,
  ServiceUnavailableError,
  TradingModeError,
  VenueRequestError,
  type CancelFailureReason,
  type CancelReplaceBatch,
  type CancelReplaceItem,
  type CancelReplaceItemResult,
  type CrossMarketCancelReplace,
  type PreparedBatch,
  type PreparedBatchAnswer,
  type CancelOptions,
  type CancelResult,
  type MaintenanceStatus,
  type PlaceRequest,
  type PlaceResult,
  type SettlementState,
  type StatusOptions,
  type StatusQuery,
  type StatusResult,
  type VenueFill,
  type VenueOperation,
  type ListOptions,
  type VenueOrderSnapshot,
  type VenueOrderStatus,
  type VenuePort,
} from '../orders/venue-port.js';
import { errorText } from '../core/errors.js';
import { requestClass } from '../orders/request-class.js';

export interface VenueAdapterOptions {
  readonly api: ExchangeApi;
  readonly signer: OrderSigner;
  /** The markets this bot trades, by slug (venue.exchange and token ids, for signing and for token → slug). */
  readonly markets: ReadonlyMap<string, SigningMarket>;
  /** Opt-in receive window for placements (ms), or null. */
  readonly recvWindowMs: number | null;
  /** What the venue said about its cancel endpoints (venue-cancels.ts), once each: for the log. */
  readonly onCancelFact?: (fact: CancelFact) => void;
  /** A placement's smallest accepted size (raw) per market, or undefined for one size step. */
  readonly minSizeRaw?: (marketSlug: string) => number | undefined;
  /**
   * Called with the exact economics of each taker fill an answer reports, before the fill itself is returned (so a
   * ledger keyed by (tradeEventId, orderId) can book its collateral and fee, whichever source reports it first).
   */
  readonly onTakerFill?: (detail: TakerFillDetail) => void;
}

/** A taker fill's economics from `execution.totalsRaw` (raw integers). */
export interface TakerFillDetail {
  readonly tradeEventId: string;
  readonly orderId: string;
  /** Contracts matched (gross), as reported in the fill. */
  readonly sizeRaw: number;
  /** USDC paid (BUY) or received (SELL) before the fee: `usdGross`. */
  readonly collateralRaw: number;
  /** Fee taken in USDC (`usdFee`). */
  readonly feeUsdRaw: number;
  /** Fee taken in contracts (`contractsFee`): the shares received are `sizeRaw − feeContractsRaw`. */
  readonly feeContractsRaw: number;
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

/** A taker fill of an answer: the fill as the order saw it, and its exact economics. */
export interface ExecutionFill {
  readonly fill: VenueFill;
  readonly detail: TakerFillDetail;
}

/**
 * The fill a placement (or a status lookup) reports for this order as taker, from `execution.totalsRaw` (typed by
 * the official client as {contractsGross, contractsNet, contractsFee, usdGross, usdNet, usdFee}): the gross
 * contracts matched at the average price usdGross / contractsGross (rounded to the nearest tick when a sweep put it
 * off the grid, as the settlement frame's is; the exact collateral is in `detail`). None without a trade event id
 * (nothing to key it by: the settlement frame reports it) or without the gross totals.
 */
export function executionFill(result: PlacementResult): ExecutionFill | null {
  const execution = result.execution;
  const totals = execution?.totals;
  if (!execution?.tradeEventId || !totals) return null;
  const contracts = totals.contractsGross;
  const collateral = totals.usdGross;
  if (contracts === null || collateral === null || contracts <= 0) return null;
  const priceTicks = Math.min(TICKS_PER_UNIT - 1, Math.max(1, Math.round((collateral * TICKS_PER_UNIT) / contracts)));
  return {
    fill: { tradeEventId: execution.tradeEventId, sizeRaw: contracts, priceTicks, settlement: settlementOf(execution.settlementStatus) },
    detail: {
      tradeEventId: execution.tradeEventId,
      orderId: result.orderId,
      sizeRaw: contracts,
      collateralRaw: collateral,
      feeUsdRaw: totals.usdFee ?? 0,
      feeContractsRaw: totals.contractsFee ?? 0,
    },
  };
}

export function fillsOfExecution(result: PlacementResult): VenueFill[] {
  const found = executionFill(result);
  return found === null ? [] : [found.fill];
}

/**
 * The venue's status → the port's. A missing status is not terminal on that evidence alone: the order rests unless
 * the venue said its remaining size is 0.
 */
function venueStatus(status: string | null, remainingRaw: number | null): VenueOrderStatus {
  const upper = status?.toUpperCase();
  if (upper === 'LIVE' || upper === 'MATCHED' || upper === 'CANCELED' || upper === 'UNMATCHED') return upper;
  return remainingRaw === 0 ? 'MATCHED' : 'LIVE';
}

export class VenueAdapter implements VenuePort {
  private readonly slugByToken = new Map<string, string>();
  /** The venue's cancel endpoints, with what the venue said about them (venue-cancels.ts). */
  readonly cancels: VenueCancels;

  constructor(private readonly options: VenueAdapterOptions) {
    this.cancels = new VenueCancels(options.api, options.onCancelFact);
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
      const signed = await this.sign(market, request);
      result = await this.options.api.placeOrder(signed, request.beforeSend ? { beforeSend: request.beforeSend } : {});
    } catch (error) {
      if (isDuplicateOrderError(error)) throw new DuplicateClientOrderIdError(request.clientOrderId, { cause: error });
      const mapped = mapError('placeOrder', error);
      if (!(mapped instanceof ServiceUnavailableError)) throw mapped;
      throw await explainUnavailable(mapped, { kind: 'place', postOnly: request.postOnly, orderType: request.orderType }, () => this.maintenanceStatus());
    }
    return this.placeResultOf(result, request.sizeRaw);
  }

  /**
   * POST /orders/cancel-replace/batch of one market: `crossMarket` with this one batch (its `beforeSend` checked before
   * each attempt). A 404 for the endpoint is CancelReplaceUnsupportedError (the venue does not offer it: nothing took
   * effect); every other failure of the whole request maps as for a cancel (mapError).
   */
  async cancelReplace(batch: CancelReplaceBatch): Promise<readonly CancelReplaceItemResult[]> {
    const { beforeSend, ...content } = batch;
    const prepared = await this.crossMarket.prepare(content);
    const answers = await this.crossMarket.send(() => {
      beforeSend?.();
      return [prepared];
    });
    return answers[0]?.results ?? [];
  }

  /**
   * Cancel-replace batches of several markets in one request (the cross-market batcher's, src/orders/cross-market-venue.ts):
   * `prepare` signs a batch's orders (each operation's cancel target: the old order's id, or for a placement item the new
   * order's own clientOrderId; its mode: `operationMode`), `send` takes the prepared batches when the request leaves the
   * rate limiter. A 400 naming `operations[i].replacement.marketSlug` of a request naming several markets is
   * MixedMarketsRefusedError (the venue takes one market per request: nothing took effect).
   */
  readonly crossMarket: CrossMarketCancelReplace = {
    prepare: (batch) => this.prepareBatch(batch),
    send: (take, request) => this.sendBatches(take, request?.cancels ?? true),
  };

  private readonly preparedOperations = new WeakMap<PreparedBatch, readonly CancelReplaceOperation[]>();

  private async prepareBatch(batch: Omit<CancelReplaceBatch, 'beforeSend'>): Promise<PreparedBatch> {
    const market = this.options.markets.get(batch.marketSlug);
    if (!market) throw new VenueRequestError('cancelReplace', null, `market ${batch.marketSlug} is not configured`);
    let operations: CancelReplaceOperation[];
    try {
      operations = await Promise.all(
        batch.items.map(async (item) => ({
          cancel: item.cancelOrderId === null ? { clientOrderId: item.place.clientOrderId } : { orderId: item.cancelOrderId },
          order: await this.sign(market, item.place),
          mode: operationMode(item, batch.mode),
        })),
      );
    } catch (error) {
      throw mapError('cancelReplace', error);
    }
    const prepared: PreparedBatch = { batch };
    this.preparedOperations.set(prepared, operations);
    return prepared;
  }

  private async sendBatches(take: () => readonly PreparedBatch[], cancels: boolean): Promise<readonly PreparedBatchAnswer[]> {
    let sent: readonly PreparedBatch[] = [];
    let answer: TakenCancelReplace;
    try {
      answer = await this.options.api.cancelReplaceBatchTaken(
        () => {
          sent = take();
          return sent.flatMap((batch) => {
            const operations = this.preparedOperations.get(batch);
            if (operations === undefined) throw new RequestInputError('batch', batch.batch.marketSlug, 'was not prepared by this venue adapter');
            return operations;
          });
        },
        { priority: requestClass({ operation: 'cancelReplace', cancels }) },
      );
    } catch (error) {
      if (sent.length === 0 && error instanceof RequestInputError) return [];
      // Still queued when the client closed (the bot stopping): nothing was sent, the batches were never taken.
      if (sent.length === 0 && isTransportClosed(error)) throw new PlacementWithheldError('stopping', { operation: 'cancelReplace' });
      if (error instanceof ExchangeHttpError && error.status === 404) throw new CancelReplaceUnsupportedError(error.message, { cause: error });
      if (isMixedMarketRefusal(error, sent)) throw new MixedMarketsRefusedError(errorText(error), { cause: error });
      const mapped = mapError('cancelReplace', error);
      if (!(mapped instanceof ServiceUnavailableError) || sent.length === 0) throw mapped;
      // A bare 503: the maintenance status refreshed at once tells the venue's refusal of the placements (nothing was
      // accepted: TradingModeError) from an overloaded server (outcome unknown), as for a single placement.
      throw await explainUnavailable(mapped, placementsAction(sent), () => this.maintenanceStatus());
    }
    let offset = 0;
    return sent.map((batch) => {
      const outcomes = answer.outcomes.slice(offset, offset + batch.batch.items.length);
      offset += batch.batch.items.length;
      return { batch, results: batch.batch.items.map((item, i) => this.itemResult(item, outcomes[i])) };
    });
  }

  /** One operation's outcome → the port's result (a missing one: both halves UNKNOWN). */
  private itemResult(item: CancelReplaceItem, outcome: CancelReplaceOutcome | undefined): CancelReplaceItemResult {
    const cancel = outcome?.cancel;
    const replacement = outcome?.replacement;
    return {
      cancelOrderId: item.cancelOrderId,
      cancel: cancel === undefined ? { status: 'UNKNOWN', reason: 'no result' } : { status: cancel.status, reason: cancel.status === 'SUCCESS' ? null : batchErrorText(cancel.error) },
      replacement:
        replacement === undefined
          ? { status: 'UNKNOWN', clientOrderId: item.place.clientOrderId, placed: null, reason: 'no result' }
          : replacement.status === 'SUCCESS'
            ? { status: 'SUCCESS', clientOrderId: item.place.clientOrderId, placed: this.placeResultOf(replacement.placement, item.place.sizeRaw), reason: null }
            : {
                status: replacement.status,
                clientOrderId: item.place.clientOrderId,
                placed: null,
                reason: replacement.status === 'NOT_ATTEMPTED' ? null : replacement.status === 'FAILURE' ? replacementRefusal(replacement.error) : batchErrorText(replacement.error),
              },
    };
  }

  private async sign(market: SigningMarket, request: Omit<PlaceRequest, 'beforeSend'>): Promise<SignedOrder> {
    const minSizeRaw = this.options.minSizeRaw?.(request.marketSlug);
    const orderType = request.orderType;
    if (orderType === 'FOK') throw new OrderRejectedError('invalid-order', `orderType FOK is not supported by the venue adapter (clientOrderId ${request.clientOrderId})`);
    return this.options.signer.createOrder({
      market,
      tokenId: request.tokenId,
      side: request.side,
      orderType,
      priceTicks: request.priceTicks,
      sizeRaw: request.sizeRaw,
      postOnly: request.postOnly,
      clientOrderId: request.clientOrderId,
      ...(minSizeRaw === undefined ? {} : { minSizeRaw }),
      ...(this.options.recvWindowMs === null ? {} : { recvWindowMs: this.options.recvWindowMs }),
    });
  }

  private placeResultOf(result: PlacementResult, sizeRaw: number): PlaceResult {
    // An absent remaining size is unknown: report the full size (no news; fills in the answer lower it).
    const remainingRaw = result.order.remainingSizeRaw ?? sizeRaw;
    return {
      orderId: result.orderId,
      status: venueStatus(result.order.status, result.order.remainingSizeRaw),
      remainingRaw,
      fills: this.takerFills(result),
      reason: result.execution?.reason ?? null,
    };
  }

  async cancelOrders(_marketSlug: string, orderIds: readonly string[], options?: CancelOptions): Promise<CancelResult> {
    if (orderIds.length === 0) return { canceled: [], failed: [] };
    try {
      return portCancelResult(await this.cancels.cancelInMarket(orderIds, options?.beforeSend));
    } catch (error) {
      throw await this.cancelError('cancelOrders', error);
    }
  }

  /** Orders of several markets in as few POST /orders/batch-cancel requests as the venue allows (venue-cancels.ts detects it). */
  async cancelAcrossMarkets(byMarket: ReadonlyMap<string, readonly string[]>): Promise<CancelResult> {
    try {
      return portCancelResult(await this.cancels.cancelAcrossMarkets(byMarket));
    } catch (error) {
      throw await this.cancelError('cancelAcrossMarkets', error);
    }
  }

  /** One order by its clientOrderId (POST /orders/cancel): the order of a placement whose answer was lost. */
  async cancelByClientOrderId(_marketSlug: string, clientOrderId: string): Promise<CancelResult> {
    try {
      return portCancelResult(await this.cancels.cancelByClientOrderId(clientOrderId));
    } catch (error) {
      throw await this.cancelError('cancelByClientOrderId', error);
    }
  }

  /** A failed cancel → the port's error; a bare 503 is explained by the maintenance status refreshed at once. */
  private async cancelError(operation: 'cancelOrders' | 'cancelAcrossMarkets' | 'cancelByClientOrderId', error: unknown): Promise<Error> {
    const mapped = mapError(operation, error);
    if (!(mapped instanceof ServiceUnavailableError)) return mapped;
    return explainUnavailable(mapped, { kind: 'cancel' }, () => this.maintenanceStatus());
  }

  async cancelAll(marketSlug: string): Promise<CancelResult> {
    try {
      return toCancelResult(await this.options.api.cancelAll(marketSlug));
    } catch (error) {
      throw mapError('cancelAll', error);
    }
  }

  async statusBatch(queries: readonly StatusQuery[], options?: StatusOptions): Promise<readonly StatusResult[]> {
    let answers;
    try {
      const priority = requestClass({ operation: 'statusBatch', sweep: options?.sweep === true });
      answers = await this.options.api.getOrderStatuses(queries, { priority, ...(options?.beforeSend === undefined ? {} : { beforeSend: options.beforeSend }) });
    } catch (error) {
      throw mapError('statusBatch', error);
    }
    return queries.map((query, index): StatusResult => {
      const answer = answers.find((a) => a.index === index);
      if (!answer || answer.status === 'not_found') return { query, outcome: 'not_found' };
      if (answer.status === 'invalid' || !answer.data) return { query, outcome: 'invalid', message: `status lookup ${answer.status}` };
      const snapshot = this.snapshotOfPlacement(answer.data, answer.clientOrderId);
      return typeof snapshot === 'string' ? { query, outcome: 'invalid', message: snapshot } : { query, outcome: 'found', order: snapshot };
    });
  }

  async listLiveOrders(marketSlug: string, options: ListOptions = {}): Promise<readonly VenueOrderSnapshot[]> {
    try {
      const orders = await this.options.api.getUserOrders(marketSlug, { statuses: ['LIVE'] }, { priority: requestClass({ operation: 'listLiveOrders', urgent: options.urgent === true, beforeFirstQuote: options.beforeFirstQuote === true, deferred: options.deferred === true }) });
      return orders.map((order) => snapshotOfUserOrder(marketSlug, order));
    } catch (error) {
      throw mapError('listLiveOrders', error);
    }
  }

  async maintenanceStatus(): Promise<MaintenanceStatus> {
    try {
      return portMaintenanceOf(await this.options.api.getMaintenanceStatus());
    } catch (error) {
      throw mapError('maintenanceStatus', error);
    }
  }

  private takerFills(result: PlacementResult): VenueFill[] {
    const found = executionFill(result);
    if (found === null) return [];
    this.options.onTakerFill?.(found.detail);
    return [found.fill];
  }

  /**
   * A lookup's order → a snapshot. Sizes the answer left out (the official client's CreatedOrder carries neither
   * originalSize nor remainingSize) are unknown, never 0: the size comes from the signed amounts, and the remaining
   * size is then reported as that full size, which tells the order record nothing new (it only ever lowers its
   * remaining size) — the tracked value stands. Without any size the order cannot be read: the reason is returned.
   */
  private snapshotOfPlacement(result: PlacementResult, clientOrderId: string | null): VenueOrderSnapshot | string {
    const order = result.order;
    const slug = order.tokenId ? this.slugByToken.get(order.tokenId) : undefined;
    if (!slug || !order.tokenId || !order.side || order.priceTicks === null) return 'order of an unknown market';
    const sizeRaw = order.sizeRaw ?? order.remainingSizeRaw;
    if (sizeRaw === null) return 'order without a size (no originalSize, no readable amounts)';
    const remainingRaw = order.remainingSizeRaw ?? sizeRaw;
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
      createdAtMs: order.createdAtMs ?? 0,
      fills: this.takerFills(result),
    };
  }
}

/**
 * The placements of a cancel-replace request as one action for `explainUnavailable`: the shape the mode refuses first —
 * a placement that is not post-only (or not GTC) if there is one, else a post-only GTC placement.
 */
export function placementsAction(sent: readonly PreparedBatch[]): RefusableAction {
  const places = sent.flatMap((b) => b.batch.items.map((item) => item.place));
  const strictest = places.find((p) => !p.postOnly || p.orderType !== 'GTC') ?? places[0];
  return { kind: 'place', postOnly: strictest?.postOnly ?? true, orderType: strictest?.orderType ?? 'GTC' };
}

/** `operations[3].replacement.marketSlug` or `operations.3.replacement.marketSlug`: the field a mixed-market refusal names. */
const MARKET_SLUG_FIELD = /operations(?:\.|\[)\d+\]?\.replacement\.marketSlug/;

/**
 * A 400 of a request naming several markets whose body names an operation's `replacement.marketSlug` (as a validation
 * field, or in the message): the venue refuses mixing markets in one request.
 */
export function isMixedMarketRefusal(error: unknown, sent: readonly PreparedBatch[]): boolean {
  if (new Set(sent.map((b) => b.batch.marketSlug)).size < 2) return false;
  if (!(error instanceof ExchangeHttpError) || error.status !== 400) return false;
  if (error instanceof ValidationError && error.fields.some((f) => MARKET_SLUG_FIELD.test(f.field))) return true;
  return MARKET_SLUG_FIELD.test(error.message);
}

/**
 * A refused replacement's reason, stable as a refused placement's (`rejectionReason`): the refusal its error names
 * (`venueRefusalOf`: post-only cross, insufficient balance, market closed — what the account view and the logs branch
 * on), else the venue's code and message.
 */
export function replacementRefusal(error: { readonly code: string; readonly message: string } | null): string {
  if (error === null) return batchErrorText(error);
  return venueRefusalOf(400, `${error.code} ${error.message}`) ?? batchErrorText(error);
}

function batchErrorText(error: { readonly code: string; readonly message: string } | null): string {
  return error === null ? 'no reason given' : `${error.code}: ${error.message}`;
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

/** A cancel answer of venue-cancels.ts → the port's (the ids are order ids there). */
function portCancelResult(result: CancelOutcome): CancelResult {
  return {
    canceled: result.canceled,
    failed: result.failed.map((f) => ({ orderId: f.id, reason: cancelFailureReason(f.reason, f.message), message: f.message ?? f.reason ?? 'cancel failed' })),
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

/** The wire's maintenance status → the port's: the folded mode, and the mode strings it did not know (to report). */
export function portMaintenanceOf(status: WireMaintenanceStatus): MaintenanceStatus {
  const unknownModes = status.active.flatMap((w) => (isKnownTradingMode(w.mode) ? [] : [w.mode ?? '(missing)']));
  return { mode: status.mode, resumeAtMs: status.resumeAtMs, ...(unknownModes.length > 0 ? { unknownModes } : {}) };
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
  const cause = { cause: error };
  if (error instanceof ExchangeTradingModeError) {
    return new TradingModeError(operation, toTradingMode(error.mode), error.resumeAtMs, isKnownTradingMode(error.mode) ? null : error.mode, cause);
  }
  // A 425 without the trading-mode body that the transport did not re-stamp: a maintenance block (nothing took effect).
  if (error instanceof ExchangeHttpError && error.status === 425) return new MaintenanceBlockError(operation, error.message, cause);
  if (error instanceof ExchangeRateLimitedError) return new RateLimitedError(operation, error.retryAfterMs, cause);
  if (error instanceof OrderBuildError || error instanceof RequestInputError) {
    return operation === 'placeOrder' ? new OrderRejectedError('invalid-order', error.message, null, cause) : new VenueRequestError(operation, null, error.message, cause);
  }
  const status = error instanceof ExchangeHttpError ? error.status : null;
  const message = errorText(error);
  if (operation === 'placeOrder' && error instanceof ExchangeHttpError && error.status >= 400 && error.status < 500) {
    return new OrderRejectedError(rejectionReason(error), message, error.status, cause);
  }
  if (READ_OPERATIONS.has(operation)) return new VenueRequestError(operation, status, message, cause);
  // A bare 503 of a trading request: perhaps the venue's maintenance refusal (the caller refreshes the mode to tell).
  if (isBareUnavailable(error)) return new ServiceUnavailableError(operation, message, cause);
  if (error instanceof ExchangeOutcomeUnknownError || error instanceof NetworkError) return new OutcomeUnknownError(operation, message, cause);
  if (status !== null && status < 500) return new VenueRequestError(operation, status, message, cause);
  return new OutcomeUnknownError(operation, message, cause);
}

/** A refused placement's stable reason: by HTTP status and the refusal the client read from the body, never by text. */
function rejectionReason(error: ExchangeHttpError): string {
  if (error.status === 401 || error.status === 403) return 'unauthorized';
  return error.refusal ?? 'validation';
}
