/**
 * What a 503 without the trading-mode body means on a trading request (a placement, a cancel).
 *
 * The evidence: the venue's API reference ("Maintenance mode") says that in `cancel_only` or `disabled` mode
 * `POST /orders` answers 503 and that clients must not retry the blocked action in a tight loop but refresh the
 * maintenance status; the specification (exchange-api.md § Errors) refuses a blocked action with a 425 trading-mode
 * body, and a cancel only in `disabled`. Neither shows the 503's body, so a bare 503 is either that refusal or an
 * overloaded server (whose outcome is unknown).
 *
 * Owns: telling the two apart. The maintenance status is refreshed at once: when the mode in force refuses the action
 * (a placement it does not let through; a cancel in `disabled`), the 503 was the documented refusal — nothing was
 * accepted — and it becomes a TradingModeError (the gate applies the mode at once and the placement is not sent again
 * until the mode allows it). Otherwise it stays a ServiceUnavailableError (an unknown outcome: looked up by
 * clientOrderId, and placements held one poll interval by the executor, never retried in a loop). A failed refresh
 * proves nothing: the outcome stays unknown.
 */
import { ExchangeHttpError, ExchangeOutcomeUnknownError, ExchangeTradingModeError } from '../exchange/errors.js';
import type { OrderType } from '../core/venue-rules/index.js';
import { modeAllows } from '../orders/trading-mode.js';
import { TradingModeError, type MaintenanceStatus, type ServiceUnavailableError, type TradingMode } from '../orders/venue-port.js';

/** The action the 503 answered. */
export type RefusableAction = { readonly kind: 'place'; readonly postOnly: boolean; readonly orderType: OrderType } | { readonly kind: 'cancel' };

/** A 503 of the client without the trading-mode body (a transport error or the status error it gave up with). */
export function isBareUnavailable(error: unknown): boolean {
  if (error instanceof ExchangeTradingModeError) return false;
  if (error instanceof ExchangeOutcomeUnknownError) return error.status === 503;
  return error instanceof ExchangeHttpError && error.status === 503;
}

/** Whether the venue refuses `action` in `mode` (a cancel only in `disabled`; a placement as the gate's own rule). */
export function venueRefuses(mode: TradingMode, action: RefusableAction): boolean {
  if (action.kind === 'cancel') return mode === 'disabled';
  return !modeAllows(mode, 'place', { postOnly: action.postOnly, orderType: action.orderType });
}

/**
 * The error a bare 503 becomes once the maintenance status is refreshed: TradingModeError when the mode in force
 * refuses `action` (the documented refusal, nothing accepted), else `unavailable` itself (outcome unknown).
 */
export async function explainUnavailable(unavailable: ServiceUnavailableError, action: RefusableAction, fetchStatus: () => Promise<MaintenanceStatus>): Promise<Error> {
  let status: MaintenanceStatus;
  try {
    status = await fetchStatus();
  } catch {
    return unavailable;
  }
  if (!venueRefuses(status.mode, action)) return unavailable;
  return new TradingModeError(unavailable.operation, status.mode, status.resumeAtMs, status.unknownModes?.[0] ?? null, { cause: unavailable });
}
