import { describe, expect, it } from 'vitest';
import { classifyPlacementError, PLACEMENT_ERROR_TABLE, type PlacementVerdict } from '../../../src/orders/placement-errors.js';
import {
  CancelReplaceUnsupportedError,
  DuplicateClientOrderIdError,
  MaintenanceBlockError,
  OrderRejectedError,
  OutcomeUnknownError,
  PlacementWithheldError,
  RateLimitedError,
  TradingModeError,
  VenueRequestError,
} from '../../../src/orders/venue-port.js';

const rejected = (kind: PlacementVerdict['kind'], reason: string, abort: PlacementVerdict['abort'], sent = true, modeRefusal = false): PlacementVerdict => ({ kind, to: 'rejected', reason, abort, sent, modeRefusal });
const unknown = (kind: PlacementVerdict['kind'], lookUp: 'now' | 'later'): PlacementVerdict => ({ kind, to: 'unknown', lookUp, abort: null, sent: true, modeRefusal: false });

/** The ladder written out case by case: error → (order transition, reason, abort, retry). */
const CASES: readonly (readonly [string, unknown, PlacementVerdict])[] = [
  ['withheld while stopping: never sent, the plan goes on', new PlacementWithheldError('stopping'), rejected('withheld', 'withheld: stopping', null, false)],
  ['withheld past the market\'s stop: never sent, the plan goes on', new PlacementWithheldError('past its stop', { abortsPlan: false }), rejected('withheld', 'withheld: past its stop', null, false)],
  ['withheld by the trading mode: never sent, the plan stops', new PlacementWithheldError('trading mode cancel_only'), rejected('withheld', 'withheld: trading mode cancel_only', 'trading-mode', false)],
  ['409 duplicate clientOrderId: unknown, looked up at once', new DuplicateClientOrderIdError('mm1-x-bid-0-1'), unknown('duplicate', 'now')],
  ['425 trading mode: rejected, the gate learns it', new TradingModeError('placeOrder', 'post_only', null), rejected('trading-mode', 'trading mode post_only', 'trading-mode', true, true)],
  ['425 without a mode body: rejected, maintenance refreshed', new MaintenanceBlockError('placeOrder', 'Too Early'), rejected('maintenance-block', 'maintenance block', 'trading-mode', true, true)],
  ['429 rate limited: rejected, the plan stops', new RateLimitedError('placeOrder', 1000), rejected('rate-limited', 'rate limited', 'rate-limited')],
  ['venue refusal: rejected with its reason, the plan goes on', new OrderRejectedError('post-only-would-cross', 'crosses', 400), rejected('rejected', 'post-only-would-cross', null)],
  ['another definite venue failure: rejected by its kind', new VenueRequestError('placeOrder', 400, 'bad'), rejected('request-failed', 'request-failed', 'request-failed')],
  ['an unexpected venue error kind: rejected by its kind', new CancelReplaceUnsupportedError('404'), rejected('request-failed', 'unsupported', 'request-failed')],
  ['timeout / 5xx / dropped connection: unknown, looked up later', new OutcomeUnknownError('placeOrder', 'timeout'), unknown('outcome-unknown', 'later')],
  ['anything unexpected: unknown, never rejected', new TypeError('boom'), unknown('outcome-unknown', 'later')],
  ['a thrown non-error: unknown', 'oops', unknown('outcome-unknown', 'later')],
];

describe('placement error table', () => {
  it.each(CASES)('%s', (_name, error, expected) => {
    expect(classifyPlacementError(error)).toEqual(expected);
  });

  it('never rejects what may have reached the venue: only the last row (unknown) catches the rest', () => {
    expect(PLACEMENT_ERROR_TABLE.at(-1)?.verdictOf(Symbol('x'))).toMatchObject({ to: 'unknown', lookUp: 'later' });
  });

  it('counts only sent requests and lets only mode refusals teach the gate', () => {
    for (const [, error, expected] of CASES) {
      const verdict = classifyPlacementError(error);
      expect(verdict.sent).toBe(!(error instanceof PlacementWithheldError));
      expect(verdict.modeRefusal).toBe(error instanceof TradingModeError || error instanceof MaintenanceBlockError);
      expect(verdict.abort).toBe(expected.abort);
    }
  });
});
