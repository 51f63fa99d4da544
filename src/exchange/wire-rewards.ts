/**
 * The `rewards` blocks of `GET /portfolio/positions` → typed figures: per market (the official client's
 * CLOBPosition.rewards `{epochs: any[], isEarning: boolean}`) and in total (PortfolioPositionsResponse.rewards
 * `{todaysRewards, rewardsByEpoch: any[], rewardsChartData: any[], totalUnpaidRewards, totalUserRewardsLastEpoch}`,
 * amounts typed `string`).
 *
 * Owns: these shapes. Unconfirmed (no authenticated venue answer is recorded; docs/venue-facts.md): amounts are read as
 * decimal USDC (like the recorded `settings.dailyReward`, "1000" = 1000 USDC) into raw 1e6 integers; the elements of the
 * `any[]` lists follow the simulator's shape (`epochStart`, `epochEnd`, `rewards`, `rebates`, `paid`/`paidAt`), and an
 * element that does not fit is counted in `unreadableEpochs`, never guessed; the rebate totals (`todaysRebates`,
 * `totalUnpaidRebates`, `totalUserRebatesLastEpoch`, `totalPaidRewards`, `totalPaidRebates`) are the simulator's
 * additive fields, null when absent. Strict where the types speak: a declared amount that is not a non-negative decimal,
 * or an `isEarning` that is not a boolean, is a ResponseValidationError naming the field and value.
 */
import { z } from 'zod';
import { parseScaled } from '../core/venue-rules/index.js';
import { orNull } from './wire-fields.js';
import { instantMsOf } from './wire-instant.js';

/** A decimal USDC amount (string or number) → raw 1e6 integer. */
const usdcDecimal = z.union([z.number().nonnegative(), z.string().trim()]).transform((value, ctx) => {
  try {
    return parseScaled('amount', value, 6);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not a non-negative decimal USDC amount' });
    return z.NEVER;
  }
});

const EpochWire = z.object({
  epochStart: z.unknown().optional(),
  epochEnd: z.unknown().optional(),
  paidAt: z.unknown().optional(),
  rewards: usdcDecimal.nullish(),
  rebates: usdcDecimal.nullish(),
  paid: z.boolean().nullish(),
});

/** CLOBPosition.rewards. */
export const MarketRewardsWire = z.object({
  epochs: z.array(z.unknown()).nullish(),
  isEarning: z.boolean().nullish(),
});

/** PortfolioPositionsResponse.rewards. */
export const PortfolioRewardsWire = z.object({
  todaysRewards: usdcDecimal.nullish(),
  totalUnpaidRewards: usdcDecimal.nullish(),
  totalUserRewardsLastEpoch: usdcDecimal.nullish(),
  rewardsByEpoch: z.array(z.unknown()).nullish(),
  todaysRebates: usdcDecimal.nullish(),
  totalUnpaidRebates: usdcDecimal.nullish(),
  totalUserRebatesLastEpoch: usdcDecimal.nullish(),
  totalPaidRewards: usdcDecimal.nullish(),
  totalPaidRebates: usdcDecimal.nullish(),
});

/** One epoch as far as it could be read. */
export interface VenueRewardEpoch {
  readonly startMs: number | null;
  /** null while the epoch is open. */
  readonly endMs: number | null;
  readonly rewardsRaw: number | null;
  readonly rebatesRaw: number | null;
  /** `paid`, or true when `paidAt` is given; null when neither says. */
  readonly paid: boolean | null;
}

export interface MarketRewards {
  readonly isEarning: boolean | null;
  readonly epochs: readonly VenueRewardEpoch[];
  /** Elements of `epochs` that are not in the shape read here. */
  readonly unreadableEpochs: number;
}

/** The venue's reward figures for the account (raw 1e6 USDC; null: not sent). */
export interface PortfolioRewards {
  readonly todaysRewardsRaw: number | null;
  readonly totalUnpaidRewardsRaw: number | null;
  readonly lastEpochRewardsRaw: number | null;
  readonly todaysRebatesRaw: number | null;
  readonly totalUnpaidRebatesRaw: number | null;
  readonly lastEpochRebatesRaw: number | null;
  readonly totalPaidRewardsRaw: number | null;
  readonly totalPaidRebatesRaw: number | null;
  /** `rewardsByEpoch` as far as it could be read (the venue's order). */
  readonly epochs: readonly VenueRewardEpoch[];
  readonly unreadableEpochs: number;
}

function readEpochs(items: readonly unknown[] | null | undefined): { epochs: VenueRewardEpoch[]; unreadable: number } {
  const epochs: VenueRewardEpoch[] = [];
  let unreadable = 0;
  for (const item of items ?? []) {
    const parsed = EpochWire.safeParse(item);
    if (!parsed.success || typeof item !== 'object' || item === null) {
      unreadable += 1;
      continue;
    }
    const e = parsed.data;
    const paidAtMs = instantMsOf(e.paidAt);
    epochs.push({
      startMs: instantMsOf(e.epochStart),
      endMs: instantMsOf(e.epochEnd),
      rewardsRaw: orNull(e.rewards),
      rebatesRaw: orNull(e.rebates),
      paid: e.paid ?? (paidAtMs === null ? null : true),
    });
  }
  return { epochs, unreadable };
}

export function toMarketRewards(wire: z.output<typeof MarketRewardsWire>): MarketRewards {
  const { epochs, unreadable } = readEpochs(wire.epochs);
  return { isEarning: orNull(wire.isEarning), epochs, unreadableEpochs: unreadable };
}

export function toPortfolioRewards(wire: z.output<typeof PortfolioRewardsWire>): PortfolioRewards {
  const { epochs, unreadable } = readEpochs(wire.rewardsByEpoch);
  return {
    todaysRewardsRaw: orNull(wire.todaysRewards),
    totalUnpaidRewardsRaw: orNull(wire.totalUnpaidRewards),
    lastEpochRewardsRaw: orNull(wire.totalUserRewardsLastEpoch),
    todaysRebatesRaw: orNull(wire.todaysRebates),
    totalUnpaidRebatesRaw: orNull(wire.totalUnpaidRebates),
    lastEpochRebatesRaw: orNull(wire.totalUserRebatesLastEpoch),
    totalPaidRewardsRaw: orNull(wire.totalPaidRewards),
    totalPaidRebatesRaw: orNull(wire.totalPaidRebates),
    epochs,
    unreadableEpochs: unreadable,
  };
}
