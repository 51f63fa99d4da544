/**
 * Funding: fit one market's intents to what the account can actually pay for, using YES/NO complements.
 *
 * Owns: locked funds of open orders, and `fundIntents`, a pure function that keeps, converts, trims or drops
 * each intent with a reason the caller counts.
 *
 * Rules:
 * - free collateral = collateral balance − collateral locked by every open BUY of the bot (all markets);
 *   free tokens = token balance − tokens locked by open SELLs. Orders whose outcome is unknown (and pending
 *   placements) lock their FULL size; resting and cancelling orders their remaining size;
 * - the resting order already in an intent's slot is credited back (it is either kept as it is, or canceled
 *   before its replacement is placed), frozen orders in that slot are not (they may still trade);
 * - SELL X at p that the free X tokens cannot cover becomes BUY ¬X at 1 − p (same economic exposure) when the
 *   free collateral covers it; BUY X at p that the free collateral cannot cover becomes SELL ¬X at 1 − p when
 *   enough ¬X is held. When neither covers the full size, the larger of the two trimmed alternatives is used
 *   (the original form on a tie); below `minSizeRaw` the intent is dropped;
 * - intents are funded in the order given (the strategy lists its most important quotes first), each using up
 *   budget for the next.
 *
 * Balances must be totals, not already net of open orders.
 */
import { collateralRaw, complementTicks, oppositeOutcome, SIZE_STEP_RAW } from '../core/venue-rules/index.js';
import type { Outcome, Side } from '../core/venue-rules/index.js';
import type { QuoteIntent } from '../strategy/contract.js';
import { exposureSizeRaw, isResting, type OrderState } from './order-state.js';

/** What funding reads of an open order. */
export interface FundingOrder {
  readonly marketSlug: string;
  readonly slot: string;
  readonly tokenId: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly remainingRaw: number;
  readonly state: OrderState;
}

export interface Balances {
  /** Total collateral (USDC raw) of the account. */
  readonly collateralRaw: number;
  /** Total tokens held, raw, by token id. */
  readonly tokensRaw: ReadonlyMap<string, number>;
}

export interface FundingMarket {
  readonly slug: string;
  readonly tokens: { readonly yes: string; readonly no: string };
}

export interface FundingOptions {
  /** Smallest size worth placing after trimming (default one size step). */
  readonly minSizeRaw?: number;
  /** Allow the complement conversions (default true). */
  readonly complement?: boolean;
  /** Cap on the collateral this market's intents may use (on top of the account-wide free collateral). */
  readonly collateralBudgetRaw?: number;
  /**
   * What every open order of the bot locks, when the caller keeps it (src/orders/open-order-locks.ts); `openOrders`
   * then need hold only this market's orders (the credit of its slots). Default: `lockedFunds(openOrders)`.
   */
  readonly locked?: LockedFunds;
}

export type FundingAction = 'converted' | 'trimmed' | 'converted-and-trimmed' | 'dropped';
export type FundingReason = 'no-inventory' | 'no-collateral' | 'below-min-size';

export interface FundingAdjustment {
  readonly slot: string;
  readonly action: FundingAction;
  readonly reason: FundingReason;
  readonly original: QuoteIntent;
  readonly result: QuoteIntent | null;
}

export interface FundingResult {
  readonly intents: readonly QuoteIntent[];
  readonly adjustments: readonly FundingAdjustment[];
}

export interface LockedFunds {
  readonly collateralRaw: number;
  readonly tokensRaw: ReadonlyMap<string, number>;
}

function lockOf(order: FundingOrder): { collateral: number; tokens: number } {
  const size = exposureSizeRaw(order);
  if (size === 0) return { collateral: 0, tokens: 0 };
  return order.side === 'BUY' ? { collateral: collateralRaw(size, order.priceTicks, 'BUY'), tokens: 0 } : { collateral: 0, tokens: size };
}

/** Collateral and tokens locked by open orders (unknown and pending ones at full size). */
export function lockedFunds(orders: readonly FundingOrder[]): LockedFunds {
  let collateral = 0;
  const tokens = new Map<string, number>();
  for (const order of orders) {
    const lock = lockOf(order);
    collateral += lock.collateral;
    if (lock.tokens > 0) tokens.set(order.tokenId, (tokens.get(order.tokenId) ?? 0) + lock.tokens);
  }
  return { collateralRaw: collateral, tokensRaw: tokens };
}

/** Largest size on the step whose BUY collateral at `priceTicks` fits `budgetRaw`. */
export function affordableSizeRaw(budgetRaw: number, priceTicks: number): number {
  if (!(budgetRaw > 0) || !Number.isSafeInteger(Math.floor(budgetRaw))) return 0;
  // ceil(size × price / 1000) ≤ budget  ⇔  size × price ≤ budget × 1000: exact in bigint.
  const maxSize = (BigInt(Math.floor(budgetRaw)) * 1000n) / BigInt(priceTicks);
  const step = BigInt(SIZE_STEP_RAW);
  return Number((maxSize / step) * step);
}

const floorStep = (raw: number): number => Math.max(0, Math.floor(raw / SIZE_STEP_RAW) * SIZE_STEP_RAW);

export function fundIntents(
  market: FundingMarket,
  intents: readonly QuoteIntent[],
  balances: Balances,
  openOrders: readonly FundingOrder[],
  options: FundingOptions = {},
): FundingResult {
  const minSize = Math.max(SIZE_STEP_RAW, options.minSizeRaw ?? SIZE_STEP_RAW);
  const complement = options.complement ?? true;
  const tokenId = (token: Outcome): string => (token === 'YES' ? market.tokens.yes : market.tokens.no);

  const locked = options.locked ?? lockedFunds(openOrders);
  const intentSlots = new Set(intents.map((i) => i.slot));
  const credited = openOrders.filter((o) => o.marketSlug === market.slug && intentSlots.has(o.slot) && isResting(o.state));
  const credit = lockedFunds(credited);

  let freeCollateral = balances.collateralRaw - locked.collateralRaw + credit.collateralRaw;
  let marketBudget = options.collateralBudgetRaw ?? Infinity;
  const freeTokens = new Map<string, number>();
  for (const token of ['YES', 'NO'] as const) {
    const id = tokenId(token);
    freeTokens.set(id, (balances.tokensRaw.get(id) ?? 0) - (locked.tokensRaw.get(id) ?? 0) + (credit.tokensRaw.get(id) ?? 0));
  }
  const collateralAvailable = (): number => Math.max(0, Math.min(freeCollateral, marketBudget));
  const tokensAvailable = (token: Outcome): number => floorStep(freeTokens.get(tokenId(token)) ?? 0);

  const funded: QuoteIntent[] = [];
  const adjustments: FundingAdjustment[] = [];
  for (const intent of intents) {
    const other = oppositeOutcome(intent.token);
    const otherPrice = complementTicks(intent.priceTicks);
    const want = intent.sizeRaw;
    // Direct form and the complement form, each with the size the budget allows.
    const direct =
      intent.side === 'SELL'
        ? Math.min(want, tokensAvailable(intent.token))
        : Math.min(want, affordableSizeRaw(collateralAvailable(), intent.priceTicks));
    const alternative = !complement
      ? 0
      : intent.side === 'SELL'
        ? Math.min(want, affordableSizeRaw(collateralAvailable(), otherPrice))
        : Math.min(want, tokensAvailable(other));
    const useDirect = direct === want || (alternative < want && direct >= alternative);
    const size = useDirect ? direct : alternative;
    const result: QuoteIntent | null =
      size < minSize
        ? null
        : useDirect
          ? { ...intent, sizeRaw: size }
          : { ...intent, token: other, side: intent.side === 'SELL' ? 'BUY' : 'SELL', priceTicks: otherPrice, sizeRaw: size };
    if (result === null) {
      const short = intent.side === 'SELL' ? 'no-inventory' : 'no-collateral';
      adjustments.push({ slot: intent.slot, action: 'dropped', reason: Math.max(direct, alternative) > 0 ? 'below-min-size' : short, original: intent, result });
      continue;
    }
    if (result.side === 'BUY') {
      const cost = collateralRaw(result.sizeRaw, result.priceTicks, 'BUY');
      freeCollateral -= cost;
      marketBudget -= cost;
    } else {
      const id = tokenId(result.token);
      freeTokens.set(id, (freeTokens.get(id) ?? 0) - result.sizeRaw);
    }
    funded.push(result);
    if (useDirect && size === want) continue;
    const reason: FundingReason = intent.side === 'SELL' ? 'no-inventory' : 'no-collateral';
    const action: FundingAction = useDirect ? 'trimmed' : size === want ? 'converted' : 'converted-and-trimmed';
    adjustments.push({ slot: intent.slot, action, reason, original: intent, result });
  }
  return { intents: funded, adjustments };
}
