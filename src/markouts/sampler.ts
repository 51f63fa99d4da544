/**
 * The live bot's markout sampler: every fill the ledger books is judged at each horizon (0, 1 s, 10 s, 60 s, 5 min)
 * against the book mid without the bot's own orders and, where the market is priced, the model's fair value; each
 * (fill, horizon, reference) is written once to the ledger (src/ledger/markouts-repo.ts).
 *
 * Owns: the fills awaiting a horizon (in memory, at most `maxPending`), one timer on the injected scheduler (a tick
 * every `sampleEveryMs`, plus one soon after a fill is booked: no per-fill timers), and the reference snapshot of
 * each market once per tick. Reads new fills from the ledger (by id, after the last seen), so every booking path
 * (socket, REST answer, reconciliation) is judged the same way. Invariants: a horizon is sampled within its
 * tolerance (src/markouts/schedule.ts) or recorded as missing with its reason (`bot-down`: its last chance passed
 * before this run started; `late`: it passed during this run — the fill was booked late, or waited for room on
 * resume; `no-reference`: no price to read; `overflow`: a new fill while `maxPending` fills await), never guessed; at
 * start the sampler resumes what earlier runs left open, in fill order, as room allows; nothing in memory changes
 * unless the ledger write succeeded (a read that fails changes nothing either); a tick never throws (errors go to the observer),
 * and nothing is written after `stop()`.
 */
import type { CancelTimer, Scheduler } from '../core/clock.js';
import type { MarkoutFillHead, MarkoutReferenceName, MarkoutsRepo, NewMarkoutRow, MarkoutRegistration } from '../ledger/markouts-repo.js';
import { DEFAULT_SAMPLE_EVERY_MS, dueHorizons, lateToleranceMs, LEDGER_MARKOUT_HORIZONS_MS } from './schedule.js';
import { fillMarkoutRaw } from './value.js';

/** A market's reference prices now, millionths of a unit (null: not readable now). */
export interface MarkoutReferences {
  readonly mid: number | null;
  readonly model: number | null;
}

export type MissingReason = 'bot-down' | 'late' | 'no-reference' | 'overflow';

export interface MarkoutObserver {
  /** A markout written with a known reference: its value in raw USDC. */
  onMarkout?(horizonMs: number, reference: MarkoutReferenceName, markoutRaw: number): void;
  onMissing?(horizonMs: number, reference: MarkoutReferenceName, reason: MissingReason): void;
  /** A tick failed (the ledger refused a write); it is tried again on the next tick. */
  onError?(error: unknown): void;
}

export interface MarkoutSamplerOptions {
  readonly ledger: Pick<MarkoutsRepo, 'startFillId' | 'lastJudgedFillId' | 'unjudgedFills' | 'openFills' | 'write'>;
  readonly scheduler: Scheduler;
  /** The strategy that quotes (recorded with each judged fill). */
  readonly strategy: string;
  readonly references: (slug: string) => MarkoutReferences;
  /** Whether the model prices the market (its fills are judged against the model too). */
  readonly priced: (slug: string) => boolean;
  readonly observer?: MarkoutObserver;
  readonly sampleEveryMs?: number;
  /** Fills awaiting a horizon, at most (default 10,000; beyond, a new fill's horizons are recorded as `overflow`). */
  readonly maxPending?: number;
  readonly horizonsMs?: readonly number[];
  /** New fills read per tick, at most (default 1,000; the rest on the next tick). */
  readonly readLimit?: number;
}

interface PendingFill {
  readonly head: MarkoutFillHead;
  /** Per reference, the horizons still to write. */
  readonly open: Map<MarkoutReferenceName, number[]>;
}

/** A row to write, with why its price is missing (null when known). */
interface Entry {
  readonly row: NewMarkoutRow;
  readonly reason: MissingReason | null;
}

interface Planned {
  readonly fill: PendingFill;
  readonly reference: MarkoutReferenceName;
  readonly written: readonly number[];
}

export class MarkoutSampler {
  private readonly pending = new Map<number, PendingFill>();
  private readonly every: number;
  private readonly horizons: readonly number[];
  private readonly maxPending: number;
  private readonly readLimit: number;
  private cursor = 0;
  /** Open fills of earlier runs are read after this id; null once all are read. */
  private resumeAfter: number | null = 0;
  private startedAtMs = 0;
  private started = false;
  private stopped = false;
  private timer: CancelTimer | null = null;
  private soon: CancelTimer | null = null;

  constructor(private readonly options: MarkoutSamplerOptions) {
    this.every = Math.max(10, options.sampleEveryMs ?? DEFAULT_SAMPLE_EVERY_MS);
    this.horizons = options.horizonsMs ?? LEDGER_MARKOUT_HORIZONS_MS;
    this.maxPending = Math.max(1, options.maxPending ?? 10_000);
    this.readLimit = Math.max(1, options.readLimit ?? 1_000);
  }

  /**
   * Resumes what the last run left open (in fill order, as memory allows; horizons whose last chance passed before
   * this start are `bot-down`), then ticks periodically.
   */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.startedAtMs = this.options.scheduler.now();
    try {
      // Fills are judged in id order: new ones come after the last judged (and after those before markouts began).
      this.cursor = Math.max(this.options.ledger.startFillId(), this.options.ledger.lastJudgedFillId());
    } catch (error) {
      this.options.observer?.onError?.(error);
    }
    this.tick();
    this.arm();
  }

  /** A fill was booked: look for it soon (not inside the caller's stack). */
  fillBooked(): void {
    if (!this.started || this.stopped || this.soon !== null) return;
    this.soon = this.options.scheduler.schedule(0, () => {
      this.soon = null;
      this.tick();
    });
  }

  stop(): void {
    this.stopped = true;
    this.timer?.();
    this.soon?.();
    this.timer = null;
    this.soon = null;
  }

  /** Fills awaiting a horizon. */
  pendingCount(): number {
    return this.pending.size;
  }

  private arm(): void {
    if (this.stopped) return;
    this.timer = this.options.scheduler.schedule(this.every, () => {
      this.tick();
      this.arm();
    });
  }

  /** One pass: resume open fills, judge new ones, sample what is due, write it all at once. Never throws. */
  private tick(): void {
    if (this.stopped) return;
    try {
      this.resume();
      this.pass();
    } catch (error) {
      this.options.observer?.onError?.(error);
    }
  }

  /** Reads open fills of earlier runs into memory while there is room (reads nothing: nothing changes). */
  private resume(): void {
    if (this.resumeAfter === null) return;
    const room = this.maxPending - this.pending.size;
    if (room <= 0) return;
    const stored = this.options.ledger.openFills(this.resumeAfter, room);
    for (const fill of stored) {
      const open = new Map<MarkoutReferenceName, number[]>();
      for (const reference of fill.references) {
        const done = new Set(fill.samples.filter((s) => s.reference === reference).map((s) => s.horizonMs));
        open.set(reference, this.horizons.filter((h) => !done.has(h)));
      }
      this.pending.set(fill.fillId, { head: fill, open });
      this.resumeAfter = fill.fillId;
    }
    if (stored.length < room) this.resumeAfter = null;
  }

  /** Why an overdue horizon is missing: its last chance passed before this run started (`bot-down`), or in it (`late`). */
  private missedReason(atMs: number, horizonMs: number): MissingReason {
    return atMs + horizonMs + lateToleranceMs(horizonMs, this.every) < this.startedAtMs ? 'bot-down' : 'late';
  }

  private pass(): void {
    const now = this.options.scheduler.now();
    const register: MarkoutRegistration[] = [];
    const fresh: PendingFill[] = [];
    const entries: Entry[] = [];
    const planned: Planned[] = [];
    const row = (fill: PendingFill, horizonMs: number, reference: MarkoutReferenceName, refMicros: number | null, reason: MissingReason | null): void => {
      const missingReason = refMicros === null ? (reason ?? 'no-reference') : null;
      entries.push({ row: { fillId: fill.head.fillId, horizonMs, reference, refMicros, missingReason, sampledAtMs: now }, reason: missingReason });
    };
    const fills = this.options.ledger.unjudgedFills(this.cursor, this.readLimit);
    let cursor = this.cursor;
    let room = this.maxPending - this.pending.size;
    for (const head of fills) {
      cursor = Math.max(cursor, head.fillId);
      const references: MarkoutReferenceName[] = this.options.priced(head.marketSlug) ? ['mid', 'model'] : ['mid'];
      register.push({ fillId: head.fillId, strategy: this.options.strategy, references });
      const fill: PendingFill = { head, open: new Map(references.map((r) => [r, [...this.horizons]])) };
      if (room > 0) {
        room -= 1;
        fresh.push(fill);
        continue;
      }
      for (const reference of references) {
        for (const horizonMs of this.horizons) row(fill, horizonMs, reference, null, 'overflow');
        planned.push({ fill, reference, written: this.horizons });
      }
    }
    const snapshots = new Map<string, MarkoutReferences>();
    const snapshot = (slug: string): MarkoutReferences => {
      const refs = snapshots.get(slug) ?? this.options.references(slug);
      snapshots.set(slug, refs);
      return refs;
    };
    for (const fill of [...this.pending.values(), ...fresh]) {
      for (const [reference, open] of fill.open) {
        const due = dueHorizons(fill.head.atMs, open, now, this.every);
        if (due.sample.length === 0 && due.missed.length === 0) continue;
        for (const horizonMs of due.sample) row(fill, horizonMs, reference, snapshot(fill.head.marketSlug)[reference], null);
        for (const horizonMs of due.missed) row(fill, horizonMs, reference, null, this.missedReason(fill.head.atMs, horizonMs));
        planned.push({ fill, reference, written: [...due.sample, ...due.missed] });
      }
    }
    if (register.length === 0 && entries.length === 0) return;
    const writtenBy = new Map<PendingFill, Map<MarkoutReferenceName, Set<number>>>();
    for (const plan of planned) {
      const byRef = writtenBy.get(plan.fill) ?? new Map<MarkoutReferenceName, Set<number>>();
      byRef.set(plan.reference, new Set(plan.written));
      writtenBy.set(plan.fill, byRef);
    }
    const left = (fill: PendingFill, reference: MarkoutReferenceName): number[] => {
      const written = writtenBy.get(fill)?.get(reference);
      return (fill.open.get(reference) ?? []).filter((h) => written === undefined || !written.has(h));
    };
    const touched = new Map<number, PendingFill>();
    for (const fill of writtenBy.keys()) touched.set(fill.head.fillId, fill);
    const complete = [...touched.values()].filter((fill) => [...fill.open.keys()].every((reference) => left(fill, reference).length === 0)).map((fill) => fill.head.fillId);
    const inserted = this.options.ledger.write({ register, rows: entries.map((e) => e.row), complete });
    // The write succeeded: memory follows the ledger.
    this.cursor = cursor;
    for (const fill of fresh) this.pending.set(fill.head.fillId, fill);
    for (const fill of touched.values()) for (const reference of [...fill.open.keys()]) fill.open.set(reference, left(fill, reference));
    for (const fillId of complete) this.pending.delete(fillId);
    entries.forEach(({ row, reason }, index) => {
      const fill = touched.get(row.fillId);
      if (inserted[index] !== true || fill === undefined) return;
      if (row.refMicros === null) this.options.observer?.onMissing?.(row.horizonMs, row.reference, reason ?? 'no-reference');
      else this.options.observer?.onMarkout?.(row.horizonMs, row.reference, fillMarkoutRaw(fill.head, row.refMicros));
    });
  }
}
