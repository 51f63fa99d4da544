import { describe, expect, it } from 'vitest';
import { RAW_PER_UNIT } from '../../../src/core/venue-rules/index.js';
import { estimateFillIntensity } from '../../../src/strategy/fill-intensity.js';
import type { IntensityOptions } from '../../../src/strategy/fill-intensity.js';
import { logistic, logit } from '../../../src/strategy/log-odds.js';
import { cleanMidHistory, midAt } from '../../../src/strategy/mid-history.js';
import { OwnQuoteMemory, othersBook, ownOrdersOf, touchMicroprice, touchMid, touchOf } from '../../../src/strategy/own-orders.js';
import { referencePrice } from '../../../src/strategy/reference-price.js';
import { estimateToxicity } from '../../../src/strategy/toxicity.js';
import { estimateLogOddsVolatility } from '../../../src/strategy/volatility.js';
import type { VolatilityOptions } from '../../../src/strategy/volatility.js';
import { book, fill, HOUR, level, midSeries, T0, view } from '../../support/views.js';

describe('log-odds', () => {
  it('maps (0, 1) to ℝ and back', () => {
    expect(logit(0.5)).toBe(0);
    expect(logit(0.75)).toBeCloseTo(Math.log(3), 12);
    expect(logistic(Math.log(3))).toBeCloseTo(0.75, 12);
    expect(logistic(-800)).toBeGreaterThanOrEqual(0);
    expect(logistic(800)).toBe(1);
    expect(Number.isFinite(logit(0))).toBe(true);
    expect(Number.isFinite(logit(1))).toBe(true);
  });
});

describe('mid history', () => {
  it('drops bad points, sorts, keeps the last of equal times, and looks up the mid in force', () => {
    const clean = cleanMidHistory([
      { atMs: 30, mid: 0.6 },
      { atMs: 10, mid: 0.5 },
      { atMs: 20, mid: Number.NaN },
      { atMs: 20, mid: 1 },
      { atMs: 10, mid: 0.55 },
      { atMs: Number.NaN, mid: 0.5 },
    ]);
    expect(clean).toEqual([{ atMs: 10, mid: 0.55 }, { atMs: 30, mid: 0.6 }]);
    expect(midAt(clean, 5)).toBeNull();
    expect(midAt(clean, 10)).toBe(0.55);
    expect(midAt(clean, 29)).toBe(0.55);
    expect(midAt(clean, 1000)).toBe(0.6);
  });
});

describe('volatility (log-odds, EWMA, warm-up)', () => {
  const options: VolatilityOptions = { timeUnitMs: HOUR, halfLifeMs: 1e12, warmupObservations: 10, fallbackSigma: 0.3, minSigma: 0.001, maxSigma: 10 };
  // log-odds alternating ±0.1 each hour → σ² = 0.01 per hour → σ = 0.1 per √hour
  const path = (n: number) => midSeries(Array.from({ length: n + 1 }, (_, i) => logistic(i % 2 === 0 ? 0 : 0.1)), T0, HOUR);

  it('uses the fallback with no history', () => {
    expect(estimateLogOddsVolatility([], T0, options)).toEqual({ sigma: 0.3, estimated: null, observations: 0, warm: false });
  });

  it('estimates σ per √(time unit) once warm', () => {
    const estimate = estimateLogOddsVolatility(path(12), T0, options);
    expect(estimate.observations).toBe(12);
    expect(estimate.warm).toBe(true);
    expect(estimate.sigma).toBeCloseTo(0.1, 9);
  });

  it('blends with the fallback during warm-up: σ² = (n·σ̂² + (N − n)·σ_fb²)/N', () => {
    const estimate = estimateLogOddsVolatility(path(5), T0, options);
    expect(estimate.warm).toBe(false);
    expect(estimate.estimated).toBeCloseTo(0.1, 9);
    expect(estimate.sigma).toBeCloseTo(Math.sqrt((5 * 0.01 + 5 * 0.09) / 10), 9);
  });

  it('is comparable across price levels: the same log-odds moves give the same σ near 0.02 and near 0.5', () => {
    const near0 = midSeries(Array.from({ length: 13 }, (_, i) => logistic(logit(0.02) + (i % 2 === 0 ? 0 : 0.1))), T0, HOUR);
    expect(estimateLogOddsVolatility(near0, T0, options).sigma).toBeCloseTo(0.1, 9);
  });

  it('weights recent moves more, scales with the sampling interval, and respects bounds', () => {
    const calmThenWild = [
      ...midSeries(Array.from({ length: 21 }, () => 0.5), T0 - 10 * HOUR, HOUR / 2),
      ...midSeries(Array.from({ length: 10 }, (_, i) => logistic(i % 2 === 0 ? 0 : 0.2)), T0, HOUR / 10).slice(1),
    ];
    const fast = estimateLogOddsVolatility(calmThenWild, T0, { ...options, halfLifeMs: HOUR / 2 }).sigma;
    const slow = estimateLogOddsVolatility(calmThenWild, T0, { ...options, halfLifeMs: 100 * HOUR }).sigma;
    expect(fast).toBeGreaterThan(slow);
    const flat = midSeries(Array.from({ length: 30 }, () => 0.4), T0, HOUR);
    expect(estimateLogOddsVolatility(flat, T0, options).sigma).toBe(0.001);
    expect(estimateLogOddsVolatility(path(12), T0, { ...options, maxSigma: 0.05 }).sigma).toBe(0.05);
  });

  it('ignores points after now', () => {
    const withFuture = [...path(12), { atMs: T0 + HOUR, mid: 0.9 }];
    expect(estimateLogOddsVolatility(withFuture, T0, options).sigma).toBeCloseTo(0.1, 9);
  });
});

describe('fill intensity', () => {
  const options: IntensityOptions = {
    timeUnitMs: 24 * HOUR,
    windowMs: 24 * HOUR,
    minFills: 5,
    fallback: { k: 0.15, a: 48 },
    bounds: { kMin: 0.01, kMax: 5, aMin: 0.1, aMax: 10_000 },
    distance: (ticks, mid) => Math.abs(ticks - mid * 1000),
  };
  const history = [{ atMs: T0 - 24 * HOUR, mid: 0.5 }];

  it('falls back with too few fills or no history', () => {
    const fills = [fill({ priceTicks: 490, atMs: T0 - HOUR })];
    expect(estimateFillIntensity(fills, history, T0, options)).toEqual({ k: 0.15, a: 48, fills: 1, estimated: false });
    expect(estimateFillIntensity(fills, [], T0, options).estimated).toBe(false);
  });

  it('fits k = n/Σδ and A = (n/T)·e^(k·δ̄) from fill distances', () => {
    // 5 fills at 10 ticks and 5 at 20 ticks over one day: k = 10/150, δ̄ = 15 → A = 10·e^1
    const fills = [
      ...Array.from({ length: 5 }, (_, i) => fill({ priceTicks: 490, atMs: T0 - (i + 1) * HOUR })),
      ...Array.from({ length: 5 }, (_, i) => fill({ token: 'NO', side: 'BUY', priceTicks: 480, atMs: T0 - (i + 6) * HOUR })),
    ];
    const estimate = estimateFillIntensity(fills, history, T0, options);
    expect(estimate.estimated).toBe(true);
    expect(estimate.fills).toBe(10);
    expect(estimate.k).toBeCloseTo(10 / 150, 12);
    expect(estimate.a).toBeCloseTo(10 * Math.E, 9);
  });

  it('limits the fit to its bounds and ignores fills outside the window', () => {
    const atMid = Array.from({ length: 6 }, (_, i) => fill({ priceTicks: 500, atMs: T0 - (i + 1) * HOUR }));
    const stale = Array.from({ length: 6 }, (_, i) => fill({ priceTicks: 400, atMs: T0 - 30 * HOUR - i }));
    const estimate = estimateFillIntensity([...atMid, ...stale], history, T0, options);
    expect(estimate.fills).toBe(6);
    expect(estimate.k).toBe(5);
  });
});

describe('toxicity', () => {
  const options = { horizonMs: 60_000, lookbackMs: 2 * HOUR, priorFills: 0 };

  it('measures adverse mid moves after fills per YES side, in ticks', () => {
    const history = [
      { atMs: T0 - 10 * 60_000, mid: 0.5 },
      { atMs: T0 - 10 * 60_000 + 30_000, mid: 0.49 }, // 30 s after the bid fill: −10 ticks
      { atMs: T0 - 5 * 60_000, mid: 0.49 },
      { atMs: T0 - 5 * 60_000 + 90_000, mid: 0.52 }, // after the horizon of the second fill: ignored
    ];
    const fills = [
      fill({ token: 'YES', side: 'BUY', priceTicks: 495, atMs: T0 - 10 * 60_000 }),
      fill({ token: 'NO', side: 'BUY', priceTicks: 505, atMs: T0 - 5 * 60_000 }),
    ];
    const tox = estimateToxicity(fills, history, T0, options);
    expect(tox.bid.ticks).toBeCloseTo(10, 9);
    expect(tox.bid.fills).toBe(1);
    expect(tox.ask).toEqual({ ticks: 0, fills: 1 });
  });

  it('nets favourable against adverse moves, weights by size, and shrinks toward 0 with few fills', () => {
    const history = [
      { atMs: T0 - 20 * 60_000, mid: 0.5 },
      { atMs: T0 - 19 * 60_000, mid: 0.47 }, // −30 after fill A (bid)
      { atMs: T0 - 10 * 60_000, mid: 0.47 },
      { atMs: T0 - 9 * 60_000, mid: 0.48 }, // +10 after fill B (bid): favourable
    ];
    const fills = [
      fill({ priceTicks: 495, atMs: T0 - 20 * 60_000, sizeRaw: 10 * RAW_PER_UNIT }),
      fill({ token: 'NO', side: 'SELL', priceTicks: 525, atMs: T0 - 10 * 60_000, sizeRaw: 30 * RAW_PER_UNIT }),
    ];
    // size-weighted: (10·30 + 30·(−10)) / 40 = 0
    expect(estimateToxicity(fills, history, T0, options).bid.ticks).toBeCloseTo(0, 9);
    const adverseOnly = [fills[0]!];
    expect(estimateToxicity(adverseOnly, history, T0, options).bid.ticks).toBeCloseTo(30, 9);
    expect(estimateToxicity(adverseOnly, history, T0, { ...options, priorFills: 2 }).bid.ticks).toBeCloseTo(10, 9);
  });

  it('uses the move so far for a fill younger than the horizon, and ignores old fills', () => {
    const history = [{ atMs: T0 - 20_000, mid: 0.5 }, { atMs: T0 - 10_000, mid: 0.53 }];
    const fresh = [fill({ token: 'YES', side: 'SELL', priceTicks: 505, atMs: T0 - 20_000 })];
    expect(estimateToxicity(fresh, history, T0, options).ask.ticks).toBeCloseTo(30, 9);
    const old = [fill({ token: 'YES', side: 'SELL', priceTicks: 505, atMs: T0 - 3 * HOUR })];
    expect(estimateToxicity(old, [{ atMs: T0 - 4 * HOUR, mid: 0.5 }, { atMs: T0 - 3 * HOUR + 1, mid: 0.6 }], T0, options).ask.fills).toBe(0);
  });
});

describe('own orders and the others\' book', () => {
  const own = [
    { token: 'YES' as const, side: 'BUY' as const, priceTicks: 490, sizeRaw: 10 * RAW_PER_UNIT },
    { token: 'NO' as const, side: 'BUY' as const, priceTicks: 490, sizeRaw: 10 * RAW_PER_UNIT }, // YES ask 510
  ];

  it('subtracts own orders in YES terms and drops emptied levels', () => {
    const yes = book({ bids: [[490, 10], [480, 50]], asks: [[510, 25], [520, 50]] });
    const others = othersBook(yes, own);
    expect(others.bids).toEqual([level(480, 50)]);
    expect(others.asks).toEqual([level(510, 15), level(520, 50)]);
    expect(touchMid(touchOf(others))).toBeCloseTo(0.495, 12);
    // microprice leans toward the thinner side: (480·15 + 510·50) / 65 / 1000
    expect(touchMicroprice(touchOf(others))).toBeCloseTo((480 * 15 + 510 * 50) / 65 / 1000, 12);
  });

  it('prefers the view\'s own orders, else remembers the last intents per market', () => {
    const memory = new OwnQuoteMemory();
    memory.remember('test-market', [own[0]!]);
    expect(ownOrdersOf(view(), memory)).toEqual([own[0]]);
    expect(ownOrdersOf(view({ market: { slug: 'other' } }), memory)).toEqual([]);
    expect(ownOrdersOf(view({ ownOrders: own }), memory)).toEqual(own);
  });
});

describe('reference price', () => {
  const sources = ['mid', 'adjustedMidpoint'] as const;

  it('takes the first usable source and falls back in order', () => {
    const twoSided = view({ book: { bids: [[480, 10]], asks: [[520, 30]], adjustedMidpoint: 0.51 } });
    expect(referencePrice(twoSided, { sources: [...sources], own: [], maxTouchSpread: null })).toEqual({ price: 0.5, source: 'mid' });
    expect(referencePrice(twoSided, { sources: ['microprice'], own: [], maxTouchSpread: null })?.price).toBeCloseTo(0.49, 12);
    const oneSided = view({ book: { bids: [[480, 10]], adjustedMidpoint: 0.47 } });
    expect(referencePrice(oneSided, { sources: [...sources], own: [], maxTouchSpread: null })).toEqual({ price: 0.47, source: 'adjustedMidpoint' });
  });

  it('returns null rather than invent a price', () => {
    const empty = view({ book: { adjustedMidpoint: null } });
    expect(referencePrice(empty, { sources: ['mid', 'microprice', 'adjustedMidpoint'], own: [], maxTouchSpread: null })).toBeNull();
    const oneSided = view({ book: { asks: [[520, 10]], adjustedMidpoint: null } });
    expect(referencePrice(oneSided, { sources: ['mid', 'adjustedMidpoint'], own: [], maxTouchSpread: null })).toBeNull();
    const crossed = view({ book: { bids: [[530, 10]], asks: [[520, 10]], adjustedMidpoint: 0.5 } });
    expect(referencePrice(crossed, { sources: ['adjustedMidpoint'], own: [], maxTouchSpread: null })).toBeNull();
    const nan = view({ book: { bids: [[480, 10]], adjustedMidpoint: Number.NaN } });
    expect(referencePrice(nan, { sources: ['adjustedMidpoint'], own: [], maxTouchSpread: null })).toBeNull();
  });

  it('ignores the mid of a touch wider than maxTouchSpread', () => {
    const wide = view({ book: { bids: [[100, 10]], asks: [[900, 10]], adjustedMidpoint: 0.62 } });
    expect(referencePrice(wide, { sources: ['mid'], own: [], maxTouchSpread: 0.1 })).toBeNull();
    expect(referencePrice(wide, { sources: ['mid', 'adjustedMidpoint'], own: [], maxTouchSpread: 0.1 })?.source).toBe('adjustedMidpoint');
    expect(referencePrice(wide, { sources: ['mid'], own: [], maxTouchSpread: 0.8 })?.price).toBe(0.5);
  });

  it('is computed without the bot\'s own orders (no quoting around itself)', () => {
    const own = [{ token: 'YES' as const, side: 'BUY' as const, priceTicks: 495, sizeRaw: 10 * RAW_PER_UNIT }];
    const v = view({ book: { bids: [[495, 10], [480, 10]], asks: [[520, 10]] } });
    expect(referencePrice(v, { sources: ['mid'], own: [], maxTouchSpread: null })?.price).toBeCloseTo(0.5075, 12);
    expect(referencePrice(v, { sources: ['mid'], own, maxTouchSpread: null })?.price).toBeCloseTo(0.5, 12);
  });
});
