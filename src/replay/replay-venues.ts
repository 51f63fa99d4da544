/**
 * Several recorded markets behind one venue port, as the live venue serves every market of an account: each
 * request goes to the replay venue (./replay-venue.ts) of its market; status queries, which name no market, ask
 * every one (their order ids never collide: each venue stamps its own `ids`); a cross-market cancel-replace request's
 * batches go to their markets' venues in order.
 *
 * Owns: the routing only. Invariants: a request for a market the replay does not hold is refused as the venue
 * refuses an unknown market (`market-closed`), never sent elsewhere; the trading mode of the recording applies to
 * every market.
 */
import {
  OrderRejectedError,
  type CancelReplaceBatch,
  type CancelReplaceItemResult,
  type CancelOptions,
  type CancelResult,
  type CrossMarketCancelReplace,
  type MaintenanceStatus,
  type PreparedBatchAnswer,
  type PlaceRequest,
  type PlaceResult,
  type StatusQuery,
  type StatusResult,
  type VenueOrderSnapshot,
  type VenuePort,
} from '../orders/venue-port.js';
import type { ReplayVenue } from './replay-venue.js';

export class ReplayVenues implements VenuePort {
  constructor(private readonly venues: ReadonlyMap<string, ReplayVenue>) {}

  /** `request` on the venue of `slug`; a rejected promise when the replay holds no such market. */
  private on<T>(slug: string, request: (venue: ReplayVenue) => Promise<T>): Promise<T> {
    const venue = this.venues.get(slug);
    return venue === undefined ? Promise.reject(new OrderRejectedError('market-closed', `replay: no recorded market ${slug}`, 404)) : request(venue);
  }

  placeOrder(request: PlaceRequest): Promise<PlaceResult> {
    return this.on(request.marketSlug, (v) => v.placeOrder(request));
  }

  cancelOrders(marketSlug: string, orderIds: readonly string[], options?: CancelOptions): Promise<CancelResult> {
    return this.on(marketSlug, (v) => v.cancelOrders(marketSlug, orderIds, options));
  }

  cancelAll(marketSlug: string): Promise<CancelResult> {
    return this.on(marketSlug, (v) => v.cancelAll(marketSlug));
  }

  cancelReplace(batch: CancelReplaceBatch): Promise<readonly CancelReplaceItemResult[]> {
    return this.on(batch.marketSlug, (v) => v.cancelReplace(batch));
  }

  /**
   * Several markets' batches in one request (the bot's cross-market batcher sends them so): each batch carried out on
   * its market's venue, in take order, as `cancelReplace` does.
   */
  readonly crossMarket: CrossMarketCancelReplace = {
    prepare: (batch) => Promise.resolve({ batch }),
    send: async (take) => {
      const answers: PreparedBatchAnswer[] = [];
      for (const prepared of take()) answers.push({ batch: prepared, results: await this.cancelReplace(prepared.batch) });
      return answers;
    },
  };

  async statusBatch(queries: readonly StatusQuery[]): Promise<readonly StatusResult[]> {
    const answers = await Promise.all([...this.venues.values()].map((venue) => venue.statusBatch(queries)));
    return queries.map((query, i) => answers.map((a) => a[i]).find((r) => r?.outcome === 'found') ?? { query, outcome: 'not_found' });
  }

  listLiveOrders(marketSlug: string): Promise<readonly VenueOrderSnapshot[]> {
    return this.on(marketSlug, (v) => v.listLiveOrders(marketSlug));
  }

  maintenanceStatus(): Promise<MaintenanceStatus> {
    const first = this.venues.values().next();
    if (first.done === true) return Promise.resolve({ mode: 'normal', resumeAtMs: null });
    return first.value.maintenanceStatus();
  }
}
