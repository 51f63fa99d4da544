/**
 * The simulator's taker-fee curve, its reward scorer (exchange-facts §8, known values) and the engine's reward and
 * rebate cycle: a scoring round accrues each account's pro-rata share of the round's pool, a taker fee accrues
 * rebateRate × fee to the fill's maker, and a payout credits both to the account's USDC with every invariant held.
 */
import { describe, expect, it } from 'vitest';
import {
  accountScores,
  combineSides,
  curveFeeBps,
  fillFees,
  generateMarkets,
  orderScore,
  roundPoolRaw,
  splitPool,
  takerFeeBps,
  VENUE_FEE_CURVE,
  type MarketSpec,
} from '../../../src/sim/engine/index.js';
import { ALICE, BOB, CAROL, expectSound, limit, ok, SHARE, T0, USDC, usdc, world } from './helpers.js';
import { ManualClock, type CancelTimer } from '../../../src/core/clock.js';

const TERMS = { minSizeRaw: 10 * SHARE, maxSpreadTicks: 30, c: 3 };

describe('taker fee curve (an approximation within the documented ranges)', () => {
  it('buys pay 3.00 % at 0 falling to 0.40 % at 1; sells 1.50 % at 0.50 tapering to 0.42 % at the ends', () => {
    expect([0, 250, 500, 750, 1000].map((t) => curveFeeBps('BUY', t))).toEqual([300, 186, 105, 56, 40]);
    expect([0, 100, 500, 900, 1000].map((t) => curveFeeBps('SELL', t))).toEqual([42, 81, 150, 81, 42]);
    for (let t = 1; t < 1000; t += 37) {
      expect(curveFeeBps('BUY', t)).toBeGreaterThanOrEqual(VENUE_FEE_CURVE.buyMinBps);
      expect(curveFeeBps('BUY', t)).toBeLessThanOrEqual(VENUE_FEE_CURVE.buyMaxBps);
      expect(curveFeeBps('SELL', t)).toBeGreaterThanOrEqual(VENUE_FEE_CURVE.sellMinBps);
      expect(curveFeeBps('SELL', t)).toBeLessThanOrEqual(VENUE_FEE_CURVE.sellMaxBps);
    }
  });

  it('never charges above the signed rate; the flat model charges the signed rate; each fill at its own price', () => {
    const curve = { model: 'curve' as const, curve: VENUE_FEE_CURVE };
    expect(takerFeeBps(curve, 'BUY', 100, 300)).toBe(251);
    expect(takerFeeBps(curve, 'BUY', 100, 50)).toBe(50);
    expect(takerFeeBps({ model: 'flat', curve: VENUE_FEE_CURVE }, 'BUY', 900, 300)).toBe(300);
    // 10 shares at 0.51 (5.1 USDC at 102 bps) then 10 at 0.52 (5.2 USDC at 100 bps), each rounded up.
    const fills = [{ takerTicks: 510, takerCollateralRaw: 5_100_000 }, { takerTicks: 520, takerCollateralRaw: 5_200_000 }];
    expect(fillFees(curve, 'BUY', fills, 300)).toEqual([52_020, 52_000]);
    // Flat: 3 % of 10.3 USDC once (0.309), spread pro rata, the last fill taking the remainder.
    expect(fillFees({ model: 'flat', curve: VENUE_FEE_CURVE }, 'BUY', fills, 300)).toEqual([153_000, 156_000]);
  });
});

describe('reward scorer (known values)', () => {
  it('scores size × ((maxSpread − distance) / maxSpread)² within maxSpread and at least minSize', () => {
    expect(orderScore({ yesTicks: 490, remainingSizeRaw: 100 * SHARE }, 500, TERMS)).toBeCloseTo((100 * 4) / 9, 9);
    expect(orderScore({ yesTicks: 515, remainingSizeRaw: 100 * SHARE }, 502.5, TERMS)).toBeCloseTo(100 * (17.5 / 30) ** 2, 9);
    expect(orderScore({ yesTicks: 530, remainingSizeRaw: 100 * SHARE }, 500, TERMS)).toBe(0);
    expect(orderScore({ yesTicks: 531, remainingSizeRaw: 100 * SHARE }, 500, TERMS)).toBe(0);
    expect(orderScore({ yesTicks: 500, remainingSizeRaw: 9 * SHARE }, 500, TERMS)).toBe(0);
  });

  it('combines sides with c inside 0.05–0.95 and takes the smaller side outside', () => {
    expect(combineSides(50, 10, 500, 3)).toBeCloseTo(50 / 3, 9);
    expect(combineSides(50, 40, 500, 3)).toBe(40);
    expect(combineSides(30, 0, 500, 3)).toBe(10);
    expect(combineSides(30, 0, 40, 3)).toBe(0);
    expect(combineSides(30, 20, 960, 3)).toBe(20);
  });

  it('shares a round pool pro rata, floored to the raw unit', () => {
    expect(roundPoolRaw(1000 * USDC, 60_000)).toBe(694_444);
    const scores = accountScores(
      [
        { profileId: ALICE, bookSide: 'bid', yesTicks: 490, remainingSizeRaw: 100 * SHARE },
        { profileId: ALICE, bookSide: 'ask', yesTicks: 510, remainingSizeRaw: 100 * SHARE },
        { profileId: BOB, bookSide: 'bid', yesTicks: 480, remainingSizeRaw: 50 * SHARE },
        { profileId: CAROL, bookSide: 'bid', yesTicks: 400, remainingSizeRaw: 500 * SHARE },
      ],
      500,
      TERMS,
    );
    expect([...scores.keys()]).toEqual([ALICE, BOB]);
    expect(scores.get(ALICE)).toBeCloseTo(400 / 9, 9);
    expect(scores.get(BOB)).toBeCloseTo(50 / 27, 9);
    expect(splitPool(1_000_000, scores)).toEqual(new Map([[ALICE, 960_000], [BOB, 40_000]]));
  });
});

/** 1440 USDC a day: 1 USDC a minute; half of each taker fee to the maker. */
function rewardMarket(): MarketSpec {
  const base = generateMarkets(1, 7, T0)[0];
  if (!base) throw new Error('no market');
  return { ...base, isRewardable: true, settings: { minSizeRaw: 10 * SHARE, maxSpreadTicks: 30, dailyRewardRaw: 1440 * USDC, c: 3, rebateRate: 0.5 } };
}

describe('engine: rewards and rebates on their cycle', () => {
  it('accrues each round, rebates each taker fee to its maker, and pays both into USDC at the payout', () => {
    const m = rewardMarket();
    const { engine, clock } = world({ markets: [m], fees: { model: 'curve' }, rewards: { enabled: true, scoreIntervalSec: 60, payoutIntervalSec: 3600, payoutAtUtcSec: 0 } }); // epochs on the hour (the default pays at 22:30 UTC, as the venue)
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 490, 100)));
    ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 490, 100))); // the YES ask at 0.51
    ok(engine.place(limit(m, BOB, 'YES', 'BUY', 480, 50)));
    clock.advanceTo(T0 + 60_000);
    expect(engine.rewards(ALICE)).toMatchObject({ openRewardsRaw: 960_000, openRebatesRaw: 0, earning: new Set([m.slug]) });
    expect(engine.rewards(BOB).openRewardsRaw).toBe(40_000);

    // CAROL buys 10 YES at 0.51 from ALICE's NO bid: 5.1 USDC at 102 bps = 0.05202 USDC, half of it ALICE's rebate.
    const taken = ok(engine.place(limit(m, CAROL, 'YES', 'BUY', 510, 10)));
    expect(taken.execution).toMatchObject({ effectiveFeeBps: 102, totalsRaw: { usdFee: '52020' } });
    expect(usdc(engine, CAROL).total).toBe(1000 * USDC - 5_100_000 - 52_020);
    expect(engine.rewards(ALICE).openRebatesRaw).toBe(26_010);
    expectSound(engine);

    const aliceBefore = usdc(engine, ALICE).total;
    clock.advanceTo(T0 + 3_600_000);
    const alice = engine.rewards(ALICE);
    expect(alice.paid).toHaveLength(1);
    const epoch = alice.paid[0];
    expect(epoch).toMatchObject({ startMs: T0, endMs: T0 + 3_600_000, rebatesRaw: 26_010 });
    // 59 or 60 rounds (the last one may fall in the next epoch), each ≥ 96 % of the 1 USDC pool once ALICE's ask is 90.
    expect(epoch?.rewardsRaw).toBeGreaterThan(58 * 950_000);
    expect(epoch?.byMarket.get(m.slug)).toEqual({ rewardsRaw: epoch?.rewardsRaw, rebatesRaw: 26_010 });
    expect(usdc(engine, ALICE).total).toBe(aliceBefore + (epoch?.rewardsRaw ?? 0) + 26_010);
    expect(engine.rewards(BOB).paid[0]?.rewardsRaw).toBeGreaterThan(0);
    expectSound(engine);
    engine.stop();
  });

  for (const shiftMs of [300, -1]) {
    it(`a payout whose timer fires ${shiftMs > 0 ? 'late' : 'early'} (${shiftMs} ms) keeps the epochs on the payout boundaries, never paid before them; one asked for by hand ends the epoch at once`, () => {
      /** Every timer fires `shiftMs` after (or before) it was due, as a loaded event loop (or a host timer's rounding) does. */
      class ShiftedClock extends ManualClock {
        override schedule(delayMs: number, callback: () => void): CancelTimer {
          // Early by at most what is left (a 1 ms wait fires on time): the host's rounding, not a clock running backwards.
          return super.schedule(shiftMs < 0 && delayMs <= -shiftMs ? delayMs : delayMs + shiftMs, callback);
        }
      }
      const m = rewardMarket();
      const clock = new ShiftedClock(T0);
      const { engine } = world({ clock, markets: [m], rewards: { enabled: true, scoreIntervalSec: 1, payoutIntervalSec: 2, payoutAtUtcSec: 0 } });
      ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 490, 100)));
      ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 490, 100)));
      clock.advanceTo(T0 + 6_500);
      const paid = engine.rewards(ALICE).paid.map((e) => [e.startMs - T0, e.endMs - T0]);
      expect(paid.slice(0, 3)).toEqual([
        [0, 2_000],
        [2_000, 4_000],
        [4_000, 6_000],
      ]);
      for (const epoch of engine.rewards(ALICE).paid) {
        expect(epoch.paidAtMs).toBeGreaterThanOrEqual(epoch.endMs);
        expect(epoch.paidAtMs - epoch.endMs).toBeLessThanOrEqual(Math.max(0, shiftMs));
      }
      clock.advanceTo(T0 + 7_000);
      engine.payRewards();
      expect(engine.rewards(ALICE).paid.at(-1)).toMatchObject({ startMs: T0 + 6_000, endMs: T0 + 7_000, paidAtMs: T0 + 7_000 });
      engine.stop();
    });
  }

  it('the generic world keeps the flat rate and no reward cycle unless asked', () => {
    const m = rewardMarket();
    const { engine, clock } = world({ markets: [m] });
    expect(engine.rewardSchedule()).toMatchObject({ enabled: false, feeModel: 'flat' });
    ok(engine.place(limit(m, ALICE, 'NO', 'BUY', 490, 100)));
    const taken = ok(engine.place(limit(m, CAROL, 'YES', 'BUY', 510, 10)));
    expect(taken.execution).toMatchObject({ effectiveFeeBps: 300, totalsRaw: { usdFee: '153000' } });
    clock.advanceTo(T0 + 600_000);
    expect(engine.rewards(ALICE)).toMatchObject({ openRewardsRaw: 0, openRebatesRaw: 0, paid: [] });
    engine.stop();
  });

  it('refuses a rebate rate outside [0, 1] and bad cycles, naming the field', () => {
    const m = rewardMarket();
    expect(() => world({ markets: [{ ...m, settings: { ...m.settings, rebateRate: 1.5 } }] })).toThrow(/markets\[0\]\.settings\.rebateRate/);
    expect(() => world({ markets: [m], rewards: { payoutIntervalSec: 0 } })).toThrow(/rewards\.payoutIntervalSec/);
    expect(() => world({ markets: [m], fees: { curve: { buyMinBps: 400 } } })).toThrow(/fees\.curve\.buyMinBps/);
  });
});
