/**
 * Side-by-side text table of backtest results (one column per run), for the bench and for people
 * comparing strategies or parameters on the same seed and flow. Pure formatting: raw amounts are shown
 * in USDC / shares with the units in the row label; nothing is rounded before it is printed.
 */
import type { BacktestResult } from './result.js';

export interface LabelledResult {
  readonly label: string;
  readonly result: BacktestResult;
}

interface Row {
  readonly label: string;
  readonly value: (r: BacktestResult) => string;
}

const usdc = (raw: number): string => fixed(raw / 1e6, 2);
const shares = (raw: number): string => fixed(raw / 1e6, 1);
const percent = (fraction: number): string => `${fixed(fraction * 100, 1)}%`;

/** Mean markout per fill at a horizon, against the hidden fair value; n/a without a fill counted there. */
function markout(r: BacktestResult, horizonMs: number): string {
  const h = r.markouts.find((x) => x.horizonMs === horizonMs);
  return h === undefined || h.fills === 0 ? 'n/a' : fixed(h.meanPerFillUsdc, 3);
}

function fixed(x: number, digits: number): string {
  const s = x.toFixed(digits);
  return s === `-${(0).toFixed(digits)}` ? (0).toFixed(digits) : s;
}

const ROWS: readonly Row[] = [
  { label: 'PnL at fair value (USDC)', value: (r) => usdc(r.pnlRaw) },
  { label: '  realized (USDC)', value: (r) => usdc(r.realizedRaw) },
  { label: '  unrealized (USDC)', value: (r) => usdc(r.unrealizedRaw) },
  { label: '  taker fees (USDC)', value: (r) => usdc(r.feesRaw) },
  { label: 'PnL at final mid (USDC)', value: (r) => (r.pnlAtMidRaw === null ? 'n/a' : usdc(r.pnlAtMidRaw)) },
  { label: 'fills', value: (r) => String(r.fills) },
  { label: 'volume (USDC)', value: (r) => usdc(r.volumeRaw) },
  { label: 'max |YES−NO| (shares)', value: (r) => shares(r.maxAbsInventoryRaw) },
  { label: 'max holding (shares)', value: (r) => shares(r.maxTokenRaw) },
  { label: 'two-sided time', value: (r) => percent(r.twoSidedFraction) },
  { label: 'quoting time', value: (r) => percent(r.quotingFraction) },
  { label: 'expected reward/day (USDC)', value: (r) => fixed(r.expectedRewardPerDay, 2) },
  { label: 'scored reward (USDC)', value: (r) => fixed(r.scoredRewardUsdc, 2) },
  { label: 'PnL + scored reward (USDC)', value: (r) => fixed(r.pnlRaw / 1e6 + r.scoredRewardUsdc, 2) },
  { label: 'maker rebates est. (USDC)', value: (r) => usdc(r.rebatesRaw) },
  { label: 'PnL + rewards + rebates (USDC)', value: (r) => fixed((r.pnlRaw + r.rebatesRaw) / 1e6 + r.scoredRewardUsdc, 2) },
  { label: 'requests (place + cancel)', value: (r) => String(r.requests.total) },
  { label: '  placements', value: (r) => String(r.requests.placements) },
  { label: '  cancel requests', value: (r) => String(r.requests.cancelRequests) },
  { label: '  rejected placements', value: (r) => String(r.requests.rejectedPlacements) },
  { label: 'requests through the limit', value: (r) => String(r.requests.sent) },
  { label: '  withheld as they left', value: (r) => String(r.requests.withheld) },
  { label: 'quote cycles', value: (r) => String(r.counters.quoteCycles) },
  { label: 'markout/fill +1s (USDC)', value: (r) => markout(r, 1_000) },
  { label: 'markout/fill +10s (USDC)', value: (r) => markout(r, 10_000) },
  { label: 'markout/fill +60s (USDC)', value: (r) => markout(r, 60_000) },
  { label: 'markout/fill +5min (USDC)', value: (r) => markout(r, 300_000) },
];

/** One row per figure, one column per result. */
export function comparisonTable(results: readonly LabelledResult[]): string {
  const header = ['', ...results.map((r) => r.label)];
  const body = ROWS.map((row) => [row.label, ...results.map((r) => row.value(r.result))]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((line) => (line[i] ?? '').length)));
  const render = (line: readonly string[]): string =>
    line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  return [render(header), render(widths.map((w) => '-'.repeat(w))), ...body.map(render)].join('\n');
}

