import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyPositionEvent,
  averageCost,
  averageCostDecimal,
  FLAT,
  holdingValue,
  replayPosition,
  resolutionPayout,
  roundDiv,
  type PositionEvent,
} from '../../../src/ledger/position-math.js';

const buy = (sizeRaw: number, collateralRaw: number): PositionEvent => ({ kind: 'trade', side: 'BUY', sizeRaw, collateralRaw });
const sell = (sizeRaw: number, collateralRaw: number): PositionEvent => ({ kind: 'trade', side: 'SELL', sizeRaw, collateralRaw });

describe('roundDiv', () => {
  it('rounds halves away from zero and everything else to nearest', () => {
    expect(roundDiv(7n, 2n)).toBe(4n);
    expect(roundDiv(-7n, 2n)).toBe(-4n);
    expect(roundDiv(5n, 3n)).toBe(2n);
    expect(roundDiv(4n, 3n)).toBe(1n);
    expect(roundDiv(-5n, 3n)).toBe(-2n);
    expect(roundDiv(-4n, 3n)).toBe(-1n);
    expect(roundDiv(6n, 3n)).toBe(2n);
  });
});

describe('average-cost position (hand-computed)', () => {
  it('partial fills: two buys, a partial sell, a closing sell', () => {
    // BUY 10 @ 0.40, BUY 5 @ 0.70 → 15 at avg 0.50; SELL 6 @ 0.60 realizes 6 × 0.10 = 0.6;
    // SELL 9 @ 0.45 realizes 9 × −0.05 = −0.45. Total 0.15 = the net cash flow.
    const result = replayPosition([buy(10e6, 4e6), buy(5e6, 3.5e6), sell(6e6, 3.6e6), sell(9e6, 4.05e6)]);
    expect(result.steps.map((step) => step.realizedRaw)).toEqual([0, 0, 600_000, -450_000]);
    expect(result.steps.map((step) => step.state)).toEqual([
      { positionRaw: 10e6, costRaw: 4e6 },
      { positionRaw: 15e6, costRaw: 7.5e6 },
      { positionRaw: 9e6, costRaw: 4.5e6 },
      { positionRaw: 0, costRaw: 0 },
    ]);
    expect(result.realizedRaw).toBe(150_000);
    expect(averageCost(result.steps[1]!.state)).toBe(0.5);
  });

  it('rounds a partial close to the nearest raw unit and takes the exact rest when flat', () => {
    // 3 shares cost 5000 raw; closing 1 of 3 removes 1666.67 → 1667; the last 2 take exactly 3333.
    const result = replayPosition([buy(1e6, 1000), buy(2e6, 4000), sell(1e6, 2000), sell(2e6, 4000)]);
    expect(result.steps.map((step) => step.realizedRaw)).toEqual([0, 0, 333, 667]);
    expect(result.state).toEqual(FLAT);
    expect(result.realizedRaw).toBe(1000);
  });

  it('flips through zero: closes the long, opens a short, buys it back', () => {
    // Long 2 @ 0.50; SELL 5 @ 0.60 (3.0): 2 close for 1.2 (realized 0.2), 3 open short with basis −1.8;
    // BUY 3 @ 0.40 (1.2) closes the short: realized 1.8 − 1.2 = 0.6.
    const result = replayPosition([buy(2e6, 1e6), sell(5e6, 3e6), buy(3e6, 1.2e6)]);
    expect(result.steps.map((step) => step.realizedRaw)).toEqual([0, 200_000, 600_000]);
    expect(result.steps[1]!.state).toEqual({ positionRaw: -3e6, costRaw: -1.8e6 });
    expect(result.state).toEqual(FLAT);
  });

  it('an adjustment moves the position at average cost and realizes nothing', () => {
    const long = applyPositionEvent(FLAT, buy(10e6, 5e6)).state;
    const down = applyPositionEvent(long, { kind: 'adjustment', side: 'SELL', sizeRaw: 4e6, collateralRaw: 0 });
    expect(down).toEqual({ state: { positionRaw: 6e6, costRaw: 3e6 }, realizedRaw: 0 });
    const up = applyPositionEvent(down.state, { kind: 'adjustment', side: 'BUY', sizeRaw: 2e6, collateralRaw: 1e6 });
    expect(up).toEqual({ state: { positionRaw: 8e6, costRaw: 4e6 }, realizedRaw: 0 });
  });

  it('formats the rational average cost to 1e-6', () => {
    expect(averageCostDecimal({ positionRaw: 3e6, costRaw: 1e6 })).toBe('0.333333');
    expect(averageCostDecimal({ positionRaw: 3e6, costRaw: 2e6 })).toBe('0.666667');
    expect(averageCostDecimal({ positionRaw: -3e6, costRaw: -1.8e6 })).toBe('0.600000');
    expect(averageCostDecimal(FLAT)).toBeNull();
  });

  it('conserves cash: Σ signed trade cash = Σ realized + remaining basis, exactly (property)', () => {
    const trade = fc.record({
      side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
      sizeRaw: fc.integer({ min: 1, max: 50_000 }).map((steps) => steps * 1000),
      priceTicks: fc.integer({ min: 1, max: 999 }),
    });
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 60 }), (trades) => {
        const events = trades.map((t): PositionEvent => ({
          kind: 'trade',
          side: t.side,
          sizeRaw: t.sizeRaw,
          collateralRaw: Math.round((t.sizeRaw * t.priceTicks) / 1000),
        }));
        const result = replayPosition(events);
        const cash = events.reduce((sum, e) => sum + (e.side === 'SELL' ? e.collateralRaw : -e.collateralRaw), 0);
        const position = events.reduce((sum, e) => sum + (e.side === 'BUY' ? e.sizeRaw : -e.sizeRaw), 0);
        expect(result.state.positionRaw).toBe(position);
        expect(cash).toBe(result.realizedRaw - result.state.costRaw);
        if (position === 0) expect(result.state.costRaw).toBe(0);
      }),
      { seed: 20250115, numRuns: 300 },
    );
  });
});

describe('valuation', () => {
  it('values YES+NO pairs at 1 and the rest at the mark', () => {
    // 10 YES + 4 NO at mid 0.6: 4 pairs = 4.0, 6 YES × 0.6 = 3.6 → 7.6.
    expect(holdingValue(10e6, 4e6, 600_000)).toBe(7_600_000);
    // NO marked at 1 − mid: 2 YES + 5 NO at 0.6 → 2 pairs + 3 × 0.4 = 3.2.
    expect(holdingValue(2e6, 5e6, 600_000)).toBe(3_200_000);
    // A perfect pair needs no mark; anything else does.
    expect(holdingValue(5e6, 5e6, null)).toBe(5_000_000);
    expect(holdingValue(5e6, 4e6, null)).toBeNull();
    expect(holdingValue(0, 0, null)).toBe(0);
  });

  it('pays resolutions rounded down, with payout numerators for a split', () => {
    expect(resolutionPayout(10e6, 1, 1)).toBe(10e6);
    expect(resolutionPayout(10e6, 0, 1)).toBe(0);
    expect(resolutionPayout(10e6, 1, 4)).toBe(2_500_000);
    expect(resolutionPayout(1, 1, 3)).toBe(0);
    expect(resolutionPayout(4e6, 3, 4)).toBe(3e6);
  });
});
