/**
 * Which class of the account's rate limiter each venue-port call goes in (the classes and their start order:
 * src/core/request-priority.ts; why: docs/rate-limits.md, "Headroom for what keeps the bot safe"). The one table for
 * the bot's venue adapter (src/venue/venue-adapter.ts, whose REST calls carry these classes to the limiter) and the
 * backtest's request model (src/backtest/latency-venue.ts), so a backtest starts requests in the daemon's order.
 *
 * Invariants: pure; every VenueOperation has a class; a call that takes an order off the book (a cancel, a
 * cancel-replace carrying cancels, the listing that confirms a market emptied) is `cancel`, and so is a deferred
 * own-order listing once its market quotes (it finds orders of the bot resting unmanaged: an exposure like the one a
 * cancel removes, and one request per market, once; in `probe` it waited behind every cancel-replace requote); a status
 * lookup of an order whose outcome is unknown is `probe`; the shutdown sweep's cancels across markets and its confirming lookups are `sweep`, first of all; a placement, and the listing a market's first quote waits
 * for, is `place`; every other read is `read`.
 */
import type { RequestPriority } from '../core/request-priority.js';
import type { VenueOperation } from './venue-port.js';

/** A venue-port call, with what decides its class. */
export type VenueCall =
  | { readonly operation: Exclude<VenueOperation, 'listLiveOrders' | 'cancelReplace' | 'statusBatch'> }
  /** `sweep`: the shutdown sweep's confirming lookups (StatusOptions.sweep), ahead of the plans' own lookups still queued. */
  | { readonly operation: 'statusBatch'; readonly sweep?: boolean }
  /** `urgent`: the listing confirms cancels (a leave, a shutdown): ListOptions.urgent. `beforeFirstQuote`: an adoption
   * listing a market's first quote waits for (ListOptions.beforeFirstQuote). `deferred`: a deferred listing of a market
   * that quotes already (ListOptions.deferred). */
  | { readonly operation: 'listLiveOrders'; readonly urgent?: boolean; readonly beforeFirstQuote?: boolean; readonly deferred?: boolean }
  /** `cancels` (default true): the request is expected to carry cancels (a requote), not placements into empty slots only. */
  | { readonly operation: 'cancelReplace'; readonly cancels?: boolean };

const FIXED: Readonly<Record<Exclude<VenueOperation, 'listLiveOrders' | 'cancelReplace' | 'statusBatch'>, RequestPriority>> = {
  cancelOrders: 'cancel',
  // The shutdown sweep's (its only caller): every order of the bot, ahead of the plans' cancels still queued.
  cancelAcrossMarkets: 'sweep',
  cancelByClientOrderId: 'cancel',
  cancelAll: 'cancel',
  placeOrder: 'place',
  maintenanceStatus: 'read',
};

/** The limiter class of a venue-port call. */
export function requestClass(call: VenueCall): RequestPriority {
  switch (call.operation) {
    case 'listLiveOrders':
      if (call.urgent === true) return 'cancel';
      if (call.deferred === true) return 'cancel';
      return call.beforeFirstQuote === true ? 'place' : 'read';
    case 'cancelReplace':
      return call.cancels === false ? 'place' : 'cancel';
    case 'statusBatch':
      return call.sweep === true ? 'sweep' : 'probe';
    default:
      return FIXED[call.operation];
  }
}
