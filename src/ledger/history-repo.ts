/**
 * The ledger's record of the account's history as the venue lists it (migration 8, `account_history`): one row per
 * entry of GET /portfolio/history, with the cash flow it moved that the bot did not book itself, whether it was the
 * bot's own action, and the rule that decided (src/capital/account-history.ts decides; this module stores).
 *
 * Owns: the SQL of `account_history` and the look-ups of the bot's own transactions (its fills' and redemptions'
 * transaction hashes). Invariants: an entry is recorded once, keyed by its identity (a second read, a restart: nothing
 * written, and said so); a recorded entry is never changed; amounts are raw 1e6 integers; bad input is a
 * LedgerInputError naming the field and writes nothing.
 */
import { z } from 'zod';
import type { LedgerContext } from './context.js';
import { LedgerInputError } from './errors.js';
import { checkId, checkRaw, checkReason, checkSignedRaw, checkTimeMs } from './validate.js';

export const HISTORY_KINDS = ['claim', 'merge', 'split', 'convert', 'trade', 'other'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export interface AccountHistoryInput {
  readonly entryKey: string;
  readonly atMs: number;
  readonly txHash: string | null;
  readonly kind: HistoryKind;
  readonly strategy: string | null;
  readonly marketSlug: string | null;
  readonly collateralRaw: number | null;
  readonly tokensRaw: number | null;
  /** USDC moved outside the bot (+ in, − out); 0 when not booked. */
  readonly cashFlowRaw: number;
  readonly own: boolean;
  readonly booked: boolean;
  readonly rule: string;
}

export interface AccountHistoryRow extends AccountHistoryInput {
  readonly recordedAtMs: number;
}

/** The booked outside cash flows per kind. */
export interface OutsideCashFlows {
  readonly totalRaw: number;
  readonly byKind: readonly { readonly kind: HistoryKind; readonly entries: number; readonly cashFlowRaw: number }[];
}

const rowSchema = z.object({
  entry_key: z.string(),
  at_ms: z.number().int(),
  tx_hash: z.string().nullable(),
  kind: z.enum(HISTORY_KINDS),
  strategy: z.string().nullable(),
  market_slug: z.string().nullable(),
  collateral_raw: z.number().int().nullable(),
  tokens_raw: z.number().int().nullable(),
  cash_flow_raw: z.number().int(),
  own: z.number().int(),
  booked: z.number().int(),
  rule: z.string(),
  recorded_at_ms: z.number().int(),
});
const hashSchema = z.object({ tx_hash: z.string() });
const sumSchema = z.object({ kind: z.enum(HISTORY_KINDS), entries: z.number().int(), cash: z.number().int() });
const redemptionSchema = z.object({ amount_raw: z.number().int() });

const optionalRaw = (field: string, value: number | null): number | null => (value === null ? null : checkRaw(field, value));

export class HistoryRepo {
  private readonly insert;
  private readonly has;
  private readonly rows;
  private readonly sums;
  private readonly ownHashes;
  private readonly redemptionsOf;

  constructor(private readonly ctx: LedgerContext) {
    const db = ctx.db;
    this.insert = db.prepare(
      `INSERT INTO account_history (entry_key, at_ms, tx_hash, kind, strategy, market_slug, collateral_raw, tokens_raw, cash_flow_raw, own, booked, rule, recorded_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (entry_key) DO NOTHING`,
    );
    this.has = db.prepare(`SELECT 1 FROM account_history WHERE entry_key = ?`);
    this.rows = db.prepare(
      `SELECT entry_key, at_ms, tx_hash, kind, strategy, market_slug, collateral_raw, tokens_raw, cash_flow_raw, own, booked, rule, recorded_at_ms
         FROM account_history ORDER BY at_ms, entry_key`,
    );
    this.sums = db.prepare(`SELECT kind, COUNT(*) AS entries, SUM(cash_flow_raw) AS cash FROM account_history WHERE booked = 1 GROUP BY kind ORDER BY kind`);
    this.ownHashes = db.prepare(
      `SELECT tx_hash FROM fills WHERE tx_hash IN (SELECT value FROM json_each(@hashes))
       UNION SELECT tx_hash FROM redemptions WHERE tx_hash IN (SELECT value FROM json_each(@hashes))`,
    );
    this.redemptionsOf = db.prepare(`SELECT amount_raw FROM redemptions WHERE market_slug = ? AND tx_hash IS NULL`);
  }

  /** Records an entry; false when an entry of that key was recorded before (nothing written). */
  record(input: AccountHistoryInput): boolean {
    const cash = checkSignedRaw('accountHistory.cashFlowRaw', input.cashFlowRaw);
    if (input.own && input.booked) throw new LedgerInputError('accountHistory.booked', true, "the bot's own action is never booked as an outside cash flow");
    if (!input.booked && cash !== 0) throw new LedgerInputError('accountHistory.cashFlowRaw', cash, 'an entry not booked moves no cash in the ledger');
    const row = [
      checkId('accountHistory.entryKey', input.entryKey),
      checkTimeMs('accountHistory.atMs', input.atMs),
      input.txHash === null ? null : checkId('accountHistory.txHash', input.txHash),
      input.kind,
      input.strategy === null ? null : checkReason('accountHistory.strategy', input.strategy),
      input.marketSlug === null ? null : checkId('accountHistory.marketSlug', input.marketSlug),
      optionalRaw('accountHistory.collateralRaw', input.collateralRaw),
      optionalRaw('accountHistory.tokensRaw', input.tokensRaw),
      cash,
      input.own ? 1 : 0,
      input.booked ? 1 : 0,
      checkReason('accountHistory.rule', input.rule),
      this.ctx.now(),
    ];
    return this.insert.run(...row).changes > 0;
  }

  isRecorded(entryKey: string): boolean {
    return this.has.get(entryKey) !== undefined;
  }

  /** Which of these transaction hashes are the bot's own (a fill's or a redemption's). */
  ownTransactions(hashes: readonly string[]): Set<string> {
    if (hashes.length === 0) return new Set();
    return new Set(this.ownHashes.all({ hashes: JSON.stringify(hashes) }).map((r) => hashSchema.parse(r).tx_hash));
  }

  /** The amounts of the bot's redemptions of a market recorded without a transaction hash. */
  unhashedRedemptions(marketSlug: string): number[] {
    return this.redemptionsOf.all(marketSlug).map((r) => redemptionSchema.parse(r).amount_raw);
  }

  entries(): AccountHistoryRow[] {
    return this.rows.all().map((raw) => {
      const r = rowSchema.parse(raw);
      return {
        entryKey: r.entry_key,
        atMs: r.at_ms,
        txHash: r.tx_hash,
        kind: r.kind,
        strategy: r.strategy,
        marketSlug: r.market_slug,
        collateralRaw: r.collateral_raw,
        tokensRaw: r.tokens_raw,
        cashFlowRaw: r.cash_flow_raw,
        own: r.own === 1,
        booked: r.booked === 1,
        rule: r.rule,
        recordedAtMs: r.recorded_at_ms,
      };
    });
  }

  /** The booked outside cash flows, in total and per kind. */
  outsideCashFlows(): OutsideCashFlows {
    const byKind = this.sums.all().map((raw) => {
      const r = sumSchema.parse(raw);
      return { kind: r.kind, entries: r.entries, cashFlowRaw: r.cash };
    });
    return { totalRaw: byKind.reduce((sum, k) => sum + k.cashFlowRaw, 0), byKind };
  }
}
