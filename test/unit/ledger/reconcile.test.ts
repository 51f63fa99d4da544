import { describe, expect, it } from 'vitest';
import { LedgerInputError } from '../../../src/ledger/errors.js';
import { KV_LAST_RECONCILIATION } from '../../../src/ledger/kv-repo.js';
import { diffOrderFills, diffPositions, reconcile, repairLedger } from '../../../src/ledger/reconcile.js';
import type { RepairAction } from '../../../src/ledger/types.js';
import { fillInput, memoryLedger, orderInput, recordingObserver, T0 } from '../../support/ledger-fixtures.js';

describe('pure diffs', () => {
  it('compares filled size per order, with both values', () => {
    const ledger = new Map([
      ['a', 5e6],
      ['b', 2e6],
    ]);
    expect(
      diffOrderFills(
        [
          { orderId: 'a', filledRaw: 5e6 },
          { orderId: 'b', clientOrderId: 'cb', filledRaw: 3e6 },
          { orderId: 'c', filledRaw: 1e6 },
        ],
        ledger,
      ),
    ).toEqual([
      { kind: 'order-filled', orderId: 'b', clientOrderId: 'cb', venueFilledRaw: 3e6, ledgerFilledRaw: 2e6 },
      { kind: 'order-filled', orderId: 'c', clientOrderId: null, venueFilledRaw: 1e6, ledgerFilledRaw: 0 },
    ]);
  });

  it('allows for fills recorded after the venue read left: the venue may lack any last run of them, in booking order', () => {
    const ledger = new Map([['a', 10e6]]);
    const late = new Map([['a', [3e6, 4e6]]]); // booked 3 then 4 after the read left: 10, 6 or 3 agree
    const differs = (filledRaw: number) => diffOrderFills([{ orderId: 'a', filledRaw }], ledger, late).length > 0;
    expect([10e6, 6e6, 3e6].map(differs)).toEqual([false, false, false]);
    expect([7e6, 12e6, 0, 2e6].map(differs), 'not the ledger less a last run of the late fills').toEqual([true, true, true, true]);
  });

  it('compares balances; a market missing on either side counts as 0; provisional fills may or may not be counted', () => {
    const mismatches = diffPositions(
      [
        { marketSlug: 'm1', yesRaw: 10e6, noRaw: 0 },
        { marketSlug: 'm3', yesRaw: 0, noRaw: 7e6 },
      ],
      [
        { marketSlug: 'm1', token: 'YES', balanceRaw: 12e6, pendingRaw: 2e6 }, // venue has not counted the 2 yet: agree
        { marketSlug: 'm1', token: 'NO', balanceRaw: 1e6, pendingRaw: 0 },
        { marketSlug: 'm2', token: 'YES', balanceRaw: 4e6, pendingRaw: 0 },
      ],
    );
    expect(mismatches).toEqual([
      { kind: 'position', marketSlug: 'm1', token: 'NO', venueRaw: 0, ledgerRaw: 1e6, pendingRaw: 0 },
      { kind: 'position', marketSlug: 'm2', token: 'YES', venueRaw: 0, ledgerRaw: 4e6, pendingRaw: 0 },
      { kind: 'position', marketSlug: 'm3', token: 'NO', venueRaw: 7e6, ledgerRaw: 0, pendingRaw: 0 },
    ]);
  });
});

function reasons(actions: readonly RepairAction[]): Array<[string, string]> {
  return actions.map((action) => [action.kind, 'reason' in action ? action.reason : '']);
}

function ledgerWithOrder() {
  const observer = recordingObserver();
  const ledger = memoryLedger({ observer });
  ledger.recordOrder(orderInput({ clientOrderId: 'bot-btc-bid-0-1', venueOrderId: 'o1', status: 'live' }));
  ledger.recordFill(fillInput({ tradeEventId: 't1', orderId: 'o1', sizeRaw: 4e6, priceTicks: 500 }));
  return { ledger, observer };
}

describe('reconcile and repair', () => {
  it('reports mismatches through the observer and stamps the reconciliation time', () => {
    const { ledger, observer } = ledgerWithOrder();
    const result = reconcile(ledger, { orders: [{ orderId: 'o1', filledRaw: 10e6 }] }, { atMs: T0 + 9 });
    expect(result.mismatches).toEqual([
      { kind: 'order-filled', orderId: 'o1', clientOrderId: null, venueFilledRaw: 10e6, ledgerFilledRaw: 4e6 },
    ]);
    expect(observer.count('onMismatch')).toBe(1);
    expect(ledger.getKv(KV_LAST_RECONCILIATION)).toBe(String(T0 + 9));
    expect(ledger.counts().fills).toBe(1);
  });

  it('tells the observer whether the previous check saw each mismatch (default: persistent)', () => {
    const { ledger, observer } = ledgerWithOrder();
    const venue = { orders: [{ orderId: 'o1', filledRaw: 10e6 }] };
    reconcile(ledger, venue, { atMs: T0 + 9, seenBefore: () => false });
    reconcile(ledger, venue, { atMs: T0 + 10, seenBefore: () => true });
    reconcile(ledger, venue, { atMs: T0 + 11 });
    expect(observer.calls.filter(([name]) => name === 'onMismatch').map((call) => call[2])).toEqual(['first', 'persistent', 'persistent']);
  });

  it('a fill recorded after the status read left (ordersReadAtMs) is neither a mismatch nor repaired away', () => {
    let clock = T0;
    const observer = recordingObserver();
    const ledger = memoryLedger({ observer, now: () => clock });
    ledger.recordOrder(orderInput({ clientOrderId: 'bot-btc-bid-0-1', venueOrderId: 'o1', status: 'live' }));
    ledger.recordFill(fillInput({ tradeEventId: 't1', orderId: 'o1', sizeRaw: 4e6, state: 'provisional' }));
    const readAt = (clock += 10);
    clock += 5; // the feed books a second fill while the venue's answer (4 filled) travels
    ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'o1', sizeRaw: 2e6, state: 'provisional' }));
    const venue = { orders: [{ orderId: 'o1', filledRaw: 4e6 }], ordersReadAtMs: readAt };
    expect(reconcile(ledger, venue, { atMs: clock }).mismatches).toEqual([]);
    expect(repairLedger(ledger, venue, { atMs: clock }).actions, 'the after-gap repair reverses nothing').toEqual([]);
    expect(ledger.orderFilledTotals(['o1']).get('o1')).toBe(6e6);
    // The same answer read after the fill was booked is a mismatch (the venue lost it).
    expect(reconcile(ledger, { ...venue, ordersReadAtMs: clock + 1 }, { atMs: clock }).mismatches).toHaveLength(1);
    expect(() => reconcile(ledger, { ...venue, ordersReadAtMs: -1 }, { atMs: clock })).toThrow(LedgerInputError);
  });

  it('venue ahead: a stand-in fill at the limit price, superseded by the venue reports when they arrive', () => {
    const { ledger, observer } = ledgerWithOrder();
    const venue = { orders: [{ orderId: 'o1', filledRaw: 10e6 }] };
    const repair = repairLedger(ledger, venue, { atMs: T0 + 10 });
    expect(repair.actions).toMatchObject([{ kind: 'synthetic-fill', orderId: 'o1', sizeRaw: 6e6, priceTicks: 500, side: 'BUY' }]);
    expect(repair.remaining).toEqual([]);
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(10e6);
    expect(ledger.getOrder({ venueOrderId: 'o1' })?.remainingRaw).toBe(0);
    expect(observer.count('onRepair')).toBe(1);
    // Idempotent: nothing left to do.
    expect(repairLedger(ledger, venue, { atMs: T0 + 11 }).actions).toEqual([]);

    // The socket frames of the real trades arrive late: 4 at 0.49, then 2 at 0.50. No double count.
    ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'o1', sizeRaw: 4e6, priceTicks: 490, atMs: T0 + 12 }));
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(10e6);
    ledger.recordFill(fillInput({ tradeEventId: 't3', orderId: 'o1', sizeRaw: 2e6, priceTicks: 500, atMs: T0 + 13 }));
    const live = ledger.fillsForOrder('o1').filter((fill) => fill.state !== 'failed');
    expect(live.map((fill) => [fill.tradeEventId, fill.source, fill.sizeRaw])).toEqual([
      ['t1', 'venue', 4e6],
      ['t2', 'venue', 4e6],
      ['t3', 'venue', 2e6],
    ]);
    expect(ledger.tokenPosition('btc-100k', 'YES')).toMatchObject({ positionRaw: 10e6, costRaw: 2e6 + 1.96e6 + 1e6 });
    expect(reconcile(ledger, venue, { atMs: T0 + 14 }).mismatches).toEqual([]);
    expect(ledger.verify()).toEqual([]);
  });

  it('a MATCHED frame still in flight when the read was answered retires the stand-in; one matched after the read does not', () => {
    const { ledger } = ledgerWithOrder(); // t1: 4 filled
    const readLeft = T0 + 20;
    const repair = repairLedger(ledger, { orders: [{ orderId: 'o1', filledRaw: 7e6, countedBeforeMs: readLeft }] }, { atMs: T0 + 30 });
    expect(repair.actions).toMatchObject([{ kind: 'synthetic-fill', sizeRaw: 3e6 }]);
    const standIn = ledger.fillsForOrder('o1').find((fill) => fill.source === 'reconcile');
    expect(standIn?.atMs, 'dated when the read left').toBe(readLeft);

    // t2 matched before the read left (the venue counted it), its MATCHED frame is booked after the stand-in.
    ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'o1', sizeRaw: 2e6, priceTicks: 500, state: 'provisional', atMs: readLeft - 5 }));
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw, 'counted once: the stand-in is cut to the 1 still missing').toBe(7e6);
    // t3 matched after the read: a trade the stand-in never stood for.
    ledger.recordFill(fillInput({ tradeEventId: 't3', orderId: 'o1', sizeRaw: 2e6, priceTicks: 500, state: 'provisional', atMs: readLeft + 5 }));
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(9e6);
    const live = ledger.fillsForOrder('o1').filter((fill) => fill.state !== 'failed');
    expect(live.map((fill) => [fill.source, fill.sizeRaw])).toEqual([
      ['venue', 4e6],
      ['venue', 2e6],
      ['reconcile', 1e6],
      ['venue', 2e6],
    ]);
    expect(reconcile(ledger, { orders: [{ orderId: 'o1', filledRaw: 9e6 }] }, { atMs: T0 + 40 }).mismatches).toEqual([]);
    expect(ledger.verify()).toEqual([]);
    expect(() => repairLedger(ledger, { orders: [{ orderId: 'o1', filledRaw: 9e6, countedBeforeMs: -1 }] }, { atMs: T0 })).toThrow(/countedBeforeMs/);
  });

  it('ledger ahead by less than a stand-in: the stand-in is cut down to the venue\'s size', () => {
    const { ledger } = ledgerWithOrder(); // t1: 4 filled
    repairLedger(ledger, { orders: [{ orderId: 'o1', filledRaw: 10e6, countedBeforeMs: T0 + 20 }] }, { atMs: T0 + 30 }); // stand-in 6
    // A trade the stand-in stood for, dated after the read by a clock skew: booked as a new one, 2 too many.
    ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'o1', sizeRaw: 2e6, priceTicks: 500, state: 'provisional', atMs: T0 + 25 }));
    ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'o1', sizeRaw: 2e6, priceTicks: 500, state: 'mined', atMs: T0 + 26 }));
    expect(ledger.orderFilledTotals(['o1']).get('o1')).toBe(12e6);
    const repair = repairLedger(ledger, { orders: [{ orderId: 'o1', filledRaw: 10e6 }] }, { atMs: T0 + 40 });
    expect(repair.actions).toMatchObject([
      { kind: 'fill-reversed', tradeEventId: 'reconcile:o1:4000000+6000000', sizeRaw: 6e6 },
      { kind: 'synthetic-fill', tradeEventId: 'reconcile:o1:4000000+6000000/less:2000000', sizeRaw: 4e6, priceTicks: 500 },
    ]);
    expect(repair.remaining).toEqual([]);
    expect(ledger.orderFilledTotals(['o1']).get('o1')).toBe(10e6);
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(10e6);
    expect(ledger.fillsForOrder('o1').find((fill) => fill.tradeEventId.endsWith('/less:2000000'))?.atMs, 'the cut stand-in keeps its date').toBe(T0 + 20);
    expect(repairLedger(ledger, { orders: [{ orderId: 'o1', filledRaw: 10e6 }] }, { atMs: T0 + 41 }).actions).toEqual([]);
    expect(ledger.verify()).toEqual([]);
  });

  it('ledger ahead: reverses provisional fills the venue does not count; a mined excess is left unrepaired', () => {
    const { ledger } = ledgerWithOrder();
    ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'o1', sizeRaw: 3e6, state: 'provisional', atMs: T0 + 1 }));
    const repair = repairLedger(ledger, { orders: [{ orderId: 'o1', filledRaw: 4e6 }] }, { atMs: T0 + 10 });
    expect(repair.actions).toMatchObject([{ kind: 'fill-reversed', tradeEventId: 't2', sizeRaw: 3e6 }]);
    expect(ledger.getFill({ tradeEventId: 't2', orderId: 'o1' })?.state).toBe('failed');
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(4e6);

    const mined = repairLedger(ledger, { orders: [{ orderId: 'o1', filledRaw: 1e6 }] }, { atMs: T0 + 11 });
    expect(reasons(mined.actions)).toEqual([['unrepaired', '3000000 raw of mined fills beyond the venue\'s filled size']]);
    expect(mined.remaining).toHaveLength(1);
  });

  it('an order unknown to the ledger is left unrepaired', () => {
    const { ledger } = ledgerWithOrder();
    const repair = repairLedger(ledger, { orders: [{ orderId: 'ghost', filledRaw: 1e6 }] }, { atMs: T0 });
    expect(repair.actions).toMatchObject([{ kind: 'unrepaired', reason: 'the order is unknown to the ledger' }]);
    expect(ledger.counts().fills).toBe(1);
  });

  it('positions: adjusts to the venue balance at average cost, realizing nothing', () => {
    const { ledger } = ledgerWithOrder(); // 4 YES at 0.50
    ledger.recordFill(fillInput({ tradeEventId: 'n1', orderId: 'o2', token: 'NO', tokenId: '222', sizeRaw: 3e6, priceTicks: 400 }));
    const repair = repairLedger(ledger, { orders: [], positions: [{ marketSlug: 'btc-100k', yesRaw: 6e6, noRaw: 0 }] }, { atMs: T0 + 20 });
    expect(repair.actions).toMatchObject([
      { kind: 'position-adjusted', token: 'YES', deltaRaw: 2e6, priceMicros: 500_000 },
      { kind: 'position-adjusted', token: 'NO', deltaRaw: -3e6 },
    ]);
    expect(repair.remaining).toEqual([]);
    expect(ledger.tokenPosition('btc-100k', 'YES')).toMatchObject({ positionRaw: 6e6, costRaw: 3e6, realizedRaw: 0, fillCount: 1 });
    expect(ledger.tokenPosition('btc-100k', 'NO')).toMatchObject({ positionRaw: 0, costRaw: 0, realizedRaw: 0 });
    const adjustment = ledger.getFill({ tradeEventId: repair.actions[0]!.kind === 'position-adjusted' ? repair.actions[0]!.tradeEventId : '', orderId: '-' });
    expect(adjustment).toMatchObject({ kind: 'adjustment', source: 'reconcile', reason: 'venue balance 6000000, ledger 4000000', tokenId: '111' });
    expect(ledger.verify()).toEqual([]);
  });

  it('positions: never adjusts a key with provisional fills; prices a fresh increase at the mark or the fallback', () => {
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 'p', state: 'provisional', sizeRaw: 2e6 }));
    const pending = repairLedger(ledger, { orders: [], positions: [{ marketSlug: 'btc-100k', yesRaw: 5e6, noRaw: 0 }] }, { atMs: T0 });
    expect(reasons(pending.actions)).toEqual([['unrepaired', 'provisional fills pending: retry once they settle']]);

    const fresh = memoryLedger();
    const venue = { orders: [], positions: [{ marketSlug: 'eth', yesRaw: 0, noRaw: 5e6, noTokenId: '999' }] };
    expect(reasons(repairLedger(fresh, venue, { atMs: T0 }).actions)).toEqual([
      ['unrepaired', 'no average cost, mark or fallback price to value the increase'],
    ]);
    fresh.recordMark({ marketSlug: 'eth', mid: 0.3, atMs: T0 });
    expect(repairLedger(fresh, venue, { atMs: T0 + 1 }).actions).toMatchObject([{ kind: 'position-adjusted', priceMicros: 700_000, deltaRaw: 5e6 }]);
    expect(fresh.tokenPosition('eth', 'NO')).toMatchObject({ positionRaw: 5e6, costRaw: 3.5e6 });
    expect(fresh.tokenIdFor('eth', 'NO')).toBe('999');

    const third = memoryLedger();
    expect(repairLedger(third, venue, { atMs: T0, fallbackPriceMicros: 450_000 }).actions).toMatchObject([{ priceMicros: 450_000 }]);
  });

  it('rejects a malformed venue view before writing anything', () => {
    const { ledger } = ledgerWithOrder();
    expect(() => reconcile(ledger, { orders: [{ orderId: 'o1', filledRaw: -1 }] }, { atMs: T0 })).toThrow(LedgerInputError);
    expect(() => repairLedger(ledger, { orders: [], positions: [{ marketSlug: '', yesRaw: 0, noRaw: 0 }] }, { atMs: T0 })).toThrow(
      /venue.positions\[0\].marketSlug/,
    );
    expect(() => repairLedger(ledger, { orders: [] }, { atMs: T0, fallbackPriceMicros: 2e6 })).toThrow(/fallbackPriceMicros/);
    expect(ledger.getKv(KV_LAST_RECONCILIATION)).toBeNull();
  });
});
