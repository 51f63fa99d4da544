/**
 * The replay backtest's report: one set of figures, shown three ways (a terminal table, one JSON object, a
 * self-contained HTML page with charts), and a sweep table of several runs.
 *
 * Owns: the report's shape and its renderings, and the sentence on the queue models (`queueModelNote`: where the
 * two models can fill differently on this recording, or why they cannot). Invariants: the figures are computed by the
 * backtest in exact units (raw 1e6 integers, ticks, ms) and converted here, once, for people (`peopleFigures`,
 * `peopleReport`: shares at 2 decimals, USDC at cents, a mean markout per fill at 4 decimals, prices as prices,
 * seconds, percent); nothing a person reads (table, `--json`, report.json, the page, the sweep and compare tables)
 * carries a raw unit; the HTML page needs no server and no network (the charting library, uPlot, is embedded in the
 * page, and the data with it, escaped so no value can end the script).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import type { QueueStats } from './queue-matcher.js';
import { formatSurfaceSection, peopleSurface, surfaceRows, type SurfaceReport } from './surface-report.js';

/** The mean markout of the fills at one horizon (src/markouts/markout.ts), USDC per fill. */
import type { MarkoutFigure } from './markout-figure.js';
export type { MarkoutFigure } from './markout-figure.js';

export interface ReplayFigures {
  /** The market's name from its data: its title, else its slug ("N markets" for a total). */
  readonly market: string;
  readonly slugs: readonly string[];
  readonly queueModel: string;
  readonly latencyMs: number;
  readonly durationMs: number;
  readonly fills: number;
  readonly makerFills: number;
  readonly volumeRaw: number;
  readonly feesRaw: number;
  readonly realizedPnlRaw: number;
  readonly unrealizedPnlRaw: number;
  /** Liquidity rewards the resting orders scored (the venue's formula, src/strategy/rewards.ts), USDC. */
  readonly rewardsUsdc: number;
  /** Σ the maker fills' rebate estimates (src/strategy/rebates.ts), raw USDC; 0 without a rate. */
  readonly rebatesRaw: number;
  /** The rebate rate used: the market's, else `rewards.rebateRateFallback`; null: none known (no estimate). */
  readonly rebateRate: number | null;
  /** realized + unrealized + rewards + rebates − fees, USDC. */
  readonly totalPnlUsdc: number;
  /** Σ over fills of the edge against the recorded mid at the fill, USDC. */
  readonly spreadCapturedUsdc: number;
  /** realized + unrealized − spread captured: what the mid's moves took from the inventory, USDC. */
  readonly adverseSelectionUsdc: number;
  /** Markouts against the recorded mid (a book without our orders) at 1 s, 10 s, 60 s, 5 min. */
  readonly markouts: readonly MarkoutFigure[];
  /** Markouts against the model's fair value; null when no replayed market was priced. */
  readonly fairMarkouts: readonly MarkoutFigure[] | null;
  /** Largest |YES − NO| held in one market, raw shares. */
  readonly maxInventoryRaw: number;
  /** Time-weighted mean |YES − NO| of a market, raw shares (over several markets: weighted by each one's time). */
  readonly timeWeightedInventoryRaw: number;
  /** Time-weighted mean of (own best ask − own best bid) while both sides were quoted, ticks; null if never. */
  readonly quotedSpreadTicks: number | null;
  /** Filled size / placed size. */
  readonly fillRatio: number;
  readonly requests: number;
  /** Market-time quoted (summed over markets), ms; a fraction of `marketTimeMs`. */
  readonly timeQuotedMs: number;
  /** Replayed time × markets, ms. */
  readonly marketTimeMs: number;
  /** Time the replay ran on a book carried forward over a gap of the recording longer than the staleness limit. */
  readonly timeCarriedForwardMs: number;
  /** Recorded books the bot's book checks refuse (crossed or locked): nothing is quoted until the next good one. */
  readonly unusableBooks: number;
  /** Recorded underlying prices fed to the pricer, and those its store refused. */
  readonly underlyingPrices: number;
  readonly refusedPrices: number;
  /** Time quoted from the model (priced markets), ms summed over markets. */
  readonly timeFromModelMs: number;
  /** What the recording let the queue model do (src/replay/queue-matcher.ts), summed over markets. */
  readonly queue: QueueStats;
  /**
   * Parts of the recording that did not read to their end (replayed with `--allow-truncated`), each as
   * src/replay/reader.ts `describeTruncation` says it: `… truncated at byte N of M (…), after line L`. Empty: whole.
   */
  readonly truncated: readonly string[];
}

export interface ReplaySeries {
  /** Seconds since the start of the replay. */
  readonly t: readonly number[];
  readonly mid: readonly (number | null)[];
  readonly bid: readonly (number | null)[];
  readonly ask: readonly (number | null)[];
  /** The model's fair value (null where the market is not priced or the model halts). */
  readonly fair: readonly (number | null)[];
  /** The underlying's last price, USD (null without one). */
  readonly underlying: readonly (number | null)[];
  /** Total PnL so far: realized + unrealized + rewards + rebates − fees, USDC. */
  readonly pnl: readonly number[];
  /** Cumulative spread captured, USDC. */
  readonly spread: readonly number[];
  /** Cumulative adverse selection (realized + unrealized − spread captured), USDC. */
  readonly adverse: readonly number[];
  /** YES − NO, shares. */
  readonly inventory: readonly number[];
}

export interface ReplayFillPoint {
  readonly t: number;
  readonly price: number;
  /** YES terms. */
  readonly side: 'BUY' | 'SELL';
  readonly size: number;
  readonly liquidity: 'maker' | 'taker';
}

export interface MarketReplay {
  readonly slug: string;
  /** The underlying's ticker of a priced market; null otherwise. */
  readonly ticker: string | null;
  readonly figures: ReplayFigures;
  readonly series: ReplaySeries;
  readonly fills: readonly ReplayFillPoint[];
  /** When the trader joined it (the replay's start, or its listing in a stream that lists markets over time). */
  readonly joinedAtMs: number;
  /** When it was left (its stop before settlement, or its resolution); null: traded to the end. */
  readonly leftAtMs: number | null;
}

export interface ReplayReport {
  /** Every replayed market together. */
  readonly figures: ReplayFigures;
  readonly markets: readonly MarketReplay[];
  /** What the volatility surface contributed (./surface-report.ts); null or absent when the config's surface is off. */
  readonly surface?: SurfaceReport | null;
  /** The config's market selection the replay ran, and what it did (src/replay/replay-backtest.ts). */
  readonly selection?: ReplaySelection;
}

/** The selection of a replay: its rules in words, the markets joined (at most `peakJoined` at once), why others were not. */
export interface ReplaySelection {
  readonly rules: string;
  readonly joined: number;
  readonly peakJoined: number;
  readonly listed: number;
  /** The reasons the markets never joined were skipped, most frequent first (empty: every market was joined). */
  readonly notJoined: string;
}

/** `value` rounded to `digits` decimals (never −0). */
const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits + 0;
/** Raw 1e6 shares → shares at 2 decimals; raw 1e6 USDC → USDC at cents (exact on the integers). */
const hundredths = (raw: number): number => Math.round(raw / 10_000) / 100 + 0;
const seconds = (ms: number): number => round(ms / 1000, 1);
const percentOf = (part: number, whole: number): number => round((100 * part) / Math.max(1, whole), 1);

/** A mean markout as a person reads it: seconds after the fill, USDC per fill at 4 decimals (a per-fill mean). */
export interface PeopleMarkout {
  readonly horizonSec: number;
  readonly fills: number;
  readonly meanUsdc: number;
}

/** The queue figures in shares (the same whichever model ran). */
export interface PeopleQueue {
  readonly restingOrders: number;
  readonly ordersBehindQueue: number;
  readonly aheadOnArrivalShares: number;
  readonly canceledAheadShares: number;
  readonly tradesReachingMovedOrders: number;
}

/**
 * The figures as a person reads them (`--json`, report.json, every table): shares, USDC at cents, prices, seconds,
 * percent. Fields that were already in a person's unit keep their names; raw ones are renamed with their unit.
 */
export interface PeopleFigures {
  readonly market: string;
  readonly slugs: readonly string[];
  readonly queueModel: string;
  readonly latencyMs: number;
  readonly durationSec: number;
  readonly fills: number;
  readonly makerFills: number;
  readonly volumeShares: number;
  readonly feesUsdc: number;
  readonly realizedPnlUsdc: number;
  readonly unrealizedPnlUsdc: number;
  /** realized + unrealized − fees: what the trading alone made, USDC. */
  readonly tradingPnlUsdc: number;
  readonly rewardsUsdc: number;
  /** Maker rebates, estimated; null when no rate was known. */
  readonly rebatesUsdc: number | null;
  readonly rebateRate: number | null;
  readonly totalPnlUsdc: number;
  readonly spreadCapturedUsdc: number;
  readonly adverseSelectionUsdc: number;
  readonly markouts: readonly PeopleMarkout[];
  readonly fairMarkouts: readonly PeopleMarkout[] | null;
  readonly maxInventoryShares: number;
  readonly timeWeightedInventoryShares: number;
  /** Time-weighted own ask − own bid while both were quoted, as a price (0.025 = 2.5 cents); null if never. */
  readonly quotedSpread: number | null;
  readonly fillRatioPct: number;
  readonly requests: number;
  /** Of the replayed time × markets. */
  readonly timeQuotedPct: number;
  /** Null when no replayed market was priced. */
  readonly timeFromModelPct: number | null;
  readonly timeCarriedForwardSec: number;
  readonly timeCarriedForwardPct: number;
  readonly unusableBooks: number;
  readonly underlyingPrices: number;
  readonly refusedPrices: number;
  readonly queue: PeopleQueue;
  /** Where the two queue models can differ on this recording, or why they cannot. */
  readonly queueModelNote: string;
  /** Parts of the recording cut short or corrupt (`… truncated at byte N of M (…), after line L`); empty when whole. */
  readonly truncated: readonly string[];
}

function peopleMarkouts(markouts: readonly MarkoutFigure[]): PeopleMarkout[] {
  return markouts.map((m) => ({ horizonSec: m.horizonMs / 1000, fills: m.fills, meanUsdc: round(m.meanUsdc, 4) }));
}

/** The one conversion of the figures for people. Pure. */
export function peopleFigures(f: ReplayFigures): PeopleFigures {
  return {
    market: f.market,
    slugs: f.slugs,
    queueModel: f.queueModel,
    latencyMs: f.latencyMs,
    durationSec: seconds(f.durationMs),
    fills: f.fills,
    makerFills: f.makerFills,
    volumeShares: hundredths(f.volumeRaw),
    feesUsdc: hundredths(f.feesRaw),
    realizedPnlUsdc: hundredths(f.realizedPnlRaw),
    unrealizedPnlUsdc: hundredths(f.unrealizedPnlRaw),
    tradingPnlUsdc: hundredths(f.realizedPnlRaw + f.unrealizedPnlRaw - f.feesRaw),
    rewardsUsdc: round(f.rewardsUsdc, 2),
    rebatesUsdc: f.rebateRate === null ? null : hundredths(f.rebatesRaw),
    rebateRate: f.rebateRate,
    totalPnlUsdc: round(f.totalPnlUsdc, 2),
    spreadCapturedUsdc: round(f.spreadCapturedUsdc, 2),
    adverseSelectionUsdc: round(f.adverseSelectionUsdc, 2),
    markouts: peopleMarkouts(f.markouts),
    fairMarkouts: f.fairMarkouts === null ? null : peopleMarkouts(f.fairMarkouts),
    maxInventoryShares: hundredths(f.maxInventoryRaw),
    timeWeightedInventoryShares: hundredths(Math.round(f.timeWeightedInventoryRaw)),
    quotedSpread: f.quotedSpreadTicks === null ? null : round(f.quotedSpreadTicks / TICKS_PER_UNIT, 4),
    fillRatioPct: round(f.fillRatio * 100, 1),
    requests: f.requests,
    timeQuotedPct: percentOf(f.timeQuotedMs, f.marketTimeMs),
    timeFromModelPct: f.fairMarkouts === null ? null : percentOf(f.timeFromModelMs, f.marketTimeMs),
    timeCarriedForwardSec: seconds(f.timeCarriedForwardMs),
    timeCarriedForwardPct: percentOf(f.timeCarriedForwardMs, f.marketTimeMs),
    unusableBooks: f.unusableBooks,
    underlyingPrices: f.underlyingPrices,
    refusedPrices: f.refusedPrices,
    queue: {
      restingOrders: f.queue.restingOrders,
      ordersBehindQueue: f.queue.ordersBehindQueue,
      aheadOnArrivalShares: hundredths(f.queue.aheadOnArrivalRaw),
      canceledAheadShares: hundredths(f.queue.canceledAheadRaw),
      tradesReachingMovedOrders: f.queue.tradesReachingMovedOrders,
    },
    queueModelNote: queueModelNote(f.queue),
    truncated: f.truncated,
  };
}

/** The line a report prints when the recording did not read to its end; null when it did. Pure. */
export function truncationNote(f: Pick<ReplayFigures, 'truncated'>): string | null {
  return f.truncated.length === 0 ? null : `recording ${f.truncated.join('; ')}: replayed up to that line`;
}

/**
 * Can the conservative and probabilistic queue models fill differently on this recording? They differ only where
 * recorded size ahead of a resting order was canceled and a recorded trade then reached that order (see
 * src/replay/queue-matcher.ts); the sentence says where, or which condition the data never met. Pure.
 */
export function queueModelNote(q: QueueStats): string {
  const shares = (raw: number): string => hundredths(raw).toFixed(2);
  if (q.tradesReachingMovedOrders > 0) {
    const trades = q.tradesReachingMovedOrders === 1 ? '1 recorded trade' : `${q.tradesReachingMovedOrders} recorded trades`;
    return `queue models can differ here: ${trades} reached orders with ${shares(q.canceledAheadRaw)} shares canceled ahead of them (probabilistic counts them gone, conservative keeps them ahead); compare with --sweep queueModel=conservative,probabilistic`;
  }
  const same = 'queue models: conservative and probabilistic fill the same on this recording';
  if (q.restingOrders === 0) return `${same}: no order rested, so no order waited in a queue`;
  if (q.ordersBehindQueue === 0) return `${same}: each of the ${q.restingOrders} resting orders joined a price with no recorded size ahead of it (inside the recorded spread or at an empty level), so there was no queue to shrink`;
  if (q.canceledAheadRaw === 0) {
    return `${same}: ${q.ordersBehindQueue} of ${q.restingOrders} resting orders joined behind a recorded queue (${shares(q.aheadOnArrivalRaw)} shares ahead), but no size ahead of them was canceled; trades shrink the queue the same way in both models`;
  }
  return `${same}: ${shares(q.canceledAheadRaw)} shares were canceled ahead of resting orders (probabilistic moves them up, conservative does not), but no recorded trade reached those orders afterwards`;
}

const usdc = (value: number): string => value.toFixed(2);
const shares = (value: number): string => value.toFixed(2);
const pct = (value: number | null): string => (value === null ? '—' : `${value.toFixed(1)} %`);

/** The mean markout at `horizonMs`, USDC per fill at 4 decimals ('—' when no fill's later price was known). */
export function markoutAt(markouts: readonly PeopleMarkout[] | null, horizonMs: number): string {
  const h = markouts?.find((m) => m.horizonSec * 1000 === horizonMs);
  return h === undefined || h.fills === 0 ? '—' : h.meanUsdc.toFixed(4);
}

/** The rebate estimate as printed: '—' when no rate was known. */
function rebates(p: PeopleFigures): string {
  return p.rebatesUsdc === null ? '—' : usdc(p.rebatesUsdc);
}

/** The one line a report opens with: total PnL and its parts, fills, volume, maximum inventory, mean 10 s markout. */
export function headline(f: ReplayFigures): string {
  const p = peopleFigures(f);
  return (
    `${p.market}: total PnL ${usdc(p.totalPnlUsdc)} USDC = trading ${usdc(p.tradingPnlUsdc)} (realized ${usdc(p.realizedPnlUsdc)} + unrealized ${usdc(p.unrealizedPnlUsdc)} − fees ${usdc(p.feesUsdc)}) + rewards ${usdc(p.rewardsUsdc)} + rebates est. ${rebates(p)}` +
    ` | ${p.fills} fills | volume ${shares(p.volumeShares)} shares | max inventory ${shares(p.maxInventoryShares)} shares | mean 10 s markout ${markoutAt(p.markouts, 10_000)} USDC`
  );
}

/** The figures as [label, value] rows, in the order the table prints them (people's units). */
export function figureRows(f: ReplayFigures): [string, string][] {
  const p = peopleFigures(f);
  const horizons = f.markouts.map((m) => m.horizonMs);
  const after = (ms: number): string => (ms >= 60_000 ? `${ms / 60_000} min` : `${ms / 1000} s`);
  return [
    ['market', p.market],
    ['queue model / latency', `${p.queueModel} / ${p.latencyMs} ms`],
    ['replayed', `${p.durationSec.toFixed(1)} s`],
    ['total PnL (USDC)', usdc(p.totalPnlUsdc)],
    ['fills (maker)', `${p.fills} (${p.makerFills})`],
    ['volume (shares)', shares(p.volumeShares)],
    ['fees (USDC)', usdc(p.feesUsdc)],
    ['realized PnL (USDC)', usdc(p.realizedPnlUsdc)],
    ['unrealized PnL (USDC)', usdc(p.unrealizedPnlUsdc)],
    ['trading PnL (USDC)', usdc(p.tradingPnlUsdc)],
    ['rewards (USDC)', usdc(p.rewardsUsdc)],
    ['maker rebates est. (USDC)', p.rebateRate === null ? `${rebates(p)} (no rebate rate: rewards.rebateRateFallback)` : `${rebates(p)} (rate ${p.rebateRate})`],
    ['spread captured (USDC)', usdc(p.spreadCapturedUsdc)],
    ['adverse selection (USDC)', usdc(p.adverseSelectionUsdc)],
    ...horizons.map((h): [string, string] => [`markout ${after(h)} vs mid (USDC/fill)`, markoutAt(p.markouts, h)]),
    ...(p.fairMarkouts === null ? [] : horizons.map((h): [string, string] => [`markout ${after(h)} vs model (USDC/fill)`, markoutAt(p.fairMarkouts, h)])),
    ['max |inventory| (shares)', shares(p.maxInventoryShares)],
    ['time-weighted |inventory| (shares)', shares(p.timeWeightedInventoryShares)],
    ['quoted spread (price)', p.quotedSpread === null ? '—' : p.quotedSpread.toFixed(4)],
    ['fill ratio', pct(p.fillRatioPct)],
    ['requests', String(p.requests)],
    ['time quoted', pct(p.timeQuotedPct)],
    ['quoted from the model', pct(p.timeFromModelPct)],
    ['underlying prices (refused)', `${p.underlyingPrices} (${p.refusedPrices})`],
    ['time on a carried-forward book', `${p.timeCarriedForwardSec.toFixed(1)} s (${pct(p.timeCarriedForwardPct)})`],
    ['unusable recorded books', String(p.unusableBooks)],
    ['orders rested (behind a recorded queue)', `${p.queue.restingOrders} (${p.queue.ordersBehindQueue}, ${shares(p.queue.aheadOnArrivalShares)} shares ahead)`],
    ['canceled ahead of resting orders (shares)', shares(p.queue.canceledAheadShares)],
    ['trades reaching those orders', String(p.queue.tradesReachingMovedOrders)],
    ['recording', p.truncated.length === 0 ? 'read to its end' : p.truncated.join('; ')],
  ];
}

/**
 * The terminal report: the headline, the figures, the queue models' line; with several markets then one headline
 * and one queue models' line per market (each market has its own queue).
 */
export function formatTable(report: ReplayReport): string {
  const rows = figureRows(report.figures);
  const width = Math.max(...rows.map(([label]) => label.length));
  const table = rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
  const perMarket =
    report.markets.length > 1
      ? `\n\n${report.markets.map((m) => `${headline(m.figures)}\n${queueModelNote(m.figures.queue)}`).join('\n')}`
      : `\n${queueModelNote(report.figures.queue)}`;
  const truncated = truncationNote(report.figures);
  // The surface's section (./surface-report.ts) sits between the figures and the queue models' line(s), which end the report.
  const surface = report.surface == null ? '' : formatSurfaceSection(report.surface);
  return `${truncated === null ? '' : `${truncated}\n`}${headline(report.figures)}\n\n${table}${surface}${perMarket}\n`;
}

/** The truncation line of a sweep or compare table (every run read the same recording), with its newline; or ''. */
function truncationLine(runs: readonly { readonly figures: ReplayFigures }[]): string {
  const note = runs[0] === undefined ? null : truncationNote(runs[0].figures);
  return note === null ? '' : `${note}\n`;
}

/** Columns right-aligned under a header line. */
function columns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** One row per run of a sweep: the swept parameters, then the headline figures; then the queue models' line(s). */
export function formatSweep(runs: readonly { readonly params: Readonly<Record<string, string>>; readonly figures: ReplayFigures }[]): string {
  const paramNames = [...new Set(runs.flatMap((r) => Object.keys(r.params)))];
  const header = [...paramNames, 'total PnL $', 'trading $', 'rewards $', 'rebates $', 'fills', 'volume sh', 'fees $', 'realized $', 'unrealized $', 'max |inv| sh', 'spread', 'fill %', 'requests', 'quoted %', 'q-canceled sh'];
  const rows = runs.map(({ params, figures }) => {
    const p = peopleFigures(figures);
    return [
      ...paramNames.map((name) => params[name] ?? ''),
      usdc(p.totalPnlUsdc),
      usdc(p.tradingPnlUsdc),
      usdc(p.rewardsUsdc),
      rebates(p),
      String(p.fills),
      shares(p.volumeShares),
      usdc(p.feesUsdc),
      usdc(p.realizedPnlUsdc),
      usdc(p.unrealizedPnlUsdc),
      shares(p.maxInventoryShares),
      p.quotedSpread === null ? '—' : p.quotedSpread.toFixed(4),
      p.fillRatioPct.toFixed(1),
      String(p.requests),
      p.timeQuotedPct.toFixed(1),
      shares(p.queue.canceledAheadShares),
    ];
  });
  const notes = [...new Set(runs.map((r) => queueModelNote(r.figures.queue)))];
  return `${truncationLine(runs)}${columns(header, rows)}${notes.join('\n')}\n`;
}

/**
 * `--compare`: one row per config on the same recording: total PnL (USDC) and its parts — trading PnL (realized +
 * unrealized − fees), rewards, maker rebates est. ('—' without a rate) — fills, mean markouts at 1 s, 10 s and
 * 60 s (USDC per fill; against the model where the markets are priced, else the recorded mid), maximum inventory
 * (shares), time quoted, shares canceled ahead of resting orders; then each config's queue models' line.
 */
export function formatCompare(runs: readonly { readonly name: string; readonly figures: ReplayFigures }[]): string {
  const header = ['config', 'total PnL (USDC)', 'trading', 'rewards', 'rebates est.', 'fills', 'markout 1 s', 'markout 10 s', 'markout 60 s', 'against', 'max |inv| (shares)', 'time quoted', 'q-canceled sh'];
  const rows = runs.map(({ name, figures }) => {
    const p = peopleFigures(figures);
    const against = p.fairMarkouts ?? p.markouts;
    return [name, usdc(p.totalPnlUsdc), usdc(p.tradingPnlUsdc), usdc(p.rewardsUsdc), rebates(p), String(p.fills), markoutAt(against, 1_000), markoutAt(against, 10_000), markoutAt(against, 60_000), p.fairMarkouts === null ? 'mid' : 'model', shares(p.maxInventoryShares), pct(p.timeQuotedPct), shares(p.queue.canceledAheadShares)];
  });
  const notes = runs.map(({ name, figures }) => `${name}: ${queueModelNote(figures.queue)}`);
  return `${truncationLine(runs)}${columns(header, rows)}${notes.join('\n')}\n`;
}

/** A market of report.json: people's figures, and the series and fills rounded to people's precision. */
export interface PeopleMarketReplay {
  readonly slug: string;
  readonly ticker: string | null;
  readonly figures: PeopleFigures;
  readonly series: ReplaySeries;
  readonly fills: readonly ReplayFillPoint[];
}

/** The report as report.json and the page hold it. */
export interface PeopleReport {
  readonly figures: PeopleFigures;
  readonly markets: readonly PeopleMarketReplay[];
  /** What the volatility surface contributed (./surface-report.ts `peopleSurface`); absent when it was off. */
  readonly surface?: unknown;
}

/** `values` rounded to `digits` decimals, nulls kept. */
function roundAll<T extends number | null>(values: readonly T[], digits: number): T[] {
  return values.map((v) => (v === null ? v : (round(v, digits) as T)));
}

/** The report for people: figures converted, series at 4-decimal prices, USDC at cents, shares at 2 decimals. Pure. */
export function peopleReport(report: ReplayReport): PeopleReport {
  return {
    figures: peopleFigures(report.figures),
    markets: report.markets.map((m) => ({
      slug: m.slug,
      ticker: m.ticker,
      figures: peopleFigures(m.figures),
      series: {
        t: m.series.t,
        mid: roundAll(m.series.mid, 4),
        bid: roundAll(m.series.bid, 4),
        ask: roundAll(m.series.ask, 4),
        fair: roundAll(m.series.fair, 4),
        underlying: roundAll(m.series.underlying, 4),
        pnl: roundAll(m.series.pnl, 2),
        spread: roundAll(m.series.spread, 2),
        adverse: roundAll(m.series.adverse, 2),
        inventory: roundAll(m.series.inventory, 2),
      },
      fills: m.fills.map((fill) => ({ ...fill, size: round(fill.size, 2) })),
    })),
    ...(report.surface == null ? {} : { surface: peopleSurface(report.surface) }),
  };
}

/** uPlot's script and stylesheet, read from the installed package (embedded in every page). */
export function chartAssets(): { readonly js: string; readonly css: string } {
  const require = createRequire(import.meta.url);
  const dist = require.resolve('uplot/dist/uPlot.iife.min.js');
  return { js: readFileSync(dist, 'utf8'), css: readFileSync(dist.replace(/uPlot\.iife\.min\.js$/, 'uPlot.min.css'), 'utf8') };
}

/** JSON safe inside a <script> element (no `</script>`, no HTML comment openers). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderHtml(report: ReplayReport, assets: { readonly js: string; readonly css: string }): string {
  const truncated = truncationNote(report.figures);
  const rows = figureRows(report.figures)
    .map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  const sections = report.markets
    .map(
      (m, i) => `<section class="market"><h2>${escapeHtml(m.figures.market)}</h2><p class="headline">${escapeHtml(headline(m.figures))}</p>
<p class="queue-note">${escapeHtml(queueModelNote(m.figures.queue))}</p>
<div id="prices-${i}" class="chart"></div><div id="underlying-${i}" class="chart"></div><div id="inventory-${i}" class="chart"></div><div id="pnl-${i}" class="chart"></div><div id="markouts-${i}" class="chart"></div></section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>outcome-maker replay: ${escapeHtml(report.figures.market)}</title>
<style>${assets.css}
body{font:14px system-ui,sans-serif;margin:24px;color:#222}h1{font-size:18px}h2{font-size:16px;margin-top:28px}table{border-collapse:collapse;margin-bottom:16px}
.headline{font-weight:600}th{text-align:left;font-weight:normal;color:#555;padding:2px 16px 2px 0}td{font-variant-numeric:tabular-nums}.chart{margin:12px 0}</style>
</head><body>
${truncated === null ? '' : `<p id="truncated" class="headline">${escapeHtml(truncated)}</p>\n`}<p id="headline" class="headline">${escapeHtml(headline(report.figures))}</p>
<h1>Replay of ${escapeHtml(report.figures.market)}</h1>
<table id="figures">${rows}</table>
<p id="queue-note">${escapeHtml(queueModelNote(report.figures.queue))}</p>
${report.surface == null ? '' : `<h2>Volatility surface: the fair value with it (the bot's) and without it (realized only) at each fill</h2><table id="surface">${surfaceRows(report.surface).map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`}
${sections}
<script>${assets.js}</script>
<script>
const report = ${scriptJson(peopleReport(report))};
const width = Math.min(1100, window.innerWidth - 48);
const x = { x: { time: false } };
report.markets.forEach((m, i) => {
  const s = m.series;
  const el = (name) => document.getElementById(name + '-' + i);
  // fills go on their own x points, merged into one aligned table for uPlot
  const xs = [...new Set([...s.t, ...m.fills.map((f) => f.t)])].sort((a, b) => a - b);
  const stepFill = (vs) => { let last = null; return xs.map((t) => { const k = s.t.indexOf(t); if (k >= 0) last = vs[k]; return last; }); };
  const fillAt = (side) => xs.map((t) => { const f = m.fills.find((p) => p.t === t && p.side === side); return f ? f.price : null; });
  new uPlot({ title: 'Book mid, our quotes, the model fair value and our fills (price)', width, height: 320, scales: x,
    series: [{ label: 't (s)' }, { label: 'book mid', stroke: '#888' }, { label: 'our bid', stroke: '#2a7' }, { label: 'our ask', stroke: '#c33' },
      { label: 'model fair value', stroke: '#70c', dash: [6, 4] },
      { label: 'buy fill', stroke: '#080', paths: () => null, points: { show: true, size: 9, fill: '#0a0' } },
      { label: 'sell fill', stroke: '#a00', paths: () => null, points: { show: true, size: 9, fill: '#d00' } }] },
    [xs, stepFill(s.mid), stepFill(s.bid), stepFill(s.ask), stepFill(s.fair), fillAt('BUY'), fillAt('SELL')], el('prices'));
  new uPlot({ title: 'The underlying' + (m.ticker ? ' (' + m.ticker + ', USD)' : ': none recorded'), width, height: 200, scales: x,
    series: [{ label: 't (s)' }, { label: m.ticker || 'underlying', stroke: '#d80' }] }, [s.t, s.underlying], el('underlying'));
  new uPlot({ title: 'Inventory (YES − NO shares)', width, height: 200, scales: x,
    series: [{ label: 't (s)' }, { label: 'inventory', stroke: '#a60' }] }, [s.t, s.inventory], el('inventory'));
  new uPlot({ title: 'Cumulative PnL (USDC): total, spread captured, adverse selection', width, height: 240, scales: x,
    series: [{ label: 't (s)' }, { label: 'total (incl. rewards + rebates − fees)', stroke: '#36c', width: 2 }, { label: 'spread captured', stroke: '#2a7' }, { label: 'adverse selection', stroke: '#c33' }] },
    [s.t, s.pnl, s.spread, s.adverse], el('pnl'));
  const horizons = m.figures.markouts.map((h) => h.horizonSec);
  const mean = (list) => list === null ? horizons.map(() => null) : list.map((h) => h.fills === 0 ? null : h.meanUsdc);
  new uPlot({ title: 'Mean markout by horizon (USDC per fill; x: seconds after the fill)', width, height: 220, scales: { x: { time: false, distr: 3 } },
    series: [{ label: 'horizon (s)' }, { label: 'vs book mid', stroke: '#888', points: { show: true } }, { label: 'vs model', stroke: '#70c', points: { show: true } }] },
    [horizons, mean(m.figures.markouts), mean(m.figures.fairMarkouts)], el('markouts'));
});
document.body.dataset.rendered = 'yes';
</script></body></html>
`;
}
