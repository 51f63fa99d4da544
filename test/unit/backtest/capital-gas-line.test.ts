/**
 * The backtest report's gas line (text `capital:` line and JSON `capital`, src/backtest/synthetic-command.ts) from
 * known transactions: two redemptions and a merge booked into the backtest's capital book (src/backtest/capital-books.ts)
 * with the gas the engine port charges (`capital.gasUsdcRaw` 0.005 USDC, reaching the port in wei and booked back in
 * USDC by the core's rule), and one reverted transaction. Every USDC figure is rounded once from its raw integer, half
 * away from zero: 3 × 0.005 = 0.015 USDC of gas prints 0.02 (a float prints 0.01), a PnL after gas of 0.985 prints 0.99.
 */
import { describe, expect, it } from 'vitest';
import { gasUsdcRaw, gasWeiForUsdc } from '../../../src/capital/rules.js';
import type { CapitalMarketRef, Hex } from '../../../src/capital/port.js';
import { BotAccounting } from '../../../src/backtest/accounting.js';
import { BacktestCapitalBook } from '../../../src/backtest/capital-books.js';
import { capitalSummaryJson, formatCapitalLine } from '../../../src/backtest/synthetic-command.js';

const USDC = 1_000_000;
const START = 1_700_000_000_000;
const ETH_PRICE = 3_000 * USDC;
const GAS_USDC = 5_000; // the backtest's default: 0.005 USDC per transaction

const markets = ['a', 'b', 'c'].map((slug) => ({ slug, tokens: { yes: `${slug}-y`, no: `${slug}-n` } }));
const ref = (slug: string): CapitalMarketRef => ({ slug, conditionId: `0x${'ab'.repeat(32)}`, negRisk: false, adapter: null, exchange: `0x${'11'.repeat(20)}`, yesTokenId: `${slug}-y`, noTokenId: `${slug}-n` });
const hash = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

function bookedRun(): BacktestCapitalBook {
  const accounting = new BotAccounting(markets);
  for (const m of markets) {
    accounting.apply({ marketSlug: m.slug, outcome: 'YES', side: 'BUY', sizeRaw: 10 * USDC, collateralRaw: 4 * USDC, feeRaw: 0 });
    accounting.apply({ marketSlug: m.slug, outcome: 'NO', side: 'BUY', sizeRaw: 10 * USDC, collateralRaw: 5 * USDC, feeRaw: 0 });
  }
  const book = new BacktestCapitalBook(accounting, START);
  // The port answers gas in wei (what the engine port is given); the core books it back in USDC.
  const gasWei = gasWeiForUsdc(GAS_USDC, ETH_PRICE);
  const txs = [
    { key: 'redeem:a:1', kind: 'redeem' as const, slug: 'a', usdcInRaw: 10 * USDC, yes: 10 * USDC, no: 10 * USDC, atMs: START + 60_000 },
    { key: 'merge:b:1', kind: 'merge' as const, slug: 'b', usdcInRaw: 4 * USDC, yes: 4 * USDC, no: 4 * USDC, atMs: START + 3_700_000 },
    { key: 'redeem:c:1', kind: 'redeem' as const, slug: 'c', usdcInRaw: 500_000, yes: 0, no: 10 * USDC, atMs: START + 3_800_000 },
  ];
  txs.forEach((tx, n) => {
    book.journalCapitalTx({ key: tx.key, kind: tx.kind, market: ref(tx.slug), amountRaw: tx.usdcInRaw }, { hash: hash(n + 1), nonce: n });
    const booked = book.bookCapitalTx({ key: tx.key, kind: tx.kind, marketSlug: tx.slug, hash: hash(n + 1), block: n, usdcInRaw: tx.usdcInRaw, yesBurnedRaw: tx.yes, noBurnedRaw: tx.no, gasWei, gasUsdcRaw: gasUsdcRaw(gasWei, ETH_PRICE), atMs: tx.atMs });
    expect(booked).toBe('inserted');
  });
  // Booked twice: once.
  expect(book.bookCapitalTx({ key: 'merge:b:1', kind: 'merge', marketSlug: 'b', hash: hash(2), block: 1, usdcInRaw: 4 * USDC, yesBurnedRaw: 4 * USDC, noBurnedRaw: 4 * USDC, gasWei, gasUsdcRaw: GAS_USDC, atMs: START })).toBe('duplicate');
  // A reverted transaction: counted, no gas booked (the book records what the chain confirmed).
  book.journalCapitalTx({ key: 'merge:b:2', kind: 'merge', market: ref('b'), amountRaw: USDC }, { hash: hash(9), nonce: 3 });
  book.closeCapitalTx('merge:b:2', 'reverted');
  return book;
}

describe('the backtest report\'s gas line', () => {
  it('text and JSON: known gas from known redemptions and merges, rounded once from the raw integers', () => {
    const capital = bookedRun().summary(2 * 3_600_000);
    expect(gasUsdcRaw(gasWeiForUsdc(GAS_USDC, ETH_PRICE), ETH_PRICE)).toBe(GAS_USDC);
    expect(capital).toMatchObject({ redeemedRaw: 10_500_000, mergedRaw: 4 * USDC, gasUsdcRaw: 3 * GAS_USDC, redemptions: 2, merges: 1, reverted: 1 });
    expect(capital.byHour.map((h) => [h.transactions, h.gasUsdcRaw])).toEqual([[1, GAS_USDC], [2, 2 * GAS_USDC]]);
    const result = { capital, pnlRaw: USDC };
    expect(formatCapitalLine(result)).toBe('capital: 10.50 USDC redeemed (2 redemptions), 4.00 USDC merged (1 merges), gas 0.02 USDC (PnL after gas 0.99), 1 reverted');
    expect(capitalSummaryJson(result)).toEqual({ redeemedUsdc: 10.5, mergedUsdc: 4, gasUsdc: 0.015, pnlAfterGasUsdc: 0.99, redemptions: 2, merges: 1, reverted: 1 });
    // A loss after gas rounds away from zero too.
    expect(formatCapitalLine({ capital, pnlRaw: 0 })).toContain('(PnL after gas -0.02)');
  });

  it('capital off: says so, JSON null', () => {
    expect(formatCapitalLine({ capital: null, pnlRaw: 0 })).toBe('capital: on-chain redemption and merges off (winnings stay in their tokens)');
    expect(capitalSummaryJson({ capital: null, pnlRaw: 0 })).toBeNull();
  });
});
