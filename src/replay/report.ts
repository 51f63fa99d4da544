/**
 * The replay backtest's report: one set of figures, shown three ways (a terminal table, one JSON object, a
 * self-contained HTML page with charts), and a sweep table of several runs.
 *
 * Owns: the report's shape and its renderings. Invariants: the figures are computed by the backtest in exact
 * units (raw 1e6 integers, ticks, ms) and only formatted here; the HTML page needs no server and no network (the
 * charting library, uPlot, is embedded in the page, and the data with it, escaped so no value can end the script).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { rawToDecimal } from '../core/venue-rules/index.js';

/** The mean markout of the fills at one horizon (src/markouts/markout.ts), USDC per fill. */
export interface MarkoutFigure {
  readonly horizonMs: number;
  /** Fills whose later price was known (the recording ran long enough after them). */
  readonly fills: number;
  readonly meanUsdc: number;
}

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
  /** realized + unrealized + rewards − fees, USDC. */
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
  /** Time-weighted mean |YES − NO|, raw shares (summed over markets). */
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
  /** Total PnL so far: realized + unrealized + rewards − fees, USDC. */
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
}

export interface ReplayReport {
  /** Every replayed market together. */
  readonly figures: ReplayFigures;
  readonly markets: readonly MarketReplay[];
}

const usd = (raw: number): string => rawToDecimal(raw);
/** A float amount of USDC (rewards, markouts: not booked), to the cent's hundredth. */
const money = (usdc: number): string => (Object.is(Math.round(usdc * 1e4), -0) ? 0 : usdc).toFixed(4);
const percent = (part: number, whole: number): string => `${((100 * part) / Math.max(1, whole)).toFixed(1)} %`;

/** The mean markout at `horizonMs`, USDC per fill ('—' when no fill's later price was known). */
export function markoutAt(markouts: readonly MarkoutFigure[] | null, horizonMs: number): string {
  const h = markouts?.find((m) => m.horizonMs === horizonMs);
  return h === undefined || h.fills === 0 ? '—' : money(h.meanUsdc);
}

/** The one line a report opens with: total PnL and its parts, fills, volume, maximum inventory, mean 10 s markout. */
export function headline(f: ReplayFigures): string {
  const realized = f.realizedPnlRaw / 1e6;
  const unrealized = f.unrealizedPnlRaw / 1e6;
  return (
    `${f.market}: total PnL ${money(f.totalPnlUsdc)} USDC = realized ${money(realized)} + unrealized ${money(unrealized)} + rewards ${money(f.rewardsUsdc)} − fees ${usd(f.feesRaw)}` +
    ` | ${f.fills} fills | volume ${usd(f.volumeRaw)} shares | max inventory ${usd(f.maxInventoryRaw)} shares | mean 10 s markout ${markoutAt(f.markouts, 10_000)} USDC`
  );
}

/** The figures as [label, value] rows, in the order the table prints them. */
export function figureRows(f: ReplayFigures): [string, string][] {
  const horizons = f.markouts.map((m) => m.horizonMs);
  const seconds = (ms: number): string => (ms >= 60_000 ? `${ms / 60_000} min` : `${ms / 1000} s`);
  return [
    ['market', f.market],
    ['queue model / latency', `${f.queueModel} / ${f.latencyMs} ms`],
    ['replayed', `${(f.durationMs / 1000).toFixed(1)} s`],
    ['total PnL (USDC)', money(f.totalPnlUsdc)],
    ['fills (maker)', `${f.fills} (${f.makerFills})`],
    ['volume (shares)', usd(f.volumeRaw)],
    ['fees (USDC)', usd(f.feesRaw)],
    ['realized PnL (USDC)', usd(f.realizedPnlRaw)],
    ['unrealized PnL (USDC)', usd(f.unrealizedPnlRaw)],
    ['rewards (USDC)', money(f.rewardsUsdc)],
    ['spread captured (USDC)', money(f.spreadCapturedUsdc)],
    ['adverse selection (USDC)', money(f.adverseSelectionUsdc)],
    ...horizons.map((h): [string, string] => [`markout ${seconds(h)} vs mid (USDC/fill)`, markoutAt(f.markouts, h)]),
    ...(f.fairMarkouts === null ? [] : horizons.map((h): [string, string] => [`markout ${seconds(h)} vs model (USDC/fill)`, markoutAt(f.fairMarkouts, h)])),
    ['max |inventory| (shares)', usd(f.maxInventoryRaw)],
    ['time-weighted |inventory|', usd(Math.round(f.timeWeightedInventoryRaw))],
    ['quoted spread (ticks)', f.quotedSpreadTicks === null ? '—' : f.quotedSpreadTicks.toFixed(1)],
    ['fill ratio', `${(f.fillRatio * 100).toFixed(1)} %`],
    ['requests', String(f.requests)],
    ['time quoted', percent(f.timeQuotedMs, f.marketTimeMs)],
    ['quoted from the model', f.fairMarkouts === null ? '—' : percent(f.timeFromModelMs, f.marketTimeMs)],
    ['underlying prices (refused)', `${f.underlyingPrices} (${f.refusedPrices})`],
    ['time on a carried-forward book', `${(f.timeCarriedForwardMs / 1000).toFixed(1)} s (${percent(f.timeCarriedForwardMs, f.marketTimeMs)})`],
    ['unusable recorded books', String(f.unusableBooks)],
  ];
}

/** The terminal report: the headline, the figures, and with several markets one headline per market. */
export function formatTable(report: ReplayReport): string {
  const rows = figureRows(report.figures);
  const width = Math.max(...rows.map(([label]) => label.length));
  const table = rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
  const perMarket = report.markets.length > 1 ? `\n\n${report.markets.map((m) => headline(m.figures)).join('\n')}` : '';
  return `${headline(report.figures)}\n\n${table}${perMarket}\n`;
}

/** Columns right-aligned under a header line. */
function columns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** One row per run of a sweep: the swept parameters, then the headline figures. */
export function formatSweep(runs: readonly { readonly params: Readonly<Record<string, string>>; readonly figures: ReplayFigures }[]): string {
  const paramNames = [...new Set(runs.flatMap((r) => Object.keys(r.params)))];
  const header = [...paramNames, 'total PnL', 'fills', 'volume', 'fees', 'realized', 'unrealized', 'rewards', 'max |inv|', 'spread', 'fill %', 'requests', 'quoted %'];
  const rows = runs.map(({ params, figures: f }) => [
    ...paramNames.map((name) => params[name] ?? ''),
    money(f.totalPnlUsdc),
    String(f.fills),
    usd(f.volumeRaw),
    usd(f.feesRaw),
    usd(f.realizedPnlRaw),
    usd(f.unrealizedPnlRaw),
    money(f.rewardsUsdc),
    usd(f.maxInventoryRaw),
    f.quotedSpreadTicks === null ? '—' : f.quotedSpreadTicks.toFixed(1),
    (f.fillRatio * 100).toFixed(1),
    String(f.requests),
    ((100 * f.timeQuotedMs) / Math.max(1, f.marketTimeMs)).toFixed(1),
  ]);
  return columns(header, rows);
}

/**
 * `--compare`: one row per config on the same recording: total PnL (USDC), fills, mean markouts at 1 s, 10 s and
 * 60 s (USDC per fill; against the model where the markets are priced, else the recorded mid), maximum inventory
 * (shares), time quoted.
 */
export function formatCompare(runs: readonly { readonly name: string; readonly figures: ReplayFigures }[]): string {
  const header = ['config', 'total PnL (USDC)', 'fills', 'markout 1 s', 'markout 10 s', 'markout 60 s', 'against', 'max |inv| (shares)', 'time quoted'];
  const rows = runs.map(({ name, figures: f }) => {
    const against = f.fairMarkouts ?? f.markouts;
    return [name, money(f.totalPnlUsdc), String(f.fills), markoutAt(against, 1_000), markoutAt(against, 10_000), markoutAt(against, 60_000), f.fairMarkouts === null ? 'mid' : 'model', usd(f.maxInventoryRaw), percent(f.timeQuotedMs, f.marketTimeMs)];
  });
  return columns(header, rows);
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
  const rows = figureRows(report.figures)
    .map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  const sections = report.markets
    .map(
      (m, i) => `<section class="market"><h2>${escapeHtml(m.figures.market)}</h2><p class="headline">${escapeHtml(headline(m.figures))}</p>
<div id="prices-${i}" class="chart"></div><div id="underlying-${i}" class="chart"></div><div id="inventory-${i}" class="chart"></div><div id="pnl-${i}" class="chart"></div><div id="markouts-${i}" class="chart"></div></section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>outcome-maker replay: ${escapeHtml(report.figures.market)}</title>
<style>${assets.css}
body{font:14px system-ui,sans-serif;margin:24px;color:#222}h1{font-size:18px}h2{font-size:16px;margin-top:28px}table{border-collapse:collapse;margin-bottom:16px}
.headline{font-weight:600}th{text-align:left;font-weight:normal;color:#555;padding:2px 16px 2px 0}td{font-variant-numeric:tabular-nums}.chart{margin:12px 0}</style>
</head><body>
<p id="headline" class="headline">${escapeHtml(headline(report.figures))}</p>
<h1>Replay of ${escapeHtml(report.figures.market)}</h1>
<table id="figures">${rows}</table>
${sections}
<script>${assets.js}</script>
<script>
const report = ${scriptJson(report)};
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
    series: [{ label: 't (s)' }, { label: 'total (incl. rewards − fees)', stroke: '#36c', width: 2 }, { label: 'spread captured', stroke: '#2a7' }, { label: 'adverse selection', stroke: '#c33' }] },
    [s.t, s.pnl, s.spread, s.adverse], el('pnl'));
  const horizons = m.figures.markouts.map((h) => h.horizonMs / 1000);
  const mean = (list) => list === null ? horizons.map(() => null) : list.map((h) => h.fills === 0 ? null : h.meanUsdc);
  new uPlot({ title: 'Mean markout by horizon (USDC per fill; x: seconds after the fill)', width, height: 220, scales: { x: { time: false, distr: 3 } },
    series: [{ label: 'horizon (s)' }, { label: 'vs book mid', stroke: '#888', points: { show: true } }, { label: 'vs model', stroke: '#70c', points: { show: true } }] },
    [horizons, mean(m.figures.markouts), mean(m.figures.fairMarkouts)], el('markouts'));
});
document.body.dataset.rendered = 'yes';
</script></body></html>
`;
}
