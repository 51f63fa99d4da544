/**
 * A placement whose PLACEMENT frame arrives before its answer, and the answer is then lost (a 500 after the venue
 * booked the order): the order is live from the frame, the lost answer changes nothing, and the market keeps
 * quoting: a moved quote replaces it. Found by the ops-metrics test under load (frame and answer race there).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { ClientOrderIdFactory } from '../../../src/orders/client-order-id.js';
import { OrderExecutor } from '../../../src/orders/executor.js';
import { TradingModeGate } from '../../../src/orders/trading-mode.js';
import type { PlaceRequest, PlaceResult } from '../../../src/orders/venue-port.js';
import type { QuoteIntent } from '../../../src/strategy/contract.js';
import { FakeVenue, settle } from '../../support/fake-venue.js';

const SLUG = 'm';
const MARKET = { slug: SLUG, tokens: { yes: '111', no: '222' } };
const bid = (slot: string, priceTicks: number): QuoteIntent => ({ slot, token: 'YES', side: 'BUY', priceTicks, sizeRaw: 10_000_000 });

describe('executor: the placement frame before a lost answer', () => {
  it('the order is live from its frame; the market keeps quoting and replaces it when the quote moves', async () => {
    const scheduler = new ManualClock(1_700_000_000_000);
    const fake = new FakeVenue(() => scheduler.now());
    let executor: OrderExecutor | null = null;
    // The venue's socket delivers the PLACEMENT frame before the (lost) answer reaches the executor.
    const venue = Object.assign(Object.create(fake) as FakeVenue, {
      placeOrder: async (request: PlaceRequest): Promise<PlaceResult> => {
        try {
          return await fake.placeOrder(request);
        } catch (error) {
          for (const event of fake.takeEvents()) executor?.onOrderEvent(event);
          throw error;
        }
      },
    });
    executor = new OrderExecutor({
      venue,
      scheduler,
      modeGate: new TradingModeGate({ scheduler, pollIntervalMs: 30_000, fetchStatus: () => fake.maintenanceStatus() }),
      ids: new ClientOrderIdFactory('mm1', () => scheduler.now()),
      markets: [MARKET],
      onFill: () => undefined,
      unknownOrders: { initialBackoffMs: 500, maxBackoffMs: 4000, notFoundLimit: 3, notFoundGraceMs: 5000 },
    });
    await settle(scheduler, executor.start());
    fake.failNextPlace({ kind: 'unknown', applied: true });
    await settle(scheduler, executor.submit(SLUG, [bid('bid-0', 500)]));
    expect(executor.openOrders(SLUG).map((o) => [o.slot, o.state, o.priceTicks])).toEqual([['bid-0', 'live', 500]]);
    const moved = await settle(scheduler, executor.submit(SLUG, [bid('bid-0', 510)]));
    expect(moved).toMatchObject({ status: 'executed' });
    expect(fake.live(SLUG).map((o) => o.priceTicks)).toEqual([510]);
  });
});
