/**
 * What every built-in strategy takes from the model's view of a priced market (`view.model`, src/pricing): a
 * minimum distance of its quotes from the fair value, and the fair value's volatility in log-odds.
 *
 * Owns: these two rules, so all strategies widen and estimate the same way. Invariants: on a market without a model
 * view both are neutral (no minimum distance, no volatility: the strategy keeps its own estimate); figures are finite.
 */
import type { MarketView } from './contract.js';

const HOURS_PER_YEAR = 365 * 24;

/**
 * The least distance (price units) between a quote and the model's fair value: `multiplier` × the model's
 * uncertainty (one standard deviation of its error), 0 on an unpriced market.
 */
export function modelMinHalfSpread(view: MarketView, multiplier: number): number {
  const u = view.model?.uncertainty;
  return u === undefined || !Number.isFinite(u) ? 0 : Math.max(0, multiplier * u);
}

/**
 * The fair value's volatility in log-odds per √hour implied by the underlying's: with x = logit(p),
 * σ_x = |dx/dS|·S·σ_S = delta·S·σ_S / (p(1−p)), σ_S the underlying's volatility per √hour. Null on an unpriced
 * market or where p sits at its floor or cap (delta 0: no information).
 */
export function modelLogOddsSigma(view: MarketView): number | null {
  const m = view.model;
  if (!m) return null;
  const p = m.fair;
  const perSqrtHour = m.underlying.volatility / Math.sqrt(HOURS_PER_YEAR);
  const sigma = (m.delta * m.underlying.price * perSqrtHour) / (p * (1 - p));
  return Number.isFinite(sigma) && sigma > 0 ? sigma : null;
}
