import { describe, expect, it } from 'vitest';
import {
  dailyPnl,
  DAY_MS,
  EMPTY_TOKEN,
  marketPnl,
  marketPnlSince,
  totalPnl,
  utcDayStart,
  type MarketState,
  type TokenTotals,
} from '../../../src/ledger/pnl.js';

const token = (overrides: Partial<TokenTotals>): TokenTotals => ({ ...EMPTY_TOKEN, ...overrides });

// 9 YES at basis 4.5 (realized 0.6, fees 0.035) and 4 NO at basis 1.8.
const base: MarketState = {
  marketSlug: 'btc',
  yes: token({ positionRaw: 9e6, costRaw: 4.5e6, realizedRaw: 600_000, feesRaw: 35_000, volumeRaw: 11.1e6, fillCount: 3 }),
  no: token({ positionRaw: 4e6, costRaw: 1.8e6, volumeRaw: 1.8e6, fillCount: 1 }),
  midMicros: 550_000,
  resolution: null,
  redeemedRaw: 0,
};

describe('marketPnl', () => {
  it('marks YES at mid and NO at 1 − mid, pairs at 1', () => {
    // Value: 4 pairs = 4.0 + 5 YES × 0.55 = 2.75 → 6.75; basis 6.3 → unrealized 0.45.
    const pnl = marketPnl(base);
    expect(pnl.unrealizedRaw).toBe(450_000);
    expect(pnl.realizedRaw).toBe(600_000);
    expect(pnl.feesRaw).toBe(35_000);
    expect(pnl.netPnlRaw).toBe(600_000 - 35_000 + 450_000);
    expect(pnl.volumeRaw).toBe(12.9e6);
    expect(pnl.fillCount).toBe(4);
    expect(pnl.payoutRaw).toBeNull();
  });

  it('says no mark (null) when an unpaired holding has no mark', () => {
    const pnl = marketPnl({ ...base, midMicros: null });
    expect(pnl.unrealizedRaw).toBeNull();
    expect(pnl.netPnlRaw).toBeNull();
  });

  it('values a complete YES+NO pair at 1 without a mark', () => {
    // 5 YES for 2.0 and 5 NO for 2.6: merging pays 5.0 → unrealized 0.4.
    const pnl = marketPnl({
      ...base,
      yes: token({ positionRaw: 5e6, costRaw: 2e6 }),
      no: token({ positionRaw: 5e6, costRaw: 2.6e6 }),
      midMicros: null,
    });
    expect(pnl.unrealizedRaw).toBe(400_000);
  });

  it('realizes the payout at resolution: winner pays 1, loser 0', () => {
    const pnl = marketPnl({ ...base, resolution: { payoutYes: 1, payoutNo: 0, resolvedAtMs: 1 } });
    // Payout 9.0; resolution PnL 9.0 − 4.5 − 1.8 = 2.7.
    expect(pnl.payoutRaw).toBe(9e6);
    expect(pnl.resolutionPnlRaw).toBe(2.7e6);
    expect(pnl.realizedRaw).toBe(3.3e6);
    expect(pnl.unrealizedRaw).toBe(0);
    expect(pnl.receivableRaw).toBe(9e6);
    expect(marketPnl({ ...base, resolution: { payoutYes: 1, payoutNo: 0, resolvedAtMs: 1 }, redeemedRaw: 9e6 }).receivableRaw).toBe(0);
  });

  it('pays a split by payout numerators', () => {
    // [1, 3]: YES pays 0.25, NO 0.75 → 9 × 0.25 + 4 × 0.75 = 2.25 + 3.0 = 5.25; PnL 5.25 − 6.3 = −1.05.
    const pnl = marketPnl({ ...base, resolution: { payoutYes: 1, payoutNo: 3, resolvedAtMs: 1 } });
    expect(pnl.payoutRaw).toBe(5.25e6);
    expect(pnl.resolutionPnlRaw).toBe(-1.05e6);
  });

  it('over a period counts only the period activity and a resolution inside it', () => {
    const resolved: MarketState = { ...base, resolution: { payoutYes: 1, payoutNo: 0, resolvedAtMs: 5000 } };
    const activity = { fillCount: 1, volumeRaw: 1e6, feesRaw: 0, realizedRaw: 100_000 };
    expect(marketPnlSince(resolved, activity, 4000).realizedRaw).toBe(100_000 + 2.7e6);
    expect(marketPnlSince(resolved, activity, 6000).realizedRaw).toBe(100_000);
    expect(marketPnlSince(resolved, activity, 6000).fillCount).toBe(1);
  });
});

describe('totalPnl', () => {
  it('sums markets and lists the ones without a mark', () => {
    const totals = totalPnl([marketPnl(base), marketPnl({ ...base, marketSlug: 'eth', midMicros: null })]);
    expect(totals.realizedRaw).toBe(1.2e6);
    expect(totals.feesRaw).toBe(70_000);
    expect(totals.unrealizedRaw).toBe(450_000);
    expect(totals.netPnlRaw).toBe(1.2e6 - 70_000 + 450_000);
    expect(totals.unmarkedMarkets).toEqual(['eth']);
  });
});

describe('dailyPnl', () => {
  const day = utcDayStart(Date.UTC(2025, 0, 15, 9));
  const open = { yes: { positionRaw: 10e6, costRaw: 4e6 }, no: { positionRaw: 0, costRaw: 0 }, midMicros: 500_000 };

  it('is realized today − fees + change of unrealized since 00:00 UTC', () => {
    // Open: 10 YES basis 4.0 at 0.50 → unrealized 1.0. Today sold 4 @ 0.60 (realized 4 × 0.2 = 0.8),
    // now 6 YES basis 2.4 at 0.55 → unrealized 0.9. Daily = 0.8 − 0.01 + (0.9 − 1.0) = 0.69.
    const result = dailyPnl(day, [
      {
        marketSlug: 'btc',
        open,
        now: { yes: { positionRaw: 6e6, costRaw: 2.4e6 }, no: { positionRaw: 0, costRaw: 0 }, midMicros: 550_000 },
        realizedTodayRaw: 800_000,
        feesTodayRaw: 10_000,
        resolution: null,
      },
    ]);
    expect(result).toEqual({
      dayStartMs: day,
      realizedRaw: 800_000,
      feesRaw: 10_000,
      unrealizedChangeRaw: -100_000,
      totalRaw: 690_000,
      unmarkedMarkets: [],
    });
  });

  it('counts a resolution today as realized and drops the market from unrealized', () => {
    // Open unrealized 1.0 (10 YES basis 4 at 0.5). YES wins today: realized 10 − 4 = 6; change −1.0. Daily 5.0.
    const result = dailyPnl(day, [
      {
        marketSlug: 'btc',
        open,
        now: { ...open, midMicros: 990_000 },
        realizedTodayRaw: 0,
        feesTodayRaw: 0,
        resolution: { payoutYes: 1, payoutNo: 0, resolvedAtMs: day + 1000 },
      },
    ]);
    expect(result.totalRaw).toBe(5e6);
  });

  it('ignores markets resolved on an earlier day, and lists unmarked ones', () => {
    const result = dailyPnl(day, [
      { marketSlug: 'old', open, now: open, realizedTodayRaw: 0, feesTodayRaw: 0, resolution: { payoutYes: 1, payoutNo: 0, resolvedAtMs: day - DAY_MS } },
      { marketSlug: 'dark', open: { ...open, midMicros: null }, now: { ...open, midMicros: null }, realizedTodayRaw: 5, feesTodayRaw: 1, resolution: null },
    ]);
    expect(result).toMatchObject({ realizedRaw: 5, feesRaw: 1, unrealizedChangeRaw: 0, totalRaw: 4, unmarkedMarkets: ['dark'] });
  });
});
