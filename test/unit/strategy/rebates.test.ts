/**
 * The fee curve (src/core/venue-rules/fees.ts) and the maker rebate estimate (src/strategy/rebates.ts): the curve stays
 * within the fee guide's ranges with the documented direction, a fill's reported taker fee wins over the curve, and
 * bad input is a typed error naming the field; the taker of a same-token and of a complementary match (from the
 * trade feed), and the prior share of buying takers before it is known.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FEE_CURVE, FeeCurveError, feeOfNotional, takerFeeBps } from '../../../src/core/venue-rules/index.js';
import { complementaryChance, estimateMakerRebate, estimateRebateFromTrade, matchKindOf } from '../../../src/strategy/rebates.js';
import { scoreMinute } from '../../../src/strategy/rewards.js';
import { BookState } from '../../../src/book/book-state.js';
import type { MarketInfo } from '../../../src/strategy/contract.js';

describe('taker fee curve', () => {
  it('buys 0.40–3.00 %, falling as the price rises; sells 0.42–1.50 %, peaking at 0.5', () => {
    expect(takerFeeBps('BUY', 1)).toBe(300);
    expect(takerFeeBps('BUY', 999)).toBe(40);
    expect(takerFeeBps('BUY', 500)).toBe(170);
    expect(takerFeeBps('SELL', 500)).toBe(150);
    expect(takerFeeBps('SELL', 1)).toBe(42);
    expect(takerFeeBps('SELL', 999)).toBe(42);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 998 }), (t) => {
        expect(takerFeeBps('BUY', t + 1)).toBeLessThanOrEqual(takerFeeBps('BUY', t));
        for (const side of ['BUY', 'SELL'] as const) {
          const bps = takerFeeBps(side, t);
          expect(bps).toBeGreaterThanOrEqual(side === 'BUY' ? DEFAULT_FEE_CURVE.buyMinBps : DEFAULT_FEE_CURVE.sellMinBps);
          expect(bps).toBeLessThanOrEqual(side === 'BUY' ? DEFAULT_FEE_CURVE.buyMaxBps : DEFAULT_FEE_CURVE.sellMaxBps);
        }
      }),
    );
  });

  it('refuses a price off the grid and a negative notional by name', () => {
    expect(() => takerFeeBps('BUY', 0)).toThrow(FeeCurveError);
    expect(() => takerFeeBps('SELL', 500.5)).toThrow(/priceTicks/);
    expect(() => feeOfNotional(-1, 10)).toThrow(/notionalRaw/);
    expect(feeOfNotional(2_400_000, 150)).toBe(36_000);
  });
});

describe('maker rebate estimate', () => {
  it('a maker BUY met a taker SELL: the curve\'s sell fee on the notional × the rate', () => {
    expect(estimateMakerRebate({ side: 'BUY', priceTicks: 480, sizeRaw: 5_000_000 }, 0.25)).toEqual({
      takerSide: 'SELL',
      match: 'same',
      takerFeeBps: 150,
      feeSource: 'curve',
      takerFeeRaw: 36_000,
      rebateRate: 0.25,
      rebateRaw: 9_000,
      priorShare: null,
    });
  });

  it('the taker fee a fill reported wins; a 0 or missing one falls back to the curve; the rate is clamped', () => {
    const reported = estimateMakerRebate({ side: 'SELL', priceTicks: 600, sizeRaw: 10_000_000 }, 0.5, { reportedTakerFeeBps: 300 });
    expect(reported).toMatchObject({ takerSide: 'BUY', feeSource: 'event', takerFeeBps: 300, takerFeeRaw: 180_000, rebateRaw: 90_000 });
    expect(estimateMakerRebate({ side: 'SELL', priceTicks: 600, sizeRaw: 10_000_000 }, 0.5, { reportedTakerFeeBps: 0 }).feeSource).toBe('curve');
    expect(estimateMakerRebate({ side: 'SELL', priceTicks: 600, sizeRaw: 10_000_000 }, 7).rebateRate).toBe(1);
  });
});

describe('one minute of reward score', () => {
  const market: MarketInfo = {
    slug: 'm',
    tokens: { yes: 'y', no: 'n' },
    minSizeRaw: 10_000_000,
    maxSpreadTicks: 30,
    rewardC: 3,
    dailyRewardRaw: 1_440_000_000,
    rewardable: true,
    expiresAtMs: null,
    band: { minTicks: 1, maxTicks: 999 },
  };
  it('scores the bot against the book without its own orders: share, pool and reward', () => {
    const book = BookState.fromSnapshot({ bids: [{ priceTicks: 490, sizeRaw: 20_000_000 }, { priceTicks: 480, sizeRaw: 10_000_000 }], asks: [{ priceTicks: 510, sizeRaw: 10_000_000 }] });
    const own = [{ token: 'YES' as const, side: 'BUY' as const, priceTicks: 480, sizeRaw: 10_000_000 }, { token: 'NO' as const, side: 'BUY' as const, priceTicks: 490, sizeRaw: 10_000_000 }];
    const score = scoreMinute(market, book, own)!;
    // Mid 0.500: the bot's bid (0.480, 20 ticks away) scores 10·(10/30)², its ask (YES 0.510, 10 away) 10·(20/30)²:
    // max(min, max/3) = max(10/9, 40/27). The others' bid at 0.490 (20 shares) scores 20·(20/30)², no ask left: /3.
    expect(score.midpoint).toBe(0.5);
    expect(score.botScore).toBeCloseTo(40 / 27, 9);
    expect(score.othersScore).toBeCloseTo(80 / 27, 9);
    expect(score.share).toBeCloseTo(1 / 3, 9);
    expect(score.poolRaw).toBe(1_000_000);
    expect(score.rewardRaw).toBe(Math.floor(score.share * 1_000_000));
    expect(scoreMinute({ ...market, dailyRewardRaw: 0 }, book, own)).toBeNull();
    // A configured exponent changes the score (the unconfirmed part of the scheme is a setting).
    expect(scoreMinute({ ...market, rewardRules: { exponent: 1, singleSidedMin: 0.05, singleSidedMax: 0.95 } }, book, own)!.botScore).toBeCloseTo(10 / 3, 9);
  });
});

describe('maker rebate: the taker of a complementary match (issue 31)', () => {
  // A NO bid at 0.949 for 5 shares, rebate rate 0.2.
  const noBid = { side: 'BUY' as const, priceTicks: 949, sizeRaw: 5_000_000, tokenId: 'no' };

  it('a same-token match (the taker SOLD the NO token at 0.949): the sell branch at 0.949 on 4.745 USDC', () => {
    // sell bps(949) = 42 + round(108 · 4 · 949 · 51 / 1e6) = 63; fee = 4 745 000 × 0.0063 = 29 893.5 → 29 894.
    expect(estimateRebateFromTrade(noBid, { side: 'SELL', tokenId: 'no' }, 0.2)).toEqual({
      takerSide: 'SELL',
      match: 'same',
      takerFeeBps: 63,
      feeSource: 'trade',
      takerFeeRaw: 29_894,
      rebateRate: 0.2,
      rebateRaw: 5_979,
      priorShare: null,
    });
  });

  it('a complementary match (the taker BOUGHT the YES token at 0.051): the buy branch at 0.051 on 0.255 USDC', () => {
    // buy bps(51) = 40 + round(260 · 948 / 998) = 287; fee = 255 000 × 0.0287 = 7 318.5 → 7 319.
    expect(estimateRebateFromTrade(noBid, { side: 'BUY', tokenId: 'yes' }, 0.2)).toEqual({
      takerSide: 'BUY',
      match: 'complementary',
      takerFeeBps: 287,
      feeSource: 'trade',
      takerFeeRaw: 7_319,
      rebateRate: 0.2,
      rebateRaw: 1_464,
      priorShare: null,
    });
    // A maker SELL met by a taker SELLING the other token (a merge): the sell branch at 1 − p.
    expect(estimateRebateFromTrade({ side: 'SELL', priceTicks: 300, sizeRaw: 10_000_000, tokenId: 'yes' }, { side: 'SELL', tokenId: 'no' }, 1)).toMatchObject({
      takerSide: 'SELL',
      match: 'complementary',
      takerFeeBps: 42 + Math.round((108 * 4 * 700 * 300) / 1e6),
    });
  });

  it('a trade whose taker cannot have met the fill matches nothing', () => {
    expect(matchKindOf(noBid, { side: 'BUY', tokenId: 'no' })).toBeNull();
    expect(matchKindOf(noBid, { side: 'SELL', tokenId: 'yes' })).toBeNull();
    expect(estimateRebateFromTrade(noBid, { side: 'BUY', tokenId: 'no' }, 0.2)).toBeNull();
  });

  it('before the trade is read, the prior share of buying takers blends both kinds of match', () => {
    // Maker BUY: complementary with the buying takers' share 0.8: 0.2 × 29 894 + 0.8 × 7 319 = 11 834.
    const blended = estimateMakerRebate(noBid, 0.2, { takerBuyShare: 0.8 });
    expect(blended).toMatchObject({ takerSide: null, match: null, feeSource: 'curve', takerFeeRaw: 11_834, rebateRaw: 2_367, priorShare: 0.8 });
    // Maker SELL: complementary with the selling takers' share 0.2.
    expect(complementaryChance('SELL', 0.8)).toBeCloseTo(0.2, 12);
    // The two ends are one kind of match each; no share: the same-token estimate.
    expect(estimateMakerRebate(noBid, 0.2, { takerBuyShare: 1 })).toMatchObject({ match: 'complementary', takerFeeRaw: 7_319, priorShare: 1 });
    expect(estimateMakerRebate(noBid, 0.2, { takerBuyShare: 0 })).toMatchObject({ match: 'same', takerFeeRaw: 29_894, priorShare: 0 });
    expect(estimateMakerRebate(noBid, 0.2)).toMatchObject({ match: 'same', takerSide: 'SELL', priorShare: null });
  });
});
