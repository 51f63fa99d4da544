/**
 * The replay backtest's report: one set of figures, shown three ways (a terminal table, one JSON object, a
 * self-contained HTML page with charts), and a sweep table of several runs.
 *
 * Owns: the report's shape and its renderings, and the sentence on the queue models (`queueModelNote`: where the
 * two models can fill differently on this recording, or why they cannot). Invariants: the figures are computed by the
 * backtest in exact units (raw 1e6 integers, ticks, ms) and only converted here, once, for people (`peopleFigures`:
 * shares and USDC at cents, prices, seconds, percent); nothing a person reads — table, JSON, report.json, the page —
 * carries a raw unit; the HTML page needs no server and no network (the charting library, uPlot, is embedded in the
 * page, and the data with it, escaped so no value can end the script).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { QueueStats } from './queue-matcher.js';

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
  /** What the recording let the queue model do (src/replay/queue-matcher.ts). */
  readonly queue: QueueStats;
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

/** Raw 1e6 → units at `digits` decimals (the one conversion for people). */
const units = (raw: number, digits: number): number => Number((raw / 1e6).toFixed(digits));
const pct = (part: number, whole: number): number => Number(((100 * part) / Math.max(1, whole)).toFixed(1));

/** The figures as a person reads them (the `--json` output and report.json): shares, USDC, prices, seconds, percent. */
export interface PeopleFigures {
  readonly market: string;
  readonly queueModel: string;
  readonly latencyMs: number;
  readonly replayedSec: number;
  readonly fills: number;
  readonly makerFills: number;
  readonly volumeShares: number;
  readonly feesUsdc: number;
  readonly realizedPnlUsdc: number;
  readonly unrealizedPnlUsdc: number;
  readonly maxInventoryShares: number;
  readonly timeWeightedInventoryShares: number;
  /** Time-weighted own ask − own bid while both were quoted, as a price (0.025 = 2.5 cents); null if never. */
  readonly quotedSpread: number | null;
  readonly fillRatioPct: number;
  readonly requests: number;
  readonly timeQuotedPct: number;
  readonly timeCarriedForwardSec: number;
  readonly timeCarriedForwardPct: number;
  readonly unusableBooks: number;
  readonly queue: {
    readonly restingOrders: number;
    readonly ordersBehindQueue: number;
    readonly aheadOnArrivalShares: number;
    readonly canceledAheadShares: number;
    readonly tradesReachingMovedOrders: number;
  };
  /** Where the two queue models can differ on this recording, or why they cannot. */
  readonly queueModelNote: string;
}

export function peopleFigures(f: ReplayFigures): PeopleFigures {
  return {
    market: f.market,
    queueModel: f.queueModel,
    latencyMs: f.latencyMs,
    replayedSec: Number((f.durationMs / 1000).toFixed(1)),
    fills: f.fills,
    makerFills: f.makerFills,
    volumeShares: units(f.volumeRaw, 2),
    feesUsdc: units(f.feesRaw, 2),
    realizedPnlUsdc: units(f.realizedPnlRaw, 2),
    unrealizedPnlUsdc: units(f.unrealizedPnlRaw, 2),
    maxInventoryShares: units(f.maxInventoryRaw, 2),
    timeWeightedInventoryShares: units(f.timeWeightedInventoryRaw, 2),
    quotedSpread: f.quotedSpreadTicks === null ? null : Number((f.quotedSpreadTicks / 1000).toFixed(4)),
    fillRatioPct: Number((f.fillRatio * 100).toFixed(1)),
    requests: f.requests,
    timeQuotedPct: pct(f.timeQuotedMs, f.durationMs),
    timeCarriedForwardSec: Number((f.timeCarriedForwardMs / 1000).toFixed(1)),
    timeCarriedForwardPct: pct(f.timeCarriedForwardMs, f.durationMs),
    unusableBooks: f.unusableBooks,
    queue: {
      restingOrders: f.queue.restingOrders,
      ordersBehindQueue: f.queue.ordersBehindQueue,
      aheadOnArrivalShares: units(f.queue.aheadOnArrivalRaw, 2),
      canceledAheadShares: units(f.queue.canceledAheadRaw, 2),
      tradesReachingMovedOrders: f.queue.tradesReachingMovedOrders,
    },
    queueModelNote: queueModelNote(f.queue),
  };
}

/**
 * Can the conservative and probabilistic queue models fill differently on this recording? They differ only where
 * recorded size ahead of a resting order was canceled and a recorded trade then reached that order (see
 * src/replay/queue-matcher.ts); the sentence says where, or which condition the data never met. Pure.
 */
export function queueModelNote(q: QueueStats): string {
  const shares = (raw: number): string => units(raw, 2).toFixed(2);
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

/** The figures as [label, value] rows, in the order the table prints them. */
export function figureRows(f: ReplayFigures): [string, string][] {
  const p = peopleFigures(f);
  return [
    ['market', p.market],
    ['queue model / latency', `${p.queueModel} / ${p.latencyMs} ms`],
    ['replayed', `${p.replayedSec.toFixed(1)} s`],
    ['fills (maker)', `${p.fills} (${p.makerFills})`],
    ['volume (shares)', p.volumeShares.toFixed(2)],
    ['fees (USDC)', p.feesUsdc.toFixed(2)],
    ['realized PnL (USDC)', p.realizedPnlUsdc.toFixed(2)],
    ['unrealized PnL (USDC)', p.unrealizedPnlUsdc.toFixed(2)],
    ['max |inventory| (shares)', p.maxInventoryShares.toFixed(2)],
    ['time-weighted |inventory| (shares)', p.timeWeightedInventoryShares.toFixed(2)],
    ['quoted spread (price)', p.quotedSpread === null ? '—' : p.quotedSpread.toFixed(4)],
    ['fill ratio', `${p.fillRatioPct.toFixed(1)} %`],
    ['requests', String(p.requests)],
    ['time quoted', `${p.timeQuotedPct.toFixed(1)} %`],
    ['time on a carried-forward book', `${p.timeCarriedForwardSec.toFixed(1)} s (${p.timeCarriedForwardPct.toFixed(1)} %)`],
    ['unusable recorded books', String(p.unusableBooks)],
    ['orders rested (behind a recorded queue)', `${p.queue.restingOrders} (${p.queue.ordersBehindQueue}, ${p.queue.aheadOnArrivalShares.toFixed(2)} shares ahead)`],
    ['canceled ahead of resting orders (shares)', p.queue.canceledAheadShares.toFixed(2)],
    ['trades reaching those orders', String(p.queue.tradesReachingMovedOrders)],
  ];
}

export function formatTable(f: ReplayFigures): string {
  const rows = figureRows(f);
  const width = Math.max(...rows.map(([label]) => label.length));
  return `${rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')}\n${queueModelNote(f.queue)}\n`;
}

/** One row per run of a sweep: the swept parameters, then the headline figures; then the queue models' note(s). */
export function formatSweep(runs: readonly { readonly params: Readonly<Record<string, string>>; readonly figures: ReplayFigures }[]): string {
  const paramNames = [...new Set(runs.flatMap((r) => Object.keys(r.params)))];
  const header = [...paramNames, 'fills', 'volume sh', 'fees $', 'realized $', 'unrealized $', 'max |inv| sh', 'spread', 'fill %', 'requests', 'quoted %', 'q-canceled sh'];
  const rows = runs.map(({ params, figures }) => {
    const p = peopleFigures(figures);
    return [
      ...paramNames.map((name) => params[name] ?? ''),
      String(p.fills),
      p.volumeShares.toFixed(2),
      p.feesUsdc.toFixed(2),
      p.realizedPnlUsdc.toFixed(2),
      p.unrealizedPnlUsdc.toFixed(2),
      p.maxInventoryShares.toFixed(2),
      p.quotedSpread === null ? '—' : p.quotedSpread.toFixed(4),
      p.fillRatioPct.toFixed(1),
      String(p.requests),
      p.timeQuotedPct.toFixed(1),
      p.queue.canceledAheadShares.toFixed(2),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  const notes = [...new Set(runs.map((r) => queueModelNote(r.figures.queue)))];
  return `${[line(header), ...rows.map(line), ...notes].join('\n')}\n`;
}

/** The report as report.json holds it: people's figures, the series and fills (already in prices, shares, USDC). */
export function peopleReport(report: ReplayReport): { readonly figures: PeopleFigures; readonly series: ReplaySeries; readonly fills: readonly ReplayFillPoint[] } {
  return { figures: peopleFigures(report.figures), series: report.series, fills: report.fills };
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
<p id="queue-note">${escapeHtml(queueModelNote(report.figures.queue))}</p>
<div id="prices" class="chart"></div><div id="pnl" class="chart"></div><div id="inventory" class="chart"></div>
<script>${assets.js}</script>
<script>
const report = ${scriptJson(peopleReport(report))};
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
