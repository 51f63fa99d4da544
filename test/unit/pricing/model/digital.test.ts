import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digitalFairValue, normalCdf, normalPdf, type DigitalInput } from '../../../../src/pricing/model/index.js';

const base: DigitalInput = {
  spot: 90_000,
  strike: 90_000,
  comparison: 'above',
  secondsLeft: 3600,
  variancePerSecond: 1e-8,
  settlementNoiseVariance: 0,
  spotConf: null,
  spotAgeMs: 0,
  volRelErr: 0,
  tails: { kind: 'normal' },
  floor: 0.001,
  cap: 0.999,
};

describe('digitalFairValue: known values', () => {
  it('at the money is one half, with delta φ(0)/(S√V)', () => {
    const v = digitalFairValue(base);
    expect(v.fair).toBe(0.5);
    expect(v.delta).toBeCloseTo(normalPdf(0) / (90_000 * Math.sqrt(1e-8 * 3600)), 15);
    expect(v.uncertainty).toBe(0);
  });

  it('S = 1.01 K with V = 1e-4 gives Φ(ln 1.01 / 0.01)', () => {
    const v = digitalFairValue({ ...base, spot: 101, strike: 100, secondsLeft: 1, variancePerSecond: 1e-4 });
    expect(v.fair).toBeCloseTo(normalCdf(Math.log(1.01) / 0.01), 15);
    expect(v.fair).toBeCloseTo(0.8401, 4); // d = 0.995
  });

  it('the live sample: BTC 88,000 against a 88,640.73 strike, 9.5 min left at 50 %/yr', () => {
    const perSecond = 0.25 / (365 * 86_400);
    const v = digitalFairValue({ ...base, spot: 88_000, strike: 88_640.73, secondsLeft: 570, variancePerSecond: perSecond, floor: 1e-9 });
    const d = Math.log(88_000 / 88_640.73) / Math.sqrt(perSecond * 570);
    expect(d).toBeCloseTo(-3.4, 1);
    expect(v.fair).toBeCloseTo(normalCdf(d), 15);
  });

  it('combines confidence, age and volatility error in quadrature', () => {
    const input = { ...base, spot: 100, strike: 99, secondsLeft: 100, variancePerSecond: 1e-6, spotConf: 0.05, spotAgeMs: 4000, volRelErr: 0.2 };
    const v = digitalFairValue(input);
    const V = 1e-6 * 100 + 1e-6 * 4;
    const d = Math.log(100 / 99) / Math.sqrt(V);
    const delta = normalPdf(d) / (100 * Math.sqrt(V));
    expect(v.fair).toBeCloseTo(normalCdf(d), 15);
    expect(v.delta).toBeCloseTo(delta, 15);
    const expected = Math.hypot(delta * 0.05, delta * 100 * Math.sqrt(1e-6 * 4), normalPdf(d) * Math.abs(d) * 0.2);
    expect(v.uncertainty).toBeCloseTo(expected, 15);
  });

  it('keeps the settlement-noise floor in the last seconds', () => {
    const v = digitalFairValue({ ...base, spot: 100.01, strike: 100, secondsLeft: 0, settlementNoiseVariance: (2e-4) ** 2 });
    expect(v.fair).toBeCloseTo(normalCdf(Math.log(1.0001) / 2e-4), 12);
    expect(v.fair).toBeLessThan(0.999);
  });

  it('at V = 0 is the settlement rule itself: strictly above, or at or above', () => {
    const atZero = { ...base, secondsLeft: 0, variancePerSecond: 0 };
    expect(digitalFairValue({ ...atZero, spot: 100, strike: 100 }).fair).toBe(0.001);
    expect(digitalFairValue({ ...atZero, spot: 100, strike: 100, comparison: 'at-or-above' }).fair).toBe(0.999);
    expect(digitalFairValue({ ...atZero, spot: 100.01, strike: 100 }).fair).toBe(0.999);
    expect(digitalFairValue({ ...atZero, spot: 100.01, strike: 100 }).delta).toBe(0);
  });

  it('clamps to floor and cap, with no sensitivity there', () => {
    const deep = digitalFairValue({ ...base, spot: 50_000 });
    expect(deep.fair).toBe(0.001);
    expect(deep.delta).toBe(0);
  });

  it('takes fat tails behind a setting: the same at the money, a larger tail probability', () => {
    const t = { kind: 'student-t', dof: 4 } as const;
    expect(digitalFairValue({ ...base, tails: t }).fair).toBeCloseTo(0.5, 12);
    const far = { ...base, spot: 88_000, variancePerSecond: 4e-9, floor: 1e-12 };
    expect(digitalFairValue({ ...far, tails: t }).fair).toBeGreaterThan(digitalFairValue(far).fair);
  });

  it('names the field of invalid input', () => {
    expect(() => digitalFairValue({ ...base, spot: 0 })).toThrow(/digital\.spot/);
    expect(() => digitalFairValue({ ...base, strike: Number.NaN })).toThrow(/digital\.strike/);
    expect(() => digitalFairValue({ ...base, secondsLeft: -1 })).toThrow(/secondsLeft/);
    expect(() => digitalFairValue({ ...base, tails: { kind: 'student-t', dof: 2 } })).toThrow(/dof/);
  });
});

describe('digitalFairValue: properties', () => {
  const positive = (min: number, max: number) => fc.double({ min, max, noNaN: true });
  const arb = fc.record({
    spot: positive(1, 200_000),
    moneyness: positive(0.9, 1.1),
    secondsLeft: positive(0, 7 * 86_400),
    annualVol: positive(0.1, 3),
  });
  const input = (a: { spot: number; moneyness: number; secondsLeft: number; annualVol: number }): DigitalInput => ({
    ...base,
    spot: a.spot,
    strike: a.spot * a.moneyness,
    secondsLeft: a.secondsLeft,
    variancePerSecond: (a.annualVol * a.annualVol) / (365 * 86_400),
    settlementNoiseVariance: 1e-8,
  });

  it('stays within the clamp with finite figures, rises with S and falls with K', () => {
    fc.assert(
      fc.property(arb, positive(1.0001, 1.05), (a, bump) => {
        const x = input(a);
        const v = digitalFairValue(x);
        expect(v.fair).toBeGreaterThanOrEqual(0.001);
        expect(v.fair).toBeLessThanOrEqual(0.999);
        expect(Number.isFinite(v.delta) && v.delta >= 0).toBe(true);
        expect(Number.isFinite(v.uncertainty) && v.uncertainty >= 0).toBe(true);
        expect(digitalFairValue({ ...x, spot: x.spot * bump }).fair).toBeGreaterThanOrEqual(v.fair);
        expect(digitalFairValue({ ...x, strike: x.strike * bump }).fair).toBeLessThanOrEqual(v.fair);
      }),
    );
  });

  it('moves toward one half as time is added', () => {
    fc.assert(
      fc.property(arb, positive(1, 86_400), (a, more) => {
        const x = input(a);
        const now = digitalFairValue(x).fair;
        const later = digitalFairValue({ ...x, secondsLeft: x.secondsLeft + more }).fair;
        expect(Math.abs(later - 0.5)).toBeLessThanOrEqual(Math.abs(now - 0.5) + 1e-12);
      }),
    );
  });

  it('delta matches a finite difference where the clamp does not bind', () => {
    fc.assert(
      fc.property(arb, (a) => {
        const x = input(a);
        const v = digitalFairValue(x);
        if (v.fair < 0.01 || v.fair > 0.99) return;
        // A step small against the distribution's width (√V in log terms), so the central difference's own error
        // (≈ h²·f‴/6) stays far below the tolerance even at expiry, where √V is the settlement print's noise.
        const h = x.spot * 1e-3 * Math.sqrt(Math.max(x.secondsLeft * x.variancePerSecond, x.settlementNoiseVariance));
        const diff = (digitalFairValue({ ...x, spot: x.spot + h }).fair - digitalFairValue({ ...x, spot: x.spot - h }).fair) / (2 * h);
        expect(Math.abs(v.delta - diff) / v.delta).toBeLessThan(1e-4);
      }),
    );
  });
});
