/**
 * The shape of the order manager's error tables (placement-errors.ts, cancel-errors.ts): rows tried in order, the
 * first whose matcher accepts the error gives the verdict.
 *
 * Owns: the row type, the matchers the tables share, and the ladder walk. Pure: no state, no I/O. Invariant: a table
 * ends with a row that matches anything (`anything`), so every error has a verdict.
 */
import { isVenueError, OutcomeUnknownError, type VenueError } from './venue-port.js';

export interface ErrorRow<V> {
  /** The verdict when the row matches the error, else null. */
  readonly verdictOf: (error: unknown) => V | null;
}

export function row<E, V>(matches: (error: unknown) => error is E, verdict: (error: E) => V): ErrorRow<V> {
  return { verdictOf: (error) => (matches(error) ? verdict(error) : null) };
}

export const instanceOf =
  <E>(type: abstract new (...args: never[]) => E) =>
  (error: unknown): error is E =>
    error instanceof type;

export const anything = (_error: unknown): _error is unknown => true;

/** Every venue error but an unknown outcome: the request failed for sure. */
export const definiteVenueFailure = (error: unknown): error is VenueError => isVenueError(error) && !(error instanceof OutcomeUnknownError);

/** The verdict of the first row that matches; `fallback` only if none does (a table ending with `anything` never). */
export function firstVerdict<V>(table: readonly ErrorRow<V>[], error: unknown, fallback: V): V {
  for (const entry of table) {
    const verdict = entry.verdictOf(error);
    if (verdict !== null) return verdict;
  }
  return fallback;
}
