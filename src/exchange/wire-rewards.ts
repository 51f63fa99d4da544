/**
 * The `rewards` blocks of `GET /portfolio/positions` → typed figures: per market (the official client's
 * CLOBPosition.rewards `{epochs: any[], isEarning: boolean}`) and in total (PortfolioPositionsResponse.rewards
 * `{todaysRewards, rewardsByEpoch, rewardsChartData, totalUnpaidRewards, totalUserRewardsLastEpoch}`).
 *
 * Owns: these shapes. Settled by the venue's API reference (../shared/venue-samples/docs-examples/, docs/venue-facts.md):
 * every amount is a RAW 6-decimal integer string (`"todaysRewards": "50250000"` = 50.25 USDC), read exactly
 * (rawAmountOf: an integer past 2^53 − 1 is refused, never rounded). The epoch lists are kept as sent (`rawEpochs`)
 * and read by src/exchange/wire-reward-epochs.ts with the configured names. The rebate totals (`todaysRebates`,
 * `totalUnpaidRebates`, `totalUserRebatesLastEpoch`, `totalPaidRewards`, `totalPaidRebates`) are the simulator's
 * additive fields, null when absent. Lenient per figure: a total that is not a raw amount is null and reported in
 * `skipped` with its path and reason (the caller counts and logs it); it never fails the answer.
 */
import { z } from 'zod';
import { orNull } from './wire-fields.js';
import { rawAmountOf } from './wire-reward-epochs.js';

/** A part of the answer that could not be read and was left out: where and why. */
export interface PortfolioSkip {
  readonly path: string;
  readonly reason: string;
}

/** CLOBPosition.rewards (the API reference's example sends `{}`). */
export const MarketRewardsWire = z.object({
  epochs: z.array(z.unknown()).nullish(),
  isEarning: z.boolean().nullish(),
});

/** PortfolioPositionsResponse.rewards: the totals checked one by one (toPortfolioRewards). */
export const PortfolioRewardsWire = z.object({
  rewardsByEpoch: z.array(z.unknown()).nullish(),
  todaysRewards: z.unknown().optional(),
  totalUnpaidRewards: z.unknown().optional(),
  totalUserRewardsLastEpoch: z.unknown().optional(),
  todaysRebates: z.unknown().optional(),
  totalUnpaidRebates: z.unknown().optional(),
  totalUserRebatesLastEpoch: z.unknown().optional(),
  totalPaidRewards: z.unknown().optional(),
  totalPaidRebates: z.unknown().optional(),
});
type TotalName = Exclude<keyof z.output<typeof PortfolioRewardsWire>, 'rewardsByEpoch'>;

export interface MarketRewards {
  readonly isEarning: boolean | null;
  /** `epochs` as sent, read with the configured names (wire-reward-epochs.ts). */
  readonly rawEpochs: readonly unknown[];
}

/** The venue's reward figures for the account (raw 1e6 USDC; null: not sent, or not readable: see `skipped`). */
export interface PortfolioRewards {
  readonly todaysRewardsRaw: number | null;
  readonly totalUnpaidRewardsRaw: number | null;
  readonly lastEpochRewardsRaw: number | null;
  readonly todaysRebatesRaw: number | null;
  readonly totalUnpaidRebatesRaw: number | null;
  readonly lastEpochRebatesRaw: number | null;
  readonly totalPaidRewardsRaw: number | null;
  readonly totalPaidRebatesRaw: number | null;
  /** `rewardsByEpoch` as sent, read with the configured names (wire-reward-epochs.ts). */
  readonly rawEpochs: readonly unknown[];
  /** Totals that were sent but are not raw amounts. */
  readonly skipped: readonly PortfolioSkip[];
}

export function toMarketRewards(wire: z.output<typeof MarketRewardsWire>): MarketRewards {
  return { isEarning: orNull(wire.isEarning), rawEpochs: wire.epochs ?? [] };
}

export function toPortfolioRewards(wire: z.output<typeof PortfolioRewardsWire>): PortfolioRewards {
  const skipped: PortfolioSkip[] = [];
  const total = (name: TotalName): number | null => {
    const value = wire[name];
    if (value === undefined || value === null) return null;
    const amount = rawAmountOf(value);
    if ('raw' in amount) return amount.raw;
    skipped.push({ path: `rewards.${name}`, reason: amount.reason });
    return null;
  };
  return {
    todaysRewardsRaw: total('todaysRewards'),
    totalUnpaidRewardsRaw: total('totalUnpaidRewards'),
    lastEpochRewardsRaw: total('totalUserRewardsLastEpoch'),
    todaysRebatesRaw: total('todaysRebates'),
    totalUnpaidRebatesRaw: total('totalUnpaidRebates'),
    lastEpochRebatesRaw: total('totalUserRebatesLastEpoch'),
    totalPaidRewardsRaw: total('totalPaidRewards'),
    totalPaidRebatesRaw: total('totalPaidRebates'),
    rawEpochs: wire.rewardsByEpoch ?? [],
    skipped,
  };
}
