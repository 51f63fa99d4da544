/**
 * A market's `createdAt` (src/exchange/wire-instant.ts, read by `parseMarket` into `Market.createdAtMs`): an ISO string
 * as recorded, or ms (or seconds) as a number; anything else is null and never makes the market unparseable.
 */
import { describe, expect, it } from 'vitest';
import { instantMsOf } from '../../../src/exchange/wire-instant.js';
import { parseMarket } from '../../../src/exchange/wire.js';
import { activeMarketRecordings } from '../../contract/samples.js';

const ENDPOINT = { method: 'GET', pathTemplate: '/markets/{slug}' } as const;
const RECORDED = Date.parse('2025-12-17T00:02:09.571Z');

describe('instantMsOf', () => {
  it.each([
    ['2025-12-17T00:02:09.571Z', RECORDED],
    [RECORDED, RECORDED],
    [RECORDED / 1000, RECORDED],
    ['', null],
    ['yesterday', null],
    [Number.NaN, null],
    [-5, null],
    [null, null],
    [{ at: RECORDED }, null],
  ])('%j → %s', (value, expected) => {
    expect(instantMsOf(value)).toBe(expected);
  });
});

describe('parseMarket: createdAtMs', () => {
  const body = activeMarketRecordings()[0]!.body as Record<string, unknown>;

  it('reads the recorded ISO string', () => {
    expect(parseMarket(body, ENDPOINT, 200).createdAtMs).toBe(RECORDED);
  });

  it('an absent or malformed createdAt is null; the market still parses', () => {
    const { createdAt: _dropped, ...without } = body;
    expect(parseMarket(without, ENDPOINT, 200).createdAtMs).toBeNull();
    const garbled = parseMarket({ ...body, createdAt: { nested: true } }, ENDPOINT, 200);
    expect(garbled.createdAtMs).toBeNull();
    expect(garbled.slug).toBe(body['slug']);
  });
});
