import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
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

describe('open orders in memory (issue 43: no read of SQLite per order update)', () => {
  /** A ledger on a file, and a second connection to that file that changes a row behind the ledger's back. */
  function fileLedger() {
    const tmp = makeTempDir();
    const path = join(tmp.dir, 'ledger.sqlite');
    const ledger = openLedger({ path, now: () => T0 });
    const behind = new BetterSqlite3(path);
    const setStatusBehind = (clientOrderId: string, status: string): void => {
      behind.prepare('UPDATE orders SET status = ? WHERE client_order_id = ?').run(status, clientOrderId);
    };
    const close = (): void => {
      behind.close();
      ledger.close();
      tmp.cleanup();
    };
    return { ledger, setStatusBehind, close };
  }

  it('an open order read once is served from memory with the state each update wrote', () => {
    const { ledger, setStatusBehind, close } = fileLedger();
    try {
      ledger.recordOrder(orderInput({ clientOrderId: 'c1' }));
      expect(ledger.updateOrder({ clientOrderId: 'c1' }, { venueOrderId: 'v-1', status: 'live', atMs: T0 + 1 })).toBe('updated');
      // SQLite now says canceled, but nothing of this ledger wrote it: the open order is not read again.
      setStatusBehind('c1', 'canceled');
      expect(ledger.getOrder({ venueOrderId: 'v-1' })).toMatchObject({ clientOrderId: 'c1', status: 'live', updatedAtMs: T0 + 1 });
      expect(ledger.updateOrder({ venueOrderId: 'v-1' }, { status: 'partially-filled', remainingRaw: 4_000_000, atMs: T0 + 2 })).toBe('updated');
      // What memory holds is what the update wrote to SQLite.
      expect(ledger.getOrder({ clientOrderId: 'c1' })).toEqual(ledger.openOrders().find((o) => o.clientOrderId === 'c1'));
    } finally {
      close();
    }
  });

  it('a terminal order leaves memory: the next read is SQLite\'s', () => {
    const { ledger, setStatusBehind, close } = fileLedger();
    try {
      ledger.recordOrder(orderInput({ clientOrderId: 'c1', venueOrderId: 'v-1' }));
      ledger.updateOrder({ clientOrderId: 'c1' }, { status: 'canceled', atMs: T0 + 1 });
      setStatusBehind('c1', 'filled');
      expect(ledger.getOrder({ venueOrderId: 'v-1' })?.status).toBe('filled');
    } finally {
      close();
    }
  });

  it('a rolled-back update leaves nothing in memory: the order reads as SQLite kept it', () => {
    const ledger = memoryLedger();
    ledger.recordOrder(orderInput({ clientOrderId: 'c1', venueOrderId: 'v-1', status: 'live' }));
    expect(ledger.getOrder({ clientOrderId: 'c1' })?.status).toBe('live');
    expect(() =>
      ledger.atomically(() => {
        ledger.updateOrder({ venueOrderId: 'v-1' }, { status: 'partially-filled', remainingRaw: 4_000_000, atMs: T0 + 1 });
        throw new Error('the fill that came with it was refused');
      }),
    ).toThrow('refused');
    expect(ledger.getOrder({ venueOrderId: 'v-1' })).toMatchObject({ status: 'live', remainingRaw: 10_000_000, updatedAtMs: T0 });
  });
});

