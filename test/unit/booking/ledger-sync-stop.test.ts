/**
 * LedgerSync's passes and the bot's stop (issue 43: a periodic check of 50 markets in flight at SIGTERM sent its ~30
 * status batches one by one, and the process exited only after them, 11 s after the signal). The venue is a stub of
 * ExchangeApi that answers as the transport does: a read leaves after a wait in the rate limiter, and its
 * `beforeSend` runs just before it would be sent (what it throws withholds the read, unsent).
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LedgerSync } from '../../../src/booking/ledger-sync.js';
import type { RequestPriority } from '../../../src/core/request-priority.js';
import type { ExchangeApi, OrderLookup } from '../../../src/exchange/api.js';
import type { ClobPosition, OrderStatusResult } from '../../../src/exchange/wire.js';
import { memoryLedger, orderInput, T0 } from '../../support/ledger-fixtures.js';

const ORDERS = 120; // three status batches of at most 50

interface VenueStub {
  readonly api: ExchangeApi;
  /** Each status read: its priority and whether it was sent (false: withheld by its beforeSend). */
  readonly reads: { priority: RequestPriority | undefined; sent: boolean }[];
  positionsRead: number;
  /** Runs after each status read was answered. */
  afterRead: () => void;
}

function venueStub(): VenueStub {
  const stub: VenueStub = {
    reads: [],
    positionsRead: 0,
    afterRead: () => {},
    api: {} as ExchangeApi,
  };
  const getOrderStatuses = async (items: readonly OrderLookup[], options: { readonly priority?: RequestPriority; readonly beforeSend?: () => void } = {}): Promise<OrderStatusResult[]> => {
    await new Promise((resolve) => setImmediate(resolve)); // the wait in the rate limiter
    const read = { priority: options.priority, sent: false };
    stub.reads.push(read);
    options.beforeSend?.();
    read.sent = true;
    const results = items.map((_, index): OrderStatusResult => ({ index, status: 'not_found', orderId: null, clientOrderId: null, data: null }));
    stub.afterRead();
    return results;
  };
  const getPositions = async (): Promise<ClobPosition[]> => {
    stub.positionsRead += 1;
    return [];
  };
  Object.assign(stub, { api: { getOrderStatuses, getPositions } as unknown as ExchangeApi });
  return stub;
}

function ledgerWithRecentOrders() {
  const ledger = memoryLedger({ now: () => T0 });
  for (let i = 0; i < ORDERS; i += 1) {
    ledger.recordOrder(orderInput({ clientOrderId: `bot-bid-${i}-1`, venueOrderId: `o${i}`, status: 'canceled', sizeRaw: 5e6, atMs: T0 }));
  }
  return ledger;
}

describe('LedgerSync and the stop', () => {
  it('a periodic check in flight when the bot starts stopping sends no further read, never reads the balances, and ends quietly', async () => {
    const ledger = ledgerWithRecentOrders();
    const venue = venueStub();
    let stopping = false;
    venue.afterRead = () => {
      stopping = true; // SIGTERM while the first batch was answered
    };
    const sync = new LedgerSync({ ledger, api: venue.api, markets: new Map(), now: () => T0 + 60_000, log: pino({ level: 'silent' }), stopping: () => stopping });
    await expect(sync.check()).resolves.toEqual({ mismatches: 0, repaired: 0 });
    // The first batch went; the second was withheld as it left the limiter; the third and the balances never queued.
    expect(venue.reads.map((r) => r.sent)).toEqual([true, false]);
    expect(venue.positionsRead).toBe(0);
    ledger.close();
  });

  it('the same check runs every batch and the balances when nothing stops it', async () => {
    const ledger = ledgerWithRecentOrders();
    const venue = venueStub();
    const sync = new LedgerSync({ ledger, api: venue.api, markets: new Map(), now: () => T0 + 60_000, log: pino({ level: 'silent' }), stopping: () => false });
    await expect(sync.check()).resolves.toEqual({ mismatches: 0, repaired: 0 });
    expect(venue.reads.map((r) => r.sent)).toEqual([true, true, true]);
    expect(venue.positionsRead).toBe(1);
    ledger.close();
  });

  it('a read after a feed gap stopped the same way resolves to no repair', async () => {
    const ledger = ledgerWithRecentOrders();
    const venue = venueStub();
    let stopping = false;
    venue.afterRead = () => {
      stopping = true;
    };
    const sync = new LedgerSync({ ledger, api: venue.api, markets: new Map(), now: () => T0 + 60_000, log: pino({ level: 'silent' }), stopping: () => stopping });
    await expect(sync.afterGap()).resolves.toBe(0);
    expect(venue.reads.map((r) => r.sent)).toEqual([true, false]);
    ledger.close();
  });

  it('the periodic check reads in the `read` class, behind placements; the start-up catch-up and the read after a gap in `probe`', async () => {
    const ledger = ledgerWithRecentOrders();
    const venue = venueStub();
    const sync = new LedgerSync({ ledger, api: venue.api, markets: new Map(), now: () => T0 + 60_000, log: pino({ level: 'silent' }) });
    await sync.check();
    const check = venue.reads.splice(0).map((r) => r.priority);
    await sync.afterGap();
    const gap = venue.reads.splice(0).map((r) => r.priority);
    await sync.catchUp();
    const catchUp = venue.reads.splice(0).map((r) => r.priority);
    expect(check).toEqual(['read', 'read', 'read']);
    expect(gap).toEqual(['probe', 'probe', 'probe']);
    expect(new Set(catchUp)).toEqual(new Set(['probe']));
    ledger.close();
  });
});
