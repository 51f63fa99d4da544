/**
 * The simulator's surface law (src/sim/engine/true-surface.ts, UnderlyingWorld with `intradayProfile` / `jumpTail`):
 * the profile's integral and the jump-mixture digital with known values and against a seeded Monte Carlo; a seeded
 * run whose realized variance per UTC hour follows the profile and whose jumps have the stated fat tail; the makers'
 * fair value priced from the true surface (the same strike an hour before settlement is worth more out of the money
 * across the US open than across the quiet hours); the older law unchanged without the options.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INTRADAY_PROFILE,
  DEFAULT_JUMP_TAIL,
  DEFAULT_UNDERLYINGS,
  mixtureDigital,
  normaliseProfile,
  profileSeconds,
  trueDigital,
  UnderlyingWorld,
  type UnderlyingSpec,
} from '../../../src/sim/engine/index.js';
import { Prng } from '../../../src/sim/engine/prng.js';

const HOUR = 3_600_000;
const DAY0 = Date.UTC(2026, 0, 1); // 00:00 UTC
const BTC = DEFAULT_UNDERLYINGS.find((u) => u.ticker === 'BTC') as UnderlyingSpec;

describe('the intraday profile', () => {
  it('is 24 positive multipliers normalised to mean 1; its integral counts each hour at its weight', () => {
    const profile = normaliseProfile(DEFAULT_INTRADAY_PROFILE);
    expect(profile.reduce((a, b) => a + b, 0)).toBeCloseTo(24, 12);
    expect(profileSeconds(profile, DAY0, DAY0 + 24 * HOUR)).toBeCloseTo(86_400, 6);
    expect(profileSeconds(profile, DAY0 + 14 * HOUR, DAY0 + 15 * HOUR)).toBeCloseTo((profile[14] ?? 0) * 3600, 9);
    // Half of 13:00–14:00 and half of 14:00–15:00.
    expect(profileSeconds(profile, DAY0 + 13.5 * HOUR, DAY0 + 14.5 * HOUR)).toBeCloseTo(((profile[13] ?? 0) + (profile[14] ?? 0)) * 1800, 9);
    expect(profileSeconds(new Array<number>(24).fill(1), DAY0 + 123, DAY0 + 7 * 86_400_000 + 123)).toBeCloseTo(7 * 86_400, 6);
    expect(() => normaliseProfile([1, 2])).toThrow(/24 hourly multipliers/);
    expect(() => normaliseProfile([...new Array<number>(23).fill(1), 0])).toThrow(/intradayProfile\[23\]/);
  });
});

describe('the jump-mixture digital', () => {
  const base = { spot: 100, strike: 100, diffusionVariance: 0.01, expectedJumps: 0, jumpLogStd: 0.05, tail: DEFAULT_JUMP_TAIL };

  it('without jumps is the lognormal digital (known value)', () => {
    expect(mixtureDigital(base)).toBeCloseTo(0.480061, 5); // Φ(−0.05)
    expect(mixtureDigital(base)).toBeCloseTo(trueDigital(100, 100, 1, 0.01), 12);
    expect(mixtureDigital({ ...base, diffusionVariance: 0, strike: 99 })).toBe(1);
  });

  it('with fat-tailed jumps matches a seeded Monte Carlo of the same law, and falls as the strike rises', () => {
    const inputs = { ...base, diffusionVariance: 0.0004, expectedJumps: 1.5, jumpLogStd: 0.01 };
    const rng = new Prng(3);
    const strikes = [96, 99, 101, 104];
    const hits = strikes.map(() => 0);
    const paths = 100_000;
    for (let i = 0; i < paths; i += 1) {
      const v = inputs.diffusionVariance;
      let x = Math.sqrt(v) * rng.normal() - v / 2;
      const jumps = rng.poisson(inputs.expectedJumps);
      for (let j = 0; j < jumps; j += 1) {
        const s = inputs.jumpLogStd * (rng.chance(DEFAULT_JUMP_TAIL.tailShare) ? DEFAULT_JUMP_TAIL.tailScale : 1);
        x += s * rng.normal() - (s * s) / 2;
      }
      strikes.forEach((k, n) => {
        if (100 * Math.exp(x) > k) hits[n] = (hits[n] ?? 0) + 1;
      });
    }
    const exact = strikes.map((strike) => mixtureDigital({ ...inputs, strike }));
    strikes.forEach((_, n) => expect(Math.abs((exact[n] ?? 0) - (hits[n] ?? 0) / paths)).toBeLessThan(0.005)); // 3+ standard errors
    for (let n = 1; n < exact.length; n += 1) expect(exact[n] ?? 1).toBeLessThan(exact[n - 1] ?? 0);
    // The tails are fatter than a lognormal of the same variance: a far strike (3.4 standard deviations) is worth ten
    // times more (0.0030 against 0.00029), a near one a little less.
    const sameVariance = inputs.diffusionVariance + inputs.expectedJumps * 0.0001 * (0.9 + 0.1 * 16);
    expect(mixtureDigital({ ...inputs, strike: 110 })).toBeGreaterThan(trueDigital(100, 110, 1, sameVariance) * 10);
    expect(mixtureDigital({ ...inputs, strike: 104 })).toBeLessThan(trueDigital(100, 104, 1, sameVariance));
  });
});

describe('a world on the surface law', () => {
  it('realizes a variance per UTC hour that follows the profile (seeded, two days, no jumps)', () => {
    const spec: UnderlyingSpec = { ...BTC, jumpsPerDay: 0 };
    const world = new UnderlyingWorld({ underlyings: [spec], leadMs: 0, historyMs: 50 * HOUR, intradayProfile: DEFAULT_INTRADAY_PROFILE }, new Prng(11), DAY0);
    world.advanceTo(DAY0 + 48 * HOUR);
    const profile = normaliseProfile(DEFAULT_INTRADAY_PROFILE);
    const perSecond = (spec.annualVol * spec.annualVol) / (365 * 86_400);
    const ratios: number[] = [];
    for (let hour = 0; hour < 24; hour += 1) {
      let sum = 0;
      for (const day of [0, 1]) {
        const start = DAY0 + day * 24 * HOUR + hour * HOUR;
        for (let s = 1; s <= 3600; s += 1) {
          const a = world.priceAt('BTC', start + (s - 1) * 1000) ?? 0;
          const b = world.priceAt('BTC', start + s * 1000) ?? 0;
          sum += Math.log(b / a) ** 2;
        }
      }
      ratios.push(sum / 7200 / (perSecond * (profile[hour] ?? 0)));
    }
    for (const ratio of ratios) expect(Math.abs(ratio - 1)).toBeLessThan(0.1); // 7,200 seconds an hour: s.e. ≈ 1.7 %
    // The busiest hour moves more than the quietest, as the profile says (14:00 vs 05:00: 1.6 / 0.6).
    expect((ratios[14] ?? 0) * (profile[14] ?? 0)).toBeGreaterThan(2 * (ratios[5] ?? 0) * (profile[5] ?? 0));
  });

  it('jumps with the stated fat tail (seeded: the jumps\' variance and kurtosis)', () => {
    const spec: UnderlyingSpec = { ...BTC, annualVol: 0, jumpsPerDay: 86_400 / 20, jumpLogStd: 0.01 }; // a jump every 20 s
    const world = new UnderlyingWorld({ underlyings: [spec], leadMs: 0, historyMs: 30 * HOUR, jumpTail: DEFAULT_JUMP_TAIL }, new Prng(5), DAY0);
    world.advanceTo(DAY0 + 24 * HOUR);
    const jumps: number[] = [];
    for (let s = 1; s <= 86_400; s += 1) {
      const r = Math.log((world.priceAt('BTC', DAY0 + s * 1000) ?? 0) / (world.priceAt('BTC', DAY0 + (s - 1) * 1000) ?? 0));
      if (r !== 0) jumps.push(r + 0); // the martingale drift −s²/2 is part of the jump
    }
    expect(jumps.length).toBeGreaterThan(4000);
    expect(jumps.length).toBeLessThan(4650);
    const mean = jumps.reduce((a, b) => a + b, 0) / jumps.length;
    const m2 = jumps.reduce((a, b) => a + (b - mean) ** 2, 0) / jumps.length;
    const m4 = jumps.reduce((a, b) => a + (b - mean) ** 4, 0) / jumps.length;
    expect(m2 / (0.0001 * 2.5)).toBeGreaterThan(0.9); // E[s²] = s² (0.9 + 0.1 × 16) = 2.5 s²
    expect(m2 / (0.0001 * 2.5)).toBeLessThan(1.1);
    expect(m4 / (m2 * m2)).toBeGreaterThan(10); // kurtosis 3 × 26.5 / 2.5² ≈ 12.7 (a normal: 3)
    expect(m4 / (m2 * m2)).toBeLessThan(16);
  });

  it('prices each expiry with the hours it spans: the makers\' ladder carries the profile', () => {
    const world = new UnderlyingWorld({ underlyings: [BTC], leadMs: 0, intradayProfile: DEFAULT_INTRADAY_PROFILE, jumpTail: DEFAULT_JUMP_TAIL }, new Prng(1), DAY0);
    // A strike 1 % above the spot, an hour before settlement: across 14:00–15:00 vs across 04:00–05:00.
    const busy = world.digital('BTC', 90_000, 90_900, DAY0 + 14 * HOUR, DAY0 + 15 * HOUR) ?? 0;
    const quiet = world.digital('BTC', 90_000, 90_900, DAY0 + 4 * HOUR, DAY0 + 5 * HOUR) ?? 0;
    expect(busy).toBeGreaterThan(quiet * 1.5);
    expect(world.surfaceLaw).toBe(true);
    // The older law: flat, jumps folded into the variance, draw for draw as before.
    const older = new UnderlyingWorld({ underlyings: [BTC], leadMs: 0 }, new Prng(1), DAY0);
    expect(older.surfaceLaw).toBe(false);
    expect(older.digital('BTC', 90_000, 90_900, DAY0 + 14 * HOUR, DAY0 + 15 * HOUR)).toBe(trueDigital(90_000, 90_900, 3600, older.variancePerSecond('BTC') ?? 0));
    expect(() => new UnderlyingWorld({ underlyings: [BTC], leadMs: 0, jumpTail: { tailShare: 1, tailScale: 4 } }, new Prng(1), DAY0)).toThrow(/jumpTail\.tailShare/);
  });
});
