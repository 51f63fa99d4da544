/**
 * A small ledger for the report tests, every figure hand-checked:
 * - btc-100k: YES 6 + 4 @ 0.40 (one order, two parts), 5 @ 0.70 taker (fee 0.035), sell 6 @ 0.60
 *   (realized 0.6), NO 4 @ 0.45; mark 0.55 → 9 YES avg 0.5, 4 NO avg 0.45, unrealized 0.45, net 1.015.
 * - eth-5k: YES 2 @ 0.30, never marked → "no mark".
 * - sol-1k: NO 3 @ 0.20, resolved NO → payout 3.0, realized 2.4, not redeemed (receivable 3.0).
 */
import { join } from 'node:path';
import { openLedger } from '../../src/ledger/store.js';
import { fillInput, T0 } from './ledger-fixtures.js';

export const REPORT_NOW = Date.UTC(2025, 0, 16);

export function writeReportFixture(dir: string): string {
  const path = join(dir, 'report.sqlite');
  const ledger = openLedger({ path, now: () => T0 });
  ledger.recordFills([
    fillInput({ tradeEventId: 't1', orderId: 'o1', priceTicks: 400, sizeRaw: 6e6, atMs: T0 }),
    fillInput({ tradeEventId: 't1b', orderId: 'o1', priceTicks: 400, sizeRaw: 4e6, atMs: T0 + 1 }),
    fillInput({ tradeEventId: 't2', orderId: 'o2', priceTicks: 700, sizeRaw: 5e6, role: 'taker', feeRaw: 35_000, atMs: T0 + 2 }),
    fillInput({ tradeEventId: 't3', orderId: 'o3', side: 'SELL', priceTicks: 600, sizeRaw: 6e6, atMs: T0 + 3 }),
    fillInput({ tradeEventId: 't4', orderId: 'o4', token: 'NO', tokenId: '222', priceTicks: 450, sizeRaw: 4e6, atMs: T0 + 4 }),
    fillInput({ tradeEventId: 'e1', orderId: 'o5', marketSlug: 'eth-5k', tokenId: '333', priceTicks: 300, sizeRaw: 2e6, atMs: T0 + 5 }),
    fillInput({ tradeEventId: 's1', orderId: 'o6', marketSlug: 'sol-1k', token: 'NO', tokenId: '444', priceTicks: 200, sizeRaw: 3e6, atMs: T0 + 6 }),
    fillInput({ tradeEventId: 'f1', orderId: 'o7', priceTicks: 900, sizeRaw: 50e6, state: 'failed', atMs: T0 + 7 }),
  ]);
  ledger.recordMark({ marketSlug: 'btc-100k', mid: 0.55, atMs: T0 + 8 });
  ledger.recordResolution('sol-1k', { winningOutcomeIndex: 1 }, T0 + 9);
  ledger.close();
  return path;
}
