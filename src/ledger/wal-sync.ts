/**
 * Durability off the main thread: an fsync of the ledger's write-ahead log on libuv's threadpool.
 *
 * In WAL mode a commit is a write() of its frames to the `-wal` file; synchronous=FULL adds an fsync of that file to
 * the commit (13 ms on the shared development disk, on the main thread), NORMAL leaves it to the next checkpoint. An
 * fsync of the same file from another descriptor makes every frame written before it started durable, the same as
 * the FULL commit would have: WAL recovery after a power cut keeps the longest prefix of whole, checksummed commits,
 * so everything committed before the fsync began survives (and with it every earlier commit: the log is sequential).
 *
 * Owns: the descriptor of the `-wal` file (opened on first use, with one fsync of its directory then, as SQLite does
 * for a file it created) and the order of the syncs. The log keeps its inode while the ledger's connection is open
 * (SQLite deletes it only when the last connection closes; a checkpoint rewinds or truncates it in place), so the
 * descriptor stays valid for the store's lifetime: a sync costs one fdatasync on the threadpool, nothing else. Invariants: `sync()`
 * resolves only after an fsync that STARTED after the call (so every commit made before the call is on the disk);
 * syncs asked while one runs share the one run after it (group commit: at most one in flight and one queued); a
 * failure rejects that sync and drops the descriptor (the next one reopens and tries again); `close()` waits for the
 * sync in flight, then closes the descriptor; a missing `-wal` file resolves (a connection that closed last
 * checkpointed it into the database with fsyncs and deleted it).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The file operations a WAL sync needs (node:fs/promises by default; tests inject failures and counts). */
export interface WalSyncFs {
  open(path: string, flags: string): Promise<FileHandle>;
}

export class WalSync {
  private handle: FileHandle | null = null;
  private dirSynced = false;
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private closed = false;
  private syncs = 0;

  constructor(
    /** The database file's path; its log is `${path}-wal`. */
    private readonly databasePath: string,
    private readonly fs: WalSyncFs = { open },
  ) {}

  /** fsyncs completed so far (tests, metrics). */
  get completed(): number {
    return this.syncs;
  }

  /** Resolves once every commit made before this call is on the disk (see the header). */
  sync(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('ledger WAL sync: closed'));
    if (this.inFlight === null) return this.start();
    // The fsync in flight may have started before this call's commits: one more after it, shared by every caller.
    this.queued ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  /** Waits for the sync in flight (and one queued), then closes the descriptor. Idempotent. */
  async close(): Promise<void> {
    const pending = this.queued ?? this.inFlight;
    this.closed = true;
    await pending?.catch(() => undefined);
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }

  private start(): Promise<void> {
    const run = this.fsyncOnce().finally(() => {
      if (this.inFlight === run) this.inFlight = null;
    });
    this.inFlight = run;
    return run;
  }

  private async fsyncOnce(): Promise<void> {
    const walPath = `${this.databasePath}-wal`;
    let handle = this.handle;
    if (handle === null) {
      try {
        handle = await this.fs.open(walPath, 'r');
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      this.handle = handle;
      if (!this.dirSynced) {
        const dir = await this.fs.open(dirname(walPath), 'r');
        try {
          await dir.sync();
        } finally {
          await dir.close();
        }
        this.dirSynced = true;
      }
    }
    try {
      await handle.datasync();
    } catch (error) {
      if (this.handle === handle) this.handle = null;
      await handle.close().catch(() => undefined);
      throw error;
    }
    this.syncs += 1;
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
