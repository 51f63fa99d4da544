/**
 * The answers of the venue's current cancel endpoints (its API reference): `POST /orders/batch-cancel` (1–50 `orderIds`
 * OR `clientOrderIds`) and `POST /orders/cancel` (one `orderId` or `clientOrderId`).
 *
 * Part of the REST wire format (wire.ts re-exports every part). The reference shows the requests, not the answers: the
 * answers are read as the older cancel endpoints' (`{message, canceled?, failed?}`, 200 or 207), each failure naming
 * the id it was sent by (`orderId` or `clientOrderId`). A 200 that lists no `canceled` ids means all requested ids were.
 * Invariant: an entry naming neither id is a ResponseValidationError naming the path, never a silent drop.
 */
import { z } from 'zod';
import type { EndpointRef } from './errors.js';
import { idText, orNull, parseAnswer } from './wire-fields.js';

/** The ids of one batch-cancel: one kind only (the venue takes `orderIds` or `clientOrderIds`, never both). */
export type CancelTargets = { readonly orderIds: readonly string[] } | { readonly clientOrderIds: readonly string[] };

/** One order a batch-cancel could not cancel, named as it was sent. */
export interface TargetCancelFailure {
  readonly id: string;
  readonly by: 'orderId' | 'clientOrderId';
  readonly reason: string | null;
  readonly message: string | null;
}

export interface TargetCancelResult {
  readonly status: number;
  /** The ids canceled, as sent (order ids or clientOrderIds). */
  readonly canceled: readonly string[];
  readonly failed: readonly TargetCancelFailure[];
  readonly message: string | null;
}

const FailureWire = z
  .object({ orderId: idText.nullish(), clientOrderId: idText.nullish(), reason: z.string().nullish(), message: z.string().nullish() })
  .refine((f) => (f.orderId ?? f.clientOrderId) != null, { message: 'expected orderId or clientOrderId' });

const TargetCancelWire = z.object({ message: z.string().nullish(), canceled: z.array(idText).nullish(), failed: z.array(FailureWire).nullish() });

/** A batch-cancel or single-cancel answer; `requested`: the ids sent (what a bare 200 canceled). */
export function parseTargetCancel(data: unknown, endpoint: EndpointRef, status: number, requested: readonly string[]): TargetCancelResult {
  const wire = data === '' || data === undefined ? {} : parseAnswer(TargetCancelWire, data, endpoint, status);
  const failed = (wire.failed ?? []).map((f): TargetCancelFailure => {
    const byOrder = f.orderId != null;
    return { id: byOrder ? (f.orderId ?? '') : (f.clientOrderId ?? ''), by: byOrder ? 'orderId' : 'clientOrderId', reason: orNull(f.reason), message: orNull(f.message) };
  });
  const canceled = wire.canceled ?? (status === 200 ? [...requested] : []);
  return { status, canceled, failed, message: orNull(wire.message) };
}
