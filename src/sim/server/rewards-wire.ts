/**
 * The `rewards` blocks of `GET /portfolio/positions`: per market (the official client's CLOBPosition.rewards
 * `{epochs, isEarning}`) and in total (PortfolioPositionsResponse.rewards `{todaysRewards, rewardsByEpoch,
 * rewardsChartData, totalUnpaidRewards, totalUserRewardsLastEpoch}`), from the engine's reward book (rewards.ts).
 *
 * In the venue's DOCUMENTED shapes (its API reference, ../shared/venue-samples/docs-examples/portfolio-positions.json):
 * every amount a raw 6-decimal integer string; an epoch `{epochId, timestamp (the epoch's start, ISO), totalRewards
 * (the epoch's pool over every account), userRewards (the account's), earnedPercent}`; a chart point `{timestamp (ms),
 * userRewards, totalRewards}`. The simulator's own additions, named as such: maker rebates (the venue's types mention
 * none) as `userRebates` on an epoch and `todaysRebates`, `totalUnpaidRebates`, `totalUserRebatesLastEpoch`,
 * `totalPaidRewards`, `totalPaidRebates` in total; the per-market list `clob[].rewards.epochs` (the example sends `{}`)
 * holds elements of the same documented shape, the market's pool and the account's part of it. "Today" is the open
 * epoch (a day unless the cycle is shortened). Pure functions of the engine's view.
 */
import type { AccountRewards, MarketAccrual, RewardEpoch } from '../engine/index.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const raw = (amount: number): string => String(amount);
const percent = (part: number, pool: number): number => (pool > 0 ? part / pool : 0);

/** One epoch element in the documented shape, plus the simulator's `userRebates`. */
export interface EpochWire {
  readonly epochId: number;
  readonly timestamp: string;
  readonly totalRewards: string;
  readonly userRewards: string;
  readonly earnedPercent: number;
  readonly userRebates: string;
}

function epochWire(epochId: number, startMs: number, poolRaw: number, accrual: Readonly<MarketAccrual>): EpochWire {
  return { epochId, timestamp: iso(startMs), totalRewards: raw(poolRaw), userRewards: raw(accrual.rewardsRaw), earnedPercent: percent(accrual.rewardsRaw, poolRaw), userRebates: raw(accrual.rebatesRaw) };
}

/**
 * CLOBPosition.rewards for `slug`: its paid epochs (oldest first), then the open one when it earned in it (its pool:
 * the account's own accrual, the only one the simulator knows before the payout).
 */
export function marketRewardsWire(view: AccountRewards, slug: string): { epochs: EpochWire[]; isEarning: boolean } {
  const epochs: EpochWire[] = [];
  for (const epoch of view.paid) {
    const entry = epoch.byMarket.get(slug);
    if (entry) epochs.push(epochWire(epoch.epochId, epoch.startMs, epoch.poolByMarket.get(slug) ?? entry.rewardsRaw, entry));
  }
  const open = view.open.get(slug);
  if (open) epochs.push(epochWire(view.openEpochId, view.openEpochStartMs, open.rewardsRaw, open));
  return { epochs, isEarning: view.earning.has(slug) };
}

function accountEpoch(epoch: RewardEpoch): EpochWire {
  return epochWire(epoch.epochId, epoch.startMs, epoch.poolRaw, { rewardsRaw: epoch.rewardsRaw, rebatesRaw: epoch.rebatesRaw });
}

/** PortfolioPositionsResponse.rewards: the open epoch's accruals, the paid epochs newest first, a chart per epoch. */
export function portfolioRewardsWire(view: AccountRewards): Record<string, unknown> {
  const last = view.paid[view.paid.length - 1];
  return {
    todaysRewards: raw(view.openRewardsRaw),
    rewardsByEpoch: [...view.paid].reverse().map(accountEpoch),
    rewardsChartData: view.paid.map((epoch) => ({ timestamp: epoch.paidAtMs, userRewards: raw(epoch.rewardsRaw), totalRewards: raw(epoch.poolRaw) })),
    totalUnpaidRewards: raw(view.openRewardsRaw),
    totalUserRewardsLastEpoch: raw(last?.rewardsRaw ?? 0),
    todaysRebates: raw(view.openRebatesRaw),
    totalUnpaidRebates: raw(view.openRebatesRaw),
    totalUserRebatesLastEpoch: raw(last?.rebatesRaw ?? 0),
    totalPaidRewards: raw(view.paidRewardsRaw),
    totalPaidRebates: raw(view.paidRebatesRaw),
  };
}
