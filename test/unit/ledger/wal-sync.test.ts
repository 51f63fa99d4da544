/**
 * WalSync (src/ledger/wal-sync.ts): the ledger's write-ahead log fsynced off the main thread. A sync resolves only
 * after an fsync that started after it was asked (group commit: at most one in flight, one queued and shared); a
 * failure rejects that sync and the next one reopens the log and tries again; a missing log resolves; close()
 * waits for the sync in flight; the store offers it only for a file ledger opened FULL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../../src/ledger/index.js';
import { WalSync, type WalSyncFs } from '../../../src/ledger/wal-sync.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'om-walsync-'));
  dirs.push(dir);
  return dir;
}

/** Real files, with every datasync of the log held until the test releases it, and the opens counted. */
function gatedFs(): { fs: WalSyncFs; started: number[]; release: (error?: Error) => void; opens: string[] } {
  const started: number[] = [];
  const opens: string[] = [];
  const gates: ((error?: Error) => void)[] = [];
  let count = 0;
  const fs: WalSyncFs = {
    open: async (path, flags) => {
      opens.push(path);
      const handle: FileHandle = await open(path, flags);
      if (!path.endsWith('-wal')) return handle;
      return Object.assign(handle, {
        datasync: () => {
          started.push(++count);
          return new Promise<void>((resolve, reject) => gates.push((error) => (error ? reject(error) : resolve())));
        },
      });
    },
  };
  return { fs, started, opens, release: (error) => gates.shift()?.(error) };
}

/** Resolves once `condition` holds (the threadpool's opens and stats are real I/O). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(condition()).toBe(true);
}

describe('WalSync', () => {
  it('a sync asked while one runs waits for the next fsync; every caller meanwhile shares that one', async () => {
    const path = join(tempDir(), 'ledger.db');
    const ledger = openLedger({ path });
    ledger.setKv('a', '1');
    const gated = gatedFs();
    const sync = new WalSync(path, gated.fs);
    const settled: string[] = [];
    const first = sync.sync().then(() => settled.push('first'));
    await until(() => gated.started.length === 1);
    ledger.setKv('b', '2'); // committed after fsync 1 started: only fsync 2 covers it
    const second = sync.sync().then(() => settled.push('second'));
    const third = sync.sync().then(() => settled.push('third'));
    gated.release();
    await first;
    expect(settled).toEqual(['first']);
    await until(() => gated.started.length === 2);
    expect(settled).toEqual(['first']); // fsync 2 started, not completed
    gated.release();
    await Promise.all([second, third]);
    expect(settled).toEqual(['first', 'second', 'third']);
    expect(gated.started).toEqual([1, 2]);
    expect(sync.completed).toBe(2);
    // The log's directory is fsynced once, when the log is first opened.
    expect(gated.opens.filter((p) => !p.endsWith('-wal'))).toEqual([dirname(path)]);
    await sync.close();
    ledger.close();
  });

  it('a failed fsync rejects its sync; the next sync reopens the log and fsyncs again', async () => {
    const path = join(tempDir(), 'ledger.db');
    const ledger = openLedger({ path });
    ledger.setKv('a', '1');
    const gated = gatedFs();
    const sync = new WalSync(path, gated.fs);
    const failing = sync.sync();
    await until(() => gated.started.length === 1);
    gated.release(new Error('EIO'));
    await expect(failing).rejects.toThrow('EIO');
    const next = sync.sync();
    await until(() => gated.started.length === 2);
    gated.release();
    await next;
    expect(sync.completed).toBe(1);
    expect(gated.opens.filter((p) => p.endsWith('-wal'))).toHaveLength(2);
    await sync.close();
    ledger.close();
  });

  it('a missing log resolves without an fsync; close waits for the sync in flight', async () => {
    const dir = tempDir();
    const path = join(dir, 'ledger.db');
    let ledger = openLedger({ path });
    ledger.setKv('a', '1');
    const sync = new WalSync(path);
    await sync.sync();
    expect(sync.completed).toBe(1);
    ledger.close(); // the last connection checkpoints and deletes the log
    const fresh = new WalSync(path);
    await fresh.sync();
    expect(fresh.completed).toBe(0);
    await fresh.close();
    ledger = openLedger({ path });
    ledger.setKv('b', '2');
    const inFlight = sync.sync();
    await sync.close();
    await inFlight;
    await expect(sync.sync()).rejects.toThrow(/closed/);
    ledger.close();
  });

  it('the store offers syncToDisk for a file ledger opened FULL only', async () => {
    const dir = tempDir();
    const full = openLedger({ path: join(dir, 'full.db') });
    const normal = openLedger({ path: join(dir, 'normal.db'), synchronous: 'NORMAL' });
    const memory = openLedger({ path: ':memory:' });
    expect(full.syncToDisk).not.toBeNull();
    expect(normal.syncToDisk).toBeNull();
    expect(memory.syncToDisk).toBeNull();
    full.setKv('a', '1');
    await full.syncToDisk?.();
    for (const ledger of [full, normal, memory]) ledger.close();
  });
});
