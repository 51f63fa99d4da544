/**
 * The fair value of a crypto strike market: the probability that the settlement price S_T ends above the strike K,
 * a digital option on the underlying.
 *
 *   p = F(d),  d = ln(S / K) / √V,  V = max(σ²·τ, v_settle) + σ²·a
 *
 * σ² the variance of ln S per second (src/pricing/model/volatility.ts), τ the seconds left to the settlement instant,
 * v_settle a floor for the last seconds (the settlement print's own noise: the 1-minute candle's open is one print,
 * not the true price), a the age of the spot in seconds (a stale spot has moved in ways not yet seen), and F the
 * standard normal CDF or, behind a setting, a Student-t scaled to unit variance (fat tails). No drift term: over
 * hours the drift is far below the model's other errors. p is clamped to [floor, cap].
 *
 *   delta = dp/dS = f(d) / (S·√V)  (0 where the clamp binds)
 *   uncertainty = √( (delta·conf)² + (delta·S·σ·√a)² + (f(d)·|d|·relErr)² ),  relErr = √(volRelErr² + gap²)
 *
 * the three terms being the feed's confidence interval, the drift possible while the spot aged, and the error of the
 * volatility estimate (volRelErr: its relative standard error; gap: how far the realized and the ladder's implied
 * volatility disagree, src/pricing/surface; ∂p/∂σ·σ = −f(d)·d).
 *
 * Owns: this pure function. Invariants: for valid input the answer is finite with floor ≤ fair ≤ cap, delta ≥ 0,
 * uncertainty ≥ 0; fair rises with S, falls with K, and tends to 1/2 as V grows; at V = 0 it is the settlement rule
 * itself (S > K for 'above', S ≥ K for 'at-or-above'). Invalid input throws a RangeError naming the field.
 */
import type { FairValue } from '../types.js';
import { normalCdf, normalPdf, standardisedTCdf, standardisedTPdf } from './distributions.js';

export type Tails = { readonly kind: 'normal' } | { readonly kind: 'student-t'; readonly dof: number };

export interface DigitalInput {
  /** The underlying's price, USD (> 0). */
  readonly spot: number;
  /** The strike, USD (> 0). */
  readonly strike: number;
  readonly comparison: 'above' | 'at-or-above';
  /** Seconds left to the settlement instant (>= 0). */
  readonly secondsLeft: number;
  /** Variance of ln S per second (> 0). */
  readonly variancePerSecond: number;
  /** Floor of the variance left (ln units), for the last seconds: the settlement print's own noise. */
  readonly settlementNoiseVariance: number;
  /** The feed's confidence interval, USD (>= 0); null when the source gives none. */
  readonly spotConf: number | null;
  /** ms since the spot was received (>= 0). */
  readonly spotAgeMs: number;
  /** Relative standard error of the volatility estimate (e.g. 0.2). */
  readonly volRelErr: number;
  /**
   * The disagreement of the volatility sources, as a relative error of σ (src/pricing/surface: g·|σ_implied −
   * σ_realized| / σ_blended; >= 0, absent: 0). It adds to volRelErr in quadrature, so the quote widens where the
   * model's own view and the market's disagree.
   */
  readonly volGapRel?: number;
  readonly tails: Tails;
  /** Clamp of the fair value, e.g. 0.001 and 0.999. */
  readonly floor: number;
  readonly cap: number;
}

function check(field: string, value: number, ok: boolean): void {
  if (!Number.isFinite(value) || !ok) throw new RangeError(`digital.${field}: invalid value ${String(value)}`);
}

export function digitalFairValue(input: DigitalInput): FairValue {
  const { spot, strike, secondsLeft, variancePerSecond, settlementNoiseVariance, spotAgeMs, volRelErr, floor, cap } = input;
  check('spot', spot, spot > 0);
  check('strike', strike, strike > 0);
  check('secondsLeft', secondsLeft, secondsLeft >= 0);
  check('variancePerSecond', variancePerSecond, variancePerSecond >= 0);
  check('settlementNoiseVariance', settlementNoiseVariance, settlementNoiseVariance >= 0);
  check('spotAgeMs', spotAgeMs, spotAgeMs >= 0);
  check('volRelErr', volRelErr, volRelErr >= 0);
  check('floor', floor, floor > 0 && floor < 0.5);
  check('cap', cap, cap > 0.5 && cap < 1);
  const volGapRel = input.volGapRel ?? 0;
  check('volGapRel', volGapRel, volGapRel >= 0);
  if (input.spotConf !== null) check('spotConf', input.spotConf, input.spotConf >= 0);
  if (input.tails.kind === 'student-t') check('tails.dof', input.tails.dof, input.tails.dof > 2);

  const ageSeconds = spotAgeMs / 1000;
  const variance = Math.max(variancePerSecond * secondsLeft, settlementNoiseVariance) + variancePerSecond * ageSeconds;
  const clamp = (p: number): number => Math.min(cap, Math.max(floor, p));
  if (variance <= 0) {
    const yes = input.comparison === 'above' ? spot > strike : spot >= strike;
    return { fair: clamp(yes ? 1 : 0), delta: 0, uncertainty: 0 };
  }
  const sd = Math.sqrt(variance);
  const d = Math.log(spot / strike) / sd;
  const tails = input.tails;
  const raw = tails.kind === 'normal' ? normalCdf(d) : standardisedTCdf(d, tails.dof);
  const density = tails.kind === 'normal' ? normalPdf(d) : standardisedTPdf(d, tails.dof);
  const inside = raw > floor && raw < cap;
  const delta = inside ? density / (spot * sd) : 0;
  const fromConf = input.spotConf === null ? 0 : delta * input.spotConf;
  const fromAge = delta * spot * Math.sqrt(variancePerSecond * ageSeconds);
  const fromVol = inside ? density * Math.abs(d) * Math.hypot(volRelErr, volGapRel) : 0;
  return { fair: clamp(raw), delta, uncertainty: Math.hypot(fromConf, fromAge, fromVol) };
}
