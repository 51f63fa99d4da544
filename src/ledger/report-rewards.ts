/**
 * The report's earnings section: trading PnL, ESTIMATED liquidity rewards and maker rebates (src/ledger/rewards-repo.ts)
 * and their total, per market, per strategy and per UTC day, beside what the venue itself reported (`venue_rewards`),
 * and the reward earned per dollar of adverse selection (the markouts' 60 s adverse selection against the book mid).
 *
 * Owns: combining the PnL report, the accrual sums and the markouts into these rows (`earningsReport`, pure) and
 * formatting them (a text table, a JSON object). Invariants: amounts are raw 1e6 integers until formatted as exact
 * decimals; every estimated figure is labelled as one; a market whose trading PnL has no mark shows none and its total
 * is the realized PnL plus rewards and rebates (as the PnL total counts it); the totals equal the sums of the rows.
 */
import { rawToDecimal } from '../core/venue-rules/index.js';
import { ADVERSE_SELECTION_HORIZON_MS } from '../markouts/schedule.js';
import type { MarkoutGroupFigures } from '../markouts/summary.js';
import type { AccrualRow, VenueRewardRow } from './rewards-repo.js';
import { VENUE_TOTAL_MARKET } from './rewards-repo.js';
import type { PnlReport } from './store.js';
import { layoutTable, WIDE, type FigureStyle } from './report-text.js';

export interface EarningsMarketRow {
  readonly marketSlug: string;
  /** Net trading PnL (realized − fees + unrealized); null when the market has no mark. */
  readonly tradingRaw: number | null;
  readonly rewardRaw: number;
  readonly rebateRaw: number;
  /** trading (realized when unmarked) + rewards + rebates. */
  readonly totalRaw: number;
  /** Σ the venue's reported rewards of this market over the days in scope; null when it reported none. */
  readonly venueRewardRaw: number | null;
  /** The markouts' adverse selection at 60 s against the mid, raw USDC; null when no fill was judged. */
  readonly adverseSelectionRaw: number | null;
  /** rewards ÷ adverse selection; null when the adverse selection is not positive. */
  readonly rewardPerAdverseUsdc: number | null;
}

export interface EarningsStrategyRow {
  readonly strategy: string;
  readonly rewardRaw: number;
  readonly rewardMinutes: number;
  readonly rebateRaw: number;
  readonly rebatedFills: number;
}

export interface EarningsDayRow {
  readonly dayStartMs: number;
  readonly rewardRaw: number;
  readonly rebateRaw: number;
  /** The venue's total for the day ('*'), else the sum of its per-market figures; null when it reported nothing. */
  readonly venueRewardRaw: number | null;
  /** venue − estimate; null without a venue figure. */
  readonly errorRaw: number | null;
}

export interface EarningsReport {
  readonly markets: readonly EarningsMarketRow[];
  readonly strategies: readonly EarningsStrategyRow[];
  readonly days: readonly EarningsDayRow[];
  /** The markets' sums; the adverse selection over the markets with judged fills (null: none), all rewards ÷ it. */
  readonly totals: Omit<EarningsMarketRow, 'marketSlug' | 'tradingRaw'> & { readonly tradingRaw: number };
}

function sumBy<T>(rows: readonly T[], key: (row: T) => string, value: (row: T) => number): Map<string, number> {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0) + value(row));
  return sums;
}

/** The earnings of a report's scope. Pure. */
export function earningsReport(pnl: PnlReport, accruals: readonly AccrualRow[], venue: readonly VenueRewardRow[], markouts: readonly MarkoutGroupFigures[]): EarningsReport {
  const rewardOf = sumBy(accruals, (r) => r.marketSlug, (r) => r.rewardRaw);
  const rebateOf = sumBy(accruals, (r) => r.marketSlug, (r) => r.rebateRaw);
  const marketVenue = venue.filter((v) => v.marketSlug !== VENUE_TOTAL_MARKET);
  const venueOf = sumBy(marketVenue, (v) => v.marketSlug, (v) => v.rewardRaw);
  // A market none of whose fills has its 60 s markout yet has no adverse selection to show (null, not 0).
  const adverseOfGroup = (g: MarkoutGroupFigures): number | null => {
    const mid = g.references.find((r) => r.reference === 'mid');
    const known = mid?.horizons.find((h) => h.horizonMs === ADVERSE_SELECTION_HORIZON_MS)?.known ?? 0;
    return mid === undefined || known === 0 ? null : mid.adverseSelectionRaw;
  };
  const adverseOf = new Map(markouts.map((g) => [g.key, adverseOfGroup(g)]));
  const pnlOf = new Map(pnl.markets.map((m) => [m.marketSlug, m]));
  const slugs = [...new Set([...pnlOf.keys(), ...rewardOf.keys(), ...rebateOf.keys()])].sort();
  const markets = slugs.map((slug): EarningsMarketRow => {
    const row = pnlOf.get(slug);
    const tradingRaw = row === undefined ? 0 : row.netPnlRaw;
    const rewardRaw = rewardOf.get(slug) ?? 0;
    const rebateRaw = rebateOf.get(slug) ?? 0;
    const adverse = adverseOf.get(slug) ?? null;
    return {
      marketSlug: slug,
      tradingRaw,
      rewardRaw,
      rebateRaw,
      totalRaw: (tradingRaw ?? row?.realizedRaw ?? 0) + rewardRaw + rebateRaw,
      venueRewardRaw: venueOf.get(slug) ?? null,
      adverseSelectionRaw: adverse,
      rewardPerAdverseUsdc: adverse !== null && adverse > 0 ? rewardRaw / adverse : null,
    };
  });
  const strategies = [...new Set(accruals.map((r) => r.strategy))].sort().map((strategy): EarningsStrategyRow => {
    const rows = accruals.filter((r) => r.strategy === strategy);
    const sum = (f: (r: AccrualRow) => number): number => rows.reduce((acc, r) => acc + f(r), 0);
    return { strategy, rewardRaw: sum((r) => r.rewardRaw), rewardMinutes: sum((r) => r.rewardMinutes), rebateRaw: sum((r) => r.rebateRaw), rebatedFills: sum((r) => r.rebatedFills) };
  });
  const dayKeys = [...new Set([...accruals.map((r) => r.dayStartMs), ...venue.map((v) => v.dayStartMs)])].sort((a, b) => a - b);
  const days = dayKeys.map((day): EarningsDayRow => {
    const rows = accruals.filter((r) => r.dayStartMs === day);
    const rewardRaw = rows.reduce((acc, r) => acc + r.rewardRaw, 0);
    const rebateRaw = rows.reduce((acc, r) => acc + r.rebateRaw, 0);
    const total = venue.find((v) => v.dayStartMs === day && v.marketSlug === VENUE_TOTAL_MARKET);
    const perMarket = marketVenue.filter((v) => v.dayStartMs === day);
    const venueRewardRaw = total !== undefined ? total.rewardRaw : perMarket.length > 0 ? perMarket.reduce((acc, v) => acc + v.rewardRaw, 0) : null;
    return { dayStartMs: day, rewardRaw, rebateRaw, venueRewardRaw, errorRaw: venueRewardRaw === null ? null : venueRewardRaw - rewardRaw };
  });
  const venueDays = days.filter((d) => d.venueRewardRaw !== null);
  const sum = (f: (r: EarningsMarketRow) => number): number => markets.reduce((acc, r) => acc + f(r), 0);
  const judged = markets.filter((r) => r.adverseSelectionRaw !== null);
  const adverseSelectionRaw = judged.length === 0 ? null : judged.reduce((acc, r) => acc + (r.adverseSelectionRaw ?? 0), 0);
  const rewardRaw = sum((r) => r.rewardRaw);
  return {
    markets,
    strategies,
    days,
    totals: {
      tradingRaw: sum((r) => r.tradingRaw ?? 0),
      rewardRaw,
      rebateRaw: sum((r) => r.rebateRaw),
      totalRaw: sum((r) => r.totalRaw),
      venueRewardRaw: venueDays.length === 0 ? null : venueDays.reduce((acc, d) => acc + (d.venueRewardRaw ?? 0), 0),
      adverseSelectionRaw,
      rewardPerAdverseUsdc: adverseSelectionRaw !== null && adverseSelectionRaw > 0 ? rewardRaw / adverseSelectionRaw : null,
    },
  };
}

const ratio = (x: number | null): string => (x === null ? '-' : x.toFixed(2));
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * A text table: a header, a units line, a rule, the rows; the first `leftColumns` columns left-aligned (the keys), the
 * rest right; within `width` (src/ledger/report-text.ts; default: any width).
 */
export function table(header: readonly string[], units: readonly string[], rows: readonly (readonly string[])[], leftColumns = 1, width = Number.POSITIVE_INFINITY): string[] {
  return layoutTable({ header, units, rows, keys: leftColumns }, width);
}

/** What the section's figures mean, printed under it. */
export const EARNINGS_LEGEND = [
  'trading: the market\'s net PnL (realized + unrealized − fees); rewards est., rebates est.: the bot\'s own ESTIMATES of',
  'liquidity rewards and maker rebates, minute by minute; total: trading + rewards est. + rebates est.',
  'venue rewards: the venue\'s running figure for the CURRENT epoch so far (today\'s, read from the portfolio; reset at each',
  'payout): not money paid yet. What the venue PAID for closed epochs is "rewards paid" in the Reconciliation section.',
  'adverse 60s: the fills\' adverse selection 60 s after (markouts vs mid); reward/adverse: rewards est. ÷ adverse 60s.',
];

/** The section as text: per market (with TOTAL), per strategy, per day, then its legend. */
export function formatEarningsTable(report: EarningsReport, style: FigureStyle = WIDE): string {
  const dec = (raw: number | null): string => (raw === null ? '-' : style.usdc(raw));
  const lines = ['', 'Earnings: trading PnL, liquidity rewards and maker rebates (rewards and rebates are ESTIMATES; "venue" is what the venue reported)'];
  if (report.markets.length === 0 && report.days.length === 0) return `${[...lines, 'No rewards or rebates accrued.'].join('\n')}\n`;
  const t = report.totals;
  lines.push(
    ...table(
      ['market', 'trading', 'rewards est.', 'rebates est.', 'total', 'venue rewards', 'adverse 60s', 'reward/adverse'],
      ['', 'USDC', 'USDC', 'USDC', 'USDC', 'USDC', 'USDC', 'USDC/USDC'],
      [
        ...report.markets.map((m) => [m.marketSlug, dec(m.tradingRaw), dec(m.rewardRaw), dec(m.rebateRaw), dec(m.totalRaw), dec(m.venueRewardRaw), dec(m.adverseSelectionRaw), ratio(m.rewardPerAdverseUsdc)]),
        ['TOTAL', dec(t.tradingRaw), dec(t.rewardRaw), dec(t.rebateRaw), dec(t.totalRaw), dec(t.venueRewardRaw), dec(t.adverseSelectionRaw), ratio(t.rewardPerAdverseUsdc)],
      ],
      1,
      style.width,
    ),
  );
  if (report.strategies.length > 0) {
    lines.push('', ...table(['strategy', 'rewards est.', 'minutes', 'rebates est.', 'maker fills'], ['', 'USDC', 'count', 'USDC', 'count'], report.strategies.map((s) => [s.strategy, dec(s.rewardRaw), String(s.rewardMinutes), dec(s.rebateRaw), String(s.rebatedFills)]), 1, style.width));
  }
  if (report.days.length > 0) {
    lines.push('', ...table(['day (UTC)', 'rewards est.', 'rebates est.', 'venue rewards', 'venue − est.'], ['', 'USDC', 'USDC', 'USDC', 'USDC'], report.days.map((d) => [day(d.dayStartMs), dec(d.rewardRaw), dec(d.rebateRaw), dec(d.venueRewardRaw), dec(d.errorRaw)]), 1, style.width));
  }
  lines.push('', ...EARNINGS_LEGEND);
  return `${lines.join('\n')}\n`;
}

/** The section as a JSON object (amounts as exact decimal strings in USDC). */
export function earningsJson(report: EarningsReport): Record<string, unknown> {
  const opt = (raw: number | null): string | null => (raw === null ? null : rawToDecimal(raw));
  return {
    estimated: ['rewards', 'rebates'],
    units: { trading: 'USDC', rewards: 'USDC', rebates: 'USDC', total: 'USDC', venueRewards: 'USDC', adverseSelection60s: 'USDC', rewardPerAdverse: 'USDC per USDC' },
    markets: report.markets.map((m) => ({
      market: m.marketSlug,
      trading: opt(m.tradingRaw),
      rewards: rawToDecimal(m.rewardRaw),
      rebates: rawToDecimal(m.rebateRaw),
      total: rawToDecimal(m.totalRaw),
      venueRewards: opt(m.venueRewardRaw),
      adverseSelection60s: opt(m.adverseSelectionRaw),
      rewardPerAdverse: m.rewardPerAdverseUsdc,
    })),
    strategies: report.strategies.map((s) => ({ strategy: s.strategy, rewards: rawToDecimal(s.rewardRaw), rewardMinutes: s.rewardMinutes, rebates: rawToDecimal(s.rebateRaw), makerFills: s.rebatedFills })),
    days: report.days.map((d) => ({ day: day(d.dayStartMs), rewards: rawToDecimal(d.rewardRaw), rebates: rawToDecimal(d.rebateRaw), venueRewards: opt(d.venueRewardRaw), venueMinusEstimate: opt(d.errorRaw) })),
    totals: {
      trading: rawToDecimal(report.totals.tradingRaw),
      rewards: rawToDecimal(report.totals.rewardRaw),
      rebates: rawToDecimal(report.totals.rebateRaw),
      total: rawToDecimal(report.totals.totalRaw),
      venueRewards: opt(report.totals.venueRewardRaw),
      adverseSelection60s: opt(report.totals.adverseSelectionRaw),
      rewardPerAdverse: report.totals.rewardPerAdverseUsdc,
    },
  };
}
