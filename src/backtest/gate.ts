/**
 * The gate between a strategy's intents and the order manager, as the bot composes it (Bot.gate in
 * src/app/bot.ts): funding first (src/orders/funding.ts: complement-aware, never beyond the free collateral
 * or the tokens held), then the risk limits (src/risk/limits.ts: worst-case positions, open orders, price
 * band, notional across markets, stop before expiry). Pure: the caller gathers the state.
 *
 * Invariant: only the two shared pure functions decide; this module only feeds them the same inputs the
 * bot feeds them, so a backtest quotes what the bot would quote.
 */
import { SIZE_STEP_RAW } from '../core/units.js';
import { fundIntents, type Balances, type FundingAdjustment } from '../orders/funding.js';
import { marketNotionalRaw, riskGate, type MarketRiskLimits, type RiskDecision } from '../risk/limits.js';
import type { MarketInfo, QuoteIntent } from '../strategy/contract.js';
import type { OpenOrder } from './bot-orders.js';

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
  /** Every open order of the bot, all markets (pending and cancelling ones included). */
  readonly openOrders: readonly OpenOrder[];
  /** Holdings and cost per market slug (every traded market). */
  readonly holdings: ReadonlyMap<string, GateMarketState>;
  /** Collateral and tokens the bot may use (totals; funding subtracts what open orders lock). */
  readonly balances: Balances;
  readonly limits: Omit<MarketRiskLimits, 'priceBand'> & { readonly maxNotionalRaw: number };
  readonly nowMs: number;
  readonly killSwitchTripped: boolean;
  readonly stale: boolean;
}

export interface GateOutcome {
  readonly intents: readonly QuoteIntent[];
  readonly halt: string | null;
  readonly funding: readonly FundingAdjustment[];
  readonly risk: RiskDecision;
}

export function gateIntents(input: GateInput): GateOutcome {
  const slug = input.market.slug;
  const funded = fundIntents({ slug, tokens: input.market.tokens }, input.intents, input.balances, input.openOrders, { minSizeRaw: SIZE_STEP_RAW });
  let otherNotional = 0;
  for (const [other, state] of input.holdings) {
    if (other === slug) continue;
    otherNotional += marketNotionalRaw(
      state.costRaw,
      input.openOrders.filter((o) => o.marketSlug === other),
    );
  }
  const own = input.holdings.get(slug) ?? { yesRaw: 0, noRaw: 0, costRaw: 0 };
  const risk = riskGate(
    funded.intents,
    {
      nowMs: input.nowMs,
      market: { expiresAtMs: input.market.expiresAtMs, resolved: input.resolved },
      position: { yesRaw: own.yesRaw, noRaw: own.noRaw },
      positionCostRaw: own.costRaw,
      openOrders: input.openOrders.filter((o) => o.marketSlug === slug),
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
  return { intents: risk.allowed, halt: risk.halt, funding: funded.adjustments, risk };
}
