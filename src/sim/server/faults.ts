/**
 * HTTP fault injection for chaos tests: a fixed answer delay, and "answer the next N requests (optionally
 * only those whose path starts with a prefix) with 401, 429, 500 or 503".
 *
 * Owns: the fault rules and their consumption. Invariants: rules are consumed in the order they were added,
 * one per request; a rule with `phase: 'after'` lets the request take effect and only replaces its answer
 * (an unknown outcome for the client), `before` answers without touching state. Admin routes are never
 * subject to faults (the server does not consult this module for them).
 */

/** 401: a token revoked mid-run (the venue refusing credentials it accepted a moment ago). */
export const INJECTABLE_STATUSES = [401, 429, 500, 503] as const;
export type InjectableStatus = (typeof INJECTABLE_STATUSES)[number];

export interface FailureRuleInput {
  readonly status: InjectableStatus;
  readonly count: number;
  readonly pathPrefix?: string;
  /** `before` (default): answer without handling. `after`: handle the request, then answer with the failure. */
  readonly phase?: 'before' | 'after';
  /** Retry-After seconds on an injected 429 (default 1). */
  readonly retryAfterSeconds?: number;
}

export interface FailureRule {
  readonly id: number;
  readonly status: InjectableStatus;
  remaining: number;
  readonly pathPrefix: string | null;
  readonly phase: 'before' | 'after';
  readonly retryAfterSeconds: number;
}

export class FaultInputError extends Error {
  override readonly name = 'FaultInputError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${JSON.stringify(value)})`);
  }
}

export class FaultInjector {
  private delay = 0;
  private rules: FailureRule[] = [];
  private nextId = 1;

  get delayMs(): number {
    return this.delay;
  }

  setDelay(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > 600_000) throw new FaultInputError('delayMs', ms, 'must be an integer in [0, 600000]');
    this.delay = ms;
  }

  addFailures(input: FailureRuleInput): FailureRule {
    if (!INJECTABLE_STATUSES.includes(input.status)) {
      throw new FaultInputError('status', input.status, `must be one of ${INJECTABLE_STATUSES.join(', ')}`);
    }
    if (!Number.isSafeInteger(input.count) || input.count < 1) throw new FaultInputError('count', input.count, 'must be an integer >= 1');
    if (input.pathPrefix !== undefined && !input.pathPrefix.startsWith('/')) {
      throw new FaultInputError('pathPrefix', input.pathPrefix, "must start with '/'");
    }
    const retryAfter = input.retryAfterSeconds ?? 1;
    if (!Number.isSafeInteger(retryAfter) || retryAfter < 0) throw new FaultInputError('retryAfterSeconds', retryAfter, 'must be an integer >= 0');
    const rule: FailureRule = {
      id: this.nextId++,
      status: input.status,
      remaining: input.count,
      pathPrefix: input.pathPrefix ?? null,
      phase: input.phase ?? 'before',
      retryAfterSeconds: retryAfter,
    };
    this.rules.push(rule);
    return rule;
  }

  /** Consumes and returns the first rule that applies to `path` (path without query), or null. */
  take(path: string): FailureRule | null {
    const rule = this.rules.find((r) => r.remaining > 0 && (r.pathPrefix === null || path.startsWith(r.pathPrefix)));
    if (!rule) return null;
    rule.remaining -= 1;
    if (rule.remaining === 0) this.rules = this.rules.filter((r) => r !== rule);
    return rule;
  }

  pending(): readonly FailureRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
    this.delay = 0;
  }
}
