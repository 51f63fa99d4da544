/** Adopted orders (after a restart) are replaced by cancel-replace like any other: the old ones end canceled. */
import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { ClientOrderIdFactory, formatClientOrderId, marketKey } from '../../../src/orders/client-order-id.js';
import { OrderExecutor } from '../../../src/orders/executor.js';
import { TradingModeGate } from '../../../src/orders/trading-mode.js';
import { FakeReplaceVenue, settle } from '../../support/fake-venue.js';

const SLUG = 'will-it-rain';

it('replaces adopted orders by cancel-replace; the adopted ones end canceled, only the new ones open', async () => {
  const scheduler = new ManualClock(1_700_000_000_000);
  const venue = new FakeReplaceVenue(() => scheduler.now());
  const own = (slot: string, sequence: number): string => formatClientOrderId({ botTag: 'mm1', marketKey: marketKey(SLUG), slot, sequence });
  for (const [i, slot] of ['bid-0', 'bid-1'].entries()) {
    venue.seedOrder({ clientOrderId: own(slot, 10 + i), marketSlug: SLUG, tokenId: '111', side: 'BUY', priceTicks: 500 - i * 10, sizeRaw: 10_000_000 });
  }
  const executor = new OrderExecutor({
    venue,
    scheduler,
    modeGate: new TradingModeGate({ scheduler, pollIntervalMs: 30_000, fetchStatus: () => venue.maintenanceStatus() }),
    ids: new ClientOrderIdFactory('mm1', () => scheduler.now()),
    markets: [{ slug: SLUG, tokens: { yes: '111', no: '222' } }],
    onFill: () => undefined,
  });
  await settle(scheduler, executor.start());
  expect(executor.openOrders(SLUG)).toHaveLength(2);
  const intents = [0, 1].map((i) => ({ slot: `bid-${i}`, token: 'YES' as const, side: 'BUY' as const, priceTicks: 505 - i * 10, sizeRaw: 10_000_000, postOnly: true }));
  await settle(scheduler, executor.submit(SLUG, intents));
  expect(venue.calls.map((c) => c.op)).toContain('cancelReplace');
  expect(executor.openOrders(SLUG).map((o) => [o.slot, o.priceTicks, o.state])).toEqual([
    ['bid-0', 505, 'live'],
    ['bid-1', 495, 'live'],
  ]);
});
