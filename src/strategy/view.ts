/**
 * The MarketView a strategy sees, built one way for every caller: the live runner (src/strategy/runner.ts)
 * and the backtest (src/backtest) both assemble views here, so a strategy sees the same shape in both.
 *
 * Owns: the mid-history bookkeeping (`recordMid`) and the assembly of a view from its parts (`buildView`).
 * Invariants: a mid history is oldest first with strictly increasing times (a second mid in the same
 * millisecond replaces the first, as a new point), holds only finite mids, and is trimmed to its horizon and
 * size; a built view owns a copy of the history array and points are never mutated, so later appends and
 * replacements never change a view already handed out.
 */
import type { AdverseSelectionView } from './adverse-selection.js';
import type { BookView, FillView, MarketInfo, MarketViewWithOwnOrders, ModelView, OwnOrderView, PositionView } from './contract.js';

/** Points are never changed once recorded (a replacement is a new object), so views can share them. */
export interface MidPointRecord {
  readonly atMs: number;
  readonly mid: number;
}

export interface MidHistoryLimits {
  /** Points older than this (relative to the newest) are dropped. */
  readonly horizonMs: number;
  /** At most this many points are kept (the oldest go first). */
  readonly max: number;
}

export const DEFAULT_MID_HISTORY: MidHistoryLimits = { horizonMs: 3_600_000, max: 2_000 };

/**
 * Appends the mid observed at `atMs` to `history` (the caller's array, oldest first) and trims it.
 * A null or non-finite mid is ignored. Mutates `history`; returns nothing.
 */
export function recordMid(history: MidPointRecord[], atMs: number, mid: number | null, limits: MidHistoryLimits = DEFAULT_MID_HISTORY): void {
  if (mid === null || !Number.isFinite(mid)) return;
  const last = history[history.length - 1];
  if (last && last.atMs === atMs) history[history.length - 1] = { atMs, mid };
  else history.push({ atMs, mid });
  const horizon = atMs - limits.horizonMs;
  let drop = 0;
  while (drop < history.length && (history[drop]!.atMs < horizon || history.length - drop > limits.max)) drop += 1;
  if (drop > 0) history.splice(0, drop);
}

export interface ViewParts {
  readonly info: MarketInfo;
  readonly books: { readonly yes: BookView; readonly no: BookView };
  readonly position: PositionView;
  readonly recentFills: readonly FillView[];
  readonly midHistory: readonly MidPointRecord[];
  readonly ownOrders: readonly OwnOrderView[];
  readonly now: number;
  /** The model's view of a priced market (src/pricing); absent or null: unpriced. */
  readonly model?: ModelView | null;
  /** The markouts' adverse selection of the market and its cadence; absent or null: none. */
  readonly adverseSelection?: AdverseSelectionView | null;
}

/** The view of one market at `now`; the mid history array is copied (its points are immutable). */
export function buildView(parts: ViewParts): MarketViewWithOwnOrders {
  return {
    market: parts.info,
    yes: parts.books.yes,
    no: parts.books.no,
    position: parts.position,
    recentFills: parts.recentFills,
    midHistory: parts.midHistory.slice(),
    ownOrders: parts.ownOrders,
    now: parts.now,
    model: parts.model ?? null,
    adverseSelection: parts.adverseSelection ?? null,
  };
}
