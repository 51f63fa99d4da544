/**
 * The resolution of maker rebate estimates from the public trade feed (migration 6 columns of `maker_rebates`): which
 * rows still carry the prior's estimate (`resolution = 'pending'`), the corrected estimate of a row whose trade was
 * found (`fee_source = 'trade'`, the taker's branch and kind of match; the prior's rebate kept in `prior_rebate_raw`),
 * and the rows whose trade was never found in time (`unmatched`: they keep the prior's estimate).
 *
 * Owns: the SQL of that resolution. Invariants: a row leaves 'pending' once and never returns (every update is
 * guarded by `resolution = 'pending'`), so a restart neither re-resolves nor double-books; amounts are raw 1e6
 * integers; bad input is a LedgerInputError naming the field and writes nothing.
 */
import { z } from 'zod';
import type { LedgerContext } from './context.js';
import { LedgerInputError } from './errors.js';
import { checkRaw, checkTimeMs } from './validate.js';

export type RebateResolution = 'pending' | 'trade' | 'unmatched';

/** A maker fill whose rebate is still the prior's estimate, with what the trade-feed match needs. */
export interface PendingRebate {
  readonly fillId: number;
  readonly marketSlug: string;
  readonly tokenId: string;
  /** The maker's side. */
  readonly side: 'BUY' | 'SELL';
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly atMs: number;
  /** The fill's transaction; null until the venue mined it. */
  readonly txHash: string | null;
  readonly feeSource: 'event' | 'curve';
  readonly takerFeeBps: number;
  readonly rebateRate: number;
  readonly rebateRaw: number;
}

export interface RebateResolutionInput {
  readonly fillId: number;
  readonly takerSide: 'BUY' | 'SELL';
  readonly matchKind: 'same' | 'complementary';
  readonly takerFeeBps: number;
  readonly takerFeeRaw: number;
  readonly rebateRaw: number;
  readonly resolvedAtMs: number;
}

export type ResolutionCounts = Readonly<Record<RebateResolution, number>>;

const pendingSchema = z.object({
  fill_id: z.number().int(),
  market_slug: z.string(),
  token_id: z.string(),
  side: z.enum(['BUY', 'SELL']),
  price_ticks: z.number().int(),
  size_raw: z.number().int(),
  at_ms: z.number().int(),
  tx_hash: z.string().nullable(),
  fee_source: z.enum(['event', 'curve']),
  taker_fee_bps: z.number(),
  rebate_rate: z.number(),
  rebate_raw: z.number().int(),
});
const countSchema = z.object({ resolution: z.enum(['pending', 'trade', 'unmatched']), n: z.number().int() });

export class RebateResolutionRepo {
  private readonly pendingRows;
  private readonly resolveRow;
  private readonly expireRows;
  private readonly countRows;

  constructor(private readonly ctx: LedgerContext) {
    const db = ctx.db;
    this.pendingRows = db.prepare(
      `SELECT r.fill_id, r.market_slug, f.token_id, f.side, f.price_ticks, f.size_raw, r.at_ms, f.tx_hash, r.fee_source,
              r.taker_fee_bps, r.rebate_rate, r.rebate_raw
         FROM maker_rebates r JOIN fills f ON f.id = r.fill_id
        WHERE r.resolution = 'pending' AND f.state != 'failed' AND f.price_ticks IS NOT NULL
          AND r.market_slug IN (SELECT value FROM json_each(@markets))
        ORDER BY r.at_ms, r.fill_id LIMIT @limit`,
    );
    this.resolveRow = db.prepare(
      `UPDATE maker_rebates SET fee_source = 'trade', resolution = 'trade', prior_rebate_raw = rebate_raw, taker_side = @side,
              match_kind = @match, taker_fee_bps = @bps, taker_fee_raw = @fee, rebate_raw = @rebate, resolved_at_ms = @at
        WHERE fill_id = @fillId AND resolution = 'pending'`,
    );
    this.expireRows = db.prepare(`UPDATE maker_rebates SET resolution = 'unmatched', resolved_at_ms = @now WHERE resolution = 'pending' AND at_ms < @before`);
    this.countRows = db.prepare(
      `SELECT r.resolution, COUNT(*) AS n FROM maker_rebates r JOIN fills f ON f.id = r.fill_id WHERE f.state != 'failed' GROUP BY r.resolution`,
    );
  }

  /** Pending maker rebates of `markets` (not failed), oldest fill first, at most `limit`. */
  pending(markets: readonly string[], limit = 1000): PendingRebate[] {
    if (markets.length === 0) return [];
    return this.pendingRows.all({ markets: JSON.stringify(markets), limit }).map((raw) => {
      const r = pendingSchema.parse(raw);
      return {
        fillId: r.fill_id,
        marketSlug: r.market_slug,
        tokenId: r.token_id,
        side: r.side,
        priceTicks: r.price_ticks,
        sizeRaw: r.size_raw,
        atMs: r.at_ms,
        txHash: r.tx_hash,
        feeSource: r.fee_source,
        takerFeeBps: r.taker_fee_bps,
        rebateRate: r.rebate_rate,
        rebateRaw: r.rebate_raw,
      };
    });
  }

  /** Books the trade-resolved estimate of a pending row; false when the row is not pending (resolved before, or absent). */
  resolve(input: RebateResolutionInput): boolean {
    if (!Number.isSafeInteger(input.fillId) || input.fillId <= 0) throw new LedgerInputError('rebateResolution.fillId', input.fillId, 'must be a positive integer');
    if (input.takerSide !== 'BUY' && input.takerSide !== 'SELL') throw new LedgerInputError('rebateResolution.takerSide', input.takerSide, 'must be BUY or SELL');
    if (input.matchKind !== 'same' && input.matchKind !== 'complementary') throw new LedgerInputError('rebateResolution.matchKind', input.matchKind, 'must be same or complementary');
    if (!Number.isFinite(input.takerFeeBps) || input.takerFeeBps < 0) throw new LedgerInputError('rebateResolution.takerFeeBps', input.takerFeeBps, 'must be a finite number ≥ 0');
    const row = {
      fillId: input.fillId,
      side: input.takerSide,
      match: input.matchKind,
      bps: input.takerFeeBps,
      fee: checkRaw('rebateResolution.takerFeeRaw', input.takerFeeRaw),
      rebate: checkRaw('rebateResolution.rebateRaw', input.rebateRaw),
      at: checkTimeMs('rebateResolution.resolvedAtMs', input.resolvedAtMs),
    };
    return this.ctx.write('resolveMakerRebate', () => this.resolveRow.run(row).changes === 1);
  }

  /** Marks every pending row of a fill before `beforeMs` unmatched (it keeps the prior's estimate); returns how many. */
  expire(beforeMs: number, nowMs: number): number {
    const before = checkTimeMs('rebateResolution.beforeMs', beforeMs);
    const now = checkTimeMs('rebateResolution.nowMs', nowMs);
    return this.ctx.write('expireMakerRebates', () => this.expireRows.run({ before, now }).changes);
  }

  /** How many maker rebates (of fills not failed) are pending, resolved from the trade feed, or never matched. */
  counts(): ResolutionCounts {
    const out: Record<RebateResolution, number> = { pending: 0, trade: 0, unmatched: 0 };
    for (const raw of this.countRows.all()) {
      const r = countSchema.parse(raw);
      out[r.resolution] = r.n;
    }
    return out;
  }
}
