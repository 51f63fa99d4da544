/**
 * The intraday profile of an underlying's variance: how much of a day's variance each UTC hour carries, so the
 * variance between now and a settlement is the integral of the profile over the hours it spans (a daily or weekly
 * expiry is priced with the hours it spans, an hourly one with the hour it is in).
 *
 *   W(t₀, t₁) = ∫ w(u) du  (seconds of "average-hour time"),   w(u) = 1 − s + s·p(hour of u),   mean of p = 1
 *
 * Owns: the profile (24 relative variances, normalised to mean 1), its strength s, and the integral (pure).
 * Invariants: w > 0 everywhere; W(t, t) = 0; W is additive (W(a, c) = W(a, b) + W(b, c)) and strictly increasing in
 * its upper end; a full UTC day integrates to exactly 86,400 s whatever the profile; s = 0 is the flat clock
 * (W = t₁ − t₀). Invalid input throws a RangeError naming the field and the value.
 */

export const HOURS_PER_DAY = 24;
const HOUR_S = 3600;
const DAY_S = 86_400;
const HOUR_MS = HOUR_S * 1000;

/**
 * The default shape: BTC's hour-of-day variance (UTC), lowest in the late Asian hours (04–06), rising with the
 * European open, highest in the US morning (13:30–16:00: the equity open and the macro releases), with a bump at
 * the 00:00 funding and daily cut-off. A stylised reading of the hour-of-day pattern reported by Hansen, Kim and
 * Kimbrough, "Periodicity in Cryptocurrency Volatility and Liquidity" (arXiv:2109.12142, Binance and Coinbase
 * 2018–2021), not their table: docs/pricing.md says why and how to replace it.
 */
export const DEFAULT_HOURLY_VARIANCE: readonly number[] = [
  1.15, 1.0, 0.85, 0.75, 0.7, 0.65, 0.7, 0.8, 0.9, 0.9, 0.9, 0.95, 1.0, 1.3, 1.55, 1.6, 1.4, 1.2, 1.1, 1.05, 1.05, 1.0, 0.95, 1.0,
];

export interface IntradayProfile {
  /** w per UTC hour, mean 1 (the strength already applied). */
  readonly weights: readonly number[];
  /** What it was made of (the config's `profile.hourly` and `profile.strength`). */
  readonly hourly: readonly number[];
  readonly strength: number;
}

/** The profile of `hourly` relative variances (24, > 0; normalised here) at strength `strength` ∈ [0, 1]. */
export function makeProfile(hourly: readonly number[], strength: number): IntradayProfile {
  if (hourly.length !== HOURS_PER_DAY) throw new RangeError(`profile.hourly: expected ${HOURS_PER_DAY} values (got ${hourly.length})`);
  for (const [hour, value] of hourly.entries()) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`profile.hourly[${hour}]: must be a finite number > 0 (got ${String(value)})`);
  }
  if (!Number.isFinite(strength) || strength < 0 || strength > 1) throw new RangeError(`profile.strength: must be within [0, 1] (got ${String(strength)})`);
  const mean = hourly.reduce((a, b) => a + b, 0) / HOURS_PER_DAY;
  return { weights: hourly.map((value) => 1 - strength + (strength * value) / mean), hourly: [...hourly], strength };
}

export const FLAT_PROFILE: IntradayProfile = makeProfile(new Array<number>(HOURS_PER_DAY).fill(1), 0);

/** w at the instant `atMs`. */
export function weightAt(profile: IntradayProfile, atMs: number): number {
  const hour = Math.floor((((atMs % 86_400_000) + 86_400_000) % 86_400_000) / HOUR_MS);
  return profile.weights[hour] ?? 1;
}

/** W(fromMs, toMs) in seconds (0 when toMs ≤ fromMs). */
export function integratedSeconds(profile: IntradayProfile, fromMs: number, toMs: number): number {
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs)) throw new RangeError(`profile: the interval must be finite (got ${fromMs} → ${toMs})`);
  if (toMs <= fromMs) return 0;
  const fullDays = Math.floor((toMs - fromMs) / 86_400_000);
  let total = fullDays * DAY_S;
  let t = fromMs + fullDays * 86_400_000;
  while (t < toMs) {
    const hourEnd = (Math.floor(t / HOUR_MS) + 1) * HOUR_MS;
    const end = Math.min(hourEnd, toMs);
    total += ((end - t) / 1000) * weightAt(profile, t);
    t = end;
  }
  return total;
}

/** The mean of w over [fromMs, toMs) (w at fromMs for an empty interval). */
export function meanWeight(profile: IntradayProfile, fromMs: number, toMs: number): number {
  return toMs > fromMs ? integratedSeconds(profile, fromMs, toMs) / ((toMs - fromMs) / 1000) : weightAt(profile, fromMs);
}
