/**
 * The bot's open orders during a backtest, in the order manager's terms: what is resting on the engine
 * (live, partially filled, or pending-cancel while a cancel request is on its way) plus placements sent
 * but not yet landed (pending-new, counted at full size by funding and limits, as the executor does).
 *
 * Owns: the ids of the orders the bot placed and which requests are in flight. The engine stays the
 * source of truth for what rests: every read re-checks each order there (O(open orders)), so a fill or a
 * cancel by the venue (expiry, STP) is seen at once. Invariant: an order is reported at most once (a
 * placement leaves the pending list when it lands), and only the bot's own orders are reported.
 */
import type { Outcome, Side } from '../core/units.js';
import type { OrderState } from '../orders/order-state.js';
import type { OwnOrderView } from '../strategy/contract.js';
import type { SimEngine, SimOrder } from '../sim/engine/index.js';
import { getOrInsert } from '../core/maps.js';

/** One open order: satisfies reconcile's ReconcileOrder, funding's FundingOrder and the risk gate's RiskOrder. */
export interface OpenOrder {
  readonly marketSlug: string;
  readonly clientOrderId: string;
  readonly orderId: string | null;
  readonly slot: string;
  readonly token: Outcome;
  readonly tokenId: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly remainingRaw: number;
  readonly state: OrderState;
  readonly createdAtMs: number;
}

export interface PendingPlacement {
  readonly clientOrderId: string;
  readonly slot: string;
  readonly token: Outcome;
  readonly tokenId: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly sentAtMs: number;
}

export class BotOrders {
  /** Per market: order id → slot, for orders that may still rest. */
  private readonly resting = new Map<string, Map<string, string>>();
  private readonly pending = new Map<string, Map<string, PendingPlacement>>();
  private readonly cancelling = new Set<string>();
  /** Filled size last seen per resting order. */
  private readonly filled = new Map<string, number>();
  private fillSeen = false;

  constructor(
    private readonly engine: SimEngine,
    private readonly profileId: number,
    slugs: readonly string[],
  ) {
    for (const slug of slugs) {
      this.resting.set(slug, new Map());
      this.pending.set(slug, new Map());
    }
  }

  /** A placement request left the bot. */
  sent(slug: string, placement: PendingPlacement): void {
    this.pendingOf(slug).set(placement.clientOrderId, placement);
  }

  /** The placement acted on the venue: `order` is what the engine made of it (null when refused). */
  landed(slug: string, clientOrderId: string, slot: string, order: SimOrder | null): void {
    this.pendingOf(slug).delete(clientOrderId);
    if (order === null) return;
    if (order.filledSizeRaw > 0) this.fillSeen = true;
    if (order.status === 'LIVE') {
      this.restingOf(slug).set(order.id, slot);
      this.filled.set(order.id, order.filledSizeRaw);
    }
  }

  /** A cancel request for these orders left the bot. */
  cancelSent(orderIds: readonly string[]): void {
    for (const id of orderIds) this.cancelling.add(id);
  }

  /** Its answer came back: whatever the engine says now stands. */
  cancelAnswered(orderIds: readonly string[]): void {
    for (const id of orderIds) this.cancelling.delete(id);
  }

  /**
   * True when any of the bot's orders filled (some or all) since the last call: every fill of the bot moves
   * the filled size of one of its orders (a maker fill on a resting order, a taker fill at placement).
   */
  takeFillSignal(): boolean {
    for (const slug of this.resting.keys()) this.refresh(slug);
    const seen = this.fillSeen;
    this.fillSeen = false;
    return seen;
  }

  /** Open orders of one market: resting ones first (oldest first), then placements in flight. */
  open(slug: string): OpenOrder[] {
    const out: OpenOrder[] = [];
    for (const { order, slot } of this.refresh(slug)) {
      const orderId = order.id;
      out.push({
        marketSlug: slug,
        clientOrderId: order.clientOrderId ?? orderId,
        orderId,
        slot,
        token: order.outcome,
        tokenId: order.tokenId,
        side: order.side,
        priceTicks: order.priceTicks ?? 0,
        sizeRaw: order.originalSizeRaw,
        remainingRaw: order.remainingSizeRaw,
        state: this.cancelling.has(orderId) ? 'pending-cancel' : order.filledSizeRaw > 0 ? 'partially-filled' : 'live',
        createdAtMs: order.createdAtMs,
      });
    }
    for (const p of this.pendingOf(slug).values()) {
      out.push({
        marketSlug: slug,
        clientOrderId: p.clientOrderId,
        orderId: null,
        slot: p.slot,
        token: p.token,
        tokenId: p.tokenId,
        side: p.side,
        priceTicks: p.priceTicks,
        sizeRaw: p.sizeRaw,
        remainingRaw: p.sizeRaw,
        state: 'pending-new',
        createdAtMs: p.sentAtMs,
      });
    }
    return out;
  }

  /** Open orders of every market. */
  all(): OpenOrder[] {
    return [...this.resting.keys()].flatMap((slug) => this.open(slug));
  }

  /** What the strategy sees as its own orders: every open order with size left (as the bot's runner passes them). */
  ownOrders(slug: string): OwnOrderView[] {
    return this.open(slug)
      .filter((o) => o.remainingRaw > 0)
      .map((o) => ({ token: o.token, side: o.side, priceTicks: o.priceTicks, sizeRaw: o.remainingRaw }));
  }

  /** Orders resting on the engine now (pending placements excluded). */
  restingNow(slug: string): OpenOrder[] {
    return this.open(slug).filter((o) => o.orderId !== null);
  }

  /** Re-reads the market's resting orders on the engine: notes fills, forgets orders that stopped resting. */
  private refresh(slug: string): { readonly order: SimOrder; readonly slot: string }[] {
    const out: { order: SimOrder; slot: string }[] = [];
    const resting = this.restingOf(slug);
    for (const [orderId, slot] of resting) {
      const order = this.engine.orderById(orderId);
      const filled = order?.filledSizeRaw ?? 0;
      if (filled !== (this.filled.get(orderId) ?? 0)) this.fillSeen = true;
      if (order === undefined || order.status !== 'LIVE' || order.profileId !== this.profileId) {
        resting.delete(orderId);
        this.cancelling.delete(orderId);
        this.filled.delete(orderId);
        continue;
      }
      this.filled.set(orderId, filled);
      out.push({ order, slot });
    }
    return out;
  }

  private restingOf(slug: string): Map<string, string> {
    return getOrInsert(this.resting, slug, () => new Map<string, string>());
  }

  private pendingOf(slug: string): Map<string, PendingPlacement> {
    return getOrInsert(this.pending, slug, () => new Map<string, PendingPlacement>());
  }
}
