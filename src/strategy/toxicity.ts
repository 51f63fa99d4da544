/**
 * Toxicity of the bot's recent fills: how far the mid moved against each fill within a horizon.
 *
 * For a fill at time t, m₀ = mid in force at t and m₁ = mid in force at min(t + horizon, now). A YES-terms
 * bid fill (BUY YES or SELL NO: long YES) suffers when the mid falls, an ask fill when it rises:
 * adverse = −(m₁ − m₀) for bid fills, +(m₁ − m₀) for ask fills, in ticks. Favourable moves count
 * negative, so noise averages out. Per side: the size-weighted mean, shrunk toward 0 by a prior of
 * `priorFills` fills (mean·n/(n + prior)), floored at 0.
 *
 * Pure: computed from view.recentFills and view.midHistory only.
 */
import { TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import type { FillView, MarketView } from './contract.js';
import { cleanMidHistory, midAt } from './mid-history.js';
import { toYesTerms } from './yes-terms.js';
import type { YesSide } from './yes-terms.js';

export interface ToxicityOptions {
  readonly horizonMs: number;
  /** Only fills this recent count. */
  readonly lookbackMs: number;
  /** Shrinkage toward 0, in fills: few fills say little. */
  readonly priorFills: number;
}

export interface SideToxicity {
  /** Expected adverse mid move after a fill, in ticks, ≥ 0. */
  readonly ticks: number;
  /** Fills measured on this side. */
  readonly fills: number;
}

export interface ToxicityEstimate {
  readonly bid: SideToxicity;
  readonly ask: SideToxicity;
}

export function estimateToxicity(
  fills: readonly FillView[],
  midHistory: MarketView['midHistory'],
  now: number,
  options: ToxicityOptions,
): ToxicityEstimate {
  const history = cleanMidHistory(midHistory);
  const acc: Record<YesSide, { weighted: number; size: number; fills: number }> = {
    bid: { weighted: 0, size: 0, fills: 0 },
    ask: { weighted: 0, size: 0, fills: 0 },
  };
  for (const fill of fills) {
    if (!measurable(fill, now, options.lookbackMs)) continue;
    const before = midAt(history, fill.atMs);
    const after = midAt(history, Math.min(fill.atMs + options.horizonMs, now));
    if (before === null || after === null) continue;
    const side = toYesTerms(fill.token, fill.side, fill.priceTicks).side;
    const move = (after - before) * TICKS_PER_UNIT;
    const adverse = side === 'bid' ? -move : move;
    const bucket = acc[side];
    bucket.weighted += fill.sizeRaw * adverse;
    bucket.size += fill.sizeRaw;
    bucket.fills += 1;
  }
  const prior = Math.max(0, options.priorFills);
  const finish = (b: { weighted: number; size: number; fills: number }): SideToxicity => {
    if (b.size <= 0) return { ticks: 0, fills: 0 };
    const mean = b.weighted / b.size;
    const shrunk = (mean * b.fills) / (b.fills + prior);
    return { ticks: Math.max(0, shrunk), fills: b.fills };
  };
  return { bid: finish(acc.bid), ask: finish(acc.ask) };
}

function measurable(fill: FillView, now: number, lookbackMs: number): boolean {
  return (
    Number.isFinite(fill.atMs) &&
    fill.atMs <= now &&
    fill.atMs >= now - lookbackMs &&
    Number.isFinite(fill.sizeRaw) &&
    fill.sizeRaw > 0 &&
    Number.isInteger(fill.priceTicks)
  );
}
