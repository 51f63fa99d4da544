/**
 * Client-side rate limiting per credentials: at most `maxConcurrent` requests in flight, at least `minTimeMs`
 * between request starts, queued requests started in priority order cancel > place > read (FIFO within a
 * class), and a pause of every start after a 429 so queued requests do not walk into the same limit.
 *
 * "Start" is when a request was handed to the OS (the task calls `markSent`), not when the task began: a cold
 * connection (TLS handshake, first-use initialisation) can delay a request by 100 ms or more, and the venue
 * counts arrivals. The next start waits for the previous request to be sent (at most `maxSendWaitMs`).
 *
 * Owns: when a request may start. One RequestLimiter per credentials: get it from a LimiterRegistry keyed by the
 * API token id so every client of the same token shares it.
 *
 * Why not bottleneck: bottleneck picks the next job as soon as a slot frees and only then waits out `minTime`,
 * so a cancel queued during that wait starts after a read that was picked before it (priority inversion of up to
 * maxConcurrent × minTime), and its spacing is measured from when a job was picked, not when it started. Here
 * the choice and the spacing are both made at the moment of starting, on an injectable monotonic clock.
 *
 * Invariants: starts are ≥ minTimeMs apart on the limiter's clock; running ≤ maxConcurrent; the highest-priority
 * waiting request is the next to start; every attempt of every request (retries included) passes through
 * `schedule`, and a request holds its slot only while its HTTP attempt runs (backoff sleeps happen outside).
 */
import { performance } from 'node:perf_hooks';

export type RequestPriority = 'cancel' | 'place' | 'read';

/** Start order of the request classes. */
export const PRIORITY_ORDER: readonly RequestPriority[] = ['cancel', 'place', 'read'];

export interface LimiterConfig {
  /** Requests in flight at once (venue: 2). */
  readonly maxConcurrent: number;
  /** Minimum ms between request starts (venue: 300). */
  readonly minTimeMs: number;
  /** How long a request that has not been sent yet may hold back the next start. */
  readonly maxSendWaitMs: number;
}

export const DEFAULT_LIMITER_CONFIG: LimiterConfig = { maxConcurrent: 2, minTimeMs: 300, maxSendWaitMs: 1000 };

export interface LimiterObserver {
  /** Requests waiting for a slot, reported on every enqueue and start. */
  onQueueDepth?(depth: number): void;
  /** How long a request waited for its slot. */
  onQueueWait?(priority: RequestPriority, waitMs: number): void;
}

export interface LimiterDeps {
  /** Monotonic ms. */
  readonly now?: () => number;
  /** Runs `fn` after `ms`; returns a cancel function. */
  readonly setTimer?: (fn: () => void, ms: number) => () => void;
}

interface Job {
  readonly priority: RequestPriority;
  readonly enqueuedAt: number;
  readonly start: () => void;
}

function checkConfig(config: LimiterConfig): LimiterConfig {
  if (!Number.isInteger(config.maxConcurrent) || config.maxConcurrent < 1) {
    throw new RangeError(`limiter maxConcurrent must be an integer >= 1 (got ${config.maxConcurrent})`);
  }
  if (!Number.isFinite(config.minTimeMs) || config.minTimeMs < 0) {
    throw new RangeError(`limiter minTimeMs must be >= 0 (got ${config.minTimeMs})`);
  }
  if (!Number.isFinite(config.maxSendWaitMs) || config.maxSendWaitMs < 0) {
    throw new RangeError(`limiter maxSendWaitMs must be >= 0 (got ${config.maxSendWaitMs})`);
  }
  return config;
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const realTimer = (fn: () => void, ms: number): (() => void) => {
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};

export class RequestLimiter {
  readonly config: LimiterConfig;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => () => void;
  private readonly observers = new Set<LimiterObserver>();
  private readonly queues: Readonly<Record<RequestPriority, Job[]>> = { cancel: [], place: [], read: [] };
  private inFlight = 0;
  private lastStartAt = Number.NEGATIVE_INFINITY;
  /** Start times of running requests not sent yet. */
  private readonly unsent = new Set<{ readonly startedAt: number }>();
  private pausedUntilAt = Number.NEGATIVE_INFINITY;
  private cancelTimer: (() => void) | null = null;
  private pumping = false;
  private pumpAgain = false;

  constructor(config: Partial<LimiterConfig> = {}, deps: LimiterDeps = {}) {
    this.config = checkConfig({ ...DEFAULT_LIMITER_CONFIG, ...config });
    this.now = deps.now ?? (() => performance.now());
    this.setTimer = deps.setTimer ?? realTimer;
  }

  /** Registers an observer; returns its removal. */
  observe(observer: LimiterObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /**
   * Runs `task` when a slot is free and the spacing allows, highest priority first. The task calls `markSent`
   * when its request has been handed to the OS (or is known never to be sent); finishing counts as sent.
   */
  schedule<T>(priority: RequestPriority, task: (markSent: () => void) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const enqueuedAt = this.now();
      const start = (): void => {
        this.emit((o) => o.onQueueWait?.(priority, Math.max(0, this.now() - enqueuedAt)));
        const entry = { startedAt: this.now() };
        this.unsent.add(entry);
        const markSent = (): void => {
          if (!this.unsent.delete(entry)) return;
          this.lastStartAt = Math.max(this.lastStartAt, this.now());
          this.pump();
        };
        let running: Promise<T>;
        try {
          running = task(markSent);
        } catch (error) {
          running = Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
        // Free the slot before the caller resumes, so what it schedules next sees the limiter as it is.
        const release = (): void => {
          this.inFlight -= 1;
          markSent();
          this.pump();
        };
        running.then(
          (value) => {
            release();
            resolve(value);
          },
          (error: unknown) => {
            release();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      };
      this.queues[priority].push({ priority, enqueuedAt, start });
      this.emit((o) => o.onQueueDepth?.(this.queued()));
      this.pump();
    });
  }

  /** Requests waiting for a slot. */
  queued(): number {
    return this.queues.cancel.length + this.queues.place.length + this.queues.read.length;
  }

  /** Requests running now. */
  running(): number {
    return this.inFlight;
  }

  /** Remaining pause in ms (0 when not paused). */
  pausedFor(): number {
    return Math.max(0, this.pausedUntilAt - this.now());
  }

  /** Holds every request start of these credentials for `ms` (after a 429). A longer pause wins. */
  pauseFor(ms: number): void {
    if (!(ms > 0)) return;
    this.pausedUntilAt = Math.max(this.pausedUntilAt, this.now() + ms);
    this.pump();
  }

  /** Re-evaluates the queue; re-entrant calls (a task marking itself sent while starting) fold into one pass. */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pumpOnce();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  /** Starts what may start now; otherwise arms one timer for the earliest next start. */
  private pumpOnce(): void {
    if (this.cancelTimer) {
      this.cancelTimer();
      this.cancelTimer = null;
    }
    while (this.inFlight < this.config.maxConcurrent && this.queued() > 0) {
      const now = this.now();
      let earliest = Math.max(this.lastStartAt + this.config.minTimeMs, this.pausedUntilAt);
      // A request still being sent holds the next start back until it is sent, for at most maxSendWaitMs.
      for (const { startedAt } of this.unsent) earliest = Math.max(earliest, startedAt + this.config.maxSendWaitMs);
      if (now < earliest) {
        this.cancelTimer = this.setTimer(() => {
          this.cancelTimer = null;
          this.pump();
        }, Math.max(1, Math.ceil(earliest - now)));
        return;
      }
      const job = this.next();
      if (!job) return;
      this.inFlight += 1;
      this.lastStartAt = now;
      this.emit((o) => o.onQueueDepth?.(this.queued()));
      job.start();
    }
  }

  private next(): Job | undefined {
    for (const priority of PRIORITY_ORDER) {
      const job = this.queues[priority].shift();
      if (job) return job;
    }
    return undefined;
  }

  private emit(call: (observer: LimiterObserver) => void): void {
    for (const observer of this.observers) {
      try {
        call(observer);
      } catch {
        // An observer must never break request flow.
      }
    }
  }
}

/** One limiter per credentials key (the API token id; `anonymous` for public-only clients). */
export class LimiterRegistry {
  private readonly limiters = new Map<string, RequestLimiter>();

  /** The limiter of `key`, created with `config` on first use (later configs for the same key are ignored). */
  get(key: string, config: Partial<LimiterConfig> = {}, deps: LimiterDeps = {}): RequestLimiter {
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new RequestLimiter(config, deps);
      this.limiters.set(key, limiter);
    }
    return limiter;
  }
}

/** The process-wide registry: clients built without an explicit limiter share their credentials' limiter here. */
export const sharedLimiters = new LimiterRegistry();
