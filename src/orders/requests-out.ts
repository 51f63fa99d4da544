/**
 * The plans' requests that are OUT: they left the rate limiter (their own last-moment check passed as they left) and
 * their answer has not been applied yet, per market. The shutdown waits for these only: a plan whose requests all
 * still wait in the limiter has changed nothing at the venue, and once the bot is stopping they are withheld as they
 * leave (its placements, replacements and — when the shutdown sweeps — its cancels), so the sweep need not wait for it.
 *
 * Owns: the per-market count and its waiters. Invariants: a request counts once however often its check runs (again
 * before a retry), from the first check that passed until its call settles, whatever the outcome; a count never goes
 * below 0; `none` resolves as soon as a market's count is 0 (at once when it is).
 */
export class RequestsOut {
  private readonly out = new Map<string, number>();
  private waiters: { readonly marketSlug: string; readonly resolve: () => void }[] = [];

  /**
   * Runs `call` with `check` as its `beforeSend`: once the check passes (the request is leaving), the market has one
   * more request out until the call settles. A check that throws (the request withheld) counts nothing.
   */
  async track<T>(marketSlug: string, check: () => void, call: (beforeSend: () => void) => Promise<T>): Promise<T> {
    let left = false;
    const beforeSend = (): void => {
      check();
      if (left) return;
      left = true;
      this.out.set(marketSlug, this.count(marketSlug) + 1);
    };
    try {
      return await call(beforeSend);
    } finally {
      if (left) this.settled(marketSlug);
    }
  }

  /** Requests of the market's plans out now. */
  count(marketSlug: string): number {
    return this.out.get(marketSlug) ?? 0;
  }

  /** Resolves once the market has no request out (at once when it has none). */
  none(marketSlug: string): Promise<void> {
    if (this.count(marketSlug) === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ marketSlug, resolve }));
  }

  private settled(marketSlug: string): void {
    const left = Math.max(0, this.count(marketSlug) - 1);
    if (left > 0) {
      this.out.set(marketSlug, left);
      return;
    }
    this.out.delete(marketSlug);
    const ready = this.waiters.filter((w) => w.marketSlug === marketSlug);
    this.waiters = this.waiters.filter((w) => w.marketSlug !== marketSlug);
    for (const waiter of ready) waiter.resolve();
  }
}
