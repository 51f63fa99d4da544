/**
 * Builders for ledger tests: fills and orders with sensible defaults, an in-memory ledger with a manual
 * clock and a recording observer, and temporary directories that are removed afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger, type LedgerStore } from '../../src/ledger/store.js';
import type { FillInput, LedgerObserver, OrderInput } from '../../src/ledger/types.js';
import type { FillEvent } from '../../src/orders/executor-types.js';

export const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);

export function fillInput(overrides: Partial<FillInput> & { tradeEventId: string }): FillInput {
  return {
    orderId: 'order-1',
    marketSlug: 'btc-100k',
    token: 'YES',
    tokenId: '111',
    side: 'BUY',
    priceTicks: 500,
    sizeRaw: 10_000_000,
    feeRaw: 0,
    role: 'maker',
    state: 'mined',
    atMs: T0,
    ...overrides,
  };
}

export function orderInput(overrides: Partial<OrderInput> & { clientOrderId: string }): OrderInput {
  return {
    marketSlug: 'btc-100k',
    slot: 'bid-0',
    token: 'YES',
    tokenId: '111',
    side: 'BUY',
    priceTicks: 500,
    sizeRaw: 10_000_000,
    atMs: T0,
    ...overrides,
  };
}

export interface Recorded {
  readonly calls: Array<[string, ...unknown[]]>;
  count(method: string): number;
}

/** An observer that records every call by method name. */
export function recordingObserver(): LedgerObserver & Recorded {
  const calls: Array<[string, ...unknown[]]> = [];
  return {
    calls,
    count: (method: string) => calls.filter(([name]) => name === method).length,
    onFill: (...args) => calls.push(['onFill', ...args]),
    onEvent: (...args) => calls.push(['onEvent', ...args]),
    onConflict: (...args) => calls.push(['onConflict', ...args]),
    onReplay: (...args) => calls.push(['onReplay', ...args]),
    onMismatch: (...args) => calls.push(['onMismatch', ...args]),
    onRepair: (...args) => calls.push(['onRepair', ...args]),
  };
}

export function memoryLedger(options: { observer?: LedgerObserver; now?: () => number } = {}): LedgerStore {
  return openLedger({ path: ':memory:', now: options.now ?? (() => T0), ...(options.observer ? { observer: options.observer } : {}) });
}

export function makeTempDir(prefix = 'ledger-test-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An executor fill (what src/booking/fill-booking.ts and FillRecorder receive): 4 YES bought at 0.450, provisional. */
export const EXECUTOR_FILL: FillEvent & { readonly orderId: string } = {
  tradeEventId: 'trade-1',
  orderId: 'order-1',
  clientOrderId: 'om-1a2b3c4d-bid-0-k1',
  marketSlug: 'btc',
  slot: 'bid-0',
  token: 'YES',
  tokenId: '101',
  side: 'BUY',
  priceTicks: 450,
  sizeRaw: 4_000_000,
  state: 'provisional',
  update: false,
  atMs: T0,
};
