/**
 * Outcome resolution: finds out what became of orders whose outcome is uncertain (a placement without an answer,
 * a 409, a cancel refused or unanswered, an order a listing no longer shows) by status lookups by orderId (else
 * clientOrderId), and applies what the venue reports to the tracked orders.
 *
 * Owns: the per-market lookup loop (timer, backoff, attempt count), the not_found grace that ends an unknown order
 * as lost, and `applyVenueReport` (a report and its fills → commits).
 *
 * Invariants: an unknown order is never rejected by a lookup: only `notFoundLimit` not_found answers, after
 * `notFoundGraceMs` since it became unknown, end it as lost (rejected, `lost: 'not-found-after-grace'`); an order
 * with a venue id that the venue no longer knows is gone (canceled); a lookup that finds a pending-cancel order
 * resting after a refused or uncertain cancel restores it (the cancel did not take); an order already terminal (its
 * fill or cancel reported by the feed) is not looked up, and no request goes when none is left; the loop re-arms with
 * exponential backoff (capped at `maxBackoffMs`) while anything still needs a lookup, and never once stopped; every
 * change goes through the executor's writer with the caller's origin.
 */
import { chunks } from '../core/maps.js';
import { errorText } from '../core/errors.js';
import { refusedByMode, type CommitOrigin, type ExecutorContext } from './executor-context.js';
import type { MarketState } from './market-state.js';
import { applyFill, applyReport, confirmCancel, markLost, recordLookupMiss, refuseCancel, type OrderReport, type TrackedOrder } from './order-record.js';
import { isTerminal } from './order-state.js';
import { PlacementWithheldError, STATUS_BATCH_MAX, type SettlementState, type StatusQuery, type StatusResult, type VenueOrderSnapshot } from './venue-port.js';

/** A fill as a venue report carries it (placement answer, lookup, listing). */
export interface ReportedFill {
  readonly tradeEventId: string;
  readonly sizeRaw: number;
  readonly priceTicks: number;
  readonly settlement: SettlementState;
}

/** Applies a venue report (placement answer, lookup, listing) and its fills to the order `clientOrderId`. */
export function applyVenueReport(
  ctx: Pick<ExecutorContext, 'orders' | 'writer' | 'scheduler' | 'markets'>,
  clientOrderId: string,
  report: OrderReport,
  fills: readonly ReportedFill[],
  origin: CommitOrigin,
  options: { readonly atPlacement?: boolean } = {},
): void {
  const { orders, writer, scheduler } = ctx;
  let current = orders.get(clientOrderId);
  if (current === undefined) return;
  if (current.state === 'pending-cancel' && report.status === 'LIVE' && current.orderId !== null && ctx.markets.get(current.marketSlug)?.awaitsLookup(clientOrderId)) {
    // A lookup after a refused or uncertain cancel finds it resting: the cancel did not take.
    current = writer.commit(current, applyReport(current, report, scheduler.now()), origin);
    current = writer.commit(current, refuseCancel(current, scheduler.now()), origin);
  } else {
    current = writer.commit(current, applyReport(current, report, scheduler.now(), { atPlacement: options.atPlacement ?? false }), origin);
  }
  for (const fill of fills) {
    const latest = orders.get(clientOrderId) ?? current;
    writer.commit(latest, applyFill(latest, fill, scheduler.now(), scheduler.now()), origin);
  }
}

export class OutcomeResolver {
  constructor(private readonly ctx: ExecutorContext) {}

  /** The wait before lookup attempt `attempt` (0-based): doubling from `initialBackoffMs`, capped at `maxBackoffMs`. */
  backoff(attempt: number): number {
    const { maxBackoffMs, initialBackoffMs } = this.ctx.settings;
    return Math.min(maxBackoffMs, initialBackoffMs * 2 ** Math.min(attempt, 30));
  }

  /** Arms the market's lookup loop in `delayMs` (default: the initial backoff); no-op when armed or stopped. */
  scheduleResolve(market: MarketState, delayMs: number = this.ctx.settings.initialBackoffMs): void {
    if (market.lookupArmed || this.ctx.lifecycle() === 'stopped') return;
    market.armLookup(this.ctx.scheduler, delayMs, () => {
      this.resolveLoop(market).catch((error: unknown) => this.ctx.log.error({ market: market.slug, err: errorText(error, { withName: true }) }, 'status lookup loop failed'));
    });
  }

  /** Open orders of the market whose outcome is unknown or that were marked for a lookup. */
  needsLookup(market: MarketState): TrackedOrder[] {
    return this.ctx.orders.openInMarket(market.slug).filter((o) => o.state === 'unknown' || market.awaitsLookup(o.clientOrderId));
  }

  /**
   * One lookup pass over every order of the market that needs one (origin `lookup`: the background loop; the shutdown
   * sweep's passes are `shutdown`). Resolves false if a lookup request failed.
   */
  async resolveOnce(market: MarketState, origin: CommitOrigin = 'lookup'): Promise<boolean> {
    const targets = this.needsLookup(market);
    if (targets.length === 0) return true;
    return this.lookupNow(market, targets, origin, { followUp: false });
  }

  /**
   * Looks orders up (by orderId when known, else clientOrderId) and applies the answers under `origin`; orders already
   * terminal are left out (no request when none is left). Whatever is still unresolved goes to the background loop
   * unless `followUp` is false. Resolves false if a request failed.
   */
  async lookupNow(market: MarketState, orders: readonly TrackedOrder[], origin: CommitOrigin, options: { readonly followUp?: boolean } = {}): Promise<boolean> {
    let ok = true;
    // An order that ended meanwhile (its fill or cancel reported by the feed) has nothing left to find out: no request.
    for (const batch of chunks(this.stillOpen(orders), STATUS_BATCH_MAX)) ok = (await this.lookupBatch(market.slug, batch, origin)) !== null && ok;
    if (options.followUp !== false && this.needsLookup(market).length > 0) this.scheduleResolve(market);
    return ok;
  }

  /**
   * Looks up orders of any markets, up to STATUS_BATCH_MAX to a request (the shutdown sweep's confirmation), and applies
   * the answers under `origin`. `notResting`: the clientOrderIds the venue answered for and that do not rest there
   * (found and not LIVE, or not found: an unknown placement the venue does not know never rested); `failed`: a request failed.
   */
  async lookupAcross(orders: readonly TrackedOrder[], origin: CommitOrigin): Promise<{ readonly notResting: ReadonlySet<string>; readonly failed: boolean }> {
    const notResting = new Set<string>();
    let failed = false;
    for (const batch of chunks(this.stillOpen(orders), STATUS_BATCH_MAX)) {
      const results = await this.lookupBatch(batch[0]?.marketSlug ?? '', batch, origin);
      if (results === null) failed = true;
      else batch.forEach((order, index) => {
        const result = results[index];
        if (result !== undefined && (result.outcome === 'not_found' || (result.outcome === 'found' && result.order.status !== 'LIVE'))) notResting.add(order.clientOrderId);
      });
    }
    return { notResting, failed };
  }

  /**
   * Orders whose placement outcome is unknown (no order id: the answer was lost), canceled by their clientOrderId
   * (`VenuePort.cancelByClientOrderId`, one request each, where the port offers it and the gate allows cancels) rather
   * than waited for: whatever the venue holds under that id stops resting. Those the venue canceled are looked up at
   * once (their order id and any fill before the cancel); a refused one ("not found": never accepted, or still on its
   * way) stays unknown for the lookups and their grace, never ended on that answer alone. Returns the clientOrderIds
   * the venue canceled.
   */
  async cancelUnknown(market: MarketState, orders: readonly TrackedOrder[], origin: CommitOrigin): Promise<ReadonlySet<string>> {
    const { venue, gate, observer, log } = this.ctx;
    const canceled = new Set<string>();
    const cancel = venue.cancelByClientOrderId?.bind(venue);
    if (cancel === undefined) return canceled;
    for (const order of orders) {
      const current = this.ctx.orders.get(order.clientOrderId);
      if (current?.state !== 'unknown' || current.orderId !== null || !gate.allowsCancel()) continue;
      try {
        const result = await cancel(market.slug, order.clientOrderId);
        if (result.canceled.includes(order.clientOrderId)) canceled.add(order.clientOrderId);
        log.info({ market: market.slug, clientOrderId: order.clientOrderId, canceled: canceled.has(order.clientOrderId) }, 'unknown placement canceled by its clientOrderId');
      } catch (error) {
        observer.onRequestError('cancelByClientOrderId', market.slug, error);
        refusedByMode(this.ctx, error, 'cancel');
      }
    }
    const found = orders.filter((o) => canceled.has(o.clientOrderId));
    if (found.length > 0) await this.lookupNow(market, found, origin);
    return canceled;
  }

  private stillOpen(orders: readonly TrackedOrder[]): TrackedOrder[] {
    return orders.filter((o) => !isTerminal((this.ctx.orders.get(o.clientOrderId) ?? o).state));
  }

  /** One status request (its error counted against `errorSlug`); applies and reports each answer by market. Null when it failed. */
  private async lookupBatch(errorSlug: string, batch: readonly TrackedOrder[], origin: CommitOrigin): Promise<readonly StatusResult[] | null> {
    const queries: StatusQuery[] = batch.map((o) => (o.orderId !== null ? { orderId: o.orderId } : { clientOrderId: o.clientOrderId }));
    let results: readonly StatusResult[];
    try {
      // The shutdown's confirmations go ahead of the plans' own lookups still queued (limiter class `sweep`); a plan's,
      // a resync's or the background loop's lookup still queued once the shutdown sweeps is moot (the sweep cancels and
      // looks up every order of the bot) and is withheld as it leaves, taking no start.
      const moot = origin === 'plan-lookup' || origin === 'resync' || origin === 'lookup';
      const beforeSend = (): void => {
        if (moot && this.ctx.sweeping()) throw new PlacementWithheldError('stopping', { operation: 'statusBatch' });
      };
      results = await this.ctx.venue.statusBatch(queries, { sweep: origin === 'shutdown', beforeSend });
    } catch (error) {
      if (!(error instanceof PlacementWithheldError)) this.ctx.observer.onRequestError('statusBatch', errorSlug, error);
      return null;
    }
    const counts = new Map<string, { found: number; notFound: number }>();
    batch.forEach((order, index) => {
      const result = results[index];
      const market = this.ctx.markets.get(order.marketSlug);
      if (result === undefined || market === undefined) return;
      const count = counts.get(market.slug) ?? { found: 0, notFound: 0 };
      if (result.outcome === 'found') count.found += 1;
      else count.notFound += 1;
      counts.set(market.slug, count);
      this.applyLookup(market, order.clientOrderId, result, origin);
    });
    for (const [slug, { found, notFound }] of counts) this.ctx.observer.onLookup(slug, found, notFound);
    return results;
  }

  private async resolveLoop(market: MarketState): Promise<void> {
    if (!market.beginLookupPass()) return;
    let ok = false;
    try {
      ok = await this.resolveOnce(market);
    } finally {
      market.endLookupPass();
    }
    if (this.needsLookup(market).length > 0) {
      const attempt = market.nextLookupAttempt();
      // Stopped meanwhile: the lookup's request may have been refused unsent by the closing client; nothing retries.
      if (!ok && this.ctx.lifecycle() !== 'stopped' && !this.ctx.sweeping()) this.ctx.log.warn({ market: market.slug, attempt }, 'status lookup failed; retrying');
      this.scheduleResolve(market, this.backoff(attempt));
    } else {
      market.resetLookupAttempts();
    }
  }

  private applyLookup(market: MarketState, clientOrderId: string, result: StatusResult, origin: CommitOrigin): void {
    const { orders, writer, scheduler, settings, log } = this.ctx;
    const current = orders.get(clientOrderId);
    if (current === undefined || isTerminal(current.state)) return;
    const now = scheduler.now();
    if (result.outcome === 'found') {
      const snapshot = result.order;
      this.warnIfDifferent(current, snapshot);
      applyVenueReport(this.ctx, clientOrderId, { orderId: snapshot.orderId, status: snapshot.status, remainingRaw: snapshot.remainingRaw, reason: null }, snapshot.fills, origin);
      return;
    }
    if (result.outcome === 'invalid') log.warn({ market: market.slug, clientOrderId, message: result.message }, 'status lookup answered invalid');
    if (current.state === 'unknown' || current.state === 'pending-new') {
      const missed = recordLookupMiss(current, now);
      writer.noteLookupMiss(missed);
      const since = missed.unknownSinceMs ?? now;
      if (missed.lookupMisses >= settings.notFoundLimit && now - since >= settings.notFoundGraceMs) {
        log.warn({ market: market.slug, clientOrderId, misses: missed.lookupMisses }, 'unknown order not found: marked lost');
        writer.commit(missed, markLost(missed, now, 'not-found-after-grace'), origin);
      }
      return;
    }
    // An order with a venue id that the venue no longer knows is gone.
    writer.commit(current, confirmCancel(current, 'not found on the venue', now), origin);
  }

  private warnIfDifferent(order: TrackedOrder, snapshot: VenueOrderSnapshot): void {
    if (snapshot.tokenId === order.tokenId && snapshot.side === order.side && snapshot.priceTicks === order.priceTicks && snapshot.sizeRaw === order.sizeRaw) return;
    this.ctx.log.error(
      { clientOrderId: order.clientOrderId, orderId: snapshot.orderId, venue: { tokenId: snapshot.tokenId, side: snapshot.side, priceTicks: snapshot.priceTicks, sizeRaw: snapshot.sizeRaw } },
      'venue order under this clientOrderId differs from what was sent',
    );
  }
}
