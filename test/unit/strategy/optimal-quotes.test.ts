import { describe, expect, it } from 'vitest';
import { avellanedaStoikov, glftInventoryTerm, gueantLehalleFernandezTapia, ModelInputError } from '../../../src/strategy/optimal-quotes.js';

// Hand computations (γ = 0.1, σ = 0.2, k = 10):
//   ln(1 + γ/k) = ln(1.01) = 0.00995033085; (2/γ)·ln(1.01) = 0.1990066171
//   AS, T − t = 5: γσ²(T − t) = 0.1 · 0.04 · 5 = 0.02
//     q = 2 → r = 0 − 2 · 0.02 = −0.04; spread = 0.02 + 0.1990066171 = 0.2190066171
//   GLFT, A = 5: σ²γ/(2kA) = 0.004 / 100 = 4e-5; (1.01)^(1 + 100) = e^(101 · 0.00995033085) = 2.731861948
//     ω = √(4e-5 · 2.731861948) = 0.0104534434
//     q = 2 → r = −2ω = −0.0209068868; spread = 0.1990066171 + 0.0104534434 = 0.2094600605
describe('Avellaneda–Stoikov closed form', () => {
  it('matches hand-computed reservation price and spread', () => {
    const { reservationPrice, optimalSpread } = avellanedaStoikov(0, 2, 0.1, 0.2, 10, 5);
    expect(reservationPrice).toBeCloseTo(-0.04, 12);
    expect(optimalSpread).toBeCloseTo(0.2190066171, 9);
  });

  it('shifts the reservation price against inventory, linearly, around any mid', () => {
    expect(avellanedaStoikov(1.5, -1, 0.1, 0.2, 10, 5).reservationPrice).toBeCloseTo(1.52, 12);
    expect(avellanedaStoikov(1.5, 0, 0.1, 0.2, 10, 5).reservationPrice).toBe(1.5);
    expect(avellanedaStoikov(1.5, 3, 0.1, 0.2, 10, 5).reservationPrice).toBeCloseTo(1.5 - 0.06, 12);
  });

  it('collapses to (2/γ)·ln(1 + γ/k) with no inventory shift as T − t → 0', () => {
    const atExpiry = avellanedaStoikov(0.3, 7, 0.1, 0.2, 10, 0);
    expect(atExpiry.reservationPrice).toBe(0.3);
    expect(atExpiry.optimalSpread).toBeCloseTo(0.1990066171, 9);
    const justBefore = avellanedaStoikov(0.3, 7, 0.1, 0.2, 10, 1e-9);
    expect(justBefore.optimalSpread).toBeCloseTo(0.1990066171, 8);
    expect(justBefore.reservationPrice).toBeCloseTo(0.3, 8);
  });

  it('widens with volatility and time left', () => {
    const a = avellanedaStoikov(0, 0, 0.1, 0.2, 10, 1).optimalSpread;
    const b = avellanedaStoikov(0, 0, 0.1, 0.4, 10, 1).optimalSpread;
    const c = avellanedaStoikov(0, 0, 0.1, 0.4, 10, 2).optimalSpread;
    expect(b).toBeGreaterThan(a);
    expect(c).toBeGreaterThan(b);
  });

  it('rejects inputs outside the model domain with a typed error naming the input', () => {
    expect(() => avellanedaStoikov(0, 0, 0, 0.2, 10, 1)).toThrow(ModelInputError);
    expect(() => avellanedaStoikov(0, 0, 0.1, 0.2, -1, 1)).toThrow(/k: must be a finite number > 0/);
    expect(() => avellanedaStoikov(0, 0, 0.1, -0.2, 10, 1)).toThrow(/sigma/);
    expect(() => avellanedaStoikov(0, 0, 0.1, 0.2, 10, -1)).toThrow(/timeLeft/);
    expect(() => avellanedaStoikov(Number.NaN, 0, 0.1, 0.2, 10, 1)).toThrow(/mid/);
  });
});

describe('Guéant–Lehalle–Fernandez-Tapia closed form', () => {
  it('matches hand-computed values', () => {
    expect(glftInventoryTerm(0.1, 0.2, 10, 5)).toBeCloseTo(0.0104534434, 9);
    const { reservationPrice, optimalSpread } = gueantLehalleFernandezTapia(0, 2, 0.1, 0.2, 10, 5);
    expect(reservationPrice).toBeCloseTo(-0.0209068868, 9);
    expect(optimalSpread).toBeCloseTo(0.2094600605, 9);
  });

  it('has no time dependence and is symmetric at zero inventory', () => {
    const flat = gueantLehalleFernandezTapia(0.7, 0, 0.1, 0.2, 10, 5);
    expect(flat.reservationPrice).toBe(0.7);
  });

  it('stays finite when k/γ is huge (power computed in logs)', () => {
    const term = glftInventoryTerm(1e-6, 0.1, 1000, 10);
    expect(Number.isFinite(term)).toBe(true);
    // (1 + γ/k)^(1 + k/γ) → e as γ/k → 0
    expect(term).toBeCloseTo(Math.sqrt(((0.01 * 1e-6) / (2 * 1000 * 10)) * Math.E), 12);
  });

  it('requires A > 0', () => {
    expect(() => gueantLehalleFernandezTapia(0, 0, 0.1, 0.2, 10, 0)).toThrow(/A: must be a finite number > 0/);
  });
});
