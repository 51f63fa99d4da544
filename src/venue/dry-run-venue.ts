/**
 * Dry-run venue: placements and cancels are logged and counted but never sent; the trading mode is read from
 * the real venue, while order reads (status lookups, live orders) answer from the dry-run state, as nothing was
 * placed. It is how a user checks a config against the real venue before risking money.
 *
 * Invariant: no state-changing request leaves the process. A "placed" order rests only in the bot's own state
 * (as LIVE, with a synthetic id); "cancels" succeed locally: by id (in one market or across markets) every id named
 * is reported canceled; by clientOrderId one that rests here is canceled, any other is the venue's 404 (an error), as
 * POST /orders/cancel answers for an order it never accepted.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/index.js';
import type {
  CancelOptions,
  CancelResult,
  MaintenanceStatus,
  PlaceRequest,
  PlaceResult,
  StatusQuery,
  StatusResult,
  VenueOrderSnapshot,
  VenuePort,
} from '../orders/venue-port.js';
import { VenueRequestError } from '../orders/venue-port.js';

export class DryRunVenue implements VenuePort {
  private readonly resting = new Map<string, VenueOrderSnapshot>();

  constructor(
    private readonly real: VenuePort,
    private readonly log: Logger,
    private readonly metrics: Metrics,
    private readonly now: () => number = Date.now,
  ) {}

  async placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    const orderId = randomUUID();
    this.log.info({ dryRun: true, market: request.marketSlug, clientOrderId: request.clientOrderId, token: request.token, side: request.side, price: request.priceTicks / 1000, size: request.sizeRaw / 1e6, postOnly: request.postOnly }, 'dry-run: would place');
    this.metrics.riskBlocked(request.marketSlug, 'dry-run-place');
    this.resting.set(orderId, {
      orderId,
      clientOrderId: request.clientOrderId,
      marketSlug: request.marketSlug,
      tokenId: request.tokenId,
      side: request.side,
      priceTicks: request.priceTicks,
      sizeRaw: request.sizeRaw,
      remainingRaw: request.sizeRaw,
      status: 'LIVE',
      createdAtMs: this.now(),
      fills: [],
    });
    return { orderId, status: 'LIVE', remainingRaw: request.sizeRaw, fills: [], reason: null };
  }

  async cancelOrders(marketSlug: string, orderIds: readonly string[], options?: CancelOptions): Promise<CancelResult> {
    options?.beforeSend?.();
    this.log.info({ dryRun: true, market: marketSlug, orders: orderIds.length }, 'dry-run: would cancel');
    for (const id of orderIds) this.resting.delete(id);
    return { canceled: [...orderIds], failed: [] };
  }

  /** Orders of several markets: each market's as `cancelOrders` (a log line each). */
  async cancelAcrossMarkets(byMarket: ReadonlyMap<string, readonly string[]>): Promise<CancelResult> {
    const canceled: string[] = [];
    for (const [marketSlug, orderIds] of byMarket) if (orderIds.length > 0) canceled.push(...(await this.cancelOrders(marketSlug, orderIds)).canceled);
    return { canceled, failed: [] };
  }

  /** One order by its clientOrderId: the one resting here, else the venue's 404 (no such order was ever accepted). */
  async cancelByClientOrderId(marketSlug: string, clientOrderId: string): Promise<CancelResult> {
    const order = [...this.resting.values()].find((o) => o.clientOrderId === clientOrderId);
    if (order === undefined) throw new VenueRequestError('cancelByClientOrderId', 404, `${marketSlug}: no order with clientOrderId ${clientOrderId} (dry run)`);
    this.log.info({ dryRun: true, market: marketSlug, clientOrderId }, 'dry-run: would cancel by clientOrderId');
    this.resting.delete(order.orderId);
    return { canceled: [clientOrderId], failed: [] };
  }

  async cancelAll(marketSlug: string): Promise<CancelResult> {
    const ids = [...this.resting.values()].filter((o) => o.marketSlug === marketSlug).map((o) => o.orderId);
    return this.cancelOrders(marketSlug, ids);
  }

  async statusBatch(queries: readonly StatusQuery[]): Promise<readonly StatusResult[]> {
    return queries.map((query): StatusResult => {
      const order = [...this.resting.values()].find((o) => ('orderId' in query ? o.orderId === query.orderId : o.clientOrderId === query.clientOrderId));
      return order ? { query, outcome: 'found', order } : { query, outcome: 'not_found' };
    });
  }

  async listLiveOrders(marketSlug: string): Promise<readonly VenueOrderSnapshot[]> {
    return [...this.resting.values()].filter((o) => o.marketSlug === marketSlug);
  }

  maintenanceStatus(): Promise<MaintenanceStatus> {
    return this.real.maintenanceStatus();
  }
}
