/**
 * The report's calibration section: per underlying and cadence (over every offset, then per offset before
 * settlement), the model's fair value beside the book mid as forecasts of the outcome: n, mean log-loss and mean
 * Brier score of each (lower is better), from the ledger's scored rows (src/ledger/calibration-repo.ts).
 *
 * Owns: the summary lines (pure: sums in, means out) and their text table, JSON object and HTML table. Invariants:
 * model and mid are compared on the same rows (`n`: both predictions taken), the rows with only one are counted
 * beside; every column carries its unit; same figures in, same text out.
 */
import type { CalibrationGroup, CalibrationQuery, CalibrationRepo } from './calibration-repo.js';
import { layoutTable } from './report-text.js';

const MICROS = 1_000_000;

/** One line of the summary. `offsetMs` null: every offset of the underlying and cadence together. */
export interface CalibrationLine {
  readonly underlying: string;
  readonly cadence: string;
  readonly offsetMs: number | null;
  /** Rows with both predictions (the means are over these). */
  readonly n: number;
  readonly modelLogLoss: number | null;
  readonly midLogLoss: number | null;
  readonly modelBrier: number | null;
  readonly midBrier: number | null;
  /** Rows with only one of the two predictions (not in the means). */
  readonly modelOnly: number;
  readonly midOnly: number;
}

function lineOf(underlying: string, cadence: string, offsetMs: number | null, groups: readonly CalibrationGroup[]): CalibrationLine {
  const sum = (pick: (g: CalibrationGroup) => number): number => groups.reduce((total, g) => total + pick(g), 0);
  const n = sum((g) => g.paired);
  const mean = (pick: (g: CalibrationGroup) => number): number | null => (n === 0 ? null : sum(pick) / n / MICROS);
  return {
    underlying,
    cadence,
    offsetMs,
    n,
    modelLogLoss: mean((g) => g.modelLogLossMicro),
    midLogLoss: mean((g) => g.midLogLossMicro),
    modelBrier: mean((g) => g.modelBrierMicro),
    midBrier: mean((g) => g.midBrierMicro),
    modelOnly: sum((g) => g.modelOnly),
    midOnly: sum((g) => g.midOnly),
  };
}

/** Per underlying and cadence: a line over every offset, then one per offset (longest first). Pure. */
export function calibrationLines(groups: readonly CalibrationGroup[]): CalibrationLine[] {
  const keys = [...new Set(groups.map((g) => `${g.underlying}\u0000${g.cadence}`))].sort();
  return keys.flatMap((key) => {
    const [underlying = '', cadence = ''] = key.split('\u0000');
    const mine = groups.filter((g) => g.underlying === underlying && g.cadence === cadence).sort((a, b) => b.offsetMs - a.offsetMs);
    return [lineOf(underlying, cadence, null, mine), ...mine.map((g) => lineOf(underlying, cadence, g.offsetMs, [g]))];
  });
}

/** The calibration lines of a report's scope (markets settling at or after `sinceMs`, one market or all). */
export function calibrationReport(repo: Pick<CalibrationRepo, 'groupsOf'>, query: CalibrationQuery): CalibrationLine[] {
  return calibrationLines(repo.groupsOf(query));
}

/** 50m, 90s, all. */
export function offsetLabel(offsetMs: number | null): string {
  if (offsetMs === null) return 'all';
  return offsetMs % 60_000 === 0 ? `${offsetMs / 60_000}m` : `${offsetMs / 1000}s`;
}

const score = (value: number | null): string => (value === null ? '-' : value.toFixed(4));

const HEADER = ['underlying', 'cadence', 'before', 'n', 'model log-loss', 'mid log-loss', 'model Brier', 'mid Brier', 'model only', 'mid only'];
const UNITS = ['', '', 'settlement', 'rows', 'nats', 'nats', '', '', 'rows', 'rows'];

function cells(line: CalibrationLine): string[] {
  return [line.underlying, line.cadence, offsetLabel(line.offsetMs), String(line.n), score(line.modelLogLoss), score(line.midLogLoss), score(line.modelBrier), score(line.midBrier), String(line.modelOnly), String(line.midOnly)];
}

/** The calibration section of the text report; empty until a resolved priced market is scored (so a ledger without any reads as before). */
export function formatCalibrationTable(lines: readonly CalibrationLine[], width = Number.POSITIVE_INFINITY): string {
  if (lines.length === 0) return '';
  const out = ['', 'Calibration (model fair value vs book mid without own orders, as forecasts of resolved markets; lower is better)'];
  out.push(...layoutTable({ header: HEADER, units: UNITS, rows: lines.map(cells), keys: 3 }, width));
  out.push('', 'n: rows with both predictions (the means are over these); model only / mid only: rows where the other was missing.');
  return `${out.join('\n')}\n`;
}

/** The calibration section of the JSON report. */
export function calibrationJson(lines: readonly CalibrationLine[]): Record<string, unknown> {
  return {
    units: { offsetMs: 'ms before settlement (null: every offset)', n: 'rows with both predictions', logLoss: 'nats per row (mean)', brier: 'mean squared error of P(YES)' },
    rows: lines.map((line) => ({
      underlying: line.underlying,
      cadence: line.cadence,
      offset: offsetLabel(line.offsetMs),
      offsetMs: line.offsetMs,
      n: line.n,
      model: { logLoss: line.modelLogLoss, brier: line.modelBrier },
      mid: { logLoss: line.midLogLoss, brier: line.midBrier },
      modelOnly: line.modelOnly,
      midOnly: line.midOnly,
    })),
  };
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The calibration section as an HTML table (the better of model and mid in bold on each line). */
export function calibrationHtml(lines: readonly CalibrationLine[]): string {
  const head = `<h2>Calibration</h2>\n<p>Model fair value vs book mid without own orders, as forecasts of resolved markets; lower is better. n: rows with both predictions.</p>\n`;
  if (lines.length === 0) return `${head}<p>No resolved priced market scored yet.</p>\n`;
  const th = HEADER.map((cell, i) => `<th>${escapeHtml(cell)}${UNITS[i] === '' ? '' : `<br><small>${escapeHtml(UNITS[i] ?? '')}</small>`}</th>`).join('');
  const bold = (value: string, mine: number | null, other: number | null): string => (mine !== null && other !== null && mine < other ? `<b>${value}</b>` : value);
  const rows = lines.map((line) => {
    const c = cells(line).map(escapeHtml);
    c[4] = bold(c[4] ?? '', line.modelLogLoss, line.midLogLoss);
    c[5] = bold(c[5] ?? '', line.midLogLoss, line.modelLogLoss);
    c[6] = bold(c[6] ?? '', line.modelBrier, line.midBrier);
    c[7] = bold(c[7] ?? '', line.midBrier, line.modelBrier);
    return `<tr${line.offsetMs === null ? ' class="all"' : ''}>${c.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
  });
  return `${head}<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>\n`;
}

/** A whole report as one HTML page: the text sections as preformatted blocks, calibration as a table. */
export function reportHtml(title: string, textSections: readonly string[], lines: readonly CalibrationLine[]): string {
  const style = 'body{font-family:sans-serif;margin:2em}pre{font-size:12px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:nth-child(-n+3){text-align:left}tr.all{background:#f2f2f2}';
  const pre = textSections.map((text) => `<pre>${escapeHtml(text)}</pre>`).join('\n');
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${style}</style></head>\n<body>\n<h1>${escapeHtml(title)}</h1>\n${pre}\n${calibrationHtml(lines)}</body></html>\n`;
}
