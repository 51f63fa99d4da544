/**
 * The request model of the backtest: one rate-limited queue per account, like the bot's limiter
 * (src/exchange/limiter.ts): at most `maxConcurrent` requests in flight, at least `minRequestSpacingMs` between
 * starts, and the waiting request that starts next chosen AT the start, by the account's classes (sweep > cancel > probe >
 * place > read, src/core/request-priority.ts), first come first served within a class. A request acts on the venue
 * `oneWayMs` after it starts and its answer arrives `oneWayMs` later; its in-flight slot is held until then, or
 * freed at once when it leaves without acting (`withhold`: its own check refused it as it left, nothing sent).
 *
 * Pure state over virtual time: no clock, no timers. The caller (./latency-venue.ts) asks `nextStartMs(now)` and
 * calls `start(now)` then.
 *
 * Invariants: a request never starts before it was queued, never closer than the spacing to the previous start
 * that acted (a withheld one sent nothing: as in the bot's limiter, it leaves the spacing as it was), never while `maxConcurrent` are in flight; the
 * one that starts is the most urgent waiting at that moment, the earliest queued of its class; start times are
 * non-decreasing.
 */
import { PRIORITY_ORDER, type RequestPriority } from '../core/request-priority.js';
import type { LatencyModel } from './options.js';

export interface RequestTiming {
  /** When the limiter lets the request go. */
  readonly startMs: number;
  /** When it acts on the venue. */
  readonly landMs: number;
  /** When its answer is back. */
  readonly answerMs: number;
}

/** A request that left the queue: what it carries, its timing, and its handle for `withhold`. */
export interface StartedRequest<T> {
  readonly id: number;
  readonly item: T;
  readonly priority: RequestPriority;
  readonly timing: RequestTiming;
}

export class RequestPipe<T> {
  private readonly queues: Readonly<Record<RequestPriority, T[]>> = { sweep: [], cancel: [], probe: [], place: [], read: [] };
  private lastStartMs = Number.NEGATIVE_INFINITY;
  /** The latest start and the spacing's reference before it (restored if that request is withheld). */
  private latestStart: { readonly id: number; readonly before: number } | null = null;
  /** End of the in-flight slot of each started request not known to be over, by id. */
  private readonly slots = new Map<number, number>();
  private nextId = 0;
  private acted = 0;
  private withheldCount = 0;

  constructor(private readonly model: LatencyModel) {}

  /** Queues a request of class `priority` (it waits behind the earlier ones of its class). */
  enqueue(priority: RequestPriority, item: T): void {
    this.queues[priority].push(item);
  }

  /** Requests waiting to start. */
  get queued(): number {
    return PRIORITY_ORDER.reduce((sum, priority) => sum + this.queues[priority].length, 0);
  }

  /** The earliest moment at or after `nowMs` a waiting request may start; null when none waits. */
  nextStartMs(nowMs: number): number | null {
    if (this.queued === 0) return null;
    let atMs = Math.max(nowMs, this.lastStartMs + this.model.minRequestSpacingMs);
    const ends = [...this.slots.values()].filter((end) => end > nowMs).sort((a, b) => a - b);
    // With maxConcurrent in flight, the next start waits until enough of them ended to leave one slot free.
    if (ends.length >= this.model.maxConcurrent) atMs = Math.max(atMs, ends[ends.length - this.model.maxConcurrent] ?? atMs);
    return atMs;
  }

  /** Starts the most urgent waiting request at `nowMs`, if one may start then; null otherwise. */
  start(nowMs: number): StartedRequest<T> | null {
    const atMs = this.nextStartMs(nowMs);
    if (atMs === null || atMs > nowMs) return null;
    for (const [id, end] of this.slots) if (end <= nowMs) this.slots.delete(id);
    for (const priority of PRIORITY_ORDER) {
      const item = this.queues[priority].shift();
      if (item === undefined) continue;
      const id = this.nextId;
      this.nextId += 1;
      const landMs = nowMs + this.model.oneWayMs;
      const timing = { startMs: nowMs, landMs, answerMs: landMs + this.model.oneWayMs };
      this.latestStart = { id, before: this.lastStartMs };
      this.lastStartMs = nowMs;
      this.slots.set(id, timing.answerMs);
      this.acted += 1;
      return { id, item, priority, timing };
    }
    return null;
  }

  /**
   * The started request `id` left without acting at `atMs` (its own check withheld it as it left: call at its start):
   * its slot is free from then, the next start is spaced from the previous request that acted (nothing was sent), and
   * it counts as withheld, not as a request that acted.
   */
  withhold(id: number, atMs: number): void {
    if (!this.slots.has(id)) return;
    this.slots.set(id, atMs);
    if (this.latestStart?.id === id) this.lastStartMs = this.latestStart.before;
    this.acted -= 1;
    this.withheldCount += 1;
  }

  /** Requests that started and acted on the venue (withheld ones not included). */
  get count(): number {
    return this.acted;
  }

  /** Requests withheld as they left (a placement past its market's stop, a trading mode that refuses it, a stop). */
  get withheld(): number {
    return this.withheldCount;
  }
}
