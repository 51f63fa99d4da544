/**
 * The fake venue (fake-venue.ts) with cross-market cancel-replace requests (`VenuePort.crossMarket`), for the
 * executor's tests behind the cross-market batcher (src/orders/cross-market-venue.ts).
 *
 * A request waits, before it takes its batches, for the test to let it through (`hold('cancelReplace')`, as a rate
 * limiter would) — so batches of several markets can gather — then runs each batch's operations exactly as the fake's
 * `cancelReplace` does. Every request is recorded with the markets and operations it carried (`requests`). Knobs: a
 * venue refusing operations of several markets in one request (`refuseMixedMarkets`: MixedMarketsRefusedError, nothing
 * applied), or refusing placement operations (`refusePlacementItems`: the request answered 400, nothing applied; or
 * `placementItemsNotAttempted`).
 */
import { CancelReplaceUnsupportedError, MixedMarketsRefusedError, VenueRequestError, type CrossMarketCancelReplace, type PreparedBatch, type PreparedBatchAnswer } from '../../src/orders/venue-port.js';
import { FakeReplaceVenue } from './fake-venue.js';

export interface CrossRequest {
  /** The markets of the request's operations, in request order, each once. */
  readonly markets: readonly string[];
  readonly operations: number;
  /** Operations that place into an empty slot (no order to cancel). */
  readonly placements: number;
}

export class FakeCrossMarketVenue extends FakeReplaceVenue {
  /** Refuse a request naming several markets (the venue's 400 naming `operations[i].replacement.marketSlug`). */
  refuseMixedMarkets = false;
  /** Answer a request carrying a placement operation with a 400 (nothing applied). */
  refusePlacementItems = false;
  /** Every cross-market request that reached the venue (refused ones included), in order. */
  readonly requests: CrossRequest[] = [];

  readonly crossMarket: CrossMarketCancelReplace = {
    prepare: (batch) => Promise.resolve({ batch }),
    send: (take) => this.sendTaken(take),
  };

  private async sendTaken(take: () => readonly PreparedBatch[]): Promise<readonly PreparedBatchAnswer[]> {
    await this.waitHold('cancelReplace');
    const batches = take();
    if (batches.length === 0) return [];
    const items = batches.flatMap((b) => b.batch.items);
    const markets = [...new Set(batches.map((b) => b.batch.marketSlug))];
    this.record('cancelReplace', `${markets.join('+')}: ${items.map((i) => `${i.cancelOrderId}>${i.place.clientOrderId} ${i.place.priceTicks}`).join(',')}`);
    this.requests.push({ markets, operations: items.length, placements: items.filter((i) => i.cancelOrderId === null).length });
    if (!this.offersCancelReplace) throw new CancelReplaceUnsupportedError('404 Not Found');
    if (this.refuseMixedMarkets && markets.length > 1) throw new MixedMarketsRefusedError('400: operations[1].replacement.marketSlug must name the market of operations[0]');
    if (this.refusePlacementItems && items.some((i) => i.cancelOrderId === null)) throw new VenueRequestError('cancelReplace', 400, 'operations[0].cancel.clientOrderId: order not found');
    this.checkCancelMode('cancelReplace');
    const fault = this.takeFault('cancelReplace');
    if (fault !== undefined && !(fault.kind === 'unknown' && fault.applied)) this.throwFault('cancelReplace', fault);
    const answers: PreparedBatchAnswer[] = [];
    for (const batch of batches) answers.push({ batch, results: await this.operate(batch.batch) });
    if (fault !== undefined) this.throwFault('cancelReplace', fault);
    return answers;
  }
}
