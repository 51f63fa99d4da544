/**
 * The report's markout section: per market and per strategy, per reference (book mid without own orders, model fair
 * value), the fills judged, fees, rewards, realized spread (markout at 0), the mean markout at each horizon, the share
 * of the realized spread lost to adverse selection, and how many samples are missing or pending.
 *
 * Owns: reading the judged fills for a report query and formatting their figures (src/markouts/summary.ts computes
 * them) as a text table or a JSON object. Pure formatting: same figures in, same text out. Rewards are `null`: the
 * ledger records no reward payments (see docs/ledger.md).
 */
import { rawToDecimal } from '../core/venue-rules/index.js';
import { summarizeJudgedFills, type JudgedFill, type MarkoutGroupFigures, type ReferenceFigures } from '../markouts/summary.js';
import { LEDGER_MARKOUT_HORIZONS_MS } from '../markouts/schedule.js';
import type { JudgedFillQuery, MarkoutsRepo } from './markouts-repo.js';

export interface MarkoutReport {
  readonly byMarket: readonly MarkoutGroupFigures[];
  readonly byStrategy: readonly MarkoutGroupFigures[];
}

/** The markout figures of the fills a report covers (fills timed at or after `sinceMs`, of one market or all). */
export function markoutReport(repo: Pick<MarkoutsRepo, 'judgedFills'>, query: JudgedFillQuery): MarkoutReport {
  const fills: JudgedFill[] = repo.judgedFills(query).map((stored) => ({
    marketSlug: stored.marketSlug,
    strategy: stored.strategy,
    terms: stored,
    feeRaw: stored.feeRaw,
    references: stored.references,
    samples: stored.samples,
  }));
  return { byMarket: summarizeJudgedFills(fills, (f) => f.marketSlug), byStrategy: summarizeJudgedFills(fills, (f) => f.strategy) };
}

/** 0s, 1s, 10s, 60s, 5m. */
export function horizonLabel(horizonMs: number): string {
  if (horizonMs > 60_000 && horizonMs % 60_000 === 0) return `${horizonMs / 60_000}m`;
  return `${horizonMs / 1000}s`;
}

function shareText(share: number | null): string {
  return share === null ? '-' : `${(share * 100).toFixed(1)}%`;
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

function cells(group: MarkoutGroupFigures, figures: ReferenceFigures): string[] {
  return [
    group.key,
    figures.reference,
    String(figures.fills),
    rawToDecimal(group.feesRaw),
    'n/a',
    rawToDecimal(figures.realizedSpreadRaw),
    ...figures.horizons.map((h) => (h.meanRaw === null ? '-' : rawToDecimal(h.meanRaw))),
    shareText(figures.adverseSelectionShare),
    String(sum(figures.horizons.map((h) => h.missing))),
    String(sum(figures.horizons.map((h) => h.pending))),
  ];
}

function renderTable(title: string, groups: readonly MarkoutGroupFigures[]): string[] {
  const header = [title, 'ref', 'fills', 'fees', 'rewards', 'spread', ...LEDGER_MARKOUT_HORIZONS_MS.map((h) => `mean ${horizonLabel(h)}`), 'adverse', 'missing', 'pending'];
  const body = groups.flatMap((group) => group.references.map((figures) => cells(group, figures)));
  const widths = header.map((cell, column) => Math.max(cell.length, ...body.map((row) => row[column]?.length ?? 0)));
  const render = (row: readonly string[]): string =>
    row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd();
  return [render(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(render)];
}

/** The markout section of the text report. */
export function formatMarkoutsTable(report: MarkoutReport): string {
  const lines = ['', 'Markouts (USDC per fill; mid: book mid without own orders, model: fair value; spread: Σ markout at 0s)'];
  if (report.byMarket.length === 0) {
    lines.push('No judged fills (markouts cover fills booked by the bot since markouts began on this ledger).');
    return `${lines.join('\n')}\n`;
  }
  lines.push(...renderTable('market', report.byMarket), '', ...renderTable('strategy', report.byStrategy));
  lines.push(
    '',
    'adverse: share of the realized spread lost by 60s, (Σ markout 0s − Σ markout 60s) ÷ Σ markout 0s over fills with both known.',
    'rewards: n/a (the ledger records no reward payments). missing: samples recorded as unknown (bot down, no reference, late); pending: not yet due.',
  );
  return `${lines.join('\n')}\n`;
}

function groupJson(group: MarkoutGroupFigures): Record<string, unknown> {
  return {
    key: group.key,
    fills: group.fills,
    fees: rawToDecimal(group.feesRaw),
    rewards: null,
    references: group.references.map((figures) => ({
      reference: figures.reference,
      fills: figures.fills,
      realizedSpread: rawToDecimal(figures.realizedSpreadRaw),
      adverseSelection: rawToDecimal(figures.adverseSelectionRaw),
      adverseSelectionShare: figures.adverseSelectionShare,
      horizons: figures.horizons.map((h) => ({
        horizon: horizonLabel(h.horizonMs),
        horizonMs: h.horizonMs,
        known: h.known,
        missing: h.missing,
        pending: h.pending,
        total: rawToDecimal(h.totalRaw),
        mean: h.meanRaw === null ? null : rawToDecimal(h.meanRaw),
      })),
    })),
  };
}

/** The markout section of the JSON report. */
export function markoutsJson(report: MarkoutReport): Record<string, unknown> {
  return { byMarket: report.byMarket.map(groupJson), byStrategy: report.byStrategy.map(groupJson) };
}
