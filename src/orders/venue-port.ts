/**
 * The order manager's port to the venue: exactly the calls it needs, in venue-neutral typed values
 * (integer ticks, raw sizes, ms timestamps), and the errors those calls may throw.
 *
 * Owns: the `VenuePort` interface and the `VenuePortError` family. The composition root writes an adapter
 * from the REST client (src/venue/venue-adapter.ts, mapping the client's `Exchange…Error` classes onto these and
 * chaining the client's error as `cause`); tests use test/support/fake-venue.ts. Trading modes are src/core/trading-mode.ts.
 *
 * Error contract of an adapter (the executor relies on it):
 * - `OutcomeUnknownError`: the request may or may not have taken effect (timeout, 5xx, dropped connection).
 *   For a placement this means "look it up by clientOrderId before acting again". Anything thrown that is not a
 *   `VenuePortError` is treated the same way by the executor (the safe assumption).
 * - `TradingModeError`: the venue refused because of its trading mode (425 body; a 503 with that body; or a bare 503
 *   while the refreshed maintenance status refuses the action: the API reference's refusal of POST /orders).
 * - `ServiceUnavailableError` (an OutcomeUnknownError): a bare 503 the mode does not explain.
 * - `DuplicateClientOrderIdError`: 409 on a placement: an order with this clientOrderId was already accepted.
 * - `RateLimitedError`: 429 after the client's own retries: the request was refused, not executed.
 * - `OrderRejectedError`: a placement definitely refused (400 validation, 401/403, post-only would cross...).
 * - `VenueRequestError`: any other definite failure (the request did not take effect).
 * - `MixedMarketsRefusedError`: a cancel-replace request naming several markets (`crossMarket.send`) refused with a 400
 *   naming `operations[i].replacement.marketSlug`: nothing took effect (the cross-market batcher sends one market per
 *   request from then on).
 *
 * Cross-market cancel-replace (`crossMarket`, optional): `prepare` readies one market's batch, `send` sends one request
 * whose batches are taken when it leaves the rate limiter, answered per batch, index-aligned. A placement into an empty
 * slot can be an item too (`cancelOrderId: null`: its cancel target is its own clientOrderId, mode ALLOW_FAILURE).
 */
import type { TradingMode } from '../core/trading-mode.js';
import type { OrderType, Outcome, Side } from '../core/venue-rules/index.js';

/** The trading modes are defined in src/core/trading-mode.ts; re-exported for the port's importers. */
export { isTradingMode, toTradingMode, TRADING_MODES, type TradingMode } from '../core/trading-mode.js';

/** The venue's current trading restriction (the adapter folds `GET /maintenance/status` into one mode). */
export interface MaintenanceStatus {
  readonly mode: TradingMode;
  /** When the restriction is expected to end, ms since epoch; null when unknown or when normal. */
  readonly resumeAtMs: number | null;
  /** Mode strings of active restrictions that are none of the four (read as `cancel_only`), for the log and a metric. */
  readonly unknownModes?: readonly string[];
}

export type VenueOrderStatus = 'LIVE' | 'MATCHED' | 'CANCELED' | 'UNMATCHED';

/** Settlement progress of a fill (MATCHED on the venue = provisional, before the chain). */
export type SettlementState = 'provisional' | 'mined' | 'failed';

/** A fill of one of our orders as the venue reports it. */
export interface VenueFill {
  readonly tradeEventId: string;
  readonly sizeRaw: number;
  readonly priceTicks: number;
  readonly settlement: SettlementState;
}

export interface PlaceRequest {
  readonly marketSlug: string;
  readonly clientOrderId: string;
  readonly token: Outcome;
  /** The position token id of `token` (market.tokens.yes / .no). */
  readonly tokenId: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly postOnly: boolean;
  readonly orderType: OrderType;
  /**
   * Called right before the request leaves (after any rate-limiter wait, and before every retry); throwing
   * `PlacementWithheldError` cancels it unsent. Lets the caller re-check what may have changed while it queued.
   */
  readonly beforeSend?: () => void;
}

/** `sweep`: the shutdown sweep's confirming lookup (limiter class `sweep`, ahead of the plans' lookups still queued). */
export interface StatusOptions {
  readonly sweep?: boolean;
  /** As PlaceRequest.beforeSend: throwing `PlacementWithheldError` withholds the lookup unsent. */
  readonly beforeSend?: () => void;
}

/** A plan's cancel: its last-moment check (the bot stopping, whose shutdown sweep cancels every order anyway). */
export interface CancelOptions {
  readonly beforeSend?: () => void;
}

/** The answer to an accepted placement. */
export interface PlaceResult {
  readonly orderId: string;
  /** LIVE: resting (perhaps partly matched); MATCHED: fully matched; CANCELED/UNMATCHED: not resting. */
  readonly status: VenueOrderStatus;
  readonly remainingRaw: number;
  /** Fills of this order at placement (as taker), with their trade ids when the venue gave them. */
  readonly fills: readonly VenueFill[];
  /** `execution.reason` (e.g. STP_TAKER_REJECTED), null when none. */
  readonly reason: string | null;
}

/** One order as the venue holds it (user-orders list, status lookup). */
export interface VenueOrderSnapshot {
  readonly orderId: string;
  readonly clientOrderId: string | null;
  readonly marketSlug: string;
  readonly tokenId: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly remainingRaw: number;
  readonly status: VenueOrderStatus;
  readonly createdAtMs: number;
  /** Fills the lookup reported (may be empty: fills normally arrive as settlement events). */
  readonly fills: readonly VenueFill[];
}

export type CancelFailureReason = 'not-found' | 'already-canceled' | 'market-resolved' | 'unauthorized' | 'other';

export interface CancelFailure {
  readonly orderId: string;
  readonly reason: CancelFailureReason;
  readonly message: string;
}

/** Cancel answers (200 or 207): ids canceled and ids refused with a reason. */
export interface CancelResult {
  readonly canceled: readonly string[];
  readonly failed: readonly CancelFailure[];
}

export type StatusQuery = { readonly orderId: string } | { readonly clientOrderId: string };

export type StatusResult =
  | { readonly query: StatusQuery; readonly outcome: 'found'; readonly order: VenueOrderSnapshot }
  | { readonly query: StatusQuery; readonly outcome: 'not_found' }
  | { readonly query: StatusQuery; readonly outcome: 'invalid'; readonly message: string };

export interface ListOptions {
  /** Part of canceling (a leave, a shutdown's confirmation): cancel class, ahead of everything else. */
  readonly urgent?: boolean;
  /** A first quote waits for this listing (a start-up adoption listed before quoting): placement class. */
  readonly beforeFirstQuote?: boolean;
  /**
   * A deferred listing (src/orders/deferred-listing.ts), sent once its market's first quotes are out: probe class, ahead
   * of every requote, so the window in which an order the ledger does not know rests unmanaged stays bounded. Else: read class.
   */
  readonly deferred?: boolean;
}

/** The most order ids one POST /orders/batch-cancel request carries (the venue's API reference: up to 50). */
export const CANCEL_BATCH_MAX = 50;

/** The most items one statusBatch call may carry (POST /orders/status/batch takes 1–50). */
export const STATUS_BATCH_MAX = 50;

export interface VenuePort {
  placeOrder(request: PlaceRequest): Promise<PlaceResult>;
  /**
   * All ids belong to `marketSlug` (POST /orders/batch-cancel; the older POST /orders/cancel-batch where it is absent).
   * `options.beforeSend`: as PlaceRequest.beforeSend, for the call's first request (a call that has begun sending
   * completes); throwing `PlacementWithheldError` withholds the whole call unsent.
   */
  cancelOrders(marketSlug: string, orderIds: readonly string[], options?: CancelOptions): Promise<CancelResult>;
  /**
   * Optional: orders of several markets, by id (`byMarket`: each market's ids), in as few requests as the venue allows
   * (POST /orders/batch-cancel, up to 50 ids a request: one request may span markets where the venue accepts it, which
   * the adapter detects on the first such request and remembers, falling back to one request per market). Errors as
   * `cancelOrders`. Without it the caller cancels market by market.
   */
  cancelAcrossMarkets?(byMarket: ReadonlyMap<string, readonly string[]>): Promise<CancelResult>;
  /**
   * Optional: one order by its clientOrderId (POST /orders/cancel): an order whose placement answer was lost has no
   * known order id. `canceled` holds the clientOrderId when the venue canceled it; `failed` names it by clientOrderId
   * (`CancelFailure.orderId` carries the id as sent). Errors as `cancelOrders`.
   */
  cancelByClientOrderId?(marketSlug: string, clientOrderId: string): Promise<CancelResult>;
  /**
   * Cancel-replace (POST /orders/cancel-replace/batch): per item, cancel `cancelOrderId` then place `place`, in one
   * request. Optional: an adapter without it (or a venue answering 404 for the endpoint: `CancelReplaceUnsupportedError`)
   * makes the executor use cancels and placements.
   */
  cancelReplace?(request: CancelReplaceBatch): Promise<readonly CancelReplaceItemResult[]>;
  /**
   * Optional: cancel-replace batches of several markets in one request (src/orders/cross-market-venue.ts gathers them;
   * the adapter, the engine's port and the latency model offer it).
   */
  readonly crossMarket?: CrossMarketCancelReplace;
  /**
   * True when `cancelReplace` calls of different markets are gathered into shared requests (the cross-market batcher):
   * then placements into empty slots go as cancel-replace operations too (`orders.batchPlacements: auto`).
   */
  readonly gathersAcrossMarkets?: boolean;
  /** Every open order of the account in the market (DELETE /orders/all/{slug}). */
  cancelAll(marketSlug: string): Promise<CancelResult>;
  /** 1–50 queries; one result per query, in the same order. */
  statusBatch(queries: readonly StatusQuery[], options?: StatusOptions): Promise<readonly StatusResult[]>;
  /**
   * The account's LIVE orders in the market. `urgent`: the listing confirms cancels (a leave, a shutdown) and goes at
   * cancel priority, ahead of placements; a routine resync does not.
   */
  listLiveOrders(marketSlug: string, options?: ListOptions): Promise<readonly VenueOrderSnapshot[]>;
  maintenanceStatus(): Promise<MaintenanceStatus>;
}

export type VenueOperation = 'placeOrder' | 'cancelOrders' | 'cancelAcrossMarkets' | 'cancelByClientOrderId' | 'cancelAll' | 'cancelReplace' | 'statusBatch' | 'listLiveOrders' | 'maintenanceStatus';

export type CancelReplaceMode = 'STOP_ON_FAILURE' | 'ALLOW_FAILURE';

/** The most operations one POST /orders/cancel-replace/batch carries (the simulator's limit; the live venue documents none). */
export const MAX_CANCEL_REPLACE_OPERATIONS = 50;

/**
 * One slot's operation: cancel the old order, then place the new one. `cancelOrderId: null` is a placement into an
 * empty slot sent as a cancel-replace operation: its cancel target is the new order's own clientOrderId (no such order
 * exists yet, so the cancel half fails and touches nothing) and it goes with mode ALLOW_FAILURE, whatever the batch's
 * mode (the venue then places it anyway): see `operationMode`.
 */
export interface CancelReplaceItem {
  readonly cancelOrderId: string | null;
  readonly place: Omit<PlaceRequest, 'beforeSend'>;
}

export interface CancelReplaceBatch {
  readonly marketSlug: string;
  readonly items: readonly CancelReplaceItem[];
  /** STOP_ON_FAILURE: an item whose cancel failed places nothing (never two orders in one slot). */
  readonly mode: CancelReplaceMode;
  /** As PlaceRequest.beforeSend: throwing `PlacementWithheldError` cancels the whole request unsent. */
  readonly beforeSend?: () => void;
  /**
   * How much sending this batch first is worth (src/orders/batch-urgency.ts; default 0): the cross-market batcher
   * fills a request with the most urgent batches first.
   */
  readonly urgency?: number;
}

/** The mode an item goes with: a placement item (no order to cancel) ALLOW_FAILURE, a replacement the batch's mode. */
export function operationMode(item: CancelReplaceItem, batchMode: CancelReplaceMode): CancelReplaceMode {
  return item.cancelOrderId === null ? 'ALLOW_FAILURE' : batchMode;
}

/** A batch readied for a cross-market request by the port that sends it (its orders signed): see `CrossMarketCancelReplace`. */
export interface PreparedBatch {
  readonly batch: Omit<CancelReplaceBatch, 'beforeSend'>;
}

/** One prepared batch's answer in a cross-market request: one result per item, in item order. */
export interface PreparedBatchAnswer {
  readonly batch: PreparedBatch;
  readonly results: readonly CancelReplaceItemResult[];
}

/**
 * Cancel-replace batches of several markets in one POST /orders/cancel-replace/batch (each operation names its own
 * `replacement.marketSlug` and mode).
 *
 * - `prepare` readies one market's batch ahead of sending (signs its orders); it throws, for that batch alone, what
 *   `cancelReplace` would throw before sending (a market the port does not know, an order that cannot be built).
 * - `send` sends ONE request. `take` is called right before each attempt leaves (after the rate limiter's wait; again
 *   before a retry) and returns the prepared batches this attempt carries, in order (at most
 *   MAX_CANCEL_REPLACE_OPERATIONS operations in all); what it throws cancels the request unsent; an empty answer
 *   sends nothing and resolves `[]`. The answer is one entry per batch of the last attempt, in take order. A failure of
 *   the whole request throws as `cancelReplace` does, plus `MixedMarketsRefusedError` when the venue refused a request
 *   naming several markets. `request.cancels` (default true): whether the request is expected to carry cancels (the
 *   rate limiter starts those first); a request of placements only waits its turn with the account's placements.
 */
export interface CrossMarketCancelReplace {
  prepare(batch: Omit<CancelReplaceBatch, 'beforeSend'>): Promise<PreparedBatch>;
  send(take: () => readonly PreparedBatch[], request?: { readonly cancels: boolean }): Promise<readonly PreparedBatchAnswer[]>;
}

/** The cancel half's outcome: SUCCESS (gone), FAILURE (refused, still as it was), UNKNOWN (may or may not be gone). */
export type CancelHalfStatus = 'SUCCESS' | 'FAILURE' | 'UNKNOWN';
/** The placement half's outcome; NOT_ATTEMPTED when the cancel failed under STOP_ON_FAILURE. */
export type ReplacementHalfStatus = 'SUCCESS' | 'FAILURE' | 'UNKNOWN' | 'NOT_ATTEMPTED';

/** One item's answer, in request order. */
export interface CancelReplaceItemResult {
  readonly cancelOrderId: string | null;
  readonly cancel: { readonly status: CancelHalfStatus; readonly reason: string | null };
  readonly replacement: {
    readonly status: ReplacementHalfStatus;
    readonly clientOrderId: string;
    /** The accepted order (SUCCESS only). */
    readonly placed: PlaceResult | null;
    readonly reason: string | null;
  };
}

/**
 * Base of every error a VenuePort adapter throws. Messages never carry secrets (the client scrubs them). An adapter
 * that maps a client error onto one of these passes it as `cause`.
 */
export abstract class VenuePortError extends Error {
  abstract readonly kind: string;
  constructor(
    readonly operation: VenueOperation,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export class OutcomeUnknownError extends VenuePortError {
  override readonly name: string = 'OutcomeUnknownError';
  readonly kind = 'outcome-unknown';
  constructor(
    operation: VenueOperation,
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(operation, `${operation}: outcome unknown (${detail})`, options);
  }
}

/**
 * A 503 without the trading-mode body on a trading request, while the maintenance status (refreshed at once) lets the
 * action through: a server error, so the outcome is unknown (an OutcomeUnknownError: looked up by clientOrderId); the
 * executor also holds placements one poll interval (no loop of 503s). When the refreshed mode refuses the action, the
 * adapter throws TradingModeError instead (the venue's documented refusal: src/venue/unavailable-answer.ts).
 */
export class ServiceUnavailableError extends OutcomeUnknownError {
  override readonly name: string = 'ServiceUnavailableError';
  constructor(operation: VenueOperation, detail: string, options?: ErrorOptions) {
    super(operation, `503 without a trading-mode body: ${detail}`, options);
  }
}

export class TradingModeError extends VenuePortError {
  override readonly name = 'TradingModeError';
  readonly kind = 'trading-mode';
  constructor(
    operation: VenueOperation,
    readonly mode: TradingMode,
    readonly resumeAtMs: number | null,
    /** The venue's mode string when it is none of the four (then `mode` is its reading, `cancel_only`). */
    readonly unknownMode: string | null = null,
    options?: ErrorOptions,
  ) {
    super(operation, `${operation}: refused in trading mode ${mode}${resumeAtMs === null ? '' : ` until ${new Date(resumeAtMs).toISOString()}`}`, options);
  }
}

export class DuplicateClientOrderIdError extends VenuePortError {
  override readonly name = 'DuplicateClientOrderIdError';
  readonly kind = 'duplicate-client-order-id';
  constructor(
    readonly clientOrderId: string,
    options?: ErrorOptions,
  ) {
    super('placeOrder', `placeOrder: clientOrderId ${clientOrderId} already accepted (409)`, options);
  }
}

export class RateLimitedError extends VenuePortError {
  override readonly name = 'RateLimitedError';
  readonly kind = 'rate-limited';
  constructor(
    operation: VenueOperation,
    readonly retryAfterMs: number | null,
    options?: ErrorOptions,
  ) {
    super(operation, `${operation}: rate limited${retryAfterMs === null ? '' : ` (retry after ${retryAfterMs} ms)`}`, options);
  }
}

/**
 * The placement was withheld by its own `beforeSend` check: nothing was sent, nothing is pending. `abortsPlan`: the
 * rest of the plan is dropped (a trading mode that forbids it; default) or goes on (the bot stopping, or the market
 * past its stop before settlement: its later placements are withheld the same way, and its cancels still go).
 */
export class PlacementWithheldError extends VenuePortError {
  override readonly name = 'PlacementWithheldError';
  readonly kind = 'withheld';
  readonly abortsPlan: boolean;
  constructor(
    readonly reason: string,
    options: { readonly abortsPlan?: boolean; readonly operation?: VenueOperation } = {},
  ) {
    const operation = options.operation ?? 'placeOrder';
    super(operation, `${operation}: withheld before sending (${reason})`);
    this.abortsPlan = options.abortsPlan ?? reason !== 'stopping';
  }
}

export class OrderRejectedError extends VenuePortError {
  override readonly name = 'OrderRejectedError';
  readonly kind = 'rejected';
  constructor(
    /** A short stable reason, e.g. 'validation', 'post-only-would-cross', 'insufficient-balance', 'unauthorized'. */
    readonly reason: string,
    readonly detail: string,
    readonly status: number | null = null,
    options?: ErrorOptions,
  ) {
    super('placeOrder', `placeOrder: rejected (${reason}${status === null ? '' : `, HTTP ${status}`}): ${detail}`, options);
  }
}

/**
 * A post-only order refused because the book moved through its price before it arrived: routine for a maker (the
 * next requote prices from the new book), so it is logged at info and counted, not warned about.
 */
export function isPostOnlyCross(error: unknown): boolean {
  return error instanceof OrderRejectedError && error.reason === 'post-only-would-cross';
}

/**
 * 425 without the trading-mode body, and not a receive-window failure the client could re-stamp: a maintenance block
 * of unknown shape. Nothing took effect. The caller refreshes the maintenance status; it never retries blindly.
 */
export class MaintenanceBlockError extends VenuePortError {
  override readonly name = 'MaintenanceBlockError';
  readonly kind = 'maintenance-block';
  constructor(
    operation: VenueOperation,
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(operation, `${operation}: refused by a maintenance block (425 without a trading-mode body): ${detail}`, options);
  }
}

/** The venue does not offer cancel-replace (404 for the endpoint): nothing took effect. */
export class CancelReplaceUnsupportedError extends VenuePortError {
  override readonly name = 'CancelReplaceUnsupportedError';
  readonly kind = 'unsupported';
  constructor(
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super('cancelReplace', `cancelReplace: not offered by the venue (${detail})`, options);
  }
}

/**
 * The venue refused a cancel-replace request whose operations named several markets (a 400 naming
 * `operations[i].replacement.marketSlug`): nothing took effect; one market per request from then on.
 */
export class MixedMarketsRefusedError extends VenuePortError {
  override readonly name = 'MixedMarketsRefusedError';
  readonly kind = 'mixed-markets-refused';
  constructor(
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super('cancelReplace', `cancelReplace: the venue refused operations of several markets in one request (${detail})`, options);
  }
}

export class VenueRequestError extends VenuePortError {
  override readonly name = 'VenueRequestError';
  readonly kind = 'request-failed';
  constructor(
    operation: VenueOperation,
    readonly status: number | null,
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(operation, `${operation}: failed${status === null ? '' : ` (HTTP ${status})`}: ${detail}`, options);
  }
}

export type VenueError =
  | OutcomeUnknownError
  | TradingModeError
  | DuplicateClientOrderIdError
  | RateLimitedError
  | OrderRejectedError
  | MaintenanceBlockError
  | CancelReplaceUnsupportedError
  | MixedMarketsRefusedError
  | VenueRequestError;

export function isVenueError(error: unknown): error is VenueError {
  return error instanceof VenuePortError;
}
