/**
 * Whether the venue answers, as the running bot's REST requests find it: a request that got no answer at all
 * (connection refused, DNS, timeout) makes the venue unreachable until the next request that gets any HTTP answer.
 * The bot keeps retrying meanwhile (its requotes, book checks and ledger checks go on); this says so plainly, once
 * per outage, and tells /readyz.
 *
 * Owns: the reachable/unreachable state, its two log lines and the readiness reason. Invariants: one warning when
 * the venue stops answering and one info line when it answers again, never one per failed request, and neither
 * before `running()` (start-up logs its own retries: src/venue/startup-retry.ts); the reason
 * names the venue's URL and the cause (ECONNREFUSED, "timed out", …); any HTTP answer, even an error status, is
 * an answer.
 */
import type { Logger } from 'pino';
import type { TransportObserver } from '../exchange/http.js';
import { noAnswerCause } from './startup-retry.js';

export class VenueReachability {
  private unreachable: { readonly sinceMs: number; readonly cause: string; readonly endpoint: string; logged: boolean } | null = null;
  private isRunning = false;

  constructor(
    private readonly options: {
      /** The venue as logs name it (its REST base URL). */
      readonly url: string;
      readonly log: Logger;
      readonly now: () => number;
    },
  ) {}

  /** The transport hooks that feed it (combine with the telemetry's). */
  readonly observer: Required<Pick<TransportObserver, 'onRequestEnd' | 'onNoAnswer'>> = {
    onRequestEnd: (_endpoint, status) => {
      if (typeof status === 'number') this.answered();
    },
    onNoAnswer: (endpoint, failure, detail) => this.noAnswer(endpoint, noAnswerCause(failure, detail)),
  };

  /** The bot has started: outages are logged from now on (one already under way is logged at its next failure). */
  running(): void {
    this.isRunning = true;
  }

  /** Why /readyz should say not ready, or null while the venue answers. */
  readinessReason(): string | null {
    return this.unreachable === null ? null : `venue unreachable: ${this.options.url} (${this.unreachable.cause})`;
  }

  private noAnswer(endpoint: string, cause: string): void {
    // The outage's start and its one log line stay; its cause is the latest (a request cut short as the venue went away
    // reads ECONNRESET, the ones after it ECONNREFUSED: /readyz says what fails now).
    this.unreachable = this.unreachable === null ? { sinceMs: this.options.now(), cause, endpoint, logged: false } : { ...this.unreachable, cause, endpoint };
    if (this.unreachable.logged || !this.isRunning) return;
    this.unreachable.logged = true;
    this.options.log.warn({ venue: this.options.url, endpoint, cause }, 'venue unreachable: requests get no answer; retrying, not ready until it answers');
  }

  private answered(): void {
    if (this.unreachable === null) return;
    const { sinceMs, logged } = this.unreachable;
    this.unreachable = null;
    if (logged) this.options.log.info({ venue: this.options.url, downMs: this.options.now() - sinceMs }, 'venue reachable again');
  }
}
