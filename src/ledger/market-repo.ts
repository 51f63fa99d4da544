/**
 * Per-market facts that are not fills: marks (the last known YES mid, written periodically by the bot),
 * the mark in force at each UTC midnight (for the daily PnL), resolutions and redemptions.
 *
 * Invariants: a mark older than the stored one is ignored; the day-open mark of a day is written once
 * (the mark in force at 00:00 UTC, or the day's first mark when there was none); a resolution repeated
 * identically is a no-op and a changed one replaces it with a conflict reported; a redemption is unique
 * by its id (default: one per market, as one redeem call pays out the whole market).
 */
import { z } from 'zod';
import type { LedgerContext } from './context.js';
import { utcDayStart } from './pnl.js';
import { markRowSchema, resolutionRowSchema } from './rows.js';
import type { Mark, Resolution, ResolutionInput, ResolutionOutcome } from './types.js';
import { checkId, checkMid, checkOptionalId, checkRaw, checkTimeMs, normaliseResolution } from './validate.js';

export type MarkOutcome = 'recorded' | 'stale';
export type RedemptionOutcome = 'inserted' | 'duplicate';

export interface MarkInput {
  readonly marketSlug: string;
  /** YES mid in price units, strictly between 0 and 1 (e.g. BookView.mid). */
  readonly mid: number;
  readonly atMs: number;
}

export interface RedemptionDetails {
  readonly atMs: number;
  /** Idempotency key; defaults to the market (one redemption per market). */
  readonly redemptionId?: string | undefined;
  readonly txHash?: string | undefined;
}

const midRowSchema = z.object({ mid_micros: z.number().int() });
const redemptionRowSchema = z.object({ amount_raw: z.number().int() });
const redeemedRowSchema = z.object({ market_slug: z.string(), total: z.number().int() });

export class MarketRepo {
  private readonly markOf;
  private readonly upsertMark;
  private readonly insertDayOpen;
  private readonly dayOpen;
  private readonly allMarks;
  private readonly resolutionOf;
  private readonly allResolutions;
  private readonly upsertResolution;
  private readonly redemptionOf;
  private readonly insertRedemption;
  private readonly redeemedTotals;

  constructor(private readonly ctx: LedgerContext) {
    const db = ctx.db;
    this.markOf = db.prepare(`SELECT market_slug, mid_micros, at_ms FROM marks WHERE market_slug = ?`);
    this.upsertMark = db.prepare(
      `INSERT INTO marks (market_slug, mid_micros, at_ms) VALUES (?, ?, ?)
       ON CONFLICT (market_slug) DO UPDATE SET mid_micros = excluded.mid_micros, at_ms = excluded.at_ms`,
    );
    this.insertDayOpen = db.prepare(
      `INSERT OR IGNORE INTO mark_day_open (market_slug, day_start_ms, mid_micros) VALUES (?, ?, ?)`,
    );
    this.dayOpen = db.prepare(`SELECT mid_micros FROM mark_day_open WHERE market_slug = ? AND day_start_ms = ?`);
    this.allMarks = db.prepare(`SELECT market_slug, mid_micros, at_ms FROM marks ORDER BY market_slug`);
    this.resolutionOf = db.prepare(
      `SELECT market_slug, winning_outcome_index, payout_yes, payout_no, resolved_at_ms FROM resolutions
        WHERE market_slug = ?`,
    );
    this.allResolutions = db.prepare(
      `SELECT market_slug, winning_outcome_index, payout_yes, payout_no, resolved_at_ms FROM resolutions
        ORDER BY market_slug`,
    );
    this.upsertResolution = db.prepare(
      `INSERT INTO resolutions (market_slug, winning_outcome_index, payout_yes, payout_no, resolved_at_ms,
         recorded_at_ms) VALUES (@marketSlug, @winningOutcomeIndex, @payoutYes, @payoutNo, @resolvedAtMs, @now)
       ON CONFLICT (market_slug) DO UPDATE SET winning_outcome_index = excluded.winning_outcome_index,
         payout_yes = excluded.payout_yes, payout_no = excluded.payout_no, resolved_at_ms = excluded.resolved_at_ms,
         recorded_at_ms = excluded.recorded_at_ms`,
    );
    this.redemptionOf = db.prepare(`SELECT amount_raw FROM redemptions WHERE redemption_id = ?`);
    this.insertRedemption = db.prepare(
      `INSERT INTO redemptions (redemption_id, market_slug, amount_raw, tx_hash, at_ms, recorded_at_ms)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.redeemedTotals = db.prepare(
      `SELECT market_slug, SUM(amount_raw) AS total FROM redemptions GROUP BY market_slug ORDER BY market_slug`,
    );
  }

  recordMark(input: MarkInput): MarkOutcome {
    return this.recordMarks([input])[0] ?? 'stale';
  }

  /** Several marks in one transaction (the bot's periodic update of every market). */
  recordMarks(inputs: readonly MarkInput[]): MarkOutcome[] {
    const marks = inputs.map((input, index) => ({
      marketSlug: checkId(`marks[${index}].marketSlug`, input.marketSlug),
      midMicros: checkMid(`marks[${index}].mid`, input.mid),
      atMs: checkTimeMs(`marks[${index}].atMs`, input.atMs),
    }));
    return this.ctx.write('recordMarks', () =>
      marks.map((mark): MarkOutcome => {
        const stored = this.getMark(mark.marketSlug);
        if (stored !== null && stored.atMs > mark.atMs) return 'stale';
        // The mark in force at this mark's midnight: the stored one if there is one, else this one.
        this.insertDayOpen.run(mark.marketSlug, utcDayStart(mark.atMs), stored?.midMicros ?? mark.midMicros);
        this.upsertMark.run(mark.marketSlug, mark.midMicros, mark.atMs);
        return 'recorded';
      }),
    );
  }

  getMark(marketSlug: string): Mark | null {
    const row = this.markOf.get(marketSlug);
    if (row === undefined) return null;
    const parsed = markRowSchema.parse(row);
    return { marketSlug: parsed.market_slug, midMicros: parsed.mid_micros, atMs: parsed.at_ms };
  }

  marks(): Mark[] {
    return this.allMarks.all().map((row) => {
      const parsed = markRowSchema.parse(row);
      return { marketSlug: parsed.market_slug, midMicros: parsed.mid_micros, atMs: parsed.at_ms };
    });
  }

  /** The mark in force at `dayStartMs` (or that day's first mark); null when the ledger has none. */
  dayOpenMark(marketSlug: string, dayStartMs: number): number | null {
    const row = this.dayOpen.get(marketSlug, dayStartMs);
    if (row !== undefined) return midRowSchema.parse(row).mid_micros;
    const latest = this.getMark(marketSlug);
    return latest !== null && latest.atMs < dayStartMs ? latest.midMicros : null;
  }

  recordResolution(marketSlug: string, input: ResolutionInput, resolvedAtMs: number): ResolutionOutcome {
    const slug = checkId('resolution.marketSlug', marketSlug);
    const payout = normaliseResolution(input);
    const at = checkTimeMs('resolution.resolvedAtMs', resolvedAtMs);
    return this.ctx.write('recordResolution', () => {
      const stored = this.getResolution(slug);
      if (
        stored !== null &&
        stored.winningOutcomeIndex === payout.winningOutcomeIndex &&
        stored.payoutYes === payout.payoutYes &&
        stored.payoutNo === payout.payoutNo
      ) {
        return 'duplicate';
      }
      this.upsertResolution.run({ marketSlug: slug, ...payout, resolvedAtMs: at, now: this.ctx.now() });
      if (stored === null) return 'inserted';
      this.ctx.notify((observer) =>
        observer.onConflict?.({
          kind: 'resolution-changed',
          key: slug,
          detail: `payout ${stored.payoutYes}/${stored.payoutNo} → ${payout.payoutYes}/${payout.payoutNo}`,
        }),
      );
      return 'updated';
    });
  }

  getResolution(marketSlug: string): Resolution | null {
    const row = this.resolutionOf.get(marketSlug);
    return row === undefined ? null : toResolution(row);
  }

  resolutions(): Resolution[] {
    return this.allResolutions.all().map(toResolution);
  }

  recordRedemption(marketSlug: string, amountRaw: number, details: RedemptionDetails): RedemptionOutcome {
    const slug = checkId('redemption.marketSlug', marketSlug);
    const amount = checkRaw('redemption.amountRaw', amountRaw);
    const atMs = checkTimeMs('redemption.atMs', details.atMs);
    const id = details.redemptionId === undefined ? `market:${slug}` : checkId('redemption.redemptionId', details.redemptionId);
    const txHash = checkOptionalId('redemption.txHash', details.txHash);
    return this.ctx.write('recordRedemption', () => {
      const stored = this.redemptionOf.get(id);
      if (stored !== undefined) {
        const was = redemptionRowSchema.parse(stored).amount_raw;
        if (was !== amount) {
          this.ctx.notify((observer) =>
            observer.onConflict?.({ kind: 'redemption-differs', key: id, detail: `kept ${was}, got ${amount}` }),
          );
        }
        return 'duplicate';
      }
      this.insertRedemption.run(id, slug, amount, txHash, atMs, this.ctx.now());
      this.ctx.afterCommit(() => this.ctx.book.markRedeemed(slug));
      return 'inserted';
    });
  }

  /** Σ redeemed per market. */
  redeemed(): Map<string, number> {
    const totals = new Map<string, number>();
    for (const raw of this.redeemedTotals.all()) {
      const row = redeemedRowSchema.parse(raw);
      totals.set(row.market_slug, row.total);
    }
    return totals;
  }
}

function toResolution(row: unknown): Resolution {
  const parsed = resolutionRowSchema.parse(row);
  return {
    marketSlug: parsed.market_slug,
    winningOutcomeIndex: parsed.winning_outcome_index,
    payoutYes: parsed.payout_yes,
    payoutNo: parsed.payout_no,
    resolvedAtMs: parsed.resolved_at_ms,
  };
}
