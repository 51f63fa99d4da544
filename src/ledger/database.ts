/**
 * Opens the ledger's SQLite file: creates the parent directory, sets the pragmas, runs the migrations.
 *
 * Durability: WAL journal with synchronous=FULL by default. In WAL mode NORMAL is already safe against a
 * process crash (no corruption, no lost commit), but a power cut or kernel panic can lose the last
 * commits; FULL fsyncs the WAL on every commit so a fill the ledger acknowledged survives that too.
 * The cost is one fsync per commit: bench/ledger.ts measured ~300 single-fill commits per second on the
 * development VM (NVMe does far better), while the venue's rate limits keep the bot to a few fills per
 * second, so "every fill exactly once" does not have to lean on reconciliation after a power loss.
 * NORMAL is available for backtests and benchmarks.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { LedgerSchemaError } from './errors.js';
import { migrate, MIGRATIONS, type Migration } from './migrations.js';
import { errorText } from '../core/errors.js';

export type SynchronousMode = 'FULL' | 'NORMAL';

export interface OpenDatabaseOptions {
  /** File path, or ':memory:' for tests. */
  readonly path: string;
  readonly synchronous?: SynchronousMode;
  /** Refuse to create a missing file (read-side commands such as `report`). */
  readonly mustExist?: boolean;
  /** How long a write waits for another connection's lock, ms. */
  readonly busyTimeoutMs?: number;
  readonly migrations?: readonly Migration[];
}

export function openLedgerDatabase(options: OpenDatabaseOptions): Database {
  const path = options.path;
  if (typeof path !== 'string' || path.length === 0) {
    throw new LedgerSchemaError(String(path), 'the database path must be a non-empty string');
  }
  const inMemory = path === ':memory:';
  if (!inMemory && !options.mustExist) mkdirSync(dirname(path), { recursive: true });
  let db: Database;
  try {
    db = new BetterSqlite3(path, { fileMustExist: options.mustExist ?? false });
  } catch (error) {
    throw new LedgerSchemaError(path, `cannot open (${errorText(error)})`);
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    if (!inMemory) {
      const mode: unknown = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new LedgerSchemaError(path, `could not enable WAL (journal_mode is ${String(mode)})`);
    }
    db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -16384'); // 16 MiB: batches and index inserts stay in memory until commit
    migrate(db, options.migrations ?? MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
