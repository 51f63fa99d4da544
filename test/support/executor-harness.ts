/**
 * An order executor on a fake venue and a manual clock, as the executor's unit tests build it: bot tag `mm1`, the
 * trading-mode gate polled every 30 s, short lookup backoffs, every fill collected, `deliver()` hands the venue's
 * frames to the executor. Callers add their own options (markets, observers, settings) over these.
 */
import { ManualClock } from '../../src/core/clock.js';
import { ClientOrderIdFactory } from '../../src/orders/client-order-id.js';
import { OrderExecutor, type ExecutorOptions, type FillEvent } from '../../src/orders/executor.js';
import { TradingModeGate } from '../../src/orders/trading-mode.js';
import { FakeVenue } from './fake-venue.js';

export const EXECUTOR_T0 = 1_700_000_000_000;

export function executorHarness(options: Partial<ExecutorOptions> & Pick<ExecutorOptions, 'markets'>) {
  const scheduler = new ManualClock(EXECUTOR_T0);
  const venue = new FakeVenue(() => scheduler.now());
  const gate = new TradingModeGate({ scheduler, pollIntervalMs: 30_000, fetchStatus: () => venue.maintenanceStatus() });
  const ids = new ClientOrderIdFactory('mm1', () => scheduler.now());
  const fills: FillEvent[] = [];
  const executor = new OrderExecutor({
    venue,
    scheduler,
    modeGate: gate,
    ids,
    onFill: (f) => fills.push(f),
    unknownOrders: { initialBackoffMs: 500, maxBackoffMs: 4000, notFoundLimit: 3, notFoundGraceMs: 5000 },
    ...options,
  });
  const deliver = (events = venue.takeEvents()): void => {
    for (const event of events) executor.onOrderEvent(event);
  };
  return { scheduler, venue, gate, ids, executor, fills, deliver };
}
