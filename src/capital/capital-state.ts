/**
 * The account's capital by state, as `report`, `status` and /metrics show it (docs/settlement.md "Capital by state"):
 * - free USDC: the wallet's USDC at the last chain check less what the open BUY orders lock (a CLOB order escrows
 *   nothing on-chain, so the wallet's balance counts it); null until the chain was read (no capital port, check off);
 * - locked in open orders: the collateral of the open BUY orders' remaining size;
 * - in open positions: the cost of the tokens held in markets not resolved yet;
 * - in resolved markets not yet redeemed: what the holdings of resolved markets still pay (the ledger's receivable);
 * - redeemed today (UTC): on-chain through the capital core and through the API (a server-managed wallet's); merged
 *   today, on-chain; and the gas those transactions spent today
 *   and in all (ETH and its USDC figure at booking).
 *
 * Owns: the arithmetic (`capitalByState`, pure) and the reading of its inputs from the ledger (`readCapitalState`),
 * plus the ledger key where the chain check leaves the wallet's USDC. Invariants: raw 1e6 integers and wei as decimal
 * text, never floats; nothing here writes but `recordChainUsdc`.
 */
import { collateralRaw } from '../core/venue-rules/index.js';
import type { Side } from '../core/venue-rules/index.js';
import type { ConfirmedCapitalTx } from './book.js';

/** The ledger key-value entry holding the wallet's USDC at the last chain check (JSON: {atMs, usdcRaw}). */
export const KV_CHAIN_USDC = 'capital.chainUsdc';

const DAY_MS = 86_400_000;

export interface CapitalByState {
  readonly asOfMs: number;
  /** The wallet's USDC less the open BUYs' lock; null when the chain was never read. */
  readonly freeUsdcRaw: number | null;
  /** The wallet's USDC at the last chain check and when (null: never read). */
  readonly chainUsdc: { readonly usdcRaw: number; readonly atMs: number } | null;
  readonly openOrdersRaw: number;
  readonly openPositionsRaw: number;
  readonly unredeemedRaw: number;
  /** Resolved markets still holding a payout. */
  readonly unredeemedMarkets: number;
  /** Redeemed today: on-chain (the capital core's transactions) and through the API (server-managed wallets). */
  readonly redeemedTodayRaw: number;
  /** The part of `redeemedTodayRaw` the API redeemed. */
  readonly apiRedeemedTodayRaw: number;
  readonly mergedTodayRaw: number;
  readonly gasToday: GasSpent;
  readonly gasTotal: GasSpent;
}

export interface GasSpent {
  readonly wei: string;
  readonly usdcRaw: number;
  readonly transactions: number;
}

export interface CapitalStateInput {
  readonly nowMs: number;
  readonly openOrders: readonly { readonly side: Side; readonly remainingRaw: number; readonly priceTicks: number }[];
  /** Per market: the cost of its long holdings, whether it resolved, and the payout still receivable. */
  readonly markets: readonly { readonly costRaw: number; readonly resolved: boolean; readonly receivableRaw: number }[];
  /** Booked on-chain transactions (any time: today's are picked by `nowMs`). */
  readonly booked: readonly Pick<ConfirmedCapitalTx, 'kind' | 'usdcInRaw' | 'gasWei' | 'gasUsdcRaw' | 'atMs'>[];
  readonly chainUsdc: { readonly usdcRaw: number; readonly atMs: number } | null;
  /** Redeemed today through the API (no on-chain transaction of the bot's): counted with the on-chain ones. */
  readonly apiRedeemedTodayRaw?: number;
}

function gasOf(txs: CapitalStateInput['booked']): GasSpent {
  let wei = 0n;
  let usdcRaw = 0;
  for (const tx of txs) {
    wei += BigInt(tx.gasWei);
    usdcRaw += tx.gasUsdcRaw;
  }
  return { wei: wei.toString(), usdcRaw, transactions: txs.length };
}

/** The capital by state of its inputs. Pure. */
export function capitalByState(input: CapitalStateInput): CapitalByState {
  const dayStartMs = Math.floor(input.nowMs / DAY_MS) * DAY_MS;
  let openOrdersRaw = 0;
  for (const order of input.openOrders) if (order.side === 'BUY' && order.remainingRaw > 0) openOrdersRaw += collateralRaw(order.remainingRaw, order.priceTicks, 'BUY');
  let openPositionsRaw = 0;
  let unredeemedRaw = 0;
  let unredeemedMarkets = 0;
  for (const market of input.markets) {
    if (!market.resolved) openPositionsRaw += Math.max(0, market.costRaw);
    else if (market.receivableRaw > 0) {
      unredeemedRaw += market.receivableRaw;
      unredeemedMarkets += 1;
    }
  }
  const today = input.booked.filter((tx) => tx.atMs >= dayStartMs);
  const sum = (kind: 'redeem' | 'merge'): number => today.filter((tx) => tx.kind === kind).reduce((a, tx) => a + tx.usdcInRaw, 0);
  return {
    asOfMs: input.nowMs,
    freeUsdcRaw: input.chainUsdc === null ? null : Math.max(0, input.chainUsdc.usdcRaw - openOrdersRaw),
    chainUsdc: input.chainUsdc,
    openOrdersRaw,
    openPositionsRaw,
    unredeemedRaw,
    unredeemedMarkets,
    redeemedTodayRaw: sum('redeem') + (input.apiRedeemedTodayRaw ?? 0),
    apiRedeemedTodayRaw: input.apiRedeemedTodayRaw ?? 0,
    mergedTodayRaw: sum('merge'),
    gasToday: gasOf(today),
    gasTotal: gasOf(input.booked),
  };
}

/** What `readCapitalState` reads of the ledger (src/ledger/store.ts). */
export interface CapitalStateLedger {
  openOrders(): readonly { readonly side: Side; readonly remainingRaw: number; readonly priceTicks: number }[];
  pnl(): { readonly markets: readonly { readonly yes: { readonly costRaw: number }; readonly no: { readonly costRaw: number }; readonly resolution: unknown; readonly receivableRaw: number; readonly redeemed: boolean }[] };
  readonly capital: { booked(sinceMs: number): readonly ConfirmedCapitalTx[] };
  readonly cash: { apiRedeemedSince(sinceMs: number): number };
  getKv(key: string): string | null;
}

/** The wallet's USDC at the last chain check, from the ledger (null: never read, or an entry that is not one). */
export function chainUsdcOf(text: string | null): { readonly usdcRaw: number; readonly atMs: number } | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const { usdcRaw, atMs } = value as Record<string, unknown>;
    return Number.isSafeInteger(usdcRaw) && Number.isSafeInteger(atMs) ? { usdcRaw: usdcRaw as number, atMs: atMs as number } : null;
  } catch {
    return null;
  }
}

/** The capital by state as the ledger holds it now. */
export function readCapitalState(ledger: CapitalStateLedger, nowMs: number): CapitalByState {
  const markets = ledger.pnl().markets.map((m) => ({
    costRaw: Math.max(0, m.yes.costRaw) + Math.max(0, m.no.costRaw),
    resolved: m.resolution !== null,
    receivableRaw: m.redeemed ? 0 : m.receivableRaw,
  }));
  const dayStartMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return capitalByState({
    nowMs,
    openOrders: ledger.openOrders(),
    markets,
    booked: ledger.capital.booked(0),
    chainUsdc: chainUsdcOf(ledger.getKv(KV_CHAIN_USDC)),
    apiRedeemedTodayRaw: ledger.cash.apiRedeemedSince(dayStartMs),
  });
}

/** The chain check read the wallet's USDC: kept in the ledger for `report` and the status line. */
export function recordChainUsdc(ledger: { setKv(key: string, value: string): void }, usdcRaw: number, atMs: number): void {
  ledger.setKv(KV_CHAIN_USDC, JSON.stringify({ usdcRaw, atMs }));
}
