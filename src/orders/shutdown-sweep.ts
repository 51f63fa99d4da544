/**
 * The shutdown sweep of one market: cancel every order of the bot, confirm by listing, retry until the deadline.
 *
 * Owns: the choice between cancel-all and cancels by id, and the reading of the confirmation listing.
 *
 * Invariants: cancel-all (every order of the ACCOUNT in the market) is used only when the bot trades the market alone
 * (`exclusiveMarkets`, and no foreign order left alone there); the first attempt goes out whatever the venue refused
 * before, later ones only once the gate allows cancels; the market is confirmed empty only when the listing shows
 * none of the bot's orders and no placement is still in flight; every change is committed with origin `shutdown`
 * (the lookups with `lookup`); nothing outlives the deadline; the confirming listing goes at cancel priority (a leave at
 * the stop before settlement must not wait behind other markets' placements on a saturated rate limit).
 */
import { isOwnClientOrderId, tryParseClientOrderId } from './client-order-id.js';
import { refusedByMode, sleep, untilDeadline, type ExecutorContext } from './executor-context.js';
import type { MarketState } from './market-state.js';
import type { MarketSync } from './market-sync.js';
import { confirmCancel } from './order-record.js';
import type { OutcomeResolver } from './outcome-resolver.js';
import type { VenueOrderSnapshot } from './venue-port.js';

export class ShutdownSweep {
  constructor(
    private readonly ctx: ExecutorContext,
    private readonly sync: MarketSync,
    private readonly resolver: OutcomeResolver,
  ) {}

  /** Cancels and confirms until the deadline. True when the market was confirmed empty of the bot's orders. */
  async cancelEverything(market: MarketState, deadline: number): Promise<boolean> {
    const { orders, writer, scheduler, gate, venue, observer, ids, settings } = this.ctx;
    const slug = market.slug;
    // Cancel-all takes every order of the ACCOUNT in the market (other bots' too): only when this bot owns it alone.
    const byIds = (): boolean => !settings.exclusiveMarkets || (market.hasForeign && settings.foreignPolicy === 'leave');
    for (let attempt = 0; scheduler.now() < deadline; attempt += 1) {
      // The first attempt goes out whatever the venue refused before (its mode may have changed since); later ones
      // only once the gate releases a refused cancel.
      if (attempt === 0 || gate.allowsCancel()) {
        try {
          if (byIds()) {
            const live = orders.openInMarket(slug).flatMap((o) => (o.orderId === null ? [] : [o.orderId]));
            if (live.length > 0) await untilDeadline(scheduler, this.sync.cancelIds(market, live, 'shutdown', attempt === 0), deadline);
          } else {
            const result = await untilDeadline(scheduler, venue.cancelAll(slug), deadline);
            if (result !== false) this.sync.applyCancelConfirmations(result, 'shutdown');
          }
        } catch (error) {
          observer.onRequestError('cancelAll', slug, error);
          refusedByMode(this.ctx, error, 'cancel');
        }
      }
      await untilDeadline(scheduler, this.resolver.resolveOnce(market), deadline);
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
        const inFlight = orders.openInMarket(slug).some((o) => o.state === 'pending-new');
        if (own.length === 0 && !inFlight) return true;
        if (byIds()) {
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
}
