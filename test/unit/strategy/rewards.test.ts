import { describe, expect, it } from 'vitest';
import { RAW_PER_UNIT } from '../../../src/core/venue-rules/index.js';
import {
  combineScores,
  estimateRewardShare,
  expectedRewardPerDay,
  makerScore,
  orderScore,
  ordersAsYesQuotes,
  rewardMidpoint,
  sideScores,
} from '../../../src/strategy/rewards.js';
import type { RewardSettings } from '../../../src/strategy/rewards.js';
import { book, level, view } from '../../support/views.js';

const settings: RewardSettings = { maxSpreadTicks: 30, minSizeRaw: 10 * RAW_PER_UNIT, c: 3, dailyRewardRaw: 144 * RAW_PER_UNIT };
const shares = (n: number): number => n * RAW_PER_UNIT;

// Hand-computed book, midpoint 0.500, maxSpread 0.030, minSize 10, c = 3, pool 144/day (0.1/minute):
//   others' bids: 490 × 20 → d 10 → 20 · (20/30)² = 8.888…; 480 × 5 → below minSize → 0; 470 × 100 → d 30 → 0
//   others' asks: 515 × 30 → d 15 → 30 · (15/30)² = 7.5; 540 × 100 → d 40 → 0
//   others: Qb 8.888…, Qa 7.5 → max(min 7.5, 8.888…/3 = 2.963) = 7.5
//   bot: BUY YES 495 × 10 → d 5 → 10 · (25/30)² = 6.944…; BUY NO 494 × 10 = YES ask 506 → d 6 → 10 · (24/30)² = 6.4
//     → max(min 6.4, 6.944…/3) = 6.4; share 6.4 / 13.9 = 0.4604316547; 0.04604316547/minute; 66.30215827/day
const others = {
  bids: [level(490, 20), level(480, 5), level(470, 100)],
  asks: [level(515, 30), level(540, 100)],
};
const bot = ordersAsYesQuotes([
  { token: 'YES', side: 'BUY', priceTicks: 495, sizeRaw: shares(10) },
  { token: 'NO', side: 'BUY', priceTicks: 494, sizeRaw: shares(10) },
]);

describe('reward scoring', () => {
  it('scores one order as size × ((maxSpread − d)/maxSpread)², 0 outside the band or below minSize', () => {
    expect(orderScore(shares(20), 10, settings)).toBeCloseTo(8.8888888889, 9);
    expect(orderScore(shares(20), -10, settings)).toBeCloseTo(8.8888888889, 9);
    expect(orderScore(shares(10), 0, settings)).toBe(10);
    expect(orderScore(shares(9.999), 0, settings)).toBe(0);
    expect(orderScore(shares(100), 30, settings)).toBe(0);
    expect(orderScore(shares(100), 31, settings)).toBe(0);
    expect(orderScore(shares(100), 0, { ...settings, maxSpreadTicks: 0 })).toBe(0);
  });

  it('scores sides in YES terms: a BUY NO is an ask at 1 − q, a SELL NO a bid', () => {
    expect(bot).toEqual([
      { side: 'bid', priceTicks: 495, sizeRaw: shares(10) },
      { side: 'ask', priceTicks: 506, sizeRaw: shares(10) },
    ]);
    expect(ordersAsYesQuotes([{ token: 'NO', side: 'SELL', priceTicks: 510, sizeRaw: 1000 }])).toEqual([{ side: 'bid', priceTicks: 490, sizeRaw: 1000 }]);
    const { qb, qa } = sideScores(bot, 0.5, settings);
    expect(qb).toBeCloseTo(6.9444444444, 9);
    expect(qa).toBeCloseTo(6.4, 12);
  });

  it('combines sides: max(min, max/c) inside 0.05–0.95, min outside', () => {
    expect(combineScores(6, 3, 3, 0.5)).toBe(3);
    expect(combineScores(12, 3, 3, 0.5)).toBe(4);
    expect(combineScores(12, 0, 3, 0.05)).toBe(4);
    expect(combineScores(12, 0, 3, 0.95)).toBe(4);
    expect(combineScores(12, 0, 3, 0.04)).toBe(0);
    expect(combineScores(12, 5, 3, 0.97)).toBe(5);
    // A broken c never lets a one-sided quote earn.
    expect(combineScores(12, 0, 0, 0.5)).toBe(0);
  });

  it('estimates the share of the pool on a hand-computed book', () => {
    expect(makerScore([...others.bids.map((l) => ({ side: 'bid' as const, ...l })), ...others.asks.map((l) => ({ side: 'ask' as const, ...l }))], 0.5, settings)).toBeCloseTo(7.5, 12);
    const estimate = estimateRewardShare({ others, bot, midpoint: 0.5, settings });
    expect(estimate.othersScore).toBeCloseTo(7.5, 12);
    expect(estimate.botScore).toBeCloseTo(6.4, 12);
    expect(estimate.share).toBeCloseTo(0.4604316547, 9);
    expect(estimate.rewardPerMinute).toBeCloseTo(0.04604316547, 10);
    expect(estimate.rewardPerDay).toBeCloseTo(66.30215827, 7);
  });

  it('pays a one-sided bot 1/c inside 0.05–0.95 and nothing outside', () => {
    const bidOnly = bot.filter((q) => q.side === 'bid');
    // 6.944…/3 = 2.3148…; share = 2.3148 / (2.3148 + 7.5) = 0.2358490566
    expect(estimateRewardShare({ others, bot: bidOnly, midpoint: 0.5, settings }).share).toBeCloseTo(0.2358490566, 9);
    const far = { bids: [level(960, 20)], asks: [level(985, 30)] };
    const farBot = [{ side: 'bid' as const, priceTicks: 965, sizeRaw: shares(10) }];
    expect(estimateRewardShare({ others: far, bot: farBot, midpoint: 0.97, settings }).rewardPerDay).toBe(0);
  });

  it('takes the adjusted midpoint, else the mid, else nothing', () => {
    expect(rewardMidpoint(view({ book: { bids: [[480, 10]], asks: [[520, 10]], adjustedMidpoint: 0.51 } }))).toBe(0.51);
    expect(rewardMidpoint(view({ book: { bids: [[480, 10]], asks: [[520, 10]], adjustedMidpoint: null } }))).toBe(0.5);
    expect(rewardMidpoint(view({ book: { bids: [[480, 10]], adjustedMidpoint: null } }))).toBeNull();
  });

  it('computes expected reward per day against the book without the bot\'s own orders', () => {
    // The book holds others' orders plus the bot's own 495 bid and 506 ask (10 each).
    const yes = book({ bids: [[495, 10], [490, 20], [480, 5], [470, 100]], asks: [[506, 10], [515, 30], [540, 100]], adjustedMidpoint: 0.5 });
    const v = view({ yes, market: { maxSpreadTicks: 30, minSizeRaw: shares(10), rewardC: 3, dailyRewardRaw: 144 * RAW_PER_UNIT } });
    const own = [
      { token: 'YES' as const, side: 'BUY' as const, priceTicks: 495, sizeRaw: shares(10) },
      { token: 'NO' as const, side: 'BUY' as const, priceTicks: 494, sizeRaw: shares(10) },
    ];
    expect(expectedRewardPerDay(v, own, own)).toBeCloseTo(66.30215827, 7);
    // Counting its own orders as competition would halve the estimate: 6.4 / (6.4 + 13.9).
    expect(expectedRewardPerDay(v, own, [])).toBeCloseTo((6.4 / 20.3) * 144, 7);
    expect(expectedRewardPerDay(view({ yes, market: { rewardable: false } }), own, own)).toBe(0);
  });
});
