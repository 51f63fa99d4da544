import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalCdf, normalPdf, standardisedTCdf, standardisedTPdf, studentTCdf } from '../../../../src/pricing/model/index.js';

describe('normal distribution', () => {
  it('matches known values, far into the tails', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 14);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 14);
    // Relative accuracy in the lower tail: Φ(−8) = 6.22096057427178e-16.
    expect(normalCdf(-8) / 6.22096057427178e-16).toBeCloseTo(1, 10);
    expect(normalPdf(0)).toBeCloseTo(0.3989422804014327, 15);
  });

  it('is symmetric and monotone', () => {
    fc.assert(
      fc.property(fc.double({ min: -30, max: 30, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true }), (x, step) => {
        expect(normalCdf(x) + normalCdf(-x)).toBeCloseTo(1, 12);
        expect(normalCdf(x + step)).toBeGreaterThanOrEqual(normalCdf(x));
      }),
    );
  });
});

describe('Student-t', () => {
  it('matches table values (unit scale) and has unit variance once standardised', () => {
    // t(5) quantile 0.95 = 2.015048; t(10) quantile 0.975 = 2.228139.
    expect(studentTCdf(2.015048, 5)).toBeCloseTo(0.95, 6);
    expect(studentTCdf(2.228139, 10)).toBeCloseTo(0.975, 6);
    // Standardised: P(T·√((ν−2)/ν) ≤ x) = P(T ≤ x/√((ν−2)/ν)).
    expect(standardisedTCdf(2.015048 * Math.sqrt(3 / 5), 5)).toBeCloseTo(0.95, 6);
    // Variance 1: ∫ x² f(x) dx over a wide grid (ν = 6: the tails fall as x^-7, the grid to ±200 holds ~all of it).
    let second = 0;
    const step = 0.005;
    for (let x = -200; x <= 200; x += step) second += x * x * standardisedTPdf(x, 6) * step;
    expect(second).toBeCloseTo(1, 2);
  });

  it('refuses a dof without a finite variance', () => {
    expect(() => standardisedTCdf(0, 2)).toThrow(/dof/);
  });

  it('has fatter tails than the normal at the same variance', () => {
    expect(standardisedTCdf(-4, 4)).toBeGreaterThan(normalCdf(-4));
  });
});
