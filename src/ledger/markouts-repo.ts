/**
 * The ledger's markout tables (migration 2): which fills the live bot judges (`markout_fills`, with the strategy that
 * quoted and the references it is judged against) and one row per (fill, horizon, reference) in `fill_markouts`.
 *
 * Owns: the SQL of markouts. Invariants: a markout row is written at most once and never changed (its key is fill id +
 * horizon + reference; a second write of the key is ignored and reported as not inserted), so the figures are
 * exactly-once across restarts; a row holds either the reference's price (millionths, 1..999999) or the reason it is
 * missing, never both; a fill is judged only if it was booked after markouts began on this ledger
 * (`markouts.startFillId`, set once): fills recorded before keep working and are simply not judged; every write is
 * one transaction.
 */
import { z } from 'zod';
import type { LedgerContext } from './context.js';
import { LedgerInputError } from './errors.js';
import type { KvRepo } from './kv-repo.js';
import { checkId, checkTimeMs } from './validate.js';

export const KV_MARKOUTS_START_FILL_ID = 'markouts.startFillId';

export type MarkoutReferenceName = 'mid' | 'model';

/** A fill as the markout sampler needs it. */
export interface MarkoutFillHead {
  readonly fillId: number;
  readonly marketSlug: string;
  readonly token: 'YES' | 'NO';
  readonly side: 'BUY' | 'SELL';
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly feeRaw: number;
  readonly atMs: number;
}

/** A judged fill with the samples recorded so far. */
export interface StoredJudgedFill extends MarkoutFillHead {
  readonly strategy: string;
  readonly references: readonly MarkoutReferenceName[];
  readonly samples: readonly { readonly horizonMs: number; readonly reference: MarkoutReferenceName; readonly refMicros: number | null }[];
}

export interface MarkoutRegistration {
  readonly fillId: number;
  readonly strategy: string;
  readonly references: readonly MarkoutReferenceName[];
}

export interface NewMarkoutRow {
  readonly fillId: number;
  readonly horizonMs: number;
  readonly reference: MarkoutReferenceName;
  /** The reference's YES price at the horizon, millionths; null when missing. */
  readonly refMicros: number | null;
  /** Why the price is missing (null when it is known). */
  readonly missingReason: string | null;
  readonly sampledAtMs: number;
}

export interface MarkoutWrite {
  readonly register: readonly MarkoutRegistration[];
  readonly rows: readonly NewMarkoutRow[];
  /** Fills whose every row is now written. */
  readonly complete: readonly number[];
}

export interface JudgedFillQuery {
  readonly sinceMs?: number | undefined;
  readonly marketSlug?: string | undefined;
}

/** How many of the booked trade fills a query covers are judged, and why the others are not. */
export interface MarkoutCoverage {
  /** Trade fills booked (not failed), as the PnL report counts them. */
  readonly booked: number;
  readonly judged: number;
  /** Not judged because they were booked before markouts began on this ledger (`markouts.startFillId`). */
  readonly beforeMarkouts: number;
}

const headRowSchema = z.object({
  id: z.number().int(),
  market_slug: z.string(),
  token: z.enum(['YES', 'NO']),
  side: z.enum(['BUY', 'SELL']),
  price_ticks: z.number().int(),
  size_raw: z.number().int(),
  fee_raw: z.number().int(),
  at_ms: z.number().int(),
});
const judgedRowSchema = headRowSchema.extend({ strategy: z.string(), refs: z.enum(['mid', 'mid,model']) });
const coverageRowSchema = z.object({ booked: z.number().int(), judged: z.number().int().nullable(), before: z.number().int().nullable() });
const sampleRowSchema = z.object({
  fill_id: z.number().int(),
  horizon_ms: z.number().int(),
  reference: z.enum(['mid', 'model']),
  ref_micros: z.number().int().nullable(),
});
const maxRowSchema = z.object({ max_id: z.number().int().nullable() });

const HEAD_COLUMNS = `f.id, f.market_slug, f.token, f.side, f.price_ticks, f.size_raw, f.fee_raw, f.at_ms`;

function headOf(row: z.infer<typeof headRowSchema>): MarkoutFillHead {
  return {
    fillId: row.id,
    marketSlug: row.market_slug,
    token: row.token,
    side: row.side,
    priceTicks: row.price_ticks,
    sizeRaw: row.size_raw,
    feeRaw: row.fee_raw,
    atMs: row.at_ms,
  };
}

function referencesOf(refs: 'mid' | 'mid,model'): MarkoutReferenceName[] {
  return refs === 'mid' ? ['mid'] : ['mid', 'model'];
}

function refsText(references: readonly MarkoutReferenceName[]): 'mid' | 'mid,model' {
  return references.includes('model') ? 'mid,model' : 'mid';
}

function checkRow(row: NewMarkoutRow, index: number): NewMarkoutRow {
  const at = `markouts.rows[${index}]`;
  if (!Number.isSafeInteger(row.fillId) || row.fillId <= 0) throw new LedgerInputError(`${at}.fillId`, row.fillId, 'must be a positive integer');
  if (!Number.isSafeInteger(row.horizonMs) || row.horizonMs < 0) throw new LedgerInputError(`${at}.horizonMs`, row.horizonMs, 'must be a non-negative integer');
  if (row.refMicros !== null && (!Number.isSafeInteger(row.refMicros) || row.refMicros < 1 || row.refMicros > 999_999)) {
    throw new LedgerInputError(`${at}.refMicros`, row.refMicros, 'must be an integer in 1..999999 or null');
  }
  if ((row.refMicros === null) === (row.missingReason === null)) {
    throw new LedgerInputError(`${at}.missingReason`, row.missingReason, 'a row holds a price or the reason it is missing, not both or neither');
  }
  checkTimeMs(`${at}.sampledAtMs`, row.sampledAtMs);
  return row;
}

export class MarkoutsRepo {
  private readonly maxFill;
  private readonly maxJudged;
  private readonly unjudged;
  private readonly open;
  private readonly openSamples;
  private readonly judged;
  private readonly judgedSamples;
  private readonly coverageOf;
  private readonly registerRow;
  private readonly insertRow;
  private readonly completeRow;

  constructor(
    private readonly ctx: LedgerContext,
    private readonly kv: KvRepo,
  ) {
    const db = ctx.db;
    this.maxFill = db.prepare(`SELECT MAX(id) AS max_id FROM fills`);
    this.maxJudged = db.prepare(`SELECT MAX(fill_id) AS max_id FROM markout_fills`);
    this.unjudged = db.prepare(
      `SELECT ${HEAD_COLUMNS} FROM fills f
        WHERE f.id > ? AND f.kind = 'trade' AND f.state != 'failed'
          AND NOT EXISTS (SELECT 1 FROM markout_fills m WHERE m.fill_id = f.id)
        ORDER BY f.id LIMIT ?`,
    );
    const openIds = `SELECT fill_id FROM markout_fills WHERE complete = 0 AND fill_id > @afterId ORDER BY fill_id LIMIT @limit`;
    this.open = db.prepare(
      `SELECT ${HEAD_COLUMNS}, m.strategy, m.refs FROM markout_fills m JOIN fills f ON f.id = m.fill_id
        WHERE m.fill_id IN (${openIds}) ORDER BY f.id`,
    );
    this.openSamples = db.prepare(
      `SELECT s.fill_id, s.horizon_ms, s.reference, s.ref_micros FROM fill_markouts s WHERE s.fill_id IN (${openIds})`,
    );
    this.judged = db.prepare(
      `SELECT ${HEAD_COLUMNS}, m.strategy, m.refs FROM markout_fills m JOIN fills f ON f.id = m.fill_id
        WHERE f.state != 'failed' AND f.at_ms >= @sinceMs AND (@market IS NULL OR f.market_slug = @market) ORDER BY f.id`,
    );
    this.judgedSamples = db.prepare(
      `SELECT s.fill_id, s.horizon_ms, s.reference, s.ref_micros FROM fill_markouts s JOIN fills f ON f.id = s.fill_id
        WHERE f.state != 'failed' AND f.at_ms >= @sinceMs AND (@market IS NULL OR f.market_slug = @market)`,
    );
    this.coverageOf = db.prepare(
      `SELECT COUNT(*) AS booked, SUM(CASE WHEN m.fill_id IS NULL THEN 0 ELSE 1 END) AS judged,
              SUM(CASE WHEN m.fill_id IS NULL AND f.id <= @start THEN 1 ELSE 0 END) AS before
         FROM fills f LEFT JOIN markout_fills m ON m.fill_id = f.id
        WHERE f.kind = 'trade' AND f.state != 'failed' AND f.at_ms >= @sinceMs AND (@market IS NULL OR f.market_slug = @market)`,
    );
    this.registerRow = db.prepare(
      `INSERT INTO markout_fills (fill_id, strategy, refs, complete, registered_at_ms) VALUES (?, ?, ?, 0, ?)
       ON CONFLICT (fill_id) DO NOTHING`,
    );
    this.insertRow = db.prepare(
      `INSERT INTO fill_markouts (fill_id, horizon_ms, reference, ref_micros, missing_reason, sampled_at_ms)
       VALUES (@fillId, @horizonMs, @reference, @refMicros, @missingReason, @sampledAtMs)
       ON CONFLICT (fill_id, horizon_ms, reference) DO NOTHING`,
    );
    this.completeRow = db.prepare(`UPDATE markout_fills SET complete = 1 WHERE fill_id = ?`);
  }

  /**
   * The id after which fills are judged: set once, the first time markouts run on this ledger, to the last fill id
   * then (fills recorded before are not judged).
   */
  startFillId(): number {
    return this.ctx.write('markoutsStart', () => {
      const stored = this.kv.get(KV_MARKOUTS_START_FILL_ID);
      if (stored !== null) {
        const id = Number(stored);
        if (!Number.isSafeInteger(id) || id < 0) throw new LedgerInputError(KV_MARKOUTS_START_FILL_ID, stored, 'must be a non-negative integer');
        return id;
      }
      const id = maxRowSchema.parse(this.maxFill.get()).max_id ?? 0;
      this.kv.set(KV_MARKOUTS_START_FILL_ID, String(id));
      return id;
    });
  }

  /** The highest judged fill id (0 when none): fills are judged in id order, so new ones come after it. */
  lastJudgedFillId(): number {
    return maxRowSchema.parse(this.maxJudged.get()).max_id ?? 0;
  }

  /** Trade fills (not failed) with id > `afterId` that are not judged yet, oldest first, at most `limit`. */
  unjudgedFills(afterId: number, limit: number): MarkoutFillHead[] {
    return this.unjudged.all(afterId, limit).map((raw) => headOf(headRowSchema.parse(raw)));
  }

  /** Judged fills whose rows are not all written, with the rows they have: the first `limit` with id > `afterId`. */
  openFills(afterId = 0, limit = Number.MAX_SAFE_INTEGER): StoredJudgedFill[] {
    const params = { afterId, limit };
    return this.withSamples(this.open.all(params), this.openSamples.all(params));
  }

  /** Judged fills that did not fail, with every row (the report's input). */
  judgedFills(query: JudgedFillQuery = {}): StoredJudgedFill[] {
    const params = {
      sinceMs: query.sinceMs === undefined ? 0 : checkTimeMs('sinceMs', query.sinceMs),
      market: query.marketSlug === undefined ? null : checkId('marketSlug', query.marketSlug),
    };
    return this.withSamples(this.judged.all(params), this.judgedSamples.all(params));
  }

  /**
   * The booked trade fills of a query (as the PnL report counts them), how many are judged, and how many are not
   * because markouts began after them (every fill when markouts never ran on this ledger). Reads only.
   */
  coverage(query: JudgedFillQuery = {}): MarkoutCoverage {
    const stored = this.kv.get(KV_MARKOUTS_START_FILL_ID);
    const start = stored === null ? Number.MAX_SAFE_INTEGER : Number(stored);
    const row = coverageRowSchema.parse(
      this.coverageOf.get({
        start: Number.isSafeInteger(start) ? start : Number.MAX_SAFE_INTEGER,
        sinceMs: query.sinceMs === undefined ? 0 : checkTimeMs('sinceMs', query.sinceMs),
        market: query.marketSlug === undefined ? null : checkId('marketSlug', query.marketSlug),
      }),
    );
    return { booked: row.booked, judged: row.judged ?? 0, beforeMarkouts: row.before ?? 0 };
  }

  /** Registrations, rows and completions in one transaction; per row, whether it was inserted (false: already there). */
  write(batch: MarkoutWrite): boolean[] {
    const rows = batch.rows.map(checkRow);
    const register = batch.register.map((entry, index) => ({
      fillId: entry.fillId,
      strategy: checkId(`markouts.register[${index}].strategy`, entry.strategy),
      refs: refsText(entry.references),
    }));
    if (rows.length === 0 && register.length === 0 && batch.complete.length === 0) return [];
    return this.ctx.write('recordMarkouts', () => {
      const now = this.ctx.now();
      for (const entry of register) this.registerRow.run(entry.fillId, entry.strategy, entry.refs, now);
      const inserted = rows.map((row) => this.insertRow.run(row).changes === 1);
      for (const fillId of batch.complete) this.completeRow.run(fillId);
      return inserted;
    });
  }

  private withSamples(fillRows: readonly unknown[], sampleRows: readonly unknown[]): StoredJudgedFill[] {
    const samples = new Map<number, { horizonMs: number; reference: MarkoutReferenceName; refMicros: number | null }[]>();
    for (const raw of sampleRows) {
      const row = sampleRowSchema.parse(raw);
      const list = samples.get(row.fill_id) ?? [];
      list.push({ horizonMs: row.horizon_ms, reference: row.reference, refMicros: row.ref_micros });
      samples.set(row.fill_id, list);
    }
    return fillRows.map((raw) => {
      const row = judgedRowSchema.parse(raw);
      return { ...headOf(row), strategy: row.strategy, references: referencesOf(row.refs), samples: samples.get(row.id) ?? [] };
    });
  }
}
