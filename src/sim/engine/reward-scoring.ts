/**
 * The simulator's own liquidity-reward scorer (exchange-facts §8; it imports nothing of the bot): which resting orders
 * earn, each account's score in one scoring round, and its share of the round's pool. Pure.
 *
 * The scheme (documented by the venue in words; the formula is the Polymarket-style one the field names match and is
 * UNCONFIRMED, hence the rules below are settings):
 *   - an order earns while it rests within `maxSpread` of the midpoint (distance ≤ maxSpread) and its remaining size
 *     is at least `minSize`; its score is size (shares) × ((maxSpread − distance) / maxSpread)²;
 *   - per account, Qb sums its bid-side scores and Qa its ask-side scores (the YES book: a NO bid is a YES ask);
 *     inside the band [bandLow, bandHigh] (0.05–0.95) of the midpoint the account scores
 *     max(min(Qb, Qa), max(Qb, Qa) / c), outside it min(Qb, Qa) (one-sided quotes earn nothing there);
 *   - the round's pool (dailyReward × round / day) is shared pro rata to the scores.
 * The midpoint is the book's adjusted midpoint (levels of at least minSize) by default, or the touch mid.
 *
 * Units: prices in ticks (the midpoint may be a half tick), sizes and the pool raw integers; scores are floats (shares);
 * each share of a pool is floored to the raw unit, so the shares never sum above the pool.
 */
import { RAW_PER_UNIT, TICKS_PER_UNIT } from '../../core/venue-rules/index.js';
import type { RewardRules } from './types-rewards.js';

export const DEFAULT_REWARD_RULES: RewardRules = { bandLowTicks: 50, bandHighTicks: 950, midpoint: 'adjusted' };

/** A market's reward terms in engine units. */
export interface RewardTerms {
  readonly minSizeRaw: number;
  readonly maxSpreadTicks: number;
  readonly c: number;
}

/** A resting order as the scorer sees it (YES book side and price). */
export interface RestingForScore {
  readonly profileId: number;
  readonly bookSide: 'bid' | 'ask';
  readonly yesTicks: number;
  readonly remainingSizeRaw: number;
}

/** One order's score (shares × closeness²); 0 when it does not qualify. `midTicks` may be a half tick. */
export function orderScore(order: Pick<RestingForScore, 'yesTicks' | 'remainingSizeRaw'>, midTicks: number, terms: RewardTerms): number {
  if (terms.maxSpreadTicks <= 0 || order.remainingSizeRaw < terms.minSizeRaw || order.remainingSizeRaw <= 0) return 0;
  const distance = Math.abs(order.yesTicks - midTicks);
  if (distance > terms.maxSpreadTicks) return 0;
  const closeness = (terms.maxSpreadTicks - distance) / terms.maxSpreadTicks;
  return (order.remainingSizeRaw / RAW_PER_UNIT) * closeness * closeness;
}

/** Two-sided combination of an account's bid and ask scores at the midpoint. */
export function combineSides(bidScore: number, askScore: number, midTicks: number, c: number, rules: RewardRules = DEFAULT_REWARD_RULES): number {
  const low = Math.min(bidScore, askScore);
  if (midTicks < rules.bandLowTicks || midTicks > rules.bandHighTicks) return low;
  const divisor = c > 0 ? c : 3;
  return Math.max(low, Math.max(bidScore, askScore) / divisor);
}

/** Every account's score in one round: only accounts with a positive score appear. */
export function accountScores(orders: Iterable<RestingForScore>, midTicks: number, terms: RewardTerms, rules: RewardRules = DEFAULT_REWARD_RULES): Map<number, number> {
  const sides = new Map<number, { bid: number; ask: number }>();
  for (const order of orders) {
    const score = orderScore(order, midTicks, terms);
    if (score <= 0) continue;
    const entry = sides.get(order.profileId) ?? { bid: 0, ask: 0 };
    if (order.bookSide === 'bid') entry.bid += score;
    else entry.ask += score;
    sides.set(order.profileId, entry);
  }
  const out = new Map<number, number>();
  for (const [profileId, { bid, ask }] of sides) {
    const q = combineSides(bid, ask, midTicks, terms.c, rules);
    if (q > 0) out.set(profileId, q);
  }
  return out;
}

/** `poolRaw` shared pro rata to `scores`, each share floored to the raw unit. */
export function splitPool(poolRaw: number, scores: ReadonlyMap<number, number>): Map<number, number> {
  let total = 0;
  for (const q of scores.values()) total += q;
  const out = new Map<number, number>();
  if (poolRaw <= 0 || total <= 0) return out;
  for (const [profileId, q] of scores) {
    // The tiny allowance keeps an exact share (0.96 × 1e6) from flooring one raw unit low on a float's last bit.
    const share = Math.floor((poolRaw * q) / total + 1e-6);
    if (share > 0) out.set(profileId, share);
  }
  return out;
}

/** One round's pool: dailyReward × roundMs / day, floored. */
export function roundPoolRaw(dailyRewardRaw: number, roundMs: number): number {
  return Number((BigInt(dailyRewardRaw) * BigInt(roundMs)) / 86_400_000n);
}

/** The touch midpoint in ticks (a half tick possible); null when a side is empty. */
export function touchMidTicks(bestBidTicks: number | undefined, bestAskTicks: number | undefined): number | null {
  return bestBidTicks === undefined || bestAskTicks === undefined ? null : (bestBidTicks + bestAskTicks) / 2;
}

/** A price (0–1) → ticks, keeping a half tick. */
export function priceToMidTicks(price: number): number {
  return Math.round(price * TICKS_PER_UNIT * 2) / 2;
}
