/**
 * The distributions the digital-option model maps a standardised distance through: the standard normal (Φ, φ) and a
 * Student-t rescaled to unit variance (so switching to fat tails changes the shape, not the variance).
 *
 * Owns: these four functions, accurate far into the tails (erfc and the regularized incomplete beta of the
 * `@stdlib` packages, not a 1e-7 polynomial): a digital priced at 8 standard deviations must still be 6e-16, not 0.
 * Invariants: CDFs are monotone, in [0, 1], and symmetric (F(−x) = 1 − F(x)); densities are ≥ 0.
 */
import erfc from '@stdlib/math-base-special-erfc';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tPdf from '@stdlib/stats-base-dists-t-pdf';

/** Φ(x): the standard normal CDF, through erfc so the lower tail keeps its relative accuracy. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** φ(x): the standard normal density. */
export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/** The CDF of Student's t with `dof` degrees of freedom (unit scale: variance dof / (dof − 2)). */
export function studentTCdf(x: number, dof: number): number {
  return tCdf(x, dof);
}

/** Scale that gives a Student-t with `dof` > 2 a variance of 1. */
function unitVarianceScale(dof: number): number {
  if (!(dof > 2)) throw new RangeError(`dof: must be greater than 2 for a finite variance (got ${dof})`);
  return Math.sqrt((dof - 2) / dof);
}

/** CDF of the Student-t rescaled to variance 1: P(T·s ≤ x) with s = √((ν−2)/ν). */
export function standardisedTCdf(x: number, dof: number): number {
  return tCdf(x / unitVarianceScale(dof), dof);
}

/** Density of the Student-t rescaled to variance 1. */
export function standardisedTPdf(x: number, dof: number): number {
  const s = unitVarianceScale(dof);
  return tPdf(x / s, dof) / s;
}
