/**
 * Socket order frames (src/exchange/socket-wire.ts) → the executor's order events (src/orders/order-events.ts).
 *
 * Owns: which part of a settlement frame is this account's, and what a frame that cannot be attributed means. A
 * SETTLEMENT frame describes the trade from the taker's side and goes to every account in it: the taker finds itself
 * by `takerOrderId` (preferred) or `orderId`, or by `clientOrderId`; each maker by its account address in
 * `makerMatches`. The official client types every settlement field but `eventId`, `source`, `type` and `timestamp`
 * optional, so:
 * - maker fills need only `makerMatches`; a taker fill needs the taker's order, `amountContracts` and `price`;
 * - a bare MINED/FAILED (no orders named) settles the fills this adapter saw for the same trade (bounded memory);
 * - a frame that is this account's but cannot be turned into fills (a taker fill without its amounts, a bare frame
 *   of an unknown trade, an event that fails validation) is a GAP: the caller resyncs the market's orders (all
 *   markets' when the market is unknown) and catches the ledger up at once.
 *
 * Invariants: one input frame yields at most one event; a fill is attributed only to an order of this account; one
 * order is never booked as both taker and maker of one trade (an `orderId` that is one of this account's maker
 * matches is the maker's own order, not a taker fill).
 */
import { TICKS_PER_UNIT, type OrderEvent, type SettlementOrderEvent } from '../core/venue-rules/index.js';
import { validateOrderEvent, type OrderEventInput, type SettlementFillInput } from '../orders/order-events.js';

export interface OrderIds {
  readonly orderId?: string | undefined;
  readonly clientOrderId?: string | undefined;
}

export interface OrderEventAdapterOptions {
  /** This account's wallet address (any case). */
  readonly account: string;
  /** Is this venue order id or client order id one of ours? */
  readonly isOwnOrder: (ids: OrderIds) => boolean;
  /** The market of one of our orders (for a gap's resync), when known. */
  readonly marketOf?: (ids: OrderIds) => string | null;
  /** Called when a taker fill's average price is off the tick grid and had to be rounded (logged and counted). */
  readonly onInexactPrice?: (tradeEventId: string, priceMicros: number) => void;
  readonly now: () => number;
}

/**
 * What the ledger wants to know about one of the account's fills beyond the executor's fill (role, fee), keyed by
 * trade and venue order id; the same shape as src/booking/fill-booking.ts `FillDetail`.
 */
export interface FillDetail {
  readonly tradeEventId: string;
  readonly orderId: string;
  readonly role: 'maker' | 'taker';
  /** The taker's collateral of the trade (before fee), when sent. */
  readonly collateralRaw: number | undefined;
  /** Fee in collateral raw (a fee in contracts at its value, at the trade price). */
  readonly feeRaw: number;
  /** A taker fee taken in contracts (its value is in feeRaw). */
  readonly feeContractsRaw?: number;
  /** The fee is the venue's estimate (`isEstimate`: a provisional MATCHED). */
  readonly feeEstimate: boolean;
  /** On a maker fill: the taker's fee rate the frame reported (`effectiveFeeBps`), when above 0 (the rebate's base). */
  readonly takerFeeBps?: number;
  /** The trade's transaction, once mined (the public trade feed's key: src/rewards/rebate-resolver.ts). */
  readonly txHash?: string;
}

export type AdaptedOrderEvent =
  | { readonly kind: 'event'; readonly event: OrderEventInput; readonly details: readonly FillDetail[] }
  /** Nothing of this account's to apply (another account's order, a status update already applied). */
  | { readonly kind: 'none' }
  /** This account's order events were lost or unreadable: resync `marketSlug` (every market when null). */
  | { readonly kind: 'gap'; readonly marketSlug: string | null; readonly reason: string };

/** Pure, stateless form (no memory of earlier trades): the event, or null when nothing is to be applied. */
export function toOrderEventInput(frame: OrderEvent, options: OrderEventAdapterOptions): OrderEventInput | null {
  const adapted = adaptOrderEvent(frame, options, null);
  return adapted.kind === 'event' ? adapted.event : null;
}

interface RememberedTrade {
  readonly fills: readonly SettlementFillInput[];
  readonly marketSlug: string | null;
}

/** The account's fills of recent trades, so a bare MINED/FAILED can settle them. Bounded; oldest forgotten first. */
export class TradeMemory {
  private readonly trades = new Map<string, RememberedTrade>();

  constructor(readonly capacity = 10_000) {}

  remember(tradeEventId: string, trade: RememberedTrade): void {
    this.trades.delete(tradeEventId);
    this.trades.set(tradeEventId, trade);
    while (this.trades.size > this.capacity) {
      const oldest = this.trades.keys().next();
      if (oldest.done === true) break;
      this.trades.delete(oldest.value);
    }
  }

  get(tradeEventId: string): RememberedTrade | undefined {
    return this.trades.get(tradeEventId);
  }
}

/** The adapter with its trade memory: what the bot uses. */
export class OrderEventAdapter {
  private readonly memory: TradeMemory;

  constructor(
    private readonly options: OrderEventAdapterOptions,
    memoryCapacity?: number,
  ) {
    this.memory = new TradeMemory(memoryCapacity);
  }

  adapt(frame: OrderEvent): AdaptedOrderEvent {
    return adaptOrderEvent(frame, this.options, this.memory);
  }
}

export function adaptOrderEvent(frame: OrderEvent, options: OrderEventAdapterOptions, memory: TradeMemory | null): AdaptedOrderEvent {
  const atMs = frame.timestampMs ?? options.now();
  if (frame.source === 'OME') {
    const event: OrderEventInput = {
      source: 'OME',
      type: frame.type,
      eventId: frame.eventId,
      orderId: frame.orderId,
      clientOrderId: frame.clientOrderId,
      remainingRaw: frame.remainingRaw,
      status: frame.status,
      reason: frame.reason,
      atMs,
    };
    return checked(event, [], () => frame.marketSlug ?? marketOf(options, { orderId: frame.orderId, clientOrderId: frame.clientOrderId }));
  }
  return adaptSettlement(frame, options, memory, atMs);
}

function adaptSettlement(frame: SettlementOrderEvent, options: OrderEventAdapterOptions, memory: TradeMemory | null, atMs: number): AdaptedOrderEvent {
  const account = options.account.toLowerCase();
  const fills: SettlementFillInput[] = [];
  const details: FillDetail[] = [];
  const estimate = frame.isEstimate;
  const txHash = frame.txHash === undefined || frame.txHash === '' ? {} : { txHash: frame.txHash };
  const ownMatches = frame.makerMatches.filter((match) => match.account.toLowerCase() === account);
  const makerIds = new Set(ownMatches.map((match) => match.orderId));
  const takerId = frame.takerOrderId ?? frame.orderId;
  const takerIds: OrderIds = { orderId: takerId, clientOrderId: frame.clientOrderId };
  const takerIsOtherAccount = frame.takerAccount !== undefined && frame.takerAccount.toLowerCase() !== account;
  // `orderId` naming one of this account's maker orders is that order, not a taker fill: never book it twice.
  const takerIsOwnMaker = takerId !== undefined && makerIds.has(takerId);
  const takerNamed = takerId !== undefined || frame.clientOrderId !== undefined;
  const gapMarket = (ids: OrderIds): string | null => frame.marketSlug ?? marketOf(options, ids);
  if (takerNamed && !takerIsOtherAccount && !takerIsOwnMaker && options.isOwnOrder(takerIds)) {
    const size = frame.amountContractsRaw;
    if (size === undefined || size <= 0 || frame.priceMicros === null) {
      const missing = size === undefined ? 'amountContracts' : size <= 0 ? 'amountContracts (not positive)' : 'price';
      return gap(gapMarket(takerIds), `settlement ${frame.eventId} (${frame.type}): our taker order ${takerId ?? frame.clientOrderId ?? ''} without ${missing}`);
    }
    let priceTicks = frame.priceTicks;
    if (priceTicks === null) {
      // An average over several maker prices: rounded to the nearest tick for the order state; the exact
      // collateral is in the frame and in the venue's records (reconciliation repairs any residue).
      priceTicks = Math.min(TICKS_PER_UNIT - 1, Math.max(1, Math.round(frame.priceMicros / 1000)));
      options.onInexactPrice?.(frame.tradeEventId, frame.priceMicros);
    }
    fills.push({ orderId: takerId, clientOrderId: frame.clientOrderId, role: 'taker', sizeRaw: size, priceTicks });
    if (takerId !== undefined) {
      const fee = frame.feeRaw ?? 0;
      const inContracts = frame.feeUnit === 'contracts';
      const feeRaw = inContracts ? Math.round((fee * priceTicks) / TICKS_PER_UNIT) : fee;
      details.push({
        tradeEventId: frame.tradeEventId,
        orderId: takerId,
        role: 'taker',
        collateralRaw: frame.amountCollateralRaw,
        feeRaw,
        ...(inContracts && fee > 0 ? { feeContractsRaw: fee } : {}),
        feeEstimate: estimate,
        ...txHash,
      });
    }
  } else if (
    frame.takerOrderId !== undefined &&
    frame.orderId !== undefined &&
    frame.orderId !== frame.takerOrderId &&
    !makerIds.has(frame.orderId) &&
    options.isOwnOrder({ orderId: frame.orderId })
  ) {
    // The frame names one of our orders apart from the taker, but no maker match says how much of it traded.
    return gap(gapMarket({ orderId: frame.orderId }), `settlement ${frame.eventId} (${frame.type}): our order ${frame.orderId} without a maker match`);
  }
  for (const match of ownMatches) {
    fills.push({ orderId: match.orderId, role: 'maker', sizeRaw: match.matchedSizeRaw, priceTicks: match.priceTicks });
    const takerFeeBps = frame.effectiveFeeBps !== undefined && frame.effectiveFeeBps > 0 ? { takerFeeBps: frame.effectiveFeeBps } : {};
    details.push({ tradeEventId: frame.tradeEventId, orderId: match.orderId, role: 'maker', collateralRaw: undefined, feeRaw: 0, feeEstimate: estimate, ...takerFeeBps, ...txHash });
  }
  if (fills.length > 0) {
    memory?.remember(frame.tradeEventId, { fills, marketSlug: frame.marketSlug ?? null });
    const event: OrderEventInput = { source: 'SETTLEMENT', type: frame.type, eventId: frame.eventId, tradeEventId: frame.tradeEventId, fills, atMs };
    return checked(event, details, () => gapMarket(takerIds));
  }
  const bare = frame.makerMatches.length === 0 && !takerNamed;
  if (!bare) return { kind: 'none' };
  // A status update that names no order: it settles the fills already seen for this trade.
  const known = memory?.get(frame.tradeEventId);
  if (known !== undefined) {
    const event: OrderEventInput = { source: 'SETTLEMENT', type: frame.type, eventId: frame.eventId, tradeEventId: frame.tradeEventId, fills: known.fills, atMs };
    return checked(event, [], () => known.marketSlug ?? frame.marketSlug ?? null);
  }
  // This account's order stream only carries its own trades: an unknown one told without its orders was lost.
  return gap(frame.marketSlug ?? null, `settlement ${frame.eventId} (${frame.type}) names no order and its trade ${frame.tradeEventId} is unknown`);
}

function checked(event: OrderEventInput, details: readonly FillDetail[], market: () => string | null): AdaptedOrderEvent {
  const problem = validateOrderEvent(event);
  if (problem !== null) return gap(market(), `unusable order event ${event.eventId}: ${problem.message}`);
  return { kind: 'event', event, details };
}

function gap(marketSlug: string | null, reason: string): AdaptedOrderEvent {
  return { kind: 'gap', marketSlug, reason };
}

function marketOf(options: OrderEventAdapterOptions, ids: OrderIds): string | null {
  if (ids.orderId === undefined && ids.clientOrderId === undefined) return null;
  return options.marketOf?.(ids) ?? null;
}

/**
 * What an order-event payload that failed validation still tells about its market: its `marketSlug`, `marketId`,
 * and the order ids it names (each only when it has the right type). Never throws.
 */
export interface OrderEventHints {
  readonly marketSlug: string | null;
  readonly marketId: string | null;
  readonly orderIds: readonly string[];
  readonly clientOrderId: string | null;
}

export function orderEventHints(payload: unknown): OrderEventHints {
  const field = (key: string): string | null => {
    if (payload === null || typeof payload !== 'object') return null;
    const value: unknown = Reflect.get(payload, key);
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    return null;
  };
  const orderIds = [field('takerOrderId'), field('orderId')].filter((id): id is string => id !== null);
  return { marketSlug: field('marketSlug'), marketId: field('marketId'), orderIds, clientOrderId: field('clientOrderId') };
}
