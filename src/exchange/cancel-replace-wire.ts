/**
 * Wire format of `POST /orders/cancel-replace` and `POST /orders/cancel-replace/batch`, as the official client types
 * them (CancelReplaceRequest, CancelReplaceBatchRequest, CancelReplaceMode, CancelReplaceResponse,
 * CancelReplaceCancelResult, CancelReplaceReplacementResult, CancelReplaceBatchResponse).
 *
 * Owns: the request bodies (each replacement is exactly the POST /orders body, `orderRequestBody`) and the zod
 * parsing of the answers into typed results. A replacement SUCCESS carries the placement answer, read by wire.ts's
 * `parsePlacement` (so a replacement is read exactly like a placement).
 *
 * Invariants: an answer that fails its schema is a ResponseValidationError naming the path and the value; the batch
 * answer is returned in request order with one entry per operation, a missing entry reported as UNKNOWN for both
 * halves (the safe reading: the venue may have acted on it).
 */
import { z } from 'zod';
import type { EndpointRef } from './errors.js';
import { orderRequestBody, type OrderRequestBody, type SignedOrder } from './signer.js';
import { parseAnswer, parsePlacement, type PlacementResult } from './wire.js';

export const CANCEL_REPLACE_MODES = ['ALLOW_FAILURE', 'STOP_ON_FAILURE'] as const;
export type CancelReplaceMode = (typeof CANCEL_REPLACE_MODES)[number];

/** The most operations one batch may carry (the simulator's limit; the live venue documents none). */
export const MAX_CANCEL_REPLACE_BATCH = 50;

export type CancelReplaceTarget = { readonly orderId: string } | { readonly clientOrderId: string };

/** One operation to send: cancel `cancel`, then place the signed `order`. */
export interface CancelReplaceOperation {
  readonly cancel: CancelReplaceTarget;
  readonly order: SignedOrder;
  readonly mode: CancelReplaceMode;
}

export interface CancelReplaceRequestBody {
  readonly cancel: CancelReplaceTarget;
  readonly replacement: OrderRequestBody;
  readonly mode: CancelReplaceMode;
}

export function cancelReplaceBody(operation: CancelReplaceOperation, ownerId: number, nowMs: number): CancelReplaceRequestBody {
  return { cancel: operation.cancel, replacement: orderRequestBody(operation.order, ownerId, nowMs), mode: operation.mode };
}

export interface CancelReplaceError {
  readonly code: string;
  readonly message: string;
}

export type CancelOutcome =
  | { readonly status: 'SUCCESS'; readonly orderId: string; readonly clientOrderId: string | null }
  | { readonly status: 'FAILURE' | 'UNKNOWN'; readonly error: CancelReplaceError | null };

export type ReplacementOutcome =
  | { readonly status: 'SUCCESS'; readonly placement: PlacementResult }
  | { readonly status: 'FAILURE' | 'UNKNOWN'; readonly error: CancelReplaceError | null }
  | { readonly status: 'NOT_ATTEMPTED' };

export interface CancelReplaceOutcome {
  readonly cancel: CancelOutcome;
  readonly replacement: ReplacementOutcome;
}

const ErrorWire = z.object({ code: z.string(), message: z.string() });

const CancelWire = z.discriminatedUnion('status', [
  z.object({ status: z.literal('SUCCESS'), orderId: z.string().min(1), clientOrderId: z.string().nullish() }),
  z.object({ status: z.enum(['FAILURE', 'UNKNOWN']), error: ErrorWire.nullish() }),
]);

const ReplacementWire = z.discriminatedUnion('status', [
  z.object({ status: z.literal('SUCCESS'), data: z.unknown() }),
  z.object({ status: z.enum(['FAILURE', 'UNKNOWN']), error: ErrorWire.nullish() }),
  z.object({ status: z.literal('NOT_ATTEMPTED') }),
]);

const OutcomeWire = z.object({ cancel: CancelWire, replacement: ReplacementWire });
const BatchWire = z.object({ results: z.array(OutcomeWire.extend({ index: z.number().int().min(0) })) });

function outcomeOf(wire: z.output<typeof OutcomeWire>, endpoint: EndpointRef, status: number): CancelReplaceOutcome {
  const cancel: CancelOutcome =
    wire.cancel.status === 'SUCCESS'
      ? { status: 'SUCCESS', orderId: wire.cancel.orderId, clientOrderId: wire.cancel.clientOrderId ?? null }
      : { status: wire.cancel.status, error: wire.cancel.error ?? null };
  const r = wire.replacement;
  const replacement: ReplacementOutcome =
    r.status === 'SUCCESS'
      ? { status: 'SUCCESS', placement: parsePlacement(r.data, endpoint, status) }
      : r.status === 'NOT_ATTEMPTED'
        ? { status: 'NOT_ATTEMPTED' }
        : { status: r.status, error: r.error ?? null };
  return { cancel, replacement };
}

/** The single form's answer (200 when both halves succeeded, 409 with the same body otherwise). */
export function parseCancelReplace(data: unknown, endpoint: EndpointRef, status: number): CancelReplaceOutcome {
  return outcomeOf(parseAnswer(OutcomeWire, data, endpoint, status), endpoint, status);
}

const UNANSWERED: CancelReplaceOutcome = {
  cancel: { status: 'UNKNOWN', error: { code: 'NO_RESULT', message: 'the batch answer has no result for this operation' } },
  replacement: { status: 'UNKNOWN', error: { code: 'NO_RESULT', message: 'the batch answer has no result for this operation' } },
};

/** The batch answer, one outcome per operation in request order (`count` operations were sent). */
export function parseCancelReplaceBatch(data: unknown, endpoint: EndpointRef, status: number, count: number): CancelReplaceOutcome[] {
  const wire = parseAnswer(BatchWire, data, endpoint, status);
  const byIndex = new Map(wire.results.map((r) => [r.index, r]));
  return Array.from({ length: count }, (_, index) => {
    const result = byIndex.get(index);
    return result === undefined ? UNANSWERED : outcomeOf(result, endpoint, status);
  });
}
