/**
 * The ledger's owner lock on a real temp folder, with the process probe injected (which PIDs live, which host):
 * taken, refused while held, taken over only from a holder that is provably gone, never from another host or an
 * unreadable file, released only while it is still this holder's.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLedgerLock, judgeHolder, LedgerLockedError, parseHolder, type LockHolder, type ProcessProbe } from '../../../src/ledger/owner-lock.js';

function probe(pid: number, alive: ReadonlyMap<number, string | null>, host = 'here'): ProcessProbe {
  return { pid, host, isAlive: (p) => alive.has(p), procStart: (p) => alive.get(p) ?? null };
}

const holder = (overrides: Partial<LockHolder> = {}): LockHolder => ({ pid: 100, host: 'here', startedAt: '2026-01-01T00:00:00.000Z', procStart: '5000', token: 't', ...overrides });

describe('judgeHolder', () => {
  it('alive when the PID runs with the recorded start time (or no start time is known)', () => {
    expect(judgeHolder(holder(), probe(1, new Map([[100, '5000']])), false)).toEqual({ kind: 'alive' });
    expect(judgeHolder(holder({ procStart: null }), probe(1, new Map([[100, '9']])), false)).toEqual({ kind: 'alive' });
    expect(judgeHolder(holder(), probe(1, new Map([[100, null]])), false)).toEqual({ kind: 'alive' });
  });
  it('gone when the PID is dead, reused by another process, or is this process without holding it', () => {
    expect(judgeHolder(holder(), probe(1, new Map()), false).kind).toBe('gone');
    expect(judgeHolder(holder(), probe(1, new Map([[100, '7777']])), false)).toEqual({ kind: 'gone', why: 'PID 100 now belongs to another process' });
    expect(judgeHolder(holder({ pid: 1 }), probe(1, new Map([[1, '5000']])), false).kind).toBe('gone');
    expect(judgeHolder(holder({ pid: 1 }), probe(1, new Map([[1, '5000']])), true)).toEqual({ kind: 'alive' });
  });
  it('foreign-host when another host wrote it', () => {
    expect(judgeHolder(holder({ host: 'there' }), probe(1, new Map()), false)).toEqual({ kind: 'foreign-host' });
  });
});

describe('parseHolder', () => {
  it('reads its own format and nothing else', () => {
    expect(parseHolder(JSON.stringify(holder()))).toEqual(holder());
    for (const text of ['', 'pid=3', '{}', JSON.stringify({ ...holder(), pid: -1 }), JSON.stringify({ ...holder(), procStart: 5 })]) expect(parseHolder(text)).toBeNull();
  });
});

describe('acquireLedgerLock', () => {
  const freshDb = (): string => join(mkdtempSync(join(tmpdir(), 'om-owner-lock-')), 'sub', 'bot.db');

  it('takes a free ledger (creating its folder), refuses a second holder naming the first, and releases', () => {
    const db = freshDb();
    const first = acquireLedgerLock(db, probe(100, new Map([[100, '5000']])));
    expect(first.tookOverFrom).toBeNull();
    expect(parseHolder(readFileSync(`${db}.lock`, 'utf8'))).toMatchObject({ pid: 100, host: 'here', procStart: '5000' });
    let refused: unknown;
    try {
      acquireLedgerLock(db, probe(200, new Map([[100, '5000'], [200, '6000']])));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(LedgerLockedError);
    expect((refused as LedgerLockedError).holder?.pid).toBe(100);
    expect((refused as LedgerLockedError).message).toContain(`ledger ${db} is in use: held by process 100`);
    first.release();
    first.release();
    expect(existsSync(`${db}.lock`)).toBe(false);
    acquireLedgerLock(db, probe(200, new Map([[200, '6000']]))).release();
  });

  it('takes over a dead holder\'s lock and says whose', () => {
    const db = freshDb();
    acquireLedgerLock(db, probe(100, new Map([[100, '5000']])));
    const next = acquireLedgerLock(db, probe(200, new Map([[200, '6000']])));
    expect(next.tookOverFrom).toMatchObject({ holder: { pid: 100 }, why: 'process 100 is not running' });
    expect(parseHolder(readFileSync(`${db}.lock`, 'utf8'))?.pid).toBe(200);
    next.release();
  });

  it('never takes over a lock of another host, nor an unreadable one, nor one a takeover is working on', () => {
    const db = freshDb();
    acquireLedgerLock(db, probe(100, new Map(), 'other-host'));
    expect(() => acquireLedgerLock(db, probe(200, new Map()))).toThrow(/on host other-host, which this host cannot check/);
    writeFileSync(`${db}.lock`, 'not ours\n');
    expect(() => acquireLedgerLock(db, probe(200, new Map()))).toThrow(/cannot be read as an outcome-maker lock/);
    expect(readFileSync(`${db}.lock`, 'utf8')).toBe('not ours\n');
    writeFileSync(`${db}.lock`, JSON.stringify(holder()));
    writeFileSync(`${db}.lock.takeover`, '300');
    expect(() => acquireLedgerLock(db, probe(200, new Map([[300, null]])))).toThrow(/taking over its stale lock right now/);
    expect(parseHolder(readFileSync(`${db}.lock`, 'utf8'))?.pid).toBe(100);
  });

  it('a takeover mutex whose process is dead is abandoned', () => {
    const db = freshDb();
    acquireLedgerLock(db, probe(100, new Map()));
    writeFileSync(`${db}.lock.takeover`, '300');
    const taken = acquireLedgerLock(db, probe(200, new Map()));
    expect(taken.tookOverFrom?.holder.pid).toBe(100);
    expect(existsSync(`${db}.lock.takeover`)).toBe(false);
  });

  it('a takeover mutex left by a crash long ago does not block forever', () => {
    const db = freshDb();
    acquireLedgerLock(db, probe(100, new Map()));
    writeFileSync(`${db}.lock.takeover`, '');
    const later = Date.now() + 60_000;
    const taken = acquireLedgerLock(db, probe(200, new Map()), () => later);
    expect(taken.tookOverFrom?.holder.pid).toBe(100);
    expect(existsSync(`${db}.lock.takeover`)).toBe(false);
  });

  it('release leaves a lock that is no longer this holder\'s', () => {
    const db = freshDb();
    const mine = acquireLedgerLock(db, probe(100, new Map()));
    writeFileSync(`${db}.lock`, JSON.stringify(holder({ pid: 300, token: 'other' })));
    mine.release();
    expect(parseHolder(readFileSync(`${db}.lock`, 'utf8'))?.pid).toBe(300);
  });

  it('an in-memory ledger needs no lock', () => {
    const lock = acquireLedgerLock(':memory:', probe(100, new Map()));
    expect(lock.lockPath).toBe('');
    lock.release();
  });
});
