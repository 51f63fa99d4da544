/**
 * What the capital core needs of a ledger: the journal of its transactions (durable before the port returns from
 * sending) and the booking of a confirmed one. The bot's LedgerStore implements it over the `capital_tx` table
 * (migration 7); the backtest's books implement it in memory (src/backtest/capital-books.ts).
 *
 * Invariants: a key is journaled once; `book` books a key at most once ('duplicate' after) and only a confirmed
 * outcome; `close` ends a journaled transaction that booked nothing (reverted, dropped).
 */
import type { CapitalMarketRef, CapitalTxKind, Hex } from './port.js';

/** A transaction the journal holds as sent, not yet booked or closed. */
export interface PendingCapitalTx {
  readonly key: string;
  readonly kind: CapitalTxKind;
  readonly market: CapitalMarketRef;
  readonly amountRaw: number;
  readonly hash: Hex;
  readonly nonce: number;
}

/** A confirmed transaction as booked. */
export interface ConfirmedCapitalTx {
  readonly key: string;
  readonly kind: CapitalTxKind;
  readonly marketSlug: string;
  readonly hash: Hex;
  readonly block: number;
  readonly usdcInRaw: number;
  readonly yesBurnedRaw: number;
  readonly noBurnedRaw: number;
  readonly gasWei: string;
  readonly gasUsdcRaw: number;
  readonly atMs: number;
}

export type CapitalCloseStatus = 'reverted' | 'dropped';

export interface CapitalBook {
  /** Journaled transactions neither booked nor closed. */
  pendingCapitalTx(): readonly PendingCapitalTx[];
  /** How many transactions of this kind were journaled for the market (any status): the next key's number. */
  capitalTxCount(marketSlug: string, kind: CapitalTxKind): number;
  /** Durable record of a sent transaction (before the port returns). */
  journalCapitalTx(request: { readonly key: string; readonly kind: CapitalTxKind; readonly market: CapitalMarketRef; readonly amountRaw: number }, tx: { readonly hash: Hex; readonly nonce: number }, atMs: number): void;
  /** Books a confirmed merge or redemption once (positions, cash, the row); 'duplicate' when the key is booked. */
  bookCapitalTx(tx: ConfirmedCapitalTx): 'inserted' | 'duplicate';
  /** Ends a journaled transaction that booked nothing. */
  closeCapitalTx(key: string, status: CapitalCloseStatus, detail: string, atMs: number): void;
}
