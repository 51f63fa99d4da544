// Property tests over random views (books incl. empty, one-sided and crossed; positions; fills; mid
// histories with junk; own orders) and random params: whatever a built-in strategy returns is on the
// tick and the step, inside (0, 1) and the band, bids below asks in YES terms, slots unique, post-only
// quotes behind the touch, sells covered by inventory, no quotes without a price or after expiry, the
// same quotes from the same view, and quote() never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RAW_PER_UNIT, SIZE_STEP_RAW } from '../../../src/core/venue-rules/index.js';
import type { FillView, MarketView, OwnOrderView, QuoteIntent, StrategyModule } from '../../../src/strategy/contract.js';
import { parseStrategyParams } from '../../../src/strategy/registry.js';
import { rewardMidpoint, singleSidedEligible } from '../../../src/strategy/rewards.js';
import { effectiveBand } from '../../../src/strategy/rounding.js';
import { validateIntents } from '../../../src/strategy/validate.js';
import { toYesTerms } from '../../../src/strategy/yes-terms.js';
import avellanedaStoikov from '../../../strategies/avellaneda-stoikov.js';
import fixedSpread from '../../../strategies/fixed-spread.js';
import liquidityRewards from '../../../strategies/liquidity-rewards.js';
import { book, HOUR, T0, view } from '../../support/views.js';

const NUM_RUNS = 400;

const bookArb = fc
  .record({
    split: fc.integer({ min: 2, max: 999 }),
    bidCount: fc.nat({ max: 5 }),
    askCount: fc.nat({ max: 5 }),
    crossed: fc.boolean(),
    // undefined: the book's own mid (the usual case); else a random, possibly inconsistent or junk value, or null
    adjusted: fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.option(fc.double({ min: 0.001, max: 0.999, noNaN: true }), { nil: null }) },
      { weight: 1, arbitrary: fc.constantFrom(Number.NaN, 0, 1) },
    ),
    seedLevels: fc.array(fc.tuple(fc.nat({ max: 1000 }), fc.double({ min: 0.001, max: 5000, noNaN: true })), { minLength: 10, maxLength: 10 }),
  })
  .map(({ split, bidCount, askCount, crossed, adjusted, seedLevels }) => {
    const lo = crossed ? Math.min(999, split + 5) : split - 1;
    const bids = seedLevels.slice(0, bidCount).map(([n, s]): [number, number] => [1 + (n % Math.max(1, lo)), s]).filter(([p]) => p <= 999);
    const asks = seedLevels.slice(5, 5 + askCount).map(([n, s]): [number, number] => [Math.min(999, split + (n % Math.max(1, 1000 - split))), s]);
    return book(adjusted === undefined ? { bids, asks } : { bids, asks, adjustedMidpoint: adjusted });
  });

const marketArb = fc.record({
  band: fc.oneof(
    fc.constantFrom({ minTicks: 10, maxTicks: 990 }, { minTicks: 1, maxTicks: 999 }),
    fc.tuple(fc.integer({ min: -5, max: 600 }), fc.integer({ min: 300, max: 1100 })).map(([minTicks, maxTicks]) => ({ minTicks, maxTicks })),
  ),
  maxSpreadTicks: fc.integer({ min: 0, max: 100 }),
  minSizeRaw: fc.oneof(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 20 }).map((n) => n * RAW_PER_UNIT)),
  rewardC: fc.oneof(fc.constant(3), fc.double({ min: 0, max: 10, noNaN: true })),
  dailyRewardRaw: fc.integer({ min: 0, max: 1_000_000_000 }),
  rewardable: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  expiresAtMs: fc.option(fc.integer({ min: T0 - HOUR, max: T0 + 60 * 24 * HOUR }), { nil: null, freq: 3 }),
});

const fillArb: fc.Arbitrary<FillView> = fc.record({
  token: fc.constantFrom('YES' as const, 'NO' as const),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  priceTicks: fc.integer({ min: 1, max: 999 }),
  sizeRaw: fc.integer({ min: 1, max: 100_000 }).map((n) => n * SIZE_STEP_RAW),
  atMs: fc.integer({ min: T0 - 30 * HOUR, max: T0 }),
});

const ownArb: fc.Arbitrary<OwnOrderView> = fc.record({
  token: fc.constantFrom('YES' as const, 'NO' as const),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  priceTicks: fc.integer({ min: 1, max: 999 }),
  sizeRaw: fc.integer({ min: 1, max: 100_000 }).map((n) => n * SIZE_STEP_RAW),
});

const junkHistoryArb = fc.array(
  fc.record({
    atMs: fc.integer({ min: T0 - 48 * HOUR, max: T0 + HOUR }),
    mid: fc.oneof({ weight: 9, arbitrary: fc.double({ min: 0.001, max: 0.999, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(Number.NaN, 0, 1, -1) }),
  }),
  { maxLength: 80 },
);
/** A random walk in log-odds, one point a minute up to now. */
const walkHistoryArb = fc
  .tuple(fc.double({ min: -4, max: 4, noNaN: true }), fc.array(fc.double({ min: -0.05, max: 0.05, noNaN: true }), { maxLength: 120 }))
  .map(([start, steps]) => {
    let x = start;
    return steps.map((dx, i) => {
      x += dx;
      return { atMs: T0 - (steps.length - 1 - i) * 60_000, mid: 1 / (1 + Math.exp(-x)) };
    });
  });
const historyArb = fc.oneof(junkHistoryArb, walkHistoryArb);
const rawPositionArb = fc.oneof(fc.integer({ min: 0, max: 200_000_000 }), fc.integer({ min: 0, max: 5_000_000_000 }));

const viewArb: fc.Arbitrary<MarketView> = fc
  .record({
    yes: bookArb,
    market: marketArb,
    yesRaw: rawPositionArb,
    noRaw: rawPositionArb,
    fills: fc.array(fillArb, { maxLength: 30 }),
    history: historyArb,
    own: fc.option(fc.array(ownArb, { maxLength: 6 }), { nil: undefined }),
  })
  .map(({ yes, market, yesRaw, noRaw, fills, history, own }) =>
    view({
      yes,
      market,
      position: { yesRaw, noRaw },
      recentFills: [...fills].sort((a, b) => a.atMs - b.atMs),
      midHistory: history,
      ...(own === undefined ? {} : { ownOrders: own }),
    }),
  );

const referenceArb = fc.subarray(['mid', 'microprice', 'adjustedMidpoint'] as const, { minLength: 1 }).chain((s) => fc.shuffledSubarray(s, { minLength: s.length, maxLength: s.length }));

const fixedSpreadParamsArb = fc.record(
  {
    referencePrice: referenceArb,
    bidSpread: fc.double({ min: 0, max: 0.3, noNaN: true }),
    askSpread: fc.double({ min: 0, max: 0.3, noNaN: true }),
    minSpread: fc.double({ min: 0.0001, max: 0.1, noNaN: true }),
    levels: fc.integer({ min: 1, max: 5 }),
    levelSpacing: fc.double({ min: 0, max: 0.05, noNaN: true }),
    orderSize: fc.double({ min: 0.001, max: 500, noNaN: true }),
    sizeIncrement: fc.double({ min: 0, max: 20, noNaN: true }),
    inventoryTarget: fc.double({ min: -500, max: 500, noNaN: true }),
    inventoryRange: fc.double({ min: 0.5, max: 1000, noNaN: true }),
    sizeSkew: fc.double({ min: 0, max: 1, noNaN: true }),
    maxPriceShift: fc.double({ min: 0, max: 0.2, noNaN: true }),
    minOrderSize: fc.double({ min: 0, max: 5, noNaN: true }),
    postOnly: fc.boolean(),
    maxTouchSpread: fc.option(fc.double({ min: 0.01, max: 0.9, noNaN: true }), { nil: null }),
  },
  { requiredKeys: [] },
);

const asParamsArb = fc.record(
  {
    model: fc.constantFrom('avellaneda-stoikov', 'glft'),
    referencePrice: referenceArb,
    gamma: fc.double({ min: 0.001, max: 10, noNaN: true }),
    orderSize: fc.double({ min: 0.001, max: 500, noNaN: true }),
    maxInventory: fc.double({ min: 0.001, max: 2000, noNaN: true }),
    horizonCapHours: fc.double({ min: 1e-6, max: 1000, noNaN: true }),
    sigmaFallback: fc.double({ min: 0.001, max: 10, noNaN: true }),
    sigmaWarmupObservations: fc.integer({ min: 0, max: 50 }),
    k: fc.option(fc.double({ min: 1, max: 1000, noNaN: true }), { nil: null }),
    A: fc.option(fc.double({ min: 0.01, max: 10_000, noNaN: true }), { nil: null }),
    intensityMinFills: fc.integer({ min: 1, max: 20 }),
    minSpread: fc.double({ min: 0, max: 0.2, noNaN: true }),
    postOnly: fc.boolean(),
  },
  { requiredKeys: [] },
);

const lrParamsArb = fc.record(
  {
    orderSize: fc.option(fc.double({ min: 0.001, max: 500, noNaN: true }), { nil: null }),
    maxSpreadFraction: fc.double({ min: 0.05, max: 1, noNaN: true }),
    allowSingleSided: fc.boolean(),
    baseAdverseTicks: fc.double({ min: 0, max: 50, noNaN: true }),
    toxicityWeight: fc.double({ min: 0, max: 5, noNaN: true }),
    toxicityHorizonSeconds: fc.double({ min: 1, max: 3600, noNaN: true }),
    toxicityPriorFills: fc.double({ min: 0, max: 10, noNaN: true }),
    toxicityOffTicks: fc.double({ min: 0.5, max: 100, noNaN: true }),
    toxicSizeReduction: fc.double({ min: 0, max: 1, noNaN: true }),
    fillRateA: fc.double({ min: 0.1, max: 10_000, noNaN: true }),
    fillDecayK: fc.double({ min: 0.01, max: 5, noNaN: true }),
    estimateFillRate: fc.boolean(),
    fillRateMinFills: fc.integer({ min: 1, max: 20 }),
    requoteThreshold: fc.double({ min: 0, max: 1, noNaN: true }),
    maxInventory: fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0.001, max: 5000, noNaN: true })),
    minEdgePerDay: fc.double({ min: -10, max: 1, noNaN: true }),
    postOnly: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Checks every invariant a strategy's output must hold on any view. */
function checkIntents(intents: readonly QuoteIntent[], v: MarketView): void {
  const { valid, rejected } = validateIntents(intents, v.market);
  expect(rejected).toEqual([]);
  expect(valid).toHaveLength(intents.length);
  const band = effectiveBand(v.market);
  if (intents.length > 0) expect(band).not.toBeNull();
  let maxBid = Number.NEGATIVE_INFINITY;
  let minAsk = Number.POSITIVE_INFINITY;
  for (const intent of intents) {
    expect(Number.isInteger(intent.priceTicks)).toBe(true);
    expect(intent.priceTicks).toBeGreaterThanOrEqual(Math.max(1, band?.minTicks ?? 1));
    expect(intent.priceTicks).toBeLessThanOrEqual(Math.min(999, band?.maxTicks ?? 999));
    expect(intent.sizeRaw).toBeGreaterThan(0);
    expect(intent.sizeRaw % SIZE_STEP_RAW).toBe(0);
    const yes = toYesTerms(intent.token, intent.side, intent.priceTicks);
    if (yes.side === 'bid') maxBid = Math.max(maxBid, yes.priceTicks);
    else minAsk = Math.min(minAsk, yes.priceTicks);
    if (intent.postOnly === true) {
      if (yes.side === 'bid' && v.yes.bestAskTicks !== null) expect(yes.priceTicks).toBeLessThan(v.yes.bestAskTicks);
      if (yes.side === 'ask' && v.yes.bestBidTicks !== null) expect(yes.priceTicks).toBeGreaterThan(v.yes.bestBidTicks);
    }
  }
  expect(maxBid).toBeLessThan(minAsk);
  // never sells what it does not hold
  const selling = (token: 'YES' | 'NO') => intents.filter((i) => i.side === 'SELL' && i.token === token).reduce((s, i) => s + i.sizeRaw, 0);
  expect(selling('YES')).toBeLessThanOrEqual(v.position.yesRaw);
  expect(selling('NO')).toBeLessThanOrEqual(v.position.noRaw);
  expect(new Set(intents.map((i) => i.slot)).size).toBe(intents.length);
  const nothingToQuoteAround = v.yes.bids.length === 0 && v.yes.asks.length === 0 && v.yes.adjustedMidpoint === null;
  if (nothingToQuoteAround) expect(intents).toEqual([]);
  if (v.market.expiresAtMs !== null && v.now >= v.market.expiresAtMs) expect(intents).toEqual([]);
}

function propertyFor<P>(module: StrategyModule<P>, paramsArb: fc.Arbitrary<Record<string, unknown>>, extra?: (intents: readonly QuoteIntent[], v: MarketView) => void) {
  fc.assert(
    fc.property(viewArb, paramsArb, (v, raw) => {
      const parsed = parseStrategyParams(module, raw);
      fc.pre(parsed.ok);
      if (!parsed.ok) return;
      const intents = module.create(parsed.value).quote(v);
      checkIntents(intents, v);
      extra?.(intents, v);
      // deterministic: a fresh instance on the same view gives the same quotes
      expect(module.create(parsed.value).quote(v)).toEqual(intents);
    }),
    { seed: 20260101, numRuns: NUM_RUNS },
  );
}

describe('strategy properties over random views and params', () => {
  it('fixed-spread', () => {
    propertyFor(fixedSpread, fixedSpreadParamsArb);
  });

  it('avellaneda-stoikov (AS and GLFT)', () => {
    propertyFor(avellanedaStoikov, asParamsArb);
  });

  it('liquidity-rewards: also ≥ minSize, inside maxSpread of the reward midpoint, two-sided outside 0.05–0.95', () => {
    propertyFor(liquidityRewards, lrParamsArb, (intents, v) => {
      if (intents.length === 0) return;
      const midpoint = rewardMidpoint(v);
      expect(midpoint).not.toBeNull();
      for (const intent of intents) {
        expect(intent.sizeRaw).toBeGreaterThanOrEqual(v.market.minSizeRaw);
        const yes = toYesTerms(intent.token, intent.side, intent.priceTicks);
        expect(Math.abs(yes.priceTicks - midpoint! * 1000)).toBeLessThanOrEqual(v.market.maxSpreadTicks + 1e-9);
      }
      if (!singleSidedEligible(midpoint!)) {
        const sides = new Set(intents.map((i) => toYesTerms(i.token, i.side, i.priceTicks).side));
        expect(sides.size).toBe(2);
      }
    });
  });
});
