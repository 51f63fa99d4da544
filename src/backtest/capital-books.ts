/**
 * The backtest's capital book (src/capital/book.ts) in memory: the journal of the capital core's transactions and
 * their booking into the backtest's books of the fills (./accounting.ts: a merge's legs leave the positions for their
 * USDC, a redemption zeroes the market's holdings), plus the figures the report shows (USDC redeemed and merged, gas,
 * per hour of the run).
 *
 * Invariants: a key is booked once; only a confirmed transaction is booked; amounts are raw integers.
 */
import type { CapitalBook, CapitalCloseStatus, ConfirmedCapitalTx, PendingCapitalTx } from '../capital/book.js';
import type { CapitalMarketRef, CapitalTxKind, Hex } from '../capital/port.js';
import type { BotAccounting } from './accounting.js';
import type { CapitalHour, CapitalSummary } from './result.js';

const HOUR_MS = 3_600_000;

interface Entry {
  readonly key: string;
  readonly kind: CapitalTxKind;
  readonly market: CapitalMarketRef;
  readonly amountRaw: number;
  readonly hash: Hex;
  readonly nonce: number;
  status: 'sent' | 'booked' | CapitalCloseStatus;
}

export class BacktestCapitalBook implements CapitalBook {
  private readonly entries = new Map<string, Entry>();
  private readonly booked: ConfirmedCapitalTx[] = [];
  private reverted = 0;

  constructor(
    private readonly accounting: BotAccounting,
    private readonly startMs: number,
  ) {}

  pendingCapitalTx(): readonly PendingCapitalTx[] {
    return [...this.entries.values()].filter((e) => e.status === 'sent');
  }

  capitalTxCount(marketSlug: string, kind: CapitalTxKind): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.market.slug === marketSlug && e.kind === kind) n += 1;
    return n;
  }

  journalCapitalTx(request: { readonly key: string; readonly kind: CapitalTxKind; readonly market: CapitalMarketRef; readonly amountRaw: number }, tx: { readonly hash: Hex; readonly nonce: number }): void {
    if (this.entries.has(request.key)) throw new Error(`capital key ${request.key} journaled twice`);
    this.entries.set(request.key, { ...request, hash: tx.hash, nonce: tx.nonce, status: 'sent' });
  }

  bookCapitalTx(tx: ConfirmedCapitalTx): 'inserted' | 'duplicate' {
    const entry = this.entries.get(tx.key);
    if (entry?.status === 'booked') return 'duplicate';
    if (entry !== undefined) entry.status = 'booked';
    if (tx.kind === 'merge') this.accounting.applyMerge(tx.marketSlug, Math.min(tx.yesBurnedRaw, tx.noBurnedRaw));
    else this.accounting.applyRedemption(tx.marketSlug, tx.usdcInRaw);
    this.booked.push(tx);
    return 'inserted';
  }

  closeCapitalTx(key: string, status: CapitalCloseStatus): void {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.status !== 'sent') return;
    entry.status = status;
    if (status === 'reverted') this.reverted += 1;
  }

  /** The run's capital figures: totals and one row per hour of the run (from its start). */
  summary(durationMs: number): CapitalSummary {
    const hours = Math.max(1, Math.ceil(durationMs / HOUR_MS));
    const byHour: { redeemedRaw: number; mergedRaw: number; gasUsdcRaw: number; transactions: number }[] = Array.from({ length: hours }, () => ({ redeemedRaw: 0, mergedRaw: 0, gasUsdcRaw: 0, transactions: 0 }));
    let redeemedRaw = 0;
    let mergedRaw = 0;
    let gasUsdcRaw = 0;
    let redemptions = 0;
    let merges = 0;
    for (const tx of this.booked) {
      const hour = byHour[Math.min(hours - 1, Math.max(0, Math.floor((tx.atMs - this.startMs) / HOUR_MS)))];
      if (hour === undefined) continue;
      hour.transactions += 1;
      hour.gasUsdcRaw += tx.gasUsdcRaw;
      gasUsdcRaw += tx.gasUsdcRaw;
      if (tx.kind === 'merge') {
        hour.mergedRaw += tx.usdcInRaw;
        mergedRaw += tx.usdcInRaw;
        merges += 1;
      } else {
        hour.redeemedRaw += tx.usdcInRaw;
        redeemedRaw += tx.usdcInRaw;
        redemptions += 1;
      }
    }
    const rows: CapitalHour[] = byHour.map((h, index) => ({ hour: index, ...h }));
    return { redeemedRaw, mergedRaw, gasUsdcRaw, redemptions, merges, reverted: this.reverted, byHour: rows };
  }
}
