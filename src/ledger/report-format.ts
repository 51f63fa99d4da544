/**
 * Formats a PnL report as a text table, JSON or CSV. Pure: same report in, same text out.
 * Amounts are exact decimals of the raw integers (USDC and shares, 6 places at most); average costs are
 * the rational cost/size rounded to 1e-6; a market without a mark says "no mark" instead of a number. Every figure
 * carries its unit: the table prints a units row under its header, the CSV's column names end in their unit, the
 * JSON holds a `units` object naming each field's.
 */
import { rawToDecimal } from '../core/venue-rules/index.js';
import { averageCostDecimal } from './position-math.js';
import type { TokenTotals } from './pnl.js';
import type { MarketReportRow, PnlReport } from './store.js';
import type { Resolution } from './types.js';

export const REPORT_FORMATS = ['table', 'json', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportContext {
  readonly asOfMs: number;
  readonly sinceMs: number | null;
  readonly marketSlug: string | null;
}

const NO_MARK = 'no mark';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function trimDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

function heldRaw(row: MarketReportRow, token: TokenTotals): number {
  return row.redeemed ? 0 : token.positionRaw;
}

function avgCost(row: MarketReportRow, token: TokenTotals): string | null {
  if (row.redeemed) return null;
  const text = averageCostDecimal(token);
  return text === null ? null : trimDecimal(text);
}

function resolutionLabel(resolution: Resolution): string {
  if (resolution.winningOutcomeIndex === 0) return 'resolved YES';
  if (resolution.winningOutcomeIndex === 1) return 'resolved NO';
  return `resolved ${resolution.payoutYes}:${resolution.payoutNo}`;
}

function markLabel(row: MarketReportRow): string {
  if (row.resolution !== null) return resolutionLabel(row.resolution);
  return row.midMicros === null ? NO_MARK : rawToDecimal(row.midMicros);
}

const optionalDecimal = (raw: number | null): string | null => (raw === null ? null : rawToDecimal(raw));

// Table -------------------------------------------------------------------------------------------

const TABLE_HEADER = ['market', 'fills', 'volume', 'fees', 'YES', 'YES avg', 'NO', 'NO avg', 'mark', 'realized', 'unrealized', 'net pnl'];
/** The unit of each column, printed under the header (a price is USDC per share: a share pays 1 USDC or nothing). */
const TABLE_UNITS = ['', 'count', 'USDC', 'USDC', 'shares', 'USDC/sh', 'shares', 'USDC/sh', 'USDC/sh', 'USDC', 'USDC', 'USDC'];
const LEFT_ALIGNED = new Set([0, 8]);

function tableCells(row: MarketReportRow): string[] {
  return [
    row.marketSlug,
    String(row.fillCount),
    rawToDecimal(row.volumeRaw),
    rawToDecimal(row.feesRaw),
    rawToDecimal(heldRaw(row, row.yes)),
    avgCost(row, row.yes) ?? '-',
    rawToDecimal(heldRaw(row, row.no)),
    avgCost(row, row.no) ?? '-',
    markLabel(row),
    rawToDecimal(row.realizedRaw),
    optionalDecimal(row.unrealizedRaw) ?? NO_MARK,
    optionalDecimal(row.netPnlRaw) ?? '-',
  ];
}

export function formatTable(report: PnlReport, context: ReportContext): string {
  const lines = [
    'outcome-maker ledger report',
    `as of:  ${iso(context.asOfMs)}`,
    `since:  ${context.sinceMs === null ? 'the beginning' : iso(context.sinceMs)}`,
    `market: ${context.marketSlug ?? 'all'}`,
    '',
  ];
  if (report.markets.length === 0) {
    lines.push(context.marketSlug === null ? 'No fills recorded.' : `No fills recorded for ${context.marketSlug}.`);
    return `${lines.join('\n')}\n`;
  }
  const t = report.totals;
  const totalRow = [
    'TOTAL',
    String(t.fillCount),
    rawToDecimal(t.volumeRaw),
    rawToDecimal(t.feesRaw),
    '',
    '',
    '',
    '',
    '',
    rawToDecimal(t.realizedRaw),
    rawToDecimal(t.unrealizedRaw),
    rawToDecimal(t.netPnlRaw),
  ];
  const body = report.markets.map(tableCells);
  const widths = TABLE_HEADER.map((title, column) =>
    Math.max(title.length, TABLE_UNITS[column]?.length ?? 0, totalRow[column]?.length ?? 0, ...body.map((cells) => cells[column]?.length ?? 0)),
  );
  const render = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? cell.length;
        return LEFT_ALIGNED.has(column) ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  lines.push(render(TABLE_HEADER), render(TABLE_UNITS), widths.map((width) => '-'.repeat(width)).join('  '));
  for (const cells of body) lines.push(render(cells));
  lines.push(widths.map((width) => '-'.repeat(width)).join('  '), render(totalRow));
  if (t.unmarkedMarkets.length > 0) {
    lines.push('', `Unrealized and net totals exclude markets with no mark: ${t.unmarkedMarkets.join(', ')}.`);
  }
  if (t.receivableRaw > 0) lines.push('', `Resolved, not yet redeemed: ${rawToDecimal(t.receivableRaw)} USDC.`);
  return `${lines.join('\n')}\n`;
}

// JSON --------------------------------------------------------------------------------------------

/** The unit of each figure of the JSON document (amounts are exact decimal strings). */
const JSON_UNITS = {
  fills: 'count',
  volume: 'USDC',
  fees: 'USDC',
  position: 'shares',
  avgCost: 'USDC per share',
  mark: 'USDC per share',
  redeemed: 'USDC',
  receivable: 'USDC',
  tradingRealized: 'USDC',
  resolutionPnl: 'USDC',
  realized: 'USDC',
  unrealized: 'USDC',
  netPnl: 'USDC',
} as const;

export function formatJson(report: PnlReport, context: ReportContext): string {
  const t = report.totals;
  const document = {
    units: JSON_UNITS,
    asOf: iso(context.asOfMs),
    since: context.sinceMs === null ? null : iso(context.sinceMs),
    market: context.marketSlug,
    markets: report.markets.map((row) => ({
      market: row.marketSlug,
      fills: row.fillCount,
      volume: rawToDecimal(row.volumeRaw),
      fees: rawToDecimal(row.feesRaw),
      yes: { position: rawToDecimal(heldRaw(row, row.yes)), avgCost: avgCost(row, row.yes) },
      no: { position: rawToDecimal(heldRaw(row, row.no)), avgCost: avgCost(row, row.no) },
      mark: row.midMicros === null ? null : rawToDecimal(row.midMicros),
      markAt: row.markAtMs === null ? null : iso(row.markAtMs),
      resolution:
        row.resolution === null
          ? null
          : {
              winningOutcome:
                row.resolution.winningOutcomeIndex === null ? null : row.resolution.winningOutcomeIndex === 0 ? 'YES' : 'NO',
              payoutNumerators: [row.resolution.payoutYes, row.resolution.payoutNo],
              resolvedAt: iso(row.resolution.resolvedAtMs),
            },
      redeemed: rawToDecimal(row.redeemedRaw),
      receivable: rawToDecimal(row.receivableRaw),
      tradingRealized: rawToDecimal(row.tradingRealizedRaw),
      resolutionPnl: rawToDecimal(row.resolutionPnlRaw),
      realized: rawToDecimal(row.realizedRaw),
      unrealized: optionalDecimal(row.unrealizedRaw),
      netPnl: optionalDecimal(row.netPnlRaw),
    })),
    totals: {
      fills: t.fillCount,
      volume: rawToDecimal(t.volumeRaw),
      fees: rawToDecimal(t.feesRaw),
      realized: rawToDecimal(t.realizedRaw),
      unrealized: rawToDecimal(t.unrealizedRaw),
      netPnl: rawToDecimal(t.netPnlRaw),
      receivable: rawToDecimal(t.receivableRaw),
      unmarkedMarkets: t.unmarkedMarkets,
    },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

// CSV ---------------------------------------------------------------------------------------------

const CSV_HEADER = [
  'market',
  'fills',
  'volume_usdc',
  'fees_usdc',
  'yes_position_shares',
  'yes_avg_cost_usdc_per_share',
  'no_position_shares',
  'no_avg_cost_usdc_per_share',
  'mark_usdc_per_share',
  'realized_usdc',
  'unrealized_usdc',
  'net_pnl_usdc',
];

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function formatCsv(report: PnlReport): string {
  const rows = report.markets.map((row) => [
    row.marketSlug,
    String(row.fillCount),
    rawToDecimal(row.volumeRaw),
    rawToDecimal(row.feesRaw),
    rawToDecimal(heldRaw(row, row.yes)),
    avgCost(row, row.yes) ?? '',
    rawToDecimal(heldRaw(row, row.no)),
    avgCost(row, row.no) ?? '',
    markLabel(row),
    rawToDecimal(row.realizedRaw),
    optionalDecimal(row.unrealizedRaw) ?? '',
    optionalDecimal(row.netPnlRaw) ?? '',
  ]);
  const t = report.totals;
  rows.push([
    'TOTAL',
    String(t.fillCount),
    rawToDecimal(t.volumeRaw),
    rawToDecimal(t.feesRaw),
    '',
    '',
    '',
    '',
    '',
    rawToDecimal(t.realizedRaw),
    rawToDecimal(t.unrealizedRaw),
    rawToDecimal(t.netPnlRaw),
  ]);
  return `${[CSV_HEADER, ...rows].map((cells) => cells.map(csvCell).join(',')).join('\n')}\n`;
}

export function formatReport(report: PnlReport, format: ReportFormat, context: ReportContext): string {
  switch (format) {
    case 'table':
      return formatTable(report, context);
    case 'json':
      return formatJson(report, context);
    case 'csv':
      return formatCsv(report);
  }
}
