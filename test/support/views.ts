/**
 * Builders of constructed MarketViews for strategy tests: a simple BookView from level arrays (so tests
 * do not depend on src/book), the NO view derived from it, and a MarketView with sensible defaults.
 * Prices are given as ticks, sizes as shares (converted to raw here).
 */
import { RAW_PER_UNIT, TICKS_PER_UNIT, type Level } from '../../src/core/venue-rules/index.js';
import type { BookView, FillView, MarketInfo, MarketView, MarketViewWithOwnOrders, OwnOrderView, PositionView } from '../../src/strategy/contract.js';

/** [priceTicks, shares] */
export type LevelSpec = readonly [number, number];

export interface BookSpec {
  readonly bids?: readonly LevelSpec[];
  readonly asks?: readonly LevelSpec[];
  /** Price units; default: the mid when both sides exist, else null. */
  readonly adjustedMidpoint?: number | null;
}

export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
export const HOUR = 3_600_000;

export function level(priceTicks: number, shares: number): Level {
  return { priceTicks, sizeRaw: Math.round(shares * RAW_PER_UNIT) };
}

/** A BookView over already-sorted levels (bids best first, asks best first). */
export function bookFromLevels(bids: readonly Level[], asks: readonly Level[], adjustedMidpoint: number | null | undefined): BookView {
  const bestBid = bids[0] ?? null;
  const bestAsk = asks[0] ?? null;
  const mid = bestBid !== null && bestAsk !== null ? (bestBid.priceTicks + bestAsk.priceTicks) / (2 * TICKS_PER_UNIT) : null;
  const microprice =
    bestBid !== null && bestAsk !== null
      ? (bestBid.priceTicks * bestAsk.sizeRaw + bestAsk.priceTicks * bestBid.sizeRaw) /
        ((bestBid.sizeRaw + bestAsk.sizeRaw) * TICKS_PER_UNIT)
      : null;
  return {
    bids,
    asks,
    bestBidTicks: bestBid?.priceTicks ?? null,
    bestAskTicks: bestAsk?.priceTicks ?? null,
    mid,
    microprice,
    adjustedMidpoint: adjustedMidpoint === undefined ? mid : adjustedMidpoint,
    depthWithin(ticks: number) {
      const bidRaw = bestBid === null ? 0 : bids.filter((l) => bestBid.priceTicks - l.priceTicks <= ticks).reduce((s, l) => s + l.sizeRaw, 0);
      const askRaw = bestAsk === null ? 0 : asks.filter((l) => l.priceTicks - bestAsk.priceTicks <= ticks).reduce((s, l) => s + l.sizeRaw, 0);
      return { bidRaw, askRaw };
    },
  };
}

/** YES book from [ticks, shares] pairs in any order. */
export function book(spec: BookSpec = {}): BookView {
  const bids = [...(spec.bids ?? [])].map(([p, s]) => level(p, s)).sort((a, b) => b.priceTicks - a.priceTicks);
  const asks = [...(spec.asks ?? [])].map(([p, s]) => level(p, s)).sort((a, b) => a.priceTicks - b.priceTicks);
  return bookFromLevels(bids, asks, spec.adjustedMidpoint);
}

/** The NO view of a YES book: NO bid at 1 − YES ask, NO ask at 1 − YES bid. */
export function noView(yes: BookView): BookView {
  const flip = (l: Level): Level => ({ priceTicks: TICKS_PER_UNIT - l.priceTicks, sizeRaw: l.sizeRaw });
  return bookFromLevels(yes.asks.map(flip), yes.bids.map(flip), yes.adjustedMidpoint === null ? null : 1 - yes.adjustedMidpoint);
}

export function market(overrides: Partial<MarketInfo> = {}): MarketInfo {
  return {
    slug: 'test-market',
    tokens: { yes: '101', no: '102' },
    minSizeRaw: 10 * RAW_PER_UNIT,
    maxSpreadTicks: 30,
    rewardC: 3,
    dailyRewardRaw: 100 * RAW_PER_UNIT,
    rewardable: true,
    expiresAtMs: T0 + 30 * 24 * HOUR,
    band: { minTicks: 10, maxTicks: 990 },
    ...overrides,
  };
}

export function position(overrides: Partial<PositionView> = {}): PositionView {
  return { yesRaw: 0, noRaw: 0, yesAvgCost: null, noAvgCost: null, freeCollateralRaw: 1_000 * RAW_PER_UNIT, ...overrides };
}

export interface ViewSpec {
  readonly book?: BookSpec;
  readonly yes?: BookView;
  readonly market?: Partial<MarketInfo>;
  readonly position?: Partial<PositionView>;
  readonly recentFills?: readonly FillView[];
  readonly midHistory?: MarketView['midHistory'];
  readonly now?: number;
  readonly ownOrders?: readonly OwnOrderView[];
  /** The model's view of a priced market (src/pricing); absent: unpriced. */
  readonly model?: MarketView['model'];
}

/** A MarketView; default book: bids 480/470, asks 520/530, 100 shares each. */
export function view(spec: ViewSpec = {}): MarketView {
  const yes = spec.yes ?? book(spec.book ?? { bids: [[480, 100], [470, 100]], asks: [[520, 100], [530, 100]] });
  const base: MarketView = {
    market: market(spec.market),
    yes,
    no: noView(yes),
    position: position(spec.position),
    recentFills: spec.recentFills ?? [],
    midHistory: spec.midHistory ?? [],
    now: spec.now ?? T0,
    ...(spec.model === undefined ? {} : { model: spec.model }),
  };
  if (spec.ownOrders === undefined) return base;
  const withOwn: MarketViewWithOwnOrders = { ...base, ownOrders: spec.ownOrders };
  return withOwn;
}

/** A regularly sampled mid history ending at `end`: mids[i] at end − (n − 1 − i)·stepMs. */
export function midSeries(mids: readonly number[], end: number, stepMs: number): { atMs: number; mid: number }[] {
  return mids.map((mid, i) => ({ atMs: end - (mids.length - 1 - i) * stepMs, mid }));
}

export function fill(spec: Partial<FillView> & Pick<FillView, 'priceTicks' | 'atMs'>): FillView {
  return { token: 'YES', side: 'BUY', sizeRaw: 10 * RAW_PER_UNIT, ...spec };
}
