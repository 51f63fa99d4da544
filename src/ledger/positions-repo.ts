/**
 * The positions table: a cache of the average-cost replay of each (market, token)'s fills that have not
 * failed, in (at_ms, id) order. Each fill row also keeps what the replay derived for it (realized delta,
 * position and cost after it), so "the position at 00:00 UTC" is one indexed lookup.
 *
 * Invariant (checked by `verify`): the table and the derived columns equal a fresh replay of the fills.
 * A fill timed at or after the key's last one is applied incrementally (planned before its insert, so
 * the row is written once with its derived columns); anything else (a reversal, a
 * late fill with an earlier time, an amended fill) rebuilds the key from its fills.
 */
import type { Outcome } from '../core/venue-rules/index.js';
import type { LedgerContext } from './context.js';
import { applyPositionEvent, FLAT, type PositionState } from './position-math.js';
import { EMPTY_TOKEN, type TokenTotals } from './pnl.js';
import { positionRowSchema, replayRowSchema, type PositionRow, type ReplayRow } from './rows.js';
import type { FillDerivedColumns, FillKind, Side } from './types.js';

export interface AppliedFill {
  readonly id: number;
  readonly marketSlug: string;
  readonly token: Outcome;
  readonly kind: FillKind;
  readonly side: Side;
  readonly sizeRaw: number;
  readonly collateralRaw: number;
  readonly feeRaw: number;
  readonly atMs: number;
}

const stateRowSchema = positionRowSchema.pick({ position_raw: true, cost_raw: true });
const keyRowSchema = positionRowSchema.pick({ market_slug: true, token: true });

const CHECKED_FIELDS: ReadonlyArray<keyof TokenTotals> = [
  'positionRaw',
  'costRaw',
  'realizedRaw',
  'feesRaw',
  'volumeRaw',
  'fillCount',
];


export type PositionPlan =
  | { readonly kind: 'replay' }
  | { readonly kind: 'append'; readonly derived: FillDerivedColumns; readonly totals: Totals };

interface Totals extends TokenTotals {
  readonly lastAtMs: number;
  readonly lastFillId: number;
}

export class PositionsRepo {
  private readonly select;
  private readonly upsert;
  private readonly setDerived;
  private readonly replayRows;
  private readonly allRows;
  private readonly allFillKeys;
  private readonly asOf;

  constructor(private readonly ctx: LedgerContext) {
    const db = ctx.db;
    this.select = db.prepare(
      `SELECT market_slug, token, position_raw, cost_raw, realized_raw, fees_raw, volume_raw, fill_count,
        last_at_ms, last_fill_id FROM positions WHERE market_slug = ? AND token = ?`,
    );
    this.upsert = db.prepare(
      `INSERT INTO positions (market_slug, token, position_raw, cost_raw, realized_raw, fees_raw, volume_raw,
         fill_count, last_at_ms, last_fill_id, updated_at_ms)
       VALUES (@marketSlug, @token, @positionRaw, @costRaw, @realizedRaw, @feesRaw, @volumeRaw, @fillCount,
         @lastAtMs, @lastFillId, @updatedAtMs)
       ON CONFLICT (market_slug, token) DO UPDATE SET position_raw = excluded.position_raw,
         cost_raw = excluded.cost_raw, realized_raw = excluded.realized_raw, fees_raw = excluded.fees_raw,
         volume_raw = excluded.volume_raw, fill_count = excluded.fill_count, last_at_ms = excluded.last_at_ms,
         last_fill_id = excluded.last_fill_id, updated_at_ms = excluded.updated_at_ms`,
    );
    this.setDerived = db.prepare(
      `UPDATE fills SET realized_delta_raw = ?, position_after_raw = ?, cost_after_raw = ? WHERE id = ?`,
    );
    this.replayRows = db.prepare(
      `SELECT id, kind, side, size_raw, collateral_raw, fee_raw, at_ms, realized_delta_raw, position_after_raw,
         cost_after_raw FROM fills WHERE market_slug = ? AND token = ? AND state != 'failed' ORDER BY at_ms, id`,
    );
    this.allRows = db.prepare(
      `SELECT market_slug, token, position_raw, cost_raw, realized_raw, fees_raw, volume_raw, fill_count,
        last_at_ms, last_fill_id FROM positions ORDER BY market_slug, token`,
    );
    this.allFillKeys = db.prepare(`SELECT DISTINCT market_slug, token FROM fills ORDER BY market_slug, token`);
    this.asOf = db.prepare(
      `SELECT position_after_raw AS position_raw, cost_after_raw AS cost_raw FROM fills
        WHERE market_slug = ? AND token = ? AND state != 'failed' AND at_ms < ?
        ORDER BY at_ms DESC, id DESC LIMIT 1`,
    );
  }

  /**
   * Plans a new, non-failed fill before it is inserted: the derived columns to insert it with, or
   * 'replay' when it is timed before the key's last fill. Pair with `commit` after the insert.
   */
  plan(fill: Omit<AppliedFill, 'id'>): PositionPlan {
    const stored = this.select.get(fill.marketSlug, fill.token);
    const current = stored === undefined ? null : positionRowSchema.parse(stored);
    if (current !== null && fill.atMs < current.last_at_ms) return { kind: 'replay' };
    const totals = current === null ? { ...EMPTY_TOKEN, lastAtMs: 0, lastFillId: 0 } : fromRow(current);
    const next = step(totals, { ...fill, id: 0 });
    return {
      kind: 'append',
      derived: { realizedDeltaRaw: next.realizedDeltaRaw, positionAfterRaw: next.totals.positionRaw, costAfterRaw: next.totals.costRaw },
      totals: next.totals,
    };
  }

  /** Completes a plan once the fill row exists (inside the same write transaction). */
  commit(fill: AppliedFill, plan: PositionPlan): void {
    if (plan.kind === 'replay') this.replay(fill.marketSlug, fill.token);
    else this.write(fill.marketSlug, fill.token, { ...plan.totals, lastFillId: fill.id });
  }

  /** Rebuilds one (market, token) from its fills. Must run inside a write transaction. */
  replay(marketSlug: string, token: Outcome): void {
    const started = performance.now();
    const rows = this.replayRows.all(marketSlug, token).map((row) => replayRowSchema.parse(row));
    let totals: Totals = { ...EMPTY_TOKEN, lastAtMs: 0, lastFillId: 0 };
    for (const row of rows) {
      const next = step(totals, fromReplayRow(row));
      totals = next.totals;
      if (
        row.realized_delta_raw !== next.realizedDeltaRaw ||
        row.position_after_raw !== totals.positionRaw ||
        row.cost_after_raw !== totals.costRaw
      ) {
        this.setDerived.run(next.realizedDeltaRaw, totals.positionRaw, totals.costRaw, row.id);
      }
    }
    this.write(marketSlug, token, totals);
    const ms = performance.now() - started;
    this.ctx.notify((observer) => observer.onReplay?.(marketSlug, token, rows.length, ms));
  }

  get(marketSlug: string, token: Outcome): TokenTotals {
    const row = this.select.get(marketSlug, token);
    return row === undefined ? EMPTY_TOKEN : tokenTotals(fromRow(positionRowSchema.parse(row)));
  }

  all(): Array<{ marketSlug: string; token: Outcome; totals: TokenTotals }> {
    return this.allRows.all().map((raw) => {
      const row = positionRowSchema.parse(raw);
      return { marketSlug: row.market_slug, token: row.token, totals: tokenTotals(fromRow(row)) };
    });
  }

  /** Position and basis just before `atMs` (fills timed strictly earlier). */
  before(marketSlug: string, token: Outcome, atMs: number): PositionState {
    const row = this.asOf.get(marketSlug, token, atMs);
    if (row === undefined) return FLAT;
    const parsed = stateRowSchema.parse(row);
    return { positionRaw: parsed.position_raw, costRaw: parsed.cost_raw };
  }

  /**
   * Recomputes every key from its fills and compares with the cache and the derived columns.
   * Returns human-readable problems (empty when consistent). Read-only.
   */
  verify(): string[] {
    const problems: string[] = [];
    const keys = new Map<string, { marketSlug: string; token: Outcome }>();
    for (const raw of this.allFillKeys.all()) {
      const row = keyRowSchema.parse(raw);
      keys.set(`${row.market_slug}|${row.token}`, { marketSlug: row.market_slug, token: row.token });
    }
    const cached = new Map(this.all().map((entry) => [`${entry.marketSlug}|${entry.token}`, entry.totals]));
    for (const [name] of cached) {
      if (!keys.has(name)) problems.push(`position ${name} has no fills`);
    }
    for (const [name, key] of keys) {
      const rows = this.replayRows.all(key.marketSlug, key.token).map((row) => replayRowSchema.parse(row));
      let totals: Totals = { ...EMPTY_TOKEN, lastAtMs: 0, lastFillId: 0 };
      for (const row of rows) {
        const next = step(totals, fromReplayRow(row));
        totals = next.totals;
        if (
          row.realized_delta_raw !== next.realizedDeltaRaw ||
          row.position_after_raw !== totals.positionRaw ||
          row.cost_after_raw !== totals.costRaw
        ) {
          problems.push(`fill ${row.id} (${name}) derived columns differ from the replay`);
        }
      }
      const stored = cached.get(name) ?? EMPTY_TOKEN;
      for (const field of CHECKED_FIELDS) {
        if (stored[field] !== totals[field]) {
          problems.push(`position ${name} ${field} is ${stored[field]}, replay gives ${totals[field]}`);
        }
      }
    }
    return problems;
  }

  /** Every change of a position goes through here: the row, and the position book once the transaction commits. */
  private write(marketSlug: string, token: Outcome, totals: Totals): void {
    this.upsert.run({ marketSlug, token, ...totals, updatedAtMs: this.ctx.now() });
    const book = tokenTotals(totals);
    this.ctx.afterCommit(() => this.ctx.book.setTotals(marketSlug, token, book));
  }
}

function fromRow(row: PositionRow): Totals {
  return {
    positionRaw: row.position_raw,
    costRaw: row.cost_raw,
    realizedRaw: row.realized_raw,
    feesRaw: row.fees_raw,
    volumeRaw: row.volume_raw,
    fillCount: row.fill_count,
    lastAtMs: row.last_at_ms,
    lastFillId: row.last_fill_id,
  };
}

function tokenTotals(totals: Totals): TokenTotals {
  return {
    positionRaw: totals.positionRaw,
    costRaw: totals.costRaw,
    realizedRaw: totals.realizedRaw,
    feesRaw: totals.feesRaw,
    volumeRaw: totals.volumeRaw,
    fillCount: totals.fillCount,
  };
}

function fromReplayRow(row: ReplayRow): Omit<AppliedFill, 'marketSlug' | 'token'> {
  return {
    id: row.id,
    kind: row.kind,
    side: row.side,
    sizeRaw: row.size_raw,
    collateralRaw: row.collateral_raw,
    feeRaw: row.fee_raw,
    atMs: row.at_ms,
  };
}

function step(totals: Totals, fill: Omit<AppliedFill, 'marketSlug' | 'token'>): { totals: Totals; realizedDeltaRaw: number } {
  const result = applyPositionEvent(totals, fill);
  const trade = fill.kind === 'trade';
  return {
    realizedDeltaRaw: result.realizedRaw,
    totals: {
      positionRaw: result.state.positionRaw,
      costRaw: result.state.costRaw,
      realizedRaw: totals.realizedRaw + result.realizedRaw,
      feesRaw: totals.feesRaw + fill.feeRaw,
      volumeRaw: totals.volumeRaw + (trade ? fill.collateralRaw : 0),
      fillCount: totals.fillCount + (trade ? 1 : 0),
      lastAtMs: fill.atMs,
      lastFillId: fill.id,
    },
  };
}
