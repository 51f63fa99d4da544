/**
 * The bot's books during a backtest: positions, costs, realized PnL, fees and volume per (market, token),
 * folded from the engine's fills with the ledger's own pure maths (src/ledger/position-math.ts, pnl.ts), so
 * backtest PnL means exactly what the bot's report means. Also tracks the inventory extremes.
 *
 * It is also the ledger the backtest's account view reads (src/risk/account-view.ts `AccountLedger`): holdings,
 * costs and token ids, exactly what the bot's account view reads from its SQLite ledger.
 *
 * Invariants: every fill is applied once (the caller dedupes); all amounts are raw integers; the positions
 * equal the engine's token balances (checked by the harness at the end); the extremes are exact (inventory
 * only changes on a fill, and every fill updates them); a market's books are opened once (at the start or when it
 * is joined) and kept to the end (they are the run's figures).
 */
import type { Outcome } from '../core/venue-rules/index.js';
import { averageCost, applyPositionEvent, mergeLegCollateral } from '../ledger/position-math.js';
import { PositionBook } from '../ledger/position-book.js';
import { EMPTY_TOKEN, marketPnl, type MarketPnl, type ResolvedPayout, type TokenTotals } from '../ledger/pnl.js';
import type { AccountLedger } from '../risk/account-view.js';
import type { PositionView } from '../strategy/contract.js';
import type { AccountFill } from '../sim/engine/index.js';
import { BacktestInvariantError } from './errors.js';

interface MarketBook {
  yes: TokenTotals;
  no: TokenTotals;
  /** Largest |YES − NO| seen, raw. */
  maxAbsNetRaw: number;
  /** Largest holding of either token seen, raw. */
  maxTokenRaw: number;
  /** USDC a redemption paid (the tokens are gone: holdings read 0); null until redeemed. */
  redeemedRaw: number | null;
}

/** A traded market's token ids. */
export interface AccountingMarket {
  readonly slug: string;
  readonly tokens: { readonly yes: string; readonly no: string };
}

/** What the books read of a fill. */
export type BookedFill = Pick<AccountFill, 'marketSlug' | 'outcome' | 'side' | 'sizeRaw' | 'collateralRaw' | 'feeRaw'>;

export class BotAccounting implements AccountLedger {
  private readonly books = new Map<string, MarketBook>();
  /** The same books as the account view reads them (held markets, held cost, balances by token id), kept by `apply`. */
  private readonly holdings = new PositionBook();

  constructor(markets: readonly AccountingMarket[]) {
    for (const market of markets) this.addMarket(market);
  }

  /** Opens the books of a market joined during the run (idempotent). */
  addMarket(market: AccountingMarket): void {
    if (this.books.has(market.slug)) return;
    this.books.set(market.slug, { yes: EMPTY_TOKEN, no: EMPTY_TOKEN, maxAbsNetRaw: 0, maxTokenRaw: 0, redeemedRaw: null });
    this.holdings.noteTokenId(market.slug, 'YES', market.tokens.yes, 'fill');
    this.holdings.noteTokenId(market.slug, 'NO', market.tokens.no, 'fill');
  }

  /** Every market with books, in the order opened. */
  slugs(): string[] {
    return [...this.books.keys()];
  }

  /** A redemption was booked for the market. */
  redeemed(slug: string): boolean {
    return this.book(slug).redeemedRaw !== null;
  }

  /** Token balances by market (0 once redeemed: the tokens are gone). */
  tokenBalances(): { marketSlug: string; token: Outcome; balanceRaw: number }[] {
    const out: { marketSlug: string; token: Outcome; balanceRaw: number }[] = [];
    for (const [marketSlug, book] of this.books) {
      const gone = book.redeemedRaw !== null;
      out.push({ marketSlug, token: 'YES', balanceRaw: gone ? 0 : book.yes.positionRaw }, { marketSlug, token: 'NO', balanceRaw: gone ? 0 : book.no.positionRaw });
    }
    return out;
  }

  // ── AccountLedger (what the account view reads) ──

  isHeld(marketSlug: string): boolean {
    return this.holdings.isHeld(marketSlug);
  }

  heldCostRaw(): number {
    return this.holdings.heldCostRaw();
  }

  tokenBalanceById(tokenId: string): number | undefined {
    return this.holdings.tokenBalanceById(tokenId);
  }

  heldMarkets(): Iterable<string> {
    return this.holdings.heldMarkets();
  }

  tokenPosition(marketSlug: string, token: Outcome): TokenTotals {
    const book = this.book(marketSlug);
    return token === 'YES' ? book.yes : book.no;
  }

  marketPosition(marketSlug: string): Omit<PositionView, 'freeCollateralRaw'> {
    const book = this.book(marketSlug);
    if (book.redeemedRaw !== null) return { yesRaw: 0, noRaw: 0, yesAvgCost: null, noAvgCost: null };
    return { yesRaw: book.yes.positionRaw, noRaw: book.no.positionRaw, yesAvgCost: averageCost(book.yes), noAvgCost: averageCost(book.no) };
  }

  // ── the backtest's own figures ──

  /** A fill's economics (an engine fill, or a replay's): folded into the market's books. */
  apply(fill: BookedFill): void {
    const book = this.book(fill.marketSlug);
    const before = fill.outcome === 'YES' ? book.yes : book.no;
    const step = applyPositionEvent(before, { kind: 'trade', side: fill.side, sizeRaw: fill.sizeRaw, collateralRaw: fill.collateralRaw });
    const after: TokenTotals = {
      positionRaw: step.state.positionRaw,
      costRaw: step.state.costRaw,
      realizedRaw: before.realizedRaw + step.realizedRaw,
      feesRaw: before.feesRaw + fill.feeRaw,
      volumeRaw: before.volumeRaw + fill.collateralRaw,
      fillCount: before.fillCount + 1,
    };
    if (fill.outcome === 'YES') book.yes = after;
    else book.no = after;
    this.holdings.setTotals(fill.marketSlug, fill.outcome, after);
    book.maxAbsNetRaw = Math.max(book.maxAbsNetRaw, Math.abs(book.yes.positionRaw - book.no.positionRaw));
    book.maxTokenRaw = Math.max(book.maxTokenRaw, book.yes.positionRaw, book.no.positionRaw);
  }

  /**
   * A complete-set merge: `sets` YES and NO leave the books for `sets` raw USDC, split between the legs by the
   * ledger's rule (src/ledger/position-math.ts `mergeLegCollateral`): cash in, PnL unchanged (the pairs were worth 1).
   */
  applyMerge(slug: string, sets: number): void {
    const book = this.book(slug);
    const legs = mergeLegCollateral(book.yes, book.no, sets);
    book.yes = adjust(book.yes, sets, legs.yesRaw);
    book.no = adjust(book.no, sets, legs.noRaw);
    this.holdings.setTotals(slug, 'YES', book.yes);
    this.holdings.setTotals(slug, 'NO', book.no);
  }

  /** A redemption paid `payoutRaw`: the market's tokens are gone (holdings read 0); its PnL is the resolution's. */
  applyRedemption(slug: string, payoutRaw: number): void {
    const book = this.book(slug);
    book.redeemedRaw = (book.redeemedRaw ?? 0) + payoutRaw;
    this.holdings.markRedeemed(slug);
  }

  holding(slug: string, token: Outcome): number {
    const book = this.book(slug);
    if (book.redeemedRaw !== null) return 0;
    return token === 'YES' ? book.yes.positionRaw : book.no.positionRaw;
  }

  /** Cost basis of the market's holdings (long parts only), raw USDC: what the notional limit counts. */
  positionCostRaw(slug: string): number {
    const book = this.book(slug);
    return Math.max(0, book.yes.costRaw) + Math.max(0, book.no.costRaw);
  }

  extremes(slug: string): { readonly maxAbsNetRaw: number; readonly maxTokenRaw: number } {
    const book = this.book(slug);
    return { maxAbsNetRaw: book.maxAbsNetRaw, maxTokenRaw: book.maxTokenRaw };
  }

  /**
   * The ledger's PnL of the market with its holding marked at `markMicros` (YES price in millionths; null: no mark),
   * or, once it resolved, paid out by `resolution` (the holding's payout realized; nothing unrealized).
   */
  pnl(slug: string, markMicros: number | null, resolution: ResolvedPayout | null = null): MarketPnl {
    const book = this.book(slug);
    return marketPnl({ marketSlug: slug, yes: book.yes, no: book.no, midMicros: markMicros, resolution, redeemedRaw: book.redeemedRaw ?? 0 });
  }

  private book(slug: string): MarketBook {
    const book = this.books.get(slug);
    if (book === undefined) throw new BacktestInvariantError(`fill or read for market ${slug}, which the backtest does not trade`);
    return book;
  }
}

/** A merge leg: `sizeRaw` tokens leave a long with their share of the set's USDC (realizes it minus their basis). */
function adjust(before: TokenTotals, sizeRaw: number, collateralRaw: number): TokenTotals {
  const step = applyPositionEvent(before, { kind: 'adjustment', side: 'SELL', sizeRaw, collateralRaw });
  return { ...before, positionRaw: step.state.positionRaw, costRaw: step.state.costRaw, realizedRaw: before.realizedRaw + step.realizedRaw };
}
