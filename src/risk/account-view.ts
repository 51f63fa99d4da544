/**
 * The bot's account as its strategy and risk gate see it, shared by the bot (src/app/compose.ts) and the backtest
 * (src/backtest/harness.ts), so a backtest quotes with exactly the bot's budget: balances (the notional budget less
 * the cost of what it holds, the tokens it holds), the committed BUYs of each market's latest gate decision, own
 * liquidity that just left the book, recent fills, the position view, and the gate call (./gate.ts) with that state.
 *
 * Owns: committed buys per market, departed own liquidity per market, recent fills per market, and the balance
 * shortfalls (./balance-shortfall.ts). Reads: a ledger (holdings, costs: the bot's SQLite ledger, or the backtest's
 * books), the executor's open orders, the traded markets. Invariants: departed liquidity of a market is forgotten on
 * its next book update; recent fills are kept FILL_MEMORY_MS and at most 500 per market; a resolved market's gate
 * quotes nothing and forgets its committed buys; the gate's dropped intents are reported to `onBlocked`, every gate
 * decision to `onGate`. Markets come and go (the traded markets are a live set: src/trading/core.ts): per-market
 * state is kept only for a traded market (a fill or book change of another is not remembered) and `removeMarket`
 * forgets it; a market left with a position keeps counting in the budget and the other markets' notional through the
 * ledger until its holding is gone (redeemed, settled), and its open orders count until they end.
 */
import type { RiskConfig } from '../config/types.js';
import { riskLimitsFor } from '../config/index.js';
import { collateralRaw, type Outcome } from '../core/venue-rules/index.js';
import type { Balances } from '../orders/funding.js';
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

/** A token the ledger holds (or held: a balance of 0 once redeemed). */
export interface TokenBalance {
  readonly marketSlug: string;
  readonly token: Outcome;
  readonly balanceRaw: number;
}

/** What the account reads of a ledger (src/ledger's LedgerStore; the backtest's books). */
export interface AccountLedger {
  tokenBalances(): readonly TokenBalance[];
  tokenIdFor(marketSlug: string, token: Outcome): string | null;
  tokenPosition(marketSlug: string, token: Outcome): { readonly costRaw: number };
  marketPosition(marketSlug: string): Omit<PositionView, 'freeCollateralRaw'>;
}

/** What the account reads of the traded markets (src/app/traded-markets.ts; the backtest's markets). */
export interface AccountMarkets {
  slugs(): readonly string[];
  info(slug: string): MarketInfo | undefined;
  /** Whether the market resolved: asked of traded markets and of markets left with a position. */
  isResolved(slug: string): boolean;
}

/** pino-compatible subset. */
export interface AccountLog {
  info(obj: object, msg: string): void;
}

export interface AccountViewOptions {
  readonly ledger: AccountLedger;
  /** Every open order of the bot (the executor's, all markets). */
  readonly orders: () => readonly TrackedOrder[];
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

  /** Open orders (unknown outcomes included). */
  openOrders(): TrackedOrder[] {
    return this.options.orders().filter((o) => isOpen(o.state));
  }

  /** The market's open orders as the risk gate counts them (unknown outcomes included). */
  riskOrders(slug: string): RiskOrder[] {
    return this.openOrders()
      .filter((o) => o.marketSlug === slug)
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
    const open = this.openOrders()
      .filter((o) => o.marketSlug === slug && o.remainingRaw > 0)
      .map((o) => ({ token: o.token, side: o.side, priceTicks: o.priceTicks, sizeRaw: o.remainingRaw }));
    return [...open, ...(this.departedOwn.get(slug) ?? [])];
  }

  /** Collateral the bot may use: the notional budget less the cost of what it holds; tokens held. */
  balances(): Balances {
    return this.balancesOf(this.options.ledger.tokenBalances());
  }

  private balancesOf(held: readonly TokenBalance[]): Balances {
    const ledger = this.options.ledger;
    const tokens = new Map<string, number>();
    let positionCost = 0;
    for (const balance of held) {
      const tokenId = ledger.tokenIdFor(balance.marketSlug, balance.token);
      if (tokenId !== null) tokens.set(tokenId, this.shortfalls.tokenShort(tokenId) ? 0 : Math.max(0, balance.balanceRaw));
    }
    for (const slug of this.heldOrTraded(held)) positionCost += this.positionCostRaw(slug);
    const budgetRaw = Math.max(0, this.options.risk.maxNotionalRaw - positionCost);
    if (!this.shortfalls.collateralShort()) return { collateralRaw: budgetRaw, tokensRaw: tokens };
    // Short of USDC: no BUY beyond what the bot's resting BUYs already lock.
    let lockedRaw = 0;
    for (const order of this.openOrders()) if (order.side === 'BUY') lockedRaw += collateralRaw(order.remainingRaw, order.priceTicks, 'BUY');
    return { collateralRaw: Math.min(budgetRaw, lockedRaw), tokensRaw: tokens };
  }

  /** Cost of the market's holdings (long parts), raw USDC. */
  positionCostRaw(slug: string): number {
    const yes = this.options.ledger.tokenPosition(slug, 'YES');
    const no = this.options.ledger.tokenPosition(slug, 'NO');
    return Math.max(0, yes.costRaw) + Math.max(0, no.costRaw);
  }

  positionView(slug: string): PositionView {
    const ledgerView = this.options.ledger.marketPosition(slug);
    const balances = this.balances();
    let lockedBuys = 0;
    for (const order of this.openOrders()) {
      if (order.side === 'BUY') lockedBuys += collateralRaw(order.state === 'unknown' || order.state === 'pending-new' ? order.sizeRaw : order.remainingRaw, order.priceTicks, 'BUY');
    }
    return { ...ledgerView, freeCollateralRaw: Math.max(0, balances.collateralRaw - lockedBuys) };
  }

  /** Funding (complement-aware, never beyond free collateral or tokens held) then the risk gate: ./gate.ts. */
  gate(slug: string, intents: readonly QuoteIntent[]): GateResult {
    const info = this.options.markets.info(slug);
    if (!info) return { intents: [], halt: 'not-ready' };
    if (this.options.markets.isResolved(slug)) {
      this.committedBuysRaw.delete(slug);
      return { intents: [], halt: 'market-resolved' };
    }
    const held = this.options.ledger.tokenBalances();
    const holdings = new Map<string, GateMarketState>();
    for (const market of this.heldOrTraded(held)) {
      const position = this.options.ledger.marketPosition(market);
      holdings.set(market, { yesRaw: position.yesRaw, noRaw: position.noRaw, costRaw: this.positionCostRaw(market) });
    }
    const limits = riskLimitsFor(this.options.risk, slug);
    const halts = this.options.halts(slug);
    const outcome = gateIntents({
      market: info,
      resolved: false,
      intents,
      openOrders: this.openOrders(),
      holdings,
      balances: this.balancesOf(held),
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
   * The traded markets, and every other market the ledger still holds tokens of until it resolves (one left with a
   * position: its cost stays at risk until settlement).
   */
  private heldOrTraded(held: readonly TokenBalance[]): Set<string> {
    const slugs = new Set(this.options.markets.slugs());
    for (const balance of held) if (balance.balanceRaw !== 0 && !slugs.has(balance.marketSlug) && !this.options.markets.isResolved(balance.marketSlug)) slugs.add(balance.marketSlug);
    return slugs;
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
