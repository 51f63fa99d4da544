/**
 * Liquidity-reward scoring (exchange-facts §8), pure:
 * - a resting order within `maxSpread` of the reward midpoint and at least `minSize` scores
 *   size × ((maxSpread − distance) / maxSpread)², size in shares; any other order scores 0;
 * - a maker's bid-side score Qb (YES bids and NO asks, i.e. YES-terms bids) and ask-side score Qa
 *   combine as max(min(Qb, Qa), max(Qb, Qa) / c) while the midpoint is within [0.05, 0.95], and as
 *   min(Qb, Qa) outside it (one-sided quotes earn nothing there);
 * - a maker earns its pro-rata share of the per-minute pool dailyReward / 1440.
 *
 * The book is aggregated, so others are scored as ONE maker from the book's levels (a level counts
 * when its total size is ≥ minSize). The formula is unconfirmed at the venue: this module is the only
 * place that knows it, and its unconfirmed parts (the exponent 2, the 0.05–0.95 range) are settings
 * (`RewardRules`, config `rewards.scoring`, carried by MarketInfo.rewardRules). Every user scores through
 * here: the strategies, the live accrual (src/rewards/reward-accrual.ts), the synthetic backtest, the replay
 * and the benchmarks.
 */
import { RAW_PER_UNIT, TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import type { BookView, MarketInfo, MarketView, OwnOrderView, RewardRules } from './contract.js';
import { othersBook, touchMid, touchOf } from './own-orders.js';
import type { Levels } from './own-orders.js';
import { toYesTerms } from './yes-terms.js';
import type { YesSide } from './yes-terms.js';

/** One-sided quotes earn (1/c of their score) only while the midpoint is within this range. */
export const SINGLE_SIDED_RANGE = { min: 0.05, max: 0.95 } as const;
export const MINUTES_PER_DAY = 1440;

/** The documented (unconfirmed) scheme. */
export const DEFAULT_REWARD_RULES: RewardRules = { exponent: 2, singleSidedMin: SINGLE_SIDED_RANGE.min, singleSidedMax: SINGLE_SIDED_RANGE.max };

export interface RewardSettings {
  readonly maxSpreadTicks: number;
  readonly minSizeRaw: number;
  readonly c: number;
  readonly dailyRewardRaw: number;
  /** Absent: DEFAULT_REWARD_RULES. */
  readonly rules?: RewardRules;
}

/** A resting order in YES terms. */
export interface YesQuote {
  readonly side: YesSide;
  readonly priceTicks: number;
  readonly sizeRaw: number;
}

export interface RewardShareEstimate {
  readonly botScore: number;
  readonly othersScore: number;
  /** botScore / (botScore + othersScore); 0 when the bot scores nothing. */
  readonly share: number;
  /** USDC. */
  readonly rewardPerMinute: number;
  /** USDC. */
  readonly rewardPerDay: number;
}

export function rewardSettingsOf(market: MarketInfo): RewardSettings {
  return {
    maxSpreadTicks: market.maxSpreadTicks,
    minSizeRaw: market.minSizeRaw,
    c: market.rewardC,
    dailyRewardRaw: market.rewardable ? market.dailyRewardRaw : 0,
    ...(market.rewardRules === undefined ? {} : { rules: market.rewardRules }),
  };
}

/** The reward midpoint: the venue's adjusted midpoint, else the YES mid; null when neither is usable. */
export function rewardMidpoint(view: Pick<MarketView, 'yes'>): number | null {
  for (const m of [view.yes.adjustedMidpoint, view.yes.mid]) {
    if (m !== null && Number.isFinite(m) && m > 0 && m < 1) return m;
  }
  return null;
}

/** Score of one order at `distanceTicks` from the midpoint (ticks may be fractional). */
export function orderScore(sizeRaw: number, distanceTicks: number, settings: RewardSettings): number {
  const max = settings.maxSpreadTicks;
  if (!(max > 0) || !(sizeRaw > 0) || sizeRaw < settings.minSizeRaw) return 0;
  const d = Math.abs(distanceTicks);
  if (!(d < max)) return 0;
  const closeness = (max - d) / max;
  const exponent = settings.rules?.exponent ?? DEFAULT_REWARD_RULES.exponent;
  return (sizeRaw / RAW_PER_UNIT) * (exponent === 2 ? closeness * closeness : closeness ** exponent);
}

export function singleSidedEligible(midpoint: number, rules: RewardRules = DEFAULT_REWARD_RULES): boolean {
  return midpoint >= rules.singleSidedMin && midpoint <= rules.singleSidedMax;
}

/** Combines side scores; a non-positive or non-finite `c` makes one-sided quotes earn nothing. */
export function combineScores(qb: number, qa: number, c: number, midpoint: number, rules: RewardRules = DEFAULT_REWARD_RULES): number {
  const low = Math.min(qb, qa);
  if (!singleSidedEligible(midpoint, rules)) return low;
  const divisor = Number.isFinite(c) && c > 0 ? c : Number.POSITIVE_INFINITY;
  return Math.max(low, Math.max(qb, qa) / divisor);
}

/** Bid-side and ask-side scores (Qb, Qa) of a set of YES-terms orders. */
export function sideScores(quotes: readonly YesQuote[], midpoint: number, settings: RewardSettings): { qb: number; qa: number } {
  const midTicks = midpoint * TICKS_PER_UNIT;
  let qb = 0;
  let qa = 0;
  for (const q of quotes) {
    const score = orderScore(q.sizeRaw, q.priceTicks - midTicks, settings);
    if (q.side === 'bid') qb += score;
    else qa += score;
  }
  return { qb, qa };
}

/** The combined score of a set of orders treated as one maker's. */
export function makerScore(quotes: readonly YesQuote[], midpoint: number, settings: RewardSettings): number {
  const { qb, qa } = sideScores(quotes, midpoint, settings);
  return combineScores(qb, qa, settings.c, midpoint, settings.rules);
}

/** The bot's share of the pool, and its reward, against the others' book. */
export function estimateRewardShare(input: {
  readonly others: Levels;
  readonly bot: readonly YesQuote[];
  readonly midpoint: number;
  readonly settings: RewardSettings;
}): RewardShareEstimate {
  const othersScore = makerScore(levelsAsYesQuotes(input.others), input.midpoint, input.settings);
  const botScore = makerScore(input.bot, input.midpoint, input.settings);
  return shareOf(botScore, othersScore, input.settings);
}

/** Share and reward for given scores (exported so a search can reuse a precomputed othersScore). */
export function shareOf(botScore: number, othersScore: number, settings: RewardSettings): RewardShareEstimate {
  const share = botScore > 0 ? botScore / (botScore + Math.max(0, othersScore)) : 0;
  const daily = Math.max(0, settings.dailyRewardRaw) / RAW_PER_UNIT;
  return { botScore, othersScore, share, rewardPerMinute: (share * daily) / MINUTES_PER_DAY, rewardPerDay: share * daily };
}

export function levelsAsYesQuotes(levels: Levels): YesQuote[] {
  return [
    ...levels.bids.map((l): YesQuote => ({ side: 'bid', priceTicks: l.priceTicks, sizeRaw: l.sizeRaw })),
    ...levels.asks.map((l): YesQuote => ({ side: 'ask', priceTicks: l.priceTicks, sizeRaw: l.sizeRaw })),
  ];
}

/** Orders (intents or resting orders) → YES-terms quotes: BUY NO at q is an ask at 1 − q, SELL NO a bid. */
export function ordersAsYesQuotes(orders: readonly OwnOrderView[]): YesQuote[] {
  return orders.map((o) => ({ ...toYesTerms(o.token, o.side, o.priceTicks), sizeRaw: o.sizeRaw }));
}

/**
 * Expected reward per day (USDC) of `intents` resting in this market, against the book without the
 * bot's own orders `own`. 0 when the market pays nothing or has no usable midpoint.
 */
export function expectedRewardPerDay(view: MarketView, intents: readonly OwnOrderView[], own: readonly OwnOrderView[]): number {
  const settings = rewardSettingsOf(view.market);
  if (!(settings.dailyRewardRaw > 0) || intents.length === 0) return 0;
  const others = othersBook(view.yes, own);
  const midpoint = rewardMidpoint(view) ?? touchMid(touchOf(others));
  if (midpoint === null) return 0;
  return estimateRewardShare({ others, bot: ordersAsYesQuotes(intents), midpoint, settings }).rewardPerDay;
}

/** One minute of the live accrual: the bot's and the others' scores, its share and its part of the minute's pool. */
export interface MinuteScore extends RewardShareEstimate {
  readonly midpoint: number;
  /** The minute's pool, dailyReward / 1440, raw USDC (rounded down). */
  readonly poolRaw: number;
  /** share × pool, raw USDC (rounded down): an estimate. */
  readonly rewardRaw: number;
}

/**
 * Scores the bot's resting orders `own` in a market for one minute against the YES book (the bot's own orders are
 * taken out of it first). Null when the market pays nothing or has no usable midpoint.
 */
export function scoreMinute(market: MarketInfo, yes: BookView, own: readonly OwnOrderView[]): MinuteScore | null {
  const settings = rewardSettingsOf(market);
  if (!(settings.dailyRewardRaw > 0)) return null;
  const others = othersBook(yes, own);
  const midpoint = rewardMidpoint({ yes }) ?? touchMid(touchOf(others));
  if (midpoint === null) return null;
  const estimate = estimateRewardShare({ others, bot: ordersAsYesQuotes(own), midpoint, settings });
  const poolRaw = Math.floor(settings.dailyRewardRaw / MINUTES_PER_DAY);
  return { ...estimate, midpoint, poolRaw, rewardRaw: Math.floor(estimate.share * poolRaw) };
}
