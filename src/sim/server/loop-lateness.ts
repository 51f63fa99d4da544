/**
 * How late this process's event loop may have come to a request it handles now. A probe timer runs every `probeMs`;
 * the loop runs its timers, then reads its sockets, so while it keeps coming round a request waits at most about a
 * probe period. When it stayed away (a CPU-starved process, or the bot's own burst of work on the loop of the
 * simulator embedded in it), every request that reached its sockets meanwhile is read in the turn that ends the
 * stretch, and may have arrived as early as the stretch's start; a request handled while the loop is still away (a
 * long callback) may have arrived as early as the probe's last due time.
 *
 * The simulator's rate limiter gives a client that lateness back (rate-limiter.ts `tryAcquire`): a request stamped
 * late must not make the next one, sent on time, look early. Only meaningful on the wall clock (the stamps' clock is
 * the system scheduler's Date.now).
 *
 * Owns: one unref'd interval timer (never keeps the process alive). Invariants: `lateMs` is ≥ 0, at most about two
 * probe periods while the loop keeps coming round, and the stretch it stayed away once it did not; nothing runs after
 * `stop()`.
 */
export const DEFAULT_LOOP_PROBE_MS = 5;

export class LoopLateness {
  private lastTickMs: number;
  /** Where the stretch the last tick ended began (null: the last tick came on time). */
  private awaySinceMs: number | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly probeMs = DEFAULT_LOOP_PROBE_MS,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isSafeInteger(probeMs) || probeMs < 1) throw new RangeError(`LoopLateness probeMs: must be an integer >= 1 (got ${probeMs})`);
    this.lastTickMs = now();
    this.timer = setInterval(() => {
      const at = this.now();
      this.awaySinceMs = at - this.lastTickMs > 2 * this.probeMs ? this.lastTickMs + this.probeMs : null;
      this.lastTickMs = at;
    }, probeMs);
    this.timer.unref();
  }

  /** How much earlier than `nowMs` a request handled now may have arrived at this process. */
  lateMs(nowMs: number = this.now()): number {
    const stillAway = nowMs - this.lastTickMs - this.probeMs;
    const sinceStretch = this.awaySinceMs === null ? 0 : nowMs - this.awaySinceMs;
    return Math.max(0, stillAway, sinceStretch);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
