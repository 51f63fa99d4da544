/**
 * The report's markout section: per market and per strategy, per reference (book mid without own orders, model fair
 * value), the fills judged, fees, rewards, realized spread (markout at 0), the mean markout at each horizon, the share
 * of the realized spread lost to adverse selection, and how many samples are missing or pending.
 *
 * Owns: reading the judged fills for a report query and formatting their figures (src/markouts/summary.ts computes
 * them) as a text table or a JSON object. Pure formatting: same figures in, same text out. Rewards are `null`: the
 * ledger records no reward payments (see docs/ledger.md). Invariants: every figure carries its unit (a units row under
 * each table's header); the counts add up: the section says how many of the fills booked in the report's scope are
 * judged and why the others are not (booked before markouts began on this ledger; booked while the bot was stopping,
 * after its markout sampler had stopped, or not reached yet by a running bot's sampler), and what `pending` samples are.
 */
import { rawToDecimal } from '../core/venue-rules/index.js';
import { summarizeJudgedFills, type JudgedFill, type MarkoutGroupFigures, type ReferenceFigures } from '../markouts/summary.js';
import { LEDGER_MARKOUT_HORIZONS_MS } from '../markouts/schedule.js';
import type { JudgedFillQuery, MarkoutCoverage, MarkoutsRepo } from './markouts-repo.js';
import { layoutTable, WIDE, type FigureStyle } from './report-text.js';

export interface MarkoutReport {
  readonly byMarket: readonly MarkoutGroupFigures[];
  readonly byStrategy: readonly MarkoutGroupFigures[];
  readonly coverage: MarkoutCoverage;
}

/** The markout figures of the fills a report covers (fills timed at or after `sinceMs`, of one market or all). */
export function markoutReport(repo: Pick<MarkoutsRepo, 'judgedFills' | 'coverage'>, query: JudgedFillQuery): MarkoutReport {
  const fills: JudgedFill[] = repo.judgedFills(query).map((stored) => ({
    marketSlug: stored.marketSlug,
    strategy: stored.strategy,
    terms: stored,
    feeRaw: stored.feeRaw,
    references: stored.references,
    samples: stored.samples,
  }));
  return { byMarket: summarizeJudgedFills(fills, (f) => f.marketSlug), byStrategy: summarizeJudgedFills(fills, (f) => f.strategy), coverage: repo.coverage(query) };
}

/** How many booked fills are judged, and why the others are not: one sentence that makes the counts add up. Pure. */
export function coverageLine(coverage: MarkoutCoverage): string {
  const head = `Judged ${coverage.judged} of the ${coverage.booked} fill${coverage.booked === 1 ? '' : 's'} booked in this report`;
  const notJudged = coverage.booked - coverage.judged;
  if (notJudged === 0) return `${head}.`;
  const reasons = [
    ...(coverage.beforeMarkouts > 0 ? [`${coverage.beforeMarkouts} booked before markouts began on this ledger`] : []),
    ...(notJudged - coverage.beforeMarkouts > 0
      ? [`${notJudged - coverage.beforeMarkouts} booked while the bot was stopping (its markout sampler stops before the cancels), or not yet reached by a running bot's sampler`]
      : []),
  ];
  return `${head}; not judged: ${reasons.join('; ')}.`;
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

function cells(group: MarkoutGroupFigures, figures: ReferenceFigures, style: FigureStyle): string[] {
  return [
    group.key,
    figures.reference,
    String(figures.fills),
    style.usdc(group.feesRaw),
    'n/a',
    style.usdc(figures.realizedSpreadRaw),
    ...figures.horizons.map((h) => (h.meanRaw === null ? '-' : style.perFill(h.meanRaw))),
    shareText(figures.adverseSelectionShare),
    String(sum(figures.horizons.map((h) => h.missing))),
    String(sum(figures.horizons.map((h) => h.pending))),
  ];
}

/** The unit of each column, printed under the header. */
const UNITS = ['', '', 'count', 'USDC', 'USDC', 'USDC', ...LEDGER_MARKOUT_HORIZONS_MS.map(() => 'USDC/fill'), '% of spread', 'samples', 'samples'];

function renderTable(title: string, groups: readonly MarkoutGroupFigures[], style: FigureStyle): string[] {
  const header = [title, 'ref', 'fills', 'fees', 'rewards', 'spread', ...LEDGER_MARKOUT_HORIZONS_MS.map((h) => `mean ${horizonLabel(h)}`), 'adverse', 'missing', 'pending'];
  const body = groups.flatMap((group) => group.references.map((figures) => cells(group, figures, style)));
  return layoutTable({ header, units: UNITS, rows: body, keys: 2 }, style.width);
}

/** The markout section of the text report (WIDE: exact decimals at any width). */
export function formatMarkoutsTable(report: MarkoutReport, style: FigureStyle = WIDE): string {
  const lines = ['', 'Markouts (mid: book mid without own orders, model: fair value; spread: Σ markout at 0s)', coverageLine(report.coverage)];
  if (report.byMarket.length === 0) return `${lines.join('\n')}\n`;
  lines.push(...renderTable('market', report.byMarket, style), '', ...renderTable('strategy', report.byStrategy, style));
  lines.push(
    '',
    'mean Ns: the mean markout per fill N after it (positive: the price moved the fill\'s way); spread: Σ markout at 0s.',
    'adverse: share of the realized spread lost by 60s, (Σ markout 0s − Σ markout 60s) ÷ Σ markout 0s over fills with both known.',
    'rewards and rebates: in the Earnings section (estimates), once the ledger holds any.',
    'missing and pending count samples: one per fill, horizon and reference. missing: recorded as unknown (bot down, no',
    'reference, late). pending: not taken yet: the horizon is not due yet, or the bot stopped before it was (a later run',
    'on this ledger records those as missing, bot-down; a paper run starts a fresh ledger, so they stay pending).',
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

/** The markout section of the JSON report: amounts in USDC (means per fill), counts of fills and of samples. */
export function markoutsJson(report: MarkoutReport): Record<string, unknown> {
  const { booked, judged, beforeMarkouts } = report.coverage;
  return {
    units: { fees: 'USDC', realizedSpread: 'USDC', adverseSelection: 'USDC', total: 'USDC', mean: 'USDC per fill', adverseSelectionShare: 'fraction of realizedSpread', known: 'samples', missing: 'samples', pending: 'samples' },
    coverage: { booked, judged, notJudged: { beforeMarkouts, afterSamplerStopOrNotYetReached: booked - judged - beforeMarkouts }, text: coverageLine(report.coverage) },
    byMarket: report.byMarket.map(groupJson),
    byStrategy: report.byStrategy.map(groupJson),
  };
}
