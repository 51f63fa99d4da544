import { describe, expect, it } from 'vitest';
import { RAW_PER_UNIT } from '../../../src/core/venue-rules/index.js';
import type { FillView, MarketView, QuoteIntent } from '../../../src/strategy/contract.js';
import { estimateRewardShare, ordersAsYesQuotes, rewardSettingsOf } from '../../../src/strategy/rewards.js';
import { toYesTerms } from '../../../src/strategy/yes-terms.js';
import liquidityRewards, { liquidityRewardsParamsSchema } from '../../../strategies/liquidity-rewards.js';
import type { LiquidityRewardsParams } from '../../../strategies/liquidity-rewards.js';
import { book, fill, HOUR, T0, view } from '../../support/views.js';

const shares = (n: number): number => n * RAW_PER_UNIT;
const MIN = 60_000;

function run(params: Partial<LiquidityRewardsParams>, v: MarketView): { intents: QuoteIntent[]; diag: Readonly<Record<string, number>> } {
  const strategy = liquidityRewards.create(liquidityRewardsParamsSchema.parse(params));
  const intents = strategy.quote(v);
  return { intents, diag: strategy.diagnostics?.(v) ?? {} };
}

/** YES-terms [side, ticks, shares] of each intent. */
function yesTable(intents: readonly QuoteIntent[]): [string, number, number][] {
  return intents.map((i) => {
    const y = toYesTerms(i.token, i.side, i.priceTicks);
    return [y.side, y.priceTicks, i.sizeRaw / RAW_PER_UNIT];
  });
}

function distances(intents: readonly QuoteIntent[], midTicks: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of intents) {
    const y = toYesTerms(i.token, i.side, i.priceTicks);
    out[y.side] = Math.abs(y.priceTicks - midTicks);
  }
  return out;
}

/** Fills on one YES side, each followed within 30 s by a mid move of `moveTicks` (negative = down), then back. */
function toxicFlow(side: 'bid' | 'ask', moveTicks: number, count: number): { fills: FillView[]; midHistory: { atMs: number; mid: number }[] } {
  const fills: FillView[] = [];
  const midHistory: { atMs: number; mid: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = T0 - (count - i) * 10 * MIN;
    midHistory.push({ atMs: at - MIN, mid: 0.5 }, { atMs: at + 30_000, mid: 0.5 + moveTicks / 1000 }, { atMs: at + 5 * MIN, mid: 0.5 });
    fills.push(side === 'bid' ? fill({ token: 'YES', side: 'BUY', priceTicks: 499, atMs: at }) : fill({ token: 'NO', side: 'BUY', priceTicks: 499, atMs: at }));
  }
  return { fills, midHistory };
}

describe('liquidity-rewards', () => {
  it('quotes BUY YES and BUY NO inside maxSpread, at the reward minimum size, post-only', () => {
    const { intents, diag } = run({}, view());
    expect(intents).toEqual([
      { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 499, sizeRaw: shares(10), postOnly: true },
      { slot: 'ask-0', token: 'NO', side: 'BUY', priceTicks: 499, sizeRaw: shares(10), postOnly: true },
    ]);
    expect(diag['quoting']).toBe(1);
    // The reported reward is the scoring function's, for these quotes against this book.
    const v = view();
    const expected = estimateRewardShare({
      others: { bids: v.yes.bids, asks: v.yes.asks },
      bot: ordersAsYesQuotes(intents),
      midpoint: 0.5,
      settings: rewardSettingsOf(v.market),
    }).rewardPerDay;
    expect(diag['expectedRewardPerDay']).toBeCloseTo(expected, 12);
    expect(diag['expectedValuePerDay']).toBeCloseTo(expected - (diag['expectedAdverseCostPerDay'] ?? 0), 12);
  });

  it('centres on the adjusted midpoint and sizes at least minSize', () => {
    const v = view({ book: { bids: [[480, 100]], asks: [[540, 100]], adjustedMidpoint: 0.515 } });
    const { intents } = run({ orderSize: 4 }, v);
    // Symmetric around 0.515 (others score little here, so cost pushes both sides out to 3 ticks).
    expect(yesTable(intents)).toEqual([
      ['bid', 512, 10],
      ['ask', 518, 10],
    ]);
    expect(yesTable(run({ orderSize: 25.5 }, v).intents).map((r) => r[2])).toEqual([25.5, 25.5]);
  });

  it('trades reward against adverse selection: a larger expected adverse move pushes quotes wider', () => {
    const widths = [0, 5, 15, 25].map((base) => distances(run({ baseAdverseTicks: base, fillRateA: 2000 }, view()).intents, 500)['bid'] ?? Number.NaN);
    expect(widths[0]).toBe(1);
    for (let i = 1; i < widths.length; i += 1) expect(widths[i]!).toBeGreaterThan(widths[i - 1]!);
    for (const w of widths) expect(w).toBeLessThanOrEqual(30);
  });

  it('backs away from a side whose fills turn toxic: wider, smaller, then off', () => {
    const params = { orderSize: 10, fillRateA: 2000, toxicityPriorFills: 0, estimateFillRate: false };
    const calm = run(params, view());
    const mild = toxicFlow('bid', -8, 6);
    const mildRun = run(params, view({ recentFills: mild.fills, midHistory: mild.midHistory, market: { minSizeRaw: shares(5) } }));
    const calmSmall = run(params, view({ market: { minSizeRaw: shares(5) } }));
    expect(mildRun.diag['toxicityBidTicks']).toBeCloseTo(8, 9);
    const mildBid = yesTable(mildRun.intents).find((r) => r[0] === 'bid');
    const calmBid = yesTable(calmSmall.intents).find((r) => r[0] === 'bid');
    expect(mildBid).toBeDefined();
    expect(500 - mildBid![1]).toBeGreaterThan(500 - calmBid![1]); // wider
    expect(mildBid![2]).toBeLessThan(calmBid![2]); // smaller: 10 · (1 − 0.5 · 8/20) = 8
    expect(mildBid![2]).toBe(8);
    expect(yesTable(calm.intents).length).toBe(2);

    const severe = toxicFlow('bid', -25, 6);
    const severeRun = run(params, view({ recentFills: severe.fills, midHistory: severe.midHistory }));
    expect(severeRun.diag['toxicityBidTicks']).toBeCloseTo(25, 9);
    // bid side pulled; the midpoint is inside 0.05–0.95, so the ask alone may stay
    expect(yesTable(severeRun.intents).map((r) => r[0])).toEqual(['ask']);
  });

  it('never quotes one-sided outside 0.05–0.95', () => {
    const high: { bids: [number, number][]; asks: [number, number][] } = { bids: [[960, 100]], asks: [[980, 100]] };
    const flow = toxicFlow('bid', -25, 6);
    const shifted = flow.midHistory.map((p) => ({ atMs: p.atMs, mid: p.mid + 0.47 }));
    const v = view({ book: { bids: high.bids, asks: high.asks }, recentFills: flow.fills, midHistory: shifted });
    expect(run({ toxicityPriorFills: 0 }, v).intents).toEqual([]);
    // two-sided there is fine
    expect(run({}, view({ book: { bids: high.bids, asks: high.asks } })).intents).toHaveLength(2);
    // inventory beyond the limit pulls the bid: alone, the ask earns nothing at 0.97
    expect(run({ maxInventory: 5 }, view({ book: { bids: high.bids, asks: high.asks }, position: { yesRaw: shares(20) } })).intents).toEqual([]);
    // at 0.5 the same inventory limit leaves a one-sided ask, selling the YES held
    const inside = run({ maxInventory: 5 }, view({ position: { yesRaw: shares(20) } }));
    expect(inside.intents.map((i) => [i.slot, i.token, i.side])).toEqual([['ask-0', 'YES', 'SELL']]);
  });

  it('sells YES it holds for the ask, and needs no inventory otherwise', () => {
    const { intents } = run({}, view({ position: { yesRaw: shares(10) } }));
    expect(intents.map((i) => [i.slot, i.token, i.side, i.priceTicks])).toEqual([
      ['bid-0', 'YES', 'BUY', 499],
      ['ask-0', 'YES', 'SELL', 501],
    ]);
  });

  it('quotes nothing when there is no reward to earn, no midpoint, or the market has expired', () => {
    expect(run({}, view({ market: { rewardable: false } })).intents).toEqual([]);
    expect(run({}, view({ market: { dailyRewardRaw: 0 } })).intents).toEqual([]);
    expect(run({}, view({ market: { maxSpreadTicks: 0 } })).intents).toEqual([]);
    expect(run({}, view({ book: { bids: [[480, 10]], adjustedMidpoint: null } })).intents).toEqual([]);
    expect(run({}, view({ now: T0 + 31 * 24 * HOUR })).intents).toEqual([]);
    expect(run({ minEdgePerDay: 1_000 }, view()).intents).toEqual([]);
  });

  it('does not count its own resting orders as competition', () => {
    const first = run({}, view()).intents;
    const withOwn = view({ yes: book({ bids: [[499, 10], [480, 100], [470, 100]], asks: [[501, 10], [520, 100], [530, 100]], adjustedMidpoint: 0.5 }), ownOrders: first });
    const again = run({}, withOwn);
    expect(again.intents).toEqual(first);
    expect(again.diag['expectedRewardPerDay']).toBeCloseTo(run({}, view()).diag['expectedRewardPerDay']!, 12);
  });

  it('keeps its previous quotes while they are within requoteThreshold of the best', () => {
    const moved = view({ book: { bids: [[480, 100]], asks: [[520, 100]], adjustedMidpoint: 0.5005 } });
    const sticky = liquidityRewards.create(liquidityRewardsParamsSchema.parse({ requoteThreshold: 1 }));
    const eager = liquidityRewards.create(liquidityRewardsParamsSchema.parse({ requoteThreshold: 0 }));
    const first = sticky.quote(view());
    eager.quote(view());
    expect(sticky.quote(moved)).toEqual(first);
    expect(yesTable(eager.quote(moved))).toEqual([
      ['bid', 500, 10],
      ['ask', 501, 10],
    ]);
  });

  it('stays inside the band in each order\'s own token prices', () => {
    const v = view({ book: { bids: [[12, 100]], asks: [[20, 100]] }, market: { band: { minTicks: 10, maxTicks: 990 } } });
    for (const i of run({}, v).intents) {
      expect(i.priceTicks).toBeGreaterThanOrEqual(10);
      expect(i.priceTicks).toBeLessThanOrEqual(990);
    }
  });
});
