/**
 * The capital's part of the status line (src/operator/status-line.ts) and its fields: USDC by state (free, locked in
 * open orders, in open positions, in resolved markets not yet redeemed, redeemed and merged today, gas today) and,
 * when quoting is trimmed for want of capital, how many markets and the USDC short.
 *
 * Owns: that text and those fields (pure). Invariants: USDC at cents (gas at 1e-4), never raw units; the trim is said
 * only when a market is trimmed; an unreadable state leaves the figures out but still says the trim.
 */
import type { CapitalStatus } from './capital-view.js';

export interface CapitalFields {
  readonly freeUsdc: number | null;
  readonly openOrdersUsdc: number;
  readonly openPositionsUsdc: number;
  readonly unredeemedUsdc: number;
  readonly unredeemedMarkets: number;
  readonly redeemedTodayUsdc: number;
  readonly mergedTodayUsdc: number;
  readonly gasTodayUsdc: number;
  readonly gasTodayWei: string;
}

const cents = (raw: number): number => Math.round(raw / 10_000) / 100;

/** The status line's words and fields for the capital. Pure. */
export function capitalStatusPart(status: CapitalStatus): { readonly parts: string[]; readonly capital?: CapitalFields; readonly quotingTrimmed?: { readonly markets: number; readonly shortUsdc: number } } {
  const parts: string[] = [];
  const s = status.state;
  let capital: CapitalFields | undefined;
  if (s !== null) {
    capital = {
      freeUsdc: s.freeUsdcRaw === null ? null : cents(s.freeUsdcRaw),
      openOrdersUsdc: cents(s.openOrdersRaw),
      openPositionsUsdc: cents(s.openPositionsRaw),
      unredeemedUsdc: cents(s.unredeemedRaw),
      unredeemedMarkets: s.unredeemedMarkets,
      redeemedTodayUsdc: cents(s.redeemedTodayRaw),
      mergedTodayUsdc: cents(s.mergedTodayRaw),
      gasTodayUsdc: Math.round(s.gasToday.usdcRaw / 100) / 10_000,
      gasTodayWei: s.gasToday.wei,
    };
    const free = capital.freeUsdc === null ? 'free USDC not read yet' : `free ${capital.freeUsdc.toFixed(2)}`;
    parts.push(
      `capital USDC: ${free}, in orders ${capital.openOrdersUsdc.toFixed(2)}, in positions ${capital.openPositionsUsdc.toFixed(2)}, ` +
        `unredeemed ${capital.unredeemedUsdc.toFixed(2)} (${capital.unredeemedMarkets} markets), today redeemed ${capital.redeemedTodayUsdc.toFixed(2)} ` +
        `merged ${capital.mergedTodayUsdc.toFixed(2)} gas ${capital.gasTodayUsdc.toFixed(4)}`,
    );
  }
  const t = status.trimmed;
  if (t.markets === 0) return { parts, ...(capital === undefined ? {} : { capital }) };
  const shortUsdc = cents(t.shortRaw);
  parts.push(`quoting trimmed: ${t.markets} market${t.markets === 1 ? '' : 's'} lack capital (${shortUsdc.toFixed(2)} USDC short)`);
  return { parts, ...(capital === undefined ? {} : { capital }), quotingTrimmed: { markets: t.markets, shortUsdc } };
}
