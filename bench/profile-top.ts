/**
 * The top self-time functions of a V8 CPU profile (`node --cpu-prof`, e.g. the bot's in a soak: SOAK_CPU_PROF=DIR
 * npx tsx bench/soak.ts 50 2), and the share of the busy time spent in the ledger's SQLite reads and writes (functions
 * of src/ledger/ and better-sqlite3, self time plus the native statement calls under them), and how much of that ran
 * on the quoting path (under src/strategy/runner.ts or src/risk/account-view.ts: it must be 0).
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
export function topSelf(text: string, n: number): { rows: ProfileRow[]; busyMs: number; ledgerSqliteMs: number; quotingPathLedgerMs: number } {
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
  /** A native call (a SQLite statement) is charged to the ledger when a ledger or better-sqlite3 frame is on its stack. */
  const underLedger = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (url.includes('/src/ledger/') || url.includes('better-sqlite3')) return true;
    }
    return false;
  };
  /** Below the strategy runner or the account view: the quoting path (a book change → the gate → the executor). */
  const onQuotingPath = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (url.includes('/src/strategy/runner.') || url.includes('/src/risk/account-view.')) return true;
    }
    return false;
  };
  const totals = new Map<string, number>();
  let busyMs = 0;
  let ledgerSqliteMs = 0;
  let quotingPathLedgerMs = 0;
  for (const [id, ms] of self) {
    const name = byId.get(id)?.callFrame.functionName ?? '';
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') continue;
    busyMs += ms;
    if (underLedger(id)) {
      ledgerSqliteMs += ms;
      if (onQuotingPath(id)) quotingPathLedgerMs += ms;
    }
    totals.set(label(id), (totals.get(label(id)) ?? 0) + ms);
  }
  const rows = [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([fn, ms]) => ({ fn, selfMs: Math.round(ms), sharePct: Math.round((1000 * ms) / busyMs) / 10 }));
  return { rows, busyMs: Math.round(busyMs), ledgerSqliteMs: Math.round(ledgerSqliteMs), quotingPathLedgerMs: Math.round(quotingPathLedgerMs) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, count] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: npx tsx bench/profile-top.ts FILE.cpuprofile [N]');
  const result = topSelf(readFileSync(file, 'utf8'), Number(count ?? 25));
  console.log(`busy ${result.busyMs} ms; under src/ledger or better-sqlite3: ${result.ledgerSqliteMs} ms, of which on the quoting path (under the runner or the account view): ${result.quotingPathLedgerMs} ms`);
  console.table(result.rows);
}
