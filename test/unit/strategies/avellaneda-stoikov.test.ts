import { describe, expect, it } from 'vitest';
import { RAW_PER_UNIT } from '../../../src/core/venue-rules/index.js';
import type { MarketView, QuoteIntent } from '../../../src/strategy/contract.js';
import { logistic } from '../../../src/strategy/log-odds.js';
import asModule, { avellanedaStoikovParamsSchema } from '../../../strategies/avellaneda-stoikov.js';
import type { AvellanedaStoikovParams } from '../../../strategies/avellaneda-stoikov.js';
import { fill, HOUR, midSeries, T0, view } from '../../support/views.js';

const shares = (n: number): number => n * RAW_PER_UNIT;

function run(params: Partial<AvellanedaStoikovParams>, v: MarketView): { intents: QuoteIntent[]; diag: Readonly<Record<string, number>> } {
  const strategy = asModule.create(avellanedaStoikovParamsSchema.parse(params));
  const intents = strategy.quote(v);
  return { intents, diag: strategy.diagnostics?.(v) ?? {} };
}

function table(intents: readonly QuoteIntent[]): [string, string, string, number, number][] {
  return intents.map((i) => [i.slot, i.token, i.side, i.priceTicks, i.sizeRaw / RAW_PER_UNIT]);
}

// Defaults: γ = 0.1, σ = 0.1 (fallback, cold), k = 25 (fallback), T − t = min(24 h, expiry in 30 days) = 24 h.
//   γσ²τ = 0.1·0.01·24 = 0.024; spread = 0.024 + 20·ln(1.004) = 0.10384043 (log-odds)
//   q = 0: bid = logistic(−0.0519202) = 0.487023 → 487; ask = 0.512977 → 513 (BUY NO 487)
//   q = +5 lots (50 YES): r = −0.12 → bid logistic(−0.171920) = 0.457125 → 457; ask logistic(−0.068080) = 0.482987 → 483
describe('avellaneda-stoikov strategy', () => {
  it('quotes the hand-computed AS spread around the mid in log-odds', () => {
    const { intents, diag } = run({}, view());
    expect(table(intents)).toEqual([
      ['bid-0', 'YES', 'BUY', 487, 10],
      ['ask-0', 'NO', 'BUY', 487, 10],
    ]);
    expect(diag['spread']).toBeCloseTo(0.512977138 - 0.487022862, 8);
    expect(diag['timeLeftHours']).toBe(24);
    expect(diag['sigmaWarm']).toBe(0);
    expect(diag['sigma']).toBe(0.1);
  });

  it('shifts the reservation price against inventory (5 lots long)', () => {
    const { intents, diag } = run({}, view({ position: { yesRaw: shares(50) } }));
    expect(table(intents)).toEqual([
      ['bid-0', 'YES', 'BUY', 457, 10],
      ['ask-0', 'YES', 'SELL', 483, 10],
    ]);
    expect(diag['inventoryLots']).toBe(5);
    expect(diag['reservationPrice']).toBeCloseTo(logistic(-0.12), 12);
  });

  it('keeps quotes inside (0, 1) near the boundary where a probability-space spread would cross 0', () => {
    // γ = 1, k = 1.5, τ ≈ 0: spread = 2·ln(1 + 1/1.5) = 1.0217 log-odds around logit(0.02).
    // In probability space a spread that wide (0.25 at p = 0.5) would put the bid below 0.
    const v = view({ book: { bids: [[19, 100]], asks: [[21, 100]] }, market: { band: { minTicks: 1, maxTicks: 999 } } });
    const { intents } = run({ gamma: 1, k: 1.5, kMin: 1, horizonCapHours: 1e-6 }, v);
    // bid logistic(logit(0.02) − 0.5108) = 0.012097 → 12; ask 0.032895 → 33 (BUY NO 967)
    expect(table(intents)).toEqual([
      ['bid-0', 'YES', 'BUY', 12, 10],
      ['ask-0', 'NO', 'BUY', 967, 10],
    ]);
  });

  it('stops the side that would take |net YES| beyond maxInventory, shrinking it to the room left', () => {
    expect(table(run({}, view({ position: { yesRaw: shares(95) } })).intents).map((r) => [r[0], r[4]])).toEqual([
      ['bid-0', 5],
      ['ask-0', 10],
    ]);
    expect(run({}, view({ position: { yesRaw: shares(100) } })).intents.map((i) => i.slot)).toEqual(['ask-0']);
    expect(run({}, view({ position: { noRaw: shares(100) } })).intents.map((i) => i.slot)).toEqual(['bid-0']);
  });

  it('warms up: fallback σ with no history, its own σ estimate after enough observations', () => {
    // alternating ±0.2 log-odds each hour → σ = 0.2 per √hour; spread 0.024·4 + 0.0798 = 0.1758
    const history = midSeries(Array.from({ length: 41 }, (_, i) => logistic(i % 2 === 0 ? 0 : 0.2)), T0, HOUR);
    const warm = run({ sigmaHalfLifeMinutes: 1e9 }, view({ midHistory: history }));
    expect(warm.diag['sigmaWarm']).toBe(1);
    expect(warm.diag['sigmaObservations']).toBe(40);
    expect(warm.diag['sigma']).toBeCloseTo(0.2, 9);
    // bid logistic(−0.0879202) = 0.478034 → 478; ask 0.521966 → 522 (BUY NO 478)
    expect(warm.intents.map((i) => i.priceTicks)).toEqual([478, 478]);
    const partial = run({ sigmaHalfLifeMinutes: 1e9 }, view({ midHistory: history.slice(-11) }));
    expect(partial.diag['sigmaWarm']).toBe(0);
    expect(partial.diag['sigma']).toBeCloseTo(Math.sqrt((10 * 0.04 + 20 * 0.01) / 30), 9);
  });

  it('narrows toward (2/γ)·ln(1 + γ/k) and centres on the mid as expiry approaches, then stops', () => {
    const market = { expiresAtMs: T0 + HOUR / 2 };
    // τ = 0.5 h: spread 0.0005 + 0.0798404 → bid 0.489959 → 489, ask 0.510041 → 511
    expect(run({}, view({ market })).intents.map((i) => i.priceTicks)).toEqual([489, 489]);
    const lastMs = view({ market, now: T0 + HOUR / 2 - 1, position: { yesRaw: shares(50) } });
    const { intents, diag } = run({}, lastMs);
    // even 5 lots long, r → mid: bid 0.490021 → 490, ask 0.509979 → 510
    expect(table(intents)).toEqual([
      ['bid-0', 'YES', 'BUY', 490, 10],
      ['ask-0', 'YES', 'SELL', 510, 10],
    ]);
    expect(diag['timeLeftHours']).toBeLessThan(1e-6);
    expect(diag['reservationPrice']).toBeCloseTo(0.5, 6);
    expect(run({}, view({ market, now: T0 + HOUR / 2 })).intents).toEqual([]);
  });

  it('GLFT: infinite horizon, no dependence on expiry, skew from the ω term', () => {
    // ω = √(0.01·0.1/(2·25·20)·1.004^251) = 0.00165037; spread = 0.0798404 + ω
    const a = run({ model: 'glft' }, view({ market: { expiresAtMs: null } }));
    const b = run({ model: 'glft' }, view({ market: { expiresAtMs: T0 + 60_000 } }));
    expect(a.intents.map((i) => i.priceTicks)).toEqual([489, 489]);
    expect(b.intents).toEqual(a.intents);
    expect(a.diag['timeLeftHours']).toBeUndefined();
    // 5 lots long: r = −5ω → bid 0.487753 → 487, ask 0.508123 → 509
    expect(table(run({ model: 'glft' }, view({ position: { yesRaw: shares(50) } })).intents)).toEqual([
      ['bid-0', 'YES', 'BUY', 487, 10],
      ['ask-0', 'YES', 'SELL', 509, 10],
    ]);
  });

  it('uses the AS horizon cap for a market without expiry', () => {
    expect(run({ horizonCapHours: 0.5 }, view({ market: { expiresAtMs: null } })).intents.map((i) => i.priceTicks)).toEqual([489, 489]);
  });

  it('estimates k and A from its fills when not configured, and uses configured values when given', () => {
    const history = [{ atMs: T0 - 24 * HOUR, mid: 0.5 }];
    const fills = Array.from({ length: 12 }, (_, i) => fill({ priceTicks: 490, atMs: T0 - (i + 1) * HOUR }));
    const estimated = run({}, view({ midHistory: history, recentFills: fills }));
    expect(estimated.diag['intensityEstimated']).toBe(1);
    // every fill 0.04 log-odds from the mid: k = 1/0.0400053 ≈ 25.0
    expect(estimated.diag['k']).toBeCloseTo(1 / Math.abs(Math.log(0.49 / 0.51)), 6);
    const configured = run({ k: 40, A: 5 }, view({ midHistory: history, recentFills: fills }));
    expect(configured.diag['k']).toBe(40);
    expect(configured.diag['A']).toBe(5);
    expect(configured.diag['intensityEstimated']).toBe(0);
  });

  it('quotes nothing without a reference price', () => {
    expect(run({}, view({ book: { adjustedMidpoint: null } })).intents).toEqual([]);
    expect(run({}, view({ book: { bids: [[480, 5]], adjustedMidpoint: null } })).intents).toEqual([]);
  });

  it('enforces a minimum spread after mapping back', () => {
    const { intents } = run({ gamma: 0.001, k: 1000, kMax: 1000, horizonCapHours: 1e-6, minSpread: 0.03 }, view());
    expect(intents.map((i) => i.priceTicks)).toEqual([485, 485]);
  });

  it('rejects params outside their bounds, naming them', () => {
    const bad = avellanedaStoikovParamsSchema.safeParse({ sigmaFallback: 20 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['sigmaFallback']);
    expect(avellanedaStoikovParamsSchema.safeParse({ gamma: 0 }).success).toBe(false);
    expect(avellanedaStoikovParamsSchema.safeParse({ model: 'gueant' }).success).toBe(false);
  });
});
