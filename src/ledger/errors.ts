/**
 * Typed errors of the ledger. Every error names the field (or the stored fact) and the offending value;
 * none ever carries a secret (the ledger holds none). A rejected call has changed nothing: inputs are
 * validated before the first write, and every write runs inside a transaction.
 */
import { describeValue } from '../core/venue-rules/index.js';
import { errorText } from '../core/errors.js';

/** An input to a ledger call is malformed (wrong type, out of range, unknown enum value). */
export class LedgerInputError extends Error {
  override readonly name = 'LedgerInputError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`ledger input ${field}: ${reason} (got ${describeValue(value)})`);
  }
}

/** An input contradicts a fact the ledger already holds (e.g. the same clientOrderId with another price). */
export class LedgerConflictError extends Error {
  override readonly name = 'LedgerConflictError';
  constructor(
    readonly field: string,
    readonly stored: unknown,
    readonly received: unknown,
    readonly key: string,
  ) {
    super(`ledger conflict on ${key}: ${field} is ${describeValue(stored)}, got ${describeValue(received)}`);
  }
}

/** The database file is not one this build can use (newer schema, missing file for a read-only command). */
export class LedgerSchemaError extends Error {
  override readonly name = 'LedgerSchemaError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`ledger database ${path}: ${reason}`);
  }
}

/** A `report` argument is malformed. */
export class ReportArgsError extends Error {
  override readonly name = 'ReportArgsError';
  constructor(
    readonly option: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`report ${option}: ${reason} (got ${describeValue(value)})`);
  }
}

/** A ledger call inside a transaction failed and the caller caught the error: the whole transaction was rolled back. */
export class LedgerAbortedError extends Error {
  override readonly name = 'LedgerAbortedError';
  constructor(
    readonly operation: string,
    readonly innerError: unknown,
  ) {
    super(
      `ledger ${operation} rolled back: an inner ledger call failed (${errorText(innerError)})`,
    );
  }
}
