/**
 * What every built-in strategy takes from the model's view of a priced market (`view.model`, src/pricing): whether
 * it reads the model at all (`readModel`), a minimum distance of its quotes from the fair value, and the fair value's
 * volatility in log-odds.
 *
 * Owns: these rules, so all strategies read, widen and estimate the same way. Invariants: on a market without a model
 * view both figures are neutral (no minimum distance, no volatility: the strategy keeps its own estimate); figures
 * are finite; a strategy whose reference list does not name `model` reads no model input at all under the default
 * `readModel: reference` (a pricing input — the volatility surface — never reaches a book-referenced quote).
 */
import { z } from 'zod';
import type { MarketView } from './contract.js';
import type { ReferenceSource } from './reference-price.js';

/**
 * Which quotes read the model (docs/pricing.md, "What reaches a book-referenced strategy"):
 * - `reference` (default): only a strategy whose `referencePrice` names `model` reads it (its fair value, the
 *   uncertainty floor around it, and Avellaneda–Stoikov's σ); a book-referenced one is quoted from the book alone
 *   (the pricer's halts still apply);
 * - `always`: a book-referenced strategy also keeps `uncertaintyMultiplier` × the model's uncertainty from the model's
 *   fair value and (Avellaneda–Stoikov) takes σ from it, so the volatility surface changes its quotes too.
 */
export const READ_MODEL_MODES = ['reference', 'always'] as const;
export type ReadModel = (typeof READ_MODEL_MODES)[number];
export const readModelSchema = z.enum(READ_MODEL_MODES).default('reference');

/** The view as the strategy may read it: without the model when `readModel` keeps the model from a book reference. */
export function viewAsRead<V extends MarketView>(view: V, sources: readonly ReferenceSource[], readModel: ReadModel): V {
  if (readModel === 'always' || sources.includes('model') || view.model == null) return view;
  return { ...view, model: null };
}

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
