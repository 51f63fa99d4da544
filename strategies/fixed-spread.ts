/**
 * fixed-spread: the Hummingbot-style ladder, done right for outcome tokens.
 *
 * Quotes in YES terms around a reference price (the model's fair value on a priced market; mid / microprice /
 * adjusted midpoint of the book WITHOUT the bot's own orders, first usable in the configured order; none usable → no
 * quotes at all). On a priced market no quote comes closer to the model's fair value than `uncertaintyMultiplier` ×
 * its uncertainty.
 * Level i: bid at centre − max(bidSpread + i·levelSpacing, minSpread), ask at centre + max(askSpread +
 * i·levelSpacing, minSpread), size orderSize + i·sizeIncrement. Inventory skew toward a target: with
 * d = clamp((net YES − target) / range, −1, 1), bid sizes × (1 − sizeSkew·d), ask sizes × (1 + sizeSkew·d),
 * and the centre shifts by −d·maxPriceShift (bounded). Price ceiling/floor: at or above the ceiling it
 * only sells, at or below the floor it only buys. Asks are SELL YES while YES inventory covers them,
 * else BUY NO at 1 − p (exact complement, same slot); likewise bids are SELL NO at 1 − p while NO
 * inventory covers them, else BUY YES. Slots bid-0.., ask-0...
 */
import { z } from 'zod';
import { RAW_PER_UNIT, SIZE_STEP_RAW } from '../src/core/venue-rules/index.js';
import type { StrategyModule } from '../src/strategy/contract.js';
import { isExpired } from '../src/strategy/market-clock.js';
import { strategyFromPlanner } from '../src/strategy/planner.js';
import { applyRewardQuoting, rewardQuotingSchema } from '../src/strategy/reward-quoting.js';
import type { PlanInput, QuotePlan } from '../src/strategy/planner.js';
import { modelMinHalfSpread, readModelSchema, viewAsRead } from '../src/strategy/model-spread.js';
import { DEFAULT_REFERENCE_SOURCES, referencePrice, referenceSourcesSchema } from '../src/strategy/reference-price.js';
import { expectedRewardPerDay } from '../src/strategy/rewards.js';
import { buildYesLadder } from '../src/strategy/rounding.js';
import type { FloatLevel } from '../src/strategy/rounding.js';
import { netYesShares } from '../src/strategy/yes-terms.js';

const price = z.number().gt(0).lt(1);
const spread = z.number().min(0).lt(1);

export const fixedSpreadParamsSchema = z
  .object({
    /** Reference price sources, first usable wins ('model': the fair value from the underlying, on priced markets). */
    referencePrice: referenceSourcesSchema.default([...DEFAULT_REFERENCE_SOURCES]),
    /** On a priced market, no quote closer to the model's fair value than this many times its uncertainty. */
    uncertaintyMultiplier: z.number().min(0).max(20).default(1),
    /** A book reference's guard reads the model without the surface ('realized'), none of it ('none') or all of it ('full'): src/strategy/model-spread.ts. */
    readModel: readModelSchema,
    /** mid/microprice are not used while the others' touch is wider than this (price units); null: no limit. */
    maxTouchSpread: spread.nullable().default(null),
    /** Distance of the first bid below the centre, price units (0.02 = 2 cents). */
    bidSpread: spread.default(0.02),
    askSpread: spread.default(0.02),
    /** No quote closer than this to the centre, price units. */
    minSpread: spread.default(0.005),
    levels: z.number().int().min(1).max(10).default(1),
    /** Extra distance per level, price units. */
    levelSpacing: spread.default(0.01),
    /** Shares of level 0. */
    orderSize: z.number().gt(0).default(10),
    /** Shares added per level. */
    sizeIncrement: z.number().min(0).default(0),
    /** Net YES shares (YES − NO) the skew steers toward. */
    inventoryTarget: z.number().default(0),
    /** Deviation from the target, in shares, at which the skew is full. */
    inventoryRange: z.number().gt(0).default(100),
    /** 0..1: how much sizes tilt (1: the side that adds inventory goes to 0 at full skew). */
    sizeSkew: z.number().min(0).max(1).default(1),
    /** Largest centre shift from inventory, price units. */
    maxPriceShift: z.number().min(0).max(0.5).default(0.01),
    /** At or above this reference price: no bids. */
    priceCeiling: price.nullable().default(null),
    /** At or below this reference price: no asks. */
    priceFloor: price.nullable().default(null),
    /** Orders smaller than this many shares are not sent (0: one size step). */
    minOrderSize: z.number().min(0).default(0),
    postOnly: z.boolean().default(true),
    /** Keep a reward-earning quote on each side where its expected reward beats its adverse selection (src/strategy/reward-quoting.ts). */
    rewardQuoting: rewardQuotingSchema,
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.priceCeiling !== null && p.priceFloor !== null && p.priceFloor >= p.priceCeiling) {
      ctx.addIssue({ code: 'custom', path: ['priceFloor'], message: 'must be below priceCeiling' });
    }
    if (p.bidSpread + p.askSpread + p.minSpread <= 0) {
      ctx.addIssue({ code: 'custom', path: ['bidSpread'], message: 'bidSpread, askSpread and minSpread cannot all be 0' });
    }
  });

export type FixedSpreadParams = z.infer<typeof fixedSpreadParamsSchema>;

export function planFixedSpread(params: FixedSpreadParams, input: PlanInput): QuotePlan {
  const view = viewAsRead(input.view, params.referencePrice, params.readModel);
  const own = input.own;
  const none = (extra: Record<string, number> = {}): QuotePlan => ({ intents: [], diagnostics: { quoting: 0, ...extra } });
  if (isExpired(view.market, view.now)) return none();
  const reference = referencePrice(view, { sources: params.referencePrice, own, maxTouchSpread: params.maxTouchSpread });
  if (reference === null) return none();

  const skew = clamp((netYesShares(view.position) - params.inventoryTarget) / params.inventoryRange, -1, 1);
  const centre = reference.price - skew * params.maxPriceShift;
  // The model's uncertainty keeps quotes away from its fair value, whatever the spreads and the skew say.
  const modelFloor = modelMinHalfSpread(view, params.uncertaintyMultiplier);
  const fair = view.model?.fair ?? null;
  const quoteBids = params.priceCeiling === null || reference.price < params.priceCeiling;
  const quoteAsks = params.priceFloor === null || reference.price > params.priceFloor;

  const bids: FloatLevel[] = [];
  const asks: FloatLevel[] = [];
  for (let i = 0; i < params.levels; i += 1) {
    const size = params.orderSize + i * params.sizeIncrement;
    const extra = i * params.levelSpacing;
    let bidPrice = centre - Math.max(params.bidSpread + extra, params.minSpread);
    let askPrice = centre + Math.max(params.askSpread + extra, params.minSpread);
    if (fair !== null) {
      bidPrice = Math.min(bidPrice, fair - modelFloor);
      askPrice = Math.max(askPrice, fair + modelFloor);
    }
    bids.push({ price: bidPrice, shares: quoteBids ? size * (1 - params.sizeSkew * skew) : 0 });
    asks.push({ price: askPrice, shares: quoteAsks ? size * (1 + params.sizeSkew * skew) : 0 });
  }
  const intents = buildYesLadder(
    {
      bids,
      asks,
      fair: centre,
      postOnly: params.postOnly,
      yesToSellRaw: view.position.yesRaw,
      noToSellRaw: view.position.noRaw,
      minSizeRaw: Math.max(SIZE_STEP_RAW, Math.ceil(params.minOrderSize * RAW_PER_UNIT - 1e-6)),
      touch: { bestBidTicks: view.yes.bestBidTicks, bestAskTicks: view.yes.bestAskTicks },
    },
    view.market,
  );
  return {
    intents,
    diagnostics: {
      quoting: intents.length > 0 ? 1 : 0,
      referencePrice: reference.price,
      usingModel: reference.source === 'model' ? 1 : 0,
      modelUncertainty: view.model?.uncertainty ?? 0,
      centre,
      inventorySkew: skew,
      expectedRewardPerDay: expectedRewardPerDay(view, intents, own),
    },
  };
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

const fixedSpread: StrategyModule<FixedSpreadParams> = {
  name: 'fixed-spread',
  description: 'Ladder of bids and asks at fixed distances from a reference price, with inventory skew; asks become BUY NO when YES is not held.',
  paramsSchema: fixedSpreadParamsSchema,
  create: (params) => strategyFromPlanner((input) => applyRewardQuoting(planFixedSpread(params, input), input, params.rewardQuoting)),
};

export default fixedSpread;
