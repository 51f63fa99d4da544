/**
 * The simulator ENGINE's public surface: in-memory, deterministic, transport-free exchange
 * (markets, accounts and balances, matching, settlement, lifecycle, synthetic traders).
 * The server half (src/sim/server) codes against this file only.
 */
export type * from './types.js';
export { createEngine } from './engine.js';
export { curveFeeBps, FEE_MODELS, fillFees, takerFee, takerFeeBps, VENUE_FEE_CURVE } from './fees.js';
export { accountScores, combineSides, DEFAULT_REWARD_RULES, orderScore, roundPoolRaw, splitPool, type RewardTerms } from './reward-scoring.js';
export { generateMarkets } from './market-gen.js';
export { ManualClock } from '../../core/clock.js';
export { EngineConfigError } from './errors.js';
export { syntheticOptionsSchema } from './synthetic-config.js';
export { DEFAULT_UNDERLYINGS, trueDigital, UnderlyingWorld, type UnderlyingSpec, type WorldOptions } from './underlying.js';
export { keyedStream, Prng } from './prng.js';
export { DEFAULT_INTRADAY_PROFILE, DEFAULT_JUMP_TAIL, mixtureDigital, normaliseProfile, profileSeconds, type JumpTail } from './true-surface.js';
export {
  CADENCE_CATEGORY_ID,
  CADENCE_LABEL,
  CADENCE_PERIOD_MS,
  CADENCES,
  cadenceCovering,
  DEFAULT_CRYPTO_MARKETS,
  nextExpiry,
  strikeLadder,
  worldFair,
  type Cadence,
  type CryptoMarketOptions,
} from './crypto-markets.js';
export { cryptoWorldOptions, DEFAULT_CRYPTO_WORLD, type CryptoWorldSettings } from './world-options.js';
