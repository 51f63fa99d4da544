/**
 * The `rewards` blocks of `GET /portfolio/positions` → typed figures: per market (the official client's
 * CLOBPosition.rewards `{epochs: any[], isEarning: boolean}`) and in total (PortfolioPositionsResponse.rewards
 * `{todaysRewards, rewardsByEpoch: any[], rewardsChartData: any[], totalUnpaidRewards, totalUserRewardsLastEpoch}`,
 * amounts typed `string`).
 *
 * Owns: these shapes. Unconfirmed (no authenticated venue answer is recorded; docs/venue-facts.md): amounts are read as
 * decimal USDC (like the recorded `settings.dailyReward`, "1000" = 1000 USDC) into raw 1e6 integers; the elements of the
 * `any[]` lists are read by detection over several field names (wire-reward-epochs.ts, the defaults here; the lists
 * are kept as sent in `rawEpochs` for a reading with the configured names), and an element without a readable amount
 * is counted in `unreadableEpochs`, never guessed; the rebate totals (`todaysRebates`,
 * `totalUnpaidRebates`, `totalUserRebatesLastEpoch`, `totalPaidRewards`, `totalPaidRebates`) are the simulator's
 * additive fields, null when absent. Strict where the types speak: a declared amount that is not a non-negative decimal,
 * or an `isEarning` that is not a boolean, is a ResponseValidationError naming the field and value.
 */
import { z } from 'zod';
import { parseScaled } from '../core/venue-rules/index.js';
import { orNull } from './wire-fields.js';
import { readRewardEpochs } from './wire-reward-epochs.js';

/** A decimal USDC amount (string or number) → raw 1e6 integer. */
const usdcDecimal = z.union([z.number().nonnegative(), z.string().trim()]).transform((value, ctx) => {
  try {
    return parseScaled('amount', value, 6);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not a non-negative decimal USDC amount' });
    return z.NEVER;
  }
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
  /** The list as sent, for a reading with the configured names (wire-reward-epochs.ts). */
  readonly rawEpochs: readonly unknown[];
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
  /** `rewardsByEpoch` as sent, for a reading with the configured names (wire-reward-epochs.ts). */
  readonly rawEpochs: readonly unknown[];
}

/** An epoch list read with the default names (src/exchange/wire-reward-epochs.ts); the app re-reads `rawEpochs` with the configured ones. */
function readEpochs(items: readonly unknown[] | null | undefined): { epochs: VenueRewardEpoch[]; unreadable: number } {
  const reading = readRewardEpochs(items);
  return { epochs: reading.epochs.map((e) => ({ startMs: e.startMs, endMs: e.endMs, rewardsRaw: e.rewardsRaw, rebatesRaw: e.rebatesRaw, paid: e.paid })), unreadable: reading.unreadable };
}

export function toMarketRewards(wire: z.output<typeof MarketRewardsWire>): MarketRewards {
  const { epochs, unreadable } = readEpochs(wire.epochs);
  return { isEarning: orNull(wire.isEarning), epochs, unreadableEpochs: unreadable, rawEpochs: wire.epochs ?? [] };
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
    rawEpochs: wire.rewardsByEpoch ?? [],
  };
}
