/**
 * Volatility of an underlying from its price stream: the variance per second of ln S, estimated on a 1-second grid
 * of receive times.
 *
 * Owns: one estimator's state (per underlying). Pure state: no clock of its own; every observation carries its time.
 * Method: the last price seen in each second is that second's grid point; each new grid point gives one return
 * r = ln(S_t / S_prev) over Δt whole seconds, i.e. a per-second variance sample r² / Δt. Two EWMAs of the samples (a
 * fast and a slow half-life, each decaying by Δt seconds per sample, bias-corrected by their total weight) are blended with `fastWeight`. A return larger
 * than `jumpCapSigmas` standard deviations (at the current estimate) is capped for the variance update only: one
 * spike moves the price but not the variance. Until real observations accumulate, the estimate leans on a prior
 * (`priorAnnualVol`, weighted as `warmupMs` of observations). The result is clamped to
 * [`minAnnualVol`, `maxAnnualVol`].
 * Invariants: `variancePerSecond()` is always finite and > 0 (the floor); an out-of-order, non-finite or non-positive
 * observation changes nothing and is reported as ignored.
 */

/** Seconds in a year (365 days), for annualizing. */
export const SECONDS_PER_YEAR = 365 * 86_400;

export interface VolatilitySettings {
  /** Half-life of the fast EWMA, ms. */
  readonly fastHalfLifeMs: number;
  /** Half-life of the slow EWMA, ms. */
  readonly slowHalfLifeMs: number;
  /** Weight of the fast EWMA in the blend, 0..1. */
  readonly fastWeight: number;
  /** A one-second return beyond this many standard deviations is capped for the variance update. */
  readonly jumpCapSigmas: number;
  /** The prior, annualized (0.6 = 60 %/yr). */
  readonly priorAnnualVol: number;
  /** The prior counts as this much time of observations, ms. */
  readonly warmupMs: number;
  readonly minAnnualVol: number;
  readonly maxAnnualVol: number;
}

/** Crypto defaults: BTC's realised volatility is typically 40–60 %/yr, the smaller coins' higher. */
export const DEFAULT_VOLATILITY: VolatilitySettings = {
  fastHalfLifeMs: 60_000,
  slowHalfLifeMs: 1_800_000,
  fastWeight: 0.5,
  jumpCapSigmas: 4,
  priorAnnualVol: 0.6,
  warmupMs: 300_000,
  minAnnualVol: 0.1,
  maxAnnualVol: 5,
};

export type ObserveResult = 'used' | 'same-second' | 'ignored-out-of-order' | 'ignored-invalid';

export class VolatilityEstimator {
  private readonly fastDecay: number;
  private readonly slowDecay: number;
  private readonly priorVariance: number;
  private readonly minVariance: number;
  private readonly maxVariance: number;
  /** The grid point before the current second: its second and ln price; null before the first closed second. */
  private closed: { second: number; logPrice: number } | null = null;
  /** The second being filled and the last ln price seen in it. */
  private current: { second: number; logPrice: number } | null = null;
  /** Bias-corrected EWMAs: weighted sums of samples and of weights (so the first samples are not over-weighted). */
  private readonly fast = { sum: 0, weight: 0 };
  private readonly slow = { sum: 0, weight: 0 };
  /** Seconds covered by the returns seen so far. */
  private observedSeconds = 0;
  private returns = 0;

  constructor(private readonly settings: VolatilitySettings = DEFAULT_VOLATILITY) {
    const s = settings;
    for (const [field, value] of Object.entries(s)) {
      if (!Number.isFinite(value) || value < 0) throw new RangeError(`volatility.${field}: must be a finite number >= 0 (got ${String(value)})`);
    }
    if (s.fastHalfLifeMs <= 0 || s.slowHalfLifeMs <= 0) throw new RangeError('volatility half-lives must be > 0');
    if (s.fastWeight > 1) throw new RangeError(`volatility.fastWeight: must be within [0, 1] (got ${s.fastWeight})`);
    if (!(s.minAnnualVol > 0) || s.minAnnualVol > s.maxAnnualVol) throw new RangeError(`volatility.minAnnualVol: must be > 0 and <= maxAnnualVol (got ${s.minAnnualVol})`);
    this.fastDecay = Math.pow(0.5, 1000 / s.fastHalfLifeMs);
    this.slowDecay = Math.pow(0.5, 1000 / s.slowHalfLifeMs);
    this.priorVariance = (s.priorAnnualVol * s.priorAnnualVol) / SECONDS_PER_YEAR;
    this.minVariance = (s.minAnnualVol * s.minAnnualVol) / SECONDS_PER_YEAR;
    this.maxVariance = (s.maxAnnualVol * s.maxAnnualVol) / SECONDS_PER_YEAR;
  }

  /** One price received at `receiveTimeMs`. */
  observe(receiveTimeMs: number, price: number): ObserveResult {
    if (!Number.isFinite(receiveTimeMs) || !Number.isFinite(price) || price <= 0) return 'ignored-invalid';
    const second = Math.floor(receiveTimeMs / 1000);
    const logPrice = Math.log(price);
    if (this.current === null) {
      this.current = { second, logPrice };
      return 'used';
    }
    if (second < this.current.second) return 'ignored-out-of-order';
    if (second === this.current.second) {
      this.current.logPrice = logPrice;
      return 'same-second';
    }
    // A new second: the current one is complete and becomes a grid point.
    if (this.closed !== null) this.update(this.current.logPrice - this.closed.logPrice, this.current.second - this.closed.second);
    this.closed = this.current;
    this.current = { second, logPrice };
    return 'used';
  }

  /** Variance of ln S per second: the blend of the EWMAs and the prior, floored and capped. */
  variancePerSecond(): number {
    const s = this.settings;
    let estimate = this.priorVariance;
    if (this.fast.weight > 0 && this.slow.weight > 0) {
      const blended = s.fastWeight * (this.fast.sum / this.fast.weight) + (1 - s.fastWeight) * (this.slow.sum / this.slow.weight);
      const weight = this.observedSeconds / (this.observedSeconds + s.warmupMs / 1000);
      estimate = weight * blended + (1 - weight) * this.priorVariance;
    }
    return Math.min(this.maxVariance, Math.max(this.minVariance, estimate));
  }

  annualizedVolatility(): number {
    return Math.sqrt(this.variancePerSecond() * SECONDS_PER_YEAR);
  }

  /** Returns used so far (each spans one grid step). */
  observations(): number {
    return this.returns;
  }

  private update(logReturn: number, dtSeconds: number): void {
    const cap = this.settings.jumpCapSigmas * this.settings.jumpCapSigmas * this.variancePerSecond() * dtSeconds;
    const squared = Math.min(logReturn * logReturn, cap);
    const sample = squared / dtSeconds;
    decayInto(this.fast, Math.pow(this.fastDecay, dtSeconds), sample);
    decayInto(this.slow, Math.pow(this.slowDecay, dtSeconds), sample);
    this.observedSeconds += dtSeconds;
    this.returns += 1;
  }
}

/** One EWMA step: the old mass decays by `keep`, the sample enters with weight 1 − keep. */
function decayInto(ewma: { sum: number; weight: number }, keep: number, sample: number): void {
  ewma.sum = keep * ewma.sum + (1 - keep) * sample;
  ewma.weight = keep * ewma.weight + (1 - keep);
}
