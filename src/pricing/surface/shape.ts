/**
 * The ladder's shape, per underlying. Three rules, each enforced here (pure) and tested with properties:
 *
 * 1. Within one expiry every strike is priced from one total variance and one tail shape, so the fair values fall
 *    as the strike rises and never cross (monotone in the strike).
 * 2. Fat tails: where the ladder's mids fall off more slowly than a normal allows (the BTC ladder of 16:18 UTC had
 *    0.651 / 0.263 / 0.102 at 86,296 / 87,204 / 88,039, where a lognormal through the first two gives 0.059 for the
 *    third), the expiry gets a Student-t of ν degrees of freedom fitted to its mids (least squares in price, ν on a
 *    grid from `maxDof` down to the floor `minDof`; the normal when no ν does better).
 * 3. No calendar arbitrage: the total variance to settlement never falls as the settlement moves later (a later
 *    expiry whose variance is below an earlier one's is raised to it).
 *
 * Owns: the tail fit and the calendar floor. Invariants: the fit needs at least 3 distinct strikes (else null); its
 * ν is ≥ minDof; the calendar floor only raises, keeps the input's order, and is idempotent.
 */
import type { Tails } from '../model/digital.js';
import { tailCdf } from './implied.js';

/** One liquid strike of an expiry: its mid, the spot it was seen against, and the profile-time W to settlement. */
export interface LadderPoint {
  readonly strike: number;
  readonly spot: number;
  readonly mid: number;
  /** W(seen, settlement), seconds of profile time (src/pricing/surface/profile.ts). */
  readonly profileSeconds: number;
}

export interface TailFitSettings {
  /** The floor of ν (> 2: a finite variance). */
  readonly minDof: number;
  /** Above this ν the normal is used. */
  readonly maxDof: number;
}

export interface TailFit {
  readonly tails: Tails;
  /** The fitted variance per second of profile time. */
  readonly baseVariance: number;
  /** Root mean squared error of the fitted probabilities, price units. */
  readonly rmse: number;
}

const LOG_B_MIN = Math.log(1e-14);
const LOG_B_MAX = Math.log(1e-5);

function sse(points: readonly LadderPoint[], tails: Tails, logB: number): number {
  const b = Math.exp(logB);
  let total = 0;
  for (const p of points) {
    const sd = Math.sqrt(b * p.profileSeconds);
    const f = sd > 0 ? tailCdf(Math.log(p.spot / p.strike) / sd, tails) : p.spot > p.strike ? 1 : 0;
    total += (f - p.mid) ** 2;
  }
  return total;
}

/** The variance minimising the squared error for one tail shape: a coarse scan, then golden-section refinement. */
function bestVariance(points: readonly LadderPoint[], tails: Tails): { logB: number; sse: number } {
  const steps = 24;
  let best = { logB: LOG_B_MIN, sse: Number.POSITIVE_INFINITY };
  for (let i = 0; i <= steps; i++) {
    const logB = LOG_B_MIN + ((LOG_B_MAX - LOG_B_MIN) * i) / steps;
    const e = sse(points, tails, logB);
    if (e < best.sse) best = { logB, sse: e };
  }
  const width = (LOG_B_MAX - LOG_B_MIN) / steps;
  let lo = best.logB - width;
  let hi = best.logB + width;
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 36; i++) {
    const a = hi - g * (hi - lo);
    const c = lo + g * (hi - lo);
    if (sse(points, tails, a) < sse(points, tails, c)) hi = c;
    else lo = a;
  }
  const logB = (lo + hi) / 2;
  const e = sse(points, tails, logB);
  return e < best.sse ? { logB, sse: e } : best;
}

/** The ν grid: geometric from maxDof down to minDof. */
function dofGrid(s: TailFitSettings): number[] {
  const n = 12;
  return Array.from({ length: n + 1 }, (_, i) => s.maxDof * Math.pow(s.minDof / s.maxDof, i / n));
}

/** The tail shape and variance that fit an expiry's ladder best; null with fewer than 3 distinct strikes. */
export function fitLadderTails(points: readonly LadderPoint[], settings: TailFitSettings): TailFit | null {
  if (!(settings.minDof > 2) || !(settings.maxDof > settings.minDof)) throw new RangeError(`surface.tails: need 2 < minDof < maxDof (got ${settings.minDof}, ${settings.maxDof})`);
  if (new Set(points.map((p) => p.strike)).size < 3) return null;
  const normal = bestVariance(points, { kind: 'normal' });
  let best: { tails: Tails; logB: number; sse: number } = { tails: { kind: 'normal' }, ...normal };
  for (const dof of dofGrid(settings)) {
    const tails: Tails = { kind: 'student-t', dof };
    const fit = bestVariance(points, tails);
    // A t must beat the normal by more than noise to be used.
    if (fit.sse < best.sse * 0.98) best = { tails, ...fit };
  }
  return { tails: best.tails, baseVariance: Math.exp(best.logB), rmse: Math.sqrt(best.sse / points.length) };
}

/** Raises each total variance to at least every earlier expiry's (rule 3); the answer is in the input's order. */
export function calendarFloor<T extends { readonly settlesAtMs: number; readonly totalVariance: number }>(entries: readonly T[]): T[] {
  const order = entries.map((_, i) => i).sort((a, b) => (entries[a]?.settlesAtMs ?? 0) - (entries[b]?.settlesAtMs ?? 0));
  const out = [...entries];
  let floor = 0;
  for (const i of order) {
    const entry = entries[i];
    if (entry === undefined) continue;
    floor = Math.max(floor, entry.totalVariance);
    out[i] = floor > entry.totalVariance ? { ...entry, totalVariance: floor } : entry;
  }
  return out;
}
