/**
 * The config written back in the file's own names and units: the inverse of the schema's conversion (schema.ts
 * `toAppConfig`, pricing-schema.ts `toPricingConfig`, chain-schema.ts). What `check-config` prints.
 *
 * Owns: `configToFile`, a pure function. Invariants: its output is a valid config file that loads back to the same
 * `AppConfig` (prices as decimals, sizes in shares, amounts in USDC, durations in the file's `…Sec` keys, credentials
 * as variable NAMES); every field of `AppConfig` is written: each section is taken apart field by field and the
 * compiler rejects a field left over (`noneLeft`), so a field added to a section must be added here too.
 */
import { rawToDecimal } from '../core/venue-rules/index.js';
import { chainToFile } from './chain-schema.js';
import { utcTimeOfDayText } from './rewards-schema.js';
import type { PricingConfig } from './pricing-schema.js';
import type { SurfaceSettings } from '../pricing/surface/index.js';
import type { AppConfig, MarketRiskOverride, MarketSelector, PriceBand, SimFlowConfig, SimRewardsConfig, SizeTolerance, VenueConfig } from './types.js';

type FileObject = Record<string, unknown>;

/** Compile-time check that a destructuring took every field of a section. */
function noneLeft(rest: Record<string, never>): void {
  void rest;
}

const sec = (ms: number): number => ms / 1000;
/** `venue.markets`' default (schema.ts). */
const SIM_DEFAULT_MARKETS = 3;
const band = (b: PriceBand): FileObject => ({ min: b.minTicks / 1000, max: b.maxTicks / 1000 });
/** Shares or USDC as the file writes them: a number when exact as one, else a decimal string. */
const units = (raw: number): number | string => {
  const text = rawToDecimal(raw);
  return String(Number(text)) === text ? Number(text) : text;
};

/** The whole file. `strategyParams`: the strategy's params to print (e.g. with the strategy's defaults filled in). */
export function configToFile(config: AppConfig, strategyParams: unknown = config.strategy.params): FileObject {
  const { version, venue, credentials, markets, strategy, orders, risk, rateLimits, maintenance, redemption, capital, metrics, database, log, shutdown, startup, pricing, calibration, feed, rewards, ...rest } = config;
  noneLeft(rest);
  return {
    version,
    venue: venueToFile(venue),
    ...(credentials === null ? {} : { credentials: credentialsToFile(credentials) }),
    markets: marketsToFile(markets),
    strategy: { name: strategy.name, params: strategyParams },
    orders: ordersToFile(orders),
    risk: riskToFile(risk),
    rateLimits: rateLimitsToFile(rateLimits),
    maintenance: { pollIntervalSec: sec(maintenance.pollIntervalMs), ledgerCheckSec: sec(maintenance.ledgerCheckMs), historyPollSec: sec(maintenance.historyPollMs) },
    redemption: { mode: redemption.mode, retryInitialSec: sec(redemption.retryInitialMs), retryMaxSec: sec(redemption.retryMaxMs) },
    capital: {
      mode: capital.mode,
      mergeMinSets: units(capital.mergeMinSetsRaw),
      mergeMinTimeToSettleSec: sec(capital.mergeMinTimeToSettleMs),
      intervalSec: sec(capital.intervalMs),
      chainCheckSec: sec(capital.chainCheckMs),
      ethPriceUsdc: units(capital.ethPriceUsdcRaw),
      chainUsdcTolerance: units(capital.chainUsdcToleranceRaw),
      chainUsdcInFlightSec: sec(capital.chainUsdcInFlightMs),
    },
    metrics: { ...metrics },
    database: { path: database.path },
    log: { level: log.level, pretty: log.pretty, statusIntervalSec: sec(log.statusIntervalMs) },
    shutdown: { ...shutdown },
    startup: { venueTimeoutSec: sec(startup.venueTimeoutMs) },
    pricing: pricingToFile(pricing),
    calibration: { enabled: calibration.enabled, offsetsSec: calibration.offsetsMs.map(sec) },
    feed: { watchdogIntervalSec: sec(feed.watchdogIntervalMs), quietThresholdSec: sec(feed.quietThresholdMs), staleAfterSec: sec(feed.staleAfterMs), firstBookWaitSec: sec(feed.firstBookWaitMs) },
    rewards: rewardsToFile(rewards),
  };
}

function rewardsToFile(rewards: AppConfig['rewards']): FileObject {
  const { accrual, venuePollMs, rebateRateFallback, feeCurve, scoring, minuteScoring, payoutCycleMs, payoutReadDelayMs, payoutAtUtcMs, venueEpochs, takerBuyShare, tradeResolution, creatorFee, ...rest } = rewards;
  noneLeft(rest);
  const f = venueEpochs.fields;
  const fields = { start: [...f.start], end: [...f.end], paidAt: [...f.paidAt], paid: [...f.paid], status: [...f.status], rewards: [...f.rewards], rebates: [...f.rebates], markets: [...f.markets], market: [...f.market] };
  return {
    accrual,
    venuePollSec: sec(venuePollMs),
    rebateRateFallback,
    feeCurve: { ...feeCurve },
    scoring: { ...scoring },
    minuteScoring,
    payoutCycleSec: payoutCycleMs === null ? null : sec(payoutCycleMs),
    payoutReadDelaySec: payoutReadDelayMs === null ? null : sec(payoutReadDelayMs),
    payoutTimeUtc: utcTimeOfDayText(payoutAtUtcMs),
    venueEpochs: { fields, epochLengthSec: venueEpochs.epochLengthMs === null ? null : sec(venueEpochs.epochLengthMs) },
    takerBuyShare,
    creatorFee: { shareOfTakerFee: creatorFee.shareOfTakerFee, venueCreators: [...creatorFee.venueCreators] },
    tradeResolution: { enabled: tradeResolution.enabled, maxAgeSec: sec(tradeResolution.maxAgeMs), maxPages: tradeResolution.maxPages },
  };
}

function venueToFile(venue: VenueConfig): FileObject {
  if (venue.kind === 'live') {
    const { kind, baseUrl, socketUrl, socketNamespace, headerPrefix, chainId, eip712DomainName, signatureType, priceBand, units: socketUnits, chain, ...rest } = venue;
    noneLeft(rest);
    return { kind, baseUrl, socketUrl, socketNamespace, headerPrefix, chainId, eip712DomainName, signatureType, priceBand: band(priceBand), units: { ...socketUnits }, chain: chainToFile(chain) };
  }
  const { kind, seed, markets, startingCollateralRaw, serverManagedWallet, startBeforeHourMs, flow, settlementDelayMs, payoutDelayMs, port, priceBand, units: socketUnits, world, underlying, feeModel, rewards, ...rest } = venue;
  noneLeft(rest);
  return {
    kind,
    seed,
    // The crypto world lists tickers × cadences × strikes (`underlying`), not `markets`: its default is left out so
    // nobody reads it as the number traded (written when the file sets another value: the output loads back the same).
    ...(world === 'crypto' && markets === SIM_DEFAULT_MARKETS ? {} : { markets }),
    startingCollateral: units(startingCollateralRaw),
    serverManagedWallet,
    ...(startBeforeHourMs === undefined ? {} : { startBeforeHourSec: startBeforeHourMs / 1000 }),
    flow: flowToFile(flow),
    settlementDelayMs,
    payoutDelayMs,
    port,
    priceBand: band(priceBand),
    units: { ...socketUnits },
    world,
    underlying: { ...underlying, tickers: [...underlying.tickers], cadences: [...underlying.cadences] },
    ...(feeModel === undefined ? {} : { feeModel }),
    rewards: simRewardsToFile(rewards),
  };
}

function simRewardsToFile(r: SimRewardsConfig): FileObject {
  const { enabled, scoreIntervalMs, payoutIntervalMs, payoutAtUtcMs, minSizeRaw, rebateRate, ...rest } = r;
  noneLeft(rest);
  return {
    ...(enabled === undefined ? {} : { enabled }),
    scoreIntervalSec: scoreIntervalMs / 1000,
    payoutIntervalSec: payoutIntervalMs / 1000,
    payoutTimeUtc: utcTimeOfDayText(payoutAtUtcMs),
    ...(minSizeRaw === undefined ? {} : { minSize: units(minSizeRaw) }),
    ...(rebateRate === undefined ? {} : { rebateRate }),
  };
}

function flowToFile(flow: SimFlowConfig): FileObject {
  const { makerSizeRaw, ...others } = flow;
  return { ...others, ...(makerSizeRaw === undefined ? {} : { makerSize: units(makerSizeRaw) }) };
}

function credentialsToFile(c: NonNullable<AppConfig['credentials']>): FileObject {
  const { apiTokenId, apiSecret, privateKey, onBehalfOf, ...rest } = c;
  noneLeft(rest);
  return { apiTokenId, apiSecret, privateKey, ...(onBehalfOf === undefined ? {} : { onBehalfOf: onBehalfOf.kind === 'id' ? onBehalfOf.id : onBehalfOf.env }) };
}

function marketsToFile(m: AppConfig['markets']): FileObject {
  const { slugs, groups, select, exclude, exclusive, discovery, ...rest } = m;
  noneLeft(rest);
  return {
    slugs: [...slugs],
    groups: [...groups],
    ...(select === null ? {} : { select: selectorToFile(select) }),
    exclude: [...exclude],
    exclusive,
    discovery: { pollIntervalSec: sec(discovery.pollIntervalMs), lifecycleEvents: discovery.lifecycleEvents, clockMarginSec: sec(discovery.clockMarginMs) },
  };
}

/** `markets.select`: the optional rules only when set (null = absent), so the file loads back to the same rules. */
function selectorToFile(s: MarketSelector): FileObject {
  const { top, max, by, rewardableOnly, minDailyRewardRaw, tickers, cadences, joinBeforeSettlementMs, minFairTicks, maxFairTicks, fairHysteresisTicks, ...rest } = s;
  noneLeft(rest);
  return {
    ...(top === null ? {} : { top }),
    ...(max === null ? {} : { max }),
    by,
    rewardableOnly,
    minDailyReward: units(minDailyRewardRaw),
    ...(tickers === null ? {} : { tickers: [...tickers] }),
    ...(cadences === null ? {} : { cadences: [...cadences] }),
    ...(joinBeforeSettlementMs === null ? {} : { joinBeforeSettlementSec: sec(joinBeforeSettlementMs) }),
    ...(minFairTicks === null ? {} : { minFair: minFairTicks / 1000 }),
    ...(maxFairTicks === null ? {} : { maxFair: maxFairTicks / 1000 }),
    fairHysteresis: fairHysteresisTicks / 1000,
  };
}

const tolerance = (t: SizeTolerance): number | string => (t.kind === 'percent' ? `${t.percent}%` : units(t.raw));

function ordersToFile(o: AppConfig['orders']): FileObject {
  const { botTag, refreshTolerance, maxOrderAgeMs, filledOrderDelayMs, postOnly, foreignOrders, recvWindowMs, cancelReplace, batchPlacements, startupListing, ...rest } = o;
  noneLeft(rest);
  return {
    botTag,
    refreshTolerance: { priceTicks: refreshTolerance.priceTicks, size: tolerance(refreshTolerance.size) },
    maxOrderAgeSec: sec(maxOrderAgeMs),
    filledOrderDelaySec: sec(filledOrderDelayMs),
    postOnly,
    foreignOrders,
    recvWindowMs,
    cancelReplace: { ...cancelReplace },
    batchPlacements,
    startupListing,
  };
}

function overrideToFile(o: MarketRiskOverride): FileObject {
  return {
    ...(o.maxPositionPerTokenRaw === undefined ? {} : { maxPositionPerToken: units(o.maxPositionPerTokenRaw) }),
    ...(o.maxNetPositionRaw === undefined ? {} : { maxNetPosition: units(o.maxNetPositionRaw) }),
    ...(o.maxOpenOrders === undefined ? {} : { maxOpenOrders: o.maxOpenOrders }),
    ...(o.priceBand === undefined ? {} : { priceBand: band(o.priceBand) }),
    ...(o.stopBeforeExpiryMs === undefined ? {} : { stopBeforeExpirySec: sec(o.stopBeforeExpiryMs) }),
  };
}

function riskToFile(r: AppConfig['risk']): FileObject {
  const { maxPositionPerTokenRaw, maxNetPositionRaw, maxOpenOrders, priceBand, stopBeforeExpiryMs, maxNotionalRaw, dailyLossLimitRaw, staleGraceMs, socketDownGraceMs, maxAuthRefusals, perMarket, ...rest } = r;
  noneLeft(rest);
  return {
    maxPositionPerToken: units(maxPositionPerTokenRaw),
    maxNetPosition: units(maxNetPositionRaw),
    maxOpenOrders,
    priceBand: band(priceBand),
    stopBeforeExpirySec: sec(stopBeforeExpiryMs),
    maxNotional: units(maxNotionalRaw),
    dailyLossLimit: units(dailyLossLimitRaw),
    staleGraceSec: sec(staleGraceMs),
    socketDownGraceSec: sec(socketDownGraceMs),
    maxAuthRefusals,
    perMarket: Object.fromEntries(Object.entries(perMarket).map(([slug, o]) => [slug, overrideToFile(o)])),
  };
}

function rateLimitsToFile(l: AppConfig['rateLimits']): FileObject {
  const { shared, maxConcurrent, minTimeMs, timeoutMs, retry, ...rest } = l;
  noneLeft(rest);
  return {
    shared: shared === null ? null : { redis: shared.redis.kind === 'env' ? shared.redis.env : shared.redis.url, fallbackShare: shared.fallbackShare },
    maxConcurrent,
    minTimeMs,
    timeoutMs,
    retry: { maxRetries: retry.maxRetries, initialBackoffMs: retry.initialBackoffMs, maxBackoffMs: retry.maxBackoffMs, maxRetryAfterSec: sec(retry.maxRetryAfterMs) },
  };
}

/** The shortest decimal of the noise (bps) whose square is exactly the pricer's variance (float-exact round trip). */
function noiseBps(variance: number): number {
  const exact = Math.sqrt(variance) * 10_000;
  for (let digits = 1; digits <= 17; digits++) {
    const candidate = Number(exact.toPrecision(digits));
    const noise = candidate / 10_000;
    if (noise * noise === variance) return candidate;
  }
  return exact;
}

function surfaceToFile(s: SurfaceSettings): FileObject {
  const f = s.filter;
  return {
    impliedWeight: s.impliedWeight,
    profile: { strength: s.profile.strength, hourly: [...s.profile.hourly] },
    realizedLookbackSec: sec(s.realizedLookbackMs),
    implied: { maxSpread: f.maxSpread, midMin: f.midMin, midMax: f.midMax, minAbsD: f.minAbsD, windowSec: sec(s.windowMs), maxSpotAgeSec: sec(s.maxSpotAgeMs), sampleEverySec: sec(s.sampleEveryMs), minSamples: s.minSamples, trim: s.trim },
    tails: s.tailFit === null ? { fit: false } : { fit: true, minDof: s.tailFit.minDof, maxDof: s.tailFit.maxDof, refitEverySec: sec(s.tailFit.refitEveryMs) },
    gapWeight: s.gapWeight,
  };
}

function pricingToFile(p: PricingConfig): FileObject {
  const { pricer, store, feedIds, maxExposureUsdc, sources, hermes, ...rest } = p;
  noneLeft(rest);
  const v = pricer.volatility;
  return {
    sources: [...sources],
    hermes: { ...hermes },
    unpriced: pricer.unpricedCrypto,
    feedIds: { ...feedIds },
    staleSec: sec(store.staleMs),
    maxDivergenceBps: store.maxDivergenceBps,
    volatility: {
      fastHalfLifeSec: sec(v.fastHalfLifeMs),
      slowHalfLifeSec: sec(v.slowHalfLifeMs),
      fastWeight: v.fastWeight,
      jumpCapSigmas: v.jumpCapSigmas,
      priorAnnualVol: v.priorAnnualVol,
      warmupSec: sec(v.warmupMs),
      minAnnualVol: v.minAnnualVol,
      maxAnnualVol: v.maxAnnualVol,
    },
    surface: surfaceToFile(pricer.surface),
    tails: { ...pricer.tails },
    settlementNoiseBps: noiseBps(pricer.settlementNoiseVariance),
    volRelErr: pricer.volRelErr,
    stopBeforeSettlementSec: sec(pricer.stopBeforeSettlementMs),
    maxExposureUsdc,
    guard: { enabled: pricer.guard.enabled, k: pricer.guard.k, windowSec: sec(pricer.guard.windowMs), cooldownSec: sec(pricer.guard.cooldownMs) },
  };
}
