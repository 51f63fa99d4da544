/**
 * An order executor on a fake venue and a manual clock, as the executor's unit tests build it: bot tag `mm1`, the
 * trading-mode gate polled every 30 s, short lookup backoffs, every fill collected, `deliver()` hands the venue's
 * frames to the executor. Callers add their own options (markets, observers, settings) over these.
 * `limitedExecutorHarness`: the same executor behind the venue's rate limit (the backtest's limiter model, LatencyVenue:
 * 2 in flight, 320 ms between starts, 40 ms each way), on until `venue.begin()`.
 */
import { LatencyVenue } from '../../src/backtest/latency-venue.js';
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

/** Starts between requests of the venue's rate limit in `limitedExecutorHarness`. */
export const LIMIT_SLOT_MS = 320;

export function limitedExecutorHarness(options: Partial<ExecutorOptions> & Pick<ExecutorOptions, 'markets'>, fakeSetup: (fake: FakeVenue) => void = () => undefined) {
  const scheduler = new ManualClock(EXECUTOR_T0);
  const fake = new FakeVenue(() => scheduler.now());
  // Before the latency model wraps it (it offers what the fake offers then).
  fakeSetup(fake);
  const venue = new LatencyVenue(fake, scheduler, { oneWayMs: 40, minRequestSpacingMs: LIMIT_SLOT_MS, maxConcurrent: 2 });
  const executor = new OrderExecutor({
    venue,
    scheduler,
    modeGate: new TradingModeGate({ scheduler, pollIntervalMs: 30_000, fetchStatus: () => fake.maintenanceStatus() }),
    ids: new ClientOrderIdFactory('mm1', () => scheduler.now()),
    onFill: () => undefined,
    ...options,
  });
  return { scheduler, fake, venue, executor };
}
