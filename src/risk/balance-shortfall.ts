/**
 * Balance shortfalls: placements the venue refused for want of balance (USDC for a BUY, the token for a SELL).
 *
 * Several bots (processes) may share one account, hence one USDC balance and one balance per token, while each
 * bot's funding counts only its own ledger. A refusal for insufficient balance is therefore a normal outcome, not
 * an error to retry: the side that was refused is taken out of the bot's funding (the token's balance, or the
 * free collateral) until the account's balances are read again, and funding quotes the other way (a SELL X the
 * tokens cannot cover becomes BUY ¬X, src/orders/funding.ts) or not at all. Nothing retries the refused order.
 *
 * Owns: the set of refused (token | collateral) keys and when they were noted. Pure state, injected clock.
 * Invariants: a shortfall lasts until `balancesRead` (the periodic balance read) or `maxHoldMs` at most, so a
 * missed read never blocks a side for good; each refusal is noted once per key until it is lifted.
 */
import type { Side } from '../core/venue-rules/index.js';

/** The placement errors' reason for a refusal for want of balance (src/venue/venue-adapter.ts `rejectionReason`). */
export const INSUFFICIENT_BALANCE = 'insufficient-balance';

export interface Shortfall {
  readonly marketSlug: string;
  readonly tokenId: string;
  readonly side: Side;
  readonly sinceMs: number;
}

export class BalanceShortfalls {
  /** Key: the token id for a SELL, 'collateral' for a BUY. */
  private readonly byKey = new Map<string, Shortfall>();

  constructor(
    private readonly now: () => number,
    private readonly maxHoldMs = 120_000,
  ) {}

  /** A placement was refused for insufficient balance. Returns false when the key was already short. */
  note(refusal: { readonly marketSlug: string; readonly tokenId: string; readonly side: Side }): boolean {
    this.expire();
    const key = refusal.side === 'BUY' ? 'collateral' : refusal.tokenId;
    if (this.byKey.has(key)) return false;
    this.byKey.set(key, { ...refusal, sinceMs: this.now() });
    return true;
  }

  /** The account's balances were read: every shortfall is lifted (funding sees fresh figures). */
  balancesRead(): void {
    this.byKey.clear();
  }

  /** True while BUYs are refused for want of collateral. */
  collateralShort(): boolean {
    this.expire();
    return this.byKey.has('collateral');
  }

  /** True while SELLs of this token are refused for want of tokens. */
  tokenShort(tokenId: string): boolean {
    this.expire();
    return this.byKey.has(tokenId);
  }

  list(): Shortfall[] {
    this.expire();
    return [...this.byKey.values()];
  }

  private expire(): void {
    const now = this.now();
    for (const [key, shortfall] of this.byKey) if (now - shortfall.sinceMs >= this.maxHoldMs) this.byKey.delete(key);
  }
}
