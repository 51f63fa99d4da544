/**
 * What every built-in strategy takes from the model's view of a priced market (`view.model`, src/pricing): which
 * model it reads (`readModel`), a minimum distance of its quotes from the fair value, and the fair value's
 * volatility in log-odds.
 *
 * Owns: these rules, so all strategies read, widen and estimate the same way. Invariants: on a market without a model
 * view both figures are neutral (no minimum distance, no volatility: the strategy keeps its own estimate); figures
 * are finite; under the default `readModel: realized` a strategy whose reference list does not name `model` reads
 * only the model without the volatility surface, so the surface (a pricing input it does not use) never changes its
 * quotes (docs/pricing.md, "What reaches a book-referenced strategy").
 */
import { z } from 'zod';
import type { MarketView, ModelView } from './contract.js';
import type { ReferenceSource } from './reference-price.js';

/**
 * What a book-referenced strategy (no `model` in its `referencePrice`) reads of the model — its guard (quotes kept
 * `uncertaintyMultiplier` × the uncertainty off the fair value) and, for Avellaneda–Stoikov, its σ:
 * - `realized` (default): the model without the volatility surface (realized variance only, `withoutSurface`);
 * - `none`: nothing (quoted from the book alone; the pricer's halts still apply);
 * - `full`: the model with the surface (the behaviour from the surface's wiring to issue 41: the surface moves it).
 * A model-referenced strategy always reads the full model.
 */
export const READ_MODEL_MODES = ['realized', 'none', 'full'] as const;
export type ReadModel = (typeof READ_MODEL_MODES)[number];
export const readModelSchema = z.enum(READ_MODEL_MODES).default('realized');

/** The model a book-referenced strategy reads under `readModel: realized`: the one without the surface. */
function withoutSurface(model: ModelView): ModelView {
  const r = model.withoutSurface;
  if (r === undefined) return model;
  return { ...model, fair: r.fair, delta: r.delta, uncertainty: r.uncertainty, underlying: { ...model.underlying, volatility: r.volatility } };
}

/** The view as the strategy may read it (see `readModel`). */
export function viewAsRead<V extends MarketView>(view: V, sources: readonly ReferenceSource[], readModel: ReadModel): V {
  const model = view.model;
  if (model == null || readModel === 'full' || sources.includes('model')) return view;
  return { ...view, model: readModel === 'none' ? null : withoutSurface(model) };
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
