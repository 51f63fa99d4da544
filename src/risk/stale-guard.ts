/**
 * Stale-data guard: a market whose book has not been confirmed fresh for `staleGraceMs`, or any market while the
 * socket has been down for `socketDownGraceMs`, is HALTED (the composition root cancels its orders and the risk
 * gate drops its intents); it resumes as soon as its book is fresh again with the socket up.
 *
 * Feed it `markFresh(slug)` whenever a market's book is confirmed current (an update frame, a REST snapshot, a
 * watchdog probe): a quiet but healthy book must still be confirmed, or it goes stale.
 *
 * Invariants: time only from the injected scheduler; one timer at a time, armed for the earliest moment a
 * market could go stale (markFresh never re-arms it: it only pushes deadlines later, and the timer re-evaluates
 * when it fires); `onHalt` / `onResume` fire once per change of a market.
 */
import type { CancelTimer, Scheduler } from '../core/clock.js';

export type StaleReason = 'stale-book' | 'socket-down';

export interface StaleGuardOptions {
  readonly scheduler: Scheduler;
  readonly staleGraceMs: number;
  readonly socketDownGraceMs: number;
  readonly onHalt?: (marketSlug: string, reason: StaleReason) => void;
  readonly onResume?: (marketSlug: string) => void;
}

interface MarketFreshness {
  lastFreshMs: number;
  halted: StaleReason | null;
}

export class StaleGuard {
  private readonly markets = new Map<string, MarketFreshness>();
  private socketDownSinceMs: number | null = null;
  private timer: CancelTimer | null = null;
  private timerAtMs: number | null = null;

  constructor(private readonly options: StaleGuardOptions) {
    if (!(options.staleGraceMs > 0)) throw new RangeError(`staleGraceMs: must be positive (got ${options.staleGraceMs})`);
    if (!(options.socketDownGraceMs >= 0)) throw new RangeError(`socketDownGraceMs: must be ≥ 0 (got ${options.socketDownGraceMs})`);
  }

  /** Starts watching a market; its book counts as fresh from now. */
  track(marketSlug: string): void {
    if (this.markets.has(marketSlug)) return;
    this.markets.set(marketSlug, { lastFreshMs: this.now(), halted: null });
    this.arm(this.now() + this.options.staleGraceMs);
  }

  untrack(marketSlug: string): void {
    this.markets.delete(marketSlug);
  }

  markFresh(marketSlug: string, atMs: number = this.now()): void {
    const market = this.markets.get(marketSlug);
    if (market === undefined) return;
    market.lastFreshMs = Math.max(market.lastFreshMs, Math.min(atMs, this.now()));
    if (market.halted !== null) this.evaluate();
  }

  socketDown(): void {
    if (this.socketDownSinceMs !== null) return;
    this.socketDownSinceMs = this.now();
    this.arm(this.socketDownSinceMs + this.options.socketDownGraceMs);
  }

  socketUp(): void {
    if (this.socketDownSinceMs === null) return;
    this.socketDownSinceMs = null;
    this.evaluate();
  }

  isHalted(marketSlug: string): boolean {
    return this.markets.get(marketSlug)?.halted != null;
  }

  reason(marketSlug: string): StaleReason | null {
    return this.markets.get(marketSlug)?.halted ?? null;
  }

  /** Re-evaluates every market now (also done by the guard's own timer). */
  evaluate(): void {
    const now = this.now();
    const socketDown = this.socketDownSinceMs !== null && now - this.socketDownSinceMs >= this.options.socketDownGraceMs;
    let nextDeadline: number | null = null;
    for (const [slug, market] of this.markets) {
      const staleAt = market.lastFreshMs + this.options.staleGraceMs;
      const reason: StaleReason | null = socketDown ? 'socket-down' : now >= staleAt ? 'stale-book' : null;
      if (reason === null && staleAt > now) nextDeadline = nextDeadline === null ? staleAt : Math.min(nextDeadline, staleAt);
      if (reason === market.halted) continue;
      const wasHalted = market.halted !== null;
      market.halted = reason;
      if (reason !== null && !wasHalted) this.options.onHalt?.(slug, reason);
      else if (reason === null) this.options.onResume?.(slug);
    }
    if (this.socketDownSinceMs !== null && !socketDown) {
      const at = this.socketDownSinceMs + this.options.socketDownGraceMs;
      nextDeadline = nextDeadline === null ? at : Math.min(nextDeadline, at);
    }
    if (nextDeadline !== null) this.arm(nextDeadline);
  }

  stop(): void {
    this.timer?.();
    this.timer = null;
    this.timerAtMs = null;
  }

  private now(): number {
    return this.options.scheduler.now();
  }

  /** Makes sure a timer fires no later than `atMs`. */
  private arm(atMs: number): void {
    if (this.timerAtMs !== null && this.timerAtMs <= atMs) return;
    this.timer?.();
    this.timerAtMs = atMs;
    this.timer = this.options.scheduler.schedule(Math.max(0, atMs - this.now()), () => {
      this.timer = null;
      this.timerAtMs = null;
      this.evaluate();
    });
  }
}
