/**
 * What the bot's open orders lock, kept incrementally as orders change, so the account (src/risk/account-view.ts)
 * reads it per quote without walking the open orders: the collateral of open BUYs (at their exposure size: full
 * size while the placement is unanswered, the remaining size once resting; and at their remaining size alone), per
 * market and in total, and the tokens of open SELLs per token id.
 *
 * Owns: those sums. Written only by the order store (src/orders/order-store.ts), on every change of an order
 * (`change(previous, next)`: the previous record's share out, the next one's in) and when a market is dropped.
 * Invariants: every figure equals the same figure recomputed from the open orders (`OpenOrderLocks.of(open)`, and
 * `lockedFunds` / `openBuyCollateralRaw` of the funding and the risk limits: the property test checks both); a
 * terminal order locks nothing; every sum is an integer (each order's collateral is rounded once, up, as funding
 * rounds it); a market or token whose last locking order ended leaves no entry behind.
 */
import { collateralRaw } from '../core/venue-rules/index.js';
import { exposureSizeRaw, isOpen } from './order-state.js';
import type { TrackedOrder } from './order-record.js';

/** What an order contributes: read off its record alone. */
type LockingOrder = Pick<TrackedOrder, 'marketSlug' | 'tokenId' | 'side' | 'priceTicks' | 'sizeRaw' | 'remainingRaw' | 'state'>;

/** The reads (O(1) but `marketsWithBuys`, O(markets with an open BUY)). */
export interface OpenOrderLocksView {
  /** Σ collateral of open BUYs at their exposure size (unknown and pending-new: full size), raw USDC. */
  buyCollateralRaw(): number;
  /** Σ collateral of open BUYs at their remaining size, raw USDC (what resting BUYs already hold of the balance). */
  remainingBuyCollateralRaw(): number;
  /** The market's share of `buyCollateralRaw` (0 without an open BUY there). */
  marketBuyCollateralRaw(marketSlug: string): number;
  /** The markets with an open BUY. */
  marketsWithBuys(): Iterable<string>;
  /** Tokens locked by open SELLs at their exposure size, by token id (only ids with an open SELL). */
  tokensRaw(): ReadonlyMap<string, number>;
}

interface Share {
  readonly buyRaw: number;
  readonly remainingBuyRaw: number;
  readonly sellRaw: number;
}

function shareOf(order: LockingOrder): Share | null {
  if (!isOpen(order.state)) return null;
  if (order.side === 'SELL') return { buyRaw: 0, remainingBuyRaw: 0, sellRaw: exposureSizeRaw(order) };
  const exposure = exposureSizeRaw(order);
  return {
    buyRaw: exposure === 0 ? 0 : collateralRaw(exposure, order.priceTicks, 'BUY'),
    remainingBuyRaw: order.remainingRaw <= 0 ? 0 : collateralRaw(order.remainingRaw, order.priceTicks, 'BUY'),
    sellRaw: 0,
  };
}

/** A sum over a count of members, dropped when its last member leaves. */
class CountedSums {
  readonly sums = new Map<string, number>();
  private readonly counts = new Map<string, number>();

  add(key: string, raw: number, sign: 1 | -1): void {
    const count = (this.counts.get(key) ?? 0) + sign;
    if (count <= 0) {
      this.counts.delete(key);
      this.sums.delete(key);
      return;
    }
    this.counts.set(key, count);
    this.sums.set(key, (this.sums.get(key) ?? 0) + sign * raw);
  }
}

export class OpenOrderLocks implements OpenOrderLocksView {
  private buyRaw = 0;
  private remainingBuyRaw = 0;
  private readonly buysByMarket = new CountedSums();
  private readonly sellsByToken = new CountedSums();

  /** The locks of `orders` computed afresh (what the incremental figures must equal). */
  static of(orders: Iterable<LockingOrder>): OpenOrderLocks {
    const locks = new OpenOrderLocks();
    for (const order of orders) locks.change(undefined, order);
    return locks;
  }

  /** An order changed from `previous` (undefined: new) to `next` (undefined: forgotten). */
  change(previous: LockingOrder | undefined, next: LockingOrder | undefined): void {
    if (previous !== undefined) this.count(previous, -1);
    if (next !== undefined) this.count(next, 1);
  }

  buyCollateralRaw(): number {
    return this.buyRaw;
  }

  remainingBuyCollateralRaw(): number {
    return this.remainingBuyRaw;
  }

  marketBuyCollateralRaw(marketSlug: string): number {
    return this.buysByMarket.sums.get(marketSlug) ?? 0;
  }

  marketsWithBuys(): Iterable<string> {
    return this.buysByMarket.sums.keys();
  }

  tokensRaw(): ReadonlyMap<string, number> {
    return this.sellsByToken.sums;
  }

  private count(order: LockingOrder, sign: 1 | -1): void {
    const share = shareOf(order);
    if (share === null) return;
    if (order.side === 'BUY') {
      this.buyRaw += sign * share.buyRaw;
      this.remainingBuyRaw += sign * share.remainingBuyRaw;
      this.buysByMarket.add(order.marketSlug, share.buyRaw, sign);
    } else {
      this.sellsByToken.add(order.tokenId, share.sellRaw, sign);
    }
  }
}
