/**
 * The ledger's owner lock: one process at a time may change a ledger file. The owner holds `<ledger>.lock`, a small
 * JSON file naming its PID, host, start time and (on Linux) the kernel's start tick of that PID, so a reused PID is
 * not taken for the owner. Readers (`report`) take no lock: SQLite's WAL lets them read beside the owner.
 *
 * Owns: taking, judging and releasing that file. Invariants: the lock file appears whole or not at all (written
 * beside, then hard-linked into place, which fails when one exists); a lock is taken over only when its holder is
 * provably gone (same host, PID dead or reused), and only under a short takeover mutex (`<ledger>.lock.takeover`)
 * with the lock read again inside it, so two processes finding the same stale lock cannot both win (a mutex left by a
 * process killed inside it is abandoned once its PID is dead, or after 30 s); a lock of
 * another host, or one that cannot be read, is never taken over; release removes the file only while it is still
 * this holder's. Nothing here touches the ledger itself.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { errorText } from '../core/errors.js';

/** Who holds a ledger, as written in its lock file. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
  /** The kernel's start time of `pid` (field 22 of /proc/<pid>/stat), or null where there is no /proc. */
  readonly procStart: string | null;
  /** Distinguishes this holding from any other with the same PID. */
  readonly token: string;
}

/** The ledger is owned by another live process (or by one this host cannot check): the caller must not touch it. */
export class LedgerLockedError extends Error {
  override readonly name = 'LedgerLockedError';
  constructor(
    readonly ledgerPath: string,
    readonly lockPath: string,
    readonly holder: LockHolder | null,
    reason: string,
  ) {
    super(`ledger ${ledgerPath} is in use: ${reason} (lock file ${lockPath}); stop that bot first, or give this config another database.path`);
  }
}

/** What the lock needs to know about processes (the real one reads the OS; tests may inject). */
export interface ProcessProbe {
  readonly pid: number;
  readonly host: string;
  /** True when a process with this PID exists (EPERM counts as existing). */
  isAlive(pid: number): boolean;
  /** The kernel's start time of the PID, or null when unknown. */
  procStart(pid: number): string | null;
}

export const osProbe: ProcessProbe = {
  pid: process.pid,
  host: hostname(),
  isAlive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  procStart(pid) {
    try {
      // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
    } catch {
      return null;
    }
  },
};

/** The verdict on a lock file's holder. Pure given the probe. */
export type HolderVerdict = { readonly kind: 'alive' } | { readonly kind: 'gone'; readonly why: string } | { readonly kind: 'foreign-host' };

export function judgeHolder(holder: LockHolder, probe: ProcessProbe, heldHere: boolean): HolderVerdict {
  if (holder.host !== probe.host) return { kind: 'foreign-host' };
  if (holder.pid === probe.pid) {
    // This process cannot have written it unless it holds it now: a PID reused by a new PID namespace (a container).
    return heldHere ? { kind: 'alive' } : { kind: 'gone', why: `PID ${holder.pid} is this process now (the holder was another)` };
  }
  if (!probe.isAlive(holder.pid)) return { kind: 'gone', why: `process ${holder.pid} is not running` };
  const start = probe.procStart(holder.pid);
  if (holder.procStart !== null && start !== null && start !== holder.procStart) return { kind: 'gone', why: `PID ${holder.pid} now belongs to another process` };
  return { kind: 'alive' };
}

/** Parses a lock file's text; null when it is not one of ours. */
export function parseHolder(text: string): LockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const pid: unknown = Reflect.get(value, 'pid');
  const host: unknown = Reflect.get(value, 'host');
  const startedAt: unknown = Reflect.get(value, 'startedAt');
  const procStart: unknown = Reflect.get(value, 'procStart');
  const token: unknown = Reflect.get(value, 'token');
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (typeof host !== 'string' || typeof startedAt !== 'string' || typeof token !== 'string') return null;
  if (procStart !== null && typeof procStart !== 'string') return null;
  return { pid, host, startedAt, procStart, token };
}

export interface LedgerLock {
  readonly ledgerPath: string;
  readonly lockPath: string;
  /** The dead holder whose lock was taken over, with why it counts as gone; null when the file was free. */
  readonly tookOverFrom: { readonly holder: LockHolder; readonly why: string } | null;
  /** Removes the lock file if it is still this holder's. Idempotent. */
  release(): void;
}

/** A takeover mutex older than this was left by a crash inside the takeover (which takes microseconds). */
const TAKEOVER_STALE_MS = 30_000;
const held = new Set<string>();

/**
 * Takes the owner lock of the ledger at `ledgerPath` (created with its folder if missing), or throws
 * LedgerLockedError naming the holder. `:memory:` ledgers need no lock (returns a no-op lock).
 */
export function acquireLedgerLock(ledgerPath: string, probe: ProcessProbe = osProbe, now: () => number = Date.now): LedgerLock {
  if (ledgerPath === ':memory:') return { ledgerPath, lockPath: '', tookOverFrom: null, release: () => undefined };
  const ledger = resolve(ledgerPath);
  const lockPath = `${ledger}.lock`;
  mkdirSync(dirname(ledger), { recursive: true });
  const mine: LockHolder = { pid: probe.pid, host: probe.host, startedAt: new Date(now()).toISOString(), procStart: probe.procStart(probe.pid), token: randomUUID() };
  const text = `${JSON.stringify(mine)}\n`;
  let tookOverFrom: LedgerLock['tookOverFrom'] = null;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (placeLockFile(lockPath, text)) {
      held.add(lockPath);
      let released = false;
      return {
        ledgerPath: ledger,
        lockPath,
        tookOverFrom,
        release: () => {
          if (released) return;
          released = true;
          held.delete(lockPath);
          if (readLock(lockPath)?.token === mine.token) unlinkQuietly(lockPath);
        },
      };
    }
    const holder = readLock(lockPath);
    if (holder === undefined) continue; // removed meanwhile: try again
    if (holder === null) throw new LedgerLockedError(ledger, lockPath, null, 'its lock file cannot be read as an outcome-maker lock; remove it only if no bot uses this ledger');
    const verdict = judgeHolder(holder, probe, held.has(lockPath));
    if (verdict.kind === 'alive') throw new LedgerLockedError(ledger, lockPath, holder, `held by process ${holder.pid} (since ${holder.startedAt})`);
    if (verdict.kind === 'foreign-host') {
      throw new LedgerLockedError(ledger, lockPath, holder, `held by process ${holder.pid} on host ${holder.host}, which this host cannot check; remove the lock file only if that bot is stopped`);
    }
    if (removeStaleLock(ledger, lockPath, holder, probe, now)) tookOverFrom = { holder, why: verdict.why };
  }
  throw new LedgerLockedError(ledger, lockPath, readLock(lockPath) ?? null, 'the lock changed hands while it was being taken; try again');
}

/** Writes the lock beside and links it into place: true when this call created the lock file. */
function placeLockFile(lockPath: string, text: string): boolean {
  const temp = `${lockPath}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(temp, text, { mode: 0o644 });
  try {
    linkSync(temp, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkQuietly(temp);
  }
}

/** The lock's holder; null when the file is not one of ours; undefined when there is no lock file. */
function readLock(lockPath: string): LockHolder | null | undefined {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseHolder(text);
}

/** Removes a stale lock under the takeover mutex, if it is still exactly `stale`. True when this call removed it. */
function removeStaleLock(ledger: string, lockPath: string, stale: LockHolder, probe: ProcessProbe, now: () => number): boolean {
  const mutex = `${lockPath}.takeover`;
  let fd: number;
  try {
    fd = openSync(mutex, 'wx');
    writeSync(fd, String(probe.pid));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Left by a process killed inside its takeover (which takes microseconds): its PID is dead, or it is old.
    if (!mutexAbandoned(mutex, probe, now)) throw new LedgerLockedError(ledger, lockPath, stale, 'another process is taking over its stale lock right now');
    unlinkQuietly(mutex);
    return false;
  }
  try {
    const current = readLock(lockPath);
    if (current === undefined || current === null || current.token !== stale.token) return false;
    unlinkSync(lockPath);
    return true;
  } finally {
    closeSync(fd);
    unlinkQuietly(mutex);
  }
}

function mutexAbandoned(path: string, probe: ProcessProbe, now: () => number): boolean {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== probe.pid && !probe.isAlive(pid)) return true;
    return now() - statSync(path).mtimeMs > TAKEOVER_STALE_MS;
  } catch {
    return true;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot remove ${path}: ${errorText(error)}`);
  }
}
