/**
 * What every ledger repository shares: the connection, the injected clock, and the write discipline.
 *
 * Invariants: every write runs in an IMMEDIATE transaction; a ledger call made inside another (through
 * `atomically` or a repo calling a repo) joins the outer transaction, and if it throws, the outer
 * transaction is rolled back as a whole even if the caller catches the error, so half a fill can never
 * commit. Observer notifications and `afterCommit` tasks (the position book's updates) are queued and run only
 * after the outermost transaction commits, so counts and the in-memory book never include rolled-back work.
 *
 * Durability per write: the connection's mode (FULL by default: src/ledger/database.ts) for every money fact — fills,
 * raw events, resolutions, redemptions, payouts, and `atomically` unless told otherwise; the operations in
 * PROCESS_DURABLE_OPERATIONS (order rows, marks, markouts, reward estimates, calibration: facts the venue still holds
 * or estimates made again) commit with synchronous=NORMAL: in WAL mode that survives a process crash (kill -9) whole,
 * only an OS crash or power cut may lose the last of them, and it spares the main thread one fsync (measured 13 ms
 * per commit on the shared development disk, 0.03 ms without). The decision is the outermost write's (SQLite cannot
 * change it inside a transaction); the connection stays at the level of the last write and is switched only when a
 * write needs the other one (so a run of order updates costs no PRAGMA: two per write cost 4 % of the bot's CPU at 50
 * markets, issue 43), and the next FULL commit (or an fsync of the WAL file: src/ledger/wal-sync.ts) makes
 * every earlier frame durable too. The live bot's fills use that: each booked process-durable in its frame's handling,
 * then once per tick an fsync of the WAL on libuv's threadpool (src/booking/fill-recorder.ts).
 *
 * Also keeps the main thread's SQLite time (`sqliteMs`): every write transaction whole (statements and commit), plus
 * each prepared statement run outside a transaction (reads), as timed by src/ledger/sqlite-time.ts.
 */
import type { Database } from 'better-sqlite3';
import { LedgerAbortedError } from './errors.js';
import { PositionBook } from './position-book.js';
import { timeStatements } from './sqlite-time.js';
import type { LedgerObserver } from './types.js';

type Notification = (observer: LedgerObserver) => void;

/** How a write must survive: an OS crash or power cut (`full`), or a process crash (`process`). */
export type WriteDurability = 'full' | 'process';

/** Writes whose loss on a power cut costs nothing the venue cannot tell again (see the header). */
export const PROCESS_DURABLE_OPERATIONS: ReadonlySet<string> = new Set([
  'recordOrder',
  'updateOrder',
  'recordMarks',
  'recordMarkouts',
  'markoutsStart',
  'recordRewardSample',
  'recordRewardMinute',
  'recordMakerRebate',
  'resolveMakerRebate',
  'expireMakerRebates',
  'recordVenueReward',
  'calibrationPrediction',
  'calibrationScores',
]);

/** Carries a task's result out of the driver's transaction wrapper with its type intact. */
class Task<T> {
  result: { readonly value: T } | undefined;
  constructor(private readonly fn: () => T) {}
  run(): void {
    this.result = { value: this.fn() };
  }
}

export class LedgerContext {
  private queue: Notification[] = [];
  /** One wrapper for the connection's lifetime (creating one per call is costly in better-sqlite3). */
  private readonly transaction;
  private depth = 0;
  private innerFailure: { readonly error: unknown } | null = null;
  /** Milliseconds the main thread spent in SQLite so far (see the header). */
  private sqliteTotalMs = 0;
  private sqliteCalls = 0;
  /** The connection opened with synchronous=FULL (2): process-durable writes relax it for their commit. */
  private readonly fullSync: boolean;
  /** Whether the connection is at synchronous=NORMAL now (a process-durable write left it there). */
  private relaxedNow = false;
  /** The holdings in memory, mirrored from every booking through `afterCommit` (src/ledger/position-book.ts). */
  readonly book = new PositionBook();
  /** Told when a write transaction rolls back: a read-through cache written inside it forgets what it holds. */
  private readonly rollbackListeners: (() => void)[] = [];

  constructor(
    readonly db: Database,
    readonly now: () => number,
    private readonly observer: LedgerObserver,
  ) {
    timeStatements(db, this);
    this.fullSync = db.pragma('synchronous', { simple: true }) === 2;
    this.transaction = db.transaction((task: { run(): void }) => task.run());
  }

  /** Runs `fn` in a transaction, or inside the one already open (all or nothing either way). */
  write<T>(operation: string, fn: () => T, durability: WriteDurability = PROCESS_DURABLE_OPERATIONS.has(operation) ? 'process' : 'full'): T {
    if (this.depth > 0) {
      try {
        return fn();
      } catch (error) {
        this.innerFailure ??= { error };
        throw error;
      }
    }
    const started = performance.now();
    const task = new Task(() => {
      const value = fn();
      if (this.innerFailure !== null) throw new LedgerAbortedError(operation, this.innerFailure.error);
      return value;
    });
    this.depth = 1;
    this.innerFailure = null;
    const relaxed = durability === 'process' && this.fullSync;
    try {
      // Prepared at each switch on purpose: SQLite applies `PRAGMA synchronous = …` when the statement is prepared, so
      // a statement prepared once and run again changes nothing (test/unit/ledger/migrations.test.ts).
      if (relaxed !== this.relaxedNow) {
        this.db.pragma(relaxed ? 'synchronous = NORMAL' : 'synchronous = FULL');
        this.relaxedNow = relaxed;
      }
      this.transaction.immediate(task);
    } catch (error) {
      this.queue = [];
      for (const listener of this.rollbackListeners) listener();
      throw error;
    } finally {
      this.depth = 0;
      this.innerFailure = null;
    }
    const result = task.result;
    if (result === undefined) throw new Error(`ledger ${operation}: the transaction ran no task`);
    const ms = performance.now() - started;
    this.sqliteTotalMs += ms;
    this.sqliteCalls += 1;
    this.notify((observer) => observer.onWrite?.(operation, ms));
    this.flush();
    return result.value;
  }

  /** Puts the connection back at the level it opened with (before it closes: its last checkpoint syncs as it would). */
  restoreLevel(): void {
    if (!this.relaxedNow) return;
    this.db.pragma('synchronous = FULL');
    this.relaxedNow = false;
  }

  /** Whether a write transaction is open (a statement run inside it is timed with the transaction). */
  inTransaction(): boolean {
    return this.depth > 0;
  }

  /** A statement ran outside any transaction for `ms`. */
  addStatementMs(ms: number): void {
    this.sqliteTotalMs += ms;
    this.sqliteCalls += 1;
  }

  /** SQLite calls on this thread since the ledger opened: write transactions and statements outside them. */
  sqliteCallCount(): number {
    return this.sqliteCalls;
  }

  /** Milliseconds of SQLite on this thread since the ledger opened. */
  sqliteMs(): number {
    return this.sqliteTotalMs;
  }

  /**
   * Runs `task` once the current write transaction commits (at once outside one); dropped if it rolls back. The
   * in-memory mirrors of ledger state (src/ledger/position-book.ts) are updated this way.
   */
  afterCommit(task: () => void): void {
    this.notify(() => task());
  }

  /**
   * Calls `listener` whenever a write transaction rolls back (after SQLite undid it). For caches that are written in
   * step with the statements (so a read later in the same transaction sees them) and must then drop what they hold.
   */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /** Queues a notification; delivered at once when no ledger transaction is open. */
  notify(notification: Notification): void {
    this.queue.push(notification);
    if (this.depth === 0) this.flush();
  }

  private flush(): void {
    const pending = this.queue;
    this.queue = [];
    for (const notification of pending) {
      try {
        notification(this.observer);
      } catch {
        // An observer that throws is ignored: metrics never break bookkeeping.
      }
    }
  }
}
