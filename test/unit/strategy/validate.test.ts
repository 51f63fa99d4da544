import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeRejection, validateIntents } from '../../../src/strategy/validate.js';
import { market } from '../../support/views.js';

const m = market({ band: { minTicks: 10, maxTicks: 990 } });
const ok = { slot: 'bid-0', token: 'YES', side: 'BUY', priceTicks: 480, sizeRaw: 10_000_000, postOnly: true };

function rejectionOf(intent: unknown) {
  const result = validateIntents([intent], m);
  expect(result.valid).toEqual([]);
  expect(result.rejected).toHaveLength(1);
  return result.rejected[0]!;
}

describe('validateIntents', () => {
  it('accepts well-formed intents and returns clean copies', () => {
    const ask = { slot: 'ask-0', token: 'NO', side: 'BUY', priceTicks: 480, sizeRaw: 1000 };
    const result = validateIntents([ok, ask], m);
    expect(result.rejected).toEqual([]);
    expect(result.valid).toEqual([ok, ask]);
    expect(result.valid[0]).not.toBe(ok);
  });

  it.each([
    [{ ...ok, slot: 'Bid-0' }, 'slot'],
    [{ ...ok, slot: '-bid' }, 'slot'],
    [{ ...ok, slot: 'a'.repeat(25) }, 'slot'],
    [{ ...ok, slot: 7 }, 'slot'],
    [{ ...ok, token: 'MAYBE' }, 'token'],
    [{ ...ok, side: 'buy' }, 'side'],
    [{ ...ok, priceTicks: Number.NaN }, 'priceTicks'],
    [{ ...ok, priceTicks: 480.5 }, 'priceTicks'],
    [{ ...ok, priceTicks: 0 }, 'priceTicks'],
    [{ ...ok, priceTicks: 1000 }, 'priceTicks'],
    [{ ...ok, priceTicks: 995 }, 'priceTicks'],
    [{ ...ok, priceTicks: '480' }, 'priceTicks'],
    [{ ...ok, sizeRaw: 0 }, 'sizeRaw'],
    [{ ...ok, sizeRaw: -1000 }, 'sizeRaw'],
    [{ ...ok, sizeRaw: 1500 }, 'sizeRaw'],
    [{ ...ok, sizeRaw: Number.POSITIVE_INFINITY }, 'sizeRaw'],
    [{ ...ok, sizeRaw: 2 ** 60 }, 'sizeRaw'],
    [{ ...ok, postOnly: 'yes' }, 'postOnly'],
    [{ ...ok, price: 0.48 }, 'price'],
    [null, 'intent'],
    ['bid-0', 'intent'],
  ])('rejects %j naming the field %s', (intent, field) => {
    const rejection = rejectionOf(intent);
    expect(rejection.field).toBe(field);
    expect(rejection.intent).toBe(intent);
    expect(describeRejection(rejection)).toContain(field);
  });

  it('names the band in the reason', () => {
    expect(rejectionOf({ ...ok, priceTicks: 995 }).reason).toMatch(/outside the market band \[10, 990\]/);
    expect(rejectionOf({ ...ok, sizeRaw: 1500 }).reason).toMatch(/multiple of the 1000-raw step/);
  });

  it('rejects every intent of a duplicated slot, keeps the rest', () => {
    const result = validateIntents([ok, { ...ok, priceTicks: 470 }, { ...ok, slot: 'bid-1', priceTicks: 460 }], m);
    expect(result.valid.map((i) => i.slot)).toEqual(['bid-1']);
    expect(result.rejected.map((r) => [r.field, r.reason])).toEqual([
      ['slot', 'duplicate slot in this quote'],
      ['slot', 'duplicate slot in this quote'],
    ]);
  });

  it('rejects a set that would trade with itself (YES terms: BUY NO at q is an ask at 1 − q)', () => {
    // BUY NO at 530 = YES ask at 470, below the YES bid at 480.
    const crossing = { slot: 'ask-0', token: 'NO', side: 'BUY', priceTicks: 530, sizeRaw: 1000 };
    const safeBid = { ...ok, slot: 'bid-1', priceTicks: 460 };
    const result = validateIntents([ok, crossing, safeBid], m);
    expect(result.valid.map((i) => i.slot)).toEqual(['bid-1']);
    expect(result.rejected.map((r) => r.field)).toEqual(['priceTicks', 'priceTicks']);
    expect(result.rejected[0]?.reason).toMatch(/would trade with itself/);
  });

  it('rejects a non-array and a runaway set as a whole', () => {
    expect(validateIntents({ length: 1 }, m).rejected[0]?.reason).toBe('not an array');
    const many = Array.from({ length: 51 }, (_, i) => ({ ...ok, slot: `bid-${i}`, priceTicks: 100 + i }));
    const result = validateIntents(many, m);
    expect(result.valid).toEqual([]);
    expect(result.rejected).toHaveLength(51);
    expect(validateIntents(many, m, { maxIntents: 60 }).valid).toHaveLength(51);
  });

  it('survives hostile objects', () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('boom'); } });
    const getter = Object.defineProperty({ ...ok }, 'slot', { get: () => { throw new Error('boom'); }, enumerable: true });
    const result = validateIntents([hostile, getter], m);
    expect(result.valid).toEqual([]);
    expect(result.rejected.map((r) => r.field)).toEqual(['intent', 'slot']);
  });

  it('never throws and never lets anything invalid through, on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), fc.array(fc.record({ slot: fc.string(), token: fc.constantFrom('YES', 'NO', 'X'), side: fc.constantFrom('BUY', 'SELL'), priceTicks: fc.double(), sizeRaw: fc.oneof(fc.integer(), fc.double()) }, { requiredKeys: [] })), (junk, items) => {
        for (const input of [junk, items]) {
          const { valid, rejected } = validateIntents(input, m);
          for (const intent of valid) {
            expect(Number.isInteger(intent.priceTicks) && intent.priceTicks >= 10 && intent.priceTicks <= 990).toBe(true);
            expect(intent.sizeRaw > 0 && intent.sizeRaw % 1000 === 0).toBe(true);
          }
          if (Array.isArray(input)) expect(valid.length + rejected.length).toBe(input.length);
        }
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});
