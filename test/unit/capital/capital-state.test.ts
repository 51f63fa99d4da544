/**
 * The capital by state (src/capital/capital-state.ts, pure) and its report section (src/ledger/report-capital.ts):
 * free USDC is the wallet's less the open BUYs' lock, positions count only unresolved markets' cost, resolved
 * markets count their receivable, today's redemptions, merges and gas are picked by the UTC day; ETH is exact from
 * wei; the backtest's USDC gas setting reaches the port in wei and comes back to the same USDC figure.
 */
import { describe, expect, it } from 'vitest';
import { capitalByState, chainUsdcOf } from '../../../src/capital/capital-state.js';
import { gasUsdcRaw, gasWeiForUsdc } from '../../../src/capital/rules.js';
import { capitalJson, ethText, formatCapitalSection } from '../../../src/ledger/report-capital.js';

const USDC = 1_000_000;
const DAY = 86_400_000;
const NOW = 20_000 * DAY + 15 * 3_600_000; // 15:00 UTC

const input = {
  nowMs: NOW,
  openOrders: [
    { side: 'BUY' as const, remainingRaw: 10 * USDC, priceTicks: 480 }, // 4.80 locked
    { side: 'BUY' as const, remainingRaw: 0, priceTicks: 480 },
    { side: 'SELL' as const, remainingRaw: 5 * USDC, priceTicks: 520 }, // tokens, not USDC
  ],
  markets: [
    { costRaw: 6_300_000, resolved: false, receivableRaw: 0 },
    { costRaw: 2_400_000, resolved: true, receivableRaw: 5 * USDC },
    { costRaw: 1_000_000, resolved: true, receivableRaw: 0 },
  ],
  booked: [
    { kind: 'redeem' as const, usdcInRaw: 7 * USDC, gasWei: '1500000000000', gasUsdcRaw: 4_500, atMs: NOW - DAY }, // yesterday
    { kind: 'redeem' as const, usdcInRaw: 3 * USDC, gasWei: '1500000000000', gasUsdcRaw: 4_500, atMs: NOW - 3_600_000 },
    { kind: 'merge' as const, usdcInRaw: 2 * USDC, gasWei: '2000000000000', gasUsdcRaw: 6_000, atMs: NOW - 60_000 },
  ],
  chainUsdc: { usdcRaw: 100 * USDC, atMs: NOW - 30_000 },
};

describe('capital by state', () => {
  it('each state from its inputs', () => {
    const s = capitalByState(input);
    expect(s).toMatchObject({ freeUsdcRaw: 95_200_000, openOrdersRaw: 4_800_000, openPositionsRaw: 6_300_000, unredeemedRaw: 5 * USDC, unredeemedMarkets: 1, redeemedTodayRaw: 3 * USDC, mergedTodayRaw: 2 * USDC });
    expect(s.gasToday).toEqual({ wei: '3500000000000', usdcRaw: 10_500, transactions: 2 });
    expect(s.gasTotal).toEqual({ wei: '5000000000000', usdcRaw: 15_000, transactions: 3 });
    expect(capitalByState({ ...input, chainUsdc: null }).freeUsdcRaw).toBeNull();
  });

  it('the ledger entry of the wallet\'s USDC is read back, anything else is none', () => {
    expect(chainUsdcOf('{"usdcRaw":5,"atMs":7}')).toEqual({ usdcRaw: 5, atMs: 7 });
    for (const text of [null, 'nope', '{"usdcRaw":"5","atMs":7}', '3']) expect(chainUsdcOf(text)).toBeNull();
  });

  it('the report section: one line per state within 120 columns, gas in ETH exact and in USDC', () => {
    const text = formatCapitalSection(capitalByState(input));
    expect(text).toBe(`
capital by state (USDC, as of 2024-10-04 15:00 UTC)
  free (wallet at the chain check 2024-10-04 14:59, less open BUYs)  95.20
  locked in open orders                                               4.80
  in open positions (cost)                                            6.30
  in resolved markets, not yet redeemed (1 market)                    5.00
  redeemed today (on-chain and API, UTC day)                          3.00
  merged today (on-chain, UTC day)                                    2.00
  gas today: 0.000003500 ETH = 0.0105 USDC (2 transactions)
  gas in all: 0.000005000 ETH = 0.0150 USDC (3 transactions)
`);
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(120);
    expect(capitalJson(capitalByState(input))).toMatchObject({ freeUsdc: 95.2, openOrdersUsdc: 4.8, unredeemedMarkets: 1, gasToday: { eth: '0.000003500', usdc: 0.0105, transactions: 2 } });
    expect(ethText('1234567890123456789')).toBe('1.234567890');
  });

  it('gas: a USDC figure reaches the port in wei and comes back the same', () => {
    for (const usdc of [0, 1, 4_500, 5_000, 123_457]) for (const price of [1, 2_999_999_999, 3_000 * USDC]) expect(gasUsdcRaw(gasWeiForUsdc(usdc, price), price)).toBe(usdc);
    expect(() => gasWeiForUsdc(5_000, 0)).toThrow(/ethPriceUsdcRaw must be a positive integer, got 0/);
    expect(() => gasWeiForUsdc(-1, 3)).toThrow(/gasUsdcRaw must be a non-negative integer, got -1/);
  });
});
