/**
 * The ledger's reward and rebate tables (migration 3): the bot's ESTIMATED liquidity reward per (market, minute)
 * (`reward_minutes`), its ESTIMATED maker rebate per maker fill (`maker_rebates`), and what the venue itself reports
 * per (UTC day, market) (`venue_rewards`; market '*' is the venue's total), so the estimates' error is visible.
 *
 * Owns: the SQL of those tables and their sums per market, strategy and day. Invariants: a minute row is keyed by
 * market + minute and a rebate row by fill id, each written at most once and never changed (a second write is ignored
 * and reported as not inserted), so accruals are exactly-once across restarts; a venue row is the day's latest
 * reading (replaced by a later one of the same day); amounts are raw 1e6 integers; a failed fill's rebate is left out
 * of every sum; bad input is a LedgerInputError naming the field and writes nothing.
 */
import { z } from 'zod';
import type { LedgerContext } from './context.js';
import { LedgerInputError } from './errors.js';
import { DAY_MS, utcDayStart } from './pnl.js';
import { checkId, checkRaw, checkTimeMs } from './validate.js';

export const MINUTE_MS = 60_000;
/** The `venue_rewards` market of the venue's account-wide total. */
export const VENUE_TOTAL_MARKET = '*';

export interface RewardMinuteInput {
  readonly marketSlug: string;
  /** The minute's start (a multiple of 60 000 ms). */
  readonly minuteMs: number;
  readonly strategy: string;
  readonly botScore: number;
  readonly othersScore: number;
  /** botScore / (botScore + othersScore), 0..1. */
  readonly share: number;
  /** The minute's pool (dailyReward / 1440), raw USDC. */
  readonly poolRaw: number;
  /** share × pool, raw USDC (an estimate). */
  readonly rewardRaw: number;
}

/** One sample of a minute (time-weighted scoring): it adds `weight` of the minute at this sample's share. */
export interface RewardSampleInput {
  readonly marketSlug: string;
  /** The minute's start (a multiple of 60 000 ms). */
  readonly minuteMs: number;
  /** When the sample was taken (inside the minute). */
  readonly sampleMs: number;
  readonly strategy: string;
  readonly botScore: number;
  readonly othersScore: number;
  /** This sample's share of the pool, 0..1. */
  readonly share: number;
  /** The minute's pool (dailyReward / 1440), raw USDC. */
  readonly poolRaw: number;
  /** The part of the minute one sample stands for (sample interval ÷ minute), 0..1. */
  readonly weight: number;
  /** This sample's reward: floor(share × pool × weight), raw USDC (an estimate). */
  readonly rewardRaw: number;
  /** A sample starting more than this before the end of what the row covers is ignored (the same sample again, e.g. after a restart). */
  readonly minGapMs: number;
}

export interface MakerRebateInput {
  readonly fillId: number;
  readonly marketSlug: string;
  readonly strategy: string;
  readonly atMs: number;
  readonly takerFeeBps: number;
  /**
   * 'event': the fill's report carried the taker's fee; 'curve': the fee curve (src/core/venue-rules/fees.ts). A
   * recorded estimate is the prior's; the trade feed resolves it later (src/ledger/rebate-resolution-repo.ts).
   */
  readonly feeSource: 'event' | 'curve';
  readonly takerFeeRaw: number;
  readonly rebateRate: number;
  readonly rebateRaw: number;
  /** The taker's fee branch assumed; null (or absent): the prior's blend of both kinds of match. */
  readonly takerSide?: 'BUY' | 'SELL' | null;
  /** 'same' or 'complementary' where one kind was assumed; null (or absent): the blend. */
  readonly matchKind?: 'same' | 'complementary' | null;
  /** The share of buying takers the prior assumed (0..1); null (or absent): none. */
  readonly priorShare?: number | null;
}

export interface VenueRewardInput {
  readonly dayStartMs: number;
  /** A market slug, or VENUE_TOTAL_MARKET for the account's total. */
  readonly marketSlug: string;
  readonly rewardRaw: number;
  readonly readAtMs: number;
}

/** A maker fill the rebate accrual has not estimated yet. */
export interface UnrebatedFill {
  readonly fillId: number;
  readonly marketSlug: string;
  readonly side: 'BUY' | 'SELL';
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly collateralRaw: number;
  readonly atMs: number;
}

/** Sums of one (market, strategy, UTC day). */
export interface AccrualRow {
  readonly marketSlug: string;
  readonly strategy: string;
  readonly dayStartMs: number;
  readonly rewardRaw: number;
  readonly rewardMinutes: number;
  readonly rebateRaw: number;
  readonly rebatedFills: number;
}

export interface VenueRewardRow {
  readonly dayStartMs: number;
  readonly marketSlug: string;
  readonly rewardRaw: number;
  readonly readAtMs: number;
}

export interface AccrualQuery {
  readonly sinceMs?: number | undefined;
  readonly marketSlug?: string | undefined;
}

const accrualRowSchema = z.object({
  market_slug: z.string(),
  strategy: z.string(),
  day: z.number().int(),
  reward: z.number().int(),
  minutes: z.number().int(),
  rebate: z.number().int(),
  fills: z.number().int(),
});
const venueRowSchema = z.object({ day_start_ms: z.number().int(), market_slug: z.string(), reward_raw: z.number().int(), read_at_ms: z.number().int() });
const unrebatedSchema = z.object({
  id: z.number().int(),
  market_slug: z.string(),
  side: z.enum(['BUY', 'SELL']),
  price_ticks: z.number().int(),
  size_raw: z.number().int(),
  collateral_raw: z.number().int(),
  at_ms: z.number().int(),
});
const totalsSchema = z.object({ reward: z.number().int().nullable(), rebate: z.number().int().nullable() });

function checkScore(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new LedgerInputError(field, value, 'must be a finite number ≥ 0');
  return value;
}

function checkChoice<T extends string>(field: string, value: T | null, allowed: readonly T[]): T | null {
  if (value !== null && !allowed.includes(value)) throw new LedgerInputError(field, value, `must be one of ${allowed.join(', ')} or null`);
  return value;
}

function checkFraction(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) throw new LedgerInputError(field, value, 'must be a number in [0, 1]');
  return value;
}

export class RewardsRepo {
  private readonly insertMinute;
  private readonly upsertSample;
  private readonly insertRebate;
  private readonly upsertVenue;
  private readonly unrebated;
  private readonly accrualRows;
  private readonly venueRows;
  private readonly totalsRow;

  constructor(private readonly ctx: LedgerContext) {
    const db = ctx.db;
    this.insertMinute = db.prepare(
      `INSERT INTO reward_minutes (market_slug, minute_ms, strategy, bot_score, others_score, share, pool_raw, reward_raw, recorded_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (market_slug, minute_ms) DO NOTHING`,
    );
    // A minute's first sample inserts its row; each later one adds its weight × share and its reward, at most one
    // minute's worth of weight (share ≤ 1), never the same sample twice (it must start minGapMs before the row's cover
    // ends, or later): the row covers [covered_from_ms, covered_to_ms) of the minute.
    this.upsertSample = db.prepare(
      `INSERT INTO reward_minutes (market_slug, minute_ms, strategy, bot_score, others_score, share, pool_raw, reward_raw, recorded_at_ms, samples, covered_from_ms, covered_to_ms)
       VALUES (@slug, @minute, @strategy, @bot, @others, @weightedShare, @pool, @reward, @now, 1, @at, @to)
       ON CONFLICT (market_slug, minute_ms) DO UPDATE SET
         bot_score = bot_score + (excluded.bot_score - bot_score) / (samples + 1),
         others_score = others_score + (excluded.others_score - others_score) / (samples + 1),
         share = MIN(1.0, share + excluded.share),
         reward_raw = MIN(pool_raw, reward_raw + excluded.reward_raw),
         samples = samples + 1,
         covered_to_ms = MAX(covered_to_ms, excluded.covered_to_ms)
       WHERE reward_minutes.covered_to_ms IS NOT NULL AND excluded.covered_from_ms >= reward_minutes.covered_to_ms - @minGap
         AND reward_minutes.share + excluded.share <= 1.000001`,
    );
    this.insertRebate = db.prepare(
      `INSERT INTO maker_rebates (fill_id, market_slug, strategy, at_ms, taker_fee_bps, fee_source, taker_fee_raw, rebate_rate, rebate_raw,
                                  taker_side, match_kind, prior_share, recorded_at_ms)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM fills WHERE id = ?)
       ON CONFLICT (fill_id) DO NOTHING`,
    );
    this.upsertVenue = db.prepare(
      `INSERT INTO venue_rewards (day_start_ms, market_slug, reward_raw, read_at_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (day_start_ms, market_slug) DO UPDATE SET reward_raw = excluded.reward_raw, read_at_ms = excluded.read_at_ms
       WHERE excluded.read_at_ms >= venue_rewards.read_at_ms`,
    );
    this.unrebated = db.prepare(
      `SELECT f.id, f.market_slug, f.side, f.price_ticks, f.size_raw, f.collateral_raw, f.at_ms FROM fills f
        WHERE f.kind = 'trade' AND f.role = 'maker' AND f.state != 'failed'
          AND f.market_slug IN (SELECT value FROM json_each(@markets))
          AND NOT EXISTS (SELECT 1 FROM maker_rebates r WHERE r.fill_id = f.id)
        ORDER BY f.id LIMIT @limit`,
    );
    const dayOf = (column: string) => `(${column} - (${column} % ${DAY_MS}))`;
    this.accrualRows = db.prepare(
      `SELECT market_slug, strategy, day, SUM(reward) AS reward, SUM(minutes) AS minutes, SUM(rebate) AS rebate, SUM(fills) AS fills FROM (
         SELECT market_slug, strategy, ${dayOf('minute_ms')} AS day, reward_raw AS reward, 1 AS minutes, 0 AS rebate, 0 AS fills
           FROM reward_minutes WHERE minute_ms >= @sinceMs AND (@market IS NULL OR market_slug = @market)
         UNION ALL
         SELECT r.market_slug, r.strategy, ${dayOf('r.at_ms')}, 0, 0, r.rebate_raw, 1
           FROM maker_rebates r JOIN fills f ON f.id = r.fill_id
          WHERE f.state != 'failed' AND r.at_ms >= @sinceMs AND (@market IS NULL OR r.market_slug = @market)
       ) GROUP BY market_slug, strategy, day ORDER BY day, market_slug, strategy`,
    );
    this.venueRows = db.prepare(
      `SELECT day_start_ms, market_slug, reward_raw, read_at_ms FROM venue_rewards
        WHERE day_start_ms >= @sinceDay AND (@market IS NULL OR market_slug = @market OR market_slug = '${VENUE_TOTAL_MARKET}')
        ORDER BY day_start_ms, market_slug`,
    );
    this.totalsRow = db.prepare(
      `SELECT (SELECT SUM(reward_raw) FROM reward_minutes) AS reward,
              (SELECT SUM(r.rebate_raw) FROM maker_rebates r JOIN fills f ON f.id = r.fill_id WHERE f.state != 'failed') AS rebate`,
    );
  }

  /** Records a minute's reward estimate; false when that (market, minute) was already recorded. */
  recordMinute(input: RewardMinuteInput): boolean {
    const slug = checkId('rewardMinute.marketSlug', input.marketSlug);
    const minuteMs = checkTimeMs('rewardMinute.minuteMs', input.minuteMs);
    if (minuteMs % MINUTE_MS !== 0) throw new LedgerInputError('rewardMinute.minuteMs', minuteMs, 'must be the start of a minute');
    const row = [
      slug,
      minuteMs,
      checkId('rewardMinute.strategy', input.strategy),
      checkScore('rewardMinute.botScore', input.botScore),
      checkScore('rewardMinute.othersScore', input.othersScore),
      checkFraction('rewardMinute.share', input.share),
      checkRaw('rewardMinute.poolRaw', input.poolRaw),
      checkRaw('rewardMinute.rewardRaw', input.rewardRaw),
    ] as const;
    return this.ctx.write('recordRewardMinute', () => this.insertMinute.run(...row, this.ctx.now()).changes === 1);
  }

  /** Adds one sample to its minute's row (time-weighted scoring); false when it was ignored (a repeat, or the minute is full). */
  recordMinuteSample(input: RewardSampleInput): boolean {
    const slug = checkId('rewardSample.marketSlug', input.marketSlug);
    const minuteMs = checkTimeMs('rewardSample.minuteMs', input.minuteMs);
    if (minuteMs % MINUTE_MS !== 0) throw new LedgerInputError('rewardSample.minuteMs', minuteMs, 'must be the start of a minute');
    const at = checkTimeMs('rewardSample.sampleMs', input.sampleMs);
    if (at < minuteMs || at >= minuteMs + MINUTE_MS) throw new LedgerInputError('rewardSample.sampleMs', at, `must be inside the minute starting ${minuteMs}`);
    const weight = checkFraction('rewardSample.weight', input.weight);
    const row = {
      slug,
      minute: minuteMs,
      strategy: checkId('rewardSample.strategy', input.strategy),
      bot: checkScore('rewardSample.botScore', input.botScore),
      others: checkScore('rewardSample.othersScore', input.othersScore),
      weightedShare: checkFraction('rewardSample.share', input.share) * weight,
      pool: checkRaw('rewardSample.poolRaw', input.poolRaw),
      reward: checkRaw('rewardSample.rewardRaw', input.rewardRaw),
      at,
      to: Math.min(minuteMs + MINUTE_MS, at + Math.round(weight * MINUTE_MS)),
      minGap: checkTimeMs('rewardSample.minGapMs', input.minGapMs),
    };
    return this.ctx.write('recordRewardSample', () => this.upsertSample.run({ ...row, now: this.ctx.now() }).changes === 1);
  }

  /** Records a maker fill's rebate estimate; false when the fill has one already (or is not in the ledger). */
  recordRebate(input: MakerRebateInput): boolean {
    if (!Number.isSafeInteger(input.fillId) || input.fillId <= 0) throw new LedgerInputError('makerRebate.fillId', input.fillId, 'must be a positive integer');
    if (input.feeSource !== 'event' && input.feeSource !== 'curve') throw new LedgerInputError('makerRebate.feeSource', input.feeSource, "must be 'event' or 'curve'");
    const row = [
      input.fillId,
      checkId('makerRebate.marketSlug', input.marketSlug),
      checkId('makerRebate.strategy', input.strategy),
      checkTimeMs('makerRebate.atMs', input.atMs),
      checkScore('makerRebate.takerFeeBps', input.takerFeeBps),
      input.feeSource,
      checkRaw('makerRebate.takerFeeRaw', input.takerFeeRaw),
      checkFraction('makerRebate.rebateRate', input.rebateRate),
      checkRaw('makerRebate.rebateRaw', input.rebateRaw),
      checkChoice('makerRebate.takerSide', input.takerSide ?? null, ['BUY', 'SELL']),
      checkChoice('makerRebate.matchKind', input.matchKind ?? null, ['same', 'complementary']),
      input.priorShare === undefined || input.priorShare === null ? null : checkFraction('makerRebate.priorShare', input.priorShare),
    ] as const;
    return this.ctx.write('recordMakerRebate', () => this.insertRebate.run(...row, this.ctx.now(), input.fillId).changes === 1);
  }

  /** Stores the venue's figure for a day (the day's latest reading wins). */
  recordVenueReward(input: VenueRewardInput): void {
    const day = checkTimeMs('venueReward.dayStartMs', input.dayStartMs);
    if (day !== utcDayStart(day)) throw new LedgerInputError('venueReward.dayStartMs', day, 'must be 00:00 UTC of a day');
    const row = [day, checkId('venueReward.marketSlug', input.marketSlug), checkRaw('venueReward.rewardRaw', input.rewardRaw), checkTimeMs('venueReward.readAtMs', input.readAtMs)] as const;
    this.ctx.write('recordVenueReward', () => this.upsertVenue.run(...row));
  }

  /** Maker trade fills (not failed) of `markets` without a rebate estimate, oldest first, at most `limit`. */
  unrebatedMakerFills(markets: readonly string[], limit = 500): UnrebatedFill[] {
    if (markets.length === 0) return [];
    return this.unrebated.all({ markets: JSON.stringify(markets), limit }).map((raw) => {
      const r = unrebatedSchema.parse(raw);
      return { fillId: r.id, marketSlug: r.market_slug, side: r.side, priceTicks: r.price_ticks, sizeRaw: r.size_raw, collateralRaw: r.collateral_raw, atMs: r.at_ms };
    });
  }

  /** Estimated rewards and rebates per (market, strategy, UTC day), oldest day first. */
  accruals(query: AccrualQuery = {}): AccrualRow[] {
    return this.accrualRows.all({ sinceMs: query.sinceMs ?? 0, market: query.marketSlug ?? null }).map((raw) => {
      const r = accrualRowSchema.parse(raw);
      return { marketSlug: r.market_slug, strategy: r.strategy, dayStartMs: r.day, rewardRaw: r.reward, rewardMinutes: r.minutes, rebateRaw: r.rebate, rebatedFills: r.fills };
    });
  }

  /** The venue's own figures per day (a market's rows and the total's), from the day of `sinceMs` on. */
  venueRewards(query: AccrualQuery = {}): VenueRewardRow[] {
    return this.venueRows.all({ sinceDay: utcDayStart(query.sinceMs ?? 0), market: query.marketSlug ?? null }).map((raw) => {
      const r = venueRowSchema.parse(raw);
      return { dayStartMs: r.day_start_ms, marketSlug: r.market_slug, rewardRaw: r.reward_raw, readAtMs: r.read_at_ms };
    });
  }

  /** Ledger-wide estimated totals (raw USDC): the status line and the metrics read them. */
  totals(): { readonly rewardRaw: number; readonly rebateRaw: number } {
    const r = totalsSchema.parse(this.totalsRow.get());
    return { rewardRaw: r.reward ?? 0, rebateRaw: r.rebate ?? 0 };
  }
}
