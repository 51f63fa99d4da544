/**
 * The shutdown sweep: cancel every order of the bot, confirm, retry until the deadline. Two ways of confirming:
 * - `sweepKnown`, the markets whose every order of the bot is tracked (their own-order listing was applied: at start-up,
 *   deferred, or a join): the cancels go out at once for all of them (`POST /orders/batch-cancel` across markets, up
 *   to 50 ids a request, where the venue accepts a request naming several markets — the adapter detects it and falls
 *   back to one request per market; orders whose placement answer was lost by their clientOrderId), and what the
 *   cancel answers did not confirm is
 *   looked up by status across markets, up to 50 orders to a `POST /orders/status/batch` request — no listing;
 * - `cancelEverything`, one market whose state is not known (a deferred listing not applied yet, a start-up listing
 *   that failed) or being left: cancels, then a listing of the market (`GET /markets/{slug}/user-orders`) at cancel
 *   priority, which also finds and cancels orders of the bot this run does not track.
 *
 * Owns: the choice between cancel-all and cancels by id, the reading of the confirmation listing and lookups.
 *
 * Invariants: cancel-all (every order of the ACCOUNT in the market) is used only when the bot trades the market alone
 * (`exclusiveMarkets`, and no foreign order left alone there); the first attempt goes out whatever the venue refused
 * before, later ones only once the gate allows cancels; a market is confirmed empty only when no placement is still in
 * flight and, by listing, none of the bot's orders is listed, or, by lookups, every tracked open order of it was
 * answered as not resting (canceled, filled, unknown to the venue); every change is committed with origin `shutdown`
 * (the lookups of `cancelEverything` with `lookup`); nothing outlives the deadline; the requests go at cancel priority
 * (the status lookups at probe priority: the limiter's next class).
 */
import { isOwnClientOrderId, tryParseClientOrderId } from './client-order-id.js';
import { refusedByMode, sleep, untilDeadline, type ExecutorContext } from './executor-context.js';
import type { MarketState } from './market-state.js';
import type { MarketSync } from './market-sync.js';
import { confirmCancel } from './order-record.js';
import type { OutcomeResolver } from './outcome-resolver.js';
import type { VenueOrderSnapshot, VenuePort } from './venue-port.js';

export class ShutdownSweep {
  constructor(
    private readonly ctx: ExecutorContext,
    private readonly sync: MarketSync,
    private readonly resolver: OutcomeResolver,
  ) {}

  /**
   * Cancels in every market at once and confirms by status lookups across markets, until the deadline. Every order of
   * the bot in these markets must be tracked (their listing applied). Returns the markets confirmed empty.
   */
  async sweepKnown(markets: readonly MarketState[], deadline: number): Promise<ReadonlySet<string>> {
    const { orders, scheduler, gate } = this.ctx;
    const confirmed = new Set<string>();
    let notResting: ReadonlySet<string> = new Set();
    for (let attempt = 0; scheduler.now() < deadline; attempt += 1) {
      const left = markets.filter((m) => !confirmed.has(m.slug));
      if (attempt === 0 || gate.allowsCancel()) await untilDeadline(scheduler, this.cancelRound(left, attempt === 0), deadline);
      // What the cancel answers did not confirm (a refused or unanswered cancel, an unknown placement): looked up.
      const open = left.flatMap((m) => orders.openInMarket(m.slug)).filter((o) => o.state !== 'pending-new');
      if (open.length > 0) {
        const looked = await untilDeadline(scheduler, this.resolver.lookupAcross(open, 'shutdown'), deadline);
        if (looked !== false) notResting = looked.notResting;
      }
      for (const market of left) {
        // A placement still in flight may land after the cancels: not confirmed until it has answered (one whose request
        // has not left the limiter never will: it is withheld as it leaves).
        if (orders.openInMarket(market.slug).every((o) => (o.state === 'pending-new' ? !this.placementOut(market) : notResting.has(o.clientOrderId)))) confirmed.add(market.slug);
      }
      if (confirmed.size === markets.length) break;
      const wait = Math.min(this.resolver.backoff(attempt), deadline - scheduler.now());
      if (wait > 0) await sleep(scheduler, wait);
    }
    return confirmed;
  }

  /**
   * Cancels and confirms one market by listing it, until the deadline. True when it was confirmed empty of the bot's
   * orders. `firstDespiteHold`: the first round of cancels goes out even while the gate holds a refused cancel (the
   * shutdown's last chance); a leave while running passes false: a held cancel waits for the gate's release, which
   * sweeps the departed market again (market-membership.ts `sweepAfterRelease`) — one refused cancel, not two.
   */
  async cancelEverything(market: MarketState, deadline: number, firstDespiteHold = true): Promise<boolean> {
    const { orders, writer, scheduler, gate, venue, observer, ids } = this.ctx;
    const slug = market.slug;
    for (let attempt = 0; scheduler.now() < deadline; attempt += 1) {
      const first = attempt === 0 && firstDespiteHold;
      if (first || gate.allowsCancel()) await untilDeadline(scheduler, this.cancelOnce(market, first), deadline);
      await untilDeadline(scheduler, this.resolver.resolveOnce(market, 'shutdown'), deadline);
      let listed: readonly VenueOrderSnapshot[] | false;
      try {
        listed = await untilDeadline(scheduler, venue.listLiveOrders(slug, { urgent: true }), deadline);
      } catch (error) {
        observer.onRequestError('listLiveOrders', slug, error);
        listed = false;
      }
      if (listed !== false) {
        const own = listed.filter((s) => isOwnClientOrderId(s.clientOrderId, ids.botTag));
        const ownIds = new Set(own.map((s) => s.orderId));
        // Tracked orders no longer listed are gone (canceled, or filled: their fills still arrive as events).
        for (const order of orders.openInMarket(slug)) {
          if (order.orderId !== null && !ownIds.has(order.orderId) && order.state !== 'unknown' && order.state !== 'pending-new') writer.commit(order, confirmCancel(order, 'not listed at shutdown', scheduler.now()), 'shutdown');
        }
        // A placement still in flight may land after this listing: not confirmed until it has answered.
        const inFlight = this.placementOut(market) && orders.openInMarket(slug).some((o) => o.state === 'pending-new');
        if (own.length === 0 && !inFlight) return true;
        if (this.byIds(market)) {
          // Ours but untracked: cancel by id next round.
          for (const snapshot of own) {
            if (orders.getByOrderId(snapshot.orderId) === undefined && snapshot.clientOrderId !== null) {
              const slot = tryParseClientOrderId(snapshot.clientOrderId)?.slot ?? 'unknown';
              this.sync.adoptSnapshot(slug, snapshot, snapshot.clientOrderId, slot, snapshot.tokenId === market.ref.tokens.no ? 'NO' : 'YES');
            }
          }
        }
      }
      const wait = Math.min(this.resolver.backoff(attempt), deadline - scheduler.now());
      if (wait > 0) await sleep(scheduler, wait);
    }
    return false;
  }

  /**
   * One round of cancels in every market of `markets`. By id, the markets' tracked orders go in one call across markets
   * where the port offers it (`cancelAcrossMarkets`: up to 50 orders a request, of several markets where the venue
   * accepts it), else one call per market; cancel-all markets go one by one; orders whose placement answer was lost
   * (no order id) are canceled by their clientOrderId where the port offers it.
   */
  private async cancelRound(markets: readonly MarketState[], first: boolean): Promise<void> {
    const { venue } = this.ctx;
    const byIds = markets.filter((m) => this.byIds(m));
    const cancelAll = markets.filter((m) => !this.byIds(m));
    const acrossMarkets = venue.cancelAcrossMarkets?.bind(venue);
    const rounds: Promise<void>[] = [...cancelAll.map((m) => this.cancelOnce(m, first)), ...markets.map((m) => this.cancelUnknownOnce(m))];
    if (acrossMarkets === undefined || byIds.length < 2) rounds.push(...byIds.map((m) => this.cancelOnce(m, first)));
    else rounds.push(this.cancelAcross(byIds, acrossMarkets));
    await Promise.all(rounds);
  }

  /** The tracked orders of several markets by id, in as few requests as the venue allows. */
  private async cancelAcross(markets: readonly MarketState[], cancel: NonNullable<VenuePort['cancelAcrossMarkets']>): Promise<void> {
    const { orders, observer } = this.ctx;
    const byMarket = new Map(markets.map((m) => [m.slug, orders.openInMarket(m.slug).flatMap((o) => (o.orderId === null ? [] : [o.orderId]))] as const).filter(([, ids]) => ids.length > 0));
    if (byMarket.size === 0) return;
    try {
      this.sync.applyCancelConfirmations(await cancel(byMarket), 'shutdown');
    } catch (error) {
      observer.onRequestError('cancelAcrossMarkets', [...byMarket.keys()].join(','), error);
      refusedByMode(this.ctx, error, 'cancel');
    }
  }

  /** Orders of the market whose placement outcome is unknown (no order id): canceled by clientOrderId, then looked up. */
  private async cancelUnknownOnce(market: MarketState): Promise<void> {
    const unknown = this.ctx.orders.openInMarket(market.slug).filter((o) => o.state === 'unknown' && o.orderId === null);
    if (unknown.length > 0) await this.resolver.cancelUnknown(market, unknown, 'shutdown');
  }

  /**
   * Whether a placement of the market may still land: a plan's request of it is out (left the limiter, unanswered). Once
   * stopping, a placement whose request has not left is withheld as it leaves (src/orders/plan-requests.ts), so its
   * pending-new order never reaches the venue and the sweep need not wait for it.
   */
  private placementOut(market: MarketState): boolean {
    return this.ctx.requestsOut.count(market.slug) > 0;
  }

  /** Cancel-all takes every order of the ACCOUNT in the market (other bots' too): only when this bot owns it alone. */
  private byIds(market: MarketState): boolean {
    const { settings } = this.ctx;
    return !settings.exclusiveMarkets || (market.hasForeign && settings.foreignPolicy === 'leave');
  }

  /**
   * One round of cancels in the market: its tracked orders by id, or cancel-all. `first`: sent whatever the venue
   * refused before (its mode may have changed since); later rounds only run once the gate releases a refused cancel.
   */
  private async cancelOnce(market: MarketState, first: boolean): Promise<void> {
    const { orders, venue, observer } = this.ctx;
    try {
      if (this.byIds(market)) {
        const live = orders.openInMarket(market.slug).flatMap((o) => (o.orderId === null ? [] : [o.orderId]));
        if (live.length > 0) await this.sync.cancelIds(market, live, 'shutdown', first);
      } else {
        const result = await venue.cancelAll(market.slug);
        this.sync.applyCancelConfirmations(result, 'shutdown');
      }
    } catch (error) {
      observer.onRequestError('cancelAll', market.slug, error);
      refusedByMode(this.ctx, error, 'cancel');
    }
  }
}
