/**
 * Start-up and resync of a market: reads its live orders from the venue, adopts the bot's own, applies what the
 * listing says of tracked ones, looks up the tracked ones it no longer lists, and cancels what startup.ts says to.
 *
 * Owns: the sync of one market (run on the market's queue), the resync requests, adoption of a venue order into
 * the tracked orders, and best-effort cancels by venue id (also used by shutdown).
 *
 * Invariants: a market is ready (quotable) only after a successful listing, or, joined while running, on the caller's
 * evidence that no order of the bot can be there (`readyWithoutListing`); a start-up that cannot list leaves it
 * blocked until a resync succeeds; at most one resync is queued per market at a time; the listing and its lookups
 * commit with origin `startup` / `resync` (news from outside a plan), the cancels with `sync-cancel` or `shutdown`;
 * cancels are sent only while the trading-mode gate allows them (shutdown's first attempt excepted).
 */
import { chunks } from '../core/maps.js';
import { errorText } from '../core/errors.js';
import type { Outcome } from '../core/venue-rules/index.js';
import { refusedByMode, sleep, type CommitOrigin, type ExecutorContext } from './executor-context.js';
import type { MarketSyncReport } from './executor-types.js';
import type { MarketState } from './market-state.js';
import { adoptedOrder, confirmCancel } from './order-record.js';
import { isOpen, isResting } from './order-state.js';
import { applyVenueReport, type OutcomeResolver } from './outcome-resolver.js';
import type { TrackedOrder } from './order-record.js';
import { adopt, type AdoptionPlan } from './startup.js';
import type { CancelResult, ListOptions, VenueOrderSnapshot } from './venue-port.js';

export type SyncReason = 'startup' | 'resync';

/** Who sends best-effort cancels by venue id: start-up / resync, or shutdown. */
export type CancelOrigin = Extract<CommitOrigin, 'sync-cancel' | 'shutdown'>;

export class MarketSync {
  constructor(
    private readonly ctx: ExecutorContext,
    private readonly resolver: OutcomeResolver,
    /** Re-runs the market's latest intents (plan-runner.ts). */
    private readonly kick: (market: MarketState) => void,
  ) {}

  /** Queues a resync of the market unless one is queued already (only while running). */
  requestResync(market: MarketState): void {
    if (this.ctx.lifecycle() !== 'running' || !market.claimResync()) return;
    market.queue
      .add(() => this.syncMarket(market, 'resync'))
      .catch((error: unknown) => this.ctx.log.error({ market: market.slug, err: errorText(error, { withName: true }) }, 'resync failed'));
  }

  async syncMarket(market: MarketState, reason: SyncReason): Promise<MarketSyncReport> {
    const { orders, log, settings } = this.ctx;
    market.syncStarted();
    const slug = market.slug;
    // A start-up listing is one the market's first quote waits for (placement class); a resync's is routine (read).
    const listed = await this.listWithRetry(market, reason === 'startup' ? settings.startupAttempts : 1, { beforeFirstQuote: reason === 'startup' });
    if (listed instanceof Error) {
      log.error({ market: slug, err: errorText(listed, { withName: true }) }, `${reason}: could not list live orders; market not quoted until a resync succeeds`);
      if (reason === 'startup') market.block();
      return { marketSlug: slug, ok: false, adopted: 0, canceled: 0, foreign: 0, error: errorText(listed, { withName: true }) };
    }
    const plan = this.plan(market, listed, orders.openInMarket(slug));
    this.take(market, listed, plan);
    for (const snapshot of plan.known) {
      const order = orders.find(snapshot.orderId, snapshot.clientOrderId);
      if (order !== undefined) applyVenueReport(this.ctx, order.clientOrderId, { orderId: snapshot.orderId, status: 'LIVE', remainingRaw: snapshot.remainingRaw, reason: null }, snapshot.fills, reason);
    }
    if (reason === 'resync') {
      // Tracked orders the venue no longer lists ended while we were not looking: find out how.
      const listedIds = new Set(listed.map((s) => s.orderId));
      const vanished = orders.openInMarket(slug).filter((o) => o.orderId !== null && (isResting(o.state) || o.state === 'pending-cancel') && !listedIds.has(o.orderId));
      for (const order of vanished) market.markForLookup(order.clientOrderId);
      if (vanished.length > 0) await this.resolver.lookupNow(market, vanished, 'resync');
    }
    const canceled = await this.cancelUnwanted(market, plan, reason);
    market.markReady();
    if (reason === 'resync') this.kick(market);
    return { marketSlug: slug, ok: true, adopted: plan.adopt.length, canceled, foreign: plan.foreign.length, error: null };
  }

  /** A market no order of the bot can be in (`MarketRef.noOwnOrders`, the caller's evidence): ready without a listing. */
  readyWithoutListing(market: MarketState, evidence: string): MarketSyncReport {
    market.syncStarted();
    this.ctx.log.info({ market: market.slug, evidence }, 'joined without listing its orders: no order of the bot can be there');
    market.markReady();
    return { marketSlug: market.slug, ok: true, adopted: 0, canceled: 0, foreign: 0, error: null };
  }

  /**
   * A market the caller lets quote before its own-order listing (`deferListing`: the ledger knows no open order of the
   * bot there): ready at once; deferred-listing.ts lists it afterwards and hands the listing to `applyDeferredListing`.
   */
  readyBeforeListing(market: MarketState): MarketSyncReport {
    market.syncStarted();
    market.markReady();
    return { marketSlug: market.slug, ok: true, adopted: 0, canceled: 0, foreign: 0, error: null, deferred: true };
  }

  /**
   * Applies a deferred start-up listing (run on the market's queue; the listing was read off it, since `listedAtMs`):
   * the bot's orders it shows that this run does not know are adopted or canceled exactly as at start-up. This run's
   * own orders — open now, or ended since the listing was asked for (it may still show them LIVE) — are known and left
   * to their own events and lookups: a listing read before the queue reached it is no news about them.
   */
  async applyDeferredListing(market: MarketState, listed: readonly VenueOrderSnapshot[], listedAtMs: number): Promise<MarketSyncReport> {
    const known = this.ctx.orders.inMarket(market.slug).filter((o) => isOpen(o.state) || o.updatedAtMs >= listedAtMs);
    const plan = this.plan(market, listed, known);
    this.take(market, listed, plan);
    const canceled = await this.cancelUnwanted(market, plan, 'deferred listing');
    // An adopted order is reconciled with the market's intents at once (replaced if it does not fit).
    if (plan.adopt.length > 0) this.kick(market);
    return { marketSlug: market.slug, ok: true, adopted: plan.adopt.length, canceled, foreign: plan.foreign.length, error: null, deferred: true };
  }

  /** The adoption plan of a listing: `tracked` are the orders it may name that the bot follows already (their slots occupied while open). */
  private plan(market: MarketState, listed: readonly VenueOrderSnapshot[], tracked: readonly TrackedOrder[]): AdoptionPlan {
    const { ids, settings } = this.ctx;
    return adopt({
      marketSlug: market.slug,
      tokens: market.ref.tokens,
      botTag: ids.botTag,
      liveOrders: listed,
      foreignPolicy: settings.foreignPolicy,
      trackedOrderIds: new Set(tracked.flatMap((o) => (o.orderId === null ? [] : [o.orderId]))),
      trackedClientOrderIds: new Set(tracked.map((o) => o.clientOrderId)),
      occupiedSlots: new Set(tracked.filter((o) => isOpen(o.state)).map((o) => o.slot)),
    });
  }

  /** Raises the id sequence above every listed id of the bot and tracks what the plan adopts. */
  private take(market: MarketState, listed: readonly VenueOrderSnapshot[], plan: AdoptionPlan): void {
    for (const snapshot of listed) if (snapshot.clientOrderId !== null) this.ctx.ids.observe(snapshot.clientOrderId);
    for (const adopted of plan.adopt) this.adoptSnapshot(market.slug, adopted.snapshot, adopted.clientOrderId, adopted.slot, adopted.token);
  }

  /** Notes foreign orders and cancels what the plan cancels; returns how many cancels the venue confirmed. */
  private async cancelUnwanted(market: MarketState, plan: AdoptionPlan, what: string): Promise<number> {
    const { log } = this.ctx;
    market.noteForeign(plan.foreign.length > 0);
    if (plan.cancel.length === 0) return 0;
    for (const item of plan.cancel) log.warn({ market: market.slug, orderId: item.snapshot.orderId, clientOrderId: item.snapshot.clientOrderId, reason: item.reason }, `${what}: canceling order`);
    return this.cancelIds(
      market,
      plan.cancel.map((c) => c.snapshot.orderId),
      'sync-cancel',
    );
  }

  /** Tracks a live venue order of the bot as adopted. */
  adoptSnapshot(marketSlug: string, snapshot: VenueOrderSnapshot, clientOrderId: string, slot: string, token: Outcome): void {
    this.ctx.writer.insert(
      adoptedOrder(
        {
          clientOrderId,
          orderId: snapshot.orderId,
          marketSlug,
          slot,
          token,
          tokenId: snapshot.tokenId,
          side: snapshot.side,
          priceTicks: snapshot.priceTicks,
          sizeRaw: snapshot.sizeRaw,
          remainingRaw: snapshot.remainingRaw,
          createdAtMs: snapshot.createdAtMs,
          postOnly: false,
          orderType: 'GTC',
        },
        this.ctx.scheduler.now(),
      ),
    );
  }

  /**
   * Best-effort cancel of venue ids (untracked or tracked); returns how many the venue confirmed. `evenIfHeld`: try
   * although the venue refused cancels before (shutdown's first attempt).
   */
  async cancelIds(market: MarketState, orderIds: readonly string[], origin: CancelOrigin, evenIfHeld = false): Promise<number> {
    let confirmed = 0;
    for (const batch of chunks(orderIds, this.ctx.settings.cancelBatchSize)) {
      if (!evenIfHeld && !this.ctx.gate.allowsCancel()) break;
      try {
        const result = await this.ctx.venue.cancelOrders(market.slug, batch);
        confirmed += result.canceled.length;
        this.applyCancelConfirmations(result, origin);
      } catch (error) {
        this.ctx.observer.onRequestError('cancelOrders', market.slug, error);
        if (refusedByMode(this.ctx, error, 'cancel')) break;
      }
    }
    return confirmed;
  }

  /** Marks the tracked open orders the venue confirmed canceled. */
  applyCancelConfirmations(result: CancelResult, origin: CancelOrigin): void {
    for (const orderId of result.canceled) {
      const order = this.ctx.orders.getByOrderId(orderId);
      if (order !== undefined && isOpen(order.state)) this.ctx.writer.commit(order, confirmCancel(order, 'canceled by the bot', this.ctx.scheduler.now()), origin);
    }
  }

  private async listWithRetry(market: MarketState, attempts: number, options: ListOptions): Promise<readonly VenueOrderSnapshot[] | Error> {
    let lastError: Error = new Error('not attempted');
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      // A shutdown meanwhile: start-up retries end (the shutdown sweep reads and cancels the market itself).
      const lifecycle = this.ctx.lifecycle();
      if (attempt > 0 && (lifecycle === 'stopping' || lifecycle === 'stopped')) return lastError;
      try {
        return await this.ctx.venue.listLiveOrders(market.slug, options);
      } catch (error) {
        this.ctx.observer.onRequestError('listLiveOrders', market.slug, error);
        lastError = error instanceof Error ? error : new Error(errorText(error, { withName: true }));
        if (attempt + 1 < attempts) await sleep(this.ctx.scheduler, this.resolver.backoff(attempt));
      }
    }
    return lastError;
  }
}
