import { describe, expect, it } from 'vitest';
import { errorFromBody } from '../../../src/exchange/wire.js';
import { venueRefusalOf, type EndpointRef } from '../../../src/exchange/errors.js';

const orders: EndpointRef = { method: 'POST', pathTemplate: '/orders' };

describe('venueRefusalOf', () => {
  it.each([
    [400, 'Post-only order would cross the book', 'post-only-would-cross'],
    [400, 'Insufficient balance: order needs 5 USDC, 1 available', 'insufficient-balance'],
    [400, 'Market has already been resolved', 'market-closed'],
    [400, 'price: must be a multiple of 0.001', null],
    [403, 'Insufficient permission: the token lacks the trading scope', null],
    [401, 'Unauthorized', null],
    [500, 'Insufficient balance', null],
  ])('%i %s → %s', (status, text, refusal) => {
    expect(venueRefusalOf(status, text)).toBe(refusal);
  });

  it('is read once, when the client builds the error from the body', () => {
    expect(errorFromBody(400, orders, '{"message":"Post-only order would cross the book"}').refusal).toBe('post-only-would-cross');
    expect(errorFromBody(400, orders, '{"message":"Insufficient collateral balance","error":"Bad Request","statusCode":400}').refusal).toBe('insufficient-balance');
    expect(errorFromBody(400, orders, '{"message":[{"field":"price","message":"must be a multiple of 0.001"}],"error":"Bad Request","statusCode":400}').refusal).toBeNull();
  });
});
