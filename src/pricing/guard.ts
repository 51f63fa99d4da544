/**
 * The fast-market guard of one underlying: a move beyond `k` standard deviations within `windowMs` pulls every quote
 * on that underlying for `cooldownMs`, because the model's fair value (and everybody's) is then least certain and
 * the informed flow most active.
 *
 * Owns: the recent prices of one ticker and the hold. Pure state: times come with the calls. Invariants: the window
 * holds only points younger than `windowMs` (plus the one just before, the move's base); a trip extends the hold,
 * never shortens it; σ is the caller's current estimate (variance of ln S per second).
 */
export interface GuardSettings {
  /** Off: never trips. */
  readonly enabled: boolean;
  /** Standard deviations of the window's expected move that count as a fast market. */
  readonly k: number;
  readonly windowMs: number;
  /** Quotes stay pulled this long after the last trip. */
  readonly cooldownMs: number;
}

export const DEFAULT_GUARD: GuardSettings = { enabled: true, k: 4, windowMs: 5_000, cooldownMs: 10_000 };

export class FastMarketGuard {
  private readonly points: { atMs: number; logPrice: number }[] = [];
  private heldUntilMs = Number.NEGATIVE_INFINITY;
  private trips = 0;

  constructor(private readonly settings: GuardSettings) {
    if (!(settings.k > 0) || !(settings.windowMs > 0) || !(settings.cooldownMs >= 0)) {
      throw new RangeError(`guard: k and windowMs must be > 0, cooldownMs >= 0 (got k ${settings.k}, windowMs ${settings.windowMs}, cooldownMs ${settings.cooldownMs})`);
    }
  }

  /** A price at `atMs`; true when this move trips the guard. */
  observe(atMs: number, price: number, variancePerSecond: number): boolean {
    if (!this.settings.enabled || !(price > 0) || !Number.isFinite(price)) return false;
    const logPrice = Math.log(price);
    const horizon = atMs - this.settings.windowMs;
    while (this.points.length > 1 && (this.points[1]?.atMs ?? Number.POSITIVE_INFINITY) <= horizon) this.points.shift();
    this.points.push({ atMs, logPrice });
    let tripped = false;
    const limit = this.settings.k * Math.sqrt(variancePerSecond * (this.settings.windowMs / 1000));
    for (const p of this.points) {
      if (p.atMs < horizon) continue;
      if (Math.abs(logPrice - p.logPrice) > limit) tripped = true;
    }
    if (tripped) {
      this.heldUntilMs = Math.max(this.heldUntilMs, atMs + this.settings.cooldownMs);
      this.trips += 1;
    }
    return tripped;
  }

  /** Quotes on this underlying are pulled at `nowMs`. */
  holding(nowMs: number): boolean {
    return nowMs < this.heldUntilMs;
  }

  tripCount(): number {
    return this.trips;
  }
}
