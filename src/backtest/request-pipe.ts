/**
 * The request model of the backtest: one rate-limited queue per account, like the bot's limiter (at most
 * `maxConcurrent` requests in flight, at least `minRequestSpacingMs` between starts), and a fixed one-way
 * delay: a request acts on the venue `oneWayMs` after it starts and its answer arrives `oneWayMs` later.
 *
 * Invariants: requests start in the order they were sent (FIFO), never before they are ready, never
 * closer than the spacing, never more than `maxConcurrent` at once; start, land and answer times are
 * non-decreasing from one request to the next. Pure arithmetic over virtual time: no clock, no timers.
 */
import type { LatencyModel } from './options.js';

export interface RequestTiming {
  /** When the limiter lets the request go. */
  readonly startMs: number;
  /** When it acts on the venue. */
  readonly landMs: number;
  /** When its answer is back. */
  readonly answerMs: number;
}

export class RequestPipe {
  private lastStartMs = Number.NEGATIVE_INFINITY;
  /** Answer times of the most recent `maxConcurrent` requests, oldest first. */
  private readonly recentAnswers: number[] = [];
  private sent = 0;

  constructor(private readonly model: LatencyModel) {}

  /** Queues a request that is ready at `readyMs`; returns when it starts, lands and is answered. */
  send(readyMs: number): RequestTiming {
    let startMs = Math.max(readyMs, this.lastStartMs + this.model.minRequestSpacingMs);
    if (this.recentAnswers.length >= this.model.maxConcurrent) {
      startMs = Math.max(startMs, this.recentAnswers[this.recentAnswers.length - this.model.maxConcurrent] ?? startMs);
    }
    const landMs = startMs + this.model.oneWayMs;
    const answerMs = landMs + this.model.oneWayMs;
    this.lastStartMs = startMs;
    this.recentAnswers.push(answerMs);
    if (this.recentAnswers.length > this.model.maxConcurrent) this.recentAnswers.shift();
    this.sent += 1;
    return { startMs, landMs, answerMs };
  }

  /** Requests sent so far. */
  get count(): number {
    return this.sent;
  }
}
