import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LedgerAbortedError, LedgerInputError } from '../../../src/ledger/errors.js';
import type { FillState } from '../../../src/ledger/types.js';
import { fillInput, memoryLedger, orderInput, recordingObserver, T0 } from '../../support/ledger-fixtures.js';

const STATE_OF: Record<'MATCHED' | 'MINED' | 'FAILED', FillState> = { MATCHED: 'provisional', MINED: 'mined', FAILED: 'failed' };
type Frame = keyof typeof STATE_OF;

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

function subsets<T>(items: readonly T[]): T[][] {
  return items.reduce<T[][]>((all, item) => all.concat(all.map((subset) => [...subset, item])), [[]]).filter((s) => s.length > 0);
}

describe('fills: idempotent by construction', () => {
  it('stores the same event once, and the fill it carries once', () => {
    const ledger = memoryLedger();
    const frame = { eventId: 'settlement:t1', type: 'MINED' };
    const ingest = () =>
      ledger.atomically(() => (ledger.recordEvent(frame.eventId, 'SETTLEMENT', frame) ? ledger.recordFill(fillInput({ tradeEventId: 't1' })) : 'skipped'));
    expect(ingest()).toBe('inserted');
    expect(ingest()).toBe('skipped');
    expect(ledger.recordFill(fillInput({ tradeEventId: 't1' }))).toBe('duplicate');
    expect(ledger.counts()).toEqual({ fills: 1, events: 1, orders: 0 });
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(10_000_000);
  });

  const frameSets = subsets<Frame>(['MATCHED', 'MINED', 'FAILED']);
  for (const set of frameSets) {
    for (const order of permutations(set)) {
      it(`MATCHED/MINED/FAILED: ${order.join(' → ')} ends as the highest state, one fill`, () => {
        const ledger = memoryLedger();
        const outcomes = order.map((frame) => ledger.recordFill(fillInput({ tradeEventId: 't1', state: STATE_OF[frame] })));
        const expected: FillState = set.includes('FAILED') ? 'failed' : set.includes('MINED') ? 'mined' : 'provisional';
        expect(outcomes[0]).toBe('inserted');
        expect(ledger.getFill({ tradeEventId: 't1', orderId: 'order-1' })?.state).toBe(expected);
        expect(ledger.counts().fills).toBe(1);
        expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(expected === 'failed' ? 0 : 10_000_000);
        expect(ledger.tokenPosition('btc-100k', 'YES').fillCount).toBe(expected === 'failed' ? 0 : 1);
        expect(ledger.verify()).toEqual([]);
      });
    }
  }

  it('a fill from the POST /orders answer and again from the socket is ONE fill', () => {
    const observer = recordingObserver();
    const ledger = memoryLedger({ observer });
    const fromAnswer = fillInput({ tradeEventId: 'te-9', orderId: 'o-9', role: 'taker', feeRaw: 15_000, collateralRaw: 5_000_000, state: 'provisional' });
    expect(ledger.recordFill(fromAnswer)).toBe('inserted');
    expect(ledger.recordFill({ ...fromAnswer, clientOrderId: 'bot-btc-bid-0-1' })).toBe('duplicate'); // socket MATCHED
    expect(ledger.recordFill({ ...fromAnswer, state: 'mined', txHash: '0xabc', atMs: T0 + 4000 })).toBe('updated');
    expect(ledger.recordFill({ ...fromAnswer, state: 'mined', atMs: T0 + 4000 })).toBe('duplicate');
    const stored = ledger.getFill({ tradeEventId: 'te-9', orderId: 'o-9' });
    expect(stored).toMatchObject({ state: 'mined', txHash: '0xabc', atMs: T0, feeRaw: 15_000, sizeRaw: 10_000_000 });
    expect(ledger.counts().fills).toBe(1);
    expect(observer.count('onConflict')).toBe(0);
    expect(observer.calls.filter(([name]) => name === 'onFill').map(([, outcome]) => outcome)).toEqual([
      'inserted',
      'duplicate',
      'updated',
      'duplicate',
    ]);
  });

  it('keeps the earliest reported time: MINED first, then MATCHED with the match time', () => {
    const ledger = memoryLedger();
    expect(ledger.recordFill(fillInput({ tradeEventId: 't1', state: 'mined', atMs: T0 + 5000 }))).toBe('inserted');
    expect(ledger.recordFill(fillInput({ tradeEventId: 't1', state: 'provisional', atMs: T0 }))).toBe('updated');
    expect(ledger.getFill({ tradeEventId: 't1', orderId: 'order-1' })).toMatchObject({ state: 'mined', atMs: T0 });
    expect(ledger.recordFill(fillInput({ tradeEventId: 't1', state: 'provisional', atMs: T0 }))).toBe('duplicate');
  });

  it('a FAILED known only by its key waits for the fill, which is then born failed', () => {
    const ledger = memoryLedger();
    const key = { tradeEventId: 't7', orderId: 'order-1' };
    expect(ledger.failFill(key, { reason: 'tx reverted', atMs: T0 })).toBe('pending');
    expect(ledger.failFill(key, { reason: 'tx reverted', atMs: T0 })).toBe('duplicate');
    expect(ledger.recordFill(fillInput({ tradeEventId: 't7', state: 'provisional' }))).toBe('inserted');
    expect(ledger.getFill(key)).toMatchObject({ state: 'failed', reason: 'tx reverted' });
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(0);
    expect(ledger.recordFill(fillInput({ tradeEventId: 't7', state: 'mined' }))).toBe('duplicate');
    expect(ledger.failFill(key, { reason: 'again', atMs: T0 })).toBe('duplicate');
  });

  it('reversing a fill in the middle re-derives everything after it', () => {
    const ledger = memoryLedger();
    // A: BUY 10 @ 0.40, B: BUY 10 @ 0.60, C: SELL 10 @ 0.70. With A: avg 0.50, C realizes 2.0.
    ledger.recordFill(fillInput({ tradeEventId: 'A', priceTicks: 400, atMs: T0 }));
    ledger.recordFill(fillInput({ tradeEventId: 'B', priceTicks: 600, atMs: T0 + 1 }));
    ledger.recordFill(fillInput({ tradeEventId: 'C', side: 'SELL', priceTicks: 700, atMs: T0 + 2 }));
    expect(ledger.tokenPosition('btc-100k', 'YES')).toMatchObject({ positionRaw: 10e6, costRaw: 5e6, realizedRaw: 2e6 });
    expect(ledger.failFill({ tradeEventId: 'A', orderId: 'order-1' }, { reason: 'FAILED', atMs: T0 + 3 })).toBe('updated');
    // Without A: B then C closes the position, realized 10 × (0.70 − 0.60) = 1.0.
    expect(ledger.tokenPosition('btc-100k', 'YES')).toMatchObject({ positionRaw: 0, costRaw: 0, realizedRaw: 1e6, fillCount: 2 });
    expect(ledger.getFill({ tradeEventId: 'C', orderId: 'order-1' })).toMatchObject({ realizedDeltaRaw: 1e6, positionAfterRaw: 0 });
    expect(ledger.getFill({ tradeEventId: 'A', orderId: 'order-1' })).toMatchObject({ realizedDeltaRaw: 0, positionAfterRaw: 0 });
    expect(ledger.verify()).toEqual([]);
  });

  it('a fill arriving late with an earlier time is replayed in time order', () => {
    const inOrder = memoryLedger();
    const late = memoryLedger();
    const a = fillInput({ tradeEventId: 'A', priceTicks: 400, atMs: T0 });
    const b = fillInput({ tradeEventId: 'B', side: 'SELL', sizeRaw: 4e6, priceTicks: 700, atMs: T0 + 10 });
    const c = fillInput({ tradeEventId: 'C', priceTicks: 600, atMs: T0 + 20 });
    for (const fill of [a, b, c]) inOrder.recordFill(fill);
    for (const fill of [a, c, b]) late.recordFill(fill);
    expect(late.tokenPosition('btc-100k', 'YES')).toEqual(inOrder.tokenPosition('btc-100k', 'YES'));
    expect(late.tokenPosition('btc-100k', 'YES')).toMatchObject({ positionRaw: 16e6, realizedRaw: 1.2e6 });
    expect(late.verify()).toEqual([]);
  });

  it('the mined report amends a provisional fill that differs, and reports the conflict', () => {
    const observer = recordingObserver();
    const ledger = memoryLedger({ observer });
    ledger.recordFill(fillInput({ tradeEventId: 't1', state: 'provisional', sizeRaw: 10e6 }));
    expect(ledger.recordFill(fillInput({ tradeEventId: 't1', state: 'mined', sizeRaw: 8e6 }))).toBe('updated');
    expect(ledger.tokenPosition('btc-100k', 'YES')).toMatchObject({ positionRaw: 8e6, costRaw: 4e6 });
    expect(observer.calls.find(([name]) => name === 'onConflict')?.[1]).toMatchObject({ kind: 'fill-data-differs' });
    // A same-state repeat with other data keeps the stored data.
    expect(ledger.recordFill(fillInput({ tradeEventId: 't1', state: 'mined', sizeRaw: 9e6 }))).toBe('duplicate');
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(8e6);
    expect(observer.count('onConflict')).toBe(2);
    expect(ledger.verify()).toEqual([]);
  });

  it('reports MINED-after-FAILED and FAILED-after-MINED as conflicts (failed wins)', () => {
    const observer = recordingObserver();
    const ledger = memoryLedger({ observer });
    ledger.recordFill(fillInput({ tradeEventId: 'x', state: 'failed' }));
    ledger.recordFill(fillInput({ tradeEventId: 'x', state: 'mined' }));
    ledger.recordFill(fillInput({ tradeEventId: 'y', state: 'mined' }));
    ledger.recordFill(fillInput({ tradeEventId: 'y', state: 'failed' }));
    const kinds = observer.calls.filter(([name]) => name === 'onConflict').map(([, conflict]) => conflict);
    expect(kinds).toMatchObject([{ kind: 'fill-mined-after-failed' }, { kind: 'fill-failed-after-mined' }]);
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(0);
  });

  it('different orders of one trade (maker and taker both ours) are two fills', () => {
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 't1', orderId: 'maker-order', side: 'SELL', role: 'maker' }));
    ledger.recordFill(fillInput({ tradeEventId: 't1', orderId: 'taker-order', side: 'BUY', role: 'taker' }));
    expect(ledger.counts().fills).toBe(2);
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(0);
  });

  it('rejects bad input with the field and value, and writes nothing', () => {
    const observer = recordingObserver();
    const ledger = memoryLedger({ observer });
    const bad: Array<[Parameters<typeof fillInput>[0], string]> = [
      [{ tradeEventId: 'b1', priceTicks: Number.NaN }, 'fill.priceTicks'],
      [{ tradeEventId: 'b2', priceTicks: 1000 }, 'fill.priceTicks'],
      [{ tradeEventId: 'b3', sizeRaw: 0 }, 'fill.sizeRaw'],
      [{ tradeEventId: 'b4', sizeRaw: 1.5 }, 'fill.sizeRaw'],
      [{ tradeEventId: 'b5', feeRaw: -1 }, 'fill.feeRaw'],
      [{ tradeEventId: '' }, 'fill.tradeEventId'],
      [{ tradeEventId: 'b7', atMs: -5 }, 'fill.atMs'],
    ];
    for (const [overrides, field] of bad) {
      const error = (() => {
        try {
          ledger.recordFill(fillInput(overrides));
        } catch (caught) {
          return caught;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(LedgerInputError);
      expect(error).toMatchObject({ field });
    }
    expect(() => ledger.recordFill(Object.assign(fillInput({ tradeEventId: 'b8' }), { token: 'MAYBE' }))).toThrow(/fill.token/);
    expect(() =>
      ledger.recordFills([fillInput({ tradeEventId: 'ok' }), fillInput({ tradeEventId: 'bad', priceTicks: 0 })]),
    ).toThrow(/fills\[1\]\.fill\.priceTicks/);
    expect(ledger.counts().fills).toBe(0);
    expect(observer.count('onFill')).toBe(0);
  });

  it('atomically() is all or nothing, and observers hear only committed work', () => {
    const observer = recordingObserver();
    const ledger = memoryLedger({ observer });
    expect(() =>
      ledger.atomically(() => {
        ledger.recordEvent('settlement:t1', 'SETTLEMENT', { a: 1 });
        ledger.recordFill(fillInput({ tradeEventId: 't1' }));
        throw new Error('crash between writes');
      }),
    ).toThrow('crash between writes');
    expect(ledger.counts()).toEqual({ fills: 0, events: 0, orders: 0 });
    expect(ledger.hasEvent('settlement:t1')).toBe(false);
    expect(observer.calls).toEqual([]);
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(0);
  });

  it('an inner failure caught by the caller still rolls the whole transaction back', () => {
    const ledger = memoryLedger();
    expect(() =>
      ledger.atomically(() => {
        ledger.recordFill(fillInput({ tradeEventId: 't1' }));
        try {
          ledger.recordOrder(orderInput({ clientOrderId: 'c1', venueOrderId: 'v' }));
          ledger.recordOrder(orderInput({ clientOrderId: 'c2', venueOrderId: 'v' })); // venue id taken
        } catch {
          // swallowed by a careless caller
        }
        return 'done';
      }),
    ).toThrow(LedgerAbortedError);
    expect(ledger.counts()).toEqual({ fills: 0, events: 0, orders: 0 });
  });

  it('an observer that throws does not break bookkeeping', () => {
    const ledger = memoryLedger({
      observer: {
        onFill: () => {
          throw new Error('metrics down');
        },
      },
    });
    expect(ledger.recordFill(fillInput({ tradeEventId: 't1' }))).toBe('inserted');
    expect(ledger.counts().fills).toBe(1);
  });

  it('records a batch in one transaction', () => {
    const ledger = memoryLedger();
    const outcomes = ledger.recordFills([
      fillInput({ tradeEventId: 'a' }),
      fillInput({ tradeEventId: 'b' }),
      fillInput({ tradeEventId: 'a', state: 'provisional' }),
    ]);
    expect(outcomes).toEqual(['inserted', 'inserted', 'duplicate']);
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(20e6);
  });

  it('serves the strategy its position and recent fills', () => {
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 'a', priceTicks: 400, atMs: T0 }));
    ledger.recordFill(fillInput({ tradeEventId: 'b', token: 'NO', tokenId: '222', priceTicks: 300, sizeRaw: 3e6, atMs: T0 + 5 }));
    ledger.recordFill(fillInput({ tradeEventId: 'c', priceTicks: 600, state: 'failed', atMs: T0 + 6 }));
    expect(ledger.marketPosition('btc-100k')).toEqual({ yesRaw: 10e6, noRaw: 3e6, yesAvgCost: 0.4, noAvgCost: 0.3 });
    expect(ledger.recentFills('btc-100k', T0 + 1)).toEqual([{ token: 'NO', side: 'BUY', priceTicks: 300, sizeRaw: 3e6, atMs: T0 + 5 }]);
  });
});

describe('fills: order independence (property)', () => {
  it('any arrival order of any repeated MATCHED/MINED/FAILED frames gives the same ledger', () => {
    const trade = fc.record({
      side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
      token: fc.constantFrom<'YES' | 'NO'>('YES', 'NO'),
      priceTicks: fc.integer({ min: 1, max: 999 }),
      sizeSteps: fc.integer({ min: 1, max: 5000 }),
      frames: fc.subarray<Frame>(['MATCHED', 'MINED', 'FAILED'], { minLength: 1 }),
    });
    fc.assert(
      fc.property(
        fc.array(trade, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.integer({ min: 0, max: 3 }),
        (trades, shuffle, repeats) => {
          const frames = trades.flatMap((t, index) =>
            t.frames.map((frame) =>
              fillInput({
                tradeEventId: `t${index}`,
                side: t.side,
                token: t.token,
                tokenId: t.token === 'YES' ? '111' : '222',
                priceTicks: t.priceTicks,
                sizeRaw: t.sizeSteps * 1000,
                state: STATE_OF[frame],
                // Trades 10 s apart; MINED/FAILED frames carry a later time than MATCHED.
                atMs: T0 + index * 10_000 + (frame === 'MATCHED' ? 0 : 3000),
              }),
            ),
          );
          const arrivals = [...frames, ...frames.slice(0, repeats)];
          for (let i = arrivals.length - 1; i > 0; i -= 1) {
            const j = (shuffle[i % Math.max(shuffle.length, 1)] ?? 0) % (i + 1);
            [arrivals[i], arrivals[j]] = [arrivals[j]!, arrivals[i]!];
          }
          const canonical = memoryLedger();
          for (const frame of frames) canonical.recordFill(frame);
          const shuffled = memoryLedger();
          for (const frame of arrivals) shuffled.recordFill(frame);
          for (const token of ['YES', 'NO'] as const) {
            expect(shuffled.tokenPosition('btc-100k', token)).toEqual(canonical.tokenPosition('btc-100k', token));
          }
          trades.forEach((_, index) => {
            const key = { tradeEventId: `t${index}`, orderId: 'order-1' };
            expect(shuffled.getFill(key)).toMatchObject({
              state: canonical.getFill(key)?.state,
              atMs: canonical.getFill(key)?.atMs,
              realizedDeltaRaw: canonical.getFill(key)?.realizedDeltaRaw,
            });
          });
          expect(shuffled.counts().fills).toBe(trades.length);
          expect(shuffled.verify()).toEqual([]);
          canonical.close();
          shuffled.close();
        },
      ),
      { seed: 424242, numRuns: 150 },
    );
  });
});
