/**
 * The ledger's record of what the venue PAID (migration 5, `venue_payouts`): one row per paid epoch and market (market
 * '*' is the account's total of the epoch), with the epoch's span, the rewards and the rebates paid (null: the venue's
 * answer did not say), when it was paid and which part of the answer said so. Beside it, the estimate rows a
 * reconciliation needs: the reward minutes (with the span their samples cover) and the maker rebates inside a span.
 *
 * Owns: the SQL of `venue_payouts` and those span reads. Invariants: an epoch of a market is booked once, keyed by
 * (market, epoch end): a second report of it (the next poll, a restart, the same epoch in another list of the answer)
 * writes nothing and says so; a booked payout is never changed; amounts are raw 1e6 integers; a failed fill's rebate is
 * left out; bad input is a LedgerInputError naming the field and writes nothing.
 */
import { z } from 'zod';
import type { LedgerContext } from './context.js';
import { LedgerInputError } from './errors.js';
import { checkId, checkRaw, checkTimeMs } from './validate.js';

export interface VenuePayoutInput {
  /** A market slug, or VENUE_TOTAL_MARKET ('*') for the account's total of the epoch. */
  readonly marketSlug: string;
  readonly epochEndMs: number;
  /** null when the venue did not say when the epoch began. */
  readonly epochStartMs: number | null;
  readonly rewardsRaw: number | null;
  readonly rebatesRaw: number | null;
  readonly paidAtMs: number | null;
  /** Which part of the answer reported it (e.g. `rewardsByEpoch`, `clob.rewards.epochs`). */
  readonly source: string;
}

export interface VenuePayoutRow extends VenuePayoutInput {
  readonly recordedAtMs: number;
}

/** A reward minute as a reconciliation reads it: the span its samples cover [coveredFromMs, coveredToMs) (null: the whole minute, one sample). */
export interface MinuteEstimateRow {
  readonly marketSlug: string;
  readonly minuteMs: number;
  readonly rewardRaw: number;
  readonly samples: number;
  readonly coveredFromMs: number | null;
  readonly coveredToMs: number | null;
}

export interface RebateEstimateRow {
  readonly marketSlug: string;
  readonly atMs: number;
  readonly rebateRaw: number;
  /** 'trade': resolved from the public trade feed; else the prior's estimate (pending, or never matched). */
  readonly resolution?: 'pending' | 'trade' | 'unmatched';
  /** The prior's estimate a trade replaced; null when not resolved. */
  readonly priorRebateRaw?: number | null;
}

const payoutSchema = z.object({
  market_slug: z.string(),
  epoch_end_ms: z.number().int(),
  epoch_start_ms: z.number().int().nullable(),
  rewards_raw: z.number().int().nullable(),
  rebates_raw: z.number().int().nullable(),
  paid_at_ms: z.number().int().nullable(),
  source: z.string(),
  recorded_at_ms: z.number().int(),
});
const minuteSchema = z.object({
  market_slug: z.string(),
  minute_ms: z.number().int(),
  reward_raw: z.number().int(),
  samples: z.number().int(),
  covered_from_ms: z.number().int().nullable(),
  covered_to_ms: z.number().int().nullable(),
});
const rebateSchema = z.object({
  market_slug: z.string(),
  at_ms: z.number().int(),
  rebate_raw: z.number().int(),
  resolution: z.enum(['pending', 'trade', 'unmatched']),
  prior_rebate_raw: z.number().int().nullable(),
});

const optionalRaw = (field: string, value: number | null): number | null => (value === null ? null : checkRaw(field, value));
const optionalTime = (field: string, value: number | null): number | null => (value === null ? null : checkTimeMs(field, value));

export class PayoutsRepo {
  private readonly insertPayout;
  private readonly payoutRows;
  private readonly minuteRows;
  private readonly rebateRows;

  constructor(private readonly ctx: LedgerContext) {
    const db = ctx.db;
    this.insertPayout = db.prepare(
      `INSERT INTO venue_payouts (market_slug, epoch_end_ms, epoch_start_ms, rewards_raw, rebates_raw, paid_at_ms, source, recorded_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (market_slug, epoch_end_ms) DO NOTHING`,
    );
    this.payoutRows = db.prepare(
      `SELECT market_slug, epoch_end_ms, epoch_start_ms, rewards_raw, rebates_raw, paid_at_ms, source, recorded_at_ms FROM venue_payouts
        WHERE epoch_end_ms > @sinceMs AND (@market IS NULL OR market_slug = @market OR market_slug = '*')
        ORDER BY epoch_end_ms, market_slug`,
    );
    this.minuteRows = db.prepare(
      `SELECT market_slug, minute_ms, reward_raw, samples, covered_from_ms, covered_to_ms FROM reward_minutes
        WHERE minute_ms >= @fromMs - 60000 AND minute_ms < @toMs AND (@market IS NULL OR market_slug = @market)
        ORDER BY minute_ms, market_slug`,
    );
    this.rebateRows = db.prepare(
      `SELECT r.market_slug, r.at_ms, r.rebate_raw, r.resolution, r.prior_rebate_raw FROM maker_rebates r JOIN fills f ON f.id = r.fill_id
        WHERE f.state != 'failed' AND r.at_ms >= @fromMs AND r.at_ms < @toMs AND (@market IS NULL OR r.market_slug = @market)
        ORDER BY r.at_ms`,
    );
  }

  /** Books a paid epoch of a market (or the total); false when that (market, epoch end) was booked before. */
  recordPayout(input: VenuePayoutInput): boolean {
    const end = checkTimeMs('venuePayout.epochEndMs', input.epochEndMs);
    const start = optionalTime('venuePayout.epochStartMs', input.epochStartMs);
    if (start !== null && start > end) throw new LedgerInputError('venuePayout.epochStartMs', start, `must not be after the epoch's end ${end}`);
    const rewards = optionalRaw('venuePayout.rewardsRaw', input.rewardsRaw);
    const rebates = optionalRaw('venuePayout.rebatesRaw', input.rebatesRaw);
    if (rewards === null && rebates === null) throw new LedgerInputError('venuePayout.rewardsRaw', null, 'a payout needs rewards or rebates');
    const row = [
      checkId('venuePayout.marketSlug', input.marketSlug),
      end,
      start,
      rewards,
      rebates,
      optionalTime('venuePayout.paidAtMs', input.paidAtMs),
      checkId('venuePayout.source', input.source),
    ] as const;
    return this.ctx.write('recordVenuePayout', () => this.insertPayout.run(...row, this.ctx.now()).changes === 1);
  }

  /** Paid epochs ending after `sinceMs` (a market's rows and the totals' when a market is given), oldest first. */
  payouts(query: { readonly sinceMs?: number | undefined; readonly marketSlug?: string | undefined } = {}): VenuePayoutRow[] {
    return this.payoutRows.all({ sinceMs: query.sinceMs ?? 0, market: query.marketSlug ?? null }).map((raw) => {
      const r = payoutSchema.parse(raw);
      return {
        marketSlug: r.market_slug,
        epochEndMs: r.epoch_end_ms,
        epochStartMs: r.epoch_start_ms,
        rewardsRaw: r.rewards_raw,
        rebatesRaw: r.rebates_raw,
        paidAtMs: r.paid_at_ms,
        source: r.source,
        recordedAtMs: r.recorded_at_ms,
      };
    });
  }

  /** Reward minutes that may overlap [fromMs, toMs). */
  minutesBetween(fromMs: number, toMs: number, marketSlug?: string): MinuteEstimateRow[] {
    return this.minuteRows.all({ fromMs, toMs, market: marketSlug ?? null }).map((raw) => {
      const r = minuteSchema.parse(raw);
      return { marketSlug: r.market_slug, minuteMs: r.minute_ms, rewardRaw: r.reward_raw, samples: r.samples, coveredFromMs: r.covered_from_ms, coveredToMs: r.covered_to_ms };
    });
  }

  /** Maker rebate estimates of fills in [fromMs, toMs) (failed fills left out). */
  rebatesBetween(fromMs: number, toMs: number, marketSlug?: string): RebateEstimateRow[] {
    return this.rebateRows.all({ fromMs, toMs, market: marketSlug ?? null }).map((raw) => {
      const r = rebateSchema.parse(raw);
      return { marketSlug: r.market_slug, atMs: r.at_ms, rebateRaw: r.rebate_raw, resolution: r.resolution, priorRebateRaw: r.prior_rebate_raw };
    });
  }
}
