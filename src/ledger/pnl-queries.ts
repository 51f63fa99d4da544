/**
 * The ledger's PnL queries: per market and in total (`pnlReport`), and for a UTC day (`dailyPnlReport`: what the daily
 * loss limit and the daily PnL gauge read), from the repositories' rows; the figures themselves are pnl.ts's (pure).
 *
 * Owns: which rows each query reads. Invariants: reads only; the daily query reads nothing of a market resolved before
 * the day but its fills timed in the day (its positions and marks cannot change the day's sum), so its cost does not
 * grow with the markets earlier days left behind; a market whose fills all failed is left out of the report.
 */
import { checkId, checkTimeMs } from './validate.js';
import type { FillsRepo, MarketActivity } from './fills-repo.js';
import type { MarketRepo } from './market-repo.js';
import type { PositionsRepo } from './positions-repo.js';
import { FLAT } from './position-math.js';
import {
  DAY_MS,
  dailyPnl,
  marketPnl,
  marketPnlSince,
  totalPnl,
  utcDayStart,
  type DailyMarketInput,
  type DailyPnl,
  type MarketPnl,
  type MarketState,
  type PnlTotals,
  type TokenTotals,
} from './pnl.js';
import type { Resolution } from './types.js';

/** The repositories the queries read (the store's own). */
export interface PnlSources {
  readonly market: MarketRepo;
  readonly positions: PositionsRepo;
  readonly fills: FillsRepo;
  /** Markets with fills, a resolution or a redemption. */
  markets(): string[];
}

export interface MarketReportRow extends MarketPnl {
  readonly yes: TokenTotals;
  readonly no: TokenTotals;
  readonly midMicros: number | null;
  readonly markAtMs: number | null;
  readonly resolution: Resolution | null;
  readonly redeemedRaw: number;
  /** A redemption was recorded: the tokens are gone (balances read 0). */
  readonly redeemed: boolean;
}

export interface PnlReport {
  readonly markets: readonly MarketReportRow[];
  readonly totals: PnlTotals;
}

export interface PnlQuery {
  readonly marketSlug?: string | undefined;
  /** Only these markets (the live bot's traded ones: the ledger's list grows with every market ever traded). */
  readonly marketSlugs?: readonly string[] | undefined;
  /** Count fills, volume, fees and realized PnL from this time on (positions and unrealized are as of now). */
  readonly sinceMs?: number | undefined;
}

/** A market whose fills all failed: nothing to show. */
function isEmptyMarket(state: MarketState): boolean {
  const empty = (token: TokenTotals) =>
    token.positionRaw === 0 && token.costRaw === 0 && token.realizedRaw === 0 && token.feesRaw === 0 && token.fillCount === 0;
  return empty(state.yes) && empty(state.no) && state.resolution === null && state.redeemedRaw === 0;
}

/** A market's positions, mark, resolution and redeemed amount: what pnl.ts's figures are computed from. */
export function marketStateOf(src: PnlSources, marketSlug: string, redeemed: ReadonlyMap<string, number> = src.market.redeemed()): MarketState {
  const resolution = src.market.getResolution(marketSlug);
  return {
    marketSlug,
    yes: src.positions.get(marketSlug, 'YES'),
    no: src.positions.get(marketSlug, 'NO'),
    midMicros: src.market.getMark(marketSlug)?.midMicros ?? null,
    resolution,
    redeemedRaw: redeemed.get(marketSlug) ?? 0,
  };
}

/** PnL per market and in total (see pnl.ts for the definitions). */
export function pnlReport(src: PnlSources, query: PnlQuery = {}): PnlReport {
  const only = query.marketSlug === undefined ? null : checkId('marketSlug', query.marketSlug);
  const sinceMs = query.sinceMs === undefined ? null : checkTimeMs('sinceMs', query.sinceMs);
  const redeemed = src.market.redeemed();
  const activity = new Map<string, MarketActivity>();
  if (sinceMs !== null) for (const entry of src.fills.activityBetween(sinceMs)) activity.set(entry.marketSlug, entry);
  const among = query.marketSlugs === undefined ? null : new Set(query.marketSlugs);
  const slugs = src.markets().filter((slug) => (only === null || slug === only) && (among === null || among.has(slug)));
  const states = slugs.map((slug) => marketStateOf(src, slug, redeemed)).filter((state) => !isEmptyMarket(state));
  const markets = states.map((state): MarketReportRow => {
    const slug = state.marketSlug;
    const mark = src.market.getMark(slug);
    const figures =
      sinceMs === null
        ? marketPnl(state)
        : marketPnlSince(state, activity.get(slug) ?? { fillCount: 0, volumeRaw: 0, feesRaw: 0, realizedRaw: 0 }, sinceMs);
    return {
      ...figures,
      yes: state.yes,
      no: state.no,
      midMicros: mark?.midMicros ?? null,
      markAtMs: mark?.atMs ?? null,
      resolution: src.market.getResolution(slug),
      redeemedRaw: state.redeemedRaw,
      redeemed: redeemed.has(slug),
    };
  });
  return { markets, totals: totalPnl(markets) };
}

/**
 * PnL of the UTC day containing `nowMs` (what the daily loss limit reads): fills and resolutions timed
 * in the day, positions at its start and end, marks in force at its start and end (for the current
 * day: the latest mark).
 */
export function dailyPnlReport(src: PnlSources, nowMs: number): DailyPnl {
  const dayStartMs = utcDayStart(checkTimeMs('nowMs', nowMs));
  const dayEndMs = dayStartMs + DAY_MS;
  const inDay = new Map(src.fills.activityBetween(dayStartMs, dayEndMs).map((entry) => [entry.marketSlug, entry]));
  const resolutions = new Map(src.market.resolutions().map((resolution) => [resolution.marketSlug, resolution]));
  const inputs = src.markets().map((slug): DailyMarketInput => {
    const resolution = resolutions.get(slug) ?? null;
    // Resolved before the day: only its fills timed today count (the day's sum skips its positions and marks), so
    // those are not read. Over days of rolling markets the ledger's list only grows, and this runs at every publish
    // and kill-switch check.
    if (resolution !== null && resolution.resolvedAtMs < dayStartMs) {
      const flat = { yes: FLAT, no: FLAT, midMicros: null };
      return { marketSlug: slug, open: flat, now: flat, realizedTodayRaw: inDay.get(slug)?.realizedRaw ?? 0, feesTodayRaw: inDay.get(slug)?.feesRaw ?? 0, resolution };
    }
    return {
      marketSlug: slug,
      open: {
        yes: src.positions.before(slug, 'YES', dayStartMs),
        no: src.positions.before(slug, 'NO', dayStartMs),
        midMicros: src.market.dayOpenMark(slug, dayStartMs),
      },
      now: {
        yes: src.positions.before(slug, 'YES', dayEndMs),
        no: src.positions.before(slug, 'NO', dayEndMs),
        midMicros: src.market.dayOpenMark(slug, dayEndMs) ?? src.market.getMark(slug)?.midMicros ?? null,
      },
      realizedTodayRaw: inDay.get(slug)?.realizedRaw ?? 0,
      feesTodayRaw: inDay.get(slug)?.feesRaw ?? 0,
      resolution: resolution !== null && resolution.resolvedAtMs < dayEndMs ? resolution : null,
    };
  });
  return dailyPnl(dayStartMs, inputs);
}
