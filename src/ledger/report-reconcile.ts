/**
 * The report's reconciliation section: what the venue PAID per UTC day and market (and in total, '*') beside what the
 * bot ESTIMATED for the same epochs, rewards and rebates each, with the estimate's error in USDC and in % of the paid
 * (src/ledger/reconcile-rewards.ts computes it). Text table and JSON object.
 *
 * Owns: the formatting only. Invariants: amounts are exact decimals of the raw integers; a figure the venue did not
 * send reads `-` (null in JSON); the error is estimate − paid (positive: the bot estimated more than it was paid).
 */
import { rawToDecimal } from '../core/venue-rules/index.js';
import type { Reconciled, Reconciliation, ReconciliationRow } from './reconcile-rewards.js';
import { table } from './report-rewards.js';
import { WIDE, type FigureStyle } from './report-text.js';
import { VENUE_TOTAL_MARKET } from './rewards-repo.js';

const pct = (x: number | null): string => (x === null ? '-' : `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`);
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const marketName = (slug: string): string => (slug === VENUE_TOTAL_MARKET ? 'TOTAL (venue *)' : slug);

/** The prior's estimate's error in % of the paid rebates (what the error would be without the trade feed). */
function priorErrorPct(r: ReconciliationRow): number | null {
  const paid = r.rebates.paidRaw;
  return paid === null || paid === 0 ? null : ((r.rebateFills.priorEstimateRaw - paid) / paid) * 100;
}

/** The section as text: per day and market, then per market over every day. Empty when nothing was paid yet. */
export function formatReconciliationTable(report: Reconciliation, style: FigureStyle = WIDE): string {
  if (report.rows.length === 0) return '';
  const dec = (raw: number | null): string => (raw === null ? '-' : style.usdc(raw));
  const cells = (r: Reconciled): string[] => [dec(r.estimateRaw), dec(r.paidRaw), dec(r.errorRaw), pct(r.errorPct)];
  const header = ['day (UTC)', 'market', 'epochs', 'rewards est.', 'rewards paid', 'error', 'error %', 'rebates est.', 'rebates paid', 'error', 'error %', 'maker fills', 'from trades', 'prior est.', 'prior error %'];
  const units = ['', '', 'count', 'USDC', 'USDC', 'USDC', '', 'USDC', 'USDC', 'USDC', '', 'count', 'count', 'USDC', ''];
  const render = (r: ReconciliationRow, first: string): string[] => [
    first,
    marketName(r.marketSlug),
    String(r.epochs),
    ...cells(r.rewards),
    ...cells(r.rebates),
    String(r.rebateFills.fills),
    String(r.rebateFills.resolved),
    dec(r.rebateFills.priorEstimateRaw),
    pct(priorErrorPct(r)),
  ];
  const lines = [
    '',
    'Reconciliation: what the venue PAID per epoch beside the ESTIMATES of the same epochs (error = estimate − paid)',
    ...table(header, units, report.rows.map((r) => render(r, day(r.dayStartMs))), 2, style.width),
  ];
  if (report.markets.length > 0) lines.push('', ...table(['all days', ...header.slice(1)], units, report.markets.map((r) => render(r, '')), 2, style.width));
  lines.push('rewards paid, rebates paid: what the venue PAID for each closed epoch (booked from its portfolio answer); est.: the bot\'s estimate of the same epochs.');
  lines.push('Rebates: "from trades" of the maker fills had their taker\'s side and token read from the public trade feed; the others keep the prior\'s estimate (rewards.takerBuyShare). "prior est." is the prior\'s estimate of all of them.');
  if (report.unspanned > 0) lines.push(`${report.unspanned} paid epoch(s) without a start could not be reconciled.`);
  return `${lines.join('\n')}\n`;
}

const json = (r: Reconciled): Record<string, unknown> => ({
  estimate: rawToDecimal(r.estimateRaw),
  paid: r.paidRaw === null ? null : rawToDecimal(r.paidRaw),
  error: r.errorRaw === null ? null : rawToDecimal(r.errorRaw),
  errorPct: r.errorPct,
});

const rowJson = (r: ReconciliationRow): Record<string, unknown> => ({
  day: day(r.dayStartMs),
  market: r.marketSlug,
  epochs: r.epochs,
  from: new Date(r.fromMs).toISOString(),
  to: new Date(r.toMs).toISOString(),
  rewards: json(r.rewards),
  rebates: json(r.rebates),
  rebateFills: { fills: r.rebateFills.fills, resolvedFromTrades: r.rebateFills.resolved, priorEstimate: rawToDecimal(r.rebateFills.priorEstimateRaw), priorErrorPct: priorErrorPct(r) },
});

/** The section as a JSON object (USDC as exact decimal strings; market '*' is the account's total). */
export function reconciliationJson(report: Reconciliation): Record<string, unknown> {
  return {
    units: { estimate: 'USDC', paid: 'USDC', error: 'USDC (estimate − paid)', errorPct: '% of paid' },
    days: report.rows.map(rowJson),
    markets: report.markets.map((r) => {
      const { day: _day, ...rest } = rowJson(r);
      return rest;
    }),
    unspanned: report.unspanned,
  };
}
