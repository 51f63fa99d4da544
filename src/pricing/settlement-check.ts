/**
 * The settlement check: after a priced market resolves, what the prices the bot held imply under the rule it read,
 * beside the venue's outcome, so a misread rule (or the unconfirmed choice of the settling Pyth print) shows up.
 *
 * Owns: a bounded history of one ticker's prices (`PriceHistory`) and the pure verdict (`settlementCheck`).
 * Invariants: the print taken is the first held at or after the settlement instant (the candle's open), else the last
 * before it, and only within `windowMs` of the instant; a held price within its confidence (or 1 bp) of the strike
 * is "too close" to call, never a disagreement.
 */
import type { MarketTerms } from './types.js';

export type SettlementVerdict = 'agree' | 'disagree' | 'too-close' | 'no-price';

export interface HeldPrice {
  readonly publishTimeMs: number;
  readonly price: number;
  readonly conf: number | null;
}

export interface SettlementCheck {
  readonly verdict: SettlementVerdict;
  /** The print the rule was applied to; null when none was held near the instant. */
  readonly held: HeldPrice | null;
  /** What the held print implies: 'YES' | 'NO' | null (none, or too close). */
  readonly implied: 'YES' | 'NO' | null;
}

export function settlementCheck(terms: MarketTerms, history: readonly HeldPrice[], outcome: 'YES' | 'NO', windowMs = 60_000): SettlementCheck {
  const t = terms.settlesAtMs;
  const after = history.find((h) => h.publishTimeMs >= t && h.publishTimeMs - t <= windowMs);
  const before = [...history].reverse().find((h) => h.publishTimeMs < t && t - h.publishTimeMs <= windowMs);
  const held = after ?? before ?? null;
  if (held === null || terms.strikeValue === null) return { verdict: 'no-price', held, implied: null };
  const margin = Math.max(held.conf ?? 0, held.price * 1e-4);
  if (Math.abs(held.price - terms.strikeValue) <= margin) return { verdict: 'too-close', held, implied: null };
  const implied = (terms.comparison === 'above' ? held.price > terms.strikeValue : held.price >= terms.strikeValue) ? 'YES' : 'NO';
  return { verdict: implied === outcome ? 'agree' : 'disagree', held, implied };
}

/** The recent prices of one ticker, oldest first, at most `max` (one per publish second is plenty). */
export class PriceHistory {
  private readonly points: HeldPrice[] = [];

  constructor(private readonly max = 1200) {}

  add(point: HeldPrice): void {
    const last = this.points[this.points.length - 1];
    if (last && point.publishTimeMs <= last.publishTimeMs) return;
    this.points.push(point);
    if (this.points.length > this.max) this.points.splice(0, this.points.length - this.max);
  }

  all(): readonly HeldPrice[] {
    return this.points;
  }
}
