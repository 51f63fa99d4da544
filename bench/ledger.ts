/**
 * Ledger benchmark: fills recorded per second (one transaction per fill, and batched) under
 * synchronous=NORMAL and FULL, and the database size per million fills, extrapolated from 100k fills
 * written with their raw SETTLEMENT events (realistic ids: UUIDs, 77-digit token ids). Temp dir only.
 *
 * Run: npx tsx bench/ledger.ts
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '../src/core/random.js';
import { openLedger, type LedgerStore } from '../src/ledger/store.js';
import type { FillInput } from '../src/ledger/types.js';

const SIZE_FILLS = 100_000;
const BATCH = 1000;

function uuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const TOKEN_IDS = Array.from({ length: 40 }, (_, i) => `${'8'.repeat(70)}${String(1_000_000 + i)}`);

function makeFills(count: number, seed: number, startMs: number): FillInput[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, i): FillInput => {
    const market = Math.floor(random() * 20);
    const yes = random() < 0.5;
    const side = random() < 0.55 ? 'BUY' : 'SELL';
    return {
      tradeEventId: uuid(random),
      orderId: uuid(random),
      clientOrderId: `mm1-market-${market}-bid-0-${i}`,
      marketSlug: `will-something-happen-by-2026-${market}`,
      token: yes ? 'YES' : 'NO',
      tokenId: TOKEN_IDS[market * 2 + (yes ? 0 : 1)] ?? '1',
      side,
      priceTicks: 100 + Math.floor(random() * 800),
      sizeRaw: (1 + Math.floor(random() * 200)) * 100_000,
      feeRaw: side === 'SELL' ? Math.floor(random() * 30_000) : 0,
      role: side === 'SELL' ? 'taker' : 'maker',
      state: 'mined',
      atMs: startMs + i * 250,
    };
  });
}

function settlementPayload(fill: FillInput): Record<string, unknown> {
  return {
    source: 'SETTLEMENT',
    type: 'MINED',
    eventId: `settlement:${fill.tradeEventId}`,
    tradeEventId: fill.tradeEventId,
    orderId: fill.orderId,
    clientOrderId: fill.clientOrderId,
    marketSlug: fill.marketSlug,
    tokenId: fill.tokenId,
    side: fill.side,
    price: (fill.priceTicks / 1000).toFixed(3),
    amountContracts: String(fill.sizeRaw),
    amountCollateral: String(Math.round((fill.sizeRaw * fill.priceTicks) / 1000)),
    feeRateBps: 300,
    txHash: `0x${'ab'.repeat(32)}`,
    makerMatches: [{ account: `0x${'12'.repeat(20)}`, orderId: fill.orderId, matchedSize: String(fill.sizeRaw), price: fill.priceTicks / 1000 }],
    timestamp: new Date(fill.atMs).toISOString(),
  };
}

function recordWithEvent(ledger: LedgerStore, fill: FillInput): void {
  ledger.atomically(() => {
    if (ledger.recordEvent(`settlement:${fill.tradeEventId}`, 'SETTLEMENT', settlementPayload(fill), fill.atMs)) {
      ledger.recordFill(fill);
    }
  });
}

function perSecond(count: number, ms: number): number {
  return Math.round((count / ms) * 1000);
}

/** Wall-clock rate and CPU cost: the CPU figure stays comparable on a busy machine. */
interface Rate {
  readonly perSecond: number;
  readonly cpuMicrosPerFill: number;
}

function measure(work: () => number): Rate {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const count = work();
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { perSecond: perSecond(count, elapsed), cpuMicrosPerFill: Math.round((used.user + used.system) / count) };
}

function singleTransactions(dir: string, name: string, synchronous: 'NORMAL' | 'FULL', maxFills: number, maxMs: number): Rate {
  const ledger = openLedger({ path: join(dir, `${name}.sqlite`), synchronous });
  const fills = makeFills(maxFills, 11, Date.UTC(2025, 0, 1));
  const rate = measure(() => {
    const started = performance.now();
    let done = 0;
    for (const fill of fills) {
      recordWithEvent(ledger, fill);
      done += 1;
      if (performance.now() - started > maxMs) break;
    }
    return done;
  });
  ledger.close();
  return rate;
}

function batched(dir: string, name: string, synchronous: 'NORMAL' | 'FULL', count: number): { rate: Rate; bytes: number } {
  const path = join(dir, `${name}.sqlite`);
  const ledger = openLedger({ path, synchronous });
  const fills = makeFills(count, 7, Date.UTC(2025, 0, 1));
  const rate = measure(() => {
    for (let start = 0; start < fills.length; start += BATCH) {
      const batch = fills.slice(start, start + BATCH);
      ledger.atomically(() => {
        for (const fill of batch) recordWithEvent(ledger, fill);
      });
    }
    return fills.length;
  });
  ledger.db.pragma('wal_checkpoint(TRUNCATE)');
  ledger.close();
  const bytes = statSync(path).size;
  return { rate, bytes };
}

export async function run(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ledger-'));
  try {
    const singleNormal = singleTransactions(dir, 'single-normal', 'NORMAL', 5000, 3000);
    const singleFull = singleTransactions(dir, 'single-full', 'FULL', 2000, 3000);
    const batchedFull = batched(dir, 'batched-full', 'FULL', 20_000);
    const batchedNormal = batched(dir, 'batched-normal', 'NORMAL', SIZE_FILLS);
    const mbPerMillion = (batchedNormal.bytes / SIZE_FILLS) * 1_000_000 / (1024 * 1024);
    return {
      'fills/s, one transaction each, synchronous=FULL': singleFull.perSecond,
      'fills/s, one transaction each, synchronous=NORMAL': singleNormal.perSecond,
      [`fills/s, batches of ${BATCH}, synchronous=FULL`]: batchedFull.rate.perSecond,
      [`fills/s, batches of ${BATCH}, synchronous=NORMAL (100k fills)`]: batchedNormal.rate.perSecond,
      'CPU µs per fill, one transaction each, FULL': singleFull.cpuMicrosPerFill,
      'CPU µs per fill, one transaction each, NORMAL': singleNormal.cpuMicrosPerFill,
      [`CPU µs per fill, batches of ${BATCH}, FULL`]: batchedFull.rate.cpuMicrosPerFill,
      [`CPU µs per fill, batches of ${BATCH}, NORMAL`]: batchedNormal.rate.cpuMicrosPerFill,
      'bytes per fill (with its raw event)': Math.round(batchedNormal.bytes / SIZE_FILLS),
      'MB per million fills (extrapolated from 100k)': Math.round(mbPerMillion),
      note: 'each fill is recorded with its raw SETTLEMENT event in the same transaction; wall rates depend on machine load and fsync latency',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run();
  for (const [name, value] of Object.entries(figures)) console.log(`${name}: ${value}`);
}
