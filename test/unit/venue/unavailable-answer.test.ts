/**
 * A bare 503 of a trading request (src/venue/unavailable-answer.ts): the refreshed maintenance status tells the API
 * reference's refusal (POST /orders in cancel_only / disabled; a cancel in disabled) from a server error whose outcome
 * is unknown; a failed refresh proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { API_ENDPOINTS } from '../../../src/exchange/endpoints.js';
import { ExchangeOutcomeUnknownError, ExchangeTradingModeError, FrameworkError } from '../../../src/exchange/errors.js';
import { explainUnavailable, isBareUnavailable, venueRefuses, type RefusableAction } from '../../../src/venue/unavailable-answer.js';
import { mapError } from '../../../src/venue/venue-adapter.js';
import { OutcomeUnknownError, ServiceUnavailableError, TradingModeError, type MaintenanceStatus, type TradingMode } from '../../../src/orders/venue-port.js';

const PLACE: RefusableAction = { kind: 'place', postOnly: true, orderType: 'GTC' };
const PLAIN_PLACE: RefusableAction = { kind: 'place', postOnly: false, orderType: 'GTC' };
const CANCEL: RefusableAction = { kind: 'cancel' };
const bare503 = new ExchangeOutcomeUnknownError(API_ENDPOINTS.placeOrder, 'om-1', 'unavailable', 503, 'Service Unavailable');

const status = (mode: TradingMode, resumeAtMs: number | null = null): (() => Promise<MaintenanceStatus>) => () => Promise.resolve({ mode, resumeAtMs });

describe('a bare 503 of a trading request', () => {
  it('is told by status and body: a 503 with the trading-mode body is not bare; other 5xx are not 503s', () => {
    expect(isBareUnavailable(bare503)).toBe(true);
    expect(isBareUnavailable(new FrameworkError(503, API_ENDPOINTS.cancelOrders, { message: 'x', error: 'Service Unavailable', statusCode: 503 }))).toBe(true);
    expect(isBareUnavailable(new ExchangeTradingModeError(503, API_ENDPOINTS.placeOrder, { code: 'trading_disabled', message: 'x', mode: 'disabled', resumeAt: '2026-01-01T00:00:00.000Z' }))).toBe(false);
    expect(isBareUnavailable(new ExchangeOutcomeUnknownError(API_ENDPOINTS.placeOrder, 'om-1', 'server-error', 500, 'x'))).toBe(false);
  });

  it('maps to ServiceUnavailableError (an unknown outcome) for trading operations, a failed read for reads', () => {
    const placement = mapError('placeOrder', bare503);
    expect(placement).toBeInstanceOf(ServiceUnavailableError);
    expect(placement).toBeInstanceOf(OutcomeUnknownError);
    expect(mapError('statusBatch', bare503)).not.toBeInstanceOf(OutcomeUnknownError);
  });

  it('follows the venue: placements as the gate lets them through, cancels refused only when disabled', () => {
    expect(['normal', 'post_only', 'cancel_only', 'disabled'].map((m) => venueRefuses(m as TradingMode, PLACE))).toEqual([false, false, true, true]);
    expect(venueRefuses('post_only', PLAIN_PLACE)).toBe(true);
    expect(['normal', 'post_only', 'cancel_only', 'disabled'].map((m) => venueRefuses(m as TradingMode, CANCEL))).toEqual([false, false, false, true]);
  });

  it('is the documented refusal when the refreshed mode refuses the action: TradingModeError with the mode and its end', async () => {
    const unavailable = new ServiceUnavailableError('placeOrder', 'Service Unavailable');
    const explained = await explainUnavailable(unavailable, PLACE, status('cancel_only', 1_700_000_000_000));
    expect(explained).toBeInstanceOf(TradingModeError);
    expect(explained).toMatchObject({ operation: 'placeOrder', mode: 'cancel_only', resumeAtMs: 1_700_000_000_000, cause: unavailable });
  });

  it('stays an unknown outcome when the mode lets the action through, or when the status cannot be read', async () => {
    const unavailable = new ServiceUnavailableError('placeOrder', 'Service Unavailable');
    expect(await explainUnavailable(unavailable, PLACE, status('normal'))).toBe(unavailable);
    expect(await explainUnavailable(unavailable, PLACE, status('post_only'))).toBe(unavailable);
    expect(await explainUnavailable(unavailable, CANCEL, status('cancel_only'))).toBe(unavailable);
    expect(await explainUnavailable(unavailable, PLACE, () => Promise.reject(new Error('down')))).toBe(unavailable);
  });
});
