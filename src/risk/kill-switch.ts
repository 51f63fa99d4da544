/**
 * The daily-loss kill switch: when realized + unrealized PnL since 00:00 UTC falls to −limit, it trips. A trip
 * pauses quoting and cancels everything (through `onTrip`, which the composition root wires to the executor); the
 * process stays up. It resumes by itself at the next UTC day, or when an operator calls `resume()`; a manual
 * `trip()` waits for the operator.
 *
 * Invariants:
 * - times come only from the injected scheduler; the day is the UTC day of `now()`;
 * - after an operator resume the switch re-arms from the PnL at that moment: it trips again once a further
 *   `dailyLossLimitRaw` is lost that day (otherwise the next check would trip it straight back);
 * - a PnL reader that throws or returns a non-finite value is counted; `maxPnlErrors` consecutive failures trip
 *   the switch (a loss that cannot be measured is not allowed to run on);
 * - `onTrip` / `onResume` fire once per change.
 */
import type { CancelTimer, Scheduler } from '../core/clock.js';

export const DAY_MS = 86_400_000;

export function utcDayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export type KillReason = 'daily-loss' | 'pnl-unavailable' | 'manual' | 'credentials';

export interface KillSwitchTrip {
  readonly reason: KillReason;
  readonly detail: string;
  readonly pnlRaw: number | null;
  readonly atMs: number;
  /** When the switch resumes by itself (the next UTC midnight); null for a manual trip (operator resume only). */
  readonly resumesAtMs: number | null;
}

export interface KillSwitchResume {
  readonly by: 'operator' | 'new-day';
  readonly atMs: number;
}

export interface KillSwitchOptions {
  readonly scheduler: Scheduler;
  /** Loss (positive, raw USDC) that trips the switch. */
  readonly dailyLossLimitRaw: number;
  /** Realized + unrealized PnL since `dayStartMs` (00:00 UTC today), raw USDC; negative is a loss. */
  readonly dailyPnlRaw: (dayStartMs: number) => number;
  /** How often `start()` checks (default 5 s). */
  readonly checkIntervalMs?: number;
  readonly maxPnlErrors?: number;
  readonly onTrip?: (trip: KillSwitchTrip) => void;
  readonly onResume?: (resume: KillSwitchResume) => void;
  readonly onPnlError?: (error: unknown) => void;
}

export interface KillSwitchStatus {
  readonly tripped: boolean;
  readonly trip: KillSwitchTrip | null;
  /** PnL at which the switch trips today (negative). */
  readonly tripAtPnlRaw: number;
}

export class KillSwitch {
  private current: KillSwitchTrip | null = null;
  private baselineDay: number;
  private baselinePnl = 0;
  private pnlErrors = 0;
  private resumeTimer: CancelTimer | null = null;
  private checkTimer: CancelTimer | null = null;
  private running = false;

  constructor(private readonly options: KillSwitchOptions) {
    if (!(options.dailyLossLimitRaw > 0)) throw new RangeError(`dailyLossLimitRaw: must be positive (got ${options.dailyLossLimitRaw})`);
    this.baselineDay = utcDayStart(options.scheduler.now());
  }

  get tripped(): boolean {
    this.rollDay();
    return this.current !== null;
  }

  status(): KillSwitchStatus {
    this.rollDay();
    return { tripped: this.current !== null, trip: this.current, tripAtPnlRaw: this.baselinePnl - this.options.dailyLossLimitRaw };
  }

  /**
   * Reads the PnL (or takes `knownPnlRaw`, the day's PnL the caller has just read from the ledger) and trips when the
   * loss limit is reached. Returns whether the switch is tripped.
   */
  check(knownPnlRaw?: number): boolean {
    this.rollDay();
    if (this.current !== null) return true;
    const now = this.options.scheduler.now();
    let pnl: number;
    try {
      pnl = knownPnlRaw ?? this.options.dailyPnlRaw(utcDayStart(now));
      if (!Number.isFinite(pnl)) throw new RangeError(`daily PnL is not a finite number (got ${pnl})`);
    } catch (error) {
      this.pnlErrors += 1;
      this.options.onPnlError?.(error);
      if (this.pnlErrors >= (this.options.maxPnlErrors ?? 3)) {
        this.engage('pnl-unavailable', `daily PnL unavailable ${this.pnlErrors} times in a row`, null);
      }
      return this.current !== null;
    }
    this.pnlErrors = 0;
    if (pnl <= this.baselinePnl - this.options.dailyLossLimitRaw) {
      this.engage('daily-loss', `daily PnL ${pnl} reached the loss limit ${this.options.dailyLossLimitRaw}`, pnl);
    }
    return this.current !== null;
  }

  /** Trips by hand (operator, or another safety). */
  trip(detail: string, reason: Extract<KillReason, 'manual' | 'credentials'> = 'manual'): void {
    this.rollDay();
    if (this.current === null) this.engage(reason, detail, null);
  }

  /** Operator resume: quoting may go on; re-armed from the PnL now. */
  resume(): void {
    this.rollDay();
    if (this.current === null) return;
    const now = this.options.scheduler.now();
    let pnl = 0;
    try {
      const read = this.options.dailyPnlRaw(utcDayStart(now));
      if (Number.isFinite(read)) pnl = read;
    } catch (error) {
      this.options.onPnlError?.(error);
    }
    this.baselinePnl = Math.min(0, pnl);
    this.release('operator');
  }

  /** Checks every `checkIntervalMs` until `stop()`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const tick = (): void => {
      if (!this.running) return;
      this.check();
      this.checkTimer = this.options.scheduler.schedule(this.options.checkIntervalMs ?? 5000, tick);
    };
    tick();
  }

  stop(): void {
    this.running = false;
    this.checkTimer?.();
    this.checkTimer = null;
    this.resumeTimer?.();
    this.resumeTimer = null;
  }

  private engage(reason: KillReason, detail: string, pnlRaw: number | null): void {
    const now = this.options.scheduler.now();
    const resumesAtMs = reason === 'manual' ? null : utcDayStart(now) + DAY_MS;
    this.current = { reason, detail, pnlRaw, atMs: now, resumesAtMs };
    this.resumeTimer?.();
    this.resumeTimer = null;
    if (resumesAtMs !== null) {
      this.resumeTimer = this.options.scheduler.schedule(resumesAtMs - now, () => {
        this.resumeTimer = null;
        this.rollDay();
      });
    }
    this.options.onTrip?.(this.current);
  }

  private release(by: 'operator' | 'new-day'): void {
    this.current = null;
    this.pnlErrors = 0;
    this.resumeTimer?.();
    this.resumeTimer = null;
    this.options.onResume?.({ by, atMs: this.options.scheduler.now() });
  }

  /** A new UTC day: the baseline resets and a trip of an earlier day ends. */
  private rollDay(): void {
    const today = utcDayStart(this.options.scheduler.now());
    if (today === this.baselineDay) return;
    this.baselineDay = today;
    this.baselinePnl = 0;
    if (this.current !== null && this.current.resumesAtMs !== null && today >= this.current.resumesAtMs) this.release('new-day');
  }
}
