/**
 * The `rewards` section: how the bot ESTIMATES what the venue pays makers beside trading PnL (docs/rewards.md) —
 * the per-minute reward accrual and the per-fill rebate accrual into the ledger, the slow read of the venue's own
 * figures, the fee curve the rebate estimate uses where a fill's report carries no taker fee, the rebate rate where
 * the market does not say, the reward scheme's unconfirmed parts (exchange-facts §8), how a minute is scored, the
 * payout cycle the read of the venue's PAID figures follows, and the names its epoch lists are read under.
 *
 * Invariants: every figure is validated here (a wrong one is a config error naming its path); the defaults are the
 * venue's documented scheme and fee guide.
 */
import { DEFAULT_CREATOR_FEE, type CreatorFeeConfig } from '../rewards/creator-fee.js';
import { z } from 'zod';
import type { FeeCurve } from '../core/venue-rules/index.js';
import type { RewardRules } from '../strategy/contract.js';
import { DEFAULT_EPOCH_FIELDS, type EpochFieldNames } from '../exchange/wire-reward-epochs.js';

export interface RewardsConfig {
  /** Accrue reward minutes and maker rebates into the ledger. */
  readonly accrual: boolean;
  /** How often the venue's own reward figures are read (lowest priority); 0: never. */
  readonly venuePollMs: number;
  /** The rebate rate of a market whose listing carries none (a fraction); null: no rebate estimate there. */
  readonly rebateRateFallback: number | null;
  readonly feeCurve: FeeCurve;
  readonly scoring: RewardRules;
  /** How a minute is scored: from every accrual tick in it, time-weighted (the default), or from its first tick only. */
  readonly minuteScoring: MinuteScoring;
  /** The venue's payout cycle, which the read of the PAID figures follows; null: the venue's (a day live, the simulator's interval on sim). */
  readonly payoutCycleMs: number | null;
  /** How long after each payout boundary the paid figures are read; null: a fifth of the cycle, at most 300 s. */
  readonly payoutReadDelayMs: number | null;
  /**
   * The time of day (ms after 00:00 UTC) the venue pays: the payout boundaries are this instant plus whole cycles.
   * Default 22:30 UTC, the venue's user guide ("LP rewards ... paid daily at 22:30 UTC").
   */
  readonly payoutAtUtcMs: number;
  /**
   * How the elements of the venue's epoch lists are read (src/exchange/wire-reward-epochs.ts); `epochLengthMs` null:
   * the payout cycle.
   */
  readonly venueEpochs: { readonly fields: EpochFieldNames; readonly epochLengthMs: number | null };
  /**
   * The prior share of takers that BUY (0..1): a maker BUY fill is a complementary match (the taker bought the other
   * token) with this chance, a maker SELL fill (the taker sold the other token) with 1 − it. The rebate estimate of a
   * fill not yet resolved from the trade feed blends the two kinds of match with it (src/strategy/rebates.ts).
   */
  readonly takerBuyShare: number;
  /** Resolving each maker fill's taker from the public trade feed (src/rewards/rebate-resolver.ts). */
  readonly tradeResolution: TradeResolutionConfig;
  /** The creator fee of Community markets, taken from the taker fee before the rebate pool (src/rewards/creator-fee.ts). */
  readonly creatorFee: CreatorFeeConfig;
}

export interface TradeResolutionConfig {
  readonly enabled: boolean;
  /** A fill whose trade is not found within this long keeps the prior's estimate (counted as unmatched). */
  readonly maxAgeMs: number;
  /** At most this many pages (100 trades each, newest first) per market and read. */
  readonly maxPages: number;
}

export const MINUTE_SCORING = ['time-weighted', 'first-sample'] as const;
export type MinuteScoring = (typeof MINUTE_SCORING)[number];

/** The default prior share of buying takers: see docs/rewards.md ("The taker's side: resolved from the trade feed"). */
export const DEFAULT_TAKER_BUY_SHARE = 0.65;

/** The venue's daily LP-rewards payout (user guide, "LP rewards"). */
export const DEFAULT_PAYOUT_TIME_UTC = '22:30';

const names = z.array(z.string().min(1)).min(1);

const bps = z.number().min(0).max(10_000);

export const rewardsSchema = z
  .strictObject({
    accrual: z.boolean().default(true),
    venuePollSec: z.number().min(0).max(86_400).default(900),
    rebateRateFallback: z.number().min(0).max(1).nullable().default(null),
    feeCurve: z
      .strictObject({ buyMinBps: bps.default(40), buyMaxBps: bps.default(300), sellMinBps: bps.default(42), sellMaxBps: bps.default(150) })
      .prefault({})
      .superRefine((c, ctx) => {
        if (c.buyMaxBps < c.buyMinBps) ctx.addIssue({ code: 'custom', path: ['buyMaxBps'], message: 'must be at least buyMinBps', input: c.buyMaxBps });
        if (c.sellMaxBps < c.sellMinBps) ctx.addIssue({ code: 'custom', path: ['sellMaxBps'], message: 'must be at least sellMinBps', input: c.sellMaxBps });
      }),
    scoring: z
      .strictObject({
        exponent: z.number().gt(0).max(10).default(2),
        singleSidedMin: z.number().min(0).max(1).default(0.05),
        singleSidedMax: z.number().min(0).max(1).default(0.95),
      })
      .prefault({})
      .superRefine((r, ctx) => {
        if (r.singleSidedMax < r.singleSidedMin) ctx.addIssue({ code: 'custom', path: ['singleSidedMax'], message: 'must be at least singleSidedMin', input: r.singleSidedMax });
      }),
    minuteScoring: z.enum(MINUTE_SCORING).default('time-weighted'),
    payoutCycleSec: z.number().int().min(1).max(7 * 86_400).nullable().default(null),
    payoutReadDelaySec: z.number().min(0).max(86_400).nullable().default(null),
    payoutTimeUtc: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (UTC), e.g. "22:30"')
      .default(DEFAULT_PAYOUT_TIME_UTC),
    venueEpochs: z
      .strictObject({
        // The venue's API reference settles raw 6-decimal integers for every amount of GET /portfolio/positions;
        // `decimal` (the old guess) is no longer read. The key stays so configs that name `raw` keep loading.
        amountUnit: z.literal('raw', { error: 'the venue\'s API reference settles raw 6-decimal integers (docs/venue-facts.md); only `raw` is read' }).optional(),
        epochLengthSec: z.number().int().min(1).max(7 * 86_400).nullable().default(null),
        fields: z
          .strictObject({ start: names, end: names, paidAt: names, paid: names, status: names, rewards: names, rebates: names, markets: names, market: names })
          .partial()
          .prefault({}),
      })
      .prefault({}),
    takerBuyShare: z.number().min(0).max(1).default(DEFAULT_TAKER_BUY_SHARE),
    creatorFee: z
      .strictObject({
        // A guess when set: no field of the venue carries the creator's cut (docs/rewards.md); null: no estimate there.
        shareOfTakerFee: z.number().min(0).max(1).nullable().default(DEFAULT_CREATOR_FEE.shareOfTakerFee),
        venueCreators: z.array(z.string().min(1)).default([...DEFAULT_CREATOR_FEE.venueCreators]),
      })
      .prefault({}),
    tradeResolution: z
      .strictObject({
        enabled: z.boolean().default(true),
        maxAgeSec: z.number().min(60).max(7 * 86_400).default(900),
        maxPages: z.number().int().min(1).max(50).default(5),
      })
      .prefault({}),
  })
  .prefault({});

/** ms after 00:00 UTC → "HH:MM". */
export function utcTimeOfDayText(ms: number): string {
  return `${String(Math.floor(ms / 3_600_000)).padStart(2, '0')}:${String(Math.floor(ms / 60_000) % 60).padStart(2, '0')}`;
}

/** "HH:MM" → ms after 00:00 UTC. */
export function utcTimeOfDayMs(text: string): number {
  const [hours, minutes] = text.split(':').map(Number);
  return ((hours ?? 0) * 60 + (minutes ?? 0)) * 60_000;
}

/** The configured names over the defaults, field by field. */
function epochFields(given: Partial<Record<keyof EpochFieldNames, readonly string[] | undefined>>): EpochFieldNames {
  const pick = (key: keyof EpochFieldNames): readonly string[] => given[key] ?? DEFAULT_EPOCH_FIELDS[key];
  return { start: pick('start'), end: pick('end'), paidAt: pick('paidAt'), paid: pick('paid'), status: pick('status'), rewards: pick('rewards'), rebates: pick('rebates'), markets: pick('markets'), market: pick('market') };
}

export function toRewardsConfig(r: z.infer<typeof rewardsSchema>): RewardsConfig {
  return {
    accrual: r.accrual,
    venuePollMs: Math.round(r.venuePollSec * 1000),
    rebateRateFallback: r.rebateRateFallback,
    feeCurve: r.feeCurve,
    scoring: r.scoring,
    minuteScoring: r.minuteScoring,
    payoutCycleMs: r.payoutCycleSec === null ? null : r.payoutCycleSec * 1000,
    payoutReadDelayMs: r.payoutReadDelaySec === null ? null : Math.round(r.payoutReadDelaySec * 1000),
    payoutAtUtcMs: utcTimeOfDayMs(r.payoutTimeUtc),
    venueEpochs: { fields: epochFields(r.venueEpochs.fields), epochLengthMs: r.venueEpochs.epochLengthSec === null ? null : r.venueEpochs.epochLengthSec * 1000 },
    takerBuyShare: r.takerBuyShare,
    creatorFee: { shareOfTakerFee: r.creatorFee.shareOfTakerFee, venueCreators: r.creatorFee.venueCreators },
    tradeResolution: { enabled: r.tradeResolution.enabled, maxAgeMs: Math.round(r.tradeResolution.maxAgeSec * 1000), maxPages: r.tradeResolution.maxPages },
  };
}
