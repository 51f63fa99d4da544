/**
 * The strategies on a priced market: the model's fair value is the reference (first in every default list), the
 * quotes keep the model's uncertainty from it, and Avellaneda–Stoikov / GLFT take their volatility from the model.
 */
import { describe, expect, it } from 'vitest';
import type { MarketView, ModelView, QuoteIntent } from '../../../src/strategy/contract.js';
import { modelLogOddsSigma, modelMinHalfSpread } from '../../../src/strategy/model-spread.js';
import { DEFAULT_REFERENCE_SOURCES, referencePrice } from '../../../src/strategy/reference-price.js';
import { toYesTerms } from '../../../src/strategy/yes-terms.js';
import avellanedaStoikov, { avellanedaStoikovParamsSchema } from '../../../strategies/avellaneda-stoikov.js';
import fixedSpread, { fixedSpreadParamsSchema } from '../../../strategies/fixed-spread.js';
import liquidityRewards, { liquidityRewardsParamsSchema } from '../../../strategies/liquidity-rewards.js';
import { HOUR, T0, view } from '../../support/views.js';

const MODEL: ModelView = {
  fair: 0.62,
  delta: 0.0004,
  uncertainty: 0.004,
  secondsToSettlement: 1800,
  underlying: { ticker: 'BTC', price: 90_000, ageMs: 300, volatility: 0.5 },
};

/** YES-terms bid and ask prices (ticks) of a quote. */
function yesQuotes(intents: readonly QuoteIntent[]): { bids: number[]; asks: number[] } {
  const bids: number[] = [];
  const asks: number[] = [];
  for (const i of intents) {
    const y = toYesTerms(i.token, i.side, i.priceTicks);
    (y.side === 'bid' ? bids : asks).push(y.priceTicks);
  }
  return { bids, asks };
}

describe('the model reference source', () => {
  it('is first in every default list and wins over the book when the market is priced', () => {
    expect(DEFAULT_REFERENCE_SOURCES[0]).toBe('model');
    const priced = view({ model: MODEL });
    expect(referencePrice(priced, { sources: DEFAULT_REFERENCE_SOURCES, own: [], maxTouchSpread: null })).toEqual({ price: 0.62, source: 'model' });
  });

  it('needs no book: an empty or one-sided book still has a reference on a priced market', () => {
    const empty = view({ book: { bids: [], asks: [] }, model: MODEL });
    expect(referencePrice(empty, { sources: ['model', 'mid'], own: [], maxTouchSpread: null })?.source).toBe('model');
    expect(referencePrice(view({ book: { bids: [], asks: [] } }), { sources: ['model', 'mid'], own: [], maxTouchSpread: null })).toBeNull();
  });

  it('falls back to the book on an unpriced market, and keeps an explicit order', () => {
    expect(referencePrice(view(), { sources: DEFAULT_REFERENCE_SOURCES, own: [], maxTouchSpread: null })).toEqual({ price: 0.5, source: 'mid' });
    expect(referencePrice(view({ model: MODEL }), { sources: ['mid', 'model'], own: [], maxTouchSpread: null })?.source).toBe('mid');
  });
});

describe('model-spread rules (known values)', () => {
  it('gives the minimum half-spread and the log-odds volatility', () => {
    const v = view({ model: MODEL });
    expect(modelMinHalfSpread(v, 1.5)).toBeCloseTo(0.006, 15);
    expect(modelMinHalfSpread(view(), 1.5)).toBe(0);
    // σ_x = delta·S·σ_S/√8760 / (p(1−p)) = 0.0004·90000·0.5/93.59 / 0.2356 = 0.8163 log-odds per √hour.
    expect(modelLogOddsSigma(v)).toBeCloseTo((0.0004 * 90_000 * (0.5 / Math.sqrt(8760))) / (0.62 * 0.38), 12);
    expect(modelLogOddsSigma(v)).toBeCloseTo(0.8163, 3);
    expect(modelLogOddsSigma(view())).toBeNull();
    expect(modelLogOddsSigma(view({ model: { ...MODEL, delta: 0 } }))).toBeNull();
  });
});

describe('strategies quote around the model', () => {
  const cases: [string, (v: MarketView) => QuoteIntent[]][] = [
    ['fixed-spread', (v) => fixedSpread.create(fixedSpreadParamsSchema.parse({ bidSpread: 0.001, askSpread: 0.001, minSpread: 0 })).quote(v)],
    ['avellaneda-stoikov', (v) => avellanedaStoikov.create(avellanedaStoikovParamsSchema.parse({ minSpread: 0 })).quote(v)],
    ['glft', (v) => avellanedaStoikov.create(avellanedaStoikovParamsSchema.parse({ model: 'glft', minSpread: 0 })).quote(v)],
  ];
  for (const [name, quote] of cases) {
    it(`${name}: bid below and ask above the model's fair value, at least its uncertainty away, with a wide book`, () => {
      const v = view({ book: { bids: [[300, 100]], asks: [[900, 100]] }, model: MODEL, market: { expiresAtMs: T0 + HOUR } });
      const { bids, asks } = yesQuotes(quote(v));
      expect(bids.length).toBeGreaterThan(0);
      expect(asks.length).toBeGreaterThan(0);
      for (const b of bids) expect(b / 1000).toBeLessThanOrEqual(0.62 - 0.004 + 1e-12);
      for (const a of asks) expect(a / 1000).toBeGreaterThanOrEqual(0.62 + 0.004 - 1e-12);
      // A larger uncertainty pushes the quotes out.
      const wider = yesQuotes(quote({ ...v, model: { ...MODEL, uncertainty: 0.03 } }));
      expect(Math.max(...wider.bids)).toBeLessThanOrEqual(590);
      expect(Math.min(...wider.asks)).toBeGreaterThanOrEqual(650);
    });
  }

  it('avellaneda-stoikov takes sigma from the model: a larger underlying volatility widens its spread', () => {
    const as = avellanedaStoikov.create(avellanedaStoikovParamsSchema.parse({ minSpread: 0, uncertaintyMultiplier: 0 }));
    const base = view({ model: MODEL, market: { expiresAtMs: T0 + HOUR }, position: { yesRaw: 0, noRaw: 0 } });
    const calm = as.diagnostics?.(base) ?? {};
    expect(calm['sigmaFromModel']).toBe(1);
    expect(calm['sigma']).toBeCloseTo(modelLogOddsSigma(base)!, 12);
    const wild = as.diagnostics?.({ ...base, model: { ...MODEL, underlying: { ...MODEL.underlying, volatility: 1.5 } } }) ?? {};
    expect(wild['sigma']).toBeCloseTo(3 * (calm['sigma'] ?? 0), 9);
    expect(wild['spread']).toBeGreaterThan(calm['spread'] ?? 0);
  });

  it('liquidity-rewards never bids above (or offers below) the model fair value less its uncertainty', () => {
    const lr = liquidityRewards.create(liquidityRewardsParamsSchema.parse({}));
    const v = view({
      book: { bids: [[600, 500]], asks: [[660, 500]], adjustedMidpoint: 0.63 },
      model: { ...MODEL, fair: 0.64 },
      market: { rewardable: true, dailyRewardRaw: 1000e6, maxSpreadTicks: 30, minSizeRaw: 10e6 },
    });
    const { bids, asks } = yesQuotes(lr.quote(v));
    expect(bids.length + asks.length).toBeGreaterThan(0);
    for (const b of bids) expect(b).toBeLessThanOrEqual(636);
    for (const a of asks) expect(a).toBeGreaterThanOrEqual(644);
  });
});

describe('what a book-referenced strategy reads of the model (readModel)', () => {
  const BOOK_REF = ['mid', 'adjustedMidpoint'] as const;
  const strategies: [string, (extra: Record<string, unknown>) => (v: MarketView) => QuoteIntent[]][] = [
    ['fixed-spread', (extra) => (v) => fixedSpread.create(fixedSpreadParamsSchema.parse({ referencePrice: BOOK_REF, bidSpread: 0.001, askSpread: 0.001, minSpread: 0, ...extra })).quote(v)],
    ['avellaneda-stoikov', (extra) => (v) => avellanedaStoikov.create(avellanedaStoikovParamsSchema.parse({ referencePrice: BOOK_REF, minSpread: 0, ...extra })).quote(v)],
  ];
  const base = view({ book: { bids: [[600, 100]], asks: [[640, 100]] }, market: { expiresAtMs: T0 + HOUR } });
  /** The model without the surface, and three surfaces over it (fair, uncertainty, volatility moved). */
  const realized = { fair: 0.58, delta: 0.0004, uncertainty: 0.01, volatility: 0.5 };
  const surfaces: [ModelView, ModelView, ModelView] = [
    { ...MODEL, withoutSurface: realized },
    { ...MODEL, fair: 0.7, uncertainty: 0.05, withoutSurface: realized },
    { ...MODEL, underlying: { ...MODEL.underlying, volatility: 2 }, withoutSurface: realized },
  ];
  for (const [name, make] of strategies) {
    it(`${name}: by default ('realized') the same quotes whatever the surface makes of the model, guarded by the model without it`, () => {
      const quote = make({});
      const quotes = surfaces.map((model) => quote({ ...base, model }));
      for (const q of quotes) expect(q).toEqual(quotes[0]);
      // the guard is there: the realized model's fair 0.58 ± 0.01 keeps the bid at or below 0.570
      const { bids } = yesQuotes(quotes[0] ?? []);
      expect(bids.length).toBeGreaterThan(0);
      for (const b of bids) expect(b).toBeLessThanOrEqual(570);
      expect(quotes[0]).not.toEqual(quote(base));
    });

    it(`${name}: 'none' reads no model input; 'full' reads the surface (the behaviour before issue 41)`, () => {
      const none = make({ readModel: 'none' });
      for (const model of surfaces) expect(none({ ...base, model })).toEqual(none(base));
      const full = make({ readModel: 'full' });
      expect(full({ ...base, model: surfaces[1] })).not.toEqual(full({ ...base, model: surfaces[0] }));
    });
  }
});
