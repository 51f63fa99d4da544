/**
 * Loop stalls of a requote wave and of the fills' durability barrier, main thread against off it (issue 43): what the
 * soak's event-loop p99 counts, measured alone so a loaded machine changes the scale, not the comparison.
 *
 * - Signing wave: 40 orders signed as `VenueAdapter.prepareBatch` signs a batch (every item's `createOrder` started in
 *   one turn, then awaited together), by `OrderSigner` on the main thread and with `signingThread: 'worker'`.
 * - Fill barrier: a file ledger (synchronous=FULL) in a temp folder; one process-durable write (a booked fill's
 *   stand-in), then the barrier: a FULL commit on the main thread (before) against the key-value row process-durable
 *   plus `syncToDisk()` (the WAL fsync on libuv's threadpool, after).
 *
 * For each, a 1 ms probe timer runs during the operation; the figure is the longest gap between its ticks beyond the
 * 1 ms (the longest the loop was held), p50 and p99 over the rounds, and the time until the operation completed.
 *
 *   npx tsx bench/loop-stalls.ts   (BENCH_STALL_ROUNDS, default 60; prints one table; exports run() for bench/all.ts)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OrderSigner, type LimitOrderRequest, type SigningMarket } from '../src/exchange/signer.js';
import { openLedger } from '../src/ledger/index.js';

const KEY = `0x${'11'.repeat(32)}` as const;
const ROUNDS = Math.max(10, Number(process.env['BENCH_STALL_ROUNDS'] ?? 60));
const WAVE_ORDERS = 40;

interface Stall {
  /** Longest gap between the probe's ticks beyond its 1 ms period, ms. */
  readonly heldMs: number;
  /** From the start of the operation until it completed, ms. */
  readonly doneMs: number;
}

/** Runs `operation` with a 1 ms probe timer beside it; the longest the loop was held, and the time to completion. */
async function probed(operation: () => Promise<void>): Promise<Stall> {
  let last = performance.now();
  let held = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last - 1);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  last = performance.now();
  held = 0;
  const started = performance.now();
  await operation();
  const doneMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 3));
  clearInterval(probe);
  return { heldMs: Math.max(0, held), doneMs };
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function row(name: string, stalls: readonly Stall[]): Record<string, number | string> {
  const round = (ms: number): number => Math.round(ms * 100) / 100;
  return {
    case: name,
    heldP50Ms: round(quantile(stalls.map((s) => s.heldMs), 0.5)),
    heldP99Ms: round(quantile(stalls.map((s) => s.heldMs), 0.99)),
    doneP50Ms: round(quantile(stalls.map((s) => s.doneMs), 0.5)),
  };
}

async function signingWave(signer: OrderSigner, round: number): Promise<void> {
  const market: SigningMarket = { slug: 'm', venueExchange: '0xa4409D988CA2218d956BeEFD3874100F444f0DC3', tokens: { yes: '1001', no: '1002' } };
  const requests = Array.from({ length: WAVE_ORDERS }, (_, i): LimitOrderRequest => ({
    market,
    tokenId: i % 2 === 0 ? market.tokens.yes : market.tokens.no,
    side: i % 3 === 0 ? 'SELL' : 'BUY',
    orderType: 'GTC',
    priceTicks: 100 + ((round * 7 + i) % 800),
    sizeRaw: 1_000_000 * (5 + i),
  }));
  await Promise.all(requests.map((request) => signer.createOrder(request)));
}

export async function run(): Promise<Record<string, number | string>[]> {
  const rows: Record<string, number | string>[] = [];
  for (const thread of ['main', 'worker'] as const) {
    const signer = new OrderSigner({ privateKey: KEY, signingThread: thread });
    for (let i = 0; i < 3; i++) await signingWave(signer, i); // warm: tables, the worker's start
    const stalls: Stall[] = [];
    for (let r = 0; r < ROUNDS; r++) stalls.push(await probed(() => signingWave(signer, r)));
    await signer.close();
    rows.push(row(`signing wave of ${WAVE_ORDERS} orders, ${thread} thread`, stalls));
  }
  const dir = mkdtempSync(join(tmpdir(), 'om-loop-stalls-'));
  try {
    const ledger = openLedger({ path: join(dir, 'ledger.db') });
    const sync = ledger.syncToDisk;
    if (sync === null) throw new Error('a file ledger opened FULL offers syncToDisk');
    const booked = (r: number): void => ledger.atomically(() => ledger.setKv('bench.fill', String(r)), 'process');
    const full: Stall[] = [];
    const off: Stall[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      full.push(
        await probed(async () => {
          booked(r);
          ledger.setKv('fills.durableAtMs', String(r)); // the FULL commit: the fsync on this thread
        }),
      );
      off.push(
        await probed(async () => {
          booked(r);
          ledger.atomically(() => ledger.setKv('fills.durableAtMs', String(r)), 'process');
          await sync();
        }),
      );
    }
    ledger.close();
    rows.push(row('fill barrier: FULL commit on the main thread (before)', full), row('fill barrier: WAL fsync on the threadpool (after)', off));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await run());
}
