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

export interface ReplayFigures {
  readonly market: string;
  readonly queueModel: string;
  readonly latencyMs: number;
  readonly durationMs: number;
  readonly fills: number;
  readonly makerFills: number;
  readonly volumeRaw: number;
  readonly feesRaw: number;
  readonly realizedPnlRaw: number;
  readonly unrealizedPnlRaw: number;
  /** Largest |YES − NO| held, raw shares. */
  readonly maxInventoryRaw: number;
  /** Time-weighted mean |YES − NO|, raw shares. */
  readonly timeWeightedInventoryRaw: number;
  /** Time-weighted mean of (own best ask − own best bid) while both sides were quoted, ticks; null if never. */
  readonly quotedSpreadTicks: number | null;
  /** Filled size / placed size. */
  readonly fillRatio: number;
  readonly requests: number;
  readonly timeQuotedMs: number;
  /** Time the replay ran on a book carried forward over a gap of the recording longer than the staleness limit. */
  readonly timeCarriedForwardMs: number;
  /** Recorded books the bot's book checks refuse (crossed or locked): nothing is quoted until the next good one. */
  readonly unusableBooks: number;
}

export interface ReplaySeries {
  /** Seconds since the start of the replay. */
  readonly t: readonly number[];
  readonly mid: readonly (number | null)[];
  readonly bid: readonly (number | null)[];
  readonly ask: readonly (number | null)[];
  /** Realized + unrealized, USDC. */
  readonly pnl: readonly number[];
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

export interface ReplayReport {
  readonly figures: ReplayFigures;
  readonly series: ReplaySeries;
  readonly fills: readonly ReplayFillPoint[];
}

const usd = (raw: number): string => rawToDecimal(raw);

/** The figures as [label, value] rows, in the order the table prints them. */
export function figureRows(f: ReplayFigures): [string, string][] {
  return [
    ['market', f.market],
    ['queue model / latency', `${f.queueModel} / ${f.latencyMs} ms`],
    ['replayed', `${(f.durationMs / 1000).toFixed(1)} s`],
    ['fills (maker)', `${f.fills} (${f.makerFills})`],
    ['volume (shares)', usd(f.volumeRaw)],
    ['fees (USDC)', usd(f.feesRaw)],
    ['realized PnL (USDC)', usd(f.realizedPnlRaw)],
    ['unrealized PnL (USDC)', usd(f.unrealizedPnlRaw)],
    ['max |inventory| (shares)', usd(f.maxInventoryRaw)],
    ['time-weighted |inventory|', usd(Math.round(f.timeWeightedInventoryRaw))],
    ['quoted spread (ticks)', f.quotedSpreadTicks === null ? '—' : f.quotedSpreadTicks.toFixed(1)],
    ['fill ratio', `${(f.fillRatio * 100).toFixed(1)} %`],
    ['requests', String(f.requests)],
    ['time quoted', `${((100 * f.timeQuotedMs) / Math.max(1, f.durationMs)).toFixed(1)} %`],
    ['time on a carried-forward book', `${(f.timeCarriedForwardMs / 1000).toFixed(1)} s (${((100 * f.timeCarriedForwardMs) / Math.max(1, f.durationMs)).toFixed(1)} %)`],
    ['unusable recorded books', String(f.unusableBooks)],
  ];
}

export function formatTable(f: ReplayFigures): string {
  const rows = figureRows(f);
  const width = Math.max(...rows.map(([label]) => label.length));
  return `${rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')}\n`;
}

/** One row per run of a sweep: the swept parameters, then the headline figures. */
export function formatSweep(runs: readonly { readonly params: Readonly<Record<string, string>>; readonly figures: ReplayFigures }[]): string {
  const paramNames = [...new Set(runs.flatMap((r) => Object.keys(r.params)))];
  const header = [...paramNames, 'fills', 'volume', 'fees', 'realized', 'unrealized', 'max |inv|', 'spread', 'fill %', 'requests', 'quoted %'];
  const rows = runs.map(({ params, figures: f }) => [
    ...paramNames.map((name) => params[name] ?? ''),
    String(f.fills),
    usd(f.volumeRaw),
    usd(f.feesRaw),
    usd(f.realizedPnlRaw),
    usd(f.unrealizedPnlRaw),
    usd(f.maxInventoryRaw),
    f.quotedSpreadTicks === null ? '—' : f.quotedSpreadTicks.toFixed(1),
    (f.fillRatio * 100).toFixed(1),
    String(f.requests),
    ((100 * f.timeQuotedMs) / Math.max(1, f.durationMs)).toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
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
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>outcome-maker replay: ${escapeHtml(report.figures.market)}</title>
<style>${assets.css}
body{font:14px system-ui,sans-serif;margin:24px;color:#222}h1{font-size:18px}table{border-collapse:collapse;margin-bottom:16px}
th{text-align:left;font-weight:normal;color:#555;padding:2px 16px 2px 0}td{font-variant-numeric:tabular-nums}.chart{margin:12px 0}</style>
</head><body>
<h1>Replay of ${escapeHtml(report.figures.market)}</h1>
<table id="figures">${rows}</table>
<div id="prices" class="chart"></div><div id="pnl" class="chart"></div><div id="inventory" class="chart"></div>
<script>${assets.js}</script>
<script>
const report = ${scriptJson(report)};
const s = report.series;
const width = Math.min(1100, window.innerWidth - 48);
// fills go on their own x points, merged into one aligned table for uPlot
const xs = [...new Set([...s.t, ...report.fills.map((f) => f.t)])].sort((a, b) => a - b);
const stepFill = (ts, vs) => { let last = null; return xs.map((x) => { const i = ts.indexOf(x); if (i >= 0) last = vs[i]; return last; }); };
const fillAt = (side) => xs.map((x) => { const f = report.fills.find((p) => p.t === x && p.side === side); return f ? f.price : null; });
new uPlot({ title: 'Mid, own quotes and fills (price)', width, height: 320, scales: { x: { time: false } },
  series: [{ label: 't (s)' }, { label: 'mid', stroke: '#888' }, { label: 'own bid', stroke: '#2a7' }, { label: 'own ask', stroke: '#c33' },
    { label: 'buy fill', stroke: '#080', paths: () => null, points: { show: true, size: 9, fill: '#0a0' } },
    { label: 'sell fill', stroke: '#a00', paths: () => null, points: { show: true, size: 9, fill: '#d00' } }] },
  [xs, stepFill(s.t, s.mid), stepFill(s.t, s.bid), stepFill(s.t, s.ask), fillAt('BUY'), fillAt('SELL')], document.getElementById('prices'));
new uPlot({ title: 'PnL (USDC, realized + unrealized)', width, height: 220, scales: { x: { time: false } },
  series: [{ label: 't (s)' }, { label: 'PnL', stroke: '#36c' }] }, [s.t, s.pnl], document.getElementById('pnl'));
new uPlot({ title: 'Inventory (YES − NO shares)', width, height: 220, scales: { x: { time: false } },
  series: [{ label: 't (s)' }, { label: 'inventory', stroke: '#a60' }] }, [s.t, s.inventory], document.getElementById('inventory'));
document.body.dataset.rendered = 'yes';
</script></body></html>
`;
}
