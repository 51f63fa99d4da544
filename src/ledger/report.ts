/**
 * `outcome-maker report [--db PATH] [--since WHEN] [--market SLUG] [--format table|json|csv|html]`:
 * fills, volume, fees, positions, realized and unrealized PnL per market and in total, then the account's capital by
 * state (src/ledger/report-capital.ts; table, JSON and HTML), then the markouts of the fills
 * the bot judged, per market and per strategy (src/ledger/report-markouts.ts; table and JSON), then the earnings:
 * trading PnL, estimated rewards and rebates and their total per market, strategy and day beside the venue's own
 * figures (src/ledger/report-rewards.ts; table and JSON) and the reconciliation of the venue's paid epochs against the
 * estimates of the same spans (src/ledger/report-reconcile.ts; table, JSON and HTML), then the calibration
 * of the model against the book mid on resolved markets, per underlying and cadence (src/ledger/report-calibration.ts;
 * table, JSON and HTML; `--since` there counts markets settling from then on). HTML: one page, the text sections
 * preformatted and calibration as a table. The text tables fit 120 columns with one precision per unit (USDC 2
 * decimals, prices 3, shares 2: src/ledger/report-text.ts), each section followed by what its figures mean; `--wide`
 * prints them at any width with the exact decimals.
 *
 * The CLI wiring calls `parseReportArgs` (or builds ReportOptions itself) and `runReport`, which returns
 * the formatted text. The database must exist (a report never creates an empty ledger); it is opened
 * like the bot opens it (pending migrations are applied), which is safe while the bot runs (WAL).
 */
import { existsSync } from 'node:fs';
import { LedgerSchemaError, ReportArgsError } from './errors.js';
import { utcDayStart } from './pnl.js';
import { formatReport, REPORT_FORMATS } from './report-format.js';
import { formatMarkoutsTable, markoutReport, markoutsJson } from './report-markouts.js';
import { earningsJson, earningsReport, formatEarningsTable } from './report-rewards.js';
import { reconcileLedger } from './reconcile-rewards.js';
import { formatReconciliationTable, reconciliationJson } from './report-reconcile.js';
import { calibrationJson, calibrationReport, formatCalibrationTable, reportHtml } from './report-calibration.js';
import { z } from 'zod';
import { openLedger } from './store.js';
import { figureStyle, WIDE, wrapText } from './report-text.js';
import { readCapitalState } from '../capital/capital-state.js';
import { capitalJson, formatCapitalSection } from './report-capital.js';

export const DEFAULT_LEDGER_PATH = 'data/ledger.sqlite';

/** The formats of the single-ledger report: the PnL report's, and a standalone HTML page. */
export const SINGLE_REPORT_FORMATS = [...REPORT_FORMATS, 'html'] as const;
export type SingleReportFormat = (typeof SINGLE_REPORT_FORMATS)[number];

export interface ReportOptions {
  readonly db: string;
  /** Activity (fills, volume, fees, realized) from this time on; positions and unrealized are as of now. */
  readonly sinceMs?: number | undefined;
  readonly market?: string | undefined;
  readonly format?: SingleReportFormat | undefined;
  /** Injected clock for the "as of" line. */
  readonly nowMs?: number | undefined;
  /** The text tables at any width with the exact decimals (default: REPORT_WIDTH columns, one precision per unit). */
  readonly wide?: boolean | undefined;
}

export async function runReport(options: ReportOptions): Promise<string> {
  if (!existsSync(options.db)) throw new LedgerSchemaError(options.db, 'no ledger database at this path');
  const ledger = openLedger({ path: options.db, mustExist: true });
  try {
    const report = ledger.pnl({ marketSlug: options.market, sinceMs: options.sinceMs });
    const format = options.format ?? 'table';
    const context = { asOfMs: options.nowMs ?? Date.now(), sinceMs: options.sinceMs ?? null, marketSlug: options.market ?? null };
    // The text fits REPORT_WIDTH unless --wide (src/ledger/report-text.ts); the HTML page keeps the exact figures.
    const style = format === 'html' ? WIDE : figureStyle({ wide: options.wide === true });
    const text = formatReport(report, format === 'html' ? 'table' : format, context, style);
    // Markouts (src/ledger/report-markouts.ts) and calibration (report-calibration.ts) follow the PnL: sections of the
    // table, keys of the JSON; CSV keeps one table.
    if (format === 'csv') return text;
    const query = { sinceMs: options.sinceMs, marketSlug: options.market };
    const markouts = markoutReport(ledger.markouts, query);
    // The earnings section only where rewards, rebates or venue figures were recorded (a ledger without them reads as before).
    const accruals = ledger.rewards.accruals(query);
    const venue = ledger.rewards.venueRewards(query);
    const earnings = accruals.length + venue.length === 0 ? null : earningsReport(report, accruals, venue, markouts.byMarket);
    // The venue's paid epochs beside the estimates of the same spans (src/ledger/reconcile-rewards.ts), once any was paid.
    const reconciliation = reconcileLedger(ledger.payouts, query);
    const earningsText = earnings === null ? '' : `${formatEarningsTable(earnings, style)}${formatReconciliationTable(reconciliation, style)}`;
    const calibration = calibrationReport(ledger.calibration, query);
    // The account's capital by state (src/ledger/report-capital.ts): the whole account's, so not in a --market report.
    const capital = options.market === undefined ? readCapitalState(ledger, context.asOfMs) : null;
    const capitalText = capital === null ? '' : formatCapitalSection(capital);
    if (format === 'table') return wrapText(`${text}${capitalText}${formatMarkoutsTable(markouts, style)}${earningsText}${formatCalibrationTable(calibration, style.width)}`, style.width);
    if (format === 'html') return reportHtml(`outcome-maker report, ${new Date(context.asOfMs).toISOString()}`, [text, ...(capitalText === '' ? [] : [capitalText]), formatMarkoutsTable(markouts, style), ...(earningsText === '' ? [] : [earningsText])], calibration);
    const document = z.record(z.string(), z.unknown()).parse(JSON.parse(text));
    return `${JSON.stringify({ ...document, ...(capital === null ? {} : { capital: capitalJson(capital) }), markouts: markoutsJson(markouts), ...(earnings === null ? {} : { earnings: earningsJson(earnings) }), ...(reconciliation.rows.length === 0 ? {} : { reconciliation: reconciliationJson(reconciliation) }), calibration: calibrationJson(calibration) }, null, 2)}
`;
  } finally {
    ledger.close();
  }
}

const RELATIVE = /^(\d+)([mhd])$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `--since` values: `today` (00:00 UTC), a relative age (`90m`, `24h`, `7d`), a UTC date (`2025-01-31`),
 * an ISO date-time with its zone (`2025-01-31T12:00:00Z`), or milliseconds since the epoch.
 */
export function parseSince(value: string, nowMs: number): number {
  const text = value.trim();
  if (text === 'today') return utcDayStart(nowMs);
  const relative = RELATIVE.exec(text);
  if (relative) {
    const amount = Number(relative[1]);
    const unit = UNIT_MS[relative[2] ?? ''];
    if (unit !== undefined && Number.isSafeInteger(amount * unit)) return Math.max(0, nowMs - amount * unit);
  }
  if (/^\d+$/.test(text)) {
    const ms = Number(text);
    if (Number.isSafeInteger(ms)) return ms;
  }
  if (DATE_ONLY.test(text) || DATE_TIME_WITH_ZONE.test(text)) {
    const ms = Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  throw new ReportArgsError(
    '--since',
    value,
    'expected today, an age like 24h or 7d, a date YYYY-MM-DD (UTC), an ISO date-time with zone, or epoch ms',
  );
}

function isFormat(value: string): value is SingleReportFormat {
  return SINGLE_REPORT_FORMATS.some((format) => format === value);
}

/** Parses the report's arguments (without the command name). Unknown options are errors. */
export function parseReportArgs(
  argv: readonly string[],
  defaults: { readonly db?: string; readonly nowMs?: number } = {},
): ReportOptions {
  const nowMs = defaults.nowMs ?? Date.now();
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const match = /^--(db|since|market|format)(?:=(.*))?$/.exec(arg);
    if (!match) throw new ReportArgsError('argument', arg, 'unknown option (expected --db, --since, --market, --format)');
    const name = match[1] ?? '';
    let value = match[2];
    if (value === undefined) {
      value = argv[index + 1];
      index += 1;
    }
    if (value === undefined || value === '' || value.startsWith('--')) {
      throw new ReportArgsError(`--${name}`, value, 'needs a value');
    }
    if (values.has(name)) throw new ReportArgsError(`--${name}`, value, 'given more than once');
    values.set(name, value);
  }
  const format = values.get('format') ?? 'table';
  if (!isFormat(format)) throw new ReportArgsError('--format', format, `expected one of ${SINGLE_REPORT_FORMATS.join(', ')}`);
  const since = values.get('since');
  return {
    db: values.get('db') ?? defaults.db ?? DEFAULT_LEDGER_PATH,
    sinceMs: since === undefined ? undefined : parseSince(since, nowMs),
    market: values.get('market'),
    format,
    nowMs,
  };
}
