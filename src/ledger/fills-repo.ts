/**
 * Fills, idempotent by construction: one row per (tradeEventId, orderId), whichever source reports it
 * (socket OME/SETTLEMENT frames, the POST /orders answer, a status-batch catch-up) and however often.
 *
 * Merge rule: the stored state is the highest seen, failed > mined > provisional, so the result depends
 * only on the set of reports, not their order:
 * - MATCHED → provisional fill (counts in positions); MINED → confirms it, or creates it confirmed;
 * - FAILED → the fill and its position effect are reversed (the row stays, state 'failed', for audit);
 *   a FAILED for a fill not yet seen is remembered, and the fill is born failed when it arrives;
 * - a mined report may amend a provisional fill's economics (size, price, collateral, fee); every other
 *   disagreement keeps the stored data and is reported to the observer as a conflict;
 * - the fill time is the earliest reported (match time ≤ mined time).
 * Reconciliation stand-ins (source 'reconcile') are superseded, oldest first and up to the trade's size, when the venue's
 * own report of a trade they stood for arrives. A stand-in is dated when the read it came from left (its `atMs`; every
 * trade of the order matched before then is counted in it):
 * - a trade first seen mined lost its MATCHED report (that is why a stand-in exists): it retires any stand-in;
 * - a trade first seen provisional (MATCHED) carries its match time: it retires the stand-ins dated at or after it (its
 *   frame was still in flight when the read was answered: counted by both, once only here). One that matched later is
 *   a different trade and retires none.
 * The venue's clock dates the trade and the bot's the read: a skew between them misjudges a trade matched within it of
 * the read, and the order's next reconciliation brings the ledger back to the venue's filled size (src/ledger/reconcile.ts).
 */
import { z } from 'zod';
import { collateralRaw as collateralFor } from '../core/venue-rules/index.js';
import type { Outcome } from '../core/venue-rules/index.js';
import type { LedgerContext } from './context.js';
import { LedgerInputError } from './errors.js';
import { markValue } from './position-math.js';
import type { PositionsRepo } from './positions-repo.js';
import { toFill } from './rows.js';
import type { FailOutcome, FillInput, FillDerivedColumns, FillKey, FillOutcome, FillRecord, FillState, LedgerConflict, NewFillRow, NormalisedFill } from './types.js';
import { checkReason, checkTimeMs, normaliseFill, normaliseFillKey } from './validate.js';

const NO_DERIVED: FillDerivedColumns = { realizedDeltaRaw: 0, positionAfterRaw: 0, costAfterRaw: 0 };

interface FillKeyOfPosition {
  readonly marketSlug: string;
  readonly token: Outcome;
}

const RANK: Record<FillState, number> = { provisional: 0, mined: 1, failed: 2 };

const FILL_COLUMNS = `id, trade_event_id, order_id, client_order_id, market_slug, token, token_id, side, price_ticks,
  size_raw, collateral_raw, fee_raw, role, kind, source, state, reason, tx_hash, at_ms, recorded_at_ms, updated_at_ms,
  realized_delta_raw, position_after_raw, cost_after_raw`;

/** A fill the reconciliation books for a trade the venue reports and the ledger lacks (source 'reconcile'). */
export interface SyntheticFillInput
  extends Pick<FillRecord, 'tradeEventId' | 'orderId' | 'clientOrderId' | 'marketSlug' | 'token' | 'tokenId' | 'side' | 'sizeRaw' | 'atMs'> {
  readonly priceTicks: number;
  readonly reason: string;
}

/** A position correction (kind 'adjustment'): no order, no price, a signed change. */
export interface AdjustmentInput extends Pick<FillRecord, 'tradeEventId' | 'marketSlug' | 'token' | 'tokenId' | 'atMs'> {
  /** Signed change of the position, raw tokens. */
  readonly deltaRaw: number;
  /** Price (millionths) at which an increase is added to the cost basis. */
  readonly priceMicros: number;
  readonly reason: string;
}

export interface MarketActivity {
  readonly marketSlug: string;
  readonly fillCount: number;
  readonly volumeRaw: number;
  readonly feesRaw: number;
  readonly realizedRaw: number;
}

const activityRowSchema = z.object({
  market_slug: z.string(),
  fill_count: z.number().int(),
  volume_raw: z.number().int(),
  fees_raw: z.number().int(),
  realized_raw: z.number().int(),
});
const orderTotalRowSchema = z.object({ order_id: z.string(), total: z.number().int() });
const pendingRowSchema = z.object({ market_slug: z.string(), token: z.enum(['YES', 'NO']), total: z.number().int() });
const tokenIdRowSchema = z.object({ token_id: z.string() });

export class FillsRepo {
  private readonly insertRow;
  private readonly byKey;
  private readonly byOrder;
  private readonly provisionalRows;
  private readonly setState;
  private readonly amend;
  private readonly setTime;
  private readonly setTxHash;
  private readonly tombstone;
  private readonly findTombstone;
  private readonly dropTombstone;
  private readonly placeholders;
  private readonly orderTotals;
  private readonly orderFillsSince;
  private readonly pending;
  private readonly activity;
  private readonly tokenIdOf;

  constructor(
    private readonly ctx: LedgerContext,
    private readonly positions: PositionsRepo,
  ) {
    const db = ctx.db;
    this.insertRow = db.prepare(
      `INSERT INTO fills (trade_event_id, order_id, client_order_id, market_slug, token, token_id, side, price_ticks,
         size_raw, collateral_raw, fee_raw, role, kind, source, state, reason, tx_hash, at_ms, recorded_at_ms,
         updated_at_ms, realized_delta_raw, position_after_raw, cost_after_raw)
       VALUES (@tradeEventId, @orderId, @clientOrderId, @marketSlug, @token, @tokenId, @side, @priceTicks, @sizeRaw,
         @collateralRaw, @feeRaw, @role, @kind, @source, @state, @reason, @txHash, @atMs, @now, @now,
         @realizedDeltaRaw, @positionAfterRaw, @costAfterRaw)`,
    );
    this.byKey = db.prepare(`SELECT ${FILL_COLUMNS} FROM fills WHERE trade_event_id = ? AND order_id = ?`);
    this.byOrder = db.prepare(`SELECT ${FILL_COLUMNS} FROM fills WHERE order_id = ? ORDER BY at_ms, id`);
    this.provisionalRows = db.prepare(
      `SELECT ${FILL_COLUMNS} FROM fills WHERE state = 'provisional' ORDER BY at_ms, id`,
    );
    this.setState = db.prepare(
      `UPDATE fills SET state = @state, reason = COALESCE(@reason, reason), tx_hash = COALESCE(@txHash, tx_hash),
         updated_at_ms = @now, realized_delta_raw = CASE WHEN @state = 'failed' THEN 0 ELSE realized_delta_raw END,
         position_after_raw = CASE WHEN @state = 'failed' THEN 0 ELSE position_after_raw END,
         cost_after_raw = CASE WHEN @state = 'failed' THEN 0 ELSE cost_after_raw END
       WHERE id = @id`,
    );
    this.amend = db.prepare(
      `UPDATE fills SET market_slug = @marketSlug, token = @token, token_id = @tokenId, side = @side,
         price_ticks = @priceTicks, size_raw = @sizeRaw, collateral_raw = @collateralRaw, fee_raw = @feeRaw,
         role = @role, updated_at_ms = @now WHERE id = @id`,
    );
    this.setTime = db.prepare(`UPDATE fills SET at_ms = ?, updated_at_ms = ? WHERE id = ?`);
    this.setTxHash = db.prepare(`UPDATE fills SET tx_hash = ?, updated_at_ms = ? WHERE id = ? AND tx_hash IS NULL`);
    this.tombstone = db.prepare(
      `INSERT OR IGNORE INTO fill_failures (trade_event_id, order_id, reason, at_ms) VALUES (?, ?, ?, ?)`,
    );
    this.findTombstone = db.prepare(`SELECT reason FROM fill_failures WHERE trade_event_id = ? AND order_id = ?`);
    this.dropTombstone = db.prepare(`DELETE FROM fill_failures WHERE trade_event_id = ? AND order_id = ?`);
    this.placeholders = db.prepare(
      `SELECT ${FILL_COLUMNS} FROM fills WHERE order_id = ? AND source = 'reconcile' AND kind = 'trade'
         AND state != 'failed' ORDER BY id`,
    );
    this.orderTotals = db.prepare(
      `SELECT order_id, SUM(size_raw) AS total FROM fills
        WHERE order_id IN (SELECT value FROM json_each(?)) AND kind = 'trade' AND state != 'failed'
        GROUP BY order_id`,
    );
    this.orderFillsSince = db.prepare(
      `SELECT order_id, size_raw AS total FROM fills
        WHERE order_id IN (SELECT value FROM json_each(?)) AND kind = 'trade' AND state != 'failed' AND recorded_at_ms >= ?
        ORDER BY id`,
    );
    this.pending = db.prepare(
      `SELECT market_slug, token, SUM(CASE side WHEN 'BUY' THEN size_raw ELSE -size_raw END) AS total
         FROM fills WHERE state = 'provisional' GROUP BY market_slug, token`,
    );
    this.activity = db.prepare(
      `SELECT market_slug,
         SUM(CASE kind WHEN 'trade' THEN 1 ELSE 0 END) AS fill_count,
         SUM(CASE kind WHEN 'trade' THEN collateral_raw ELSE 0 END) AS volume_raw,
         SUM(fee_raw) AS fees_raw,
         SUM(realized_delta_raw) AS realized_raw
       FROM fills WHERE state != 'failed' AND at_ms >= ? AND at_ms < ? GROUP BY market_slug ORDER BY market_slug`,
    );
    this.tokenIdOf = db.prepare(
      `SELECT token_id FROM fills WHERE market_slug = ? AND token = ? AND token_id != ''
       UNION ALL SELECT token_id FROM orders WHERE market_slug = ? AND token = ? LIMIT 1`,
    );
  }

  record(input: FillInput): FillOutcome {
    const fill = normaliseFill(input);
    return this.ctx.write('recordFill', () => this.merge(fill));
  }

  /** Several fills in ONE transaction (all validated first: one bad input writes none). */
  recordMany(inputs: readonly FillInput[]): FillOutcome[] {
    const fills = inputs.map((input, index) => {
      try {
        return normaliseFill(input);
      } catch (error) {
        if (error instanceof LedgerInputError) {
          throw new LedgerInputError(`fills[${index}].${error.field}`, error.value, error.reason);
        }
        throw error;
      }
    });
    return this.ctx.write('recordFills', () => fills.map((fill) => this.merge(fill)));
  }

  fail(key: FillKey, details: { reason: string; atMs: number }): FailOutcome {
    const checked = normaliseFillKey(key);
    const reason = checkReason('reason', details.reason);
    const atMs = checkTimeMs('atMs', details.atMs);
    return this.ctx.write('failFill', () => {
      const stored = this.find(checked);
      if (stored === null) {
        const added = this.tombstone.run(checked.tradeEventId, checked.orderId, reason, atMs).changes === 1;
        return added ? 'pending' : 'duplicate';
      }
      if (stored.state === 'failed') return 'duplicate';
      this.markFailed(stored, reason);
      this.ctx.notify((observer) => observer.onFill?.('updated', 'failed', stored.source));
      return 'updated';
    });
  }

  /**
   * Advances a provisional fill to mined without touching its economics (size, price, collateral, fee, time): the
   * venue's balances show it settled though its MINED report never came. Keeps the merge rule (a mined or failed
   * fill is left as it is). True when the state advanced. Inside a transaction.
   */
  confirm(stored: FillRecord, reason: string): boolean {
    if (stored.state !== 'provisional') return false;
    this.setState.run({ id: stored.id, state: 'mined', reason, txHash: null, now: this.ctx.now() });
    this.ctx.notify((observer) => observer.onFill?.('updated', 'mined', stored.source));
    return true;
  }

  find(key: FillKey): FillRecord | null {
    const row = this.byKey.get(key.tradeEventId, key.orderId);
    return row === undefined ? null : toFill(row);
  }

  forOrder(orderId: string): FillRecord[] {
    return this.byOrder.all(orderId).map(toFill);
  }

  provisional(): FillRecord[] {
    return this.provisionalRows.all().map(toFill);
  }

  /** Σ size of trades that have not failed, per order id (orders without fills are absent). */
  filledByOrder(orderIds: readonly string[]): Map<string, number> {
    const totals = new Map<string, number>();
    for (const raw of this.orderTotals.all(JSON.stringify(orderIds))) {
      const row = orderTotalRowSchema.parse(raw);
      totals.set(row.order_id, row.total);
    }
    return totals;
  }

  /** Sizes of the trades (not failed) of these orders recorded at or after `sinceMs`, per order id, in booking order. */
  recordedSinceByOrder(orderIds: readonly string[], sinceMs: number): Map<string, number[]> {
    const sizes = new Map<string, number[]>();
    for (const raw of this.orderFillsSince.all(JSON.stringify(orderIds), sinceMs)) {
      const row = orderTotalRowSchema.parse(raw);
      const list = sizes.get(row.order_id) ?? [];
      list.push(row.total);
      sizes.set(row.order_id, list);
    }
    return sizes;
  }

  /** Signed size of still-provisional fills per "market|token". */
  pendingByKey(): Map<string, number> {
    const totals = new Map<string, number>();
    for (const raw of this.pending.all()) {
      const row = pendingRowSchema.parse(raw);
      totals.set(`${row.market_slug}|${row.token}`, row.total);
    }
    return totals;
  }

  /** Per market: trades, volume, fees and trading realized PnL of fills timed in [sinceMs, untilMs). */
  activityBetween(sinceMs: number, untilMs: number = Number.MAX_SAFE_INTEGER): MarketActivity[] {
    return this.activity.all(sinceMs, untilMs).map((raw) => {
      const row = activityRowSchema.parse(raw);
      return {
        marketSlug: row.market_slug,
        fillCount: row.fill_count,
        volumeRaw: row.volume_raw,
        feesRaw: row.fees_raw,
        realizedRaw: row.realized_raw,
      };
    });
  }

  tokenIdFor(marketSlug: string, token: Outcome): string | null {
    const row = this.tokenIdOf.get(marketSlug, token, marketSlug, token);
    return row === undefined ? null : tokenIdRowSchema.parse(row).token_id;
  }

  /** A reconciliation stand-in for fills the venue reports and the ledger lacks. Inside a transaction. */
  insertSynthetic(input: SyntheticFillInput): FillOutcome {
    if (this.find(input) !== null) return 'duplicate';
    this.insertAndApply({
      ...input,
      collateralRaw: collateralFor(input.sizeRaw, input.priceTicks, input.side),
      feeRaw: 0,
      role: 'maker',
      kind: 'trade',
      source: 'reconcile',
      state: 'mined',
      txHash: null,
    });
    this.ctx.notify((observer) => observer.onFill?.('inserted', 'mined', 'reconcile'));
    return 'inserted';
  }

  /** A position correction (no trade, no realized PnL). Inside a transaction. */
  insertAdjustment(input: AdjustmentInput): FillOutcome {
    if (this.find({ tradeEventId: input.tradeEventId, orderId: '-' }) !== null) return 'duplicate';
    const increase = input.deltaRaw > 0;
    const sizeRaw = Math.abs(input.deltaRaw);
    this.insertAndApply({
      tradeEventId: input.tradeEventId,
      orderId: '-',
      clientOrderId: null,
      marketSlug: input.marketSlug,
      token: input.token,
      tokenId: input.tokenId,
      side: increase ? 'BUY' : 'SELL',
      priceTicks: null,
      sizeRaw,
      collateralRaw: increase ? markValue(sizeRaw, input.priceMicros) : 0,
      feeRaw: 0,
      role: null,
      kind: 'adjustment',
      source: 'reconcile',
      state: 'mined',
      reason: input.reason,
      txHash: null,
      atMs: input.atMs,
    });
    return 'inserted';
  }

  /**
   * One leg of a complete-set merge (inside a transaction): `sizeRaw` tokens leave a long position with `collateralRaw`,
   * their share of the set's USDC (src/ledger/position-math.ts: it realizes that minus their basis). Keyed
   * (`merge:<hash>:<token>`, '-'): 'duplicate' when booked.
   */
  insertMergeLeg(input: { readonly hash: string; readonly marketSlug: string; readonly token: 'YES' | 'NO'; readonly tokenId: string; readonly sizeRaw: number; readonly collateralRaw: number; readonly atMs: number }): FillOutcome {
    const tradeEventId = `merge:${input.hash}:${input.token}`;
    if (this.find({ tradeEventId, orderId: '-' }) !== null) return 'duplicate';
    this.insertAndApply({
      tradeEventId,
      orderId: '-',
      clientOrderId: null,
      marketSlug: input.marketSlug,
      token: input.token,
      tokenId: input.tokenId,
      side: 'SELL',
      priceTicks: null,
      sizeRaw: input.sizeRaw,
      collateralRaw: input.collateralRaw,
      feeRaw: 0,
      role: null,
      kind: 'adjustment',
      source: 'reconcile',
      state: 'mined',
      reason: `complete-set merge ${input.hash}`,
      txHash: input.hash,
      atMs: input.atMs,
    });
    return 'inserted';
  }

  /** Reverses a fill (inside a transaction). */
  markFailed(stored: FillRecord, reason: string): void {
    this.setFailed(stored, reason);
    this.positions.replay(stored.marketSlug, stored.token);
  }

  private setFailed(stored: FillRecord, reason: string): void {
    this.setState.run({ id: stored.id, state: 'failed', reason, txHash: null, now: this.ctx.now() });
    if (stored.state === 'mined' && stored.source === 'venue') {
      this.conflict({ kind: 'fill-failed-after-mined', key: keyName(stored), detail: reason });
    }
  }

  private merge(fill: NormalisedFill): FillOutcome {
    const stored = this.find(fill);
    if (stored === null) return this.insertVenueFill(fill);
    const key = keyName(fill);
    const differs = economicDifferences(stored, fill);
    const advances = RANK[fill.state] > RANK[stored.state];
    const state: FillState = advances ? fill.state : stored.state;
    const now = this.ctx.now();
    // Positions to rebuild once at the end: "market|token" → [market, token].
    const replays = new Map<string, FillKeyOfPosition>();
    const replay = (at: FillKeyOfPosition) => replays.set(`${at.marketSlug}|${at.token}`, at);
    let changed = advances;
    let economicsFrom: FillKeyOfPosition = stored;
    if (advances && fill.state === 'failed') {
      this.setFailed(stored, 'settlement FAILED');
      replay(stored);
    } else if (advances) {
      // provisional → mined: the mined report's economics win.
      this.setState.run({ id: stored.id, state: 'mined', reason: null, txHash: fill.txHash, now });
      if (differs.length > 0) {
        this.amend.run({ ...fill, id: stored.id, now });
        this.noteTokenId(fill);
        this.conflict({ kind: 'fill-data-differs', key, detail: `amended by the mined report: ${differs.join(', ')}` });
        replay(stored);
        replay(fill);
        economicsFrom = fill;
      }
    } else {
      if (stored.state === 'failed' && fill.state === 'mined') {
        this.conflict({ kind: 'fill-mined-after-failed', key, detail: 'kept failed' });
      } else if (differs.length > 0) {
        this.conflict({ kind: 'fill-data-differs', key, detail: `kept the stored ${stored.state} data: ${differs.join(', ')}` });
      }
      if (fill.txHash !== null && stored.txHash === null) this.setTxHash.run(fill.txHash, now, stored.id);
    }
    if (fill.atMs < stored.atMs) {
      this.setTime.run(fill.atMs, now, stored.id);
      if (state !== 'failed') replay(economicsFrom);
      changed = true;
    }
    for (const at of replays.values()) this.positions.replay(at.marketSlug, at.token);
    const outcome: FillOutcome = changed ? 'updated' : 'duplicate';
    this.ctx.notify((observer) => observer.onFill?.(outcome, state, stored.source));
    return outcome;
  }

  private insertVenueFill(fill: NormalisedFill): FillOutcome {
    const tombstone = this.findTombstone.get(fill.tradeEventId, fill.orderId);
    const failedReason = tombstone === undefined ? null : z.object({ reason: z.string() }).parse(tombstone).reason;
    const state: FillState = failedReason !== null ? 'failed' : fill.state;
    this.insertAndApply({
      ...fill,
      kind: 'trade',
      source: 'venue',
      state,
      reason: failedReason ?? (fill.state === 'failed' ? 'settlement FAILED' : null),
    });
    if (tombstone !== undefined) this.dropTombstone.run(fill.tradeEventId, fill.orderId);
    if (state === 'mined') this.supersedePlaceholders(fill, () => true);
    else if (state === 'provisional') this.supersedePlaceholders(fill, (placeholder) => placeholder.atMs >= fill.atMs);
    this.ctx.notify((observer) => observer.onFill?.('inserted', state, 'venue'));
    return 'inserted';
  }

  private insertAndApply(row: NewFillRow): void {
    const plan = row.state === 'failed' ? null : this.positions.plan(row);
    const derived = plan?.kind === 'append' ? plan.derived : NO_DERIVED;
    const result = this.insertRow.run({ ...row, ...derived, now: this.ctx.now() });
    if (plan !== null) this.positions.commit({ ...row, id: Number(result.lastInsertRowid) }, plan);
    this.noteTokenId(row);
  }

  /** The position book learns the token id of a fill row (the first one of its market and token wins, as in `tokenIdFor`). */
  private noteTokenId(row: Pick<NewFillRow, 'marketSlug' | 'token' | 'tokenId'>): void {
    this.ctx.afterCommit(() => this.ctx.book.noteTokenId(row.marketSlug, row.token, row.tokenId, 'fill'));
  }

  /** The venue reported a trade of an order that reconciliation had filled in with stand-ins: retire those `covers` says stood for it. */
  private supersedePlaceholders(fill: NormalisedFill, covers: (placeholder: FillRecord) => boolean): void {
    const placeholders = this.placeholders.all(fill.orderId).map(toFill).filter(covers);
    let uncovered = fill.sizeRaw;
    for (const placeholder of placeholders) {
      if (uncovered === 0) break;
      const reason = `superseded by venue trade ${fill.tradeEventId}`;
      this.setState.run({ id: placeholder.id, state: 'failed', reason, txHash: null, now: this.ctx.now() });
      this.ctx.notify((observer) =>
        observer.onRepair?.({
          kind: 'fill-reversed',
          tradeEventId: placeholder.tradeEventId,
          orderId: placeholder.orderId,
          sizeRaw: placeholder.sizeRaw,
          reason,
        }),
      );
      if (placeholder.sizeRaw > uncovered && placeholder.priceTicks !== null) {
        const restRaw = placeholder.sizeRaw - uncovered;
        this.insertAndApply({
          ...placeholder,
          tradeEventId: `${placeholder.tradeEventId}/rest:${fill.tradeEventId}`,
          sizeRaw: restRaw,
          collateralRaw: collateralFor(restRaw, placeholder.priceTicks, placeholder.side),
          state: 'mined',
          reason: `${placeholder.reason ?? 'reconcile'}; remainder after ${fill.tradeEventId}`,
        });
        uncovered = 0;
      } else {
        uncovered -= Math.min(uncovered, placeholder.sizeRaw);
      }
      this.positions.replay(placeholder.marketSlug, placeholder.token);
    }
  }

  private conflict(conflict: LedgerConflict): void {
    this.ctx.notify((observer) => observer.onConflict?.(conflict));
  }
}

function keyName(key: FillKey): string {
  return `${key.tradeEventId}/${key.orderId}`;
}

function economicDifferences(stored: FillRecord, fill: NormalisedFill): string[] {
  const pairs: ReadonlyArray<readonly [string, unknown, unknown]> = [
    ['marketSlug', stored.marketSlug, fill.marketSlug],
    ['token', stored.token, fill.token],
    ['tokenId', stored.tokenId, fill.tokenId],
    ['side', stored.side, fill.side],
    ['priceTicks', stored.priceTicks, fill.priceTicks],
    ['sizeRaw', stored.sizeRaw, fill.sizeRaw],
    ['collateralRaw', stored.collateralRaw, fill.collateralRaw],
    ['feeRaw', stored.feeRaw, fill.feeRaw],
    ['role', stored.role, fill.role],
  ];
  return pairs.filter(([, was, now]) => was !== now).map(([field, was, now]) => `${field} ${String(was)}→${String(now)}`);
}

