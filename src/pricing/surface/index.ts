/**
 * The volatility surface per underlying and expiry (docs/pricing.md, "The volatility surface"): the intraday
 * profile, the ladder's implied variance, the ladder's shape rules, and the surface that blends them. Pure modules
 * plus one small stateful holder of the ladder's samples (VolSurface). DEFAULT_SURFACE is what the bot runs with
 * unless `pricing.surface` says otherwise.
 */
import { DEFAULT_HOURLY_VARIANCE, makeProfile } from './profile.js';
import type { SurfaceSettings } from './surface.js';

export { DEFAULT_HOURLY_VARIANCE, FLAT_PROFILE, HOURS_PER_DAY, integratedSeconds, makeProfile, meanWeight, weightAt, type IntradayProfile } from './profile.js';
export { impliedTotalVariance, robustMean, tailCdf, tailQuantile, usableMid, type LadderFilter, type OthersTouch } from './implied.js';
export { calendarFloor, fitLadderTails, type LadderPoint, type TailFit, type TailFitSettings } from './shape.js';
export { impliedWeightOf, impliedWeightSentence, type EvidenceSettings, type ImpliedEvidence } from './evidence.js';
export { VolSurface, type ExpiryVolatility, type LadderSample, type SampleVerdict, type SurfaceSettings } from './surface.js';

export const DEFAULT_SURFACE: SurfaceSettings = {
  impliedWeight: 0.8,
  evidence: { minStrikes: 2, fullStrikes: 3, fullBooks: 12, spreadHalf: 0.05 },
  profile: makeProfile(DEFAULT_HOURLY_VARIANCE, 1),
  realizedLookbackMs: 3_600_000,
  filter: { maxSpread: 0.05, midMin: 0.1, midMax: 0.9, minAbsD: 0.1 },
  windowMs: 300_000,
  maxSpotAgeMs: 60_000,
  sampleEveryMs: 5_000,
  minSamples: 3,
  trim: 0.5,
  tailFit: null,
  gapWeight: 1,
};
