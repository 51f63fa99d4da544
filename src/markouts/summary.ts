/**
 * The report's markout figures: per group of fills (a market, a strategy), per reference (book mid, model), the
 * realized spread (markout at horizon 0: the edge at fill time), the mean markout at each horizon, and the share of
 * the realized spread lost to adverse selection. Pure.
 *
 * Definitions (docs/ledger.md): realized spread = Σ markout at 0; adverse selection = Σ (markout at 0 − markout at
 * 60 s) over the fills whose both are known; its share = adverse selection ÷ the realized spread of those same fills,
 * null when that spread is not positive (nothing was captured to lose). A missing sample (bot down, no reference) is
 * counted as missing and left out of every sum and mean, never guessed; a sample not yet taken is pending.
 * Sums are exact raw USDC integers; means are rounded to the raw unit.
 */
import { ADVERSE_SELECTION_HORIZON_MS, LEDGER_MARKOUT_HORIZONS_MS } from './schedule.js';
import { fillMarkoutRaw, type MarkoutFillTerms } from './value.js';

export const MARKOUT_REFERENCES = ['mid', 'model'] as const;
export type MarkoutReference = (typeof MARKOUT_REFERENCES)[number];

/** One recorded sample: the reference's price at the horizon (millionths), or null when it was missing. */
export interface MarkoutSample {
  readonly horizonMs: number;
  readonly reference: MarkoutReference;
  readonly refMicros: number | null;
}

/** A judged fill with everything recorded about it. */
export interface JudgedFill {
  readonly marketSlug: string;
  readonly strategy: string;
  readonly terms: MarkoutFillTerms;
  readonly feeRaw: number;
  /** The references this fill is judged against (the model only where the market was priced). */
  readonly references: readonly MarkoutReference[];
  readonly samples: readonly MarkoutSample[];
}

export interface HorizonFigures {
  readonly horizonMs: number;
  /** Samples with a known reference. */
  readonly known: number;
  readonly missing: number;
  /** Not yet due (or not yet taken). */
  readonly pending: number;
  readonly totalRaw: number;
  /** totalRaw / known, rounded; null when none is known. */
  readonly meanRaw: number | null;
}

export interface ReferenceFigures {
  readonly reference: MarkoutReference;
  /** Fills judged against this reference. */
  readonly fills: number;
  /** Σ markout at horizon 0 (known samples). */
  readonly realizedSpreadRaw: number;
  readonly horizons: readonly HorizonFigures[];
  /** Σ (markout at 0 − markout at 60 s) over fills with both known. */
  readonly adverseSelectionRaw: number;
  /** adverseSelectionRaw ÷ the realized spread of those fills; null when that spread is ≤ 0 or no fill has both. */
  readonly adverseSelectionShare: number | null;
}

export interface MarkoutGroupFigures {
  readonly key: string;
  readonly fills: number;
  readonly feesRaw: number;
  readonly references: readonly ReferenceFigures[];
}

/** Markouts of fills grouped by `keyOf` (e.g. market or strategy), groups in key order. */
export function summarizeJudgedFills(
  fills: readonly JudgedFill[],
  keyOf: (fill: JudgedFill) => string,
  horizonsMs: readonly number[] = LEDGER_MARKOUT_HORIZONS_MS,
): MarkoutGroupFigures[] {
  const groups = new Map<string, JudgedFill[]>();
  for (const fill of fills) {
    const key = keyOf(fill);
    const list = groups.get(key) ?? [];
    list.push(fill);
    groups.set(key, list);
  }
  return [...groups.keys()]
    .sort()
    .map((key) => summarizeGroup(key, groups.get(key) ?? [], horizonsMs));
}

function summarizeGroup(key: string, fills: readonly JudgedFill[], horizonsMs: readonly number[]): MarkoutGroupFigures {
  const references = MARKOUT_REFERENCES.map((reference) => referenceFigures(reference, fills, horizonsMs)).filter((figures) => figures.fills > 0);
  return { key, fills: fills.length, feesRaw: fills.reduce((sum, fill) => sum + fill.feeRaw, 0), references };
}

function referenceFigures(reference: MarkoutReference, all: readonly JudgedFill[], horizonsMs: readonly number[]): ReferenceFigures {
  const fills = all.filter((fill) => fill.references.includes(reference));
  const known = new Map<number, { count: number; total: number; missing: number }>(horizonsMs.map((h) => [h, { count: 0, total: 0, missing: 0 }]));
  let adverse = 0;
  let spreadOfBoth = 0;
  let both = 0;
  for (const fill of fills) {
    const byHorizon = new Map<number, number | null>();
    for (const sample of fill.samples) {
      if (sample.reference !== reference) continue;
      const markout = sample.refMicros === null ? null : fillMarkoutRaw(fill.terms, sample.refMicros);
      byHorizon.set(sample.horizonMs, markout);
      const slot = known.get(sample.horizonMs);
      if (slot === undefined) continue;
      if (markout === null) slot.missing += 1;
      else {
        slot.count += 1;
        slot.total += markout;
      }
    }
    const atFill = byHorizon.get(0);
    const later = byHorizon.get(ADVERSE_SELECTION_HORIZON_MS);
    if (atFill !== undefined && atFill !== null && later !== undefined && later !== null) {
      both += 1;
      spreadOfBoth += atFill;
      adverse += atFill - later;
    }
  }
  const horizons = horizonsMs.map((horizonMs): HorizonFigures => {
    const slot = known.get(horizonMs) ?? { count: 0, total: 0, missing: 0 };
    return {
      horizonMs,
      known: slot.count,
      missing: slot.missing,
      pending: fills.length - slot.count - slot.missing,
      totalRaw: slot.total,
      meanRaw: slot.count === 0 ? null : Math.round(slot.total / slot.count),
    };
  });
  return {
    reference,
    fills: fills.length,
    realizedSpreadRaw: known.get(0)?.total ?? 0,
    horizons,
    adverseSelectionRaw: adverse,
    adverseSelectionShare: both === 0 || spreadOfBoth <= 0 ? null : adverse / spreadOfBoth,
  };
}
