/**
 * The live bot's calibration sampler: for every market the model prices, the model's and the book mid's predictions
 * of YES at fixed offsets before its settlement (default 50, 30, 10, 5 and 1 minutes), each written to the ledger as
 * it is taken (src/ledger/calibration-repo.ts); once the ledger holds the market's resolution, the scored rows
 * (outcome, log-loss, Brier of each) are written, and published to the observer.
 *
 * Owns: the markets it tracks (copied when first seen priced, kept past the bot's leave until their last offset),
 * one timer on the injected scheduler (a tick every `everyMs`; scoring every `scoreEveryMs`). Invariants: a
 * prediction is taken within its tolerance (schedule.ts) or recorded missing (`late`), never guessed; one already in
 * the ledger (an earlier run) is never taken again, and the ledger keeps the first write of a key, so a crash loses
 * nothing already taken and a restart writes nothing twice; a market resolved while the bot was down is scored at the
 * next scoring pass (scoring reads the ledger, not memory); memory holds only markets whose last offset is ahead; a
 * tick never throws (errors go to the observer) and nothing is written after `stop()`.
 */
import type { CancelTimer, Scheduler } from '../core/clock.js';
import type { CalibrationRepo, CalibrationSource, ScoredRow } from '../ledger/calibration-repo.js';
import { DEFAULT_CALIBRATION_EVERY_MS, DEFAULT_CALIBRATION_OFFSETS_MS, dueOffsets } from './schedule.js';
import { scoredRow } from './score.js';

/** A priced market as calibration needs it. */
export interface CalibrationMarket {
  readonly slug: string;
  /** The underlying's ticker. */
  readonly underlying: string;
  /** `hourly`, `daily`, `weekly`, `15m` or `other`. */
  readonly cadence: string;
  readonly settlesAtMs: number;
}

/** The two predictions of YES now, millionths; a null value comes with its reason. */
export interface CalibrationReading {
  readonly modelMicros: number | null;
  readonly modelMissing: string | null;
  readonly midMicros: number | null;
  readonly midMissing: string | null;
}

export interface CalibrationObserver {
  /** A prediction written: its source and `taken` or why it is missing. */
  onPrediction?(market: CalibrationMarket, source: CalibrationSource, result: string): void;
  /** A (market, offset) scored and written. */
  onScored?(row: ScoredRow): void;
  /** A tick failed (the ledger refused a write or a read); tried again on the next tick. */
  onError?(error: unknown): void;
}

export interface CalibrationSamplerOptions {
  readonly ledger: Pick<CalibrationRepo, 'recordPrediction' | 'takenOffsetsOf' | 'resolvedUnscored' | 'writeScores'>;
  readonly scheduler: Scheduler;
  /** The markets the model prices now (new ones are tracked from the tick they appear). */
  readonly markets: () => readonly CalibrationMarket[];
  /** The predictions of a tracked market now. */
  readonly read: (market: CalibrationMarket) => CalibrationReading;
  readonly offsetsMs?: readonly number[];
  readonly everyMs?: number;
  /** How often resolved markets are looked for and scored (default 5 s). */
  readonly scoreEveryMs?: number;
  readonly observer?: CalibrationObserver;
}

interface Tracked {
  readonly market: CalibrationMarket;
  readonly trackedAtMs: number;
  open: number[];
}

export class CalibrationSampler {
  private readonly tracked = new Map<string, Tracked>();
  /** Markets whose every offset is behind: not tracked again (bounded: pruned once settled). */
  private readonly done = new Map<string, number>();
  private readonly offsets: readonly number[];
  private readonly every: number;
  private readonly scoreEvery: number;
  private lastScoredAtMs = Number.NEGATIVE_INFINITY;
  private timer: CancelTimer | null = null;
  private started = false;
  private stopped = false;

  constructor(private readonly options: CalibrationSamplerOptions) {
    const offsets = options.offsetsMs ?? DEFAULT_CALIBRATION_OFFSETS_MS;
    for (const [i, offset] of offsets.entries()) {
      if (!Number.isSafeInteger(offset) || offset <= 0) throw new RangeError(`calibration.offsetsMs[${i}]: must be a positive integer of ms (got ${offset})`);
    }
    this.offsets = [...new Set(offsets)].sort((a, b) => b - a);
    this.every = Math.max(10, options.everyMs ?? DEFAULT_CALIBRATION_EVERY_MS);
    this.scoreEvery = Math.max(this.every, options.scoreEveryMs ?? 5_000);
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.tick();
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.();
    this.timer = null;
  }

  /** Markets awaiting an offset. */
  trackedCount(): number {
    return this.tracked.size;
  }

  /** One pass: track new markets, take what fell due, score what resolved (every `scoreEveryMs`). */
  tick(): void {
    if (this.stopped) return;
    const now = this.options.scheduler.now();
    try {
      this.track(now);
      this.take(now);
    } catch (error) {
      this.options.observer?.onError?.(error);
    }
    if (now - this.lastScoredAtMs >= this.scoreEvery) {
      this.lastScoredAtMs = now;
      this.score(now);
    }
  }

  private arm(): void {
    if (this.stopped) return;
    this.timer = this.options.scheduler.schedule(this.every, () => {
      this.tick();
      this.arm();
    });
  }

  private track(now: number): void {
    for (const [slug, settlesAtMs] of this.done) if (settlesAtMs <= now) this.done.delete(slug);
    for (const market of this.options.markets()) {
      if (this.tracked.has(market.slug) || this.done.has(market.slug) || market.settlesAtMs <= now) continue;
      const taken = new Set(this.options.ledger.takenOffsetsOf(market.slug));
      this.tracked.set(market.slug, { market, trackedAtMs: now, open: this.offsets.filter((o) => !taken.has(o)) });
    }
  }

  /**
   * Takes now what of `slug` is due (within tolerance), ahead of the next tick: the bot calls it just before a
   * market's book is unsubscribed (its leave at the stop before settlement falls on the shortest offset's due instant),
   * so the mid is read while the book is still there. Never throws (errors go to the observer).
   */
  takeNow(slug: string): void {
    const entry = this.tracked.get(slug);
    if (this.stopped || entry === undefined) return;
    try {
      this.takeOne(slug, entry, this.options.scheduler.now());
    } catch (error) {
      this.options.observer?.onError?.(error);
    }
  }

  private take(now: number): void {
    for (const [slug, entry] of this.tracked) this.takeOne(slug, entry, now);
  }

  private takeOne(slug: string, entry: Tracked, now: number): void {
    const due = dueOffsets(entry.open, entry.market.settlesAtMs, entry.trackedAtMs, now, this.every);
    const written = new Set<number>(due.untracked);
    if (due.take.length > 0) {
      const reading = this.options.read(entry.market);
      for (const offset of due.take) {
        this.write(entry.market, offset, reading, now);
        written.add(offset);
      }
    }
    for (const offset of due.late) {
      this.write(entry.market, offset, { modelMicros: null, modelMissing: 'late', midMicros: null, midMissing: 'late' }, now);
      written.add(offset);
    }
    entry.open = entry.open.filter((o) => !written.has(o));
    if (entry.open.length === 0) {
      this.tracked.delete(slug);
      this.done.set(slug, entry.market.settlesAtMs);
    }
  }

  private write(market: CalibrationMarket, offsetMs: number, reading: CalibrationReading, now: number): void {
    const inserted = this.options.ledger.recordPrediction({ marketSlug: market.slug, offsetMs, underlying: market.underlying, cadence: market.cadence, settlesAtMs: market.settlesAtMs, ...reading, takenAtMs: now });
    if (!inserted) return;
    this.options.observer?.onPrediction?.(market, 'model', reading.modelMissing ?? 'taken');
    this.options.observer?.onPrediction?.(market, 'mid', reading.midMissing ?? 'taken');
  }

  private score(now: number): void {
    try {
      const pending = this.options.ledger.resolvedUnscored();
      if (pending.length === 0) return;
      const inserted = this.options.ledger.writeScores(pending.map((row) => scoredRow(row, now)));
      for (const row of inserted) this.options.observer?.onScored?.(row);
    } catch (error) {
      this.options.observer?.onError?.(error);
    }
  }
}
