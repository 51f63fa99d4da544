/**
 * The replay report's totals: every market's figures together (sums, the largest inventory, the pooled time-weighted
 * inventory, markouts over all fills, the queue model's counts), and the markout summaries in the report's shape.
 *
 * Owns: how per-market figures combine. Invariants: pure; a total of one market is that market's figures (with the
 * run's own request and price counts); the pooled time-weighted inventory never exceeds the largest market's max.
 */
import { mergeMarkoutSummaries, summarizeMarkouts, type FairSeries, type HorizonSummary, type MarkoutFill } from '../markouts/markout.js';
import type { QueueStats } from './queue-matcher.js';
import type { MarketReplay, MarkoutFigure, ReplayFigures } from './report.js';

/** What the totals read of one market's run: its fills and series, and its two-sided quoting time. */
export interface RunSeries {
  readonly markoutFills: readonly MarkoutFill[];
  readonly mid: Pick<FairSeries, 'at'>;
  readonly fair: Pick<FairSeries, 'at'>;
  readonly twoSidedMs: number;
  readonly spreadTickMs: number;
}

/** A total asked of no market. */
export class ReplayTotalsError extends Error {
  override readonly name = 'ReplayTotalsError';
}

export function markoutFigures(summaries: readonly HorizonSummary[]): MarkoutFigure[] {
  return summaries.map((h) => ({ horizonMs: h.horizonMs, fills: h.fills, meanUsdc: h.meanPerFillUsdc }));
}

/**
 * The whole run's time-weighted |inventory|, comparable with its max |inventory| (the largest market's): each market's
 * mean |YES − NO| weighted by the time it was traded, i.e. Σ ∫|inventory| dt / Σ market time. It can never exceed the
 * largest market's max. (It was the SUM of the markets' means, which a run of many markets pushed above that max.) Pure.
 */
export function pooledTimeWeightedInventoryRaw(markets: readonly Pick<ReplayFigures, 'timeWeightedInventoryRaw' | 'marketTimeMs'>[]): number {
  let integral = 0;
  let time = 0;
  for (const m of markets) {
    const life = Math.max(1, m.marketTimeMs);
    integral += m.timeWeightedInventoryRaw * life;
    time += life;
  }
  return time === 0 ? 0 : integral / time;
}

/** Every market together: sums, the largest inventory, markouts over all fills. */
export function totalFigures(markets: readonly MarketReplay[], whole: { requests: number; placedRaw: number; underlyingPrices: number; refusedPrices: number; runs: readonly RunSeries[] }): ReplayFigures {
  const first = markets[0]?.figures;
  if (first === undefined) throw new ReplayTotalsError('no market was replayed');
  if (markets.length === 1) return { ...first, requests: whole.requests, underlyingPrices: whole.underlyingPrices, refusedPrices: whole.refusedPrices };
  const sum = (pick: (f: ReplayFigures) => number): number => markets.reduce((total, m) => total + pick(m.figures), 0);
  const runs = whole.runs;
  const twoSided = runs.reduce((t, r) => t + r.twoSidedMs, 0);
  const volumeRaw = sum((f) => f.volumeRaw);
  const mids = runs.map((r) => summarizeMarkouts(r.markoutFills, (t) => r.mid.at(t)));
  const fairs = runs.filter((r, i) => markets[i]?.figures.fairMarkouts !== null).map((r) => summarizeMarkouts(r.markoutFills, (t) => r.fair.at(t)));
  return {
    ...first,
    market: `${markets.length} markets`,
    slugs: markets.map((m) => m.slug),
    fills: sum((f) => f.fills),
    makerFills: sum((f) => f.makerFills),
    volumeRaw,
    feesRaw: sum((f) => f.feesRaw),
    realizedPnlRaw: sum((f) => f.realizedPnlRaw),
    unrealizedPnlRaw: sum((f) => f.unrealizedPnlRaw),
    rewardsUsdc: sum((f) => f.rewardsUsdc),
    rebatesRaw: sum((f) => f.rebatesRaw),
    totalPnlUsdc: sum((f) => f.totalPnlUsdc),
    spreadCapturedUsdc: sum((f) => f.spreadCapturedUsdc),
    adverseSelectionUsdc: sum((f) => f.adverseSelectionUsdc),
    markouts: markoutFigures(mergeMarkoutSummaries(mids)),
    fairMarkouts: fairs.length === 0 ? null : markoutFigures(mergeMarkoutSummaries(fairs)),
    maxInventoryRaw: Math.max(...markets.map((m) => m.figures.maxInventoryRaw)),
    timeWeightedInventoryRaw: pooledTimeWeightedInventoryRaw(markets.map((m) => m.figures)),
    quotedSpreadTicks: twoSided === 0 ? null : runs.reduce((t, r) => t + r.spreadTickMs, 0) / twoSided,
    fillRatio: whole.placedRaw === 0 ? 0 : volumeRaw / whole.placedRaw,
    requests: whole.requests,
    timeQuotedMs: sum((f) => f.timeQuotedMs),
    marketTimeMs: sum((f) => f.marketTimeMs),
    timeCarriedForwardMs: sum((f) => f.timeCarriedForwardMs),
    unusableBooks: sum((f) => f.unusableBooks),
    underlyingPrices: whole.underlyingPrices,
    refusedPrices: whole.refusedPrices,
    timeFromModelMs: sum((f) => f.timeFromModelMs),
    queue: sumQueueStats(markets.map((m) => m.figures.queue)),
  };
}

/** Every market's queue figures together (each market has its own matcher). */
function sumQueueStats(stats: readonly QueueStats[]): QueueStats {
  const sum = (pick: (q: QueueStats) => number): number => stats.reduce((total, q) => total + pick(q), 0);
  return {
    restingOrders: sum((q) => q.restingOrders),
    ordersBehindQueue: sum((q) => q.ordersBehindQueue),
    aheadOnArrivalRaw: sum((q) => q.aheadOnArrivalRaw),
    canceledAheadRaw: sum((q) => q.canceledAheadRaw),
    tradesReachingMovedOrders: sum((q) => q.tradesReachingMovedOrders),
  };
}
