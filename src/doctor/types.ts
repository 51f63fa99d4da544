import { errorText } from '../core/errors.js';
/**
 * The shapes of a doctor run: one CheckResult per line (pass, warn, fail or skip, with what to do) and the
 * report that `--json` prints as one object.
 *
 * Owns: those shapes and the summary rule. Invariant: `ok` is false exactly when some check failed; a warning
 * never fails the run.
 */

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  /** Stable id, e.g. `clock`, `market:btc-100k` (for scripts reading `--json`). */
  readonly id: string;
  /** Short human title. */
  readonly title: string;
  readonly status: CheckStatus;
  /** What was found. */
  readonly message: string;
  /** What to do about a warning or a failure. */
  readonly fix?: string;
  /** Figures behind the verdict (numbers as read, raw units named in the key). */
  readonly data?: Readonly<Record<string, unknown>>;
}

export interface DoctorReport {
  readonly ok: boolean;
  readonly config: string;
  /** When the run started (ISO-8601). */
  readonly at: string;
  readonly counts: Readonly<Record<CheckStatus, number>>;
  readonly checks: readonly CheckResult[];
}

export function check(id: string, title: string, status: CheckStatus, message: string, fix?: string, data?: Readonly<Record<string, unknown>>): CheckResult {
  return { id, title, status, message, ...(fix === undefined ? {} : { fix }), ...(data === undefined ? {} : { data }) };
}

export function summarize(config: string, atMs: number, checks: readonly CheckResult[]): DoctorReport {
  const counts: Record<CheckStatus, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const c of checks) counts[c.status] += 1;
  return { ok: counts.fail === 0, config, at: new Date(atMs).toISOString(), counts, checks };
}

/** An error's message for a check line (typed client errors already name the endpoint and are scrubbed). */
export function describeError(error: unknown): string {
  return errorText(error);
}
