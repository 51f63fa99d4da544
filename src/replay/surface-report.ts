/**
 * What the volatility surface contributed to a replay (issue 41): at each fill of a priced market, the model's fair
 * value with the surface (what the bot priced with) and without it (the realized-only pricer that ran beside it,
 * src/replay/replay-pricing.ts), the fills' markouts against both, and which expiries priced with the ladder's implied
 * variance and at what weight. A user reads on their own recording whether the surface moved the fair value, and
 * whether the fills look better valued by the fair value with it or without it; the PnL effect needs two replays
 * (`--compare` a config with `pricing.surface: {impliedWeight: 0, gapWeight: 0}`, or bench/surface-sweep.ts).
 *
 * Owns: the collection (SurfaceTracker), the figures and their renderings (a text section, a JSON object, an HTML
 * table). Invariants: additive to the replay report (its own section and key; no other figure changes); figures in
 * people's units (prices at 4 decimals, USDC per fill at 4 decimals); a fill whose fair values are unknown (the
 * market halted, or not priced) counts in no mean; absent (null) when the config's surface is off already.
 */
import { FairSeries, mergeMarkoutSummaries, summarizeMarkouts, type MarkoutFill } from '../markouts/markout.js';
import type { ImpliedWeightChange } from '../pricing/market-pricer.js';
import type { MarkoutFigure } from './markout-figure.js';

/** One fill: seconds from the replay's start, the fair value with the surface and without it (null: unknown). */
export interface SurfaceFillPoint {
  readonly t: number;
  readonly fairWith: number | null;
  readonly fairWithout: number | null;
}

export interface SurfaceContribution {
  /** Fills with both fair values known. */
  readonly fills: number;
  /** Mean |fair with − fair without| at those fills, price units; null without one. */
  readonly meanAbsFairDiff: number | null;
  /** Mean (fair with − fair without) at those fills, price units; null without one. */
  readonly meanFairDiff: number | null;
  /** The fills' markouts against the fair value with the surface, and against the one without it. */
  readonly markoutsWith: readonly MarkoutFigure[];
  readonly markoutsWithout: readonly MarkoutFigure[];
}

/** One expiry's implied weight over the replay (from the pricer's reports, once per change). */
export interface SurfaceExpiry {
  readonly ticker: string;
  /** ISO-8601. */
  readonly expiry: string;
  readonly lastWeight: number;
  readonly maxWeight: number;
  /** Strikes behind the last report (0: no implied part then). */
  readonly lastStrikes: number;
  readonly changes: number;
}

export interface SurfaceReport {
  readonly total: SurfaceContribution;
  readonly markets: readonly { readonly slug: string; readonly contribution: SurfaceContribution; readonly points: readonly SurfaceFillPoint[] }[];
  readonly expiries: readonly SurfaceExpiry[];
}

interface MarketTrack {
  readonly without: FairSeries;
  readonly fills: MarkoutFill[];
  readonly points: SurfaceFillPoint[];
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits + 0;

/** Collects, during a replay, the realized-only fair value beside the bot's and both at each fill. */
export class SurfaceTracker {
  private readonly markets = new Map<string, MarketTrack>();

  constructor(private readonly startMs: number) {}

  /** A sample of the realized-only fair value of `slug` (null: not priced now). */
  sample(slug: string, atMs: number, fairWithout: number | null): void {
    if (fairWithout !== null) this.track(slug).without.record(atMs, fairWithout);
  }

  /** A fill of `slug` with the two fair values at its instant. */
  fill(slug: string, fill: MarkoutFill, fairWith: number | null, fairWithout: number | null): void {
    const track = this.track(slug);
    track.fills.push(fill);
    track.points.push({ t: (fill.atMs - this.startMs) / 1000, fairWith, fairWithout });
    if (fairWithout !== null) track.without.record(fill.atMs, fairWithout);
  }

  /** The report, given each market's series of the fair value with the surface (the replay's own). */
  report(slugs: readonly string[], endMs: number, fairWith: (slug: string) => FairSeries, weights: readonly ImpliedWeightChange[]): SurfaceReport {
    const markets = slugs.map((slug) => {
      const track = this.track(slug);
      track.without.extendTo(endMs);
      return { slug, track, withSeries: fairWith(slug) };
    });
    const contribution = (list: typeof markets): SurfaceContribution => {
      const points = list.flatMap((m) => m.track.points);
      const both = points.flatMap((p) => (p.fairWith === null || p.fairWithout === null ? [] : [p.fairWith - p.fairWithout]));
      const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
      const markouts = (pick: (m: (typeof list)[number]) => FairSeries): MarkoutFigure[] =>
        mergeMarkoutSummaries(list.map((m) => summarizeMarkouts(m.track.fills, (t) => pick(m).at(t)))).map((h) => ({ horizonMs: h.horizonMs, fills: h.fills, meanUsdc: h.meanPerFillUsdc }));
      return {
        fills: both.length,
        meanAbsFairDiff: mean(both.map(Math.abs)),
        meanFairDiff: mean(both),
        markoutsWith: markouts((m) => m.withSeries),
        markoutsWithout: markouts((m) => m.track.without),
      };
    };
    return {
      total: contribution(markets),
      markets: markets.map((m) => ({ slug: m.slug, contribution: contribution([m]), points: m.track.points })),
      expiries: expiriesOf(weights),
    };
  }

  private track(slug: string): MarketTrack {
    let track = this.markets.get(slug);
    if (track === undefined) this.markets.set(slug, (track = { without: new FairSeries(), fills: [], points: [] }));
    return track;
  }
}

/** Each expiry's weights over the replay, in order of first report. */
export function expiriesOf(weights: readonly ImpliedWeightChange[]): SurfaceExpiry[] {
  const out = new Map<string, { ticker: string; expiry: string; lastWeight: number; maxWeight: number; lastStrikes: number; changes: number }>();
  for (const w of weights) {
    const key = `${w.ticker}|${w.settlesAtMs}`;
    const entry = out.get(key) ?? { ticker: w.ticker, expiry: new Date(w.settlesAtMs).toISOString(), lastWeight: 0, maxWeight: 0, lastStrikes: 0, changes: 0 };
    entry.lastWeight = w.weight;
    entry.maxWeight = Math.max(entry.maxWeight, w.weight);
    entry.lastStrikes = w.evidence?.strikes ?? 0;
    entry.changes += 1;
    out.set(key, entry);
  }
  return [...out.values()];
}

/** The report for people: prices and weights at 4 decimals, markouts at 4 decimals (USDC per fill), seconds. Pure. */
export function peopleSurface(report: SurfaceReport): unknown {
  const contribution = (c: SurfaceContribution) => ({
    fills: c.fills,
    meanAbsFairDiff: c.meanAbsFairDiff === null ? null : round(c.meanAbsFairDiff, 4),
    meanFairDiff: c.meanFairDiff === null ? null : round(c.meanFairDiff, 4),
    markoutsWith: c.markoutsWith.map((m) => ({ horizonSec: m.horizonMs / 1000, fills: m.fills, meanUsdc: round(m.meanUsdc, 4) })),
    markoutsWithout: c.markoutsWithout.map((m) => ({ horizonSec: m.horizonMs / 1000, fills: m.fills, meanUsdc: round(m.meanUsdc, 4) })),
  });
  const price = (v: number | null): number | null => (v === null ? null : round(v, 4));
  return {
    total: contribution(report.total),
    markets: report.markets.map((m) => ({ slug: m.slug, ...contribution(m.contribution), fills: m.points.map((p) => ({ t: p.t, fairWith: price(p.fairWith), fairWithout: price(p.fairWithout) })) })),
    expiries: report.expiries.map((e) => ({ ...e, lastWeight: round(e.lastWeight, 4), maxWeight: round(e.maxWeight, 4) })),
  };
}

const horizonName = (ms: number): string => (ms >= 60_000 ? `${ms / 60_000} min` : `${ms / 1000} s`);
const fixed = (v: number | null, digits: number): string => (v === null ? '—' : round(v, digits).toFixed(digits));

/** The section's [label, value] rows (the text report and the page print them). */
export function surfaceRows(report: SurfaceReport): [string, string][] {
  const t = report.total;
  const markouts = t.markoutsWith.map((m, i): [string, string] => {
    const without = t.markoutsWithout[i];
    const value = (fig: MarkoutFigure | undefined): string => (fig === undefined || fig.fills === 0 ? '—' : fig.meanUsdc.toFixed(4));
    return [`markout ${horizonName(m.horizonMs)} vs model with / without (USDC/fill)`, `${value(m)} / ${value(without)}`];
  });
  const expiries = report.expiries.map((e): [string, string] => [`implied weight ${e.ticker} ${e.expiry}`, `last ${e.lastWeight.toFixed(2)} (${e.lastStrikes === 1 ? '1 strike' : `${e.lastStrikes} strikes`}), max ${e.maxWeight.toFixed(2)}, ${e.changes} changes`]);
  return [
    ['fills with both fair values', String(t.fills)],
    ['mean |fair with − without| (price)', fixed(t.meanAbsFairDiff, 4)],
    ['mean fair with − without (price)', fixed(t.meanFairDiff, 4)],
    ...markouts,
    ...(expiries.length === 0 ? [['implied weight', 'no expiry priced with implied variance'] as [string, string]] : expiries),
  ];
}

/** The text section, after the report's table (starts with a blank line, ends without a newline). */
export function formatSurfaceSection(report: SurfaceReport): string {
  const rows = surfaceRows(report);
  const width = Math.max(...rows.map(([label]) => label.length));
  return `\n\nvolatility surface: the fair value with it (the bot's) and without it (realized only) at each fill\n${rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')}`;
}
