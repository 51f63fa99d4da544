import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOT_TAG_PATTERN,
  ClientOrderIdError,
  ClientOrderIdFactory,
  formatClientOrderId,
  isOwnClientOrderId,
  marketKey,
  MAX_BOT_TAG_LENGTH,
  MAX_CLIENT_ORDER_ID_LENGTH,
  parseClientOrderId,
  SequenceSource,
  tryParseClientOrderId,
} from '../../../src/orders/client-order-id.js';

const botTag = fc.stringMatching(BOT_TAG_PATTERN);
const slot = fc.stringMatching(/^[a-z0-9-]{1,24}$/);
const slug = fc.string({ minLength: 1, maxLength: 300 });
const sequence = fc.nat({ max: Number.MAX_SAFE_INTEGER });

describe('clientOrderId', () => {
  it('round-trips every (botTag, marketKey, slot, sequence) and stays within 128 characters', () => {
    fc.assert(
      fc.property(botTag, slug, slot, sequence, (tag, marketSlug, s, seq) => {
        const parts = { botTag: tag, marketKey: marketKey(marketSlug), slot: s, sequence: seq };
        const id = formatClientOrderId(parts);
        expect(id.length).toBeLessThanOrEqual(MAX_CLIENT_ORDER_ID_LENGTH);
        expect(id.length).toBeLessThanOrEqual(62);
        expect(parseClientOrderId(id)).toEqual(parts);
      }),
      { numRuns: 500 },
    );
  });

  it('is deterministic: same parts, same id; the market key is the first 8 hex of sha256(slug)', () => {
    // sha256("btc-above-100k") computed independently.
    expect(marketKey('btc-above-100k')).toMatch(/^[0-9a-f]{8}$/);
    expect(marketKey('btc-above-100k')).toBe(marketKey('btc-above-100k'));
    expect(marketKey('abc')).toBe('ba7816bf');
    const parts = { botTag: 'mm1', marketKey: 'ba7816bf', slot: 'bid-0', sequence: 35 };
    expect(formatClientOrderId(parts)).toBe('mm1-ba7816bf-bid-0-z');
  });

  it('rejects foreign and malformed ids with a typed error naming the value', () => {
    for (const bad of ['', 'abc', 'mm1-ba7816bf-0', 'MM1-ba7816bf-bid-0-z', 'mm1-BA7816BF-bid-0-z', 'mm1-ba7816bf--00z', 'mm1-ba7816bf-bid-0-0z', 'x'.repeat(129), '550e8400-e29b-41d4-a716-446655440000']) {
      expect(() => parseClientOrderId(bad), bad).toThrow(ClientOrderIdError);
      expect(tryParseClientOrderId(bad)).toBeNull();
    }
    try {
      parseClientOrderId('nope');
      expect.fail('should throw');
    } catch (error) {
      expect(error).toBeInstanceOf(ClientOrderIdError);
      if (error instanceof ClientOrderIdError) {
        expect(error.field).toBe('clientOrderId');
        expect(error.value).toBe('nope');
        expect(error.message).toContain('"nope"');
      }
    }
  });

  it('rejects bad parts when formatting', () => {
    expect(() => formatClientOrderId({ botTag: 'Bad', marketKey: 'ba7816bf', slot: 'a', sequence: 1 })).toThrow(/botTag/);
    expect(() => formatClientOrderId({ botTag: 'a'.repeat(MAX_BOT_TAG_LENGTH + 1), marketKey: 'ba7816bf', slot: 'a', sequence: 1 })).toThrow(/botTag/);
    expect(formatClientOrderId({ botTag: 'a'.repeat(MAX_BOT_TAG_LENGTH), marketKey: 'ba7816bf', slot: 'a', sequence: 1 })).toMatch(/^a{12}-/);
    expect(() => formatClientOrderId({ botTag: 'ok', marketKey: 'zz', slot: 'a', sequence: 1 })).toThrow(/marketKey/);
    expect(() => formatClientOrderId({ botTag: 'ok', marketKey: 'ba7816bf', slot: 'A_B', sequence: 1 })).toThrow(/slot/);
    expect(() => formatClientOrderId({ botTag: 'ok', marketKey: 'ba7816bf', slot: 'a', sequence: -1 })).toThrow(/sequence/);
    expect(() => formatClientOrderId({ botTag: 'ok', marketKey: 'ba7816bf', slot: 'a', sequence: 1.5 })).toThrow(/sequence/);
  });

  it('tells own ids from others', () => {
    const factory = new ClientOrderIdFactory('mm1', () => 1_700_000_000_000);
    const id = factory.next('some-market', 'ask-2');
    expect(isOwnClientOrderId(id, 'mm1')).toBe(true);
    expect(isOwnClientOrderId(id, 'mm2')).toBe(false);
    expect(isOwnClientOrderId(null, 'mm1')).toBe(false);
    expect(isOwnClientOrderId('manual-order', 'mm1')).toBe(false);
    expect(parseClientOrderId(id)).toMatchObject({ botTag: 'mm1', marketKey: marketKey('some-market'), slot: 'ask-2' });
  });
});

describe('sequence', () => {
  it('is strictly increasing within a process even when the clock stands still or steps back', () => {
    let now = 1_700_000_000_000;
    const source = new SequenceSource(() => now);
    const seen: number[] = [];
    for (let i = 0; i < 2000; i += 1) {
      if (i === 1000) now -= 60_000;
      seen.push(source.next());
    }
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
  });

  it('is strictly increasing across restarts (clock-seeded), per slot', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 86_400_000 })), { minLength: 1, maxLength: 6 }), (runs) => {
        // Each run places `count` orders at most one per 300 ms (the venue's rate limit) and then restarts `gap` ms later.
        let now = 1_700_000_000_000;
        let last = -1;
        for (const [count, gap] of runs) {
          const factory = new ClientOrderIdFactory('mm1', () => now);
          for (let i = 0; i < count; i += 1) {
            const seq = parseClientOrderId(factory.next('m', 'bid-0')).sequence;
            expect(seq).toBeGreaterThan(last);
            last = seq;
            now += 300;
          }
          now += gap;
        }
      }),
      { numRuns: 60 },
    );
  });

  it('observe() raises the floor above ids seen on the venue or in the ledger', () => {
    const now = 1_000;
    const factory = new ClientOrderIdFactory('mm1', () => now);
    const future = formatClientOrderId({ botTag: 'mm1', marketKey: 'ba7816bf', slot: 'a', sequence: 9_000_000_000 });
    factory.observe(future);
    factory.observe('foreign-id');
    factory.observe(formatClientOrderId({ botTag: 'other', marketKey: 'ba7816bf', slot: 'a', sequence: 9_900_000_000 }));
    expect(parseClientOrderId(factory.next('m', 'a')).sequence).toBe(9_000_000_001);
    const floored = new ClientOrderIdFactory('mm1', () => now, 5_000_000);
    expect(parseClientOrderId(floored.next('m', 'a')).sequence).toBe(5_000_001);
  });
});
