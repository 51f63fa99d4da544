import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../../src/core/random.js';
import { DEFAULT_VOLATILITY, SECONDS_PER_YEAR, VolatilityEstimator } from '../../../../src/pricing/model/index.js';

/** Seeded standard normals (Box–Muller). */
function normals(seed: number): () => number {
  const u = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** A GBM path with annualized vol `sigma`, one price per second (several receives within each second). */
function feed(estimator: VolatilityEstimator, sigma: number, seconds: number, seed: number, startMs = 1_700_000_000_000): number {
  const z = normals(seed);
  const perSecond = sigma / Math.sqrt(SECONDS_PER_YEAR);
  let price = 90_000;
  for (let s = 0; s < seconds; s += 1) {
    price *= Math.exp(perSecond * z());
    estimator.observe(startMs + s * 1000 + 100, price * 1.00001); // an early print in the second
    estimator.observe(startMs + s * 1000 + 900, price); // the second's last price wins
  }
  return price;
}

describe('VolatilityEstimator', () => {
  it('starts at the prior', () => {
    const e = new VolatilityEstimator();
    expect(e.annualizedVolatility()).toBeCloseTo(DEFAULT_VOLATILITY.priorAnnualVol, 12);
    expect(e.observations()).toBe(0);
  });

  it('recovers the volatility of a seeded GBM path', () => {
    for (const [sigma, seed] of [[0.4, 1], [1.2, 2]] as const) {
      const e = new VolatilityEstimator({ ...DEFAULT_VOLATILITY, priorAnnualVol: 0.6 });
      feed(e, sigma, 7200, seed);
      expect(e.observations()).toBe(7199 - 1);
      expect(Math.abs(e.annualizedVolatility() - sigma) / sigma).toBeLessThan(0.1);
    }
  });

  it('leans on the prior during warm-up', () => {
    const e = new VolatilityEstimator({ ...DEFAULT_VOLATILITY, priorAnnualVol: 0.6, warmupMs: 300_000 });
    feed(e, 2, 30, 3);
    const vol = e.annualizedVolatility();
    expect(vol).toBeGreaterThan(0.6);
    expect(vol).toBeLessThan(1.2); // 28 s of 200 % against 300 s of 60 %
  });

  it('lets one spike move the price but not the variance beyond the cap', () => {
    const e = new VolatilityEstimator({ ...DEFAULT_VOLATILITY, warmupMs: 0 });
    const last = feed(e, 0.5, 3600, 4);
    const before = e.variancePerSecond();
    const t = 1_700_000_000_000 + 3600 * 1000;
    e.observe(t + 500, last * Math.exp(20 * Math.sqrt(before))); // a 20σ jump
    e.observe(t + 1500, last * Math.exp(20 * Math.sqrt(before)));
    const after = e.variancePerSecond();
    // Capped at 4σ: one sample of 16·v enters each EWMA with its one-second weight.
    const fastIn = 1 - Math.pow(0.5, 1 / (DEFAULT_VOLATILITY.fastHalfLifeMs / 1000));
    expect(after / before).toBeLessThan(1 + 0.5 * fastIn * 16 + 0.05);
    expect(after).toBeGreaterThan(before);
  });

  it('clamps to the floor and the cap', () => {
    const still = new VolatilityEstimator({ ...DEFAULT_VOLATILITY, warmupMs: 0 });
    for (let s = 0; s < 100; s += 1) still.observe(s * 1000, 100);
    expect(still.annualizedVolatility()).toBeCloseTo(DEFAULT_VOLATILITY.minAnnualVol, 12);
    const wild = new VolatilityEstimator({ ...DEFAULT_VOLATILITY, warmupMs: 0, jumpCapSigmas: 1e6 });
    for (let s = 0; s < 100; s += 1) wild.observe(s * 1000, s % 2 === 0 ? 100 : 150);
    expect(wild.annualizedVolatility()).toBeCloseTo(DEFAULT_VOLATILITY.maxAnnualVol, 12);
  });

  it('ignores out-of-order, non-finite and non-positive observations', () => {
    const e = new VolatilityEstimator();
    expect(e.observe(5000, 100)).toBe('used');
    expect(e.observe(5500, 101)).toBe('same-second');
    expect(e.observe(4000, 100)).toBe('ignored-out-of-order');
    expect(e.observe(6000, Number.NaN)).toBe('ignored-invalid');
    expect(e.observe(6000, 0)).toBe('ignored-invalid');
    expect(e.observe(6000, -5)).toBe('ignored-invalid');
    expect(e.observe(Number.POSITIVE_INFINITY, 100)).toBe('ignored-invalid');
  });

  it('scales a gap of several seconds to a per-second variance', () => {
    const a = new VolatilityEstimator({ ...DEFAULT_VOLATILITY, warmupMs: 0, jumpCapSigmas: 1e6, maxAnnualVol: 100 });
    // Grid points at 0 s and 4 s, closed by a print at 5 s: one return of ln(1.004) over 4 s.
    a.observe(0, 100);
    a.observe(4000, 100.4);
    a.observe(5000, 100.4);
    expect(a.observations()).toBe(1);
    expect(a.variancePerSecond()).toBeCloseTo(Math.log(1.004) ** 2 / 4, 15);
  });

  it('refuses bad settings, naming the field', () => {
    expect(() => new VolatilityEstimator({ ...DEFAULT_VOLATILITY, fastWeight: 2 })).toThrow(/fastWeight/);
    expect(() => new VolatilityEstimator({ ...DEFAULT_VOLATILITY, minAnnualVol: 0 })).toThrow(/minAnnualVol/);
    expect(() => new VolatilityEstimator({ ...DEFAULT_VOLATILITY, priorAnnualVol: Number.NaN })).toThrow(/priorAnnualVol/);
  });
});
