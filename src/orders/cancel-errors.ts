/**
 * What a failed cancel request means, as a table: which error of `VenuePort.cancelOrders` or
 * `VenuePort.cancelReplace` leaves the orders it named where (back to resting, or pending-cancel and looked up), which
 * abort reason it gives the plan, whether the trading-mode gate learns it, and whether cancel-replace goes off.
 *
 * Owns: the classification of cancel errors (plan-requests.ts applies the verdict to plain cancels, replacements.ts to
 * cancel-replace operations). Pure: no state, no I/O.
 *
 * Invariants: the rows are tried in order and the first match wins; the last row matches anything, so every error has
 * a verdict; only an error that proves nothing took effect restores the orders (refused cancel; for cancel-replace the
 * old order rests again and its replacement was never sent) — a timeout, a 5xx, a dropped connection or anything
 * unexpected leaves them pending-cancel and looked up, and the plan goes on; a withheld request was never sent (not
 * reported as a request error).
 */
import type { AbortReason } from './executor-types.js';
import { anything, definiteVenueFailure, firstVerdict, instanceOf, row, type ErrorRow } from './error-table.js';
import { CancelReplaceUnsupportedError, MaintenanceBlockError, PlacementWithheldError, RateLimitedError, TradingModeError } from './venue-port.js';

export type CancelErrorKind = 'withheld' | 'trading-mode' | 'maintenance-block' | 'unsupported' | 'rate-limited' | 'request-failed' | 'outcome-unknown';

export type CancelVerdict =
  | {
      readonly kind: CancelErrorKind;
      /** Nothing took effect: the orders rest again (their cancel refused); a cancel-replace's replacement never existed. */
      readonly orders: 'restore';
      /** Why the rest of the plan is dropped (null: none, the plan returns without reason). */
      readonly abort: AbortReason | null;
      /** The request reached the venue: reported as a request error. */
      readonly sent: boolean;
      /** A trading-mode refusal (or unexplained 425): the mode gate must learn it. */
      readonly modeRefusal: boolean;
      /** The venue does not offer cancel-replace: off for good, the remaining pairs go as plain cancels. */
      readonly cancelReplaceOff: boolean;
    }
  | {
      readonly kind: CancelErrorKind;
      /** The cancels may or may not have taken: the orders stay pending-cancel and are looked up; the plan goes on. */
      readonly orders: 'look-up';
      readonly abort: null;
      readonly sent: true;
      readonly modeRefusal: false;
      readonly cancelReplaceOff: false;
    };

const restore = (kind: CancelErrorKind, abort: AbortReason | null, extra: { readonly sent?: boolean; readonly modeRefusal?: boolean; readonly cancelReplaceOff?: boolean } = {}): CancelVerdict => ({
  kind,
  orders: 'restore',
  abort,
  sent: extra.sent ?? true,
  modeRefusal: extra.modeRefusal ?? false,
  cancelReplaceOff: extra.cancelReplaceOff ?? false,
});

const OUTCOME_UNKNOWN: CancelVerdict = { kind: 'outcome-unknown', orders: 'look-up', abort: null, sent: true, modeRefusal: false, cancelReplaceOff: false };

/** The ladder, first match wins. */
export const CANCEL_ERROR_TABLE: readonly ErrorRow<CancelVerdict>[] = [
  // A cancel-replace withheld by its own beforeSend check (its placements may not go now): nothing was sent.
  // Stopping or the market's stop is not a reason to abort (its cancels still go).
  row(instanceOf(PlacementWithheldError), (e) => restore('withheld', e.abortsPlan ? 'trading-mode' : null, { sent: false })),
  row(instanceOf(TradingModeError), () => restore('trading-mode', 'trading-mode', { modeRefusal: true })),
  row(instanceOf(MaintenanceBlockError), () => restore('maintenance-block', 'trading-mode', { modeRefusal: true })),
  // 404 for the cancel-replace endpoint. (A plain cancel never meets it; there it would be a failed request.)
  row(instanceOf(CancelReplaceUnsupportedError), () => restore('unsupported', 'request-failed', { cancelReplaceOff: true })),
  row(instanceOf(RateLimitedError), () => restore('rate-limited', 'rate-limited')),
  // A definite failure of another kind: the venue refused the request, nothing was canceled.
  row(definiteVenueFailure, () => restore('request-failed', 'request-failed')),
  // Timeout, 5xx, dropped connection, or anything unexpected: the outcome is unknown.
  row(anything, () => OUTCOME_UNKNOWN),
];

/** The verdict on a cancel (or cancel-replace) error: the first row of the table that matches. */
export function classifyCancelError(error: unknown): CancelVerdict {
  return firstVerdict(CANCEL_ERROR_TABLE, error, OUTCOME_UNKNOWN);
}
