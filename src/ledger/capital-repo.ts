/**
 * The ledger's journal of on-chain capital transactions (migration 7, `capital_tx`): what the capital core
 * (src/capital/core.ts) sent, found again by hash after a crash, and booked once.
 *
 * Owns: the SQL of `capital_tx`. Invariants: a key is journaled once (a second journal of it is refused); a row
 * moves sent → booked | reverted | dropped, once; the booking of a key happens at most once (the store's
 * `bookCapitalTx` writes positions and the redemption in the same transaction); amounts are raw 1e6 integers.
 */
import { z } from 'zod';
import type { CapitalCloseStatus, ConfirmedCapitalTx, PendingCapitalTx } from '../capital/book.js';
import type { CapitalMarketRef, CapitalTxKind, Hex } from '../capital/port.js';
import type { LedgerContext } from './context.js';
import { LedgerInputError } from './errors.js';
import { checkId, checkRaw, checkReason, checkTimeMs } from './validate.js';

const hexSchema = z.custom<Hex>((v) => typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v));
const refSchema = z.object({
  slug: z.string(),
  conditionId: hexSchema,
  negRisk: z.boolean(),
  adapter: hexSchema.nullable(),
  exchange: hexSchema,
  yesTokenId: z.string(),
  noTokenId: z.string(),
});
const pendingSchema = z.object({ key: z.string(), kind: z.enum(['redeem', 'merge']), request: z.string(), amount_raw: z.number().int(), hash: hexSchema, nonce: z.number().int() });
const statusSchema = z.object({ status: z.enum(['sent', 'booked', 'reverted', 'dropped']) });
const countSchema = z.object({ n: z.number().int() });
const bookedSchema = z.object({
  key: z.string(),
  kind: z.enum(['redeem', 'merge']),
  market_slug: z.string(),
  hash: hexSchema,
  block: z.number().int(),
  usdc_in_raw: z.number().int(),
  yes_burned_raw: z.number().int(),
  no_burned_raw: z.number().int(),
  gas_wei: z.string(),
  gas_usdc_raw: z.number().int(),
  settled_at_ms: z.number().int(),
});

export class CapitalRepo {
  private readonly insert;
  private readonly pendingRows;
  private readonly statusOf;
  private readonly countOf;
  private readonly setBooked;
  private readonly setClosed;
  private readonly bookedRows;

  constructor(private readonly ctx: LedgerContext) {
    const db = ctx.db;
    this.insert = db.prepare(
      `INSERT INTO capital_tx (key, kind, market_slug, request, amount_raw, hash, nonce, status, sent_at_ms)
       VALUES (@key, @kind, @marketSlug, @request, @amountRaw, @hash, @nonce, 'sent', @atMs)`,
    );
    this.pendingRows = db.prepare(`SELECT key, kind, request, amount_raw, hash, nonce FROM capital_tx WHERE status = 'sent' ORDER BY sent_at_ms, key`);
    this.statusOf = db.prepare(`SELECT status FROM capital_tx WHERE key = ?`);
    this.countOf = db.prepare(`SELECT COUNT(*) AS n FROM capital_tx WHERE market_slug = ? AND kind = ?`);
    this.setBooked = db.prepare(
      `UPDATE capital_tx SET status = 'booked', block = @block, usdc_in_raw = @usdcInRaw, yes_burned_raw = @yesBurnedRaw,
         no_burned_raw = @noBurnedRaw, gas_wei = @gasWei, gas_usdc_raw = @gasUsdcRaw, hash = @hash, settled_at_ms = @atMs
       WHERE key = @key`,
    );
    this.setClosed = db.prepare(`UPDATE capital_tx SET status = ?, detail = ?, settled_at_ms = ? WHERE key = ? AND status = 'sent'`);
    this.bookedRows = db.prepare(
      `SELECT key, kind, market_slug, hash, block, usdc_in_raw, yes_burned_raw, no_burned_raw, gas_wei, gas_usdc_raw, settled_at_ms
         FROM capital_tx WHERE status = 'booked' AND settled_at_ms >= ? ORDER BY settled_at_ms, key`,
    );
  }

  journal(request: { readonly key: string; readonly kind: CapitalTxKind; readonly market: CapitalMarketRef; readonly amountRaw: number }, tx: { readonly hash: Hex; readonly nonce: number }, atMs: number): void {
    const key = checkId('capitalTx.key', request.key);
    const amountRaw = checkRaw('capitalTx.amountRaw', request.amountRaw);
    if (!/^0x[0-9a-fA-F]{64}$/.test(tx.hash)) throw new LedgerInputError('capitalTx.hash', tx.hash, 'expected 0x + 64 hex');
    if (!Number.isSafeInteger(tx.nonce) || tx.nonce < 0) throw new LedgerInputError('capitalTx.nonce', tx.nonce, 'expected a non-negative integer');
    this.ctx.write('journalCapitalTx', () => {
      if (this.statusOf.get(key) !== undefined) throw new LedgerInputError('capitalTx.key', key, 'already journaled (a transaction is never sent twice for one key)');
      this.insert.run({ key, kind: request.kind, marketSlug: request.market.slug, request: JSON.stringify(request.market), amountRaw, hash: tx.hash, nonce: tx.nonce, atMs: checkTimeMs('atMs', atMs) });
    });
  }

  pending(): PendingCapitalTx[] {
    return this.pendingRows.all().map((raw) => {
      const row = pendingSchema.parse(raw);
      return { key: row.key, kind: row.kind, market: refSchema.parse(JSON.parse(row.request)), amountRaw: row.amount_raw, hash: row.hash, nonce: row.nonce };
    });
  }

  count(marketSlug: string, kind: CapitalTxKind): number {
    return countSchema.parse(this.countOf.get(checkId('marketSlug', marketSlug), kind)).n;
  }

  /** 'booked' when the key is booked already; else marks it booked (inside the caller's transaction). */
  markBooked(tx: ConfirmedCapitalTx): 'inserted' | 'duplicate' {
    const stored = this.statusOf.get(tx.key);
    if (stored !== undefined && statusSchema.parse(stored).status === 'booked') return 'duplicate';
    if (stored === undefined) throw new LedgerInputError('capitalTx.key', tx.key, 'booked without a journal entry');
    this.setBooked.run({ ...tx, atMs: tx.atMs });
    return 'inserted';
  }

  close(key: string, status: CapitalCloseStatus, detail: string, atMs: number): void {
    this.ctx.write('closeCapitalTx', () => this.setClosed.run(status, checkReason('detail', detail), checkTimeMs('atMs', atMs), checkId('key', key)));
  }

  /** Booked transactions settled at or after `sinceMs`, oldest first. */
  booked(sinceMs: number): ConfirmedCapitalTx[] {
    return this.bookedRows.all(checkTimeMs('sinceMs', sinceMs)).map((raw) => {
      const r = bookedSchema.parse(raw);
      return { key: r.key, kind: r.kind, marketSlug: r.market_slug, hash: r.hash, block: r.block, usdcInRaw: r.usdc_in_raw, yesBurnedRaw: r.yes_burned_raw, noBurnedRaw: r.no_burned_raw, gasWei: r.gas_wei, gasUsdcRaw: r.gas_usdc_raw, atMs: r.settled_at_ms };
    });
  }
}
