/**
 * The top self-time functions of a V8 CPU profile (`node --cpu-prof`, e.g. the bot's in a soak: SOAK_CPU_PROF=DIR
 * npx tsx bench/soak.ts 50 2), and the share of the busy time spent in the ledger's SQLite reads and writes (functions
 * under better-sqlite3 or the ledger's statement wrapper and transactions, self time plus the native statement calls
 * under them: not the position book's memory), and how much of that ran on the quoting path (under
 * src/strategy/runner.ts or src/risk/account-view.ts: it must be 0), with the callers that ran it there.
 *
 *   npx tsx bench/profile-top.ts FILE.cpuprofile [N=25]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

const profileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
      children: z.array(z.number()).optional(),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

export interface ProfileRow {
  readonly fn: string;
  readonly selfMs: number;
  readonly sharePct: number;
}

/** Self time per function (name + file:line), busiest first; idle, program and GC kept apart. */
export function topSelf(
  text: string,
  n: number,
): { rows: ProfileRow[]; busyMs: number; ledgerSqliteMs: number; quotingPathLedgerMs: number; quotingPathCallers: { fn: string; ms: number }[] } {
  const profile = profileSchema.parse(JSON.parse(text));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));
  const label = (id: number): string => {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) return '?';
    const file = frame.url.replace(/^.*\/(src|node_modules|strategies|bin)\//, '$1/');
    return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
  };
  /**
   * SQLite time: a sample with better-sqlite3 (a transaction, a pragma) or the ledger's statement wrapper
   * (src/ledger/sqlite-time.ts: every prepared statement's run/get/all) on its stack, native statement calls included.
   * The ledger's memory (the position book, src/ledger/position-book.ts) is not SQLite and is not counted.
   */
  const underLedger = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (url.includes('/src/ledger/sqlite-time.') || url.includes('/src/ledger/context.') || url.includes('better-sqlite3')) return true;
    }
    return false;
  };
  /**
   * SQLite called from the quoting path: the runner or the account view is a caller of the SQLite frame (rootward of
   * it on the stack), not a callee (the reward accrual reading the account's own orders inside its transaction).
   */
  const onQuotingPath = (id: number): boolean => {
    let sqliteSeen = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (url.includes('/src/ledger/sqlite-time.') || url.includes('/src/ledger/context.') || url.includes('better-sqlite3')) sqliteSeen = true;
      else if (sqliteSeen && (url.includes('/src/strategy/runner.') || url.includes('/src/risk/account-view.'))) return true;
    }
    return false;
  };
  const totals = new Map<string, number>();
  let busyMs = 0;
  let ledgerSqliteMs = 0;
  let quotingPathLedgerMs = 0;
  const quotingCallers = new Map<string, number>();
  /** The nearest frame on the stack outside the ledger and better-sqlite3 (who asked SQLite). */
  const firstCaller = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (url !== '' && !url.includes('/src/ledger/') && !url.includes('better-sqlite3')) return label(at);
    }
    return '?';
  };
  for (const [id, ms] of self) {
    const name = byId.get(id)?.callFrame.functionName ?? '';
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') continue;
    busyMs += ms;
    if (underLedger(id)) {
      ledgerSqliteMs += ms;
      if (onQuotingPath(id)) {
        quotingPathLedgerMs += ms;
        const caller = firstCaller(id);
        quotingCallers.set(caller, (quotingCallers.get(caller) ?? 0) + ms);
      }
    }
    totals.set(label(id), (totals.get(label(id)) ?? 0) + ms);
  }
  const rows = [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([fn, ms]) => ({ fn, selfMs: Math.round(ms), sharePct: Math.round((1000 * ms) / busyMs) / 10 }));
  const callers = [...quotingCallers].sort((a, b) => b[1] - a[1]).map(([fn, ms]) => ({ fn, ms: Math.round(ms) }));
  return { rows, busyMs: Math.round(busyMs), ledgerSqliteMs: Math.round(ledgerSqliteMs), quotingPathLedgerMs: Math.round(quotingPathLedgerMs), quotingPathCallers: callers };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, count] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: npx tsx bench/profile-top.ts FILE.cpuprofile [N]');
  const result = topSelf(readFileSync(file, 'utf8'), Number(count ?? 25));
  console.log(`busy ${result.busyMs} ms; SQLite (better-sqlite3, the ledger's statements and transactions): ${result.ledgerSqliteMs} ms, of which on the quoting path (under the runner or the account view): ${result.quotingPathLedgerMs} ms`);
  for (const caller of result.quotingPathCallers.slice(0, 10)) console.log(`  SQLite on the quoting path from ${caller.fn}: ${caller.ms} ms`);
  console.table(result.rows);
}
