/**
 * The periodic check of the in-memory position book (src/ledger/position-book.ts) against the ledger, the durable
 * truth: run on the ledger-check timer, never on the quoting path. A difference is a bug in a booking path's hook: it
 * is logged (the first lines), counted (outcome_maker_position_book_differences_total, alerted on) and repaired (the
 * book reloaded from the ledger by `checkPositionBook`).
 *
 * Owns: nothing but that reaction. Invariants: a failing check (the ledger unreadable) is logged and changes nothing.
 */
import type { Logger } from 'pino';
import { errorText } from '../core/errors.js';
import type { LedgerStore } from '../ledger/index.js';
import type { Metrics } from '../metrics/index.js';

/** Differences logged at most per check (the count is whole). */
const LOGGED_DIFFERENCES = 20;

export function checkPositionBook(
  ledger: Pick<LedgerStore, 'checkPositionBook'>,
  metrics: Pick<Metrics, 'positionBookDifferences'>,
  log: Pick<Logger, 'error'>,
): number {
  try {
    const check = ledger.checkPositionBook();
    if (check.differences.length === 0) return 0;
    metrics.positionBookDifferences(check.differences.length);
    log.error(
      { count: check.differences.length, differences: check.differences.slice(0, LOGGED_DIFFERENCES), ms: Math.round(check.ms) },
      'the in-memory position book differed from the ledger: repaired from the ledger (a booking path does not update it)',
    );
    return check.differences.length;
  } catch (error) {
    log.error({ err: errorText(error) }, 'position book check failed; retried at the next ledger check');
    return 0;
  }
}
