/**
 * The bot's account as its strategy and risk gate see it, shared by the bot (src/app/compose.ts) and the backtest
 * (src/backtest/harness.ts), so a backtest quotes with exactly the bot's budget: balances (the notional budget less
 * the cost of what it holds, the tokens it holds), the committed BUYs of each market's latest gate decision, own
 * liquidity that just left the book, recent fills, the position view, and the gate call (./gate.ts) with that state.
 *
 * Owns: committed buys per market, departed own liquidity per market, recent fills per market, and the balance
 * shortfalls (./balance-shortfall.ts). Reads: a ledger (holdings, costs: the bot's position book in memory, or the
 * backtest's books), the executor's open orders per market and their locks (kept with each order change), the traded
 * markets: no read walks every market's orders or every held market. Invariants: departed liquidity of a market is forgotten on
 * its next book update; recent fills are kept FILL_MEMORY_MS and at most 500 per market; a resolved market's gate
 * quotes nothing and forgets its committed buys; the gate's dropped intents are reported to `onBlocked`, every gate
 * decision to `onGate`. Markets come and go (the traded markets are a live set: src/trading/core.ts): per-market
 * state is kept only for a traded market (a fill or book change of another is not remembered) and `removeMarket`
 * forgets it; a market left with a position keeps counting in the budget and the other markets' notional through the
 * ledger until its holding is gone (redeemed, settled), and its open orders count until they end.
 */
import type { RiskConfig } from '../config/types.js';
import { riskLimitsFor } from '../config/index.js';
import type { Balances } from '../orders/funding.js';
import type { OpenOrderLocksView } from '../orders/open-order-locks.js';
import type { FillEvent } from '../orders/executor-types.js';
import type { TrackedOrder } from '../orders/order-record.js';
import { isOpen, isResting } from '../orders/order-state.js';
import type { GateResult } from '../strategy/runner.js';
import type { FillView, MarketInfo, OwnOrderView, PositionView, QuoteIntent } from '../strategy/contract.js';
import { BalanceShortfalls, INSUFFICIENT_BALANCE } from './balance-shortfall.js';
import { gateIntents, type GateMarketState, type GateOutcome } from './gate.js';
import type { RiskOrder } from './limits.js';

/** How long a fill stays in a market's recent fills (the strategy's view). */
export const FILL_MEMORY_MS = 30 * 60_000;
const FILL_MEMORY_MAX = 500;

/**
 * What the account reads of the holdings: in memory, every call O(1) (the bot: its ledger's position book,
 * src/ledger/position-book.ts, never SQLite; a backtest: its books of the engine's fills).
 */
export interface AccountLedger {
  /** The strategy's position of a market (tokens read 0 once redeemed). */
  marketPosition(marketSlug: string): Omit<PositionView, 'freeCollateralRaw'>;
  /** Cost of the market's holdings (long parts), raw USDC. */
  positionCostRaw(marketSlug: string): number;
  /** Whether the market holds a token balance other than 0 (redeemed: none). */
  isHeld(marketSlug: string): boolean;
  /** Σ positionCostRaw over the held markets, kept incrementally. */
  heldCostRaw(): number;
  /** A held token's balance by its id; undefined when no held market has a token of that id. */
  tokenBalanceById(tokenId: string): number | undefined;
  /** The held markets (O(held): only when the markets cannot list their resolved ones). */
  heldMarkets(): Iterable<string>;
}

/** What the account reads of the traded markets (src/markets/traded-markets.ts; the backtest's markets). */
export interface AccountMarkets {
  slugs(): readonly string[];
  info(slug: string): MarketInfo | undefined;
  /** Whether the market resolved: asked of traded markets and of markets left with a position. */
  isResolved(slug: string): boolean;
  /**
   * Every market `isResolved` answers true for, when the caller can list them (a bounded set: the bot forgets a
   * departed market once it settled). Without it the budget walks the held markets (O(held) per quote).
   */
  resolvedSlugs?(): Iterable<string>;
}

/** What the account reads of the bot's open orders (the executor's: src/orders/order-store.ts keeps both). */
export interface AccountOrders {
  /** The market's open orders, unknown outcomes included (an index: never a walk over every market's orders). */
  openIn(marketSlug: string): readonly TrackedOrder[];
  /** What every open order locks, kept incrementally with each order change (src/orders/open-order-locks.ts). */
  readonly locks: OpenOrderLocksView;
}

/** pino-compatible subset. */
export interface AccountLog {
  info(obj: object, msg: string): void;
}

export interface AccountViewOptions {
  readonly ledger: AccountLedger;
  /** The bot's open orders: per market, and what all of them lock. */
  readonly orders: AccountOrders;
  readonly markets: AccountMarkets;
  readonly risk: RiskConfig;
  readonly now: () => number;
  /** Whether the market is halted now: kill switch engaged, data not fresh. */
  readonly halts: (slug: string) => { readonly killSwitch: boolean; readonly stale: boolean };
  /** An intent dropped (by funding or a risk limit), or a placement refused for want of balance. */
  readonly onBlocked: (slug: string, reason: string) => void;
  /** Every gate decision in full (funding adjustments, risk trims and drops), for counters. */
  readonly onGate?: (slug: string, outcome: GateOutcome) => void;
  readonly log: AccountLog;
}

export class AccountView {
  /** Placements refused for want of balance (several bots may share the account's balances). */
  private readonly shortfalls: BalanceShortfalls;
  /** Per market, the BUY collateral of its latest gate decision (see committedBuyCollateralRaw). */
  private readonly committedBuysRaw = new Map<string, number>();
  /** Per market, own liquidity that just left the book and may still show in its last book frame. */
  private readonly departedOwn = new Map<string, OwnOrderView[]>();
  private readonly recent = new Map<string, FillView[]>();

  constructor(private readonly options: AccountViewOptions) {
    this.shortfalls = new BalanceShortfalls(options.now);
  }

  /** The market's open orders as the risk gate counts them (unknown outcomes included). */
  riskOrders(slug: string): RiskOrder[] {
    return this.options.orders
      .openIn(slug)
      .map((o) => ({ slot: o.slot, token: o.token, side: o.side, priceTicks: o.priceTicks, sizeRaw: o.sizeRaw, remainingRaw: o.remainingRaw, state: o.state }));
  }

  /**
   * An order changed. Own liquidity that left the book (filled, canceled, reduced) is remembered: the order event
   * often comes before the book frame that shows it gone, and until that frame the strategy must still see it as the
   * bot's own, or it would take its own filled order for someone else's and quote around it. A placement refused for
   * want of balance takes its side out of funding until the balances are read again.
   */
  orderChanged(order: TrackedOrder, previous: TrackedOrder | null): void {
    if (previous === null) return;
    if (order.state === 'rejected' && previous.state !== 'rejected' && order.reason === INSUFFICIENT_BALANCE) this.noteShortfall(order);
    if (!isResting(previous.state) && previous.state !== 'pending-cancel') return;
    if (!this.isTraded(order.marketSlug)) return;
    const left = isOpen(order.state) ? previous.remainingRaw - order.remainingRaw : previous.remainingRaw;
    if (!(left > 0)) return;
    const list = this.departedOwn.get(order.marketSlug) ?? [];
    list.push({ token: previous.token, side: previous.side, priceTicks: previous.priceTicks, sizeRaw: left });
    this.departedOwn.set(order.marketSlug, list);
  }

  /** A book update of `slug`: it no longer shows own liquidity that left before it (the feed is one ordered stream). */
  bookChanged(slug: string): void {
    this.departedOwn.delete(slug);
  }

  /** A market left: its committed buys, departed liquidity and recent fills are forgotten (its position stays in the ledger). */
  removeMarket(slug: string): void {
    this.committedBuysRaw.delete(slug);
    this.departedOwn.delete(slug);
    this.recent.delete(slug);
  }

  /** How many markets hold per-market state here (committed buys, departed liquidity, recent fills). */
  marketCount(): number {
    return new Set([...this.committedBuysRaw.keys(), ...this.departedOwn.keys(), ...this.recent.keys()]).size;
  }

  /** The account's balances were read: every shortfall is lifted (funding sees fresh figures). */
  balancesRead(): void {
    this.shortfalls.balancesRead();
  }

  /** A fill booked: the strategy's recent fills of its market. */
  noteFill(fill: FillEvent): void {
    if (!this.isTraded(fill.marketSlug)) return;
    const list = this.recent.get(fill.marketSlug) ?? [];
    list.push({ token: fill.token, side: fill.side, priceTicks: fill.priceTicks, sizeRaw: fill.sizeRaw, atMs: fill.atMs });
    const horizon = this.options.now() - FILL_MEMORY_MS;
    while (list.length > 0 && (list[0]!.atMs < horizon || list.length > FILL_MEMORY_MAX)) list.shift();
    this.recent.set(fill.marketSlug, list);
  }

  recentFills(slug: string): readonly FillView[] {
    return this.recent.get(slug) ?? [];
  }

  /** The strategy's view of the bot's own orders: open ones and liquidity that just left the book. */
  ownOrders(slug: string): OwnOrderView[] {
    const open = this.options.orders
      .openIn(slug)
      .filter((o) => o.remainingRaw > 0)
      .map((o) => ({ token: o.token, side: o.side, priceTicks: o.priceTicks, sizeRaw: o.remainingRaw }));
    return [...open, ...(this.departedOwn.get(slug) ?? [])];
  }

  /** Collateral the bot may use: the notional budget less the cost of what it holds (no tokens: see `gate`). */
  balances(): Balances {
    return { collateralRaw: this.collateralRaw(this.heldOrTradedCostRaw()), tokensRaw: new Map() };
  }

  /** The notional budget less `positionCostRaw`; short of USDC: no more than what the resting BUYs already lock. */
  private collateralRaw(positionCostRaw: number): number {
    const budgetRaw = Math.max(0, this.options.risk.maxNotionalRaw - positionCostRaw);
    if (!this.shortfalls.collateralShort()) return budgetRaw;
    return Math.min(budgetRaw, this.options.orders.locks.remainingBuyCollateralRaw());
  }

  /** The tokens of the market funding reads: held balances (never below 0), 0 while a shortfall holds the token out. */
  private tokensOf(info: MarketInfo): Map<string, number> {
    const tokens = new Map<string, number>();
    for (const tokenId of [info.tokens.yes, info.tokens.no]) {
      const balance = this.options.ledger.tokenBalanceById(tokenId);
      if (balance !== undefined) tokens.set(tokenId, this.shortfalls.tokenShort(tokenId) ? 0 : Math.max(0, balance));
    }
    return tokens;
  }

  /** Cost of the market's holdings (long parts), raw USDC. */
  positionCostRaw(slug: string): number {
    return this.options.ledger.positionCostRaw(slug);
  }

  /** The market's holdings as the strategy sees them, without the free collateral (O(1): the position book). */
  holdings(slug: string): Omit<PositionView, 'freeCollateralRaw'> {
    return this.options.ledger.marketPosition(slug);
  }

  positionView(slug: string): PositionView {
    const ledgerView = this.options.ledger.marketPosition(slug);
    const collateral = this.collateralRaw(this.heldOrTradedCostRaw());
    // Open BUYs lock their exposure size (unknown and pending-new: the full size), kept with each order change.
    return { ...ledgerView, freeCollateralRaw: Math.max(0, collateral - this.options.orders.locks.buyCollateralRaw()) };
  }

  /**
   * Funding (complement-aware, never beyond free collateral or tokens held) then the risk gate: ./gate.ts. The other
   * markets' notional is read from aggregates (the held cost, kept by the ledger; the open orders' locks, kept by the
   * order store; per market only those with BUYs open or committed), and the open orders read are this market's alone,
   * so a quote costs the same whatever the number of markets held or orders open elsewhere.
   */
  gate(slug: string, intents: readonly QuoteIntent[]): GateResult {
    const info = this.options.markets.info(slug);
    if (!info) return { intents: [], halt: 'not-ready' };
    if (this.options.markets.isResolved(slug)) {
      this.committedBuysRaw.delete(slug);
      return { intents: [], halt: 'market-resolved' };
    }
    const ledger = this.options.ledger;
    const locks = this.options.orders.locks;
    const marketOrders = this.options.orders.openIn(slug);
    const totalCostRaw = this.heldOrTradedCostRaw();
    // The markets whose BUYs count besides their cost: their holdings listed, every other market's cost in one sum.
    const holdings = new Map<string, GateMarketState>();
    const list = (market: string): void => {
      if (holdings.has(market) || !this.isHeldOrTraded(market)) return;
      const position = ledger.marketPosition(market);
      holdings.set(market, { yesRaw: position.yesRaw, noRaw: position.noRaw, costRaw: ledger.positionCostRaw(market) });
    };
    list(slug);
    for (const market of locks.marketsWithBuys()) list(market);
    for (const market of this.committedBuysRaw.keys()) list(market);
    let listedCostRaw = 0;
    for (const state of holdings.values()) listedCostRaw += state.costRaw;
    const limits = riskLimitsFor(this.options.risk, slug);
    const halts = this.options.halts(slug);
    const outcome = gateIntents({
      market: info,
      resolved: false,
      intents,
      openOrders: marketOrders,
      locks: { locked: { collateralRaw: locks.buyCollateralRaw(), tokensRaw: locks.tokensRaw() }, buyCollateralRaw: (market) => locks.marketBuyCollateralRaw(market) },
      holdings,
      otherHoldingsCostRaw: totalCostRaw - listedCostRaw,
      balances: { collateralRaw: this.collateralRaw(totalCostRaw), tokensRaw: this.tokensOf(info) },
      limits: {
        maxPositionPerTokenRaw: limits.maxPositionPerTokenRaw,
        maxNetPositionRaw: limits.maxNetPositionRaw,
        maxOpenOrders: limits.maxOpenOrders,
        stopBeforeExpiryMs: limits.stopBeforeExpiryMs,
        maxNotionalRaw: this.options.risk.maxNotionalRaw,
      },
      nowMs: this.options.now(),
      killSwitchTripped: halts.killSwitch,
      stale: halts.stale,
      committedBuysRaw: this.committedBuysRaw,
    });
    for (const adjustment of outcome.funding) if (adjustment.action === 'dropped') this.options.onBlocked(slug, `funding-${adjustment.reason}`);
    for (const dropped of outcome.risk.dropped) this.options.onBlocked(slug, dropped.reason);
    this.options.onGate?.(slug, outcome);
    this.committedBuysRaw.set(slug, outcome.committedBuyRaw);
    return { intents: outcome.intents, halt: outcome.halt };
  }

  private isTraded(slug: string): boolean {
    return this.options.markets.info(slug) !== undefined;
  }

  /**
   * The budget's markets: the traded ones, and every other market the ledger still holds tokens of until it resolves
   * (one left with a position: its cost stays at risk until settlement).
   */
  private isHeldOrTraded(slug: string): boolean {
    return this.isTraded(slug) || (this.options.ledger.isHeld(slug) && !this.options.markets.isResolved(slug));
  }

  /**
   * Σ cost over the budget's markets, from the ledger's held cost: + the traded markets not held (a redeemed market's
   * cost counts while traded), − the held ones resolved and not traded. O(traded + resolved), not O(held).
   */
  private heldOrTradedCostRaw(): number {
    const { ledger, markets } = this.options;
    let total = ledger.heldCostRaw();
    for (const slug of markets.slugs()) if (!ledger.isHeld(slug)) total += ledger.positionCostRaw(slug);
    const resolved = markets.resolvedSlugs?.() ?? ledger.heldMarkets();
    for (const slug of resolved) if (ledger.isHeld(slug) && !this.isTraded(slug) && markets.isResolved(slug)) total -= ledger.positionCostRaw(slug);
    return total;
  }

  /**
   * The venue refused a placement for want of balance: the account's USDC or tokens are shared with other bots, so
   * this is a normal outcome, counted, and the refused side leaves the bot's funding until the balances are read
   * again (no retry of the same order: funding quotes the other way, or not at all).
   */
  private noteShortfall(order: TrackedOrder): void {
    this.options.onBlocked(order.marketSlug, INSUFFICIENT_BALANCE);
    if (!this.shortfalls.note({ marketSlug: order.marketSlug, tokenId: order.tokenId, side: order.side })) return;
    this.options.log.info(
      { market: order.marketSlug, token: order.token, side: order.side, clientOrderId: order.clientOrderId },
      `placement refused for insufficient ${order.side === 'BUY' ? 'collateral' : 'tokens'} (shared by the account's bots): that side is not quoted until balances are read again`,
    );
  }
}
