/**
 * reconcile(intents, orders, options) → Plan: the pure per-slot diff between what the strategy wants in one
 * market and the bot's open orders there.
 *
 * Rules, per slot:
 * - a resting order (live / partially-filled) is KEPT when token, side and price match the intent (price within
 *   `priceToleranceTicks`, default 0: equal), its remaining size is within the size tolerance of the intent's,
 *   and it is younger than `maxOrderAgeMs` (0 = no age limit): queue priority is worth money;
 * - every other resting order in the slot is CANCELED (price/size/side changed, too old, no intent, or a second
 *   order in the slot);
 * - a new order is PLACED only into a slot with no open order at all: a replacement waits until the cancel is
 *   confirmed (the executor re-runs reconcile after its cancels), so at most one order per (market, slot) can rest;
 * - a slot holding an order that is pending-new, pending-cancel or unknown is frozen: nothing is placed there
 *   until it resolves;
 * - after a fill in a slot (or anywhere in the market, with `coolOffScope: 'market'`) nothing is placed there for
 *   `coolOffMs`; and a slot that filled after the intents were issued is not re-placed from those intents
 *   (they were computed for a position that no longer holds);
 * - intents that are malformed or repeat a slot are returned as `invalid`, never placed.
 *
 * Output is deterministic (slots in sorted order); cancels come first in the plan and form one batch per market.
 */
import { MAX_TICK, MIN_TICK, SIZE_STEP_RAW } from '../core/venue-rules/index.js';
import type { Outcome, Side } from '../core/venue-rules/index.js';
import type { QuoteIntent } from '../strategy/contract.js';
import { isValidSlot } from './client-order-id.js';
import { isFrozen, isResting, type OrderState } from './order-state.js';

/** What reconcile reads of an order. */
export interface ReconcileOrder {
  readonly clientOrderId: string;
  readonly orderId: string | null;
  readonly slot: string;
  readonly token: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly remainingRaw: number;
  readonly state: OrderState;
  readonly createdAtMs: number;
}

export type SizeTolerance = { readonly kind: 'raw'; readonly raw: number } | { readonly kind: 'percent'; readonly percent: number };

export interface ReconcileOptions {
  readonly nowMs: number;
  readonly priceToleranceTicks?: number;
  /** Default: exact ({kind: 'raw', raw: 0}). */
  readonly sizeTolerance?: SizeTolerance;
  /** Replace a resting order older than this even if unchanged; 0 = never (default). */
  readonly maxOrderAgeMs?: number;
  /** No new placement for this long after a fill; 0 = off (default). */
  readonly coolOffMs?: number;
  /** Cool-off per slot (default) or for the whole market. */
  readonly coolOffScope?: 'slot' | 'market';
  /** Last fill time per slot in this market. */
  readonly lastFillAtBySlot?: ReadonlyMap<string, number>;
  /** When the intents were computed: a slot that filled at or after this is not re-placed from them. */
  readonly intentsIssuedAtMs?: number;
}

export type CancelReason = 'no-intent' | 'price-changed' | 'size-changed' | 'side-changed' | 'max-age' | 'duplicate-in-slot';
export type WaitReason = 'pending-new' | 'pending-cancel' | 'unknown' | 'awaiting-cancel' | 'cool-off' | 'filled-since-quote';

export interface PlannedCancel {
  readonly slot: string;
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly reason: CancelReason;
}

export interface PlannedPlace {
  readonly slot: string;
  readonly intent: QuoteIntent;
}

export interface PlannedKeep {
  readonly slot: string;
  readonly clientOrderId: string;
}

export interface PlannedWait {
  readonly slot: string;
  readonly reason: WaitReason;
  /** For cool-off: when the slot may be placed again. */
  readonly untilMs: number | null;
}

export interface InvalidIntent {
  readonly intent: QuoteIntent;
  readonly reason: string;
}

export interface Plan {
  readonly cancels: readonly PlannedCancel[];
  readonly places: readonly PlannedPlace[];
  readonly keeps: readonly PlannedKeep[];
  readonly waits: readonly PlannedWait[];
  readonly invalid: readonly InvalidIntent[];
  /** The earliest time at which this plan would change by itself (cool-off end, an order reaching max age). */
  readonly nextReviewAtMs: number | null;
}

/** Why an intent is unusable, or null. */
export function intentProblem(intent: QuoteIntent): string | null {
  if (!isValidSlot(intent.slot)) return `slot ${JSON.stringify(intent.slot)} is not [a-z0-9-]{1,24}`;
  if (intent.token !== 'YES' && intent.token !== 'NO') return `token ${String(intent.token)} is not YES or NO`;
  if (intent.side !== 'BUY' && intent.side !== 'SELL') return `side ${String(intent.side)} is not BUY or SELL`;
  if (!Number.isInteger(intent.priceTicks) || intent.priceTicks < MIN_TICK || intent.priceTicks > MAX_TICK) {
    return `priceTicks ${intent.priceTicks} is not an integer in [${MIN_TICK}, ${MAX_TICK}]`;
  }
  if (!Number.isSafeInteger(intent.sizeRaw) || intent.sizeRaw <= 0 || intent.sizeRaw % SIZE_STEP_RAW !== 0) {
    return `sizeRaw ${intent.sizeRaw} is not a positive multiple of ${SIZE_STEP_RAW}`;
  }
  return null;
}

function sizeWithin(remainingRaw: number, wantedRaw: number, tolerance: SizeTolerance): boolean {
  const diff = Math.abs(remainingRaw - wantedRaw);
  if (tolerance.kind === 'raw') return diff <= tolerance.raw;
  // diff / wanted ≤ percent / 100, in integers: diff × 100 ≤ percent × wanted.
  return diff * 100 <= tolerance.percent * wantedRaw;
}

function mismatch(order: ReconcileOrder, intent: QuoteIntent, options: Required<Omit<ReconcileOptions, 'lastFillAtBySlot' | 'intentsIssuedAtMs'>>): CancelReason | null {
  if (order.token !== intent.token || order.side !== intent.side) return 'side-changed';
  if (Math.abs(order.priceTicks - intent.priceTicks) > options.priceToleranceTicks) return 'price-changed';
  if (!sizeWithin(order.remainingRaw, intent.sizeRaw, options.sizeTolerance)) return 'size-changed';
  if (options.maxOrderAgeMs > 0 && options.nowMs - order.createdAtMs >= options.maxOrderAgeMs) return 'max-age';
  return null;
}

export function reconcile(intents: readonly QuoteIntent[], orders: readonly ReconcileOrder[], options: ReconcileOptions): Plan {
  const opts = {
    nowMs: options.nowMs,
    priceToleranceTicks: Math.max(0, options.priceToleranceTicks ?? 0),
    sizeTolerance: options.sizeTolerance ?? { kind: 'raw', raw: 0 },
    maxOrderAgeMs: Math.max(0, options.maxOrderAgeMs ?? 0),
    coolOffMs: Math.max(0, options.coolOffMs ?? 0),
    coolOffScope: options.coolOffScope ?? 'slot',
  } as const;
  const lastFills = options.lastFillAtBySlot ?? new Map<string, number>();
  const marketLastFill = Math.max(-Infinity, ...lastFills.values());

  const invalid: InvalidIntent[] = [];
  const intentBySlot = new Map<string, QuoteIntent>();
  for (const intent of intents) {
    const problem = intentProblem(intent);
    if (problem !== null) invalid.push({ intent, reason: problem });
    else if (intentBySlot.has(intent.slot)) invalid.push({ intent, reason: `slot ${intent.slot} appears twice` });
    else intentBySlot.set(intent.slot, intent);
  }

  const ordersBySlot = new Map<string, ReconcileOrder[]>();
  for (const order of orders) {
    if (!isResting(order.state) && !isFrozen(order.state)) continue;
    const list = ordersBySlot.get(order.slot);
    if (list) list.push(order);
    else ordersBySlot.set(order.slot, [order]);
  }

  const cancels: PlannedCancel[] = [];
  const places: PlannedPlace[] = [];
  const keeps: PlannedKeep[] = [];
  const waits: PlannedWait[] = [];
  let nextReviewAtMs: number | null = null;
  const review = (atMs: number): void => {
    if (nextReviewAtMs === null || atMs < nextReviewAtMs) nextReviewAtMs = atMs;
  };

  const slots = [...new Set([...intentBySlot.keys(), ...ordersBySlot.keys()])].sort();
  for (const slot of slots) {
    const intent = intentBySlot.get(slot);
    const open = ordersBySlot.get(slot) ?? [];
    const frozen = open.filter((o) => isFrozen(o.state));
    // Newest first, so when two orders could be kept the newer (by sequence in its id: created later) wins.
    const resting = open.filter((o) => isResting(o.state)).sort((a, b) => b.createdAtMs - a.createdAtMs || (a.clientOrderId < b.clientOrderId ? 1 : -1));

    let keeper: ReconcileOrder | null = null;
    for (const order of resting) {
      const reason = intent === undefined ? 'no-intent' : keeper !== null ? 'duplicate-in-slot' : mismatch(order, intent, opts);
      if (reason === null) {
        keeper = order;
        keeps.push({ slot, clientOrderId: order.clientOrderId });
        if (opts.maxOrderAgeMs > 0) review(order.createdAtMs + opts.maxOrderAgeMs);
      } else if (order.orderId !== null) {
        cancels.push({ slot, clientOrderId: order.clientOrderId, orderId: order.orderId, reason });
      }
    }
    for (const order of frozen) waits.push({ slot, reason: order.state === 'pending-new' ? 'pending-new' : order.state === 'unknown' ? 'unknown' : 'pending-cancel', untilMs: null });
    if (intent === undefined || keeper !== null || frozen.length > 0) continue;
    if (resting.length > 0) {
      waits.push({ slot, reason: 'awaiting-cancel', untilMs: null });
      continue;
    }
    const lastFill = opts.coolOffScope === 'market' ? marketLastFill : (lastFills.get(slot) ?? -Infinity);
    // A fill in the same millisecond as the quote counts as after it (the safe reading).
    if (options.intentsIssuedAtMs !== undefined && (lastFills.get(slot) ?? -Infinity) >= options.intentsIssuedAtMs) {
      waits.push({ slot, reason: 'filled-since-quote', untilMs: null });
      continue;
    }
    if (opts.coolOffMs > 0 && Number.isFinite(lastFill) && opts.nowMs < lastFill + opts.coolOffMs) {
      const untilMs = lastFill + opts.coolOffMs;
      waits.push({ slot, reason: 'cool-off', untilMs });
      review(untilMs);
      continue;
    }
    places.push({ slot, intent });
  }
  return { cancels, places, keeps, waits, invalid, nextReviewAtMs };
}
