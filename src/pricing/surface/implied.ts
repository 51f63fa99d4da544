/**
 * The variance a ladder's book implies: each liquid strike's mid (the bot's own orders already taken out by the
 * caller), inverted through the same digital the model prices with, and a robust average of the answers.
 *
 *   mid = F(d),  d = ln(S / K) / √V   ⇒   V = (ln(S / K) / F⁻¹(mid))²
 *
 * Owns: the book filter (which touches count), the inversion and the robust average (pure). Invariants: a touch
 * counts only when two-sided and not crossed, its spread within `maxSpread` and its mid within [midMin, midMax]; an
 * inversion answers null rather than a guess where the mid says nothing about the variance (the mid and the spot
 * disagree on the side of the strike, or |F⁻¹(mid)| < minAbsD: near the money a cent of mid moves V without bound);
 * a robust mean of nothing is null.
 */
import { normalCdf, standardisedTCdf } from '../model/distributions.js';
import type { Tails } from '../model/digital.js';

export interface LadderFilter {
  /** The widest spread (price units) whose mid is trusted. */
  readonly maxSpread: number;
  /** The band of mids used (deep in- or out-of-the-money mids sit on the clamp and say little). */
  readonly midMin: number;
  readonly midMax: number;
  /** |F⁻¹(mid)| below this is too near the money to invert. */
  readonly minAbsD: number;
}

/** Best bid and ask of the others' book in price units; null for an empty side. */
export interface OthersTouch {
  readonly bid: number | null;
  readonly ask: number | null;
}

/** The usable mid of a touch under `filter`; null when it does not count. */
export function usableMid(touch: OthersTouch, filter: LadderFilter): number | null {
  const { bid, ask } = touch;
  if (bid === null || ask === null || !(bid < ask)) return null;
  if (ask - bid > filter.maxSpread + 1e-9) return null;
  const mid = (bid + ask) / 2;
  return mid >= filter.midMin && mid <= filter.midMax ? mid : null;
}

/** F(d) of the tails. */
export function tailCdf(d: number, tails: Tails): number {
  return tails.kind === 'normal' ? normalCdf(d) : standardisedTCdf(d, tails.dof);
}

/** F⁻¹(p) by bisection (F is continuous and increasing): |error| < 1e-10 in d. */
export function tailQuantile(p: number, tails: Tails): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`tailQuantile.p: must be within (0, 1) (got ${String(p)})`);
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 80 && hi - lo > 1e-10; i++) {
    const mid = (lo + hi) / 2;
    if (tailCdf(mid, tails) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface InversionInput {
  readonly mid: number;
  readonly spot: number;
  readonly strike: number;
  readonly tails: Tails;
  readonly minAbsD: number;
}

/** The total variance (ln units) to settlement the mid implies; null where it implies none. */
export function impliedTotalVariance(input: InversionInput): number | null {
  const { mid, spot, strike, tails, minAbsD } = input;
  if (!(spot > 0) || !(strike > 0) || !(mid > 0 && mid < 1)) return null;
  const d = tailQuantile(mid, tails);
  const moneyness = Math.log(spot / strike);
  if (Math.abs(d) < minAbsD || moneyness === 0 || Math.sign(d) !== Math.sign(moneyness)) return null;
  return (moneyness / d) ** 2;
}

/**
 * The mean of `values` without the lowest and highest `trim` fraction each (0: the mean; 0.5: the median).
 * Null for an empty list.
 */
export function robustMean(values: readonly number[], trim: number): number | null {
  if (!(trim >= 0 && trim <= 0.5)) throw new RangeError(`robustMean.trim: must be within [0, 0.5] (got ${String(trim)})`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  if (trim === 0.5) {
    const half = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? (sorted[half] ?? 0) : ((sorted[half - 1] ?? 0) + (sorted[half] ?? 0)) / 2;
  }
  const cut = Math.min(Math.floor(sorted.length * trim), Math.floor((sorted.length - 1) / 2));
  const kept = sorted.slice(cut, sorted.length - cut);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}
