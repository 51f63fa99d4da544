/**
 * Client-side rate limiting per credentials: at most `maxConcurrent` requests in flight, at least `minTimeMs`
 * between request starts, queued requests started in priority order sweep > cancel > probe > place > read (FIFO within a
 * class), and a pause of every start after a 429 so queued requests do not walk into the same limit. `probe` is what
 * keeps the bot safe besides its cancels: the watchdog's REST check of a quiet book, whose answer decides whether a
 * market is halted; requotes never starve it (docs/rate-limits.md).
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
 * Several processes on one API token (one bot per strategy file): an optional StartGate (shared-limiter.ts, Redis)
 * decides WHEN the next start may happen across every process; this limiter still decides WHAT starts: it asks
 * the gate for a permit only when its own rules allow a start, and picks the highest-priority waiting request at
 * the moment the permit arrives (a cancel queued while the permit was awaited goes first). The permit is told
 * when the request was sent (the shared spacing counts from then) and when it finished (its in-flight lease ends).
 *
 * Invariants: starts are ≥ minTimeMs apart on the limiter's clock; running ≤ maxConcurrent; the highest-priority
 * waiting request is the next to start; every attempt of every request (retries included) passes through
 * `schedule`, and a request holds its slot only while its HTTP attempt runs (backoff sleeps happen outside);
 * with a gate, no request starts without a permit, and every permit is given back exactly once.
 */
import { performance } from 'node:perf_hooks';
import { PRIORITY_ORDER, type RequestPriority } from '../core/request-priority.js';

/** The classes and their start order are the account's, shared with the backtest's request model (src/core/request-priority.ts). */
export { PRIORITY_ORDER, type RequestPriority };

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
  /** The shared limiter (if any) changed mode: `fallback` = its coordinator is unreachable (see shared-limiter.ts). */
  onSharedLimitState?(state: SharedLimitState): void;
}

/** Where a shared limiter stands: `shared` = coordinated across processes; `fallback` = a conservative local share. */
export interface SharedLimitState {
  readonly mode: 'shared' | 'fallback';
  /** Why it is in fallback (null while shared). Never contains a secret or a credential. */
  readonly reason: string | null;
  /** Wall-clock ms of the last change. */
  readonly sinceMs: number;
}

/** One start granted by a StartGate. Each method may be called more than once; only the first call counts. */
export interface StartPermit {
  /** The request was handed to the OS (or will never be sent): the spacing to the next start counts from now. */
  sent(): void;
  /** The request finished: its in-flight slot is free. Implies `sent`. */
  release(): void;
  /** The permit was not used: give everything back at once. */
  cancel(): void;
  /**
   * Whether the request may still be handed to the OS now: a start counts when it is SENT, and a permit valid only
   * in a window (a fallback slot) may have lapsed while the request was prepared on a loaded event loop. Absent:
   * always. A request found late is not sent; it asks for a new permit.
   */
  onTime?(): boolean;
}

/** Decides when this process may start a request, in concert with other processes on the same credentials. */
export interface StartGate {
  /** Resolves with a permit when a start is allowed; never rejects while the gate is open. */
  acquire(): Promise<StartPermit>;
  /** The current state, for readiness and logs. */
  state(): SharedLimitState;
  /** Told about every state change. */
  onState(listener: (state: SharedLimitState) => void): () => void;
  /** Stops every timer and connection; a pending `acquire` is abandoned. */
  close(): Promise<void>;
}

export interface LimiterDeps {
  /** Monotonic ms. */
  readonly now?: () => number;
  /** Runs `fn` after `ms`; returns a cancel function. */
  readonly setTimer?: (fn: () => void, ms: number) => () => void;
  /** Cross-process coordination (shared-limiter.ts); without it the limiter is this process's own. */
  readonly gate?: StartGate;
}

interface Job {
  readonly priority: RequestPriority;
  readonly enqueuedAt: number;
  readonly start: (permit: StartPermit | null, spacingBefore: { readonly atMs: number; readonly seq: number }) => void;
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

/** A Node timer: runs `fn` after `ms`; returns its cancel. */
export const realTimer = (fn: () => void, ms: number): (() => void) => {
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};

export class RequestLimiter {
  readonly config: LimiterConfig;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => () => void;
  private readonly observers = new Set<LimiterObserver>();
  private readonly queues: Readonly<Record<RequestPriority, Job[]>> = { sweep: [], cancel: [], probe: [], place: [], read: [] };
  private inFlight = 0;
  private lastStartAt = Number.NEGATIVE_INFINITY;
  /** Starts counted so far (a start refused before it was sent is taken back: `markNotSent`). */
  private startSeq = 0;
  /** Start times of running requests not sent yet. */
  private readonly unsent = new Set<{ readonly startedAt: number }>();
  private pausedUntilAt = Number.NEGATIVE_INFINITY;
  private cancelTimer: (() => void) | null = null;
  private pumping = false;
  private pumpAgain = false;
  private readonly gate: StartGate | null;
  /** A permit granted by the gate and not used yet. */
  private permit: StartPermit | null = null;
  private acquiring = false;
  private closed = false;
  private readonly unwatchGate: () => void;

  constructor(config: Partial<LimiterConfig> = {}, deps: LimiterDeps = {}) {
    this.config = checkConfig({ ...DEFAULT_LIMITER_CONFIG, ...config });
    this.now = deps.now ?? (() => performance.now());
    this.setTimer = deps.setTimer ?? realTimer;
    this.gate = deps.gate ?? null;
    this.unwatchGate = this.gate ? this.gate.onState((state) => this.emit((o) => o.onSharedLimitState?.(state))) : () => undefined;
  }

  /** The shared limiter's state, or null when this limiter has no gate. */
  sharedState(): SharedLimitState | null {
    return this.gate?.state() ?? null;
  }

  /** Closes the gate (if any). Requests still queued wait forever: close only once no client uses this limiter. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unwatchGate();
    if (this.cancelTimer) {
      this.cancelTimer();
      this.cancelTimer = null;
    }
    this.permit?.cancel();
    this.permit = null;
    await this.gate?.close();
  }

  /** Registers an observer; returns its removal. */
  observe(observer: LimiterObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /**
   * Runs `task` when a slot is free and the spacing allows, highest priority first. The task calls `markSent`
   * when its request has been handed to the OS; finishing counts as sent. Right before handing it over, the task
   * asks `onTime` (the gate's permit may have lapsed meanwhile: then it must not send, and schedules again). A task
   * that refuses its request before anything left (its own check withheld it: a placement once the bot is stopping,
   * the transport closed) calls `markNotSent` instead: its slot frees at once and, nothing having reached the venue,
   * the spacing stays measured from the previous start and a gate's permit is given back unused.
   */
  schedule<T>(priority: RequestPriority, task: (markSent: () => void, onTime: () => boolean, markNotSent: () => void) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const enqueuedAt = this.now();
      const start = (permit: StartPermit | null, spacingBefore: { readonly atMs: number; readonly seq: number }): void => {
        this.emit((o) => o.onQueueWait?.(priority, Math.max(0, this.now() - enqueuedAt)));
        const entry = { startedAt: this.now() };
        this.unsent.add(entry);
        const markSent = (): void => {
          if (!this.unsent.delete(entry)) return;
          permit?.sent();
          this.lastStartAt = Math.max(this.lastStartAt, this.now());
          this.pump();
        };
        let notSent = false;
        const markNotSent = (): void => {
          // Only before it was sent: a request that reached the OS counted its start. The spacing goes back to the
          // previous start unless another start came since (then that one's is the reference).
          if (!this.unsent.delete(entry)) return;
          notSent = true;
          if (this.startSeq === spacingBefore.seq + 1) {
            this.lastStartAt = spacingBefore.atMs;
            this.startSeq = spacingBefore.seq;
          }
        };
        let running: Promise<T>;
        try {
          running = task(markSent, () => permit?.onTime?.() ?? true, markNotSent);
        } catch (error) {
          running = Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
        // Free the slot before the caller resumes, so what it schedules next sees the limiter as it is.
        const release = (): void => {
          this.inFlight -= 1;
          if (notSent) {
            permit?.cancel();
          } else {
            markSent();
            permit?.release();
          }
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
    return PRIORITY_ORDER.reduce((sum, priority) => sum + this.queues[priority].length, 0);
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
    if (this.closed) return;
    while (this.inFlight < this.config.maxConcurrent && this.queued() > 0) {
      const now = this.now();
      let earliest = Math.max(this.lastStartAt + this.config.minTimeMs, this.pausedUntilAt);
      // A request still being sent holds the next start back until it is sent, for at most maxSendWaitMs.
      for (const { startedAt } of this.unsent) earliest = Math.max(earliest, startedAt + this.config.maxSendWaitMs);
      if (now < earliest) {
        // A permit must not sit unused while this process waits (it holds back every other process): give it back.
        this.dropPermit();
        this.cancelTimer = this.setTimer(() => {
          this.cancelTimer = null;
          this.pump();
        }, Math.max(1, Math.ceil(earliest - now)));
        return;
      }
      let permit: StartPermit | null = null;
      if (this.gate) {
        if (!this.permit) {
          this.requestPermit(this.gate);
          return;
        }
        permit = this.permit;
        this.permit = null;
      }
      // Chosen now, at the start: what was queued while the permit was awaited competes on priority.
      const job = this.next();
      if (!job) {
        permit?.cancel();
        return;
      }
      this.inFlight += 1;
      const spacingBefore = { atMs: this.lastStartAt, seq: this.startSeq };
      this.lastStartAt = now;
      this.startSeq += 1;
      this.emit((o) => o.onQueueDepth?.(this.queued()));
      job.start(permit, spacingBefore);
    }
    if (this.queued() === 0) this.dropPermit();
  }

  /** Asks the gate for one permit (one request at a time); the pump runs again when it arrives. */
  private requestPermit(gate: StartGate): void {
    if (this.acquiring) return;
    this.acquiring = true;
    gate.acquire().then(
      (permit) => {
        this.acquiring = false;
        if (this.closed) {
          permit.cancel();
          return;
        }
        this.permit = permit;
        this.pump();
      },
      () => {
        // Only a closing gate rejects; nothing can start any more.
        this.acquiring = false;
      },
    );
  }

  private dropPermit(): void {
    this.permit?.cancel();
    this.permit = null;
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

/** What a registry needs to build a gated limiter on first use: the gate is made only when the limiter is. */
export interface RegistryDeps extends Omit<LimiterDeps, 'gate'> {
  readonly gate?: () => StartGate;
}

/** One limiter per credentials key (the API token id; `anonymous` for public-only clients). */
export class LimiterRegistry {
  private readonly limiters = new Map<string, { limiter: RequestLimiter; users: number }>();

  /** The limiter of `key`, created with `config` on first use (later configs for the same key are ignored). */
  get(key: string, config: Partial<LimiterConfig> = {}, deps: RegistryDeps = {}): RequestLimiter {
    return this.entry(key, config, deps).limiter;
  }

  /**
   * The limiter of `key` for one user (a transport), and its release. When the last user of a GATED limiter
   * releases it, the gate is closed (its Redis connection and timers end) and the next user gets a fresh one.
   */
  use(key: string, config: Partial<LimiterConfig> = {}, deps: RegistryDeps = {}): { readonly limiter: RequestLimiter; release(): Promise<void> } {
    const entry = this.entry(key, config, deps);
    entry.users += 1;
    let released = false;
    return {
      limiter: entry.limiter,
      release: async () => {
        if (released) return;
        released = true;
        entry.users -= 1;
        if (entry.users > 0 || entry.limiter.sharedState() === null) return;
        if (this.limiters.get(key) === entry) this.limiters.delete(key);
        await entry.limiter.close();
      },
    };
  }

  private entry(key: string, config: Partial<LimiterConfig>, deps: RegistryDeps): { limiter: RequestLimiter; users: number } {
    let entry = this.limiters.get(key);
    if (!entry) {
      const { gate, ...rest } = deps;
      entry = { limiter: new RequestLimiter(config, { ...rest, ...(gate ? { gate: gate() } : {}) }), users: 0 };
      this.limiters.set(key, entry);
    }
    return entry;
  }
}

/** The process-wide registry: clients built without an explicit limiter share their credentials' limiter here. */
export const sharedLimiters = new LimiterRegistry();
