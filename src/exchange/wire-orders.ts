/**
 * The REST answers about the account's orders: its open orders (spec: UserOrder), the POST /orders answer
 * (exchange-facts §3: the echo, executions, maker matches, self-trade-prevention cancels), the order status batch,
 * and the single and batch cancels.
 *
 * Owns: these wire shapes and their domain values. Invariants: an order's `price` must be a tick only for a limit
 * order (a FOK prints its average fill price, or 0); a size is derived from the amounts only when the venue sent
 * none (`sizeFromAmounts`); a 200 batch cancel that lists no ids counts every requested id as canceled.
 *
 * Part of the REST wire format (wire.ts re-exports every part; callers import wire.ts). Rules of every part: extra
 * fields are tolerated (and dropped); numbers sent as strings are accepted; wrong types are rejected with a
 * ResponseValidationError naming the field path and value (parseAnswer); prices become integer ticks and amounts raw
 * 1e6 integers wherever the bot signs, books or compares them.
 */
import { z } from 'zod';
import { TICKS_PER_UNIT, type OrderType, type Side } from '../core/venue-rules/index.js';
import type { EndpointRef } from './errors.js';
import { anySide, idText, integer, isoMs, numeric, orNull, orderPrice, orderPriceTicks, parseAnswer, rawAmount, sideName, tokenId } from './wire-fields.js';

export const ORDER_STATUSES = ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const UserOrderWire = z.object({
  id: z.string().min(1),
  ownerId: integer,
  marketId: idText,
  token: tokenId,
  type: z.enum(['GTC', 'FAK', 'FOK']),
  status: z.enum(ORDER_STATUSES),
  side: sideName,
  makerAmount: rawAmount,
  takerAmount: rawAmount,
  price: orderPrice,
  originalSize: rawAmount,
  remainingSize: rawAmount,
  createdAt: isoMs,
  clientOrderId: z.string().nullish(),
});

export interface UserOrder {
  readonly id: string;
  readonly ownerId: number;
  readonly marketId: string;
  readonly tokenId: string;
  readonly orderType: OrderType;
  readonly status: OrderStatus;
  readonly side: Side;
  readonly makerAmountRaw: number;
  readonly takerAmountRaw: number;
  /** The limit price in ticks; 0 for a FOK order, which has none (the venue prints its average fill price there). */
  readonly priceTicks: number;
  readonly originalSizeRaw: number;
  readonly remainingSizeRaw: number;
  readonly createdAtMs: number;
  readonly clientOrderId: string | null;
}

export function parseUserOrders(data: unknown, endpoint: EndpointRef, status: number): UserOrder[] {
  return parseAnswer(z.array(UserOrderWire), data, endpoint, status).map((wire, index) => ({
    id: wire.id,
    ownerId: wire.ownerId,
    marketId: wire.marketId,
    tokenId: wire.token,
    orderType: wire.type,
    status: wire.status,
    side: wire.side,
    makerAmountRaw: wire.makerAmount,
    takerAmountRaw: wire.takerAmount,
    priceTicks: orderPriceTicks(wire.type, wire.price, endpoint, status, [index, 'price'], data) ?? 0,
    originalSizeRaw: wire.originalSize,
    remainingSizeRaw: wire.remainingSize,
    createdAtMs: wire.createdAt,
    clientOrderId: orNull(wire.clientOrderId),
  }));
}

const OrderEchoWire = z.object({
  id: idText,
  status: z.string().nullish(),
  clientOrderId: z.string().nullish(),
  side: anySide.nullish(),
  price: orderPrice.nullish(),
  makerAmount: rawAmount.nullish(),
  takerAmount: rawAmount.nullish(),
  originalSize: rawAmount.nullish(),
  remainingSize: rawAmount.nullish(),
  tokenId: z.string().nullish(),
  token: z.string().nullish(),
  orderType: z.string().nullish(),
  type: z.string().nullish(),
  createdAt: z.string().nullish(),
  marketId: idText.nullish(),
});
const MakerMatchWire = z.object({
  id: idText,
  createdAt: z.string().nullish(),
  matchedSize: rawAmount,
  orderId: idText,
});
/**
 * `execution.totalsRaw` as the official client types it (ExecutionTotalsRaw): raw integer strings; gross = before the
 * fee, fee = taken (in contracts or in USDC), net = after it. Each is optional here: an absent total is unknown.
 */
const TotalsRawWire = z.object({
  contractsGross: rawAmount.nullish(),
  contractsNet: rawAmount.nullish(),
  contractsFee: rawAmount.nullish(),
  usdGross: rawAmount.nullish(),
  usdNet: rawAmount.nullish(),
  usdFee: rawAmount.nullish(),
});

const ExecutionWire = z.object({
  matched: z.union([z.boolean(), numeric]).nullish(),
  settlementStatus: z.string().nullish(),
  tradeEventId: idText.nullish(),
  txHash: z.string().nullish(),
  clientOrderId: z.string().nullish(),
  feeRateBps: numeric.nullish(),
  effectiveFeeBps: numeric.nullish(),
  totalsRaw: TotalsRawWire.nullish(),
  eligibleAt: z.string().nullish(),
  reason: z.string().nullish(),
  stpMakerCancels: z.array(z.unknown()).nullish(),
});
const PlacementWire = z.object({
  order: OrderEchoWire,
  makerMatches: z.array(MakerMatchWire).nullish(),
  execution: ExecutionWire.nullish(),
});

/** Known settlement statuses; the venue's set is open, so any other string is kept as is. */
export type SettlementStatus = 'UNMATCHED' | 'MATCHED' | 'MINED' | 'CONFIRMED' | 'RETRYING' | 'FAILED' | 'DELAYED' | (string & {});

export interface OrderEcho {
  readonly id: string;
  readonly status: string | null;
  readonly clientOrderId: string | null;
  readonly side: Side | null;
  /** The limit price in ticks; null when not sent, and for a FOK order (no limit; see `orderPriceTicks`). */
  readonly priceTicks: number | null;
  readonly makerAmountRaw: number | null;
  readonly takerAmountRaw: number | null;
  /** As sent; null when absent (the official client's CreatedOrder has none): unknown, never 0. */
  readonly originalSizeRaw: number | null;
  /** As sent; null when absent (CreatedOrder has none): unknown, never 0. */
  readonly remainingSizeRaw: number | null;
  /**
   * The order's size in contracts: `originalSize` when sent, else derived from the signed amounts (a BUY receives
   * `takerAmount` contracts, a SELL gives `makerAmount`), checked against the price when one was sent; null when
   * neither tells.
   */
  readonly sizeRaw: number | null;
  readonly tokenId: string | null;
  readonly orderType: string | null;
  /** `createdAt`, ms since epoch; null when absent or unreadable. */
  readonly createdAtMs: number | null;
}

export interface MakerMatch {
  readonly id: string;
  readonly orderId: string;
  readonly matchedSizeRaw: number;
  readonly createdAt: string | null;
}

/** `execution.totalsRaw`, raw integers; each null when the venue left it out. */
export interface ExecutionTotals {
  readonly contractsGross: number | null;
  readonly contractsNet: number | null;
  readonly contractsFee: number | null;
  readonly usdGross: number | null;
  readonly usdNet: number | null;
  readonly usdFee: number | null;
}

export interface Execution {
  readonly matched: boolean;
  readonly settlementStatus: SettlementStatus | null;
  readonly tradeEventId: string | null;
  readonly txHash: string | null;
  readonly clientOrderId: string | null;
  readonly feeRateBps: number | null;
  readonly effectiveFeeBps: number | null;
  /** `totalsRaw` as typed by the official client; null when the venue sent none. */
  readonly totals: ExecutionTotals | null;
  readonly eligibleAt: string | null;
  /** e.g. STP_TAKER_REJECTED. */
  readonly reason: string | null;
  /** Order ids of makers cancelled by self-trade prevention (strings, or objects carrying `orderId`). */
  readonly stpMakerCancelOrderIds: readonly string[];
}

export interface PlacementResult {
  readonly orderId: string;
  readonly order: OrderEcho;
  readonly makerMatches: readonly MakerMatch[];
  /** null when the venue sent no execution object. */
  readonly execution: Execution | null;
}

/**
 * An order's contract size from its signed amounts: a BUY pays `makerAmount` USDC for `takerAmount` contracts, a SELL
 * gives `makerAmount` contracts for `takerAmount` USDC. When a limit price is known the pair must agree with it (within
 * the one raw unit a collateral amount is rounded to); otherwise the amounts are not read as a size (null: unknown).
 */
export function sizeFromAmounts(side: Side | null, makerAmountRaw: number | null, takerAmountRaw: number | null, priceTicks: number | null): number | null {
  if (side === null || makerAmountRaw === null || takerAmountRaw === null) return null;
  const contracts = side === 'BUY' ? takerAmountRaw : makerAmountRaw;
  const collateral = side === 'BUY' ? makerAmountRaw : takerAmountRaw;
  if (!Number.isSafeInteger(contracts) || contracts <= 0) return null;
  if (priceTicks !== null && Math.abs(contracts * priceTicks - collateral * TICKS_PER_UNIT) > TICKS_PER_UNIT) return null;
  return contracts;
}

function stpIds(entries: readonly unknown[]): string[] {
  const ids: string[] = [];
  const withId = z.object({ orderId: z.string() });
  for (const entry of entries) {
    if (typeof entry === 'string') ids.push(entry);
    else {
      const parsed = withId.safeParse(entry);
      if (parsed.success) ids.push(parsed.data.orderId);
    }
  }
  return ids;
}

/** `path` locates `wire` in the answer `root`, for error messages. */
function toPlacement(wire: z.output<typeof PlacementWire>, endpoint: EndpointRef, status: number, path: readonly PropertyKey[], root: unknown): PlacementResult {
  const o = wire.order;
  const e = wire.execution;
  const orderType = o.orderType ?? o.type ?? null;
  const side = orNull(o.side);
  const priceTicks = o.price === null || o.price === undefined ? null : orderPriceTicks(orderType, o.price, endpoint, status, [...path, 'order', 'price'], root);
  const makerAmountRaw = orNull(o.makerAmount);
  const takerAmountRaw = orNull(o.takerAmount);
  const createdAtMs = o.createdAt ? Date.parse(o.createdAt) : Number.NaN;
  const t = e?.totalsRaw;
  return {
    orderId: o.id,
    order: {
      id: o.id,
      status: orNull(o.status),
      clientOrderId: orNull(o.clientOrderId),
      side,
      priceTicks,
      makerAmountRaw,
      takerAmountRaw,
      originalSizeRaw: orNull(o.originalSize),
      remainingSizeRaw: orNull(o.remainingSize),
      sizeRaw: o.originalSize ?? sizeFromAmounts(side, makerAmountRaw, takerAmountRaw, priceTicks),
      tokenId: o.tokenId ?? o.token ?? null,
      orderType,
      createdAtMs: Number.isFinite(createdAtMs) ? createdAtMs : null,
    },
    makerMatches: (wire.makerMatches ?? []).map((m) => ({ id: m.id, orderId: m.orderId, matchedSizeRaw: m.matchedSize, createdAt: orNull(m.createdAt) })),
    execution: e
      ? {
          matched: typeof e.matched === 'number' ? e.matched > 0 : (e.matched ?? false),
          settlementStatus: orNull(e.settlementStatus),
          tradeEventId: orNull(e.tradeEventId),
          txHash: orNull(e.txHash),
          clientOrderId: orNull(e.clientOrderId),
          feeRateBps: orNull(e.feeRateBps),
          effectiveFeeBps: orNull(e.effectiveFeeBps),
          totals: t
            ? {
                contractsGross: orNull(t.contractsGross),
                contractsNet: orNull(t.contractsNet),
                contractsFee: orNull(t.contractsFee),
                usdGross: orNull(t.usdGross),
                usdNet: orNull(t.usdNet),
                usdFee: orNull(t.usdFee),
              }
            : null,
          eligibleAt: orNull(e.eligibleAt),
          reason: orNull(e.reason),
          stpMakerCancelOrderIds: stpIds(e.stpMakerCancels ?? []),
        }
      : null,
  };
}

export function parsePlacement(data: unknown, endpoint: EndpointRef, status: number): PlacementResult {
  return toPlacement(parseAnswer(PlacementWire, data, endpoint, status), endpoint, status, [], data);
}

const StatusBatchWire = z.object({
  results: z.array(
    z.object({
      index: integer,
      status: z.enum(['found', 'not_found', 'invalid']),
      orderId: z.string().nullish(),
      clientOrderId: z.string().nullish(),
      data: PlacementWire.nullish(),
    }),
  ),
});

export interface OrderStatusResult {
  /** Index of the item in the request. */
  readonly index: number;
  readonly status: 'found' | 'not_found' | 'invalid';
  readonly orderId: string | null;
  readonly clientOrderId: string | null;
  /** The order, its maker matches and execution when found. */
  readonly data: PlacementResult | null;
}

export function parseStatusBatch(data: unknown, endpoint: EndpointRef, status: number): OrderStatusResult[] {
  return parseAnswer(StatusBatchWire, data, endpoint, status).results.map((r, i) => ({
    index: r.index,
    status: r.status,
    orderId: r.orderId ?? r.data?.order.id ?? null,
    clientOrderId: r.clientOrderId ?? r.data?.order.clientOrderId ?? null,
    data: r.data ? toPlacement(r.data, endpoint, status, ['results', i, 'data'], data) : null,
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Cancels.

const CancelWire = z.object({ message: z.string() });

export interface CancelResult {
  readonly message: string;
  /** The venue said `Delayed order canceled successfully`. */
  readonly delayed: boolean;
}

export function parseCancel(data: unknown, endpoint: EndpointRef, status: number): CancelResult {
  const wire = parseAnswer(CancelWire, data, endpoint, status);
  return { message: wire.message, delayed: wire.message.toLowerCase().startsWith('delayed') };
}

const BatchCancelWire = z.object({
  message: z.string().nullish(),
  canceled: z.array(idText).nullish(),
  failed: z
    .array(z.object({ orderId: idText, reason: z.string().nullish(), message: z.string().nullish() }))
    .nullish(),
});

export interface CancelFailure {
  readonly orderId: string;
  readonly reason: string | null;
  readonly message: string | null;
}

export interface BatchCancelResult {
  readonly status: number;
  /** True for 207: some ids failed. */
  readonly partial: boolean;
  readonly message: string | null;
  readonly canceled: readonly string[];
  readonly failed: readonly CancelFailure[];
}

/**
 * cancel-batch / cancel-all answers. A 200 that lists no `canceled` ids for a batch means all requested ids were
 * cancelled (`requested`); cancel-all passes no requested ids and takes the list as given.
 */
export function parseBatchCancel(data: unknown, endpoint: EndpointRef, status: number, requested: readonly string[] = []): BatchCancelResult {
  const wire = data === '' || data === undefined ? {} : parseAnswer(BatchCancelWire, data, endpoint, status);
  const failed = (wire.failed ?? []).map((f) => ({ orderId: f.orderId, reason: orNull(f.reason), message: orNull(f.message) }));
  const canceled = wire.canceled ?? (status === 200 ? [...requested] : []);
  return { status, partial: status === 207 || failed.length > 0, message: orNull(wire.message), canceled, failed };
}
