/**
 * Calibration in a backtest: the live bot's sampler (src/calibration/sampler.ts) on virtual time, reading the model as
 * the bot does (`modelReading`: the pricer's fair value at the instant, no quoting halt applied) and the YES book's
 * mid without the bot's own orders from the book the bot sees (the feed's: gone once the market is left, `no-book`,
 * as live), with the predictions kept in memory instead of the ledger and each market's outcome from the engine's
 * resolution. At the end of the run: every scored (market, offset) and the mean log-loss and Brier score of each
 * source.
 *
 * Owns: one run's predictions and scores (memory) and the terms of the markets seen priced (until they settle).
 * Invariants: the sampler's (a prediction taken within its tolerance or recorded missing, never guessed; one per
 * market and offset); a prediction is scored only once the engine resolved its market to one side, and only once;
 * nothing is read from the future (the model and the book at the offset's instant, the outcome after resolution).
 */
import { modelReading, pricedMarkets } from '../calibration/live-calibration.js';
import { CalibrationSampler, type CalibrationMarket, type CalibrationReading } from '../calibration/sampler.js';
import { scoredRow } from '../calibration/score.js';
import type { Scheduler } from '../core/clock.js';
import type { CalibrationRepo, NewPrediction, ResolvedPrediction, ScoredRow } from '../ledger/calibration-repo.js';
import { othersMidMicros } from '../markouts/value.js';
import type { MarketPricer } from '../pricing/market-pricer.js';
import type { MarketTerms } from '../pricing/types.js';

/** The YES book and the bot's own orders, as the mid reads them (the backtest names no more of the strategy contract). */
type YesBook = Parameters<typeof othersMidMicros>[0];
type OwnOrders = Parameters<typeof othersMidMicros>[1];

/** Mean scores of one source over the rows where it predicted. */
export interface CalibrationScore {
  readonly n: number;
  /** Mean log-loss (nats); NaN when n is 0. */
  readonly logLoss: number;
  /** Mean Brier score; NaN when n is 0. */
  readonly brier: number;
}

export interface BacktestCalibration {
  /** One row per resolved (market, offset) with at least one prediction, by settlement, market, offset (longest first). */
  readonly rows: readonly ScoredRow[];
  readonly model: CalibrationScore;
  readonly mid: CalibrationScore;
  /** Predictions not taken, by `source:reason` (e.g. `mid:no-book`, `model:late`). */
  readonly missing: Readonly<Record<string, number>>;
}

type Store = Pick<CalibrationRepo, 'recordPrediction' | 'takenOffsetsOf' | 'resolvedUnscored' | 'writeScores'>;

/** The ledger's calibration tables in memory, the outcome of a market asked of the caller (null: not resolved). */
export class MemoryCalibrationStore implements Store {
  private readonly predictions = new Map<string, NewPrediction>();
  private readonly scored = new Map<string, ScoredRow>();

  constructor(private readonly outcomeOf: (slug: string) => 0 | 1 | null) {}

  recordPrediction(prediction: NewPrediction): boolean {
    const key = keyOf(prediction.marketSlug, prediction.offsetMs);
    if (this.predictions.has(key)) return false;
    this.predictions.set(key, prediction);
    return true;
  }

  takenOffsetsOf(marketSlug: string): number[] {
    return [...this.predictions.values()].filter((p) => p.marketSlug === marketSlug).map((p) => p.offsetMs);
  }

  resolvedUnscored(): ResolvedPrediction[] {
    const out: ResolvedPrediction[] = [];
    for (const [key, p] of this.predictions) {
      if (this.scored.has(key) || (p.modelMicros === null && p.midMicros === null)) continue;
      const outcome = this.outcomeOf(p.marketSlug);
      if (outcome === null) continue;
      const { marketSlug, offsetMs, underlying, cadence, settlesAtMs, modelMicros, midMicros } = p;
      out.push({ marketSlug, offsetMs, underlying, cadence, settlesAtMs, modelMicros, midMicros, outcome });
    }
    return out;
  }

  writeScores(rows: readonly ScoredRow[]): ScoredRow[] {
    const inserted = rows.filter((row) => !this.scored.has(keyOf(row.marketSlug, row.offsetMs)));
    for (const row of inserted) this.scored.set(keyOf(row.marketSlug, row.offsetMs), row);
    return inserted;
  }

  /** Scores what resolved and is not scored yet (at the end of a run), then the summary. */
  finish(nowMs: number): BacktestCalibration {
    this.writeScores(this.resolvedUnscored().map((row) => scoredRow(row, nowMs)));
    const rows = [...this.scored.values()].sort((a, b) => a.settlesAtMs - b.settlesAtMs || a.marketSlug.localeCompare(b.marketSlug) || b.offsetMs - a.offsetMs);
    const missing: Record<string, number> = {};
    for (const p of this.predictions.values()) {
      if (p.modelMissing !== null) missing[`model:${p.modelMissing}`] = (missing[`model:${p.modelMissing}`] ?? 0) + 1;
      if (p.midMissing !== null) missing[`mid:${p.midMissing}`] = (missing[`mid:${p.midMissing}`] ?? 0) + 1;
    }
    return {
      rows,
      model: meanScores(rows.flatMap((r) => (r.modelLogLossMicro === null || r.modelBrierMicro === null ? [] : [[r.modelLogLossMicro, r.modelBrierMicro] as const]))),
      mid: meanScores(rows.flatMap((r) => (r.midLogLossMicro === null || r.midBrierMicro === null ? [] : [[r.midLogLossMicro, r.midBrierMicro] as const]))),
      missing,
    };
  }
}

function keyOf(slug: string, offsetMs: number): string {
  return `${slug}\u0000${offsetMs}`;
}

function meanScores(scores: readonly (readonly [number, number])[]): CalibrationScore {
  const n = scores.length;
  if (n === 0) return { n, logLoss: Number.NaN, brier: Number.NaN };
  return { n, logLoss: scores.reduce((a, s) => a + s[0], 0) / n / 1e6, brier: scores.reduce((a, s) => a + s[1], 0) / n / 1e6 };
}

export interface BacktestCalibrationDeps {
  readonly scheduler: Scheduler;
  readonly pricer: MarketPricer;
  /** An underlying price older than this is stale (the pricer's `staleMs`). */
  readonly staleMs: number;
  /** The YES book the bot sees now; null when it has none (e.g. a market it left). */
  readonly book: (slug: string) => YesBook | null;
  readonly ownOrders: (slug: string) => OwnOrders;
  readonly outcomeOf: (slug: string) => 0 | 1 | null;
  readonly offsetsMs?: readonly number[];
}

/** The sampler of one run and its store; `start()` at the run's start, `finish()` at its end. */
export class BacktestCalibrationSampler {
  private readonly store: MemoryCalibrationStore;
  private readonly sampler: CalibrationSampler;
  /** Terms of the markets seen priced, kept until they settle (the sampler may ask after the bot left). */
  private readonly terms = new Map<string, MarketTerms>();

  constructor(private readonly deps: BacktestCalibrationDeps) {
    this.store = new MemoryCalibrationStore(deps.outcomeOf);
    this.sampler = new CalibrationSampler({
      ledger: this.store,
      scheduler: deps.scheduler,
      ...(deps.offsetsMs === undefined ? {} : { offsetsMs: deps.offsetsMs }),
      markets: () => pricedMarkets(deps.pricer, this.terms, deps.scheduler.now()),
      read: (market) => this.read(market),
    });
  }

  start(): void {
    this.sampler.start();
  }

  finish(): BacktestCalibration {
    this.sampler.stop();
    return this.store.finish(this.deps.scheduler.now());
  }

  private read(market: CalibrationMarket): CalibrationReading {
    const now = this.deps.scheduler.now();
    const t = this.terms.get(market.slug);
    const model = t === undefined ? { modelMicros: null, modelMissing: 'unpriced' } : modelReading(this.deps.pricer, t, now, this.deps.staleMs);
    const book = this.deps.book(market.slug);
    if (book === null) return { ...model, midMicros: null, midMissing: 'no-book' };
    const mid = othersMidMicros(book, this.deps.ownOrders(market.slug));
    return mid === null ? { ...model, midMicros: null, midMissing: 'one-sided' } : { ...model, midMicros: mid, midMissing: null };
  }
}
