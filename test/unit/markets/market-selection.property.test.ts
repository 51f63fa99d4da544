/**
 * Properties of `selectMarkets` (src/markets/market-selection.ts) over random listings and random rules: every candidate
 * ends selected or skipped (once), the bounds hold, nothing ended or excluded is selected, the rule-based part does
 * not depend on the listing's order, and a selection joined and evaluated again does not flap — not when nothing
 * changed, nor when the joined markets' fair values moved by less than the hysteresis.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectMarkets, type SelectionCandidate } from '../../../src/markets/market-selection.js';
import type { MarketCadence, MarketSelector, MarketsConfig } from '../../../src/config/types.js';
import { CAPTURED_AT_MS, MINUTE, recorded, reward, rules, variant } from '../../support/selection-fixtures.js';

const NOW = CAPTURED_AT_MS;
const BASES = [recorded('BTC', 'Hourly'), recorded('ETH', 'Daily'), recorded('SOL', 'Weekly'), recorded('ETH', 'Hourly')];

/** Fair values anywhere, and often near an edge of the bands the rules use (where hysteresis matters); ties too. */
const fairArb = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.tuple(fc.constantFrom(0.03, 0.2, 0.5, 0.8, 0.97), fc.double({ min: -0.02, max: 0.02, noNaN: true })).map(([edge, off]) => Math.min(1, Math.max(0, edge + off))),
);

const candidateArb = (index: number) =>
  fc
    .record({
      base: fc.constantFrom(...BASES),
      fair: fc.option(fairArb, { nil: null }),
      reward: fc.oneof(fc.constantFrom(0, 100, 1000), fc.integer({ min: 0, max: 1500 })),
      rewardable: fc.constantFrom(true, true, false),
      settlesInMin: fc.oneof(fc.constantFrom(-1, 9, 30, 50, 1_440), fc.integer({ min: -30, max: 20_000 })),
      resolved: fc.boolean().map((b) => b && index % 7 === 0),
      group: fc.constantFrom(null, null, null, 'ladder'),
    })
    .map(({ base, fair, reward: usdc, rewardable, settlesInMin, resolved, group }): SelectionCandidate => ({
      market: variant(base, `m-${String(index).padStart(2, '0')}`, {
        ...reward(usdc),
        isRewardable: rewardable,
        expirationMs: NOW + settlesInMin * MINUTE,
        resolved,
        groupSlug: group,
      }),
      fair,
    }));

const listingArb = fc.integer({ min: 0, max: 24 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => candidateArb(i))));

/** Every rule but `tickers` (a variant settling at another time than its title says is not priced: known-value tests cover it). */
const selectorArb: fc.Arbitrary<Partial<MarketSelector>> = fc.record({
  top: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
  max: fc.integer({ min: 1, max: 12 }),
  by: fc.constantFrom('dailyReward' as const, 'nearestTheMoney' as const),
  rewardableOnly: fc.constantFrom(false, false, true),
  minDailyRewardRaw: fc.constantFrom(0, 0, 100_000_000, 900_000_000),
  cadences: fc.constantFrom<readonly MarketCadence[] | null>(null, null, ['hourly'], ['hourly', 'daily', 'weekly']),
  joinBeforeSettlementMs: fc.constantFrom(null, null, 3_000_000, 86_400_000),
  minFairTicks: fc.constantFrom(null, 30, 200),
  maxFairTicks: fc.constantFrom(null, 970, 800),
  fairHysteresisTicks: fc.constantFrom(0, 10, 10, 50),
});

const rulesArb: fc.Arbitrary<MarketsConfig> = fc
  .record({ select: selectorArb, named: fc.subarray(['m-00', 'm-03', 'm-99']), group: fc.boolean(), exclude: fc.subarray(['m-01', 'm-03', 'm-05']) })
  .map(({ select, named, group, exclude }) => rules(select, { slugs: named.slice(0, select.max ?? 12), groups: group ? ['ladder'] : [], exclude }));

const slugsOf = (markets: readonly { readonly slug: string }[]): string[] => markets.map((m) => m.slug);

describe('selectMarkets: properties', () => {
  it('partition and bounds: each candidate once in selected or skipped; at most max; nothing excluded, ended or duplicated', () => {
    fc.assert(
      fc.property(listingArb, rulesArb, (listing, config) => {
        const result = selectMarkets({ rules: config, candidates: listing, nowMs: NOW, current: new Set() });
        const selected = slugsOf(result.selected);
        expect(new Set(selected).size).toBe(selected.length);
        expect(selected.length).toBeLessThanOrEqual(config.select?.max ?? Infinity);
        for (const { market } of listing) expect(Number(selected.includes(market.slug)) + Number(result.skipped.has(market.slug))).toBe(1);
        for (const market of result.selected) {
          expect(config.exclude).not.toContain(market.slug);
          expect(market.resolved).toBe(false);
          expect(market.expirationMs === null || market.expirationMs > NOW).toBe(true);
        }
      }),
    );
  });

  it('the rules\' part does not depend on the listing\'s order (nothing named, no group)', () => {
    fc.assert(
      fc.property(listingArb, selectorArb, fc.array(fc.integer(), { minLength: 24, maxLength: 24 }), (listing, select, keys) => {
        const config = rules(select);
        const shuffled = listing.map((c, i) => ({ c, key: keys[i] ?? 0 })).sort((a, b) => a.key - b.key).map(({ c }) => c);
        const one = selectMarkets({ rules: config, candidates: listing, nowMs: NOW, current: new Set() });
        const other = selectMarkets({ rules: config, candidates: shuffled, nowMs: NOW, current: new Set() });
        expect(slugsOf(other.selected)).toEqual(slugsOf(one.selected));
        expect(new Map([...other.skipped].sort())).toEqual(new Map([...one.skipped].sort()));
      }),
    );
  });

  it('no flapping: joined and evaluated again, a minute later, with fair values moved by less than the hysteresis, every market stays', () => {
    fc.assert(
      fc.property(listingArb, rulesArb, fc.double({ min: -0.99, max: 0.99, noNaN: true }), (listing, config, move) => {
        const first = selectMarkets({ rules: config, candidates: listing, nowMs: NOW, current: new Set() });
        const joined = new Set(slugsOf(first.selected));
        const margin = (config.select?.fairHysteresisTicks ?? 0) / 1000;
        const moved = listing.map((c) => (c.fair === null || !joined.has(c.market.slug) ? c : { ...c, fair: Math.min(1, Math.max(0, c.fair + move * margin)) }));
        const later = NOW + MINUTE;
        const stillOpen = [...joined].filter((slug) => {
          const market = listing.find((c) => c.market.slug === slug)?.market;
          return market !== undefined && (market.expirationMs === null || market.expirationMs > later);
        });
        const again = selectMarkets({ rules: config, candidates: moved, nowMs: later, current: joined });
        expect(slugsOf(again.selected)).toEqual(expect.arrayContaining(stillOpen));
      }),
      { numRuns: 400 },
    );
  });
});
