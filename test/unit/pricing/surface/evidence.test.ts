/**
 * The implied weight falls with the evidence behind an expiry's implied variance (src/pricing/surface/evidence.ts):
 * known values, the one-strike case (every up/down market) that may not dominate, and monotonicity (property).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SURFACE, impliedWeightOf, type EvidenceSettings } from '../../../../src/pricing/surface/index.js';

const S: EvidenceSettings = { minStrikes: 1, fullStrikes: 3, fullBooks: 12, spreadHalf: 0.05 };

describe('impliedWeightOf', () => {
  it('gives known values', () => {
    // Full evidence and a book with no spread: α itself.
    expect(impliedWeightOf(0.8, { strikes: 3, books: 12, meanSpread: 0 }, S)).toBeCloseTo(0.8, 15);
    expect(impliedWeightOf(0.8, { strikes: 5, books: 40, meanSpread: 0 }, S)).toBeCloseTo(0.8, 15);
    // 3 strikes, 12 books, 2 cents wide: 0.8 × 0.05 / 0.07 = 0.571429.
    expect(impliedWeightOf(0.8, { strikes: 3, books: 12, meanSpread: 0.02 }, S)).toBeCloseTo(0.571429, 6);
    // One strike (an up/down market: the quoted market's own book), 12 books, 1 cent: 0.8 × 1/3 × 0.05/0.06 = 0.222222.
    expect(impliedWeightOf(0.8, { strikes: 1, books: 12, meanSpread: 0.01 }, S)).toBeCloseTo(0.222222, 6);
    // Two strikes, 6 books, at the spread that halves it: 0.8 × 2/3 × 1/2 × 1/2 = 0.133333.
    expect(impliedWeightOf(0.8, { strikes: 2, books: 6, meanSpread: 0.05 }, S)).toBeCloseTo(0.133333, 6);
  });

  it('gives nothing below the minimum strikes, without books, or at α 0', () => {
    expect(impliedWeightOf(0.8, { strikes: 1, books: 30, meanSpread: 0 }, { ...S, minStrikes: 2 })).toBe(0);
    expect(impliedWeightOf(0.8, { strikes: 2, books: 30, meanSpread: 0 }, { ...S, minStrikes: 2 })).toBeCloseTo(0.8 * (2 / 3), 15);
    expect(impliedWeightOf(0.8, { strikes: 3, books: 0, meanSpread: 0 }, S)).toBe(0);
    expect(impliedWeightOf(0, { strikes: 3, books: 12, meanSpread: 0 }, S)).toBe(0);
  });

  it('never lets one strike dominate under the defaults (below one half, whatever the books)', () => {
    const e = DEFAULT_SURFACE.evidence;
    expect(impliedWeightOf(DEFAULT_SURFACE.impliedWeight, { strikes: 1, books: 1000, meanSpread: 0 }, e)).toBeLessThan(0.5);
  });

  it('stays within [0, α] and never rises as strikes or books fall or the spread widens (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 0, max: 0.2, noNaN: true }),
        fc.double({ min: 0, max: 0.1, noNaN: true }),
        (alpha, strikes, books, spread, wider) => {
          const w = impliedWeightOf(alpha, { strikes, books, meanSpread: spread }, S);
          expect(w).toBeGreaterThanOrEqual(0);
          expect(w).toBeLessThanOrEqual(alpha + 1e-15);
          expect(impliedWeightOf(alpha, { strikes: strikes - 1, books, meanSpread: spread }, S)).toBeLessThanOrEqual(w + 1e-15);
          expect(impliedWeightOf(alpha, { strikes, books: books - 1, meanSpread: spread }, S)).toBeLessThanOrEqual(w + 1e-15);
          expect(impliedWeightOf(alpha, { strikes, books, meanSpread: spread + wider }, S)).toBeLessThanOrEqual(w + 1e-15);
        },
      ),
    );
  });
});
