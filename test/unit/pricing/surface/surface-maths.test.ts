/**
 * The surface's pure maths (src/pricing/surface/): the intraday profile's integral, the inversion of a mid through
 * the digital, the robust mean, the ladder's tail fit (the 0.651 / 0.263 / 0.102 ladder), the calendar floor,
 * and the realized–implied gap in the digital's uncertainty. Known values and properties (fast-check, fixed seed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digitalFairValue, normalCdf } from '../../../../src/pricing/model/index.js';
import {
  calendarFloor,
  DEFAULT_HOURLY_VARIANCE,
  fitLadderTails,
  FLAT_PROFILE,
  impliedTotalVariance,
  integratedSeconds,
  makeProfile,
  robustMean,
  tailCdf,
  tailQuantile,
  usableMid,
} from '../../../../src/pricing/surface/index.js';

const DAY = Date.UTC(2025, 11, 17);
const PROFILE = makeProfile(DEFAULT_HOURLY_VARIANCE, 1);

describe('intraday profile', () => {
  it('integrates a UTC day to 86,400 s, a flat clock to the elapsed time, and an hour to its weight', () => {
    expect(integratedSeconds(PROFILE, DAY, DAY + 86_400_000)).toBeCloseTo(86_400, 6);
    expect(integratedSeconds(PROFILE, DAY + 5 * 3_600_000 + 123, DAY + 7 * 86_400_000 + 5 * 3_600_000 + 123)).toBeCloseTo(7 * 86_400, 6);
    expect(integratedSeconds(FLAT_PROFILE, DAY + 1234, DAY + 99_999)).toBeCloseTo(98.765, 9);
    const mean = DEFAULT_HOURLY_VARIANCE.reduce((a, b) => a + b, 0) / 24;
    // 14:00–15:00 UTC carries 1.55 / mean of an average hour; half strength halves the tilt.
    expect(integratedSeconds(PROFILE, DAY + 14 * 3_600_000, DAY + 15 * 3_600_000)).toBeCloseTo((3600 * 1.55) / mean, 6);
    expect(integratedSeconds(makeProfile(DEFAULT_HOURLY_VARIANCE, 0.5), DAY + 14 * 3_600_000, DAY + 15 * 3_600_000)).toBeCloseTo(3600 * (0.5 + (0.5 * 1.55) / mean), 6);
    expect(integratedSeconds(PROFILE, DAY + 10, DAY + 10)).toBe(0);
  });

  it('is additive and increasing in its upper end (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 86_400_000 }), fc.integer({ min: 0, max: 3 * 86_400_000 }), fc.integer({ min: 1, max: 3 * 86_400_000 }), (a, ab, bc) => {
        const b = DAY + a + ab;
        const c = b + bc;
        const whole = integratedSeconds(PROFILE, DAY + a, c);
        expect(whole).toBeCloseTo(integratedSeconds(PROFILE, DAY + a, b) + integratedSeconds(PROFILE, b, c), 5);
        expect(whole).toBeGreaterThan(integratedSeconds(PROFILE, DAY + a, b));
      }),
    );
  });

  it('refuses a profile of the wrong length, a non-positive hour, or a strength outside [0, 1], naming the field', () => {
    expect(() => makeProfile([1, 2], 1)).toThrow(/profile\.hourly: expected 24/);
    expect(() => makeProfile([...DEFAULT_HOURLY_VARIANCE.slice(0, 23), 0], 1)).toThrow(/profile\.hourly\[23\].*got 0/);
    expect(() => makeProfile(DEFAULT_HOURLY_VARIANCE, 1.5)).toThrow(/profile\.strength.*1\.5/);
  });
});

describe('the ladder implied variance', () => {
  const filter = { maxSpread: 0.05, midMin: 0.1, midMax: 0.9, minAbsD: 0.1 };

  it('counts a touch only when two-sided, uncrossed, within the spread and the band', () => {
    expect(usableMid({ bid: 0.4, ask: 0.44 }, filter)).toBeCloseTo(0.42, 12);
    expect(usableMid({ bid: 0.4, ask: null }, filter)).toBeNull();
    expect(usableMid({ bid: 0.44, ask: 0.44 }, filter)).toBeNull();
    expect(usableMid({ bid: 0.4, ask: 0.46 }, filter)).toBeNull();
    expect(usableMid({ bid: 0.02, ask: 0.05 }, filter)).toBeNull();
  });

  it('inverts the digital it prices with: the variance that priced a mid is the variance the mid implies (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: -0.03, max: 0.03, noNaN: true }), fc.double({ min: 1e-6, max: 1e-3, noNaN: true }), fc.constantFrom(null, 3.5, 8), (moneyness, variance, dof) => {
        const tails = dof === null ? ({ kind: 'normal' } as const) : ({ kind: 'student-t', dof } as const);
        const d = moneyness / Math.sqrt(variance);
        fc.pre(Math.abs(d) > 0.2 && Math.abs(d) < 2.5);
        const mid = tailCdf(d, tails);
        const implied = impliedTotalVariance({ mid, spot: 87_000 * Math.exp(moneyness), strike: 87_000, tails, minAbsD: 0.1 });
        expect(implied).not.toBeNull();
        expect(Math.abs((implied ?? 0) / variance - 1)).toBeLessThan(1e-6);
      }),
    );
  });

  it('answers null where the mid says nothing: the wrong side of the strike, or too near the money', () => {
    expect(impliedTotalVariance({ mid: 0.7, spot: 86_000, strike: 87_000, tails: { kind: 'normal' }, minAbsD: 0.1 })).toBeNull();
    expect(impliedTotalVariance({ mid: 0.51, spot: 87_010, strike: 87_000, tails: { kind: 'normal' }, minAbsD: 0.1 })).toBeNull();
    expect(tailQuantile(normalCdf(1.2345), { kind: 'normal' })).toBeCloseTo(1.2345, 9);
  });

  it('takes a trimmed mean or the median of the samples', () => {
    expect(robustMean([5, 1, 100, 2, 3], 0.5)).toBe(3);
    expect(robustMean([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(robustMean([1, 2, 3, 4, 100], 0.2)).toBe(3);
    expect(robustMean([1, 2, 3], 0)).toBe(2);
    expect(robustMean([], 0.25)).toBeNull();
    expect(() => robustMean([1], 0.7)).toThrow(/trim.*0\.7/);
  });
});

describe('the ladder shape', () => {
  // The ladder (BTC, 16:18 UTC): 0.651 / 0.263 / 0.102 at 86,296 / 87,204 / 88,039. A lognormal through the
  // first two strikes puts the spot (forward) at 86,639.6 and gives 0.059 for the third.
  const SPOT = 86_639.6;
  const ladder = [
    [86_296, 0.651],
    [87_204, 0.263],
    [88_039, 0.102],
  ].map(([strike = 0, mid = 0]) => ({ strike, mid, spot: SPOT, profileSeconds: 3600 }));

  it('reads the issue ladder: the lognormal through the first two strikes gives 0.059 for the third', () => {
    const [first, second] = ladder;
    const sd = Math.log(second!.strike / first!.strike) / (tailQuantile(0.651, { kind: 'normal' }) - tailQuantile(0.263, { kind: 'normal' }));
    expect(normalCdf(Math.log(SPOT / 88_039) / sd)).toBeCloseTo(0.059, 3);
  });

  it('fits fat tails to it: ν at the floor, the third strike priced near the market (0.097 against the lognormal 0.059)', () => {
    const fit = fitLadderTails(ladder, { minDof: 2.5, maxDof: 50 });
    expect(fit?.tails).toEqual({ kind: 'student-t', dof: 2.5 });
    const sd = Math.sqrt((fit?.baseVariance ?? 0) * 3600);
    const third = tailCdf(Math.log(SPOT / 88_039) / sd, fit?.tails ?? { kind: 'normal' });
    expect(third).toBeCloseTo(0.097, 3);
    expect(fit?.rmse).toBeLessThan(0.005);
    // A higher floor binds there instead.
    expect(fitLadderTails(ladder, { minDof: 4, maxDof: 50 })?.tails).toEqual({ kind: 'student-t', dof: 4 });
  });

  it('keeps the normal for a ladder a lognormal prices, and fits nothing on fewer than 3 strikes', () => {
    const sd = 0.01;
    const normalLadder = [86_000, 86_800, 87_500, 88_200].map((strike) => ({ strike, spot: SPOT, mid: normalCdf(Math.log(SPOT / strike) / sd), profileSeconds: 3600 }));
    const fit = fitLadderTails(normalLadder, { minDof: 3, maxDof: 50 });
    expect(fit?.tails).toEqual({ kind: 'normal' });
    expect(Math.sqrt((fit?.baseVariance ?? 0) * 3600)).toBeCloseTo(sd, 4);
    expect(fitLadderTails(normalLadder.slice(0, 2), { minDof: 3, maxDof: 50 })).toBeNull();
    expect(() => fitLadderTails(normalLadder, { minDof: 2, maxDof: 50 })).toThrow(/minDof/);
  });

  it('never lets the total variance fall as the settlement moves later; only raises; keeps the order; idempotent (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ settlesAtMs: fc.integer({ min: 0, max: 1e9 }), totalVariance: fc.double({ min: 0, max: 1, noNaN: true }) }), { maxLength: 12 }), (entries) => {
        const floored = calendarFloor(entries);
        expect(floored.map((e) => e.settlesAtMs)).toEqual(entries.map((e) => e.settlesAtMs));
        floored.forEach((e, i) => expect(e.totalVariance).toBeGreaterThanOrEqual(entries[i]!.totalVariance));
        const sorted = [...floored].sort((a, b) => a.settlesAtMs - b.settlesAtMs);
        for (let i = 1; i < sorted.length; i++) {
          if (sorted[i]!.settlesAtMs > sorted[i - 1]!.settlesAtMs) expect(sorted[i]!.totalVariance).toBeGreaterThanOrEqual(sorted[i - 1]!.totalVariance);
        }
        expect(calendarFloor(floored)).toEqual(floored);
      }),
    );
  });
});

describe('the realized–implied gap in the uncertainty', () => {
  it('adds to the volatility error in quadrature: f(d)·|d|·√(relErr² + gap²)', () => {
    const base = { spot: 88_000, strike: 88_500, comparison: 'above', secondsLeft: 1800, variancePerSecond: 0.5 ** 2 / (365 * 86_400), settlementNoiseVariance: 0, spotConf: null, spotAgeMs: 0, volRelErr: 0.2, tails: { kind: 'normal' }, floor: 0.001, cap: 0.999 } as const;
    const d = Math.log(88_000 / 88_500) / Math.sqrt(base.variancePerSecond * 1800);
    const density = Math.exp(-0.5 * d * d) / Math.sqrt(2 * Math.PI);
    expect(digitalFairValue(base).uncertainty).toBeCloseTo(density * Math.abs(d) * 0.2, 12);
    const wide = digitalFairValue({ ...base, volGapRel: 0.3 });
    expect(wide.uncertainty).toBeCloseTo(density * Math.abs(d) * Math.hypot(0.2, 0.3), 12);
    expect(wide.fair).toBe(digitalFairValue(base).fair);
    expect(() => digitalFairValue({ ...base, volGapRel: -0.1 })).toThrow(/volGapRel/);
  });
});
