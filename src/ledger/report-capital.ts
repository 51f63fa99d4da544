/**
 * The capital section of `report` (table and JSON): the account's capital by state (src/capital/capital-state.ts):
 * free USDC (the wallet's at the last chain check less the open BUYs), locked in open orders, in open positions, in
 * resolved markets not yet redeemed, redeemed and merged today on-chain, and the gas those transactions spent (ETH
 * and USDC, today and in all).
 *
 * Owns: the section's text and JSON (pure). Invariants: lines within 120 columns; USDC at cents, gas USDC at 1e-4,
 * ETH at 1e-9 (exact from wei); self-contained (nothing of the other sections' layout).
 */
import type { CapitalByState, GasSpent } from '../capital/capital-state.js';

const usdc = (raw: number): string => (raw / 1e6).toFixed(2);
const gasUsdc = (raw: number): string => (raw / 1e6).toFixed(4);

/** Wei (decimal text) as ETH at 1e-9, exact (no float in between). */
export function ethText(wei: string): string {
  const gwei = (BigInt(wei) + 500_000_000n) / 1_000_000_000n;
  const whole = gwei / 1_000_000_000n;
  const frac = (gwei % 1_000_000_000n).toString().padStart(9, '0');
  return `${whole}.${frac}`;
}

const utc = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

function gasLine(label: string, gas: GasSpent): string {
  return `  gas ${label}: ${ethText(gas.wei)} ETH = ${gasUsdc(gas.usdcRaw)} USDC (${gas.transactions} transaction${gas.transactions === 1 ? '' : 's'})`;
}

/** The section as text (a heading, one line per state, the gas). Pure. */
export function formatCapitalSection(s: CapitalByState): string {
  const rows: [string, string][] = [
    [s.chainUsdc === null ? 'free (not read: no chain check yet)' : `free (wallet at the chain check ${utc(s.chainUsdc.atMs)}, less open BUYs)`, s.freeUsdcRaw === null ? '-' : usdc(s.freeUsdcRaw)],
    ['locked in open orders', usdc(s.openOrdersRaw)],
    ['in open positions (cost)', usdc(s.openPositionsRaw)],
    [`in resolved markets, not yet redeemed (${s.unredeemedMarkets} market${s.unredeemedMarkets === 1 ? '' : 's'})`, usdc(s.unredeemedRaw)],
    ['redeemed today (on-chain and API, UTC day)', usdc(s.redeemedTodayRaw)],
    ['merged today (on-chain, UTC day)', usdc(s.mergedTodayRaw)],
  ];
  const labelWidth = Math.max(...rows.map(([l]) => l.length));
  const valueWidth = Math.max(...rows.map(([, v]) => v.length));
  const lines = rows.map(([label, value]) => `  ${label.padEnd(labelWidth)}  ${value.padStart(valueWidth)}`);
  return `\ncapital by state (USDC, as of ${utc(s.asOfMs)} UTC)\n${lines.join('\n')}\n${gasLine('today', s.gasToday)}\n${gasLine('in all', s.gasTotal)}\n`;
}

/** The section as JSON: USDC at cents, gas USDC at 1e-4, ETH as decimal text. Pure. */
export function capitalJson(s: CapitalByState): Record<string, unknown> {
  const gas = (g: GasSpent): Record<string, unknown> => ({ eth: ethText(g.wei), wei: g.wei, usdc: Number(gasUsdc(g.usdcRaw)), transactions: g.transactions });
  return {
    asOf: new Date(s.asOfMs).toISOString(),
    freeUsdc: s.freeUsdcRaw === null ? null : Number(usdc(s.freeUsdcRaw)),
    walletUsdc: s.chainUsdc === null ? null : { usdc: Number(usdc(s.chainUsdc.usdcRaw)), at: new Date(s.chainUsdc.atMs).toISOString() },
    openOrdersUsdc: Number(usdc(s.openOrdersRaw)),
    openPositionsUsdc: Number(usdc(s.openPositionsRaw)),
    unredeemedUsdc: Number(usdc(s.unredeemedRaw)),
    unredeemedMarkets: s.unredeemedMarkets,
    redeemedTodayUsdc: Number(usdc(s.redeemedTodayRaw)),
    apiRedeemedTodayUsdc: Number(usdc(s.apiRedeemedTodayRaw)),
    mergedTodayUsdc: Number(usdc(s.mergedTodayRaw)),
    gasToday: gas(s.gasToday),
    gasTotal: gas(s.gasTotal),
  };
}
