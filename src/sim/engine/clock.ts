/**
 * Clocks for the engine: `realClock()` (wall time, Node timers) and `ManualClock` (tests and replays:
 * time moves only when `advance` is called, due tasks run in time order, ties in scheduling order).
 *
 * Invariant: a task never runs before its due time, and a cancelled task never runs.
 */
import type { SimClock } from './types.js';

/** Node's timer limit: longer delays fire at once, so the real clock chains shorter timers. */
const MAX_TIMER_MS = 2_147_483_647;

export function realClock(): SimClock {
  return {
    now: () => Date.now(),
    schedule(delayMs, fn) {
      const due = Date.now() + Math.max(0, delayMs);
      let timer: NodeJS.Timeout | undefined;
      let cancelled = false;
      const arm = (): void => {
        const remaining = due - Date.now();
        timer = setTimeout(
          () => {
            if (cancelled) return;
            if (Date.now() < due) arm();
            else fn();
          },
          Math.min(Math.max(0, remaining), MAX_TIMER_MS),
        );
        timer.unref();
      };
      arm();
      return () => {
        cancelled = true;
        if (timer) clearTimeout(timer);
      };
    },
  };
}

interface ManualTask {
  readonly due: number;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
}

function before(a: ManualTask, b: ManualTask): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}

export class ManualClock implements SimClock {
  private current: number;
  private seq = 0;
  /** Binary min-heap on (due, seq); cancelled tasks are dropped lazily. */
  private readonly heap: ManualTask[] = [];
  private live = 0;

  constructor(startMs = 0) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  schedule(delayMs: number, fn: () => void): () => void {
    const task: ManualTask = { due: this.current + Math.max(0, delayMs), seq: this.seq++, fn, cancelled: false };
    this.push(task);
    this.live += 1;
    return () => {
      if (task.cancelled) return;
      task.cancelled = true;
      this.live -= 1;
    };
  }

  /** Number of tasks still waiting. */
  pending(): number {
    return this.live;
  }

  /** Move time forward by `ms`, running every task that falls due (including ones scheduled meanwhile). */
  advance(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  advanceTo(targetMs: number): void {
    for (;;) {
      const next = this.heap[0];
      if (!next || next.due > targetMs) break;
      this.pop();
      if (next.cancelled) continue;
      next.cancelled = true;
      this.live -= 1;
      this.current = Math.max(this.current, next.due);
      next.fn();
    }
    this.current = Math.max(this.current, targetMs);
  }

  private push(task: ManualTask): void {
    const h = this.heap;
    h.push(task);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = h[parent];
      if (!p || !before(task, p)) break;
      h[i] = p;
      i = parent;
    }
    h[i] = task;
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (!last || h.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = last;
      let at = -1;
      const left = h[l];
      const right = h[r];
      if (left && before(left, smallest)) {
        smallest = left;
        at = l;
      }
      if (right && before(right, smallest)) {
        smallest = right;
        at = r;
      }
      if (at < 0) break;
      h[i] = smallest;
      i = at;
    }
    h[i] = last;
  }
}
