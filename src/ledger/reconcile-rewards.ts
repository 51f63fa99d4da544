/**
 * Reconciliation of what the venue PAID (src/ledger/payouts-repo.ts `venue_payouts`) against what the bot ESTIMATED
 * for the same spans: per paid epoch and market, the reward minutes inside the epoch (a minute that straddles the
 * epoch's edge counts pro rata to the part of it its samples cover) and the maker rebates of fills inside it; summed
 * per UTC day (the day the epoch began) and market, with the error (estimate − paid) in USDC and in % of the paid.
 *
 * Owns: which estimate belongs to which payout, and the error figures (pure). Invariants: raw 1e6 integers throughout
 * (a pro-rata part is floored); only epochs the venue reported paid are reconciled (the open epoch is not); an epoch
 * without a start takes the previous epoch's end of the same market, and one without either is left out (counted in
 * `unspanned`); when the venue reports the account's total per epoch (market '*'), an epoch's market without a row of
 * its own was paid 0 there (its estimate is still an error), and the total row's estimate is every market's; a figure
 * the venue did not send (null) has no error. Per row the maker fills whose rebates it sums, how many of them were
 * resolved from the public trade feed, and the prior's estimate of the same fills (before any trade resolved it).
 */
import { utcDayStart } from './pnl.js';
import type { MinuteEstimateRow, RebateEstimateRow, VenuePayoutRow } from './payouts-repo.js';
import { MINUTE_MS, VENUE_TOTAL_MARKET } from './rewards-repo.js';

/** Estimate beside payment of one kind (rewards or rebates), raw USDC. */
export interface Reconciled {
  readonly estimateRaw: number;
  /** null: the venue's answer did not carry this figure. */
  readonly paidRaw: number | null;
  /** estimate − paid; null without a paid figure. */
  readonly errorRaw: number | null;
  /** (estimate − paid) / paid × 100; null without a paid figure or when it is 0. */
  readonly errorPct: number | null;
}

export interface ReconciliationRow {
  readonly dayStartMs: number;
  /** A market, or '*' for the account's total. */
  readonly marketSlug: string;
  readonly epochs: number;
  /** The span the paid epochs of the row cover (earliest start, latest end). */
  readonly fromMs: number;
  readonly toMs: number;
  readonly rewards: Reconciled;
  readonly rebates: Reconciled;
  /** The maker fills whose rebates the row's estimate sums, and how many were resolved from the trade feed. */
  readonly rebateFills: RebateFills;
}

export interface RebateFills {
  readonly fills: number;
  /** Resolved from the public trade feed (the taker's real side and token). */
  readonly resolved: number;
  /** The prior's estimate of the same fills (the resolved ones' before the trade replaced it), raw USDC. */
  readonly priorEstimateRaw: number;
}

export interface Reconciliation {
  /** Per UTC day and market ('*' rows: the account's total), oldest day first, '*' last within a day. */
  readonly rows: readonly ReconciliationRow[];
  /** Per market over every day ('*' last). */
  readonly markets: readonly ReconciliationRow[];
  /** Paid epochs left out: no start and no earlier epoch to take one from. */
  readonly unspanned: number;
}

export interface ReconcileInput {
  readonly payouts: readonly VenuePayoutRow[];
  readonly minutes: readonly MinuteEstimateRow[];
  readonly rebates: readonly RebateEstimateRow[];
}

interface Span {
  readonly startMs: number;
  readonly endMs: number;
}

interface Cell {
  epochs: number;
  fromMs: number;
  toMs: number;
  rewardEst: number;
  rewardPaid: number | null;
  rebateEst: number;
  rebatePaid: number | null;
  fills: number;
  resolved: number;
  priorEst: number;
}

interface Estimates {
  readonly reward: number;
  readonly rebate: number;
  readonly fills: number;
  readonly resolved: number;
  readonly priorRebate: number;
}

/** The part of a minute row's reward that falls in [start, end) (pro rata to the span its samples cover), floored. */
export function minuteRewardIn(row: MinuteEstimateRow, span: Span): number {
  const from = row.coveredFromMs ?? row.minuteMs;
  const to = row.coveredToMs ?? row.minuteMs + MINUTE_MS;
  const overlap = Math.min(to, span.endMs) - Math.max(from, span.startMs);
  if (overlap <= 0 || to <= from) return 0;
  return overlap >= to - from ? row.rewardRaw : Math.floor((row.rewardRaw * overlap) / (to - from));
}

function estimates(input: ReconcileInput, market: string | null, span: Span): Estimates {
  let reward = 0;
  for (const row of input.minutes) if (market === null || row.marketSlug === market) reward += minuteRewardIn(row, span);
  let rebate = 0;
  let fills = 0;
  let resolved = 0;
  let priorRebate = 0;
  for (const row of input.rebates) {
    if ((market !== null && row.marketSlug !== market) || row.atMs < span.startMs || row.atMs >= span.endMs) continue;
    rebate += row.rebateRaw;
    fills += 1;
    if (row.resolution === 'trade') resolved += 1;
    priorRebate += row.priorRebateRaw ?? row.rebateRaw;
  }
  return { reward, rebate, fills, resolved, priorRebate };
}

/** A sum of paid figures: unknown (null) once any of them is. */
const addPaid = (sum: number | null, value: number | null): number | null => (sum === null || value === null ? null : sum + value);

function reconciled(estimateRaw: number, paidRaw: number | null): Reconciled {
  const errorRaw = paidRaw === null ? null : estimateRaw - paidRaw;
  return { estimateRaw, paidRaw, errorRaw, errorPct: errorRaw === null || paidRaw === null || paidRaw === 0 ? null : (errorRaw / paidRaw) * 100 };
}

/** The epochs' spans per market: a missing start is the previous epoch's end. */
function spansOf(payouts: readonly VenuePayoutRow[]): { spans: Map<VenuePayoutRow, Span>; unspanned: number } {
  const spans = new Map<VenuePayoutRow, Span>();
  const lastEnd = new Map<string, number>();
  let unspanned = 0;
  for (const p of [...payouts].sort((a, b) => a.epochEndMs - b.epochEndMs)) {
    const start = p.epochStartMs ?? lastEnd.get(p.marketSlug) ?? null;
    lastEnd.set(p.marketSlug, p.epochEndMs);
    if (start === null) unspanned += 1;
    else spans.set(p, { startMs: start, endMs: p.epochEndMs });
  }
  return { spans, unspanned };
}

/** Reconciles the paid epochs against the estimates of the same spans. Pure. */
export function reconcileRewards(input: ReconcileInput): Reconciliation {
  const { spans, unspanned } = spansOf(input.payouts);
  const cells = new Map<string, Cell>();
  const add = (day: number, market: string, span: Span, est: Estimates, paid: { rewards: number | null; rebates: number | null }): void => {
    for (const key of [`${day}|${market}`, `total|${market}`]) {
      const cell = cells.get(key) ?? { epochs: 0, fromMs: span.startMs, toMs: span.endMs, rewardEst: 0, rewardPaid: 0, rebateEst: 0, rebatePaid: 0, fills: 0, resolved: 0, priorEst: 0 };
      cell.epochs += 1;
      cell.fromMs = Math.min(cell.fromMs, span.startMs);
      cell.toMs = Math.max(cell.toMs, span.endMs);
      cell.rewardEst += est.reward;
      cell.rebateEst += est.rebate;
      cell.fills += est.fills;
      cell.resolved += est.resolved;
      cell.priorEst += est.priorRebate;
      cell.rewardPaid = addPaid(cell.rewardPaid, paid.rewards);
      cell.rebatePaid = addPaid(cell.rebatePaid, paid.rebates);
      cells.set(key, cell);
    }
  };
  const byEpoch = new Map<number, VenuePayoutRow[]>();
  for (const p of input.payouts) if (p.marketSlug !== VENUE_TOTAL_MARKET) byEpoch.set(p.epochEndMs, [...(byEpoch.get(p.epochEndMs) ?? []), p]);
  for (const p of input.payouts) {
    const span = spans.get(p);
    if (span === undefined) continue;
    const day = utcDayStart(span.startMs);
    if (p.marketSlug === VENUE_TOTAL_MARKET) {
      add(day, VENUE_TOTAL_MARKET, span, estimates(input, null, span), { rewards: p.rewardsRaw, rebates: p.rebatesRaw });
      // The account's epoch: a market the bot estimated for without a row of its own in it was paid 0 there.
      const listed = new Set((byEpoch.get(p.epochEndMs) ?? []).map((m) => m.marketSlug));
      const estimated = new Set([...input.minutes.filter((m) => minuteRewardIn(m, span) > 0).map((m) => m.marketSlug), ...input.rebates.filter((r) => r.atMs >= span.startMs && r.atMs < span.endMs).map((r) => r.marketSlug)]);
      for (const market of estimated) if (!listed.has(market)) add(day, market, span, estimates(input, market, span), { rewards: p.rewardsRaw === null ? null : 0, rebates: p.rebatesRaw === null ? null : 0 });
    } else {
      add(day, p.marketSlug, span, estimates(input, p.marketSlug, span), { rewards: p.rewardsRaw, rebates: p.rebatesRaw });
    }
  }
  const rowOf = (dayStartMs: number, marketSlug: string, c: Cell): ReconciliationRow => ({
    dayStartMs,
    marketSlug,
    epochs: c.epochs,
    fromMs: c.fromMs,
    toMs: c.toMs,
    rewards: reconciled(c.rewardEst, c.rewardPaid),
    rebates: reconciled(c.rebateEst, c.rebatePaid),
    rebateFills: { fills: c.fills, resolved: c.resolved, priorEstimateRaw: c.priorEst },
  });
  const order = (a: ReconciliationRow, b: ReconciliationRow): number =>
    a.dayStartMs - b.dayStartMs || Number(a.marketSlug === VENUE_TOTAL_MARKET) - Number(b.marketSlug === VENUE_TOTAL_MARKET) || a.marketSlug.localeCompare(b.marketSlug);
  const rows: ReconciliationRow[] = [];
  const markets: ReconciliationRow[] = [];
  for (const [key, cell] of cells) {
    const [day = '', market = ''] = key.split('|', 2);
    if (day === 'total') markets.push(rowOf(utcDayStart(cell.fromMs), market, cell));
    else rows.push(rowOf(Number(day), market, cell));
  }
  return { rows: rows.sort(order), markets: markets.sort((a, b) => order({ ...a, dayStartMs: 0 }, { ...b, dayStartMs: 0 })), unspanned };
}

export interface ReconcileSource {
  payouts(query: { readonly sinceMs?: number | undefined; readonly marketSlug?: string | undefined }): VenuePayoutRow[];
  minutesBetween(fromMs: number, toMs: number, marketSlug?: string): MinuteEstimateRow[];
  rebatesBetween(fromMs: number, toMs: number, marketSlug?: string): RebateEstimateRow[];
}

/**
 * The reconciliation of the ledger's paid epochs ending after `sinceMs` (of one market when given: its rows only, the
 * account's total left out since its estimate would be that market's alone).
 */
export function reconcileLedger(source: ReconcileSource, query: { readonly sinceMs?: number | undefined; readonly marketSlug?: string | undefined } = {}): Reconciliation {
  const payouts = source.payouts(query);
  if (payouts.length === 0) return { rows: [], markets: [], unspanned: 0 };
  const fromMs = Math.min(...payouts.map((p) => p.epochStartMs ?? p.epochEndMs));
  const toMs = Math.max(...payouts.map((p) => p.epochEndMs));
  const result = reconcileRewards({ payouts, minutes: source.minutesBetween(fromMs, toMs, query.marketSlug), rebates: source.rebatesBetween(fromMs, toMs, query.marketSlug) });
  if (query.marketSlug === undefined) return result;
  const mine = (r: ReconciliationRow): boolean => r.marketSlug === query.marketSlug;
  return { rows: result.rows.filter(mine), markets: result.markets.filter(mine), unspanned: result.unspanned };
}
