/**
 * liquidity-rewards: earns the venue's liquidity rewards while pricing the risk of being picked off.
 *
 * Quotes within `maxSpread` of the reward midpoint (adjustedMidpoint, else mid), at or above `minSize`,
 * on both sides; one-sided only while the midpoint is within 0.05–0.95 (where one side earns 1/c), never
 * outside it. Each quote's place is chosen by a search over tick distances 1..maxSpread on both sides
 * jointly, maximising
 *   expected reward/day (src/strategy/rewards.ts: the bot's share of the pool against the book without
 *   its own orders) − Σ sides size · λ(δ) · max(0, adverse − δ) · tick,
 * with λ(δ) = A·e^(−kδ) fills/day (configured, or estimated from the bot's fills) and adverse = base +
 * weight · toxicity, the side's recent adverse mid move after fills within a horizon
 * (src/strategy/toxicity.ts). So the cost grows when closer to the mid and with toxicity: toxic fills
 * push quotes wider, shrink them (never below minSize) and, past `toxicityOffTicks`, pull that side.
 * Nothing is quoted unless the best pair is worth more than `minEdgePerDay`; the previous pair is kept
 * while it is within `requoteThreshold` of the best (fewer cancels).
 *
 * On a priced market (src/pricing) no quote stands on the wrong side of the model's fair value or within
 * `uncertaintyMultiplier` × its uncertainty of it: the reward midpoint is the venue's, the risk is the underlying's.
 *
 * Needs no inventory: the bid is BUY YES (SELL NO when NO is held) and the ask BUY NO at 1 − p (SELL YES
 * when YES is held). Post-only by default.
 */
import { z } from 'zod';
import { RAW_PER_UNIT, SIZE_STEP_RAW, TICKS_PER_UNIT, roundSizeToStep } from '../src/core/venue-rules/index.js';
import type { Outcome } from '../src/core/venue-rules/index.js';
import type { MarketView, StrategyModule } from '../src/strategy/contract.js';
import { estimateFillIntensity } from '../src/strategy/fill-intensity.js';
import { isExpired } from '../src/strategy/market-clock.js';
import { modelMinHalfSpread } from '../src/strategy/model-spread.js';
import { othersBook } from '../src/strategy/own-orders.js';
import { strategyFromPlanner } from '../src/strategy/planner.js';
import { applyRewardQuoting, rewardQuotingSchema } from '../src/strategy/reward-quoting.js';
import type { PlanInput, QuotePlan } from '../src/strategy/planner.js';
import {
  combineScores,
  expectedRewardPerDay,
  levelsAsYesQuotes,
  makerScore,
  orderScore,
  rewardMidpoint,
  rewardSettingsOf,
  shareOf,
  singleSidedEligible,
} from '../src/strategy/rewards.js';
import type { RewardSettings } from '../src/strategy/rewards.js';
import { buildYesLadder, effectiveBand, yesTermsBand } from '../src/strategy/rounding.js';
import type { FloatLevel, TickBand } from '../src/strategy/rounding.js';
import { estimateToxicity } from '../src/strategy/toxicity.js';
import { netYesShares, toYesTerms } from '../src/strategy/yes-terms.js';
import type { YesSide } from '../src/strategy/yes-terms.js';

const DAY_MS = 86_400_000;
const K_BOUNDS = { min: 0.01, max: 5 } as const;
const A_BOUNDS = { min: 0.1, max: 10_000 } as const;

export const liquidityRewardsParamsSchema = z
  .object({
    /** Shares per quote; null: the market's reward minimum. Never below the minimum. */
    orderSize: z.number().gt(0).nullable().default(null),
    /** Search only distances up to this fraction of maxSpread. */
    maxSpreadFraction: z.number().gt(0).max(1).default(1),
    /** Allow a one-sided quote (only ever inside 0.05–0.95) when the other side is not worth it. */
    allowSingleSided: z.boolean().default(true),
    /** Adverse mid move assumed after any fill, ticks. */
    baseAdverseTicks: z.number().min(0).default(5),
    /** Weight of measured toxicity (ticks) in the adverse move. */
    toxicityWeight: z.number().min(0).default(1),
    toxicityHorizonSeconds: z.number().gt(0).default(60),
    toxicityLookbackMinutes: z.number().gt(0).default(120),
    /** Shrinks the toxicity estimate toward 0 when there are few fills. */
    toxicityPriorFills: z.number().min(0).default(3),
    /** A side whose toxicity reaches this many ticks is pulled. */
    toxicityOffTicks: z.number().gt(0).default(20),
    /** Largest size cut from toxicity (0..1), reached at toxicityOffTicks; never below minSize. */
    toxicSizeReduction: z.number().min(0).max(1).default(0.5),
    /** Fills per day of a quote at the mid (λ at δ = 0); the fallback when estimating. */
    fillRateA: z.number().min(A_BOUNDS.min).max(A_BOUNDS.max).default(48),
    /** Decay of the fill rate per tick of distance; the fallback when estimating. */
    fillDecayK: z.number().min(K_BOUNDS.min).max(K_BOUNDS.max).default(0.15),
    /** Estimate A and k from the bot's own fills once there are enough. */
    estimateFillRate: z.boolean().default(true),
    fillRateMinFills: z.number().int().min(1).default(10),
    fillRateWindowHours: z.number().gt(0).default(24),
    /** Keep the previous quotes while their value is within this fraction of the best. */
    requoteThreshold: z.number().min(0).max(1).default(0.05),
    /** Largest |net YES| in shares. */
    maxInventory: z.number().gt(0).default(1000),
    /** Quote only when expected reward − expected adverse cost exceeds this, USDC per day. */
    minEdgePerDay: z.number().default(0),
    postOnly: z.boolean().default(true),
    /** Keep a reward-earning quote on each side where its expected reward beats its adverse selection (src/strategy/reward-quoting.ts). */
    rewardQuoting: rewardQuotingSchema,
    /** On a priced market, no quote closer to the model's fair value than this many times its uncertainty. */
    uncertaintyMultiplier: z.number().min(0).max(20).default(1),
    /**
     * On a priced market, the side that adds to the inventory keeps this many ticks further from the model's fair value
     * at `inventorySkewShares` of net YES (proportionally below, capped above): inventory is the underlying's risk.
     */
    inventorySkewTicks: z.number().min(0).max(500).default(20),
    inventorySkewShares: z.number().gt(0).default(200),
  })
  .strict();

export type LiquidityRewardsParams = z.infer<typeof liquidityRewardsParamsSchema>;

/** One side's candidate: a YES tick (null: not quoted) with its score and expected cost per day. */
interface Candidate {
  readonly ticks: number | null;
  readonly score: number;
  readonly cost: number;
}

interface SidePlan {
  readonly sizeRaw: number;
  readonly token: Outcome;
  readonly toxicityTicks: number;
  readonly candidates: readonly Candidate[];
}

interface Choice {
  readonly bid: Candidate;
  readonly ask: Candidate;
  readonly reward: number;
  readonly cost: number;
  readonly value: number;
}

const NOT_QUOTED: Candidate = { ticks: null, score: 0, cost: 0 };

export function planLiquidityRewards(params: LiquidityRewardsParams, { view, own, previous }: PlanInput): QuotePlan {
  const none = (extra: Record<string, number> = {}): QuotePlan => ({ intents: [], diagnostics: { quoting: 0, expectedRewardPerDay: 0, ...extra } });
  const settings = rewardSettingsOf(view.market);
  const band = effectiveBand(view.market);
  if (isExpired(view.market, view.now) || band === null) return none();
  if (!(settings.dailyRewardRaw > 0) || !(settings.maxSpreadTicks > 0)) return none();
  const midpoint = rewardMidpoint(view);
  if (midpoint === null) return none();

  const toxicity = estimateToxicity(view.recentFills, view.midHistory, view.now, {
    horizonMs: params.toxicityHorizonSeconds * 1000,
    lookbackMs: params.toxicityLookbackMinutes * 60_000,
    priorFills: params.toxicityPriorFills,
  });
  const intensity = params.estimateFillRate
    ? estimateFillIntensity(view.recentFills, view.midHistory, view.now, {
        timeUnitMs: DAY_MS,
        windowMs: params.fillRateWindowHours * 3_600_000,
        minFills: params.fillRateMinFills,
        fallback: { k: params.fillDecayK, a: params.fillRateA },
        bounds: { kMin: K_BOUNDS.min, kMax: K_BOUNDS.max, aMin: A_BOUNDS.min, aMax: A_BOUNDS.max },
        distance: (fillYesTicks, mid) => Math.abs(fillYesTicks - mid * TICKS_PER_UNIT),
      })
    : { k: params.fillDecayK, a: params.fillRateA, fills: 0, estimated: false };

  const minSizeRaw = Math.max(SIZE_STEP_RAW, Math.ceil(settings.minSizeRaw / SIZE_STEP_RAW) * SIZE_STEP_RAW);
  const baseSizeRaw = Math.max(minSizeRaw, params.orderSize === null ? 0 : roundSizeToStep(params.orderSize));
  const net = netYesShares(view.position);
  const ctx: SideContext = { params, view, settings, band, midpoint, minSizeRaw, baseSizeRaw, a: intensity.a, k: intensity.k };
  const bid = planSide('bid', ctx, toxicity.bid.ticks, params.maxInventory - net, view.position.noRaw);
  const ask = planSide('ask', ctx, toxicity.ask.ticks, params.maxInventory + net, view.position.yesRaw);

  const othersScore = makerScore(levelsAsYesQuotes(othersBook(view.yes, own)), midpoint, settings);
  const singleOk = params.allowSingleSided && singleSidedEligible(midpoint, settings.rules);
  const rewardPerDay = (b: Candidate, a: Candidate): number =>
    shareOf(combineScores(b.score, a.score, settings.c, midpoint, settings.rules), othersScore, settings).rewardPerDay;
  const evaluate = (b: Candidate, a: Candidate): Choice => {
    const reward = rewardPerDay(b, a);
    const cost = b.cost + a.cost;
    return { bid: b, ask: a, reward, cost, value: reward - cost };
  };
  // Exhaustive search over (bid, ask) pairs, one side possibly not quoted (up to maxSpread² pairs).
  const bidOptions = [...bid.candidates, NOT_QUOTED];
  const askOptions = [...ask.candidates, NOT_QUOTED];
  let bestBid: Candidate | null = null;
  let bestAsk: Candidate | null = null;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const b of bidOptions) {
    for (const a of askOptions) {
      const sides = (b.ticks === null ? 0 : 1) + (a.ticks === null ? 0 : 1);
      if (sides === 0 || (sides === 1 && !singleOk)) continue;
      const value = rewardPerDay(b, a) - b.cost - a.cost;
      if (value > bestValue) {
        bestValue = value;
        bestBid = b;
        bestAsk = a;
      }
    }
  }
  let best: Choice | null = bestBid !== null && bestAsk !== null ? evaluate(bestBid, bestAsk) : null;
  const diagnostics = {
    midpoint,
    toxicityBidTicks: toxicity.bid.ticks,
    toxicityAskTicks: toxicity.ask.ticks,
    fillRateA: intensity.a,
    fillDecayK: intensity.k,
  };
  if (best === null || !(best.value > params.minEdgePerDay)) return none(diagnostics);

  const kept = previousChoice(previous, bid, ask, singleOk, evaluate);
  if (kept !== null && kept.value > params.minEdgePerDay && kept.value >= best.value - params.requoteThreshold * Math.abs(best.value)) {
    best = kept;
  }

  const level = (c: Candidate, side: SidePlan): FloatLevel[] =>
    c.ticks === null ? [] : [{ price: c.ticks / TICKS_PER_UNIT, shares: side.sizeRaw / RAW_PER_UNIT }];
  const intents = buildYesLadder(
    {
      bids: level(best.bid, bid),
      asks: level(best.ask, ask),
      fair: midpoint,
      postOnly: params.postOnly,
      yesToSellRaw: view.position.yesRaw,
      noToSellRaw: view.position.noRaw,
      minSizeRaw,
      touch: { bestBidTicks: view.yes.bestBidTicks, bestAskTicks: view.yes.bestAskTicks },
    },
    view.market,
  );
  const twoSided = intents.length === 2;
  if (intents.length === 0 || (!twoSided && !singleOk)) return none(diagnostics);
  return {
    intents,
    diagnostics: {
      quoting: 1,
      ...diagnostics,
      expectedRewardPerDay: expectedRewardPerDay(view, intents, own),
      expectedAdverseCostPerDay: best.cost,
      expectedValuePerDay: best.value,
    },
  };
}

interface SideContext {
  readonly params: LiquidityRewardsParams;
  readonly view: MarketView;
  readonly settings: RewardSettings;
  readonly band: TickBand;
  readonly midpoint: number;
  readonly minSizeRaw: number;
  readonly baseSizeRaw: number;
  readonly a: number;
  readonly k: number;
}

/**
 * A side's size (cut by toxicity, capped by the inventory room, ≥ minSize or not quoted), the token it
 * trades through, and its candidate prices: strictly on its side of the midpoint, within maxSpread·fraction,
 * inside the band for that token, and (post-only) not through the touch.
 */
function planSide(side: YesSide, ctx: SideContext, toxicityTicks: number, roomShares: number, heldRaw: number): SidePlan {
  const { params, view, settings, band, midpoint, minSizeRaw } = ctx;
  const empty = (sizeRaw: number, token: Outcome): SidePlan => ({ sizeRaw, token, toxicityTicks, candidates: [] });
  const toxicShare = Math.min(1, toxicityTicks / params.toxicityOffTicks);
  const cut = roundSizeToStep((ctx.baseSizeRaw / RAW_PER_UNIT) * (1 - params.toxicSizeReduction * toxicShare));
  const roomRaw = roomShares > 0 ? roundSizeToStep(roomShares) : 0;
  const sizeRaw = Math.min(Math.max(minSizeRaw, cut), roomRaw);
  const ownToken: Outcome = side === 'bid' ? 'NO' : 'YES';
  const token: Outcome = sizeRaw > 0 && sizeRaw <= heldRaw ? ownToken : side === 'bid' ? 'YES' : 'NO';
  if (toxicityTicks >= params.toxicityOffTicks || sizeRaw < minSizeRaw) return empty(sizeRaw, token);

  const yesBand = yesTermsBand(band, token);
  const midTicks = midpoint * TICKS_PER_UNIT;
  const reach = settings.maxSpreadTicks * params.maxSpreadFraction;
  const adverse = params.baseAdverseTicks + params.toxicityWeight * toxicityTicks;
  const shares = sizeRaw / RAW_PER_UNIT;
  const touch = side === 'bid' ? view.yes.bestAskTicks : view.yes.bestBidTicks;
  const floor = modelMinHalfSpread(view, params.uncertaintyMultiplier);
  const loaded = Math.max(-1, Math.min(1, netYesShares(view.position) / params.inventorySkewShares));
  const skewTicks = params.inventorySkewTicks * Math.max(0, side === 'bid' ? loaded : -loaded);
  const modelLimit = view.model ? (side === 'bid' ? (view.model.fair - floor) * TICKS_PER_UNIT - skewTicks : (view.model.fair + floor) * TICKS_PER_UNIT + skewTicks) : null;
  const candidates: Candidate[] = [];
  // Farthest first, so that among equal values the safer (wider) quote wins.
  const nearest = side === 'bid' ? Math.ceil(midTicks) - 1 : Math.floor(midTicks) + 1;
  const farthest = side === 'bid' ? Math.ceil(midTicks - reach - 1e-9) : Math.floor(midTicks + reach + 1e-9);
  const step = side === 'bid' ? 1 : -1;
  for (let ticks = farthest; side === 'bid' ? ticks <= nearest : ticks >= nearest; ticks += step) {
    if (ticks < yesBand.minTicks || ticks > yesBand.maxTicks) continue;
    if (params.postOnly && touch !== null && (side === 'bid' ? ticks >= touch : ticks <= touch)) continue;
    // A priced market: never on the wrong side of the model's fair value, nor within its uncertainty of it.
    if (modelLimit !== null && (side === 'bid' ? ticks > modelLimit : ticks < modelLimit)) continue;
    const distance = Math.abs(midTicks - ticks);
    const fillsPerDay = ctx.a * Math.exp(-ctx.k * distance);
    const cost = (shares * fillsPerDay * Math.max(0, adverse - distance)) / TICKS_PER_UNIT;
    candidates.push({ ticks, score: orderScore(sizeRaw, distance, settings), cost });
  }
  return { sizeRaw, token, toxicityTicks, candidates };
}

/** The previous quote (slots bid-0 / ask-0) if each side is still a candidate (or was not quoted). */
function previousChoice(
  previous: PlanInput['previous'],
  bid: SidePlan,
  ask: SidePlan,
  singleOk: boolean,
  evaluate: (b: Candidate, a: Candidate) => Choice,
): Choice | null {
  if (previous.length === 0) return null;
  let prevBid: number | null = null;
  let prevAsk: number | null = null;
  for (const order of previous) {
    const yes = toYesTerms(order.token, order.side, order.priceTicks);
    if (yes.side === 'bid') prevBid = yes.priceTicks;
    else prevAsk = yes.priceTicks;
  }
  const find = (plan: SidePlan, ticks: number | null): Candidate | null =>
    ticks === null ? NOT_QUOTED : (plan.candidates.find((c) => c.ticks === ticks) ?? null);
  const b = find(bid, prevBid);
  const a = find(ask, prevAsk);
  if (b === null || a === null) return null;
  const sides = (b.ticks === null ? 0 : 1) + (a.ticks === null ? 0 : 1);
  if (sides === 0 || (sides === 1 && !singleOk)) return null;
  return evaluate(b, a);
}

const liquidityRewards: StrategyModule<LiquidityRewardsParams> = {
  name: 'liquidity-rewards',
  description: 'Quotes inside the reward band at or above the reward minimum size where expected reward minus adverse-selection cost is best; backs away when fills turn toxic. Needs no inventory.',
  paramsSchema: liquidityRewardsParamsSchema,
  create: (params) => strategyFromPlanner((input) => applyRewardQuoting(planLiquidityRewards(params, input), input, params.rewardQuoting)),
};

export default liquidityRewards;
