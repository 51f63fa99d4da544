/**
 * The position book: the account's holdings in memory, so the quoting path (src/risk/account-view.ts) never reads
 * SQLite. Per market: each token's totals (exactly the `positions` row: position, cost, realized, fees, volume, fill
 * count), whether a redemption was recorded (its tokens are gone), and the token ids the ledger knows; plus the
 * aggregates the gate reads: the markets held and the cost of their holdings.
 *
 * Owns: that memory and its aggregates. It is written only by the ledger's booking paths (src/ledger/store.ts hands
 * it to the repos, which stage each change with `LedgerContext.afterCommit`, so a rolled-back write never reaches it),
 * by `load` (start-up) and by `repair` (the periodic check found a difference). Invariants: `heldCostRaw()` always
 * equals Σ `positionCostRaw(m)` over `heldMarkets()` (kept incrementally: every change of a market removes its old
 * share and adds its new one); a market is held when either token's balance (0 once redeemed) is not 0; every read is
 * O(1) but `tokenBalances()` and `snapshot()` (O(markets), for checks and reports).
 *
 * A new booking kind updates it through one of three entries: `setTotals` (a token's new totals, as the `positions`
 * row is written), `markRedeemed` (the market's tokens are gone), `noteTokenId` (a token id learned). See
 * docs/ledger.md, *The position book*.
 */
import type { Outcome } from '../core/venue-rules/index.js';
import type { PositionView } from '../strategy/contract.js';
import { EMPTY_TOKEN, type TokenTotals } from './pnl.js';
import { averageCost } from './position-math.js';

/** One market's state in the book. */
export interface BookMarket {
  readonly yes: TokenTotals;
  readonly no: TokenTotals;
  readonly redeemed: boolean;
  readonly tokenIds: { readonly YES: string | null; readonly NO: string | null };
}

/** The book's whole content, as loaded from the ledger or compared with it. */
export type PositionBookSnapshot = ReadonlyMap<string, BookMarket>;

interface MutableMarket {
  yes: TokenTotals;
  no: TokenTotals;
  redeemed: boolean;
  /** Token ids, the first seen from fills (they win, as the ledger's lookup reads fills first) and from orders. */
  fillIds: { YES: string | null; NO: string | null };
  orderIds: { YES: string | null; NO: string | null };
}

const TOTAL_FIELDS: ReadonlyArray<keyof TokenTotals> = ['positionRaw', 'costRaw', 'realizedRaw', 'feesRaw', 'volumeRaw', 'fillCount'];

function costOf(market: MutableMarket): number {
  return Math.max(0, market.yes.costRaw) + Math.max(0, market.no.costRaw);
}

function heldOf(market: MutableMarket): boolean {
  return !market.redeemed && (market.yes.positionRaw !== 0 || market.no.positionRaw !== 0);
}

/** Structurally the account view's `AccountLedger` (src/risk/account-view.ts): every read it makes is O(1). */
export class PositionBook {
  private readonly markets = new Map<string, MutableMarket>();
  private readonly held = new Set<string>();
  /** token id → market slug and token, for the held markets' tokens whose id is known. */
  private readonly byTokenId = new Map<string, { readonly marketSlug: string; readonly token: Outcome }>();
  private heldCost = 0;

  // Writes (the ledger's booking paths, after their transaction committed) --------------------------------------

  /** A token's totals as the ledger's `positions` row now holds them. */
  setTotals(marketSlug: string, token: Outcome, totals: TokenTotals): void {
    this.change(marketSlug, (market) => {
      const copy: TokenTotals = { positionRaw: totals.positionRaw, costRaw: totals.costRaw, realizedRaw: totals.realizedRaw, feesRaw: totals.feesRaw, volumeRaw: totals.volumeRaw, fillCount: totals.fillCount };
      if (token === 'YES') market.yes = copy;
      else market.no = copy;
    });
  }

  /** A redemption was recorded: the market's tokens are gone (balances read 0; costs stay, as in the ledger). */
  markRedeemed(marketSlug: string): void {
    this.change(marketSlug, (market) => {
      market.redeemed = true;
    });
  }

  /** A token id the ledger learned from a fill (`fill`) or an order (`order`). */
  noteTokenId(marketSlug: string, token: Outcome, tokenId: string, source: 'fill' | 'order'): void {
    if (tokenId === '') return;
    this.change(marketSlug, (market) => {
      const ids = source === 'fill' ? market.fillIds : market.orderIds;
      ids[token] ??= tokenId;
    });
  }

  /** Replaces the whole content (start-up, or a repair after a difference with the ledger). */
  load(snapshot: PositionBookSnapshot): void {
    for (const slug of [...this.markets.keys()]) this.change(slug, () => undefined, true);
    for (const [slug, market] of snapshot) {
      this.change(slug, (entry) => {
        entry.yes = market.yes;
        entry.no = market.no;
        entry.redeemed = market.redeemed;
        entry.fillIds = { ...market.tokenIds };
        entry.orderIds = { YES: null, NO: null };
      });
    }
  }

  // Reads (O(1)) ------------------------------------------------------------------------------------------------

  tokenPosition(marketSlug: string, token: Outcome): TokenTotals {
    const market = this.markets.get(marketSlug);
    if (market === undefined) return EMPTY_TOKEN;
    return token === 'YES' ? market.yes : market.no;
  }

  marketPosition(marketSlug: string): Omit<PositionView, 'freeCollateralRaw'> {
    const market = this.markets.get(marketSlug);
    if (market === undefined || market.redeemed) return { yesRaw: 0, noRaw: 0, yesAvgCost: null, noAvgCost: null };
    return { yesRaw: market.yes.positionRaw, noRaw: market.no.positionRaw, yesAvgCost: averageCost(market.yes), noAvgCost: averageCost(market.no) };
  }

  positionCostRaw(marketSlug: string): number {
    const market = this.markets.get(marketSlug);
    return market === undefined ? 0 : costOf(market);
  }

  isHeld(marketSlug: string): boolean {
    return this.held.has(marketSlug);
  }

  heldCostRaw(): number {
    return this.heldCost;
  }

  heldMarkets(): ReadonlySet<string> {
    return this.held;
  }

  heldCount(): number {
    return this.held.size;
  }

  tokenBalanceById(tokenId: string): number | undefined {
    const at = this.byTokenId.get(tokenId);
    if (at === undefined) return undefined;
    return this.tokenPosition(at.marketSlug, at.token).positionRaw;
  }

  tokenIdFor(marketSlug: string, token: Outcome): string | null {
    const market = this.markets.get(marketSlug);
    if (market === undefined) return null;
    return market.fillIds[token] ?? market.orderIds[token];
  }

  /** Every market's state (O(markets): checks and reports, never the quoting path). */
  snapshot(): Map<string, BookMarket> {
    const out = new Map<string, BookMarket>();
    for (const [slug, market] of this.markets) {
      out.set(slug, { yes: market.yes, no: market.no, redeemed: market.redeemed, tokenIds: { YES: this.tokenIdFor(slug, 'YES'), NO: this.tokenIdFor(slug, 'NO') } });
    }
    return out;
  }

  // Internals ---------------------------------------------------------------------------------------------------

  /** Applies `mutate` to the market and keeps the aggregates: its old share out, its new share in. */
  private change(marketSlug: string, mutate: (market: MutableMarket) => void, drop = false): void {
    let market = this.markets.get(marketSlug);
    if (market === undefined) {
      market = { yes: EMPTY_TOKEN, no: EMPTY_TOKEN, redeemed: false, fillIds: { YES: null, NO: null }, orderIds: { YES: null, NO: null } };
      this.markets.set(marketSlug, market);
    }
    if (this.held.has(marketSlug)) {
      this.heldCost -= costOf(market);
      this.held.delete(marketSlug);
    }
    for (const token of ['YES', 'NO'] as const) {
      const id = this.tokenIdFor(marketSlug, token);
      if (id !== null && this.byTokenId.get(id)?.marketSlug === marketSlug) this.byTokenId.delete(id);
    }
    if (drop) {
      this.markets.delete(marketSlug);
      return;
    }
    mutate(market);
    if (heldOf(market)) {
      this.held.add(marketSlug);
      this.heldCost += costOf(market);
      for (const token of ['YES', 'NO'] as const) {
        const id = this.tokenIdFor(marketSlug, token);
        if (id !== null) this.byTokenId.set(id, { marketSlug, token });
      }
    }
  }
}

function heldIn(market: BookMarket): boolean {
  return !market.redeemed && (market.yes.positionRaw !== 0 || market.no.positionRaw !== 0);
}

/** The differences between the book and the ledger's truth (token ids: of held markets), one line each (empty when equal). */
export function diffPositionBook(book: PositionBookSnapshot, truth: PositionBookSnapshot): string[] {
  const problems: string[] = [];
  const empty: BookMarket = { yes: EMPTY_TOKEN, no: EMPTY_TOKEN, redeemed: false, tokenIds: { YES: null, NO: null } };
  for (const slug of new Set([...book.keys(), ...truth.keys()])) {
    const mine = book.get(slug) ?? empty;
    const real = truth.get(slug) ?? empty;
    for (const token of ['YES', 'NO'] as const) {
      const a = token === 'YES' ? mine.yes : mine.no;
      const b = token === 'YES' ? real.yes : real.no;
      for (const field of TOTAL_FIELDS) if (a[field] !== b[field]) problems.push(`${slug} ${token} ${field}: book ${a[field]}, ledger ${b[field]}`);
      // Token ids matter only for held tokens (the funding's balances): compared where the ledger holds the market.
      if (heldIn(real) && mine.tokenIds[token] !== real.tokenIds[token]) {
        problems.push(`${slug} ${token} token id: book ${String(mine.tokenIds[token])}, ledger ${String(real.tokenIds[token])}`);
      }
    }
    if (mine.redeemed !== real.redeemed) problems.push(`${slug} redeemed: book ${mine.redeemed}, ledger ${real.redeemed}`);
  }
  return problems;
}
