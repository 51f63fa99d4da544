/**
 * Times the ledger's SQLite statements on the main thread: every statement the connection prepares from now on
 * reports the time of each `run`, `get`, `all` and `iterate` made outside a write transaction to `record` (a
 * statement inside one is counted with its transaction, src/ledger/context.ts, so nothing is counted twice).
 *
 * Owns: the wrapping of `db.prepare`. Invariants: a statement's results and errors are exactly the driver's; the
 * timing costs two `performance.now()` calls per statement.
 */
import type { Database, Statement } from 'better-sqlite3';

export interface StatementClock {
  inTransaction(): boolean;
  addStatementMs(ms: number): void;
}

const TIMED = ['run', 'get', 'all', 'iterate'] as const;

function timed<A extends unknown[], R>(clock: StatementClock, fn: (...args: A) => R): (...args: A) => R {
  return (...args: A): R => {
    if (clock.inTransaction()) return fn(...args);
    const started = performance.now();
    try {
      return fn(...args);
    } finally {
      clock.addStatementMs(performance.now() - started);
    }
  };
}

/** Makes every statement `db` prepares from now on report its time to `clock` (idempotent per connection). */
export function timeStatements(db: Database, clock: StatementClock): void {
  const marked = db as Database & { __ledgerTimed?: true };
  if (marked.__ledgerTimed) return;
  marked.__ledgerTimed = true;
  const prepare = db.prepare.bind(db);
  const wrapped = (source: string): Statement => {
    const statement = prepare(source);
    for (const method of TIMED) {
      const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      Object.defineProperty(statement, method, { value: timed(clock, original), configurable: true, writable: true });
    }
    return statement;
  };
  // The driver's generic signature only types the statement's parameters and rows; the wrapper returns the same object.
  db.prepare = wrapped as Database['prepare'];
}
