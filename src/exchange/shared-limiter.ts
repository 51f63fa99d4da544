/**
 * One rate limit per API token across processes and hosts (several bots, one account), coordinated through Redis
 * with redis-semaphore over ioredis: a StartGate for RequestLimiter (limiter.ts), which keeps choosing WHAT starts.
 *
 * A start takes, in this order (always this order, so no two processes can wait on each other):
 * 1. the token's start mutex (`mutex:om:rl:<hash>:start`), held from before the start until `minTimeMs` after the
 *    request was SENT (re-leased with PX minTimeMs at `permit.sent()`): starts of every process are spaced by at
 *    least minTimeMs from the previous send, whoever sent it;
 * 2. one of `maxConcurrent` leased permits of the token's semaphore (`semaphore:om:rl:<hash>:inflight`), given back
 *    when the request finishes.
 * Both are leases: a killed process's mutex expires after `holdMs`, its permit after `leaseMs` (refreshed while its
 * request runs). Keys derive from a hash of the API token id, never from the secret.
 *
 * Redis unreachable (connection lost, command failed or timed out): the gate falls back at once to a conservative
 * share of the budget with no coordination: at most 1 request in flight, and starts only in this process's own
 * wall-clock slot (shared-limiter-slots.ts; the slot index was leased from Redis while it was up, as a member
 * mutex). It probes Redis every `probeMs` and returns to shared mode when a command succeeds again. The state is
 * reported to listeners (metrics, log, /readyz) on every change. A fallback start counts when it is SENT: one whose
 * slot window passed while it was prepared (a loaded event loop) is not sent (StartPermit.onTime) but waits for the
 * next slot; and each switch of mode is followed by a quiet period (`quietAfterSwitch`), since the processes switch
 * at different moments and neither side sees the other's starts.
 *
 * Owns: the Redis keys and leases of a token, and the shared/fallback mode. Invariants: `acquire` never rejects
 * while open (a Redis failure becomes fallback, never an error to the request); every permit's sent/release/cancel
 * acts once; the Redis URL and credentials never appear in a state reason.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Mutex, Semaphore } from 'redis-semaphore';
import type { SharedLimitState, StartGate, StartPermit } from './limiter.js';
import { guessSlotIndex, nextSlotStart, type SlotPlan } from './shared-limiter-slots.js';
import { errorText } from '../core/errors.js';

/** The Redis client and lock libraries, loaded by the first gate built: a bot without `rateLimits.shared` never loads
 * them (about 0.15–0.2 s of CPU at every start; both are CommonJS, so a synchronous require keeps the gate's
 * constructor synchronous). */
interface RedisLibraries {
  readonly ioredis: typeof import('ioredis');
  readonly locks: typeof import('redis-semaphore');
}
const requireHere = createRequire(import.meta.url);
let redisLibraries: RedisLibraries | null = null;
function redisLibs(): RedisLibraries {
  redisLibraries ??= { ioredis: requireHere('ioredis') as RedisLibraries['ioredis'], locks: requireHere('redis-semaphore') as RedisLibraries['locks'] };
  return redisLibraries;
}

export interface SharedLimiterOptions {
  /** redis:// or rediss:// URL (may carry a password: never logged). */
  readonly redisUrl: string;
  /** The API token id: the keys derive from its hash. */
  readonly tokenId: string;
  /** The venue's limits (config rateLimits). */
  readonly maxConcurrent: number;
  readonly minTimeMs: number;
  /** Share of the budget this process may use while Redis is unreachable, in (0, 1] (default 1/3). */
  readonly fallbackShare?: number;
  /** Margin added to minTimeMs per fallback slot (default 200 ms): covers send delay and clock skew. */
  readonly fallbackGuardMs?: number;
  /** Lease of an in-flight permit (refreshed while the request runs; default 5000 ms). */
  readonly leaseMs?: number;
  /** Lease of the start mutex before the request is sent (default 3000 ms). */
  readonly holdMs?: number;
  /** Lease of the member slot (default 15000 ms, refreshed every third of it). */
  readonly memberLeaseMs?: number;
  /** How often Redis is probed while in fallback (default 1000 ms). */
  readonly probeMs?: number;
  /** Redis command timeout (default 2500 ms: a loaded host's slow answer is not an outage). */
  readonly commandTimeoutMs?: number;
  /** Key namespace (default `om:rl`). */
  readonly keyPrefix?: string;
  /** Wall clock (ms since epoch) for fallback slots and states. */
  readonly now?: () => number;
}

export const DEFAULT_FALLBACK_SHARE = 1 / 3;
const MAX_MEMBERS = 32;
const POLL_MS = 5;

/** The key base of a token: a hash of its id (the id itself is not needed in Redis, the secret never is). */
export function sharedKeyBase(tokenId: string, prefix = 'om:rl'): string {
  return `${prefix}:${createHash('sha256').update(tokenId, 'utf8').digest('hex').slice(0, 16)}`;
}

/** Slots per fallback round: at least 1/share, and at least the processes seen on the token. */
export function fallbackSlots(share: number, members: number): number {
  return Math.max(Math.ceil(1 / share - 1e-9), members, 1);
}

/** A Redis URL with any password replaced by `***` (for messages). */
export function redactRedisUrl(url: string): string {
  if (!URL.canParse(url)) return '[unparseable URL]';
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  if (parsed.username !== '' && parsed.password === '') parsed.username = '***';
  return parsed.toString();
}

function describe(error: unknown): string {
  const text = errorText(error);
  // ioredis messages name host:port at most; keep them short and free of URLs.
  return text.replace(/rediss?:\/\/\S+/g, '[redis]').slice(0, 160);
}

type Waiter = () => void;

export class RedisStartGate implements StartGate {
  private readonly client: Redis;
  /** Mutex, Semaphore and their TimeoutError (redis-semaphore), loaded with the client. */
  private readonly locks = redisLibs().locks;
  private readonly base: string;
  private readonly maxConcurrent: number;
  private readonly minTimeMs: number;
  private readonly share: number;
  private readonly guardMs: number;
  private readonly leaseMs: number;
  private readonly holdMs: number;
  private readonly memberLeaseMs: number;
  private readonly probeMs: number;
  private readonly now: () => number;
  private current: SharedLimitState;
  private readonly listeners = new Set<(state: SharedLimitState) => void>();
  private readonly abort = new AbortController();
  private readonly firstContact: Promise<void>;
  private closed = false;
  private probeTimer: NodeJS.Timeout | null = null;
  private memberTimer: NodeJS.Timeout | null = null;
  private member: { index: number; mutex: Mutex; stop: () => void } | null = null;
  private members = 0;
  /** The member slot last held (kept through an outage: the fallback slot). */
  private lastMemberIndex: number | null = null;
  /** The slot guessed when Redis was never reached (logged in the state reason). */
  private guessedIndex: number | null = null;
  private fallbackInFlight = 0;
  private lastFallbackSlot: number | null = null;
  private readonly fallbackWaiters: Waiter[] = [];
  private recovering = false;
  /**
   * No start of this process before this wall-clock instant: set when the mode switches, because the processes do
   * not switch at the same moment (see `quietAfterSwitch`).
   */
  private quietUntilMs = 0;

  constructor(options: SharedLimiterOptions) {
    const share = options.fallbackShare ?? DEFAULT_FALLBACK_SHARE;
    if (!(share > 0 && share <= 1)) throw new RangeError(`rateLimits.shared.fallbackShare must be in (0, 1] (got ${share})`);
    if (!Number.isInteger(options.maxConcurrent) || options.maxConcurrent < 1) throw new RangeError(`shared limiter maxConcurrent must be an integer >= 1 (got ${options.maxConcurrent})`);
    this.base = sharedKeyBase(options.tokenId, options.keyPrefix);
    this.maxConcurrent = options.maxConcurrent;
    this.minTimeMs = Math.max(0, options.minTimeMs);
    this.share = share;
    this.guardMs = options.fallbackGuardMs ?? 200;
    this.leaseMs = options.leaseMs ?? 5000;
    this.holdMs = options.holdMs ?? 3000;
    this.memberLeaseMs = options.memberLeaseMs ?? 15_000;
    this.probeMs = options.probeMs ?? 1000;
    this.now = options.now ?? Date.now;
    this.current = { mode: 'fallback', reason: 'connecting to redis', sinceMs: this.now() };
    this.client = new (redisLibs().ioredis.Redis)(options.redisUrl, {
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 2500,
      connectTimeout: 2000,
      // Keep reconnecting for as long as the bot runs (fallback meanwhile).
      retryStrategy: (times) => Math.min(250 * times, 2000),
    });
    let contacted: () => void = () => undefined;
    this.firstContact = new Promise<void>((resolve) => {
      contacted = resolve;
    });
    // A first connection that never comes still lets requests through (in fallback) after the connect timeout.
    const contactTimer = setTimeout(contacted, 2500);
    contactTimer.unref();
    this.client.on('ready', () => {
      void this.recover().finally(contacted);
    });
    this.client.on('error', (error: unknown) => {
      this.fallback(`redis unreachable: ${describe(error)}`);
      contacted();
    });
    this.client.on('close', () => this.fallback('redis connection lost'));
  }

  state(): SharedLimitState {
    return this.current;
  }

  onState(listener: (state: SharedLimitState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The slot this process uses in fallback, and the slots per round (tests, docs). */
  fallbackPlan(): SlotPlan {
    const slots = fallbackSlots(this.share, this.members);
    const slotMs = this.minTimeMs + this.guardMs;
    const index = this.member?.index ?? this.lastMemberIndex ?? this.guessIndex(slots);
    return { slotMs, windowMs: Math.max(1, Math.floor(this.guardMs / 2)), slots, index: index % slots };
  }

  async acquire(): Promise<StartPermit> {
    await this.firstContact;
    // A fallback request still running counts against the shared budget too: wait for it first.
    while (this.fallbackInFlight > 0) await this.waitFallbackRelease();
    for (;;) {
      if (this.closed) throw new Error('shared limiter closed');
      if (await this.waitQuiet()) continue;
      if (this.current.mode === 'shared') {
        try {
          const permit = await this.acquireShared();
          if (permit) return permit;
        } catch (error) {
          if (this.closed) throw new Error('shared limiter closed');
          await this.failed(error);
        }
        continue;
      }
      const permit = await this.acquireFallback();
      if (permit) return permit;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    if (this.probeTimer) clearTimeout(this.probeTimer);
    if (this.memberTimer) clearInterval(this.memberTimer);
    for (const wake of this.fallbackWaiters.splice(0)) wake();
    const member = this.member;
    this.member = null;
    if (member) {
      member.stop();
      await member.mutex.release().catch(() => undefined);
    }
    this.client.disconnect(false);
  }

  // ───────────── shared mode ─────────────

  /** Mutex then semaphore permit; null when a lock wait timed out (try again). Throws on a Redis failure. */
  private async acquireShared(): Promise<StartPermit | null> {
    // Leases are refreshed by keepAlive (errors caught), never by the library's own timer: a refresh failing while
    // Redis is down must become fallback, not an unhandled rejection.
    const startKey = `${this.base}:start`;
    const startMutex = new this.locks.Mutex(this.client, startKey, { lockTimeout: this.holdMs, acquireTimeout: 10_000, retryInterval: POLL_MS, refreshInterval: 0 });
    if (!(await this.tryLock(startMutex))) return null;
    const stopHold = this.keepAlive(() => this.refreshMutex(startKey, startMutex.identifier, this.holdMs), this.holdMs / 3);
    const inflightKey = `${this.base}:inflight`;
    const inflight = new this.locks.Semaphore(this.client, inflightKey, this.maxConcurrent, { lockTimeout: this.leaseMs, acquireTimeout: 15_000, retryInterval: POLL_MS, refreshInterval: 0 });
    try {
      if (!(await this.tryLock(inflight))) {
        stopHold();
        await startMutex.release().catch(() => undefined);
        return null;
      }
    } catch (error) {
      stopHold();
      await startMutex.release().catch(() => undefined);
      throw error;
    }
    const stopLease = this.keepAlive(
      () => new this.locks.Semaphore(this.client, inflightKey, this.maxConcurrent, { identifier: inflight.identifier, acquiredExternally: true, lockTimeout: this.leaseMs, refreshInterval: 0 }).tryAcquire(),
      this.leaseMs / 3,
    );
    return this.sharedPermit(startMutex, stopHold, inflight, stopLease);
  }

  /** Re-leases a mutex this process holds to expire `ms` from now; false when it is no longer held. */
  private refreshMutex(key: string, identifier: string, ms: number): Promise<boolean> {
    return new this.locks.Mutex(this.client, key, { identifier, acquiredExternally: true, lockTimeout: ms, refreshInterval: 0 }).tryAcquire();
  }

  /** Refreshes a lease every `everyMs` until stopped or lost; a failure means Redis is unreachable (fallback). */
  private keepAlive(refresh: () => Promise<boolean>, everyMs: number, onLost?: () => void): () => void {
    const timer = setInterval(() => {
      if (this.closed) {
        clearInterval(timer);
        return;
      }
      refresh().then(
        (held) => {
          if (held) return;
          clearInterval(timer);
          onLost?.();
        },
        (error: unknown) => void this.failed(error),
      );
    }, Math.max(20, Math.floor(everyMs)));
    timer.unref();
    return () => clearInterval(timer);
  }

  /** false on a lock wait timeout; a Redis error is thrown. */
  private async tryLock(lock: Mutex | Semaphore): Promise<boolean> {
    try {
      await lock.acquire(this.abort.signal);
      return true;
    } catch (error) {
      if (error instanceof this.locks.TimeoutError) return false;
      throw error;
    }
  }

  private sharedPermit(startMutex: Mutex, stopHold: () => void, inflight: Semaphore, stopLease: () => void): StartPermit {
    let sent = false;
    let done = false;
    const startKey = `${this.base}:start`;
    const markSent = (): void => {
      if (sent) return;
      sent = true;
      stopHold();
      if (this.minTimeMs <= 0) {
        void startMutex.release().catch(() => undefined);
        return;
      }
      // The same lock, re-leased to expire minTimeMs from now: the next start of any process waits that long.
      this.refreshMutex(startKey, startMutex.identifier, this.minTimeMs).catch((error: unknown) => void this.failed(error));
    };
    return {
      sent: markSent,
      release: () => {
        markSent();
        if (done) return;
        done = true;
        stopLease();
        void inflight.release().catch(() => undefined);
      },
      cancel: () => {
        if (done) return;
        done = true;
        sent = true;
        stopHold();
        stopLease();
        void startMutex.release().catch(() => undefined);
        void inflight.release().catch(() => undefined);
      },
    };
  }

  // ───────────── fallback mode ─────────────

  private guessIndex(slots: number): number {
    this.guessedIndex ??= guessSlotIndex(`${process.pid}:${this.base}`, slots);
    return this.guessedIndex;
  }

  /** A permit in this process's slot; null after a wait (the caller re-checks the mode: Redis may be back). */
  private async acquireFallback(): Promise<StartPermit | null> {
    while (this.fallbackInFlight > 0) await this.waitFallbackRelease();
    if (this.closed) throw new Error('shared limiter closed');
    const plan = this.fallbackPlan();
    const now = this.now();
    const next = nextSlotStart(now, plan, this.lastFallbackSlot);
    if (next.atMs > now) {
      await this.sleep(next.atMs - now);
      return null;
    }
    // The start counts when the request is SENT: past its slot's window (a loaded event loop between this permit and
    // the wire) it would land in the next process's slot, so it is not sent then (StartPermit.onTime).
    const windowEndMs = next.slot * plan.slotMs + plan.windowMs;
    const previousSlot = this.lastFallbackSlot;
    this.lastFallbackSlot = next.slot;
    this.fallbackInFlight += 1;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      this.fallbackInFlight -= 1;
      for (const wake of this.fallbackWaiters.splice(0)) wake();
    };
    return {
      sent: () => undefined,
      release: finish,
      cancel: () => {
        if (!done && this.lastFallbackSlot === next.slot) this.lastFallbackSlot = previousSlot;
        finish();
      },
      onTime: () => this.now() < windowEndMs,
    };
  }

  private waitFallbackRelease(): Promise<void> {
    return new Promise((resolve) => this.fallbackWaiters.push(resolve));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.abort.signal.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(1, Math.ceil(ms)));
      this.abort.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Sleeps out the quiet period after a mode switch; true when it slept (the caller re-checks the mode). */
  private async waitQuiet(): Promise<boolean> {
    const waitMs = this.quietUntilMs - this.now();
    if (waitMs <= 0) return false;
    await this.sleep(waitMs);
    return true;
  }

  /**
   * The processes of a token do not switch modes at the same moment, and neither side of a switch sees the other's
   * starts. Into fallback: another process's last shared start (sent under the start mutex just before the outage,
   * perhaps late on a loaded loop) is unknown, so this process's first fallback start waits one slot. Back to shared
   * after an outage: the others may stay in fallback, starting in their slots, until their next probe; this process's
   * first shared start waits a probe interval and a slot, by which time they have come back too.
   */
  private quietAfterSwitch(from: SharedLimitState, to: SharedLimitState['mode']): void {
    const slotMs = this.minTimeMs + this.guardMs;
    if (from.mode === 'shared' && to === 'fallback') this.quietUntilMs = Math.max(this.quietUntilMs, this.now() + slotMs);
    if (from.mode === 'fallback' && to === 'shared' && from.reason !== 'connecting to redis') this.quietUntilMs = Math.max(this.quietUntilMs, this.now() + this.probeMs + slotMs);
  }

  // ───────────── health ─────────────

  private setState(mode: SharedLimitState['mode'], reason: string | null): void {
    if (this.current.mode === mode && (mode === 'shared' || this.current.reason === reason)) return;
    if (mode === 'fallback' && this.current.mode === 'fallback' && this.current.reason !== 'connecting to redis') return;
    this.quietAfterSwitch(this.current, mode);
    this.current = { mode, reason, sinceMs: this.now() };
    for (const listener of this.listeners) {
      try {
        listener(this.current);
      } catch {
        // a listener must never break the limiter
      }
    }
  }

  /**
   * A Redis command failed. On a live connection one slow answer (a loaded host) is not an outage: a PING decides;
   * only if it fails too (or the connection is down) does the gate fall back. Falling back while the other processes
   * still coordinate through Redis costs a collision, so it is not done lightly.
   */
  private async failed(error: unknown): Promise<void> {
    if (this.closed || this.current.mode === 'fallback') return;
    if (this.client.status === 'ready') {
      try {
        await this.client.ping();
        return;
      } catch {
        // unreachable indeed
      }
    }
    this.fallback(`redis command failed: ${describe(error)}`);
  }

  private fallback(reason: string): void {
    if (this.closed) return;
    const plan = this.fallbackPlan();
    const where = this.member || this.lastMemberIndex !== null ? '' : ' (slot guessed: redis never reached)';
    this.setState('fallback', `${reason}; fallback: 1 in flight, slot ${plan.index + 1} of ${plan.slots}${where}`);
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.closed || this.probeTimer) return;
    this.probeTimer = setTimeout(() => {
      this.probeTimer = null;
      void this.recover();
    }, this.probeMs);
    this.probeTimer.unref();
  }

  /** Checks Redis, claims a member slot, then returns to shared mode; on failure stays in fallback and probes again. */
  private async recover(): Promise<void> {
    if (this.closed || this.recovering) return;
    this.recovering = true;
    try {
      if (this.client.status !== 'ready') throw new Error(`redis connection ${this.client.status}`);
      await this.client.ping();
      await this.claimMember();
      await this.countMembers();
      this.memberTimer ??= setInterval(() => {
        void this.countMembers().catch(() => undefined);
        if (!this.member && this.current.mode === 'shared') void this.claimMember().catch(() => undefined);
      }, Math.max(100, Math.floor(this.memberLeaseMs / 3)));
      this.memberTimer.unref();
      this.setState('shared', null);
    } catch (error) {
      this.fallback(`redis unreachable: ${describe(error)}`);
    } finally {
      this.recovering = false;
    }
  }

  /** The lowest free member slot of the token (a leased mutex, refreshed while this process lives). */
  private async claimMember(): Promise<void> {
    if (this.member) {
      await this.client.ping();
      return;
    }
    for (let index = 0; index < MAX_MEMBERS; index++) {
      const key = `${this.base}:member:${index}`;
      const mutex = new this.locks.Mutex(this.client, key, { lockTimeout: this.memberLeaseMs, acquireAttemptsLimit: 1, refreshInterval: 0 });
      if (await mutex.tryAcquire()) {
        const member = { index, mutex, stop: () => undefined as void };
        member.stop = this.keepAlive(() => this.refreshMutex(key, mutex.identifier, this.memberLeaseMs), this.memberLeaseMs / 3, () => {
          if (this.member === member) this.member = null;
        });
        this.member = member;
        this.lastMemberIndex = index;
        return;
      }
    }
    // More processes than slots: share the last one (best effort, logged through the state reason).
    this.lastMemberIndex = MAX_MEMBERS - 1;
  }

  /** How many member slots are in use (the highest taken index + 1): the number of slots per fallback round. */
  private async countMembers(): Promise<void> {
    const keys = Array.from({ length: MAX_MEMBERS }, (_, i) => `mutex:${this.base}:member:${i}`);
    const values = await this.client.mget(...keys);
    let highest = -1;
    values.forEach((value, index) => {
      if (value !== null) highest = index;
    });
    this.members = highest + 1;
  }
}

/** Builds the gate of a token from the bot's settings. */
export function createSharedGate(options: SharedLimiterOptions): RedisStartGate {
  return new RedisStartGate(options);
}
