/**
 * What a failed placement means, as a table: which error of `VenuePort.placeOrder` sends the new order to which
 * state (with which reason), which abort reason it gives the plan, and how its outcome is settled.
 *
 * Owns: the classification of placement errors (plan-requests.ts applies the verdict). Pure: no state, no I/O.
 *
 * Invariants: the rows are tried in order and the first match wins; the last row matches anything, so every error
 * has a verdict; only an error that proves nothing took effect rejects the order: a timeout, a 5xx, a dropped
 * connection or anything unexpected makes it `unknown` (looked up later, never rejected); a 409 (the venue already
 * holds the clientOrderId) is looked up at once; a withheld placement was never sent (not reported as a request
 * error, not counted in the plan's tally).
 */
import type { AbortReason } from './executor-types.js';
import { anything, definiteVenueFailure, firstVerdict, instanceOf, row, type ErrorRow } from './error-table.js';
import { DuplicateClientOrderIdError, MaintenanceBlockError, OrderRejectedError, PlacementWithheldError, RateLimitedError, TradingModeError } from './venue-port.js';

export type PlacementErrorKind = 'withheld' | 'duplicate' | 'trading-mode' | 'maintenance-block' | 'rate-limited' | 'rejected' | 'request-failed' | 'outcome-unknown';

/** A verdict: the new order goes rejected (nothing took effect) or unknown (looked up now or later). */
export type PlacementVerdict =
  | {
      readonly kind: PlacementErrorKind;
      readonly to: 'rejected';
      /** The rejection reason recorded on the order. */
      readonly reason: string;
      /** Why the rest of the plan is dropped; null: the plan goes on. */
      readonly abort: AbortReason | null;
      /** The request reached the venue: reported as a request error and counted in the plan's tally. */
      readonly sent: boolean;
      /** A trading-mode refusal (or unexplained 425): the mode gate must learn it. */
      readonly modeRefusal: boolean;
    }
  | {
      readonly kind: PlacementErrorKind;
      readonly to: 'unknown';
      /** `now`: looked up before the plan goes on (409); `later`: by the background lookups, with backoff. */
      readonly lookUp: 'now' | 'later';
      readonly abort: null;
      readonly sent: true;
      readonly modeRefusal: false;
    };

type PlacementErrorRow = ErrorRow<PlacementVerdict>;

const rejected = (kind: PlacementErrorKind, reason: string, abort: AbortReason | null, extra: { readonly sent?: boolean; readonly modeRefusal?: boolean } = {}): PlacementVerdict => ({
  kind,
  to: 'rejected',
  reason,
  abort,
  sent: extra.sent ?? true,
  modeRefusal: extra.modeRefusal ?? false,
});

const unknown = (kind: PlacementErrorKind, lookUp: 'now' | 'later'): PlacementVerdict => ({ kind, to: 'unknown', lookUp, abort: null, sent: true, modeRefusal: false });
const OUTCOME_UNKNOWN = unknown('outcome-unknown', 'later');

/** The ladder, first match wins. */
export const PLACEMENT_ERROR_TABLE: readonly PlacementErrorRow[] = [
  // Withheld by its own beforeSend check: the order never existed. Stopping or the market's stop is not a reason to abort.
  row(instanceOf(PlacementWithheldError), (e) => rejected('withheld', `withheld: ${e.reason}`, e.abortsPlan ? 'trading-mode' : null, { sent: false })),
  // 409: the venue already holds this clientOrderId. Find it; until found it is unknown.
  row(instanceOf(DuplicateClientOrderIdError), () => unknown('duplicate', 'now')),
  row(instanceOf(TradingModeError), (e) => rejected('trading-mode', `trading mode ${e.mode}`, 'trading-mode', { modeRefusal: true })),
  row(instanceOf(MaintenanceBlockError), () => rejected('maintenance-block', 'maintenance block', 'trading-mode', { modeRefusal: true })),
  row(instanceOf(RateLimitedError), () => rejected('rate-limited', 'rate limited', 'rate-limited')),
  row(instanceOf(OrderRejectedError), (e) => rejected('rejected', e.reason, null)),
  // A definite failure of another kind: the order was not accepted.
  row(definiteVenueFailure, (e) => rejected('request-failed', e.kind, 'request-failed')),
  // Timeout, 5xx, dropped connection, or anything unexpected: the outcome is unknown.
  row(anything, () => OUTCOME_UNKNOWN),
];

/** The verdict on a placement error (the first row of the table that matches). */
export function classifyPlacementError(error: unknown): PlacementVerdict {
  return firstVerdict(PLACEMENT_ERROR_TABLE, error, OUTCOME_UNKNOWN);
}
