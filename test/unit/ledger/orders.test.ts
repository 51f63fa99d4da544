import { describe, expect, it } from 'vitest';
import { LedgerConflictError, LedgerInputError } from '../../../src/ledger/errors.js';
import { openLedger } from '../../../src/ledger/store.js';
import { fillInput, makeTempDir, memoryLedger, orderInput, T0 } from '../../support/ledger-fixtures.js';

describe('orders', () => {
  it('records an order once; a repeat with the venue id fills it in', () => {
    const ledger = memoryLedger();
    expect(ledger.recordOrder(orderInput({ clientOrderId: 'bot-btc-bid-0-1' }))).toBe('inserted');
    expect(ledger.recordOrder(orderInput({ clientOrderId: 'bot-btc-bid-0-1' }))).toBe('duplicate');
    expect(ledger.recordOrder(orderInput({ clientOrderId: 'bot-btc-bid-0-1', venueOrderId: 'v-1' }))).toBe('updated');
    expect(ledger.getOrder({ venueOrderId: 'v-1' })).toMatchObject({
      clientOrderId: 'bot-btc-bid-0-1',
      status: 'pending-new',
      remainingRaw: 10_000_000,
      orderType: 'GTC',
      postOnly: false,
    });
  });

  it('refuses the same clientOrderId with other terms, naming the field, and changes nothing', () => {
    const ledger = memoryLedger();
    ledger.recordOrder(orderInput({ clientOrderId: 'c1' }));
    const attempt = () => ledger.recordOrder(orderInput({ clientOrderId: 'c1', priceTicks: 510, venueOrderId: 'v-9' }));
    expect(attempt).toThrow(LedgerConflictError);
    expect(attempt).toThrow(/priceTicks is 500, got 510/);
    expect(ledger.getOrder({ clientOrderId: 'c1' })).toMatchObject({ priceTicks: 500, venueOrderId: null });
    ledger.recordOrder(orderInput({ clientOrderId: 'c2', venueOrderId: 'v-2' }));
    expect(() => ledger.updateOrder({ clientOrderId: 'c1' }, { venueOrderId: 'v-2', atMs: T0 })).toThrow(LedgerConflictError);
  });

  it('rejects malformed orders before writing', () => {
    const ledger = memoryLedger();
    expect(() => ledger.recordOrder(orderInput({ clientOrderId: 'c1', remainingRaw: 20_000_000 }))).toThrow(LedgerInputError);
    expect(() => ledger.recordOrder(orderInput({ clientOrderId: 'c1', priceTicks: 0 }))).toThrow(/order.priceTicks/);
    expect(() => ledger.recordOrder(Object.assign(orderInput({ clientOrderId: 'c1' }), { status: 'open' }))).toThrow(/order.status/);
    expect(ledger.counts().orders).toBe(0);
  });

  it('remaining only decreases; a terminal status is not undone by a stale update', () => {
    const ledger = memoryLedger();
    ledger.recordOrder(orderInput({ clientOrderId: 'c1', venueOrderId: 'v-1' }));
    expect(ledger.updateOrder({ venueOrderId: 'v-1' }, { status: 'live', atMs: T0 + 1 })).toBe('updated');
    expect(ledger.updateOrder({ venueOrderId: 'v-1' }, { status: 'partially-filled', remainingRaw: 4_000_000, atMs: T0 + 2 })).toBe('updated');
    expect(ledger.updateOrder({ venueOrderId: 'v-1' }, { remainingRaw: 6_000_000, atMs: T0 + 3 })).toBe('stale');
    expect(ledger.updateOrder({ venueOrderId: 'v-1' }, { status: 'canceled', atMs: T0 + 4 })).toBe('updated');
    expect(ledger.updateOrder({ venueOrderId: 'v-1' }, { status: 'live', atMs: T0 + 5 })).toBe('stale');
    // A fill after the cancel: terminal → terminal is allowed.
    expect(ledger.updateOrder({ venueOrderId: 'v-1' }, { status: 'filled', remainingRaw: 0, atMs: T0 + 6 })).toBe('updated');
    expect(ledger.getOrder({ clientOrderId: 'c1' })).toMatchObject({ status: 'filled', remainingRaw: 0, updatedAtMs: T0 + 6 });
    expect(ledger.updateOrder({ clientOrderId: 'nope' }, { status: 'live', atMs: T0 })).toBe('unknown');
    expect(() => ledger.updateOrder({ clientOrderId: 'c1' }, { remainingRaw: 11_000_000, atMs: T0 })).toThrow(/exceeds/);
  });

  it('pendingCatchUp names the orders live or unknown at shutdown and the provisional fills', () => {
    const ledger = memoryLedger();
    ledger.recordOrder(orderInput({ clientOrderId: 'live', status: 'live', atMs: T0 }));
    ledger.recordOrder(orderInput({ clientOrderId: 'unknown', status: 'unknown', atMs: T0 + 1 }));
    ledger.recordOrder(orderInput({ clientOrderId: 'pending', atMs: T0 + 2 }));
    ledger.recordOrder(orderInput({ clientOrderId: 'done', status: 'filled', remainingRaw: 0, atMs: T0 + 3 }));
    ledger.recordOrder(orderInput({ clientOrderId: 'gone', status: 'canceled', atMs: T0 + 4 }));
    ledger.recordFill(fillInput({ tradeEventId: 'p', state: 'provisional' }));
    ledger.recordFill(fillInput({ tradeEventId: 'm', state: 'mined' }));
    const catchUp = ledger.pendingCatchUp();
    expect(catchUp.orders.map((order) => order.clientOrderId)).toEqual(['live', 'unknown', 'pending']);
    expect(catchUp.provisionalFills.map((fill) => fill.tradeEventId)).toEqual(['p']);
    expect(ledger.recentlyActiveOrders(T0 + 4).map((order) => order.clientOrderId)).toEqual(['live', 'unknown', 'pending', 'gone']);
  });

  it('survives a close and reopen: catch-up state is on disk', () => {
    const temp = makeTempDir();
    try {
      const path = `${temp.dir}/ledger.sqlite`;
      const first = openLedger({ path });
      first.recordOrder(orderInput({ clientOrderId: 'live', status: 'live' }));
      first.close();
      const second = openLedger({ path });
      expect(second.pendingCatchUp().orders.map((order) => order.clientOrderId)).toEqual(['live']);
      second.close();
    } finally {
      temp.cleanup();
    }
  });
});
