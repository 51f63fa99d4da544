/**
 * Stale provisional fills: a MATCHED fill whose MINED/FAILED report never came (killed process, dropped frame) is
 * settled from the venue's token balance once it is older than the threshold (src/ledger/reconcile.ts).
 */
import { describe, expect, it } from 'vitest';
import { LedgerInputError } from '../../../src/ledger/errors.js';
import {
  classifyStaleProvisional,
  DEFAULT_STALE_PROVISIONAL_MS,
  reconcile,
  repairLedger,
  settleStaleProvisional,
  type VenueView,
} from '../../../src/ledger/reconcile.js';
import type { LedgerStore } from '../../../src/ledger/store.js';
import type { FillRecord, LedgerObserver, RepairAction } from '../../../src/ledger/types.js';
import { fillInput, memoryLedger, orderInput, recordingObserver, T0 } from '../../support/ledger-fixtures.js';

const STALE = DEFAULT_STALE_PROVISIONAL_MS;
const SLUG = 'btc-100k';

/** A ledger on a manual clock: 4 YES mined at 0.50 (order o1), then 2 YES provisional at 0.40 (order o2), both at T0. */
function setup(options: { observer?: LedgerObserver } = {}) {
  const clock = { now: T0 };
  const ledger = memoryLedger({ now: () => clock.now, ...(options.observer ? { observer: options.observer } : {}) });
  ledger.recordFill(fillInput({ tradeEventId: 't1', orderId: 'o1', sizeRaw: 4e6, priceTicks: 500 }));
  ledger.recordFill(fillInput({ tradeEventId: 'p1', orderId: 'o2', sizeRaw: 2e6, priceTicks: 400, state: 'provisional' }));
  return { ledger, clock };
}

function venue(yesRaw: number, noRaw = 0): VenueView {
  return { orders: [], positions: [{ marketSlug: SLUG, yesRaw, noRaw }] };
}

function state(ledger: LedgerStore, tradeEventId: string, orderId: string): FillRecord['state'] | undefined {
  return ledger.getFill({ tradeEventId, orderId })?.state;
}

function kinds(actions: readonly RepairAction[]): string[] {
  return actions.map((action) => action.kind);
}

describe('classifyStaleProvisional (pure)', () => {
  const fill = (overrides: Partial<FillRecord> & { tradeEventId: string }): FillRecord => ({
    id: 1,
    orderId: 'o',
    clientOrderId: null,
    marketSlug: 'm',
    token: 'YES',
    tokenId: '1',
    side: 'BUY',
    priceTicks: 500,
    sizeRaw: 1e6,
    collateralRaw: 5e5,
    feeRaw: 0,
    role: 'maker',
    kind: 'trade',
    source: 'venue',
    state: 'provisional',
    reason: null,
    txHash: null,
    atMs: T0,
    recordedAtMs: T0,
    realizedDeltaRaw: 0,
    positionAfterRaw: 0,
    costAfterRaw: 0,
    ...overrides,
  });

  it('gives each all-stale key a verdict from the venue balance; a key with a fresh fill is not listed', () => {
    const keys = classifyStaleProvisional(
      [
        { marketSlug: 'a', yesRaw: 5e6, noRaw: 2e6 },
        { marketSlug: 'b', yesRaw: 9e6, noRaw: 0 },
      ],
      [
        { marketSlug: 'a', token: 'YES', balanceRaw: 5e6, pendingRaw: 1e6 },
        { marketSlug: 'a', token: 'NO', balanceRaw: 3e6, pendingRaw: 1e6 },
        { marketSlug: 'b', token: 'YES', balanceRaw: 4e6, pendingRaw: 1e6 },
        { marketSlug: 'c', token: 'YES', balanceRaw: 1e6, pendingRaw: 1e6 },
        { marketSlug: 'd', token: 'YES', balanceRaw: 0, pendingRaw: 0 },
      ],
      [
        fill({ tradeEventId: 'a-yes', marketSlug: 'a' }),
        fill({ tradeEventId: 'a-no', marketSlug: 'a', token: 'NO' }),
        fill({ tradeEventId: 'b-yes', marketSlug: 'b' }),
        fill({ tradeEventId: 'c-old', marketSlug: 'c' }),
        fill({ tradeEventId: 'c-new', marketSlug: 'c', atMs: T0 + STALE }), // fresh: key c is left whole
        fill({ tradeEventId: 'd-buy', marketSlug: 'd' }),
        fill({ tradeEventId: 'd-sell', marketSlug: 'd', side: 'SELL' }), // net 0
      ],
      { atMs: T0 + STALE, staleProvisionalMs: STALE },
    );
    expect(keys.map((key) => [key.marketSlug, key.token, key.verdict, key.venueRaw, key.ledgerRaw, key.pendingRaw])).toEqual([
      ['a', 'YES', 'settled', 5e6, 5e6, 1e6],
      ['a', 'NO', 'failed', 2e6, 3e6, 1e6],
      ['b', 'YES', 'ambiguous', 9e6, 4e6, 1e6],
      ['d', 'YES', 'ambiguous', 0, 0, 0],
    ]);
    expect(keys[3]!.detail).toMatch(/net size is 0/);
    expect(keys[3]!.fills.map((f) => f.tradeEventId)).toEqual(['d-buy', 'd-sell']);
  });

  it('counts the age from the later of the trade time and the recording; a closed market is ambiguous', () => {
    const late = fill({ tradeEventId: 'late', recordedAtMs: T0 + 1000 }); // the MATCHED frame itself came late
    const balances = [{ marketSlug: 'm', token: 'YES' as const, balanceRaw: 1e6, pendingRaw: 1e6 }];
    const positions = [{ marketSlug: 'm', yesRaw: 1e6, noRaw: 0 }];
    expect(classifyStaleProvisional(positions, balances, [late], { atMs: T0 + STALE, staleProvisionalMs: STALE })).toEqual([]);
    const [key] = classifyStaleProvisional(positions, balances, [late], { atMs: T0 + STALE + 1000, staleProvisionalMs: STALE });
    expect(key).toMatchObject({ verdict: 'settled', fills: [{ tradeEventId: 'late', sinceMs: T0 + 1000 }] });
    const closed = classifyStaleProvisional(positions, balances, [late], {
      atMs: T0 + STALE + 1000,
      staleProvisionalMs: STALE,
      closedMarkets: new Set(['m']),
    });
    expect(closed).toMatchObject([{ verdict: 'ambiguous' }]);
    expect(closed[0]!.detail).toMatch(/resolved or redeemed/);
  });
});

describe('repairLedger settles stale provisional fills', () => {
  it('confirms them when the venue balance counts them (state mined, economics unchanged)', () => {
    const observer = recordingObserver();
    const { ledger } = setup({ observer });
    const before = ledger.getFill({ tradeEventId: 'p1', orderId: 'o2' })!;
    const positionBefore = ledger.tokenPosition(SLUG, 'YES');
    const repair = repairLedger(ledger, venue(6e6), { atMs: T0 + STALE });
    expect(repair.actions).toMatchObject([
      { kind: 'fill-confirmed', tradeEventId: 'p1', orderId: 'o2', marketSlug: SLUG, token: 'YES', side: 'BUY', sizeRaw: 2e6 },
    ]);
    expect(repair.remaining).toEqual([]);
    const after = ledger.getFill({ tradeEventId: 'p1', orderId: 'o2' })!;
    expect(after.state).toBe('mined');
    expect(after.reason).toMatch(/^provisional for 300 s with no settlement report; confirmed: the venue counts them/);
    const { state: _before, reason: _r1, ...economicsBefore } = before;
    const { state: _after, reason: _r2, ...economicsAfter } = after;
    expect(economicsAfter).toEqual(economicsBefore);
    expect(ledger.tokenPosition(SLUG, 'YES')).toEqual(positionBefore);
    expect(ledger.pendingCatchUp().provisionalFills).toEqual([]);
    expect(observer.calls.filter(([name]) => name === 'onRepair').map(([, action]) => (action as RepairAction).kind)).toEqual(['fill-confirmed']);
    expect(observer.calls).toContainEqual(['onFill', 'updated', 'mined', 'venue']);
    expect(ledger.verify()).toEqual([]);
  });

  it('fails them when the venue balance excludes them (reversed as a FAILED report would)', () => {
    const { ledger } = setup();
    const repair = repairLedger(ledger, venue(4e6), { atMs: T0 + STALE });
    expect(repair.actions).toMatchObject([{ kind: 'fill-failed', tradeEventId: 'p1', orderId: 'o2', sizeRaw: 2e6 }]);
    expect(repair.remaining).toEqual([]);
    expect(ledger.getFill({ tradeEventId: 'p1', orderId: 'o2' })).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/; failed: the venue does not count them \(venue balance 4000000, ledger 6000000 with them, 4000000 without\)$/) as unknown,
    });
    expect(ledger.tokenPosition(SLUG, 'YES')).toMatchObject({ positionRaw: 4e6, costRaw: 2e6 });
    expect(ledger.verify()).toEqual([]);
  });

  it('handles a sell and several fills of one key together', () => {
    const { ledger } = setup();
    ledger.recordFill(fillInput({ tradeEventId: 's1', orderId: 'o3', side: 'SELL', sizeRaw: 1e6, priceTicks: 600, state: 'provisional', atMs: T0 + 10 }));
    // 4 mined + 2 bought − 1 sold, all counted by the venue: 5.
    const repair = repairLedger(ledger, venue(5e6), { atMs: T0 + 10 + STALE });
    expect(repair.actions).toMatchObject([
      { kind: 'fill-confirmed', tradeEventId: 'p1' },
      { kind: 'fill-confirmed', tradeEventId: 's1', side: 'SELL' },
    ]);
    expect(ledger.pendingCatchUp().provisionalFills).toEqual([]);
  });

  it('leaves them alone when the balance is ambiguous, reporting the key unrepaired with the balances', () => {
    const { ledger } = setup();
    const repair = repairLedger(ledger, venue(5e6), { atMs: T0 + STALE });
    expect(repair.actions).toEqual([
      {
        kind: 'unrepaired',
        mismatch: { kind: 'position', marketSlug: SLUG, token: 'YES', venueRaw: 5e6, ledgerRaw: 6e6, pendingRaw: 2e6 },
        reason:
          'stale provisional fills left undecided: the venue balance matches the ledger neither with them nor without (venue balance 5000000, ledger 6000000 with them, 4000000 without)',
      },
    ]);
    expect(state(ledger, 'p1', 'o2')).toBe('provisional');
    expect(ledger.tokenPosition(SLUG, 'YES').positionRaw).toBe(6e6);
  });

  it('leaves them alone while not yet stale, whatever the balance says', () => {
    const { ledger } = setup();
    for (const balance of [6e6, 4e6]) {
      expect(repairLedger(ledger, venue(balance), { atMs: T0 + STALE - 1 }).actions).toEqual([]);
    }
    expect(kinds(repairLedger(ledger, venue(5e6), { atMs: T0 + STALE - 1 }).actions)).toEqual(['unrepaired']);
    expect(repairLedger(ledger, venue(5e6), { atMs: T0 + STALE - 1 }).actions).toMatchObject([
      { reason: 'provisional fills pending: retry once they settle' },
    ]);
    expect(state(ledger, 'p1', 'o2')).toBe('provisional');
  });

  it('leaves a whole key alone while one of its provisional fills is fresh', () => {
    const { ledger } = setup();
    ledger.recordFill(fillInput({ tradeEventId: 'p2', orderId: 'o4', sizeRaw: 1e6, state: 'provisional', atMs: T0 + 60_000 }));
    expect(repairLedger(ledger, venue(7e6), { atMs: T0 + STALE }).actions).toEqual([]);
    expect([state(ledger, 'p1', 'o2'), state(ledger, 'p2', 'o4')]).toEqual(['provisional', 'provisional']);
    // Once both are stale, the balance decides for both.
    expect(kinds(repairLedger(ledger, venue(7e6), { atMs: T0 + 60_000 + STALE }).actions)).toEqual(['fill-confirmed', 'fill-confirmed']);
  });

  it('leaves them alone in a resolved or redeemed market (its balance no longer tells)', () => {
    const { ledger } = setup();
    ledger.recordResolution(SLUG, { winningOutcomeIndex: 0 }, T0 + 1);
    expect(repairLedger(ledger, venue(6e6), { atMs: T0 + STALE }).actions).toEqual([]);
    expect(state(ledger, 'p1', 'o2')).toBe('provisional');

    const other = setup().ledger;
    other.recordRedemption(SLUG, 6e6, { atMs: T0 + 1 });
    expect(repairLedger(other, venue(0), { atMs: T0 + STALE }).actions).toEqual([]);
    expect(state(other, 'p1', 'o2')).toBe('provisional');
  });

  it('is idempotent: a second run changes nothing', () => {
    for (const balance of [6e6, 4e6, 5e6]) {
      const { ledger } = setup();
      const first = repairLedger(ledger, venue(balance), { atMs: T0 + STALE });
      expect(first.actions).toHaveLength(1);
      const fills = ledger.fillsForOrder('o2');
      const position = ledger.tokenPosition(SLUG, 'YES');
      const counts = ledger.counts();
      const second = repairLedger(ledger, venue(balance), { atMs: T0 + STALE + 60_000 });
      // An ambiguous key is reported again (unrepaired), but nothing is written.
      expect(second.actions).toEqual(first.actions.filter((action) => action.kind === 'unrepaired'));
      expect(ledger.fillsForOrder('o2')).toEqual(fills);
      expect(ledger.tokenPosition(SLUG, 'YES')).toEqual(position);
      expect(ledger.counts()).toEqual(counts);
      expect(ledger.verify()).toEqual([]);
    }
  });

  it('a key whose stale fill was confirmed is position-repairable again', () => {
    const { ledger } = setup();
    // While the fill is provisional a balance of 7 matches neither 6 nor 4: unrepairable.
    expect(repairLedger(ledger, venue(7e6), { atMs: T0 + 1 }).actions).toMatchObject([
      { kind: 'unrepaired', reason: 'provisional fills pending: retry once they settle' },
    ]);
    // The venue shows 6: the stale fill is confirmed.
    expect(kinds(repairLedger(ledger, venue(6e6), { atMs: T0 + STALE }).actions)).toEqual(['fill-confirmed']);
    // A later difference on that key is now adjusted like any other.
    const repair = repairLedger(ledger, venue(7e6), { atMs: T0 + STALE + 60_000 });
    expect(repair.actions).toMatchObject([{ kind: 'position-adjusted', token: 'YES', deltaRaw: 1e6 }]);
    expect(repair.remaining).toEqual([]);
    expect(ledger.tokenPosition(SLUG, 'YES').positionRaw).toBe(7e6);
    expect(ledger.verify()).toEqual([]);
  });

  it('judges the key after the order repairs of the same pass', () => {
    const { ledger } = setup();
    // A fill of another order was missed entirely; the status batch reports it, the balance counts it.
    ledger.recordOrder(orderInput({ clientOrderId: 'c5', venueOrderId: 'o5', status: 'live', sizeRaw: 3e6 }));
    const repair = repairLedger(
      ledger,
      { orders: [{ orderId: 'o5', filledRaw: 3e6 }], positions: [{ marketSlug: SLUG, yesRaw: 9e6, noRaw: 0 }] },
      { atMs: T0 + STALE },
    );
    expect(kinds(repair.actions)).toEqual(['synthetic-fill', 'fill-confirmed']);
    expect(repair.remaining).toEqual([]);
    expect(ledger.tokenPosition(SLUG, 'YES').positionRaw).toBe(9e6);
  });

  it('takes the threshold as an option and rejects a bad one', () => {
    const { ledger } = setup();
    expect(repairLedger(ledger, venue(6e6), { atMs: T0 + 59_999, staleProvisionalMs: 60_000 }).actions).toEqual([]);
    expect(kinds(repairLedger(ledger, venue(6e6), { atMs: T0 + 60_000, staleProvisionalMs: 60_000 }).actions)).toEqual(['fill-confirmed']);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => repairLedger(ledger, venue(6e6), { atMs: T0, staleProvisionalMs: bad })).toThrow(LedgerInputError);
    }
  });

  it('does nothing without the venue positions (e.g. the feed-gap repair)', () => {
    const { ledger } = setup();
    expect(repairLedger(ledger, { orders: [] }, { atMs: T0 + STALE }).actions).toEqual([]);
    expect(state(ledger, 'p1', 'o2')).toBe('provisional');
  });
});

describe('reconcile and settleStaleProvisional', () => {
  it('reconcile lists the stale keys and their verdicts, writing no fill', () => {
    const { ledger } = setup();
    const result = reconcile(ledger, venue(4e6), { atMs: T0 + STALE });
    expect(result.mismatches).toEqual([]);
    expect(result.staleProvisional).toMatchObject([
      { marketSlug: SLUG, token: 'YES', verdict: 'failed', venueRaw: 4e6, ledgerRaw: 6e6, pendingRaw: 2e6, fills: [{ tradeEventId: 'p1', orderId: 'o2' }] },
    ]);
    expect(reconcile(ledger, venue(4e6), { atMs: T0 + STALE - 1 }).staleProvisional).toEqual([]);
    expect(state(ledger, 'p1', 'o2')).toBe('provisional');
  });

  it('confirms always; fails only the verdicts failStale allows', () => {
    const { ledger } = setup();
    const held = settleStaleProvisional(ledger, venue(4e6), { atMs: T0 + STALE, failStale: () => false });
    expect(held.actions).toEqual([]);
    expect(held.stale).toMatchObject([{ verdict: 'failed' }]);
    expect(state(ledger, 'p1', 'o2')).toBe('provisional');
    const allowed = settleStaleProvisional(ledger, venue(4e6), { atMs: T0 + STALE, failStale: (key) => key.venueRaw === 4e6 });
    expect(kinds(allowed.actions)).toEqual(['fill-failed']);
    expect(state(ledger, 'p1', 'o2')).toBe('failed');

    const other = setup().ledger;
    expect(kinds(settleStaleProvisional(other, venue(6e6), { atMs: T0 + STALE, failStale: () => false }).actions)).toEqual(['fill-confirmed']);
  });
});

describe('confirmFill keeps the merge rule', () => {
  it('advances provisional to mined only; late reports merge as usual', () => {
    const observer = recordingObserver();
    const { ledger } = setup({ observer });
    expect(ledger.confirmFill({ tradeEventId: 't1', orderId: 'o1' }, 'already mined')).toBe(false);
    expect(ledger.confirmFill({ tradeEventId: 'nope', orderId: 'o1' }, 'unknown')).toBe(false);
    expect(ledger.confirmFill({ tradeEventId: 'p1', orderId: 'o2' }, 'venue balance counts it')).toBe(true);
    expect(ledger.confirmFill({ tradeEventId: 'p1', orderId: 'o2' }, 'again')).toBe(false);
    expect(() => ledger.confirmFill({ tradeEventId: 'p1', orderId: 'o2' }, ' ')).toThrow(LedgerInputError);
    // The MINED report arrives after all: nothing changes.
    expect(ledger.recordFill(fillInput({ tradeEventId: 'p1', orderId: 'o2', sizeRaw: 2e6, priceTicks: 400, state: 'mined' }))).toBe('duplicate');
    expect(observer.count('onConflict')).toBe(0);
    // A FAILED report after the confirmation wins (failed > mined) and is reported as a conflict.
    expect(ledger.failFill({ tradeEventId: 'p1', orderId: 'o2' }, { reason: 'settlement FAILED', atMs: T0 + 1 })).toBe('updated');
    expect(observer.calls).toContainEqual(['onConflict', expect.objectContaining({ kind: 'fill-failed-after-mined' })]);
    expect(ledger.tokenPosition(SLUG, 'YES').positionRaw).toBe(4e6);
    expect(ledger.verify()).toEqual([]);
  });
});
