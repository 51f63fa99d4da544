/**
 * Pure risk limits for one market's intents: `riskGate(intents, state) → {allowed, trimmed, dropped, halt}`.
 *
 * Limits (per market unless said): worst-case holding per token, worst-case |YES − NO|, open orders, price band,
 * stop before expiry, stop on resolution; across markets: total notional (position cost + collateral of open BUYs).
 * Kill switch and stale data arrive as flags and halt the market.
 *
 * How exposure is counted ("worst case": every open BUY fills, every open SELL fills):
 * - orders whose outcome is unknown (and pending placements) count at their FULL size, as if live;
 * - an open order in a slot without an intent counts (it is being canceled, but may still trade);
 * - a resting order in a slot that has an intent does not count: the intent stands for it (the order is kept as
 *   it is, or canceled before its replacement is placed); a frozen order in such a slot (pending/unknown) counts;
 * - intents are taken in the order given; an intent is checked only against the limits it can worsen (a SELL YES
 *   never breaks the YES holding limit), and trimmed to the room left (on the size step) or dropped when less
 *   than `minSizeRaw` fits.
 * A halt (resolved, near expiry, kill switch, stale data) drops every intent: the caller submits no intents,
 * which cancels the market's orders.
 */
import { collateralRaw, SIZE_STEP_RAW } from '../core/venue-rules/index.js';
import type { Outcome, Side } from '../core/venue-rules/index.js';
import type { QuoteIntent } from '../strategy/contract.js';
import { affordableSizeRaw } from '../orders/funding.js';
import { exposureSizeRaw, isFrozen, isOpen, type OrderState } from '../orders/order-state.js';

export interface PriceBand {
  readonly minTicks: number;
  readonly maxTicks: number;
}

export interface MarketRiskLimits {
  /** Largest worst-case holding of either token, raw shares. */
  readonly maxPositionPerTokenRaw: number;
  /** Largest worst-case |YES − NO|, raw shares. */
  readonly maxNetPositionRaw: number;
  /** Most open orders in the market (unknown ones included). */
  readonly maxOpenOrders: number;
  /** Prices (of the order's own token) the bot may quote, inclusive. */
  readonly priceBand: PriceBand;
  /** Stop quoting (and cancel) this long before expiry. */
  readonly stopBeforeExpiryMs: number;
}

export interface RiskLimits extends MarketRiskLimits {
  /** Total USDC at risk across markets: position cost + collateral of open and unknown BUYs, raw. */
  readonly maxNotionalRaw: number;
  /** Smallest size worth quoting after a trim (default one size step). */
  readonly minSizeRaw?: number;
}

/** What the gate reads of an open order of this market. */
export interface RiskOrder {
  readonly slot: string;
  readonly token: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly remainingRaw: number;
  readonly state: OrderState;
}

export interface RiskState {
  readonly nowMs: number;
  readonly market: { readonly expiresAtMs: number | null; readonly resolved: boolean };
  /** Tokens held in this market, raw. */
  readonly position: { readonly yesRaw: number; readonly noRaw: number };
  /** Cost basis of this market's holdings, raw USDC. */
  readonly positionCostRaw: number;
  /** This market's open orders (unknown and pending included). */
  readonly openOrders: readonly RiskOrder[];
  /** Notional of every OTHER market: position cost + collateral of open and unknown BUYs, raw USDC. */
  readonly otherMarketsNotionalRaw: number;
  readonly killSwitchTripped: boolean;
  /** Book stale or socket down past its grace. */
  readonly stale: boolean;
}

export type RiskHaltReason = 'market-resolved' | 'near-expiry' | 'kill-switch' | 'stale-data';
export type RiskLimitReason = 'price-band' | 'max-open-orders' | 'max-position' | 'max-net-position' | 'max-notional';
export type RiskReason = RiskHaltReason | RiskLimitReason;

export interface RiskDecision {
  readonly allowed: readonly QuoteIntent[];
  readonly trimmed: readonly { readonly original: QuoteIntent; readonly sizeRaw: number; readonly reason: RiskLimitReason }[];
  readonly dropped: readonly { readonly intent: QuoteIntent; readonly reason: RiskReason }[];
  /** Set when the whole market must stop quoting and cancel. */
  readonly halt: RiskHaltReason | null;
}

/** Collateral an open BUY may still spend (unknown/pending at full size). */
export function openBuyCollateralRaw(orders: readonly RiskOrder[]): number {
  let total = 0;
  for (const order of orders) if (order.side === 'BUY') total += collateralRaw(exposureSizeRaw(order), order.priceTicks, 'BUY');
  return total;
}

/** A market's notional for the total limit: position cost + collateral of its open and unknown BUYs. */
export function marketNotionalRaw(positionCostRaw: number, orders: readonly RiskOrder[]): number {
  return positionCostRaw + openBuyCollateralRaw(orders);
}

function haltReason(state: RiskState, limits: MarketRiskLimits): RiskHaltReason | null {
  if (state.market.resolved) return 'market-resolved';
  if (state.killSwitchTripped) return 'kill-switch';
  if (state.stale) return 'stale-data';
  if (state.market.expiresAtMs !== null && state.nowMs >= state.market.expiresAtMs - limits.stopBeforeExpiryMs) return 'near-expiry';
  return null;
}

const floorStep = (raw: number): number => (raw <= 0 ? 0 : Math.floor(raw / SIZE_STEP_RAW) * SIZE_STEP_RAW);

export function riskGate(intents: readonly QuoteIntent[], state: RiskState, limits: RiskLimits): RiskDecision {
  const halt = haltReason(state, limits);
  if (halt !== null) return { allowed: [], trimmed: [], dropped: intents.map((intent) => ({ intent, reason: halt })), halt };

  const minSize = Math.max(SIZE_STEP_RAW, limits.minSizeRaw ?? SIZE_STEP_RAW);
  const intentSlots = new Set(intents.map((i) => i.slot));
  const counted = state.openOrders.filter((o) => isOpen(o.state) && (!intentSlots.has(o.slot) || isFrozen(o.state)));

  // Worst-case accumulators, seeded with the position and the counted orders.
  const buys: Record<Outcome, number> = { YES: 0, NO: 0 };
  let netUp = 0; // BUY YES + SELL NO: raise YES − NO
  let netDown = 0; // BUY NO + SELL YES: lower it
  const add = (token: Outcome, side: Side, size: number): void => {
    if (side === 'BUY') buys[token] += size;
    if ((token === 'YES') === (side === 'BUY')) netUp += size;
    else netDown += size;
  };
  for (const order of counted) add(order.token, order.side, exposureSizeRaw(order));
  let openCount = counted.length;
  let notional = state.otherMarketsNotionalRaw + marketNotionalRaw(state.positionCostRaw, counted);
  const held: Record<Outcome, number> = { YES: state.position.yesRaw, NO: state.position.noRaw };
  const net = state.position.yesRaw - state.position.noRaw;

  const allowed: QuoteIntent[] = [];
  const trimmed: { original: QuoteIntent; sizeRaw: number; reason: RiskLimitReason }[] = [];
  const dropped: { intent: QuoteIntent; reason: RiskReason }[] = [];
  for (const intent of intents) {
    if (intent.priceTicks < limits.priceBand.minTicks || intent.priceTicks > limits.priceBand.maxTicks) {
      dropped.push({ intent, reason: 'price-band' });
      continue;
    }
    if (openCount >= limits.maxOpenOrders) {
      dropped.push({ intent, reason: 'max-open-orders' });
      continue;
    }
    // Room left under every limit this intent can worsen; the tightest binds.
    const rooms: { room: number; reason: RiskLimitReason }[] = [];
    if (intent.side === 'BUY') {
      rooms.push({ room: limits.maxPositionPerTokenRaw - held[intent.token] - buys[intent.token], reason: 'max-position' });
      rooms.push({ room: affordableSizeRaw(limits.maxNotionalRaw - notional, intent.priceTicks), reason: 'max-notional' });
    }
    const raisesNet = (intent.token === 'YES') === (intent.side === 'BUY');
    rooms.push(
      raisesNet
        ? { room: limits.maxNetPositionRaw - (net + netUp), reason: 'max-net-position' }
        : { room: limits.maxNetPositionRaw + (net - netDown), reason: 'max-net-position' },
    );
    let size = intent.sizeRaw;
    let binding: RiskLimitReason | null = null;
    for (const { room, reason } of rooms) {
      const fits = floorStep(room);
      if (fits < size) {
        size = fits;
        binding = reason;
      }
    }
    if (binding !== null && size < minSize) {
      dropped.push({ intent, reason: binding });
      continue;
    }
    const accepted = size === intent.sizeRaw ? intent : { ...intent, sizeRaw: size };
    if (binding !== null) trimmed.push({ original: intent, sizeRaw: size, reason: binding });
    allowed.push(accepted);
    add(accepted.token, accepted.side, accepted.sizeRaw);
    openCount += 1;
    if (accepted.side === 'BUY') notional += collateralRaw(accepted.sizeRaw, accepted.priceTicks, 'BUY');
  }
  return { allowed, trimmed, dropped, halt: null };
}
