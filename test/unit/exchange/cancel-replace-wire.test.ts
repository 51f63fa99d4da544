/** Parsing of the cancel-replace answers (shapes of the official client's CancelReplace* types). */
import { describe, expect, it } from 'vitest';
import { parseCancelReplace, parseCancelReplaceBatch } from '../../../src/exchange/cancel-replace-wire.js';
import { ResponseValidationError, type EndpointRef } from '../../../src/exchange/errors.js';

const EP: EndpointRef = { method: 'POST', pathTemplate: '/orders/cancel-replace/batch' };
const OLD = '0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d';
const NEW = '1c6c3b5f-7a1b-4d2f-8e3c-4a5b6c7d8e9f';

describe('cancel-replace answers', () => {
  it('reads every outcome of a batch in request order; a missing result is UNKNOWN for both halves', () => {
    const results = parseCancelReplaceBatch(
      {
        results: [
          { index: 1, cancel: { status: 'FAILURE', error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } }, replacement: { status: 'NOT_ATTEMPTED' } },
          { index: 0, cancel: { status: 'SUCCESS', orderId: OLD, clientOrderId: 'mm1-a-bid-0-1' }, replacement: { status: 'SUCCESS', data: { order: { id: NEW }, execution: { matched: false } } } },
          { index: 2, cancel: { status: 'UNKNOWN', error: { code: 'UNKNOWN', message: '?' } }, replacement: { status: 'UNKNOWN', error: { code: 'UNKNOWN', message: '?' } } },
        ],
      },
      EP,
      200,
      4,
    );
    expect(results[0]).toMatchObject({ cancel: { status: 'SUCCESS', orderId: OLD, clientOrderId: 'mm1-a-bid-0-1' }, replacement: { status: 'SUCCESS', placement: { orderId: NEW } } });
    expect(results[1]).toEqual({ cancel: { status: 'FAILURE', error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } }, replacement: { status: 'NOT_ATTEMPTED' } });
    expect(results[2]).toMatchObject({ cancel: { status: 'UNKNOWN' }, replacement: { status: 'UNKNOWN' } });
    expect(results[3]).toMatchObject({ cancel: { status: 'UNKNOWN' }, replacement: { status: 'UNKNOWN' } });
  });

  it('reads the single form (409 carries the same body)', () => {
    expect(parseCancelReplace({ cancel: { status: 'FAILURE', error: { code: 'X', message: 'no' } }, replacement: { status: 'NOT_ATTEMPTED' } }, EP, 409)).toEqual({
      cancel: { status: 'FAILURE', error: { code: 'X', message: 'no' } },
      replacement: { status: 'NOT_ATTEMPTED' },
    });
  });

  it('an answer out of shape is a ResponseValidationError naming the field', () => {
    const run = () => parseCancelReplaceBatch({ results: [{ index: 0, cancel: { status: 'MAYBE' }, replacement: { status: 'NOT_ATTEMPTED' } }] }, EP, 200, 1);
    expect(run).toThrow(ResponseValidationError);
    expect(run).toThrow(/results\[0\]\.cancel\.status.*MAYBE/);
    // A SUCCESS whose placement is unreadable fails like a placement answer would.
    expect(() => parseCancelReplaceBatch({ results: [{ index: 0, cancel: { status: 'SUCCESS', orderId: OLD }, replacement: { status: 'SUCCESS', data: { order: {} } } }] }, EP, 200, 1)).toThrow(
      ResponseValidationError,
    );
  });
});
