/**
 * The position book (src/ledger/position-book.ts) through the ledger's public entries: every booking path (fills in
 * time order and out of it, settlement failures, reconciliation stand-ins and adjustments, redemptions, orders' token
 * ids) leaves it equal to the ledger; a rolled-back write never reaches it; a reopened ledger loads it; a difference
 * (the table changed behind its back) is found, reported and repaired by `checkPositionBook`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger, type LedgerStore } from '../../../src/ledger/store.js';
import { fillInput, makeTempDir, memoryLedger, orderInput, T0 } from '../../support/ledger-fixtures.js';

const ledgers: LedgerStore[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

function open(): LedgerStore {
  const ledger = memoryLedger();
  ledgers.push(ledger);
  return ledger;
}

/** The book's figures beside the ledger's (SQLite) for the markets given. */
function expectBookEqualsLedger(ledger: LedgerStore, slugs: readonly string[]): void {
  expect(ledger.checkPositionBook().differences).toEqual([]);
  const book = ledger.positionBook;
  let heldCost = 0;
  for (const slug of slugs) {
    expect(book.marketPosition(slug)).toEqual(ledger.marketPosition(slug));
    for (const token of ['YES', 'NO'] as const) expect(book.tokenPosition(slug, token)).toEqual(ledger.tokenPosition(slug, token));
    const cost = Math.max(0, ledger.tokenPosition(slug, 'YES').costRaw) + Math.max(0, ledger.tokenPosition(slug, 'NO').costRaw);
    expect(book.positionCostRaw(slug)).toBe(cost);
    const held = ledger.tokenBalances().some((b) => b.marketSlug === slug && b.balanceRaw !== 0);
    expect(book.isHeld(slug)).toBe(held);
    if (held) heldCost += cost;
  }
  expect(book.heldCostRaw()).toBe(heldCost);
}

describe('PositionBook', () => {
  it('every booking path keeps it equal to the ledger, held cost included', () => {
    const ledger = open();
    ledger.recordOrder(orderInput({ clientOrderId: 'c-1', marketSlug: 'eth', tokenId: '222' }));
    expect(ledger.positionBook.tokenIdFor('eth', 'YES')).toBe('222');
    ledger.recordFill(fillInput({ tradeEventId: 't1', sizeRaw: 10_000_000, priceTicks: 400 }));
    ledger.recordFill(fillInput({ tradeEventId: 't2', side: 'SELL', sizeRaw: 4_000_000, priceTicks: 450, atMs: T0 + 2_000 }));
    // Out of time order: the key is replayed.
    ledger.recordFill(fillInput({ tradeEventId: 't3', sizeRaw: 2_000_000, priceTicks: 300, atMs: T0 + 1_000 }));
    ledger.recordFill(fillInput({ tradeEventId: 't4', token: 'NO', tokenId: '112', sizeRaw: 6_000_000, priceTicks: 550, state: 'provisional' }));
    ledger.recordFill(fillInput({ tradeEventId: 'e1', orderId: 'order-2', marketSlug: 'eth', tokenId: '222', sizeRaw: 3_000_000 }));
    expectBookEqualsLedger(ledger, ['btc-100k', 'eth']);
    expect(ledger.positionBook.tokenBalanceById('111')).toBe(8_000_000);
    expect(ledger.positionBook.tokenBalanceById('112')).toBe(6_000_000);

    // Settlement FAILED: reversed. A reconciliation stand-in and an adjustment.
    ledger.failFill({ tradeEventId: 't4', orderId: 'order-1' }, { reason: 'settlement failed', atMs: T0 + 3_000 });
    ledger.applySyntheticFill({ tradeEventId: 's1', orderId: 'order-9', clientOrderId: null, marketSlug: 'sol', token: 'NO', tokenId: '333', side: 'BUY', sizeRaw: 5_000_000, atMs: T0 + 4_000, priceTicks: 200, reason: 'test' });
    ledger.applyAdjustment({ tradeEventId: 'a1', marketSlug: 'eth', token: 'YES', tokenId: '222', atMs: T0 + 5_000, deltaRaw: -1_000_000, priceMicros: 500_000, reason: 'test' });
    expectBookEqualsLedger(ledger, ['btc-100k', 'eth', 'sol']);
    expect(ledger.positionBook.tokenBalanceById('112')).toBe(0);

    // A redemption: the tokens are gone (not held), the cost stays as the ledger keeps it.
    const before = ledger.positionBook.heldCostRaw();
    const ethCost = ledger.positionBook.positionCostRaw('eth');
    ledger.recordRedemption('eth', 2_000_000, { atMs: T0 + 6_000 });
    expect(ledger.positionBook.isHeld('eth')).toBe(false);
    expect(ledger.positionBook.heldCostRaw()).toBe(before - ethCost);
    expect(ledger.positionBook.tokenBalanceById('222')).toBeUndefined();
    expectBookEqualsLedger(ledger, ['btc-100k', 'eth', 'sol']);
  });

  it('a rolled-back write never reaches it', () => {
    const ledger = open();
    ledger.recordFill(fillInput({ tradeEventId: 't1' }));
    const held = ledger.positionBook.marketPosition('btc-100k');
    expect(() =>
      ledger.atomically(() => {
        ledger.recordFill(fillInput({ tradeEventId: 't2', sizeRaw: 7_000_000 }));
        ledger.recordRedemption('btc-100k', 1, { atMs: T0 });
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(ledger.positionBook.marketPosition('btc-100k')).toEqual(held);
    expect(ledger.positionBook.isHeld('btc-100k')).toBe(true);
    expectBookEqualsLedger(ledger, ['btc-100k']);
  });

  it('is loaded from the ledger file when it opens again', () => {
    const tmp = makeTempDir();
    try {
      const path = `${tmp.dir}/ledger.db`;
      const first = openLedger({ path, synchronous: 'NORMAL', now: () => T0 });
      first.recordFill(fillInput({ tradeEventId: 't1' }));
      first.recordFill(fillInput({ tradeEventId: 't2', marketSlug: 'eth', tokenId: '222' }));
      first.recordRedemption('eth', 10_000_000, { atMs: T0 });
      const figures = [first.positionBook.heldCostRaw(), first.positionBook.marketPosition('btc-100k')];
      first.close();
      const again = openLedger({ path, synchronous: 'NORMAL', now: () => T0 });
      ledgers.push(again);
      expect([again.positionBook.heldCostRaw(), again.positionBook.marketPosition('btc-100k')]).toEqual(figures);
      expect(again.positionBook.isHeld('eth')).toBe(false);
      expect(again.positionBook.tokenBalanceById('111')).toBe(10_000_000);
      expectBookEqualsLedger(again, ['btc-100k', 'eth']);
    } finally {
      tmp.cleanup();
    }
  });

  it('a difference with the ledger is reported and repaired from the ledger', () => {
    const ledger = open();
    ledger.recordFill(fillInput({ tradeEventId: 't1' }));
    // Behind the book's back (what a booking path without its hook would do).
    ledger.db.prepare(`UPDATE positions SET position_raw = 3000000, cost_raw = 1500000 WHERE market_slug = 'btc-100k' AND token = 'YES'`).run();
    const check = ledger.checkPositionBook();
    expect(check.repaired).toBe(true);
    expect(check.differences).toEqual([
      'btc-100k YES positionRaw: book 10000000, ledger 3000000',
      'btc-100k YES costRaw: book 5000000, ledger 1500000',
    ]);
    expect(ledger.positionBook.marketPosition('btc-100k').yesRaw).toBe(3_000_000);
    expect(ledger.positionBook.heldCostRaw()).toBe(1_500_000);
    expect(ledger.checkPositionBook()).toMatchObject({ differences: [], repaired: false });
  });
});
