/**
 * The engine's error registry: every business rejection is an `EngineFailure` carrying the HTTP status,
 * a typed code and the spec's error body, so the server answers without translating. Configuration
 * errors (bad EngineOptions) throw `EngineConfigError` naming the field and the value.
 *
 * Invariant: a failure is returned only before any state changed (commands validate, then commit).
 */
import { describeValue } from '../../core/venue-rules/index.js';
import type { EngineErrorCode, EngineFailure } from './types.js';

export class EngineConfigError extends Error {
  override readonly name = 'EngineConfigError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${reason} (got ${describeValue(value)})`);
  }
}

/** An internal invariant broke (a bug, never bad input). The engine refuses to continue the command. */
export class EngineInvariantError extends Error {
  override readonly name = 'EngineInvariantError';
  constructor(readonly detail: string) {
    super(`engine invariant violated: ${detail}`);
  }
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
};

/** A failure with the framework body `{message, error, statusCode}`. */
export function failure(status: number, code: EngineErrorCode, message: string): EngineFailure {
  return { ok: false, status, code, body: { message, error: STATUS_TEXT[status] ?? 'Error', statusCode: status } };
}

/** A 400 with the validation body `{message: [{field, message}], error: 'Bad Request', statusCode: 400}`. */
export function fieldFailure(code: EngineErrorCode, field: string, message: string): EngineFailure {
  return { ok: false, status: 400, code, body: { message: [{ field, message }], error: 'Bad Request', statusCode: 400 } };
}

export const MESSAGES = {
  marketNotFound: 'Market not found',
  profileNotFound: 'Profile not found',
  orderNotFound: 'Order not found',
  unauthorized: 'Unauthorized',
  marketResolved: 'Market has already been resolved',
  notCancellable: 'Order not found or already canceled',
  marketExpired: 'Market has expired',
} as const;
