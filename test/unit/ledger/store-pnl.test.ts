import { describe, expect, it } from 'vitest';
import { fillInput, memoryLedger, recordingObserver, T0 } from '../../support/ledger-fixtures.js';

const HOUR = 3_600_000;

function tradingScenario() {
  const ledger = memoryLedger();
  // One order filled in two parts at different times; a taker buy with a fee; a partial sell; a NO buy.
  ledger.recordFill(fillInput({ tradeEventId: 't1', orderId: 'o1', priceTicks: 400, sizeRaw: 6e6, atMs: T0 }));
  ledger.recordFill(fillInput({ tradeEventId: 't1b', orderId: 'o1', priceTicks: 400, sizeRaw: 4e6, atMs: T0 + 1 }));
  ledger.recordFill(fillInput({ tradeEventId: 't2', orderId: 'o2', priceTicks: 700, sizeRaw: 5e6, role: 'taker', feeRaw: 35_000, atMs: T0 + 2 }));
  ledger.recordFill(fillInput({ tradeEventId: 't3', orderId: 'o3', side: 'SELL', priceTicks: 600, sizeRaw: 6e6, atMs: T0 + 3 }));
  ledger.recordFill(fillInput({ tradeEventId: 't4', orderId: 'o4', token: 'NO', tokenId: '222', priceTicks: 450, sizeRaw: 4e6, atMs: T0 + 4 }));
  return ledger;
}

describe('positions and PnL through the store (hand-computed)', () => {
  it('partial fills, average cost, realized, fees and marked unrealized', () => {
    const ledger = tradingScenario();
    // YES: 10 @ 0.40 (in two parts) + 5 @ 0.70 = 15 at 0.50; sell 6 @ 0.60 → realized 0.6; 9 left, basis 4.5.
    expect(ledger.tokenPosition('btc-100k', 'YES')).toEqual({
      positionRaw: 9e6,
      costRaw: 4.5e6,
      realizedRaw: 600_000,
      feesRaw: 35_000,
      volumeRaw: 4e6 + 3.5e6 + 3.6e6,
      fillCount: 4,
    });
    expect(ledger.pnl().markets[0]).toMatchObject({ unrealizedRaw: null, netPnlRaw: null });
    ledger.recordMark({ marketSlug: 'btc-100k', mid: 0.55, atMs: T0 + 5 });
    // 4 pairs = 4.0, 5 YES × 0.55 = 2.75 → 6.75 − (4.5 + 1.8) = 0.45.
    const [market] = ledger.pnl().markets;
    expect(market).toMatchObject({ realizedRaw: 600_000, feesRaw: 35_000, unrealizedRaw: 450_000, netPnlRaw: 1_015_000, fillCount: 5 });
    expect(ledger.pnl().totals).toMatchObject({ realizedRaw: 600_000, unrealizedRaw: 450_000, netPnlRaw: 1_015_000 });
  });

  it('a complement pair is worth 1 USDC without a mark', () => {
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 'y', priceTicks: 400, sizeRaw: 5e6 }));
    ledger.recordFill(fillInput({ tradeEventId: 'n', token: 'NO', tokenId: '222', priceTicks: 550, sizeRaw: 5e6 }));
    // Paid 2.0 + 2.75 = 4.75 for 5 pairs that merge into 5.0.
    expect(ledger.pnl().markets[0]).toMatchObject({ unrealizedRaw: 250_000, netPnlRaw: 250_000 });
  });

  it('a resolution realizes the payout; a redemption clears the receivable and the tokens', () => {
    const ledger = tradingScenario();
    expect(ledger.recordResolution('btc-100k', { winningOutcomeIndex: 0 }, T0 + HOUR)).toBe('inserted');
    expect(ledger.recordResolution('btc-100k', { winningOutcomeIndex: 0 }, T0 + HOUR)).toBe('duplicate');
    // YES wins: 9 YES pay 9.0, 4 NO pay 0; resolution PnL 9.0 − 4.5 − 1.8 = 2.7; realized 0.6 + 2.7.
    expect(ledger.pnl().markets[0]).toMatchObject({
      resolutionPnlRaw: 2.7e6,
      realizedRaw: 3.3e6,
      unrealizedRaw: 0,
      netPnlRaw: 3.3e6 - 35_000,
      payoutRaw: 9e6,
      receivableRaw: 9e6,
      redeemed: false,
    });
    expect(ledger.recordRedemption('btc-100k', 9e6, { atMs: T0 + 2 * HOUR })).toBe('inserted');
    expect(ledger.recordRedemption('btc-100k', 9e6, { atMs: T0 + 2 * HOUR })).toBe('duplicate');
    expect(ledger.pnl().markets[0]).toMatchObject({ receivableRaw: 0, redeemedRaw: 9e6, redeemed: true, realizedRaw: 3.3e6 });
    expect(ledger.marketPosition('btc-100k')).toEqual({ yesRaw: 0, noRaw: 0, yesAvgCost: null, noAvgCost: null });
    expect(ledger.tokenBalances().map((balance) => balance.balanceRaw)).toEqual([0, 0]);
  });

  it('a payout split pays both sides by numerators, and a changed resolution is reported', () => {
    const observer = recordingObserver();
    const ledger = memoryLedger({ observer });
    ledger.recordFill(fillInput({ tradeEventId: 'y', priceTicks: 400, sizeRaw: 8e6 }));
    ledger.recordFill(fillInput({ tradeEventId: 'n', token: 'NO', tokenId: '222', priceTicks: 500, sizeRaw: 4e6 }));
    ledger.recordResolution('btc-100k', { winningOutcomeIndex: 1 }, T0);
    expect(ledger.recordResolution('btc-100k', { payoutNumerators: [1, 3] }, T0)).toBe('updated');
    expect(observer.calls.find(([name]) => name === 'onConflict')?.[1]).toMatchObject({ kind: 'resolution-changed' });
    // 8 YES × 1/4 = 2.0 + 4 NO × 3/4 = 3.0 → 5.0; basis 3.2 + 2.0 = 5.2 → −0.2.
    expect(ledger.pnl().markets[0]).toMatchObject({ payoutRaw: 5e6, resolutionPnlRaw: -200_000 });
    expect(() => ledger.recordResolution('btc-100k', { payoutNumerators: [0, 0] }, T0)).toThrow(/must not both be 0/);
    const outOfRange: { winningOutcomeIndex: 0 | 1 } = { winningOutcomeIndex: 0 };
    Reflect.set(outOfRange, 'winningOutcomeIndex', 2); // what a bad mapping of the wire could produce
    expect(() => ledger.recordResolution('btc-100k', outOfRange, T0)).toThrow(/winningOutcomeIndex/);
  });

  it('--since counts only the period activity', () => {
    const ledger = tradingScenario();
    const report = ledger.pnl({ sinceMs: T0 + 3 });
    expect(report.markets[0]).toMatchObject({ fillCount: 2, realizedRaw: 600_000, feesRaw: 0, volumeRaw: 3.6e6 + 1.8e6 });
    expect(ledger.pnl({ marketSlug: 'other' }).markets).toEqual([]);
  });
});

describe('daily PnL (UTC day)', () => {
  const day1 = Date.UTC(2025, 0, 15);
  const day0 = day1 - 24 * HOUR;

  function dailyScenario() {
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 'b', priceTicks: 400, sizeRaw: 10e6, atMs: day0 + 10 * HOUR }));
    ledger.recordMark({ marketSlug: 'btc-100k', mid: 0.5, atMs: day0 + 23 * HOUR });
    return ledger;
  }

  it('before any mark today: the mark in force at midnight, no change yet', () => {
    const ledger = dailyScenario();
    expect(ledger.dailyPnl(day1 + 10 * 60_000)).toMatchObject({ dayStartMs: day1, realizedRaw: 0, unrealizedChangeRaw: 0, totalRaw: 0 });
  });

  it('realized since 00:00 UTC plus the change of unrealized', () => {
    const ledger = dailyScenario();
    ledger.recordMark({ marketSlug: 'btc-100k', mid: 0.6, atMs: day1 + 30 * 60_000 });
    ledger.recordFill(fillInput({ tradeEventId: 's', side: 'SELL', priceTicks: 650, sizeRaw: 4e6, feeRaw: 20_000, role: 'taker', atMs: day1 + 9 * HOUR }));
    ledger.recordMark({ marketSlug: 'btc-100k', mid: 0.62, atMs: day1 + 10 * HOUR });
    // Open: 10 YES basis 4.0 at 0.50 → 1.0. Sold 4 @ 0.65: realized 1.0, fee 0.02. Now 6 YES basis 2.4 at 0.62 → 1.32.
    expect(ledger.dailyPnl(day1 + 12 * HOUR)).toEqual({
      dayStartMs: day1,
      realizedRaw: 1e6,
      feesRaw: 20_000,
      unrealizedChangeRaw: 320_000,
      totalRaw: 1_300_000,
      unmarkedMarkets: [],
    });
    // The previous day, asked later: flat at its open, 10 YES basis 4.0 at its close marked 0.50 (the
    // mark in force at the next midnight) → +1.0; today's fills stay out of it.
    expect(ledger.dailyPnl(day0 + 23 * HOUR)).toMatchObject({ dayStartMs: day0, realizedRaw: 0, unrealizedChangeRaw: 1e6, totalRaw: 1e6 });
  });

  it('a market never marked is listed, its realized still counts', () => {
    const ledger = memoryLedger();
    ledger.recordFill(fillInput({ tradeEventId: 'b', priceTicks: 400, atMs: day1 + HOUR }));
    ledger.recordFill(fillInput({ tradeEventId: 's', side: 'SELL', priceTicks: 450, sizeRaw: 5e6, atMs: day1 + 2 * HOUR }));
    expect(ledger.dailyPnl(day1 + 3 * HOUR)).toMatchObject({ realizedRaw: 250_000, totalRaw: 250_000, unmarkedMarkets: ['btc-100k'] });
  });

  it('markets resolved on an earlier day cost it no read of their positions or marks, and still count their fills of the day', () => {
    const withResolved = (n: number) => {
      const ledger = dailyScenario();
      // n hourly markets traded and resolved yesterday (the rolling markets a day leaves behind).
      for (let i = 0; i < n; i += 1) {
        ledger.recordFill(fillInput({ tradeEventId: `old-${i}`, marketSlug: `hourly-${i}`, priceTicks: 300, atMs: day0 + HOUR }));
        ledger.recordResolution(`hourly-${i}`, { winningOutcomeIndex: 0 }, day0 + 2 * HOUR);
      }
      return ledger;
    };
    const callsOf = (ledger: ReturnType<typeof withResolved>): number => {
      const before = ledger.sqliteCalls();
      ledger.dailyPnl(day1 + HOUR);
      return ledger.sqliteCalls() - before;
    };
    const few = withResolved(2);
    const many = withResolved(40);
    expect(callsOf(many)).toBe(callsOf(few));
    expect(many.dailyPnl(day1 + HOUR)).toEqual(few.dailyPnl(day1 + HOUR));
    // Yesterday, when they resolved, each one's payout counts: 10 YES bought at 0.30 paid 1.00 → +7.0 each.
    expect(many.dailyPnl(day0 + 12 * HOUR).realizedRaw - few.dailyPnl(day0 + 12 * HOUR).realizedRaw).toBe(38 * 7e6);
    // A fill today in a market resolved yesterday (a late trade booked after it) still counts its realized and fee.
    many.recordFill(fillInput({ tradeEventId: 'late', marketSlug: 'hourly-0', side: 'SELL', priceTicks: 500, sizeRaw: 2e6, feeRaw: 10_000, role: 'taker', atMs: day1 + 30 * 60_000 }));
    expect(many.dailyPnl(day1 + HOUR)).toMatchObject({ realizedRaw: 400_000, feesRaw: 10_000 });
    few.close();
    many.close();
  });

  it('ignores a mark older than the stored one and rejects a mid outside (0, 1)', () => {
    const ledger = dailyScenario();
    expect(ledger.recordMark({ marketSlug: 'btc-100k', mid: 0.9, atMs: day0 })).toBe('stale');
    expect(ledger.getMark('btc-100k')?.midMicros).toBe(500_000);
    expect(() => ledger.recordMark({ marketSlug: 'btc-100k', mid: 1, atMs: day1 })).toThrow(/mid/);
    expect(() => ledger.recordMark({ marketSlug: 'btc-100k', mid: Number.NaN, atMs: day1 })).toThrow(/mid/);
    expect(ledger.recordMarks([{ marketSlug: 'btc-100k', mid: 0.5005, atMs: day1 }])).toEqual(['recorded']);
    expect(ledger.getMark('btc-100k')?.midMicros).toBe(500_500);
  });
});
