/**
 * The bot's books during a backtest: positions, costs, realized PnL, fees and volume per (market, token),
 * folded from the engine's fills with the ledger's own pure maths (src/ledger/position-math.ts, pnl.ts), so
 * backtest PnL means exactly what the bot's report means. Also tracks the inventory extremes.
 *
 * Invariants: every fill is applied once (the caller dedupes); all amounts are raw integers; the positions
 * equal the engine's token balances (checked by the harness at the end); the extremes are exact (inventory
 * only changes on a fill, and every fill updates them).
 */
import type { Outcome } from '../core/units.js';
import { averageCost, applyPositionEvent } from '../ledger/position-math.js';
import { EMPTY_TOKEN, marketPnl, type MarketPnl, type TokenTotals } from '../ledger/pnl.js';
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
}

export class BotAccounting {
  private readonly books = new Map<string, MarketBook>();

  constructor(slugs: readonly string[]) {
    for (const slug of slugs) this.books.set(slug, { yes: EMPTY_TOKEN, no: EMPTY_TOKEN, maxAbsNetRaw: 0, maxTokenRaw: 0 });
  }

  apply(fill: AccountFill): void {
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
    book.maxAbsNetRaw = Math.max(book.maxAbsNetRaw, Math.abs(book.yes.positionRaw - book.no.positionRaw));
    book.maxTokenRaw = Math.max(book.maxTokenRaw, book.yes.positionRaw, book.no.positionRaw);
  }

  holding(slug: string, token: Outcome): number {
    const book = this.book(slug);
    return token === 'YES' ? book.yes.positionRaw : book.no.positionRaw;
  }

  /** Cost basis of the market's holdings (long parts only), raw USDC: what the notional limit counts. */
  positionCostRaw(slug: string): number {
    const book = this.book(slug);
    return Math.max(0, book.yes.costRaw) + Math.max(0, book.no.costRaw);
  }

  /** The strategy's position view (as the bot builds it from its ledger). */
  positionView(slug: string, freeCollateralRaw: number): PositionView {
    const book = this.book(slug);
    return {
      yesRaw: book.yes.positionRaw,
      noRaw: book.no.positionRaw,
      yesAvgCost: averageCost(book.yes),
      noAvgCost: averageCost(book.no),
      freeCollateralRaw,
    };
  }

  extremes(slug: string): { readonly maxAbsNetRaw: number; readonly maxTokenRaw: number } {
    const book = this.book(slug);
    return { maxAbsNetRaw: book.maxAbsNetRaw, maxTokenRaw: book.maxTokenRaw };
  }

  /** The ledger's PnL of the market with its holding marked at `markMicros` (YES price in millionths); null: no mark. */
  pnl(slug: string, markMicros: number | null): MarketPnl {
    const book = this.book(slug);
    return marketPnl({ marketSlug: slug, yes: book.yes, no: book.no, midMicros: markMicros, resolution: null, redeemedRaw: 0 });
  }

  private book(slug: string): MarketBook {
    const book = this.books.get(slug);
    if (book === undefined) throw new BacktestInvariantError(`fill or read for market ${slug}, which the backtest does not trade`);
    return book;
  }
}
