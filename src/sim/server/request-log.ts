/**
 * The simulator's request log: every non-admin HTTP request with its status and outcome, plus per-token
 * counters, so chaos tests can assert e.g. that the bot never triggered the rate limiter.
 *
 * Owns: a bounded ring of entries (with what a route reported of the request's content, e.g. the markets a
 * cancel-replace batch named) and running per-token counts. Invariants: counts cover every request
 * since the last `clear()` even after old entries fall out of the ring; a 429 is counted as `rateLimited`
 * only when the rate limiter produced it, injected faults are counted separately.
 */

import type { RequestLogDetail } from './router.js';

export type { RequestLogDetail } from './router.js';

export type RequestOutcome = 'handled' | 'rate_limited' | 'injected' | 'error';

export interface RequestLogEntry {
  readonly seq: number;
  readonly atMs: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly tokenId: string | null;
  readonly durationMs: number;
  readonly outcome: RequestOutcome;
  /**
   * The request's signed timestamp (the auth timestamp header, ms since epoch): when the client built it, so a check can
   * tell what the client could have known then from when its request happened to arrive. Absent on unsigned requests.
   */
  readonly signedAtMs?: number;
  /** Content the route reported (POST /orders/cancel-replace/batch: the markets and the number of its operations). */
  readonly detail?: RequestLogDetail;
}

export interface TokenRequestStats {
  requests: number;
  /** 429 answers produced by the rate limiter. */
  rateLimited: number;
  /** Answers replaced by an injected fault (any status). */
  injected: number;
  /** Answers with status >= 400 (all causes). */
  errors: number;
}

export class RequestLog {
  private ring: RequestLogEntry[] = [];
  private seq = 0;
  private readonly perToken = new Map<string, TokenRequestStats>();

  constructor(private readonly capacity = 10_000) {}

  record(entry: Omit<RequestLogEntry, 'seq'>): RequestLogEntry {
    const full: RequestLogEntry = { seq: ++this.seq, ...entry };
    this.ring.push(full);
    if (this.ring.length > this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
    const key = entry.tokenId ?? '(none)';
    let stats = this.perToken.get(key);
    if (!stats) {
      stats = { requests: 0, rateLimited: 0, injected: 0, errors: 0 };
      this.perToken.set(key, stats);
    }
    stats.requests += 1;
    if (entry.outcome === 'rate_limited') stats.rateLimited += 1;
    if (entry.outcome === 'injected') stats.injected += 1;
    if (entry.status >= 400) stats.errors += 1;
    return full;
  }

  /** The newest `limit` entries (oldest first), optionally only those after sequence number `sinceSeq`. */
  entries(options: { limit?: number; sinceSeq?: number } = {}): RequestLogEntry[] {
    const since = options.sinceSeq ?? 0;
    const selected = this.ring.filter((e) => e.seq > since);
    return options.limit === undefined ? selected : selected.slice(-options.limit);
  }

  /** Per-token counts; requests without a known token are under `(none)`. */
  tokenStats(): Record<string, TokenRequestStats> {
    const out: Record<string, TokenRequestStats> = {};
    for (const [key, stats] of this.perToken) out[key] = { ...stats };
    return out;
  }

  clear(): void {
    this.ring = [];
    this.perToken.clear();
  }
}
