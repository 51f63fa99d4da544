/**
 * Row shapes read back from SQLite, checked with zod (the driver types rows as unknown). The schema's
 * STRICT tables and CHECK constraints already guarantee these shapes; parsing here turns that guarantee
 * into types without casts, and fails loudly if the file was edited by hand into something else.
 */
import { z } from 'zod';
import { ORDER_STATUSES, FILL_STATES, type FillRecord, type LedgerOrder } from './types.js';

const int = z.number().int();
const outcome = z.enum(['YES', 'NO']);
const side = z.enum(['BUY', 'SELL']);

export const orderRowSchema = z.object({
  client_order_id: z.string(),
  venue_order_id: z.string().nullable(),
  market_slug: z.string(),
  slot: z.string(),
  token: outcome,
  token_id: z.string(),
  side,
  order_type: z.enum(['GTC', 'FAK', 'FOK']),
  post_only: int,
  price_ticks: int,
  size_raw: int,
  remaining_raw: int,
  status: z.enum(ORDER_STATUSES),
  created_at_ms: int,
  updated_at_ms: int,
});

export function toOrder(row: unknown): LedgerOrder {
  const r = orderRowSchema.parse(row);
  return {
    clientOrderId: r.client_order_id,
    venueOrderId: r.venue_order_id,
    marketSlug: r.market_slug,
    slot: r.slot,
    token: r.token,
    tokenId: r.token_id,
    side: r.side,
    orderType: r.order_type,
    postOnly: r.post_only === 1,
    priceTicks: r.price_ticks,
    sizeRaw: r.size_raw,
    remainingRaw: r.remaining_raw,
    status: r.status,
    createdAtMs: r.created_at_ms,
    updatedAtMs: r.updated_at_ms,
  };
}

export const fillRowSchema = z.object({
  id: int,
  trade_event_id: z.string(),
  order_id: z.string(),
  client_order_id: z.string().nullable(),
  market_slug: z.string(),
  token: outcome,
  token_id: z.string(),
  side,
  price_ticks: int.nullable(),
  size_raw: int,
  collateral_raw: int,
  fee_raw: int,
  role: z.enum(['maker', 'taker']).nullable(),
  kind: z.enum(['trade', 'adjustment']),
  source: z.enum(['venue', 'reconcile']),
  state: z.enum(FILL_STATES),
  reason: z.string().nullable(),
  tx_hash: z.string().nullable(),
  at_ms: int,
  recorded_at_ms: int,
  updated_at_ms: int,
  realized_delta_raw: int,
  position_after_raw: int,
  cost_after_raw: int,
});

export function toFill(row: unknown): FillRecord {
  const r = fillRowSchema.parse(row);
  return {
    id: r.id,
    tradeEventId: r.trade_event_id,
    orderId: r.order_id,
    clientOrderId: r.client_order_id,
    marketSlug: r.market_slug,
    token: r.token,
    tokenId: r.token_id,
    side: r.side,
    priceTicks: r.price_ticks,
    sizeRaw: r.size_raw,
    collateralRaw: r.collateral_raw,
    feeRaw: r.fee_raw,
    role: r.role,
    kind: r.kind,
    source: r.source,
    state: r.state,
    reason: r.reason,
    txHash: r.tx_hash,
    atMs: r.at_ms,
    recordedAtMs: r.recorded_at_ms,
    realizedDeltaRaw: r.realized_delta_raw,
    positionAfterRaw: r.position_after_raw,
    costAfterRaw: r.cost_after_raw,
  };
}

/** The columns the position replay needs. */
export const replayRowSchema = z.object({
  id: int,
  kind: z.enum(['trade', 'adjustment']),
  side,
  size_raw: int,
  collateral_raw: int,
  fee_raw: int,
  at_ms: int,
  realized_delta_raw: int,
  position_after_raw: int,
  cost_after_raw: int,
});
export type ReplayRow = z.infer<typeof replayRowSchema>;

export const positionRowSchema = z.object({
  market_slug: z.string(),
  token: outcome,
  position_raw: int,
  cost_raw: int,
  realized_raw: int,
  fees_raw: int,
  volume_raw: int,
  fill_count: int,
  last_at_ms: int,
  last_fill_id: int,
});
export type PositionRow = z.infer<typeof positionRowSchema>;

export const resolutionRowSchema = z.object({
  market_slug: z.string(),
  winning_outcome_index: z.union([z.literal(0), z.literal(1)]).nullable(),
  payout_yes: int,
  payout_no: int,
  resolved_at_ms: int,
});

export const markRowSchema = z.object({ market_slug: z.string(), mid_micros: int, at_ms: int });

export const countRowSchema = z.object({ n: int });
export const sumRowSchema = z.object({ total: int.nullable() });
