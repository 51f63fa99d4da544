import { describe, expect, it } from 'vitest';
import { BookState } from '../../../src/book/book-state.js';
import { buildView, recordMid, type MidPointRecord } from '../../../src/strategy/view.js';
import type { MarketInfo } from '../../../src/strategy/contract.js';

const info: MarketInfo = {
  slug: 'm',
  tokens: { yes: '1', no: '2' },
  minSizeRaw: 0,
  maxSpreadTicks: 30,
  rewardC: 3,
  dailyRewardRaw: 0,
  rewardable: false,
  expiresAtMs: null,
  band: { minTicks: 1, maxTicks: 999 },
};

describe('recordMid', () => {
  it('appends oldest first, replaces a second mid in the same millisecond, ignores null and non-finite mids', () => {
    const history: MidPointRecord[] = [];
    recordMid(history, 1000, 0.5);
    recordMid(history, 1000, 0.51);
    recordMid(history, 2000, null);
    recordMid(history, 2000, Number.NaN);
    recordMid(history, 3000, 0.52);
    expect(history).toEqual([
      { atMs: 1000, mid: 0.51 },
      { atMs: 3000, mid: 0.52 },
    ]);
  });

  it('trims to the horizon and to the size limit', () => {
    const history: MidPointRecord[] = [];
    for (let t = 0; t <= 10; t += 1) recordMid(history, t * 1000, 0.5 + t / 100, { horizonMs: 5000, max: 100 });
    expect(history.map((p) => p.atMs)).toEqual([5000, 6000, 7000, 8000, 9000, 10000]);
    for (let t = 11; t <= 13; t += 1) recordMid(history, t * 1000, 0.4, { horizonMs: 1e9, max: 3 });
    expect(history.map((p) => p.atMs)).toEqual([11000, 12000, 13000]);
  });
});

describe('buildView', () => {
  it('assembles the parts and owns a copy of the mid history', () => {
    const yes = BookState.fromSnapshot({ bids: [{ priceTicks: 480, sizeRaw: 1e6 }], asks: [{ priceTicks: 520, sizeRaw: 1e6 }] });
    const history: MidPointRecord[] = [{ atMs: 1, mid: 0.5 }];
    const view = buildView({
      info,
      books: { yes, no: yes.complement() },
      position: { yesRaw: 0, noRaw: 0, yesAvgCost: null, noAvgCost: null, freeCollateralRaw: 5 },
      recentFills: [],
      midHistory: history,
      ownOrders: [{ token: 'YES', side: 'BUY', priceTicks: 480, sizeRaw: 1e6 }],
      now: 42,
    });
    recordMid(history, 1, 0.6);
    recordMid(history, 2, 0.7);
    expect(view.midHistory).toEqual([{ atMs: 1, mid: 0.5 }]);
    expect(view.no.bestBidTicks).toBe(480);
    expect(view.market).toBe(info);
    expect(view.ownOrders).toHaveLength(1);
    expect(view.now).toBe(42);
  });
});
