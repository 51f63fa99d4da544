/**
 * Capital rules (pure): what to do with one market's tokens so its capital comes back.
 *
 * - A resolved market the wallet still holds paying tokens of is REDEEMED (the whole holding: the conditional tokens'
 *   `redeemPositions` burns both tokens of the condition).
 * - An open market where the wallet holds YES and NO beyond what its open SELL orders lock has complete sets: they are
 *   MERGED back into USDC (1 per set) when the merge pays: at least `minSetsRaw` sets and at least
 *   `minTimeToSettleMs` left before the market settles (closer to settlement the redemption frees them anyway, and
 *   the gas would buy little time). After resolution a pair is redeemed, never merged.
 * - Gas is booked in USDC at the configured ETH price: wei × price / 1e18, rounded up (a cost).
 *
 * Invariants: amounts are raw 1e6 integers; a merge never asks for more sets than both tokens hold free of SELL
 * locks; a key is stable for one intent (`<kind>:<slug>:<n>`, n = the market's transactions of that kind journaled
 * before it), so a restart finds its journaled transaction by key instead of sending another.
 */
import { payoutOfHolding, type PayoutRule } from './settlement-rules.js';
import type { CapitalMarketRef, CapitalTxKind } from './port.js';

export interface MergeSettings {
  readonly enabled: boolean;
  /** Complete sets (raw) below which a merge is not worth a transaction. */
  readonly minSetsRaw: number;
  /** No merge closer than this to the market's settlement (the redemption frees the sets soon after it). */
  readonly minTimeToSettleMs: number;
}

/** One market as the capital core sees it (the ledger's holdings, the executor's open SELL orders). */
export interface MarketCapitalState {
  readonly market: CapitalMarketRef;
  /** The ledger's holdings (raw), 0 once redeemed. */
  readonly yesRaw: number;
  readonly noRaw: number;
  /** Remaining size of the bot's open SELL orders per token (raw): those tokens stay out of a merge. */
  readonly lockedYesRaw: number;
  readonly lockedNoRaw: number;
  /** The payout rule once resolved; null while open. */
  readonly resolution: PayoutRule | null;
  /** A redemption is booked for the market. */
  readonly redeemed: boolean;
  /** The market's settlement instant (ms), null when unknown. */
  readonly settlesAtMs: number | null;
}

export type CapitalAction =
  | { readonly kind: 'redeem'; readonly slug: string; readonly expectedRaw: number }
  | { readonly kind: 'merge'; readonly slug: string; readonly setsRaw: number };

/** Complete sets free of SELL locks (never negative). */
export function freeSets(state: Pick<MarketCapitalState, 'yesRaw' | 'noRaw' | 'lockedYesRaw' | 'lockedNoRaw'>): number {
  return Math.max(0, Math.min(state.yesRaw - state.lockedYesRaw, state.noRaw - state.lockedNoRaw));
}

/** What the market's capital needs now, if anything. */
export function planMarket(state: MarketCapitalState, merge: MergeSettings, nowMs: number): CapitalAction | null {
  const slug = state.market.slug;
  if (state.resolution !== null) {
    if (state.redeemed) return null;
    const expectedRaw = payoutOfHolding({ yesRaw: state.yesRaw, noRaw: state.noRaw }, state.resolution);
    return expectedRaw > 0 ? { kind: 'redeem', slug, expectedRaw } : null;
  }
  if (!merge.enabled) return null;
  const setsRaw = freeSets(state);
  if (setsRaw <= 0 || setsRaw < merge.minSetsRaw) return null;
  if (state.settlesAtMs !== null && state.settlesAtMs - nowMs < merge.minTimeToSettleMs) return null;
  return { kind: 'merge', slug, setsRaw };
}

/** The first action over the markets (in the order given), skipping markets waiting out a back-off. */
export function nextAction(states: readonly MarketCapitalState[], merge: MergeSettings, nowMs: number, waiting: (slug: string) => boolean): CapitalAction | null {
  for (const state of states) {
    if (waiting(state.market.slug)) continue;
    const action = planMarket(state, merge, nowMs);
    if (action !== null) return action;
  }
  return null;
}

/** The idempotency key of an intent: stable across restarts for the n-th transaction of a kind in a market. */
export function capitalTxKey(kind: CapitalTxKind, slug: string, journaledBefore: number): string {
  return `${kind}:${slug}:${journaledBefore + 1}`;
}

const WEI_PER_ETH = 10n ** 18n;

/** Gas paid (wei, decimal string) in raw USDC at `ethPriceUsdcRaw` (raw USDC per ETH), rounded up. */
export function gasUsdcRaw(gasWei: string, ethPriceUsdcRaw: number): number {
  if (!/^\d{1,40}$/.test(gasWei)) throw new RangeError(`gasWei must be a decimal integer, got ${gasWei}`);
  const product = BigInt(gasWei) * BigInt(ethPriceUsdcRaw);
  const usdc = (product + WEI_PER_ETH - 1n) / WEI_PER_ETH;
  return Number(usdc);
}

/**
 * The gas in wei that costs `gasUsdcRaw` at `ethPriceUsdcRaw` (rounded down, so `gasUsdcRaw` of it gives the USDC
 * figure back exactly): how a backtest's USDC gas setting reaches the engine's port, which answers in wei as a chain does.
 */
export function gasWeiForUsdc(gasUsdcRaw: number, ethPriceUsdcRaw: number): string {
  if (!Number.isSafeInteger(gasUsdcRaw) || gasUsdcRaw < 0) throw new RangeError(`gasUsdcRaw must be a non-negative integer, got ${gasUsdcRaw}`);
  if (!Number.isSafeInteger(ethPriceUsdcRaw) || ethPriceUsdcRaw <= 0) throw new RangeError(`ethPriceUsdcRaw must be a positive integer, got ${ethPriceUsdcRaw}`);
  return ((BigInt(gasUsdcRaw) * WEI_PER_ETH) / BigInt(ethPriceUsdcRaw)).toString();
}

/** A difference between the ledger's holding of a token and the chain's. */
export interface HoldingDifference {
  readonly slug: string;
  readonly token: 'YES' | 'NO';
  readonly tokenId: string;
  readonly ledgerRaw: number;
  readonly chainRaw: number;
}

/** The tokens whose chain balance differs from the ledger's holding (markets not redeemed). */
export function holdingDifferences(states: readonly MarketCapitalState[], chain: ReadonlyMap<string, number>): HoldingDifference[] {
  const out: HoldingDifference[] = [];
  for (const state of states) {
    if (state.redeemed) continue;
    const pairs: readonly ['YES' | 'NO', string, number][] = [
      ['YES', state.market.yesTokenId, state.yesRaw],
      ['NO', state.market.noTokenId, state.noRaw],
    ];
    for (const [token, tokenId, ledgerRaw] of pairs) {
      const chainRaw = chain.get(tokenId);
      if (chainRaw !== undefined && chainRaw !== ledgerRaw) out.push({ slug: state.market.slug, token, tokenId, ledgerRaw, chainRaw });
    }
  }
  return out;
}

export function differenceKey(difference: HoldingDifference): string {
  return `${difference.tokenId}:${difference.ledgerRaw}:${difference.chainRaw}`;
}
