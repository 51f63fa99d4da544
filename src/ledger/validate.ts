/**
 * Validation of every ledger input, before any write. Pure: returns a normalised copy or throws a
 * LedgerInputError naming the field and the value. Callers are typed, but values come from the wire
 * through someone else's mapping, so nothing is taken on trust (NaN, floats, negative sizes, unknown enums).
 * The shapes it produces (NormalisedOrder, NormalisedFill...) are declared in types.ts, derived from the stored records.
 */
import { collateralRaw as collateralFor, MAX_TICK, MIN_TICK } from '../core/venue-rules/index.js';
import type { OrderType, Outcome, Side } from '../core/venue-rules/index.js';
import { LedgerInputError } from './errors.js';
import {
  FILL_STATES,
  ORDER_STATUSES,
  type FillInput,
  type FillKey,
  type FillRole,
  type FillState,
  type LedgerOrderStatus,
  type NormalisedFill,
  type NormalisedOrder,
  type NormalisedOrderUpdate,
  type OrderInput,
  type OrderRef,
  type OrderUpdate,
  type ResolutionInput,
} from './types.js';
import { errorText } from '../core/errors.js';

const MAX_ID_LENGTH = 256;

export function checkId(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw new LedgerInputError(field, value, `must be a non-empty string of at most ${MAX_ID_LENGTH} characters`);
  }
  return value;
}

const MAX_REASON_LENGTH = 500;

/** A human-readable reason: any non-empty string, cut to a bounded length (never rejected for length). */
export function checkReason(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new LedgerInputError(field, value, 'must be a non-empty string');
  }
  return value.length > MAX_REASON_LENGTH ? `${value.slice(0, MAX_REASON_LENGTH - 1)}…` : value;
}

export function checkOptionalId(field: string, value: unknown): string | null {
  return value === undefined || value === null ? null : checkId(field, value);
}

export function checkTimeMs(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new LedgerInputError(field, value, 'must be a non-negative integer of milliseconds since the epoch');
  }
  return value;
}

export function checkRaw(field: string, value: unknown, options: { positive?: boolean } = {}): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || (options.positive && value === 0)) {
    const kind = options.positive ? 'positive' : 'non-negative';
    throw new LedgerInputError(field, value, `must be a ${kind} safe integer (raw units, 1e6 = 1)`);
  }
  return value;
}

export function checkSignedRaw(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new LedgerInputError(field, value, 'must be a safe integer (raw units, 1e6 = 1)');
  }
  return value;
}

export function checkTicks(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_TICK || value > MAX_TICK) {
    throw new LedgerInputError(field, value, `must be an integer tick in [${MIN_TICK}, ${MAX_TICK}]`);
  }
  return value;
}

function checkEnum<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) throw new LedgerInputError(field, value, `must be one of ${allowed.join(', ')}`);
  return match;
}

export const checkOutcome = (field: string, value: unknown): Outcome => checkEnum(field, value, ['YES', 'NO']);
export const checkSide = (field: string, value: unknown): Side => checkEnum(field, value, ['BUY', 'SELL']);
export const checkOrderStatus = (field: string, value: unknown): LedgerOrderStatus =>
  checkEnum(field, value, ORDER_STATUSES);
const checkOrderType = (field: string, value: unknown): OrderType => checkEnum(field, value, ['GTC', 'FAK', 'FOK']);
const checkRole = (field: string, value: unknown): FillRole => checkEnum(field, value, ['maker', 'taker']);
const checkFillState = (field: string, value: unknown): FillState => checkEnum(field, value, FILL_STATES);

/** A YES mid in price units (0, 1) → millionths, rounded to the nearest (exact for tick and half-tick mids). */
export function checkMid(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value >= 1) {
    throw new LedgerInputError(field, value, 'must be a finite price strictly between 0 and 1');
  }
  const micros = Math.round(value * 1_000_000);
  if (micros <= 0 || micros >= 1_000_000) throw new LedgerInputError(field, value, 'rounds to 0 or 1 at 1e-6');
  return micros;
}

export function normaliseOrder(input: OrderInput): NormalisedOrder {
  const sizeRaw = checkRaw('order.sizeRaw', input.sizeRaw, { positive: true });
  const remainingRaw =
    input.remainingRaw === undefined ? sizeRaw : checkRaw('order.remainingRaw', input.remainingRaw);
  if (remainingRaw > sizeRaw) {
    throw new LedgerInputError('order.remainingRaw', remainingRaw, `exceeds sizeRaw ${sizeRaw}`);
  }
  if (input.postOnly !== undefined && typeof input.postOnly !== 'boolean') {
    throw new LedgerInputError('order.postOnly', input.postOnly, 'must be a boolean');
  }
  return {
    clientOrderId: checkId('order.clientOrderId', input.clientOrderId),
    venueOrderId: checkOptionalId('order.venueOrderId', input.venueOrderId),
    marketSlug: checkId('order.marketSlug', input.marketSlug),
    slot: checkId('order.slot', input.slot),
    token: checkOutcome('order.token', input.token),
    tokenId: checkId('order.tokenId', input.tokenId),
    side: checkSide('order.side', input.side),
    orderType: input.orderType === undefined ? 'GTC' : checkOrderType('order.orderType', input.orderType),
    postOnly: input.postOnly ?? false,
    priceTicks: checkTicks('order.priceTicks', input.priceTicks),
    sizeRaw,
    remainingRaw,
    status: input.status === undefined ? 'pending-new' : checkOrderStatus('order.status', input.status),
    atMs: checkTimeMs('order.atMs', input.atMs),
  };
}

export function normaliseOrderRef(ref: OrderRef): { column: 'client_order_id' | 'venue_order_id'; id: string } {
  if ('clientOrderId' in ref) return { column: 'client_order_id', id: checkId('ref.clientOrderId', ref.clientOrderId) };
  return { column: 'venue_order_id', id: checkId('ref.venueOrderId', ref.venueOrderId) };
}

export function normaliseOrderUpdate(update: OrderUpdate): NormalisedOrderUpdate {
  return {
    status: update.status === undefined ? null : checkOrderStatus('update.status', update.status),
    remainingRaw: update.remainingRaw === undefined ? null : checkRaw('update.remainingRaw', update.remainingRaw),
    venueOrderId: checkOptionalId('update.venueOrderId', update.venueOrderId),
    atMs: checkTimeMs('update.atMs', update.atMs),
  };
}

export function normaliseFill(input: FillInput): NormalisedFill {
  const side = checkSide('fill.side', input.side);
  const priceTicks = checkTicks('fill.priceTicks', input.priceTicks);
  const sizeRaw = checkRaw('fill.sizeRaw', input.sizeRaw, { positive: true });
  return {
    tradeEventId: checkId('fill.tradeEventId', input.tradeEventId),
    orderId: checkId('fill.orderId', input.orderId),
    clientOrderId: checkOptionalId('fill.clientOrderId', input.clientOrderId),
    marketSlug: checkId('fill.marketSlug', input.marketSlug),
    token: checkOutcome('fill.token', input.token),
    tokenId: checkId('fill.tokenId', input.tokenId),
    side,
    priceTicks,
    sizeRaw,
    collateralRaw:
      input.collateralRaw === undefined
        ? collateralFor(sizeRaw, priceTicks, side)
        : checkRaw('fill.collateralRaw', input.collateralRaw),
    feeRaw: checkRaw('fill.feeRaw', input.feeRaw),
    role: checkRole('fill.role', input.role),
    state: checkFillState('fill.state', input.state),
    atMs: checkTimeMs('fill.atMs', input.atMs),
    txHash: checkOptionalId('fill.txHash', input.txHash),
  };
}

export function normaliseFillKey(key: FillKey): FillKey {
  return { tradeEventId: checkId('key.tradeEventId', key.tradeEventId), orderId: checkId('key.orderId', key.orderId) };
}

/** Resolution → payout numerators [yes, no] (winning index 0 = YES, 1 = NO) and the index (null for a split). */
export function normaliseResolution(input: ResolutionInput): {
  winningOutcomeIndex: 0 | 1 | null;
  payoutYes: number;
  payoutNo: number;
} {
  if ('winningOutcomeIndex' in input) {
    const index = input.winningOutcomeIndex;
    if (index !== 0 && index !== 1) {
      throw new LedgerInputError('resolution.winningOutcomeIndex', index, 'must be 0 (YES) or 1 (NO)');
    }
    return { winningOutcomeIndex: index, payoutYes: index === 0 ? 1 : 0, payoutNo: index === 1 ? 1 : 0 };
  }
  const numerators: unknown = input.payoutNumerators;
  if (!Array.isArray(numerators) || numerators.length !== 2) {
    throw new LedgerInputError('resolution.payoutNumerators', numerators, 'must be [yes, no]');
  }
  const payoutYes = checkRaw('resolution.payoutNumerators[0]', numerators[0]);
  const payoutNo = checkRaw('resolution.payoutNumerators[1]', numerators[1]);
  if (payoutYes + payoutNo === 0) {
    throw new LedgerInputError('resolution.payoutNumerators', numerators, 'must not both be 0');
  }
  return { winningOutcomeIndex: null, payoutYes, payoutNo };
}

/** Serialises an event payload to JSON text; rejects what JSON cannot carry (bigint, cycles, undefined). */
export function payloadJson(field: string, payload: unknown): string {
  if (typeof payload === 'string') return payload;
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch (error) {
    throw new LedgerInputError(field, payload, `not serialisable to JSON (${errorText(error)})`);
  }
  if (text === undefined) throw new LedgerInputError(field, payload, 'not serialisable to JSON');
  return text;
}
