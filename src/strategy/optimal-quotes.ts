/**
 * Closed-form optimal market-making quotes, pure and unit-agnostic: no clamping, no ticks. The caller
 * chooses the coordinate (the avellaneda-stoikov strategy uses log-odds) and consistent units
 * (σ per √time, A per time, k per unit of price distance, timeLeft in the same time unit).
 *
 * Avellaneda–Stoikov (2008), finite horizon T − t:
 *   r = s − q·γ·σ²·(T − t)
 *   spread = γ·σ²·(T − t) + (2/γ)·ln(1 + γ/k)
 * As T − t → 0 the spread collapses to (2/γ)·ln(1 + γ/k) and r → s.
 *
 * Guéant–Lehalle–Fernandez-Tapia (2013), infinite horizon, asymptotic closed form with ξ = γ:
 *   ω = √( σ²·γ / (2·k·A) · (1 + γ/k)^(1 + k/γ) )
 *   δᵇ = (1/γ)·ln(1 + γ/k) + (2q + 1)/2 · ω,   δᵃ = (1/γ)·ln(1 + γ/k) − (2q − 1)/2 · ω
 *   so r = s + (δᵃ − δᵇ)/2 = s − q·ω and spread = δᵃ + δᵇ = (2/γ)·ln(1 + γ/k) + ω.
 */

export interface OptimalQuotes {
  /** Centre of the quotes (the indifference price). */
  readonly reservationPrice: number;
  /** Total distance between bid and ask. */
  readonly optimalSpread: number;
}

export class ModelInputError extends RangeError {
  override readonly name = 'ModelInputError';
  constructor(
    readonly field: string,
    readonly value: number,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${value})`);
  }
}

/** Avellaneda–Stoikov finite-horizon reservation price and spread. */
export function avellanedaStoikov(
  mid: number,
  inventory: number,
  gamma: number,
  sigma: number,
  k: number,
  timeLeft: number,
): OptimalQuotes {
  requireFinite('mid', mid);
  requireFinite('inventory', inventory);
  requirePositive('gamma', gamma);
  requireNonNegative('sigma', sigma);
  requirePositive('k', k);
  requireNonNegative('timeLeft', timeLeft);
  const risk = gamma * sigma * sigma * timeLeft;
  return {
    reservationPrice: mid - inventory * risk,
    optimalSpread: risk + (2 / gamma) * Math.log1p(gamma / k),
  };
}

/** Guéant–Lehalle–Fernandez-Tapia infinite-horizon reservation price and spread. */
export function gueantLehalleFernandezTapia(
  mid: number,
  inventory: number,
  gamma: number,
  sigma: number,
  k: number,
  a: number,
): OptimalQuotes {
  requireFinite('mid', mid);
  requireFinite('inventory', inventory);
  requirePositive('gamma', gamma);
  requireNonNegative('sigma', sigma);
  requirePositive('k', k);
  requirePositive('A', a);
  const omega = glftInventoryTerm(gamma, sigma, k, a);
  return {
    reservationPrice: mid - inventory * omega,
    optimalSpread: (2 / gamma) * Math.log1p(gamma / k) + omega,
  };
}

/** ω = √(σ²γ/(2kA)·(1 + γ/k)^(1 + k/γ)), computed in logs so large k/γ does not overflow. */
export function glftInventoryTerm(gamma: number, sigma: number, k: number, a: number): number {
  const logPower = (1 + k / gamma) * Math.log1p(gamma / k);
  return Math.sqrt(((sigma * sigma * gamma) / (2 * k * a)) * Math.exp(logPower));
}

function requireFinite(field: string, value: number): void {
  if (!Number.isFinite(value)) throw new ModelInputError(field, value, 'must be a finite number');
}

function requirePositive(field: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new ModelInputError(field, value, 'must be a finite number > 0');
}

function requireNonNegative(field: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) throw new ModelInputError(field, value, 'must be a finite number ≥ 0');
}
