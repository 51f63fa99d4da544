/**
 * Forced outcomes for `POST /orders/cancel-replace[/batch]` operations, so a client's handling of every result the
 * official client types (CancelReplaceCancelResult, CancelReplaceReplacementResult) can be tested: "for the next N
 * operations (optionally only those naming a clientOrderId), report the cancel as FAILURE or UNKNOWN and/or the
 * replacement as FAILURE, UNKNOWN or NOT_ATTEMPTED".
 *
 * An UNKNOWN carries whether the action really happened on the venue (`cancelApplied`, `replacementApplied`,
 * default false), so a client that looks the orders up afterwards (by orderId or clientOrderId) finds the truth.
 * A forced FAILURE or NOT_ATTEMPTED never happened.
 *
 * Owns: the rules and their consumption. Invariants: rules are consumed in the order they were added, one
 * operation each; a bad rule is a FaultInputError naming the field and changes nothing.
 */
import { FaultInputError } from './faults.js';

export const FORCED_CANCEL_OUTCOMES = ['FAILURE', 'UNKNOWN'] as const;
export type ForcedCancelOutcome = (typeof FORCED_CANCEL_OUTCOMES)[number];
export const FORCED_REPLACEMENT_OUTCOMES = ['FAILURE', 'UNKNOWN', 'NOT_ATTEMPTED'] as const;
export type ForcedReplacementOutcome = (typeof FORCED_REPLACEMENT_OUTCOMES)[number];

export interface CancelReplaceFaultInput {
  /** Operations the rule applies to (default 1). */
  readonly count?: number;
  /** Only operations whose cancel target or replacement carries this clientOrderId. */
  readonly clientOrderId?: string;
  readonly cancel?: ForcedCancelOutcome;
  /** With `cancel: 'UNKNOWN'`: whether the order was really canceled (default false). */
  readonly cancelApplied?: boolean;
  readonly replacement?: ForcedReplacementOutcome;
  /** With `replacement: 'UNKNOWN'`: whether the replacement was really placed (default false). */
  readonly replacementApplied?: boolean;
}

export interface CancelReplaceFaultRule {
  readonly id: number;
  remaining: number;
  readonly clientOrderId: string | null;
  readonly cancel: ForcedCancelOutcome | null;
  readonly cancelApplied: boolean;
  readonly replacement: ForcedReplacementOutcome | null;
  readonly replacementApplied: boolean;
}

/** The clientOrderIds one operation carries: its cancel target's (given or found) and its replacement's. */
export interface OperationKeys {
  readonly cancelClientOrderId: string | null;
  readonly replacementClientOrderId: string | null;
}

export class CancelReplaceFaults {
  private rules: CancelReplaceFaultRule[] = [];
  private nextId = 1;

  add(input: CancelReplaceFaultInput): CancelReplaceFaultRule {
    const count = input.count ?? 1;
    if (!Number.isSafeInteger(count) || count < 1) throw new FaultInputError('count', count, 'must be an integer >= 1');
    if (input.cancel === undefined && input.replacement === undefined) {
      throw new FaultInputError('cancel', input.cancel, 'give cancel and/or replacement');
    }
    if (input.cancel !== undefined && !FORCED_CANCEL_OUTCOMES.includes(input.cancel)) {
      throw new FaultInputError('cancel', input.cancel, `must be one of ${FORCED_CANCEL_OUTCOMES.join(', ')}`);
    }
    if (input.replacement !== undefined && !FORCED_REPLACEMENT_OUTCOMES.includes(input.replacement)) {
      throw new FaultInputError('replacement', input.replacement, `must be one of ${FORCED_REPLACEMENT_OUTCOMES.join(', ')}`);
    }
    if (input.cancelApplied !== undefined && input.cancel !== 'UNKNOWN') {
      throw new FaultInputError('cancelApplied', input.cancelApplied, "is meaningful only with cancel: 'UNKNOWN'");
    }
    if (input.replacementApplied !== undefined && input.replacement !== 'UNKNOWN') {
      throw new FaultInputError('replacementApplied', input.replacementApplied, "is meaningful only with replacement: 'UNKNOWN'");
    }
    if (input.clientOrderId !== undefined && (input.clientOrderId.length === 0 || input.clientOrderId.length > 128)) {
      throw new FaultInputError('clientOrderId', input.clientOrderId, 'must be 1 to 128 characters');
    }
    const rule: CancelReplaceFaultRule = {
      id: this.nextId++,
      remaining: count,
      clientOrderId: input.clientOrderId ?? null,
      cancel: input.cancel ?? null,
      cancelApplied: input.cancelApplied ?? false,
      replacement: input.replacement ?? null,
      replacementApplied: input.replacementApplied ?? false,
    };
    this.rules.push(rule);
    return { ...rule };
  }

  /** Consumes and returns the first rule that applies to an operation with these keys, or null. */
  take(keys: OperationKeys): CancelReplaceFaultRule | null {
    const rule = this.rules.find(
      (r) => r.remaining > 0 && (r.clientOrderId === null || r.clientOrderId === keys.cancelClientOrderId || r.clientOrderId === keys.replacementClientOrderId),
    );
    if (!rule) return null;
    rule.remaining -= 1;
    if (rule.remaining === 0) this.rules = this.rules.filter((r) => r !== rule);
    return { ...rule };
  }

  pending(): readonly CancelReplaceFaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }
}
