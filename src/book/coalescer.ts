/**
 * Coalesces per-market change notifications: a burst of book updates for one market yields one
 * notification, delivered after the burst (same macrotask with a zero interval) and never more often than
 * `minIntervalMs` per market. The consumer pulls the latest book when notified, so nothing is lost by
 * coalescing.
 *
 * Invariants: at most one pending delivery per market; a market marked while pending is not scheduled
 * again; a delivery happens no earlier than `minIntervalMs` after the previous one for that market;
 * `cancel(key)`/`cancelAll()` drop pending deliveries.
 */
import type { CancelTimer, Scheduler } from '../core/clock.js';

export class ChangeCoalescer {
  private readonly pending = new Map<string, CancelTimer>();
  private readonly lastDeliveredMs = new Map<string, number>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly minIntervalMs: number,
    private readonly deliver: (key: string) => void,
  ) {}

  mark(key: string): void {
    if (this.pending.has(key)) return;
    const last = this.lastDeliveredMs.get(key);
    const delay = last === undefined ? 0 : Math.max(0, last + this.minIntervalMs - this.scheduler.now());
    const cancel = this.scheduler.schedule(delay, () => {
      this.pending.delete(key);
      this.lastDeliveredMs.set(key, this.scheduler.now());
      this.deliver(key);
    });
    this.pending.set(key, cancel);
  }

  isPending(key: string): boolean {
    return this.pending.has(key);
  }

  cancel(key: string): void {
    this.pending.get(key)?.();
    this.pending.delete(key);
    this.lastDeliveredMs.delete(key);
  }

  cancelAll(): void {
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
  }
}
