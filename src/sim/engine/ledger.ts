/**
 * Accounts and their money: USDC and outcome-token balances with locks, average-cost positions per
 * market, and the account's fill history.
 *
 * Invariants (checked on every mutation; a breach is a bug and throws EngineInvariantError before
 * anything is written): 0 ≤ locked ≤ total for every balance; amounts are non-negative safe integers;
 * a debit from free funds never touches locked funds.
 */
import type { Outcome } from '../../core/venue-rules/index.js';
import { EngineInvariantError } from './errors.js';
import type { AccountFill, BalanceEntry, Balances, CapitalAction, SimAccount, TokenPosition } from './types.js';

export interface Balance {
  total: number;
  locked: number;
}

interface OutcomeBook {
  /** Average-cost basis of the tokens held. */
  costRaw: number;
  realisedRaw: number;
}

export interface MarketPosition {
  readonly yes: OutcomeBook;
  readonly no: OutcomeBook;
  feesPaidRaw: number;
}

/** A fill as stored: the public fields plus the settlement fields that change when it is mined. */
export type FillRecord = { -readonly [K in keyof AccountFill]: AccountFill[K] };

const tradeOrderKey = (tradeEventId: string, orderId: string): string => `${tradeEventId}\u0000${orderId}`;

function checkAmount(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new EngineInvariantError(`${what}: bad amount ${n}`);
}

export class AccountState implements SimAccount {
  readonly usdc: Balance;
  private readonly tokenBalances = new Map<string, Balance>();
  private readonly positionsByMarket = new Map<number, MarketPosition>();
  private fillHistory: FillRecord[] = [];
  /** The history's fills by (trade event, order), oldest first: the same records, rebuilt when the history is trimmed. */
  private fillsByTradeOrder = new Map<string, FillRecord[]>();
  /** Claims, merges and splits, oldest first (the history's non-trade entries). */
  private readonly actions: CapitalAction[] = [];

  constructor(
    readonly profileId: number,
    readonly address: string,
    readonly feeRateBps: number,
    readonly partnerProfileId: number | null,
    readonly serverManagedWallet: boolean,
    readonly synthetic: boolean,
    usdcRaw: number,
    private readonly fillLimit: number,
  ) {
    checkAmount('usdc', usdcRaw);
    this.usdc = { total: usdcRaw, locked: 0 };
  }

  view(): SimAccount {
    return {
      profileId: this.profileId,
      address: this.address,
      feeRateBps: this.feeRateBps,
      partnerProfileId: this.partnerProfileId,
      serverManagedWallet: this.serverManagedWallet,
      synthetic: this.synthetic,
    };
  }

  token(tokenId: string): Balance {
    let b = this.tokenBalances.get(tokenId);
    if (!b) {
      b = { total: 0, locked: 0 };
      this.tokenBalances.set(tokenId, b);
    }
    return b;
  }

  /** Records a claim, merge or split (its transaction hash derived from the account and its sequence: deterministic). */
  recordAction(action: Omit<CapitalAction, 'seq' | 'txHash'>): CapitalAction {
    const seq = this.actions.length + 1;
    const txHash = `0x${'ca'.repeat(8)}${this.profileId.toString(16).padStart(24, '0')}${seq.toString(16).padStart(24, '0')}`;
    const recorded = { ...action, seq, txHash };
    this.actions.push(recorded);
    return recorded;
  }

  capitalActions(): readonly CapitalAction[] {
    return this.actions;
  }

  tokenTotal(tokenId: string): number {
    return this.tokenBalances.get(tokenId)?.total ?? 0;
  }

  freeUsdc(): number {
    return this.usdc.total - this.usdc.locked;
  }

  freeToken(tokenId: string): number {
    const b = this.tokenBalances.get(tokenId);
    return b ? b.total - b.locked : 0;
  }

  balances(): Balances {
    const tokens: Record<string, BalanceEntry> = {};
    for (const [id, b] of this.tokenBalances) tokens[id] = { totalRaw: b.total, lockedRaw: b.locked };
    return { usdc: { totalRaw: this.usdc.total, lockedRaw: this.usdc.locked }, tokens };
  }

  tokenIds(): IterableIterator<string> {
    return this.tokenBalances.keys();
  }

  position(marketId: number): MarketPosition {
    let p = this.positionsByMarket.get(marketId);
    if (!p) {
      p = { yes: { costRaw: 0, realisedRaw: 0 }, no: { costRaw: 0, realisedRaw: 0 }, feesPaidRaw: 0 };
      this.positionsByMarket.set(marketId, p);
    }
    return p;
  }

  hasPosition(marketId: number): boolean {
    return this.positionsByMarket.has(marketId);
  }

  tokenPosition(marketId: number, outcome: Outcome, tokenId: string): TokenPosition {
    const book = outcome === 'YES' ? this.position(marketId).yes : this.position(marketId).no;
    const b = this.tokenBalances.get(tokenId) ?? { total: 0, locked: 0 };
    return {
      tokenId,
      balanceRaw: b.total,
      lockedRaw: b.locked,
      costBasisRaw: book.costRaw,
      averageFillPrice: b.total > 0 ? book.costRaw / b.total : null,
      realisedPnlRaw: book.realisedRaw,
    };
  }

  /** Tokens of `outcome` acquired for `costRaw` (call AFTER crediting them is not required: cost only). */
  recordAcquire(marketId: number, outcome: Outcome, costRaw: number): void {
    const book = outcome === 'YES' ? this.position(marketId).yes : this.position(marketId).no;
    book.costRaw += costRaw;
  }

  /** `sizeRaw` of `holdingBefore` tokens disposed of for `proceedsRaw`: average-cost realisation. */
  recordDispose(marketId: number, outcome: Outcome, sizeRaw: number, holdingBefore: number, proceedsRaw: number): void {
    if (sizeRaw > holdingBefore || holdingBefore <= 0) {
      throw new EngineInvariantError(`dispose ${sizeRaw} of ${holdingBefore} held`);
    }
    const book = outcome === 'YES' ? this.position(marketId).yes : this.position(marketId).no;
    const removed = Number((BigInt(book.costRaw) * BigInt(sizeRaw)) / BigInt(holdingBefore));
    book.costRaw -= removed;
    book.realisedRaw += proceedsRaw - removed;
  }

  recordFee(marketId: number, feeRaw: number): void {
    this.position(marketId).feesPaidRaw += feeRaw;
  }

  addFill(fill: FillRecord): void {
    this.fillHistory.push(fill);
    if (this.fillHistory.length > this.fillLimit * 1.25 + 16) {
      this.fillHistory = this.fillHistory.slice(this.fillHistory.length - this.fillLimit);
      this.fillsByTradeOrder = new Map();
      for (const kept of this.fillHistory) this.indexFill(kept);
    } else {
      this.indexFill(fill);
    }
  }

  fills(): readonly FillRecord[] {
    return this.fillHistory;
  }

  /** The history's fills of one order in one trade event, oldest first. */
  fillsOf(tradeEventId: string, orderId: string): readonly FillRecord[] {
    return this.fillsByTradeOrder.get(tradeOrderKey(tradeEventId, orderId)) ?? [];
  }

  private indexFill(fill: FillRecord): void {
    const key = tradeOrderKey(fill.tradeEventId, fill.orderId);
    const list = this.fillsByTradeOrder.get(key);
    if (list === undefined) this.fillsByTradeOrder.set(key, [fill]);
    else list.push(fill);
  }
}

// ── balance mutations: all checked, all-or-nothing ──

export function lock(b: Balance, n: number, what: string): void {
  checkAmount(what, n);
  if (b.total - b.locked < n) throw new EngineInvariantError(`${what}: lock ${n} with ${b.total - b.locked} free`);
  b.locked += n;
}

export function unlock(b: Balance, n: number, what: string): void {
  checkAmount(what, n);
  if (b.locked < n) throw new EngineInvariantError(`${what}: unlock ${n} with ${b.locked} locked`);
  b.locked -= n;
}

/** Spend from free funds. */
export function debitFree(b: Balance, n: number, what: string): void {
  checkAmount(what, n);
  if (b.total - b.locked < n) throw new EngineInvariantError(`${what}: debit ${n} with ${b.total - b.locked} free`);
  b.total -= n;
}

/** Spend funds that were locked for this purpose. */
export function debitLocked(b: Balance, n: number, what: string): void {
  checkAmount(what, n);
  if (b.locked < n || b.total < n) throw new EngineInvariantError(`${what}: debit ${n} locked with ${b.locked} locked`);
  b.locked -= n;
  b.total -= n;
}

export function credit(b: Balance, n: number, what: string): void {
  checkAmount(what, n);
  const total = b.total + n;
  if (!Number.isSafeInteger(total)) throw new EngineInvariantError(`${what}: balance overflow`);
  b.total = total;
}
