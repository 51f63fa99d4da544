/**
 * The gate between a strategy's intents and the order manager, the one composition shared by the bot
 * (src/app/bot.ts) and the backtest (src/backtest): funding first (src/orders/funding.ts: complement-aware, never beyond the free collateral
 * or the tokens held), then the risk limits (src/risk/limits.ts: worst-case positions, open orders, price
 * band, notional across markets, stop before expiry). Pure: the caller gathers the state.
 *
 * Invariant: only the two pure functions decide; the bot and the backtest both call this, so a backtest
 * quotes exactly what the bot would quote.
 */
import { SIZE_STEP_RAW } from '../core/venue-rules/index.js';
import { fundIntents, type Balances, type FundingAdjustment, type LockedFunds } from '../orders/funding.js';
import { OpenOrderLocks } from '../orders/open-order-locks.js';
import { collateralRaw } from '../core/venue-rules/index.js';
import { isFrozen } from '../orders/order-state.js';
import { openBuyCollateralRaw, riskGate, type MarketRiskLimits, type RiskDecision, type RiskOrder } from './limits.js';
import type { FundingOrder } from '../orders/funding.js';
import type { MarketInfo, QuoteIntent } from '../strategy/contract.js';

/** What the gate reads of an open order: what funding and the risk limits read. */
export type GateOrder = FundingOrder & RiskOrder;

export interface GateMarketState {
  /** Raw tokens held in the market. */
  readonly yesRaw: number;
  readonly noRaw: number;
  /** Cost of the holdings (long parts), raw USDC. */
  readonly costRaw: number;
}

export interface GateInput {
  readonly market: MarketInfo;
  readonly resolved: boolean;
  readonly intents: readonly QuoteIntent[];
  /**
   * Every open order of the bot, all markets (pending and cancelling ones included); with `locks`, this market's
   * open orders suffice.
   */
  readonly openOrders: readonly GateOrder[];
  /** What every open order locks, kept by the caller (src/orders/open-order-locks.ts); default: computed from `openOrders`. */
  readonly locks?: GateLocks;
  /**
   * Holdings and cost per market slug: this market and every other one whose BUYs count (open or committed). The
   * other markets' costs may come summed instead, in `otherHoldingsCostRaw`.
   */
  readonly holdings: ReadonlyMap<string, GateMarketState>;
  /** Cost of the holdings of the markets at risk not in `holdings` (their BUYs count nothing), raw USDC. Default 0. */
  readonly otherHoldingsCostRaw?: number;
  /** Collateral and tokens the bot may use (totals; funding subtracts what open orders lock). */
  readonly balances: Balances;
  readonly limits: Omit<MarketRiskLimits, 'priceBand'> & { readonly maxNotionalRaw: number };
  readonly nowMs: number;
  readonly killSwitchTripped: boolean;
  readonly stale: boolean;
  /**
   * Per other market, the BUY collateral its latest decision committed it to (see committedBuyCollateralRaw). A
   * market in the middle of a requote holds less than that (old orders canceled, new ones not yet placed): the
   * larger of the two is counted, or two markets requoting at once could overshoot maxNotional together.
   */
  readonly committedBuysRaw?: ReadonlyMap<string, number>;
}

/** What every open order of the bot locks, all markets. */
export interface GateLocks {
  /** Collateral of open BUYs and tokens of open SELLs (by token id), at their exposure size. */
  readonly locked: LockedFunds;
  /** The market's open BUY collateral at exposure size. */
  buyCollateralRaw(marketSlug: string): number;
}

/** The locks of a list of open orders (a caller without an incremental aggregate). */
export function gateLocksOf(orders: readonly GateOrder[]): GateLocks {
  const locks = OpenOrderLocks.of(orders);
  return { locked: { collateralRaw: locks.buyCollateralRaw(), tokensRaw: locks.tokensRaw() }, buyCollateralRaw: (slug) => locks.marketBuyCollateralRaw(slug) };
}

export interface GateOutcome {
  readonly intents: readonly QuoteIntent[];
  readonly halt: string | null;
  readonly funding: readonly FundingAdjustment[];
  readonly risk: RiskDecision;
  /** BUY collateral this decision commits the market to: pass it back as `committedBuysRaw` for the other markets. */
  readonly committedBuyRaw: number;
}

/**
 * BUY collateral a market's gate decision commits it to: the allowed BUY intents plus the open orders that stay at
 * risk beside them (in slots without an allowed intent, or frozen: they may still fill).
 */
export function committedBuyCollateralRaw(allowed: readonly QuoteIntent[], orders: readonly RiskOrder[]): number {
  const slots = new Set(allowed.map((intent) => intent.slot));
  let total = openBuyCollateralRaw(orders.filter((order) => !slots.has(order.slot) || isFrozen(order.state)));
  for (const intent of allowed) if (intent.side === 'BUY') total += collateralRaw(intent.sizeRaw, intent.priceTicks, 'BUY');
  return total;
}

export function gateIntents(input: GateInput): GateOutcome {
  const slug = input.market.slug;
  const locks = input.locks ?? gateLocksOf(input.openOrders);
  const marketOrders = input.openOrders.filter((o) => o.marketSlug === slug);
  const funded = fundIntents({ slug, tokens: input.market.tokens }, input.intents, input.balances, marketOrders, { minSizeRaw: SIZE_STEP_RAW, locked: locks.locked });
  let otherNotional = input.otherHoldingsCostRaw ?? 0;
  for (const [other, state] of input.holdings) {
    if (other === slug) continue;
    otherNotional += state.costRaw + Math.max(locks.buyCollateralRaw(other), input.committedBuysRaw?.get(other) ?? 0);
  }
  const own = input.holdings.get(slug) ?? { yesRaw: 0, noRaw: 0, costRaw: 0 };
  const risk = riskGate(
    funded.intents,
    {
      nowMs: input.nowMs,
      market: { expiresAtMs: input.market.expiresAtMs, resolved: input.resolved },
      position: { yesRaw: own.yesRaw, noRaw: own.noRaw },
      positionCostRaw: own.costRaw,
      openOrders: marketOrders,
      otherMarketsNotionalRaw: otherNotional,
      killSwitchTripped: input.killSwitchTripped,
      stale: input.stale,
    },
    {
      maxPositionPerTokenRaw: input.limits.maxPositionPerTokenRaw,
      maxNetPositionRaw: input.limits.maxNetPositionRaw,
      maxOpenOrders: input.limits.maxOpenOrders,
      priceBand: input.market.band,
      stopBeforeExpiryMs: input.limits.stopBeforeExpiryMs,
      maxNotionalRaw: input.limits.maxNotionalRaw,
    },
  );
  return { intents: risk.allowed, halt: risk.halt, funding: funded.adjustments, risk, committedBuyRaw: committedBuyCollateralRaw(risk.allowed, marketOrders) };
}
