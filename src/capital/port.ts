/**
 * The capital port: the one seam between "when to redeem or merge, and what to book" (the capital core, shared by the
 * bot and the backtest) and "what moves the balances" (viem against a JSON-RPC endpoint live; the simulator's engine on
 * paper and in backtests).
 *
 * Owns: the shapes of a capital transaction's request, its journal and its outcome. Invariants: amounts are raw 1e6
 * integers (USDC and outcome tokens); a port calls `journal.broadcast` (durably recorded by the core) before it
 * returns from sending, so a transaction whose answer is lost is found again by its hash (`recover`), never sent twice;
 * nothing is booked by the core unless the outcome is `confirmed`.
 */

export type Hex = `0x${string}`;

/** What a port needs to know about a market to redeem it or merge its complete sets. */
export interface CapitalMarketRef {
  readonly slug: string;
  readonly conditionId: Hex;
  /** A grouped (NegRisk) market redeems and merges through its adapter. */
  readonly negRisk: boolean;
  /** The NegRisk adapter (`venue.adapter`); null for a plain CLOB market. */
  readonly adapter: Hex | null;
  /** The exchange contract of the market (`venue.exchange`). */
  readonly exchange: Hex;
  /** Decimal token ids (uint256 as decimal strings). */
  readonly yesTokenId: string;
  readonly noTokenId: string;
}

export type CapitalTxKind = 'redeem' | 'merge';

export interface CapitalTxRequest {
  readonly kind: CapitalTxKind;
  readonly market: CapitalMarketRef;
  /** merge: complete sets to merge (raw); redeem: the wallet's whole winning holding is redeemed (informational). */
  readonly amountRaw: number;
  /** Stable across restarts for the same intent (e.g. `merge:<slug>:<n>`); the core dedupes on it. */
  readonly key: string;
}

/** The core's durable record of a transaction in flight; written before the port returns from sending. */
export interface CapitalTxJournal {
  broadcast(key: string, tx: { readonly hash: Hex; readonly nonce: number }): void;
}

export type CapitalTxOutcome =
  | {
      readonly status: 'confirmed';
      readonly hash: Hex;
      readonly block: number;
      /** USDC credited to the wallet by this transaction (raw). */
      readonly usdcInRaw: number;
      readonly yesBurnedRaw: number;
      readonly noBurnedRaw: number;
      /** Gas paid, in wei (decimal string: it does not fit a double). */
      readonly gasWei: string;
    }
  | { readonly status: 'reverted'; readonly hash: Hex; readonly block: number; readonly reason: string; readonly gasWei: string }
  /** The condition's payout is not posted on-chain yet (redeem), or nothing to do: retry later, nothing sent. */
  | { readonly status: 'not-ready'; readonly reason: string }
  /** Too little native token for gas: nothing sent. */
  | { readonly status: 'insufficient-gas'; readonly wallet: Hex; readonly needWei: string; readonly haveWei: string }
  /** Gas price above the configured ceiling: nothing sent, retry later. */
  | { readonly status: 'gas-price-too-high'; readonly gasPriceWei: string; readonly ceilingWei: string };

export interface CapitalBalances {
  /** Raw token balances by decimal token id. */
  readonly tokens: ReadonlyMap<string, number>;
  readonly usdcRaw: number;
}

export interface CapitalPort {
  /** 'chain' live (viem), 'engine' on paper and in backtests. */
  readonly kind: 'chain' | 'engine';
  /** Sends one transaction (one at a time per wallet) and waits for its receipt. */
  submit(request: CapitalTxRequest, journal: CapitalTxJournal): Promise<CapitalTxOutcome>;
  /** A transaction journaled but never resolved (lost answer, crash): its outcome by hash; 'unknown' when the chain has no trace of it. */
  recover(request: CapitalTxRequest, tx: { readonly hash: Hex; readonly nonce: number }): Promise<CapitalTxOutcome | 'unknown'>;
  /** The wallet's balances of these tokens and of USDC, read from the chain (or the engine). */
  balances(tokenIds: readonly string[]): Promise<CapitalBalances>;
}
