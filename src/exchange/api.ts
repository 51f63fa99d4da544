/**
 * The venue's REST endpoints over an HttpTransport: arguments checked against the spec before anything is sent,
 * every answer validated (wire.ts, run inside `HttpTransport.request`, which reports each failure to the observer
 * once) and returned as typed domain values.
 *
 * Owns: paths, query parameters, priorities (cancel > place > read), which requests are signed, delegation per
 * endpoint (delegation.ts), and marking placements so that an answer the client cannot read is an unknown outcome.
 *
 * Invariants: a RequestInputError means nothing was sent; public endpoints are sent unsigned; path segments and
 * query values are encoded once and that exact text is what is signed.
 */
import { isAddress } from 'viem';
import { RequestInputError, endpointLabel, type EndpointRef } from './errors.js';
import { checkProfileId, delegationParts, placementOwnerId } from './delegation.js';
import { API_ENDPOINTS, type ApiEndpointRef } from './endpoints.js';
import { ALLOWANCE_TYPES, parseApiTokens, parseTradingAllowance, type AllowanceType, type ApiTokenInfo, type TradingAllowance } from './account-wire.js';
import { encodePathSegment, type HttpAnswer, type HttpTransport } from './http.js';
import type { RequestPriority } from './limiter.js';
import type { HistoryAmounts } from './history-amounts.js';
import { orderRequestBody, MAX_CLIENT_ORDER_ID_LENGTH, type SignedOrder } from './signer.js';
import {
  cancelReplaceBody,
  MAX_CANCEL_REPLACE_BATCH,
  parseCancelReplace,
  parseCancelReplaceBatch,
  type CancelReplaceOperation,
  type CancelReplaceOutcome,
} from './cancel-replace-wire.js';
import {
  DEFAULT_BOOK_SIZE_UNIT,
  ORDER_STATUSES,
  parseActiveMarkets,
  parseBatchCancel,
  parseCancel,
  parseMaintenance,
  parseMarket,
  parseMarketTrades,
  parseOrderbook,
  parsePlacement,
  parseHistoryPage,
  parsePortfolio,
  placePositions,
  parseProfile,
  parseRedeem,
  parseStatusBatch,
  parseUserOrders,
  parseTargetCancel,
  type ActiveMarketsPage,
  type CancelTargets,
  type TargetCancelResult,
  type BatchCancelResult,
  type BookSizeUnit,
  type CancelResult,
  type ClobPosition,
  type MaintenanceStatus,
  type Market,
  type MarketTradesPage,
  type OrderbookSnapshot,
  type OrderStatus,
  type OrderStatusResult,
  type PlacementResult,
  type HistoryPage,
  type KnownMarket,
  type PortfolioPositions,
  type Profile,
  type UserOrder,
} from './wire.js';

/** The spec's orderId pattern (UUID version 4). */
export const ORDER_ID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;
export const MAX_STATUS_BATCH = 50;
/** The most ids one POST /orders/batch-cancel takes (API reference). */
export const MAX_BATCH_CANCEL = 50;
export const MAX_USER_ORDERS_LIMIT = 200;
export const MAX_EVENTS_LIMIT = 100;
/** `limit` of GET /markets/active: at most 25 (the official client's ActiveMarketsParams). */
export const MAX_ACTIVE_MARKETS_LIMIT = 25;

export interface ExchangeApiOptions {
  readonly transport: HttpTransport;
  /** The caller's own profile id (`id` of GET /profiles/{address}): the ownerId of its orders. */
  readonly profileId?: number;
  /** A managed sub-account to act for (token needs `delegated_signing`). */
  readonly onBehalfOf?: number;
  /**
   * Unit of `size` in REST orderbook levels; default `raw` (1e6 integers), as every recorded answer of the live
   * venue sends them (docs/venue-facts.md). `shares` reads decimals in shares.
   */
  readonly bookSizeUnit?: BookSizeUnit;
  /** The unit of GET /portfolio/history amounts (./history-amounts.ts); default: raw. */
  readonly historyAmounts?: HistoryAmounts;
}

export interface UserOrdersQuery {
  /** Default (venue side): LIVE. Case-insensitive; sent upper case, one `statuses` parameter each. */
  readonly statuses?: readonly string[];
  /** 1 to 200; unbounded when omitted. */
  readonly limit?: number;
}

export interface PageQuery {
  readonly page?: number;
  readonly limit?: number;
}

export interface ActiveMarketsQuery extends PageQuery {
  readonly categoryId?: number;
}

/** A cancel-replace batch whose operations were taken when it left the rate limiter: what was sent, and the answers. */
export interface TakenCancelReplace {
  readonly operations: readonly CancelReplaceOperation[];
  readonly outcomes: readonly CancelReplaceOutcome[];
}

/** One item of POST /orders/status/batch. */
export type OrderLookup = { readonly orderId: string } | { readonly clientOrderId: string };

interface Call {
  readonly endpoint: ApiEndpointRef;
  readonly path: string;
  readonly query?: readonly (readonly [string, string])[];
  readonly body?: (nowMs: number) => unknown;
  readonly auth: boolean;
  readonly priority: RequestPriority;
  /** The clientOrderId an unknown outcome of this call carries (a placement's). */
  readonly clientOrderId?: string | null;
  readonly beforeSend?: () => void;
  readonly acceptStatuses?: readonly number[];
}

function checkSlug(slug: string): string {
  if (typeof slug !== 'string' || slug.trim() === '' || slug.length > 512) {
    throw new RequestInputError('slug', slug, 'must be a non-empty market slug');
  }
  return encodePathSegment(slug);
}

function checkOrderId(field: string, orderId: string): string {
  if (typeof orderId !== 'string' || !ORDER_ID_PATTERN.test(orderId)) {
    throw new RequestInputError(field, orderId, 'must be a UUID v4 order id');
  }
  return orderId;
}

function checkIntegerRange(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RequestInputError(field, value, `must be an integer in [${min}, ${max}]`);
  }
  return value;
}

function checkStatus(field: string, status: string): OrderStatus {
  const upper = typeof status === 'string' ? status.toUpperCase() : '';
  const found = ORDER_STATUSES.find((s) => s === upper);
  if (!found) throw new RequestInputError(field, status, `must be one of ${ORDER_STATUSES.join(', ')}`);
  return found;
}

export class ExchangeApi {
  readonly transport: HttpTransport;
  readonly profileId: number | null;
  readonly onBehalfOf: number | null;
  private readonly bookSizeUnit: BookSizeUnit;
  private readonly historyAmounts: HistoryAmounts | undefined;

  constructor(options: ExchangeApiOptions) {
    this.transport = options.transport;
    this.profileId = options.profileId === undefined ? null : checkProfileId('profileId', options.profileId);
    this.onBehalfOf = options.onBehalfOf === undefined ? null : checkProfileId('onBehalfOf', options.onBehalfOf);
    this.bookSizeUnit = options.bookSizeUnit ?? DEFAULT_BOOK_SIZE_UNIT;
    this.historyAmounts = options.historyAmounts;
  }

  /** GET /markets/{slug}: market details incl. venue (cache it: it is static per market). */
  /** GET /markets/{slug}; `priority: 'place'` for a read that a quote waits for (a market being joined). */
  async getMarket(slug: string, options: { readonly priority?: 'place' | 'read' } = {}): Promise<Market> {
    const path = `/markets/${checkSlug(slug)}`;
    return this.call({ endpoint: API_ENDPOINTS.getMarket, path, auth: false, priority: options.priority ?? 'read' }, (answer, endpoint) => parseMarket(answer.body, endpoint, answer.status));
  }

  /** GET /markets/active or /markets/active/{categoryId}. */
  async getActiveMarkets(query: ActiveMarketsQuery = {}): Promise<ActiveMarketsPage> {
    const params: [string, string][] = [];
    if (query.page !== undefined) params.push(['page', String(checkIntegerRange('page', query.page, 1, Number.MAX_SAFE_INTEGER))]);
    if (query.limit !== undefined) params.push(['limit', String(checkIntegerRange('limit', query.limit, 1, MAX_ACTIVE_MARKETS_LIMIT))]);
    const byCategory = query.categoryId !== undefined;
    return this.call(
      {
        endpoint: byCategory ? API_ENDPOINTS.getActiveMarketsByCategory : API_ENDPOINTS.getActiveMarkets,
        path: byCategory ? `/markets/active/${checkIntegerRange('categoryId', query.categoryId ?? 0, 1, Number.MAX_SAFE_INTEGER)}` : '/markets/active',
        query: params,
        auth: false,
        priority: 'read',
      },
      (answer, endpoint) => parseActiveMarkets(answer.body, endpoint, answer.status),
    );
  }

  /**
   * GET /markets/{slug}/orderbook: the YES book (NO folded in) in ticks and raw sizes. `priority: 'place'` sends it
   * ahead of queued placements (for a market without a usable book); routine checks stay at 'read'.
   */
  /**
   * GET /markets/{slug}/orderbook. `priority`: 'probe' for the watchdog's check of a quiet book, 'place' for a book a
   * quote waits for; `onSent` runs when the request leaves the limiter (its time in the bot's own queue is not the venue's).
   */
  async getOrderbook(slug: string, options: { readonly priority?: 'probe' | 'place' | 'read'; readonly onSent?: () => void } = {}): Promise<OrderbookSnapshot> {
    const path = `/markets/${checkSlug(slug)}/orderbook`;
    return this.call({ endpoint: API_ENDPOINTS.getOrderbook, path, auth: false, priority: options.priority ?? 'read', ...(options.onSent === undefined ? {} : { beforeSend: options.onSent }) }, (answer, endpoint) =>
      parseOrderbook(slug, answer.body, endpoint, answer.status, this.bookSizeUnit),
    );
  }

  /**
   * GET /markets/{slug}/user-orders: the effective profile's orders, newest first. `priority: 'cancel'` for the listing
   * that confirms a market emptied of the bot's orders (a leave, a shutdown): it is part of canceling and must not wait
   * behind placements; `'place'` for an adoption listing a market's first quote waits for.
   */
  async getUserOrders(slug: string, query: UserOrdersQuery = {}, options: { readonly priority?: RequestPriority } = {}): Promise<UserOrder[]> {
    const params: [string, string][] = (query.statuses ?? []).map((s, i) => ['statuses', checkStatus(`statuses[${i}]`, s)]);
    if (query.limit !== undefined) params.push(['limit', String(checkIntegerRange('limit', query.limit, 1, MAX_USER_ORDERS_LIMIT))]);
    const path = `/markets/${checkSlug(slug)}/user-orders`;
    return this.call({ endpoint: API_ENDPOINTS.getUserOrders, path, query: params, auth: true, priority: options.priority ?? 'read' }, (answer, endpoint) =>
      parseUserOrders(answer.body, endpoint, answer.status),
    );
  }

  /** GET /markets/{slug}/events: finalized trades, newest first (public). */
  async getMarketTrades(slug: string, query: PageQuery = {}): Promise<MarketTradesPage> {
    const page = query.page === undefined ? 1 : checkIntegerRange('page', query.page, 1, Number.MAX_SAFE_INTEGER);
    const params: [string, string][] = [];
    if (query.page !== undefined) params.push(['page', String(page)]);
    if (query.limit !== undefined) params.push(['limit', String(checkIntegerRange('limit', query.limit, 1, MAX_EVENTS_LIMIT))]);
    const path = `/markets/${checkSlug(slug)}/events`;
    return this.call({ endpoint: API_ENDPOINTS.getMarketTrades, path, query: params, auth: false, priority: 'read' }, (answer, endpoint) =>
      parseMarketTrades(answer.body, endpoint, answer.status, page),
    );
  }

  /**
   * POST /orders. Never retried after the request may have reached the venue: a timeout, lost connection, 5xx
   * or unreadable answer throws ExchangeOutcomeUnknownError (resolve it by clientOrderId); a 409 means a placement with
   * the same clientOrderId was already accepted (see isDuplicateOrderError).
   */
  /** `beforeSend` runs right before each attempt leaves (after the limiter's wait); what it throws cancels it unsent. */
  async placeOrder(order: SignedOrder, options: { readonly beforeSend?: () => void } = {}): Promise<PlacementResult> {
    const ownerId = placementOwnerId(this.profileId, this.onBehalfOf);
    const clientOrderId = order.options.clientOrderId;
    // The transport turns an answer that fails parsePlacement into ExchangeOutcomeUnknownError (kind `place`: retry-table.ts).
    return this.call(
      {
        endpoint: API_ENDPOINTS.placeOrder,
        path: '/orders',
        body: (nowMs) => orderRequestBody(order, ownerId, nowMs),
        auth: true,
        priority: 'place',
        clientOrderId,
        ...(options.beforeSend ? { beforeSend: options.beforeSend } : {}),
      },
      (answer, endpoint) => parsePlacement(answer.body, endpoint, answer.status),
    );
  }

  /**
   * POST /orders/cancel-replace: cancel one order, then place a signed one, in one request (priority cancel). Like a
   * placement, an answer that never came (timeout, 5xx, unreadable) is ExchangeOutcomeUnknownError: both halves unknown. The
   * venue answers 409 with the same body when a half did not succeed: that is an answer, not an error.
   */
  async cancelReplace(operation: CancelReplaceOperation, options: { readonly beforeSend?: () => void } = {}): Promise<CancelReplaceOutcome> {
    const body = this.cancelReplaceOperationBody(operation, 'operation');
    return this.call(
      {
        endpoint: API_ENDPOINTS.cancelReplace,
        path: '/orders/cancel-replace',
        body,
        auth: true,
        priority: 'cancel',
        clientOrderId: operation.order.options.clientOrderId,
        acceptStatuses: [409],
        ...(options.beforeSend ? { beforeSend: options.beforeSend } : {}),
      },
      (answer, endpoint) => parseCancelReplace(answer.body, endpoint, answer.status),
    );
  }

  /**
   * POST /orders/cancel-replace/batch: 1–50 operations in one request (one slot of the rate limiter, priority cancel),
   * answered per operation in request order. No answer (timeout, 5xx, unreadable) is ExchangeOutcomeUnknownError.
   */
  async cancelReplaceBatch(operations: readonly CancelReplaceOperation[], options: { readonly beforeSend?: () => void } = {}): Promise<CancelReplaceOutcome[]> {
    if (operations.length < 1 || operations.length > MAX_CANCEL_REPLACE_BATCH) {
      throw new RequestInputError('operations', `${operations.length} operations`, `must hold 1 to ${MAX_CANCEL_REPLACE_BATCH} operations`);
    }
    const bodies = operations.map((operation, i) => this.cancelReplaceOperationBody(operation, `operations[${i}]`));
    return this.call(
      {
        endpoint: API_ENDPOINTS.cancelReplaceBatch,
        path: '/orders/cancel-replace/batch',
        body: (nowMs) => ({ operations: bodies.map((build) => build(nowMs)) }),
        auth: true,
        priority: 'cancel',
        ...(options.beforeSend ? { beforeSend: options.beforeSend } : {}),
      },
      (answer, endpoint) => parseCancelReplaceBatch(answer.body, endpoint, answer.status, operations.length),
    );
  }

  /**
   * POST /orders/cancel-replace/batch whose operations are chosen when the request leaves the rate limiter: `take` runs
   * right before each attempt (after the limiter's wait; again before a retry) and returns the operations that attempt
   * carries (1–50; each names its own market, cancel target and mode). What `take` throws cancels the request unsent; an
   * empty or oversized answer is a RequestInputError, nothing sent. Priority cancel, or place for a request expected to
   * carry placements only. Resolves with the operations of the last attempt
   * and their outcomes, index-aligned; no answer (timeout, 5xx, unreadable) is ExchangeOutcomeUnknownError.
   */
  async cancelReplaceBatchTaken(take: () => readonly CancelReplaceOperation[], options: { readonly priority?: RequestPriority } = {}): Promise<TakenCancelReplace> {
    let operations: readonly CancelReplaceOperation[] = [];
    let bodies: readonly ((nowMs: number) => unknown)[] = [];
    const outcomes = await this.call(
      {
        endpoint: API_ENDPOINTS.cancelReplaceBatch,
        path: '/orders/cancel-replace/batch',
        beforeSend: () => {
          const chosen = take();
          if (chosen.length < 1 || chosen.length > MAX_CANCEL_REPLACE_BATCH) {
            throw new RequestInputError('operations', `${chosen.length} operations`, `must hold 1 to ${MAX_CANCEL_REPLACE_BATCH} operations`);
          }
          bodies = chosen.map((operation, i) => this.cancelReplaceOperationBody(operation, `operations[${i}]`));
          operations = chosen;
        },
        body: (nowMs) => ({ operations: bodies.map((build) => build(nowMs)) }),
        auth: true,
        priority: options.priority ?? 'cancel',
      },
      (answer, endpoint) => parseCancelReplaceBatch(answer.body, endpoint, answer.status, operations.length),
    );
    return { operations, outcomes };
  }

  private cancelReplaceOperationBody(operation: CancelReplaceOperation, field: string): (nowMs: number) => unknown {
    const cancel = 'orderId' in operation.cancel ? { orderId: checkOrderId(`${field}.cancel.orderId`, operation.cancel.orderId) } : operation.cancel;
    const ownerId = placementOwnerId(this.profileId, this.onBehalfOf);
    const delegated = this.onBehalfOf === null ? {} : { onBehalfOf: this.onBehalfOf };
    return (nowMs) => ({ ...cancelReplaceBody({ ...operation, cancel }, ownerId, nowMs), ...delegated });
  }

  /** DELETE /orders/{orderId}. */
  async cancelOrder(orderId: string): Promise<CancelResult> {
    const path = `/orders/${checkOrderId('orderId', orderId)}`;
    return this.call({ endpoint: API_ENDPOINTS.cancelOrder, path, auth: true, priority: 'cancel' }, (answer, endpoint) => parseCancel(answer.body, endpoint, answer.status));
  }

  /**
   * POST /orders/cancel-batch (ids of one market): 200, or 207 with the failures listed. `beforeSend` runs right before
   * each attempt leaves (after the limiter's wait); what it throws cancels it unsent.
   */
  async cancelOrders(orderIds: readonly string[], options: { readonly beforeSend?: () => void; readonly priority?: RequestPriority } = {}): Promise<BatchCancelResult> {
    if (orderIds.length === 0) throw new RequestInputError('orderIds', orderIds, 'must list at least one order id');
    const ids = orderIds.map((id, i) => checkOrderId(`orderIds[${i}]`, id));
    return this.call(
      { endpoint: API_ENDPOINTS.cancelOrders, path: '/orders/cancel-batch', body: () => ({ orderIds: ids }), auth: true, priority: options.priority ?? 'cancel', ...(options.beforeSend ? { beforeSend: options.beforeSend } : {}) },
      (answer, endpoint) => parseBatchCancel(answer.body, endpoint, answer.status, ids),
    );
  }

  /**
   * POST /orders/batch-cancel: 1–50 order ids OR clientOrderIds (the venue's current batch cancel; whether one request
   * may name orders of several markets is unconfirmed: the caller detects it). 200, or 207 with the failures listed.
   * `beforeSend` as for `cancelOrders`; `priority`: the limiter class (default cancel; the shutdown sweep's is `sweep`).
   */
  async batchCancel(targets: CancelTargets, options: { readonly beforeSend?: () => void; readonly priority?: RequestPriority } = {}): Promise<TargetCancelResult> {
    const [key, ids] = 'orderIds' in targets ? (['orderIds', targets.orderIds.map((id, i) => checkOrderId(`orderIds[${i}]`, id))] as const) : (['clientOrderIds', [...targets.clientOrderIds]] as const);
    if (ids.length < 1 || ids.length > MAX_BATCH_CANCEL) throw new RequestInputError(key, ids.length, `must list 1 to ${MAX_BATCH_CANCEL} ids`);
    return this.call(
      { endpoint: API_ENDPOINTS.batchCancel, path: '/orders/batch-cancel', body: () => ({ [key]: ids }), auth: true, priority: options.priority ?? 'cancel', ...(options.beforeSend ? { beforeSend: options.beforeSend } : {}) },
      (answer, endpoint) => parseTargetCancel(answer.body, endpoint, answer.status, ids),
    );
  }

  /** POST /orders/cancel: one order by its id or its clientOrderId (what an order whose placement answer was lost needs). */
  async cancelTarget(target: { readonly orderId: string } | { readonly clientOrderId: string }): Promise<TargetCancelResult> {
    const body = 'orderId' in target ? { orderId: checkOrderId('orderId', target.orderId) } : { clientOrderId: target.clientOrderId };
    const id = 'orderId' in body ? body.orderId : body.clientOrderId;
    return this.call({ endpoint: API_ENDPOINTS.cancelTarget, path: '/orders/cancel', body: () => body, auth: true, priority: 'cancel' }, (answer, endpoint) => parseTargetCancel(answer.body, endpoint, answer.status, [id]));
  }

  /** DELETE /orders/all/{slug}: every order of the effective profile in one market. */
  async cancelAll(slug: string): Promise<BatchCancelResult> {
    const path = `/orders/all/${checkSlug(slug)}`;
    return this.call({ endpoint: API_ENDPOINTS.cancelAll, path, auth: true, priority: 'cancel' }, (answer, endpoint) => parseBatchCancel(answer.body, endpoint, answer.status));
  }

  /** POST /orders/status/batch: 1–50 lookups by orderId or clientOrderId, results in request order. */
  async getOrderStatuses(items: readonly OrderLookup[], options: { readonly priority?: RequestPriority; readonly beforeSend?: () => void } = {}): Promise<OrderStatusResult[]> {
    if (items.length < 1 || items.length > MAX_STATUS_BATCH) {
      throw new RequestInputError('items', `${items.length} items`, `must hold 1 to ${MAX_STATUS_BATCH} lookups`);
    }
    const lookups = items.map((item, i) => {
      if ('orderId' in item) return { orderId: checkOrderId(`items[${i}].orderId`, item.orderId) };
      const id = item.clientOrderId;
      if (typeof id !== 'string' || id.length === 0 || id.length > MAX_CLIENT_ORDER_ID_LENGTH) {
        throw new RequestInputError(`items[${i}].clientOrderId`, id, `must be 1-${MAX_CLIENT_ORDER_ID_LENGTH} characters`);
      }
      return { clientOrderId: id };
    });
    return this.call(
      // Probe priority (default): an order whose outcome is unknown may be live, and its slot waits for the answer.
      { endpoint: API_ENDPOINTS.getOrderStatuses, path: '/orders/status/batch', body: () => ({ items: lookups }), auth: true, priority: options.priority ?? 'probe', ...(options.beforeSend ? { beforeSend: options.beforeSend } : {}) },
      (answer, endpoint) => parseStatusBatch(answer.body, endpoint, answer.status),
    );
  }

  /** GET /maintenance/status (public): active and scheduled trading restrictions. */
  async getMaintenanceStatus(): Promise<MaintenanceStatus> {
    return this.call({ endpoint: API_ENDPOINTS.getMaintenanceStatus, path: '/maintenance/status', auth: false, priority: 'read' }, (answer, endpoint) =>
      parseMaintenance(answer.body, endpoint, answer.status),
    );
  }

  /** GET /profiles/{address}: the profile id (ownerId) and rank.feeRateBps. Signed when credentials are set. */
  async getProfile(account: string): Promise<Profile> {
    if (typeof account !== 'string' || !isAddress(account, { strict: false })) throw new RequestInputError('address', account, 'is not an address');
    return this.call({ endpoint: API_ENDPOINTS.getProfile, path: `/profiles/${account}`, auth: this.transport.hasCredentials, priority: 'read' }, (answer, endpoint) =>
      parseProfile(answer.body, endpoint, answer.status),
    );
  }

  /**
   * GET /portfolio/positions: token balances of the effective profile from the answer's `clob` and `group` lists. A
   * market missing here is not known to hold 0 (see getPortfolio: it may be in no list at all). `known`: the markets a
   * position without a slug may be placed under, by condition id or address.
   */
  async getPositions(known: readonly KnownMarket[] = []): Promise<ClobPosition[]> {
    return [...(await this.getPortfolio(known)).clob];
  }

  /**
   * GET /portfolio/positions, every list (`clob`, `group`, `amm`) and the set of markets the answer mentions. A part
   * that cannot be read (an element, a figure) is left out and reported to the transport's observer with its path
   * (`onSkippedParts`), as is a position whose market has no slug and matches none of `known`.
   */
  async getPortfolio(known: readonly KnownMarket[] = []): Promise<PortfolioPositions> {
    return this.call({ endpoint: API_ENDPOINTS.getPositions, path: '/portfolio/positions', auth: true, priority: 'read' }, (answer, endpoint) => {
      const portfolio = placePositions(parsePortfolio(answer.body, endpoint, answer.status), known);
      this.transport.reportSkipped(endpoint, portfolio.skipped);
      return portfolio;
    });
  }

  /**
   * GET /portfolio/history: one page of the account's actions, newest first (`cursor`: the previous page's
   * `nextCursor`; absent for the first). Elements that cannot be read are left out and reported to the observer.
   */
  async getHistory(query: { readonly cursor?: string | null; readonly limit?: number } = {}): Promise<HistoryPage> {
    const limit = query.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new RequestInputError('limit', limit, 'must be an integer from 1 to 100');
    const params: [string, string][] = [['limit', String(limit)]];
    if (query.cursor !== undefined && query.cursor !== null && query.cursor !== '') params.unshift(['cursor', query.cursor]);
    return this.call({ endpoint: API_ENDPOINTS.getHistory, path: '/portfolio/history', query: params, auth: true, priority: 'read' }, (answer, endpoint) => {
      const page = parseHistoryPage(answer.body, endpoint, answer.status, this.historyAmounts);
      this.transport.reportSkipped(endpoint, page.skipped);
      return page;
    });
  }

  /** POST /portfolio/redeem: one resolved market's winning positions (server-managed wallets only). */
  async redeem(conditionId: string): Promise<Readonly<Record<string, unknown>> | null> {
    if (typeof conditionId !== 'string' || !CONDITION_ID.test(conditionId)) {
      throw new RequestInputError('conditionId', conditionId, 'must be 0x followed by 64 hex digits');
    }
    return this.call(
      { endpoint: API_ENDPOINTS.redeem, path: '/portfolio/redeem', body: () => ({ conditionId }), auth: true, priority: 'place' },
      (answer, endpoint) => parseRedeem(answer.body, endpoint, answer.status),
    );
  }

  /**
   * GET /portfolio/trading/allowance (read-only; used by `doctor`): the collateral allowance of the account for a
   * trading type, optionally for one spender (a market's `venue.exchange` or `venue.adapter`). The query names
   * `type` and `spender` are not shown in the spec (it names "a trading type" and "a spender address override").
   */
  async getTradingAllowance(query: { readonly type: AllowanceType; readonly spender?: string }): Promise<TradingAllowance> {
    if (!ALLOWANCE_TYPES.includes(query.type)) throw new RequestInputError('type', query.type, `must be one of ${ALLOWANCE_TYPES.join(', ')}`);
    const params: [string, string][] = [['type', query.type]];
    if (query.spender !== undefined) {
      if (typeof query.spender !== 'string' || !isAddress(query.spender, { strict: false })) throw new RequestInputError('spender', query.spender, 'is not an address');
      params.push(['spender', query.spender]);
    }
    return this.call({ endpoint: API_ENDPOINTS.getTradingAllowance, path: '/portfolio/trading/allowance', query: params, auth: true, priority: 'read' }, (answer, endpoint) =>
      parseTradingAllowance(answer.body, endpoint, answer.status),
    );
  }

  /** GET /auth/api-tokens (read-only; used by `doctor`): the caller's active API tokens with their scopes. */
  async listApiTokens(): Promise<ApiTokenInfo[]> {
    return this.call({ endpoint: API_ENDPOINTS.listApiTokens, path: '/auth/api-tokens', auth: true, priority: 'read' }, (answer, endpoint) =>
      parseApiTokens(answer.body, endpoint, answer.status),
    );
  }

  /**
   * Adds the endpoint's delegation parts, sends, and validates the answer with `read` inside the transport, which
   * reports every answer that fails validation to its observer (`onInvalidAnswer`) once.
   */
  private async call<T>(call: Call, read: (answer: HttpAnswer, endpoint: EndpointRef) => T): Promise<T> {
    const endpoint = call.endpoint;
    const delegation = delegationParts(endpointLabel(endpoint), this.onBehalfOf);
    const build = call.body;
    const hasBodyDelegation = Object.keys(delegation.body).length > 0;
    const body =
      build && hasBodyDelegation
        ? (nowMs: number): unknown => {
            const value = build(nowMs);
            return typeof value === 'object' && value !== null ? { ...value, ...delegation.body } : value;
          }
        : build;
    return this.transport.request(
      {
        method: endpoint.method,
        pathTemplate: endpoint.pathTemplate,
        path: call.path,
        query: [...(call.query ?? []), ...delegation.query],
        headers: delegation.headers,
        auth: call.auth,
        priority: call.priority,
        kind: endpoint.kind,
        ...(body ? { body } : {}),
        ...(call.clientOrderId === undefined ? {} : { clientOrderId: call.clientOrderId }),
        ...(call.beforeSend ? { beforeSend: call.beforeSend } : {}),
        ...(call.acceptStatuses ? { acceptStatuses: call.acceptStatuses } : {}),
      },
      read,
    );
  }
}
