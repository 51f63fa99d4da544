/**
 * The simulator's own volatility surface, exactly as its underlying moves: an intraday profile of variance per UTC
 * hour and compound-Poisson jumps with fat tails (a jump is small, or with probability `tailShare` `tailScale` times
 * larger). From them, the true probability that a strike market settles YES, for any expiry: the variance between now
 * and settlement is the integral of the profile over the hours it spans, and the jumps are summed exactly as a
 * Poisson mixture of normals. The synthetic makers quote from it, so a ladder's books carry the world's surface.
 *
 * Owns: the default profile (the simulator's assumption, not fitted to data: quietest 03–06 UTC, the late Asian and
 * early European hours, highest 13–16 UTC around the US equity open, shaped after the commonly reported intraday
 * pattern of crypto volatility), its validation and integral, and the mixture digital. Pure. Invariants: a profile is
 * 24 finite positive multipliers normalised to mean 1 (so a day's variance is that of the annual volatility); the
 * digital is within [0, 1], falls as the strike rises, and with no jumps and a flat profile equals
 * Φ((ln(S/K) − v/2)/√v); the jump mixture is summed until less than 1e-12 of the probability is left out.
 */

/** Variance multipliers per UTC hour, 00–23, before normalisation (see the header for their source). */
export const DEFAULT_INTRADAY_PROFILE: readonly number[] = [
  1.0, 0.9, 0.8, 0.7, 0.65, 0.6, 0.65, 0.75, 0.9, 0.95, 0.95, 0.95, 1.05, 1.3, 1.6, 1.5, 1.3, 1.15, 1.05, 1.0, 1.05, 1.0, 0.95, 1.0,
];

/** Fat tails of the jumps: a share of them `tailScale` times larger (in log size) than the others. */
export interface JumpTail {
  /** Probability that a jump is a large one, [0, 1). */
  readonly tailShare: number;
  /** Log-size standard deviation of a large jump ÷ that of a small one, >= 1. */
  readonly tailScale: number;
}

/** The surface law's default tail: one jump in ten is four times larger in log size (excess kurtosis of a jump ≈ 9.7). */
export const DEFAULT_JUMP_TAIL: JumpTail = { tailShare: 0.1, tailScale: 4 };

const HOUR_MS = 3_600_000;

/** The profile checked (24 finite positive values) and normalised to mean 1. */
export function normaliseProfile(values: readonly number[], field = 'world.intradayProfile'): number[] {
  if (values.length !== 24) throw new RangeError(`${field}: must hold 24 hourly multipliers (got ${values.length})`);
  values.forEach((v, hour) => {
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${field}[${hour}]: must be finite and > 0 (got ${v})`);
  });
  const mean = values.reduce((a, b) => a + b, 0) / 24;
  return values.map((v) => v / mean);
}

export function checkJumpTail(tail: JumpTail, field = 'world.jumpTail'): JumpTail {
  if (!Number.isFinite(tail.tailShare) || tail.tailShare < 0 || tail.tailShare >= 1) throw new RangeError(`${field}.tailShare: must be in [0, 1) (got ${tail.tailShare})`);
  if (!Number.isFinite(tail.tailScale) || tail.tailScale < 1) throw new RangeError(`${field}.tailScale: must be >= 1 (got ${tail.tailScale})`);
  return tail;
}

/** The profile's multiplier at `atMs` (its UTC hour). */
export function profileAt(profile: readonly number[], atMs: number): number {
  const hour = Math.floor(atMs / HOUR_MS) % 24;
  return profile[(hour + 24) % 24] ?? 1;
}

/** ∫ profile dt from `fromMs` to `toMs`, in seconds (the seconds of a flat profile of 1). */
export function profileSeconds(profile: readonly number[], fromMs: number, toMs: number): number {
  if (!(toMs > fromMs)) return 0;
  let total = 0;
  let at = fromMs;
  while (at < toMs) {
    const hourEnd = (Math.floor(at / HOUR_MS) + 1) * HOUR_MS;
    const end = Math.min(hourEnd, toMs);
    total += profileAt(profile, at) * (end - at);
    at = end;
  }
  return total / 1000;
}

/** Φ, for the simulator's own truth (kept apart from the bot's model on purpose: the two must not share a guess). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

function erfc(x: number): number {
  // W. H. Press et al., erfc via Chebyshev fit (fractional error < 1.2e-7): enough for the simulator's flow.
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Poisson probabilities 0, 1, 2, … of mean `mean`, until less than `eps` of the mass is left (at most 400 terms). */
function poissonTerms(mean: number, eps = 1e-12): number[] {
  if (!(mean > 0)) return [1];
  const terms: number[] = [];
  let p = Math.exp(-mean);
  let cumulative = 0;
  for (let k = 0; k < 400; k += 1) {
    if (k > 0) p *= mean / k;
    terms.push(p);
    cumulative += p;
    if (1 - cumulative < eps && k >= mean) break;
  }
  return terms;
}

export interface MixtureInputs {
  readonly spot: number;
  readonly strike: number;
  /** Variance of ln S from the diffusion until settlement. */
  readonly diffusionVariance: number;
  /** Expected number of jumps until settlement. */
  readonly expectedJumps: number;
  /** Log-size standard deviation of a small jump. */
  readonly jumpLogStd: number;
  readonly tail: JumpTail;
}

/**
 * P(S_T > K) when ln S_T = ln S + diffusion + Σ jumps, each part a martingale in price (a normal of variance v has
 * mean −v/2): given a small and b large jumps the log-return is normal with variance V = v_d + a s² + b (k s)² and
 * mean −V/2; the probability is the Poisson mixture of Φ((ln(S/K) − V/2)/√V).
 */
export function mixtureDigital(inputs: MixtureInputs): number {
  const { spot, strike, diffusionVariance, expectedJumps, jumpLogStd, tail } = inputs;
  const small = jumpLogStd * jumpLogStd;
  const large = small * tail.tailScale * tail.tailScale;
  const smallTerms = poissonTerms(expectedJumps * (1 - tail.tailShare));
  const largeTerms = poissonTerms(expectedJumps * tail.tailShare);
  const logMoneyness = Math.log(spot / strike);
  let total = 0;
  for (const [a, pa] of smallTerms.entries()) {
    for (const [b, pb] of largeTerms.entries()) {
      const v = Math.max(0, diffusionVariance) + a * small + b * large;
      const p = v <= 0 ? (spot > strike ? 1 : 0) : normalCdf((logMoneyness - v / 2) / Math.sqrt(v));
      total += pa * pb * p;
    }
  }
  return Math.min(1, Math.max(0, total));
}
