/**
 * How much an expiry's implied variance may weigh against the realized one, from the evidence behind it: how many
 * strikes (distinct markets) and books it was inverted from, and how wide those books were.
 *
 *   w = α · min(1, strikes / fullStrikes) · min(1, books / fullBooks) · spreadHalf / (spreadHalf + meanSpread)
 *   w = 0 below `minStrikes` strikes (the filter) or without books
 *
 * Why: every up/down market is an expiry with ONE strike (the window's open), inverted from the very book the bot
 * quotes against; at full weight the model then follows the market it should lead. One strike (or one market's books
 * only) is weak evidence, so it cannot dominate: with the defaults (α 0.8, fullStrikes 3) one strike weighs at most
 * 0.27. A few books, or wide ones, weigh less again.
 *
 * Owns: this rule (pure). Invariants: 0 ≤ w ≤ α; w never rises when strikes or books fall or the spread widens; the
 * settings are checked by the config schema (fullStrikes, fullBooks ≥ 1, spreadHalf > 0).
 */

export interface EvidenceSettings {
  /** An expiry with fewer strikes behind its implied part gets none (w = 0). */
  readonly minStrikes: number;
  /** Strikes at which the strike count stops lowering the weight. */
  readonly fullStrikes: number;
  /** Books (samples in the window) at which their count stops lowering the weight. */
  readonly fullBooks: number;
  /** The mean spread (price units) of the books at which the weight is halved. */
  readonly spreadHalf: number;
}

/** What an expiry's implied part was inverted from. */
export interface ImpliedEvidence {
  /** Distinct markets (strikes) with a usable book in the window. */
  readonly strikes: number;
  /** Usable books in the window. */
  readonly books: number;
  /** Their mean bid–ask spread, price units. */
  readonly meanSpread: number;
}

/** The weight of the implied variance of an expiry with this evidence, for the configured α (`impliedWeight`). */
export function impliedWeightOf(alpha: number, evidence: ImpliedEvidence, settings: EvidenceSettings): number {
  if (!(alpha > 0) || evidence.books <= 0 || evidence.strikes < settings.minStrikes || evidence.strikes <= 0) return 0;
  const strikes = Math.min(1, evidence.strikes / settings.fullStrikes);
  const books = Math.min(1, evidence.books / settings.fullBooks);
  const spread = settings.spreadHalf / (settings.spreadHalf + Math.max(0, evidence.meanSpread));
  return alpha * strikes * books * spread;
}

/** The log line of an expiry's implied weight (once per change, src/pricing/market-pricer.ts `onImpliedWeight`). */
export function impliedWeightSentence(ticker: string, settlesAtMs: number, weight: number, evidence: ImpliedEvidence | null): string {
  const expiry = `${ticker} ${new Date(settlesAtMs).toISOString()}`;
  if (evidence === null || weight === 0) return `volatility surface: ${expiry} prices with the realized variance only (no implied part that counts)`;
  const strikes = evidence.strikes === 1 ? '1 strike' : `${evidence.strikes} strikes`;
  return `volatility surface: ${expiry} prices with the ladder's implied variance at weight ${weight.toFixed(2)} (${strikes}, ${evidence.books} books, mean spread ${evidence.meanSpread.toFixed(3)})`;
}
