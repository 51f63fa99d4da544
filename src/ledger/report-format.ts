/**
 * Formats a PnL report as a text table, JSON or CSV. Pure: same report in, same text out.
 * JSON and CSV amounts are exact decimals of the raw integers (USDC and shares, 6 places at most); average costs are
 * the rational cost/size rounded to 1e-6. The table prints one precision per unit and fits REPORT_WIDTH
 * (src/ledger/report-text.ts), or the exact decimals at any width with `--wide`, and ends with a legend saying what
 * each column means. A market without a mark says "no mark" instead of a number. Every figure carries its unit: the
 * table prints a units row under its header, the CSV's column names end in their unit, the JSON holds a `units`
 * object naming each field's.
 */
import { rawToDecimal } from '../core/venue-rules/index.js';
import { averageCostDecimal } from './position-math.js';
import type { TokenTotals } from './pnl.js';
import type { MarketReportRow, PnlReport } from './store.js';
import type { Resolution } from './types.js';
import { decimalToRaw, layoutTable, WIDE, type FigureStyle } from './report-text.js';

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

function markLabel(row: MarketReportRow, price: (raw: number) => string = rawToDecimal): string {
  if (row.resolution !== null) return resolutionLabel(row.resolution);
  return row.midMicros === null ? NO_MARK : price(row.midMicros);
}

/** An average cost (a decimal text, 1e-6 at most) in the style's price precision. */
function avgCostIn(style: FigureStyle, text: string | null): string | null {
  if (text === null || style.wide) return text;
  const raw = decimalToRaw(text);
  return raw === null ? text : style.price(raw);
}

const optionalDecimal = (raw: number | null): string | null => (raw === null ? null : rawToDecimal(raw));

// Table -------------------------------------------------------------------------------------------

const TABLE_HEADER = ['market', 'fills', 'volume', 'fees', 'YES', 'YES avg', 'NO', 'NO avg', 'mark', 'realized', 'unrealized', 'net pnl'];
/** The unit of each column, printed under the header (a price is USDC per share: a share pays 1 USDC or nothing). */
const TABLE_UNITS = ['', 'count', 'USDC', 'USDC', 'shares', 'USDC/sh', 'shares', 'USDC/sh', 'USDC/sh', 'USDC', 'USDC', 'USDC'];
/** What each column means, printed under the table. */
export const PNL_LEGEND = [
  'fills: fills booked (failed ones excluded); volume: Σ price × size; fees: taker fees paid.',
  'YES, NO: shares held now (0 once redeemed); avg: their average cost; mark: the last book mid (or the resolution).',
  'realized: PnL of shares sold, merged or settled; unrealized: shares held, at the mark;',
  'net pnl: realized + unrealized − fees. Rounded figures (USDC at cents) may not add up to the rounded total.',
];

function tableCells(row: MarketReportRow, style: FigureStyle): string[] {
  const price = (raw: number | null): string | null => (raw === null ? null : style.price(raw));
  const usdc = (raw: number | null): string | null => (raw === null ? null : style.usdc(raw));
  return [
    row.marketSlug,
    String(row.fillCount),
    style.usdc(row.volumeRaw),
    style.usdc(row.feesRaw),
    style.shares(heldRaw(row, row.yes)),
    avgCostIn(style, avgCost(row, row.yes)) ?? '-',
    style.shares(heldRaw(row, row.no)),
    avgCostIn(style, avgCost(row, row.no)) ?? '-',
    markLabel(row, (raw) => price(raw) ?? NO_MARK),
    style.usdc(row.realizedRaw),
    usdc(row.unrealizedRaw) ?? NO_MARK,
    usdc(row.netPnlRaw) ?? '-',
  ];
}

/** The PnL table: one precision per unit within the style's width (exact decimals at any width with WIDE). */
export function formatTable(report: PnlReport, context: ReportContext, style: FigureStyle = WIDE): string {
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
  const totalRow = ['TOTAL', String(t.fillCount), style.usdc(t.volumeRaw), style.usdc(t.feesRaw), '', '', '', '', '', style.usdc(t.realizedRaw), style.usdc(t.unrealizedRaw), style.usdc(t.netPnlRaw)];
  const body = report.markets.map((row) => tableCells(row, style));
  lines.push(...layoutTable({ header: TABLE_HEADER, units: TABLE_UNITS, rows: body, footer: [totalRow], keys: 1, leftAligned: [8] }, style.width));
  if (t.unmarkedMarkets.length > 0) {
    lines.push('', `Unrealized and net totals exclude markets with no mark: ${t.unmarkedMarkets.join(', ')}.`);
  }
  if (t.receivableRaw > 0) lines.push('', `Resolved, not yet redeemed: ${style.usdc(t.receivableRaw)} USDC.`);
  lines.push('', ...PNL_LEGEND);
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

export function formatReport(report: PnlReport, format: ReportFormat, context: ReportContext, style: FigureStyle = WIDE): string {
  switch (format) {
    case 'table':
      return formatTable(report, context, style);
    case 'json':
      return formatJson(report, context);
    case 'csv':
      return formatCsv(report);
  }
}
