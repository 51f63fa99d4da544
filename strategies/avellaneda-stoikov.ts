/**
 * avellaneda-stoikov: optimal quotes from Avellaneda–Stoikov (finite horizon, until the market's expiry)
 * or Guéant–Lehalle–Fernandez-Tapia (infinite horizon), selectable with `model`.
 *
 * The maths runs in log-odds x = ln(p/(1−p)) and maps back with the logistic: bid = logistic(r − s/2),
 * ask = logistic(r + s/2), so quotes stay inside (0, 1) however large the spread or the inventory shift,
 * and σ means the same near 0.02 as near 0.5 (see strategies/README.md). Units: time in hours (σ in
 * log-odds per √hour, A in fills per hour, T − t in hours), distance in log-odds (k per log-odds),
 * inventory q in lots of `orderSize` shares of net YES (YES − NO).
 *
 * σ comes from the model on a priced market (the underlying's volatility mapped to log-odds,
 * src/strategy/model-spread.ts), else is estimated online from the mid history (EWMA, blended with `sigmaFallback`
 * during warm-up); quotes keep `uncertaintyMultiplier` × the model's uncertainty from its fair value; k and
 * A are configured or estimated from the bot's fills (bounded, with fallbacks). Near expiry the AS
 * spread collapses to (2/γ)·ln(1 + γ/k) and r → mid; after expiry it quotes nothing. Max inventory:
 * the side that would take |net YES| beyond `maxInventory` shrinks to the room left, or is not quoted.
 */
import { z } from 'zod';
import { TICKS_PER_UNIT } from '../src/core/venue-rules/index.js';
import type { StrategyModule } from '../src/strategy/contract.js';
import { estimateFillIntensity } from '../src/strategy/fill-intensity.js';
import { logistic, logit } from '../src/strategy/log-odds.js';
import { isExpired, msToExpiry } from '../src/strategy/market-clock.js';
import { avellanedaStoikov, gueantLehalleFernandezTapia } from '../src/strategy/optimal-quotes.js';
import type { OptimalQuotes } from '../src/strategy/optimal-quotes.js';
import { strategyFromPlanner } from '../src/strategy/planner.js';
import { applyRewardQuoting, rewardQuotingSchema } from '../src/strategy/reward-quoting.js';
import type { PlanInput, QuotePlan } from '../src/strategy/planner.js';
import { modelLogOddsSigma, modelMinHalfSpread, readModelSchema, viewAsRead } from '../src/strategy/model-spread.js';
import { DEFAULT_REFERENCE_SOURCES, referencePrice, referenceSourcesSchema } from '../src/strategy/reference-price.js';
import { expectedRewardPerDay } from '../src/strategy/rewards.js';
import { buildYesLadder } from '../src/strategy/rounding.js';
import { estimateLogOddsVolatility } from '../src/strategy/volatility.js';
import { netYesShares } from '../src/strategy/yes-terms.js';

export { avellanedaStoikov, gueantLehalleFernandezTapia } from '../src/strategy/optimal-quotes.js';

const HOUR_MS = 3_600_000;
const positive = z.number().gt(0);

export const avellanedaStoikovParamsSchema = z
  .object({
    /** 'avellaneda-stoikov': finite horizon to expiry; 'glft': infinite-horizon closed form. */
    model: z.enum(['avellaneda-stoikov', 'glft']).default('avellaneda-stoikov'),
    referencePrice: referenceSourcesSchema.default([...DEFAULT_REFERENCE_SOURCES]),
    /** On a priced market, no quote closer to the model's fair value than this many times its uncertainty. */
    uncertaintyMultiplier: z.number().min(0).max(20).default(1),
    /** A book reference's guard reads the model without the surface ('realized'), none of it ('none') or all of it ('full'): src/strategy/model-spread.ts. */
    readModel: readModelSchema,
    maxTouchSpread: z.number().gt(0).lt(1).nullable().default(null),
    /** Risk aversion γ (per log-odds per lot). */
    gamma: positive.default(0.1),
    /** Shares per quote; also the inventory lot. */
    orderSize: positive.default(10),
    /** Largest |net YES| in shares. */
    maxInventory: positive.default(100),
    /** AS horizon: min(time to expiry, this) hours; also the horizon of a market without expiry. */
    horizonCapHours: positive.default(24),
    /** σ used before the estimate is warm, log-odds per √hour. */
    sigmaFallback: positive.default(0.1),
    sigmaHalfLifeMinutes: positive.default(60),
    sigmaWarmupObservations: z.number().int().min(0).default(30),
    sigmaMin: z.number().min(0).default(0.001),
    sigmaMax: positive.default(10),
    /** Fill-intensity decay per log-odds; null: estimated from fills. */
    k: positive.nullable().default(null),
    kFallback: positive.default(25),
    kMin: positive.default(1),
    kMax: positive.default(1000),
    /** Fill intensity at the mid, fills per hour; null: estimated from fills. */
    A: positive.nullable().default(null),
    AFallback: positive.default(20),
    AMin: positive.default(0.01),
    AMax: positive.default(10_000),
    intensityWindowHours: positive.default(24),
    intensityMinFills: z.number().int().min(1).default(10),
    /** Minimum bid–ask distance after mapping back, price units. */
    minSpread: z.number().min(0).lt(1).default(0.002),
    postOnly: z.boolean().default(true),
    /** Keep a reward-earning quote on each side where its expected reward beats its adverse selection (src/strategy/reward-quoting.ts). */
    rewardQuoting: rewardQuotingSchema,
  })
  .strict()
  .superRefine((p, ctx) => {
    const ordered = (path: string, lo: number, mid: number, hi: number): void => {
      if (!(lo <= mid && mid <= hi)) ctx.addIssue({ code: 'custom', path: [path], message: `must lie within its bounds [${lo}, ${hi}]` });
    };
    ordered('sigmaFallback', p.sigmaMin, p.sigmaFallback, p.sigmaMax);
    ordered('kFallback', p.kMin, p.kFallback, p.kMax);
    ordered('AFallback', p.AMin, p.AFallback, p.AMax);
  });

export type AvellanedaStoikovParams = z.infer<typeof avellanedaStoikovParamsSchema>;

export function planAvellanedaStoikov(params: AvellanedaStoikovParams, input: PlanInput): QuotePlan {
  const view = viewAsRead(input.view, params.referencePrice, params.readModel);
  const own = input.own;
  const none = (): QuotePlan => ({ intents: [], diagnostics: { quoting: 0 } });
  if (isExpired(view.market, view.now)) return none();
  const reference = referencePrice(view, { sources: params.referencePrice, own, maxTouchSpread: params.maxTouchSpread });
  if (reference === null) return none();

  const bookVol = estimateLogOddsVolatility(view.midHistory, view.now, {
    timeUnitMs: HOUR_MS,
    halfLifeMs: params.sigmaHalfLifeMinutes * 60_000,
    warmupObservations: params.sigmaWarmupObservations,
    fallbackSigma: params.sigmaFallback,
    minSigma: params.sigmaMin,
    maxSigma: params.sigmaMax,
  });
  // A priced market: σ of the fair value implied by the underlying's volatility (src/strategy/model-spread.ts).
  const fromModel = modelLogOddsSigma(view);
  const vol = fromModel === null ? bookVol : { ...bookVol, sigma: Math.min(params.sigmaMax, Math.max(params.sigmaMin, fromModel)), warm: true };
  const configured = params.k !== null && params.A !== null;
  const intensity = configured
    ? { k: params.kFallback, a: params.AFallback, fills: 0, estimated: false }
    : estimateFillIntensity(view.recentFills, view.midHistory, view.now, {
        timeUnitMs: HOUR_MS,
        windowMs: params.intensityWindowHours * HOUR_MS,
        minFills: params.intensityMinFills,
        fallback: { k: params.kFallback, a: params.AFallback },
        bounds: { kMin: params.kMin, kMax: params.kMax, aMin: params.AMin, aMax: params.AMax },
        distance: (fillYesTicks, mid) => Math.abs(logit(fillYesTicks / TICKS_PER_UNIT) - logit(mid)),
      });
  const k = params.k ?? intensity.k;
  const a = params.A ?? intensity.a;

  const net = netYesShares(view.position);
  const lots = net / params.orderSize;
  const x = logit(reference.price);
  const toExpiry = msToExpiry(view.market, view.now);
  const hoursLeft = Math.min(params.horizonCapHours, toExpiry === null ? params.horizonCapHours : toExpiry / HOUR_MS);
  const model: OptimalQuotes =
    params.model === 'glft'
      ? gueantLehalleFernandezTapia(x, lots, params.gamma, vol.sigma, k, a)
      : avellanedaStoikov(x, lots, params.gamma, vol.sigma, k, hoursLeft);

  const centre = logistic(model.reservationPrice);
  let bid = logistic(model.reservationPrice - model.optimalSpread / 2);
  let ask = logistic(model.reservationPrice + model.optimalSpread / 2);
  if (ask - bid < params.minSpread) {
    bid = Math.min(bid, centre - params.minSpread / 2);
    ask = Math.max(ask, centre + params.minSpread / 2);
  }
  if (view.model) {
    const floor = modelMinHalfSpread(view, params.uncertaintyMultiplier);
    bid = Math.min(bid, view.model.fair - floor);
    ask = Math.max(ask, view.model.fair + floor);
  }
  const intents = buildYesLadder(
    {
      bids: [{ price: bid, shares: Math.min(params.orderSize, params.maxInventory - net) }],
      asks: [{ price: ask, shares: Math.min(params.orderSize, params.maxInventory + net) }],
      fair: centre,
      postOnly: params.postOnly,
      yesToSellRaw: view.position.yesRaw,
      noToSellRaw: view.position.noRaw,
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
      sigmaFromModel: fromModel === null ? 0 : 1,
      sigma: vol.sigma,
      sigmaWarm: vol.warm ? 1 : 0,
      sigmaObservations: vol.observations,
      k,
      A: a,
      intensityEstimated: intensity.estimated ? 1 : 0,
      inventoryLots: lots,
      reservationPrice: centre,
      spread: ask - bid,
      ...(params.model === 'avellaneda-stoikov' ? { timeLeftHours: hoursLeft } : {}),
      expectedRewardPerDay: expectedRewardPerDay(view, intents, own),
    },
  };
}

const avellanedaStoikovModule: StrategyModule<AvellanedaStoikovParams> = {
  name: 'avellaneda-stoikov',
  description: 'Avellaneda–Stoikov (to expiry) or GLFT (infinite horizon) optimal quotes computed in log-odds, with online volatility and fill-intensity estimates.',
  paramsSchema: avellanedaStoikovParamsSchema,
  create: (params) => strategyFromPlanner((input) => applyRewardQuoting(planAvellanedaStoikov(params, input), input, params.rewardQuoting)),
};

export default avellanedaStoikovModule;
