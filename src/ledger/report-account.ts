/**
 * `outcome-maker report --account`: the account-level comparison when several bots (processes, each with its own
 * ledger) share one account.
 *
 * `GET /portfolio/positions` answers for the whole account, so no single bot's ledger can be reconciled against it:
 * each bot only records, on every read of the account's balances, a snapshot of that answer in its ledger's
 * key-value table (`KV_ACCOUNT_POSITIONS`, written by src/app/bot.ts; never booked). This report opens every bot's
 * ledger (as `report` does: safe while the bots run), takes the NEWEST snapshot among them and prints, per market
 * and token, the account's balance, each bot's ledger balance and what none of them books (`unbooked`: a bot not
 * listed, a manual trade, or a real discrepancy).
 *
 * Owns: the snapshot's format and its validation (a malformed snapshot is skipped, named in the output), the
 * comparison's presentation. The comparison itself is `compareAccount` (src/ledger/account-compare.ts).
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { rawToDecimal } from '../core/venue-rules/index.js';
import { LedgerSchemaError, ReportArgsError } from './errors.js';
import { compareAccount, type AccountRow } from './account-compare.js';
import type { VenuePosition } from './reconcile.js';
import type { ReportFormat } from './report-format.js';
import { openLedger, type LedgerTokenBalance } from './store.js';

/** The ledger key-value entry holding the bot's last read of the account's balances (JSON, AccountSnapshot). */
export const KV_ACCOUNT_POSITIONS = 'account.positions';

export interface AccountSnapshot {
  readonly atMs: number;
  readonly positions: readonly VenuePosition[];
}

const raw = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
const snapshotSchema = z.strictObject({
  atMs: z.int().min(0),
  positions: z.array(z.strictObject({ marketSlug: z.string().min(1).max(200), yesRaw: raw, noRaw: raw })),
});

/** The snapshot text → a snapshot, or a message saying why it cannot be used. */
export function parseAccountSnapshot(text: string): AccountSnapshot | { readonly error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: 'not JSON' };
  }
  const parsed = snapshotSchema.safeParse(data);
  if (!parsed.success) return { error: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return parsed.data;
}

export interface AccountLedger {
  /** How the bot is named in the output (its botTag, else the ledger's path). */
  readonly label: string;
  readonly db: string;
}

export interface AccountReportOptions {
  readonly ledgers: readonly AccountLedger[];
  readonly market?: string | undefined;
  readonly format?: ReportFormat | undefined;
  readonly nowMs?: number | undefined;
}

interface LedgerRead {
  readonly label: string;
  readonly balances: readonly LedgerTokenBalance[];
  readonly snapshot: AccountSnapshot | null;
  readonly problem: string | null;
}

function readLedger(ledger: AccountLedger): LedgerRead {
  if (!existsSync(ledger.db)) throw new LedgerSchemaError(ledger.db, 'no ledger database at this path');
  const store = openLedger({ path: ledger.db, mustExist: true });
  try {
    const text = store.getKv(KV_ACCOUNT_POSITIONS);
    const parsed = text === null ? null : parseAccountSnapshot(text);
    const problem = parsed !== null && 'error' in parsed ? `its account snapshot is unreadable (${parsed.error})` : null;
    return { label: ledger.label, balances: store.tokenBalances(), snapshot: parsed === null || 'error' in parsed ? null : parsed, problem };
  } finally {
    store.close();
  }
}

export async function runAccountReport(options: AccountReportOptions): Promise<string> {
  if (options.ledgers.length === 0) throw new ReportArgsError('--account', '', 'name the ledgers of the account\'s bots (--config or --db, repeatable)');
  const reads = options.ledgers.map(readLedger);
  const newest = reads
    .filter((read): read is LedgerRead & { snapshot: AccountSnapshot } => read.snapshot !== null)
    .sort((a, b) => b.snapshot.atMs - a.snapshot.atMs)[0];
  const markets = options.market === undefined ? undefined : new Set([options.market]);
  const rows = compareAccount(newest?.snapshot.positions ?? [], reads.map((read) => read.balances), markets);
  return formatAccountReport(
    {
      asOfMs: options.nowMs ?? Date.now(),
      snapshot: newest === undefined ? null : { atMs: newest.snapshot.atMs, from: newest.label },
      labels: reads.map((read) => read.label),
      problems: reads.flatMap((read) => (read.problem === null ? [] : [`${read.label}: ${read.problem}`])),
      rows,
    },
    options.format ?? 'table',
  );
}

export interface AccountReport {
  readonly asOfMs: number;
  /** The account snapshot used (the newest among the ledgers), null when no ledger has one yet. */
  readonly snapshot: { readonly atMs: number; readonly from: string } | null;
  readonly labels: readonly string[];
  readonly problems: readonly string[];
  readonly rows: readonly AccountRow[];
}

const dec = (value: number): string => {
  const text = rawToDecimal(value);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
};

/** Pure: same report, same text. */
export function formatAccountReport(report: AccountReport, format: ReportFormat): string {
  if (format === 'json') {
    return `${JSON.stringify(
      {
        asOf: new Date(report.asOfMs).toISOString(),
        snapshot: report.snapshot === null ? null : { at: new Date(report.snapshot.atMs).toISOString(), from: report.snapshot.from },
        units: { account: 'shares', ledgers: 'shares', unbooked: 'shares' },
        bots: report.labels,
        problems: report.problems,
        rows: report.rows.map((row) => ({
          market: row.marketSlug,
          token: row.token,
          account: dec(row.venueRaw),
          ledgers: Object.fromEntries(report.labels.map((label, index) => [label, dec(row.ledgersRaw[index] ?? 0)])),
          unbooked: dec(row.unbookedRaw),
        })),
      },
      null,
      2,
    )}\n`;
  }
  const header = ['market', 'token', 'account', ...report.labels, 'unbooked'];
  const lines = report.rows.map((row) => [row.marketSlug, row.token, dec(row.venueRaw), ...report.labels.map((_, index) => dec(row.ledgersRaw[index] ?? 0)), dec(row.unbookedRaw)]);
  if (format === 'csv') {
    const cell = (text: string): string => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
    return `${[header, ...lines].map((line) => line.map(cell).join(',')).join('\n')}\n`;
  }
  // Every figure is a token balance: a units row under the header says so.
  const units = ['', '', 'shares', ...report.labels.map(() => 'shares'), 'shares'];
  const widths = header.map((title, column) => Math.max(title.length, units[column]?.length ?? 0, ...lines.map((line) => (line[column] ?? '').length)));
  const row = (cells: readonly string[]): string => cells.map((text, column) => (column < 2 ? text.padEnd(widths[column] ?? 0) : text.padStart(widths[column] ?? 0))).join('  ').trimEnd();
  const snapshot =
    report.snapshot === null
      ? 'no account snapshot yet (a bot records one at each read of the account balances)'
      : `account balances read ${new Date(report.snapshot.atMs).toISOString()} (by ${report.snapshot.from})`;
  return [
    `outcome-maker account report as of ${new Date(report.asOfMs).toISOString()}: ${report.labels.length} ledger(s); ${snapshot}`,
    ...report.problems.map((problem) => `warning: ${problem}`),
    row(header),
    row(units),
    ...lines.map(row),
    'unbooked = account − Σ ledgers: held by the account but booked by none of these bots (another bot, a manual trade, or a discrepancy)',
  ].join('\n') + '\n';
}
