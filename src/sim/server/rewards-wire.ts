/**
 * The `rewards` blocks of `GET /portfolio/positions`: per market (the official client's CLOBPosition.rewards
 * `{epochs, isEarning}`) and in total (PortfolioPositionsResponse.rewards `{todaysRewards, rewardsByEpoch,
 * rewardsChartData, totalUnpaidRewards, totalUserRewardsLastEpoch}`), from the engine's reward book (rewards.ts).
 *
 * Unconfirmed (no authenticated answer of the venue is recorded; the client types the lists `any[]` and the amounts
 * `string`): amounts are written as decimal USDC strings, like the recorded `settings.dailyReward` ("1000"); the
 * elements of `epochs`, `rewardsByEpoch` and `rewardsChartData` are the simulator's own shape; maker rebates, which
 * the client's types do not mention, are the simulator's additive fields (`rebates`, `todaysRebates`,
 * `totalUnpaidRebates`, `totalUserRebatesLastEpoch`). "Today" is the open epoch (a day unless the cycle is shortened).
 * Pure functions of the engine's view.
 */
import { rawToDecimal } from '../../core/venue-rules/index.js';
import type { AccountRewards, RewardEpoch } from '../engine/index.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** One epoch of one market (CLOBPosition.rewards.epochs[i]), open or paid. */
export interface MarketEpochWire {
  readonly epochStart: string;
  /** null while open. */
  readonly epochEnd: string | null;
  readonly rewards: string;
  readonly rebates: string;
  readonly paid: boolean;
}

/** CLOBPosition.rewards for `slug`: its paid epochs (oldest first), then the open one when it earned in it. */
export function marketRewardsWire(view: AccountRewards, slug: string): { epochs: MarketEpochWire[]; isEarning: boolean } {
  const epochs: MarketEpochWire[] = [];
  for (const epoch of view.paid) {
    const entry = epoch.byMarket.get(slug);
    if (entry) epochs.push({ epochStart: iso(epoch.startMs), epochEnd: iso(epoch.endMs), rewards: rawToDecimal(entry.rewardsRaw), rebates: rawToDecimal(entry.rebatesRaw), paid: true });
  }
  const open = view.open.get(slug);
  if (open) epochs.push({ epochStart: iso(view.openEpochStartMs), epochEnd: null, rewards: rawToDecimal(open.rewardsRaw), rebates: rawToDecimal(open.rebatesRaw), paid: false });
  return { epochs, isEarning: view.earning.has(slug) };
}

function epochEntry(epoch: RewardEpoch): Record<string, unknown> {
  return {
    epochStart: iso(epoch.startMs),
    epochEnd: iso(epoch.endMs),
    paidAt: iso(epoch.paidAtMs),
    rewards: rawToDecimal(epoch.rewardsRaw),
    rebates: rawToDecimal(epoch.rebatesRaw),
    markets: [...epoch.byMarket].map(([marketSlug, a]) => ({ marketSlug, rewards: rawToDecimal(a.rewardsRaw), rebates: rawToDecimal(a.rebatesRaw) })),
  };
}

/** PortfolioPositionsResponse.rewards: the open epoch's accruals, the paid epochs newest first, a cumulative chart. */
export function portfolioRewardsWire(view: AccountRewards): Record<string, unknown> {
  const last = view.paid[view.paid.length - 1];
  let cumulative = 0;
  const chart = view.paid.map((epoch) => {
    cumulative += epoch.rewardsRaw;
    return { timestamp: epoch.paidAtMs, value: rawToDecimal(cumulative) };
  });
  return {
    todaysRewards: rawToDecimal(view.openRewardsRaw),
    rewardsByEpoch: [...view.paid].reverse().map(epochEntry),
    rewardsChartData: chart,
    totalUnpaidRewards: rawToDecimal(view.openRewardsRaw),
    totalUserRewardsLastEpoch: rawToDecimal(last?.rewardsRaw ?? 0),
    todaysRebates: rawToDecimal(view.openRebatesRaw),
    totalUnpaidRebates: rawToDecimal(view.openRebatesRaw),
    totalUserRebatesLastEpoch: rawToDecimal(last?.rebatesRaw ?? 0),
    totalPaidRewards: rawToDecimal(view.paidRewardsRaw),
    totalPaidRebates: rawToDecimal(view.paidRebatesRaw),
  };
}
