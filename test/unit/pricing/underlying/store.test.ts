import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.js';
import { UnderlyingRefusal, UnderlyingStore } from '../../../../src/pricing/underlying/store.js';
import type { UnderlyingQuote } from '../../../../src/pricing/types.js';

const T0 = Date.UTC(2026, 0, 1);

function store(clock = new ManualClock(T0)) {
  const refused: UnderlyingRefusal[] = [];
  const accepted: UnderlyingQuote[] = [];
  const s = new UnderlyingStore({ staleMs: 10_000, maxDivergenceBps: 50, maxFutureSkewMs: 5_000 }, () => clock.now(), { onRefused: (r) => refused.push(r), onAccepted: (q) => accepted.push(q) });
  return { s, clock, refused, accepted };
}

describe('UnderlyingStore', () => {
  it('keeps a valid price with its times and source', () => {
    const { s, accepted } = store();
    const q = s.accept('hermes', { ticker: 'BTC', price: 90_000, conf: 12.5, publishTimeMs: T0 - 400 });
    expect(q).toEqual({ ticker: 'BTC', source: 'hermes', price: 90_000, conf: 12.5, publishTimeMs: T0 - 400, receiveTimeMs: T0, marketSlug: null });
    expect(accepted).toHaveLength(1);
    expect(s.quote('BTC', 'hermes')).toEqual(q);
  });

  it('refuses malformed, non-finite, non-positive, future-dated and out-of-order prices, naming the field, and changes nothing', () => {
    const { s, refused } = store();
    s.accept('venue', { ticker: 'BTC', price: 90_000, publishTimeMs: T0, marketSlug: 'm' });
    const cases: [Parameters<UnderlyingStore['accept']>[1], string, string][] = [
      [{ ticker: 'BTC', price: 'lots', publishTimeMs: T0, marketSlug: 'm' }, 'price', 'malformed'],
      [{ ticker: 'BTC', price: Number.NaN, publishTimeMs: T0, marketSlug: 'm' }, 'price', 'non-finite'],
      [{ ticker: 'BTC', price: Number.POSITIVE_INFINITY, publishTimeMs: T0, marketSlug: 'm' }, 'price', 'non-finite'],
      [{ ticker: 'BTC', price: 0, publishTimeMs: T0, marketSlug: 'm' }, 'price', 'non-positive'],
      [{ ticker: 'BTC', price: -3, publishTimeMs: T0, marketSlug: 'm' }, 'price', 'non-positive'],
      [{ ticker: 'BTC', price: 90_000, conf: -1, publishTimeMs: T0, marketSlug: 'm' }, 'conf', 'non-positive'],
      [{ ticker: 'BTC', price: 90_000, publishTimeMs: T0 + 60_000, marketSlug: 'm' }, 'publishTimeMs', 'future-dated'],
      [{ ticker: 'BTC', price: 90_000, publishTimeMs: T0 - 1, marketSlug: 'm' }, 'publishTimeMs', 'out-of-order'],
      [{ ticker: 'btc', price: 90_000, publishTimeMs: T0, marketSlug: 'm' }, 'ticker', 'malformed'],
    ];
    for (const [raw, field, reason] of cases) {
      const result = s.accept('venue', raw);
      expect(result, JSON.stringify(raw)).toBeInstanceOf(UnderlyingRefusal);
      expect(result).toMatchObject({ field, reason });
    }
    expect(refused).toHaveLength(cases.length);
    expect(s.quote('BTC', 'venue')?.price).toBe(90_000);
    expect(String(refused[3]?.message)).toMatch(/venue price refused: price non-positive \(got 0\)/);
  });

  it('prefers Hermes, falls back to the venue, and flags stale and diverging sources', () => {
    const { s, clock } = store();
    s.accept('venue', { ticker: 'BTC', price: 90_000, publishTimeMs: T0, marketSlug: 'm' });
    expect(s.best('BTC')).toMatchObject({ quote: { source: 'venue' }, stale: false, divergenceBps: null, inDoubt: false });
    s.accept('hermes', { ticker: 'BTC', price: 90_090, conf: 5, publishTimeMs: T0 });
    const both = s.best('BTC')!;
    expect(both.quote.source).toBe('hermes');
    expect(both.divergenceBps).toBeCloseTo((90 / 90_045) * 10_000, 6); // ~10 bps: not in doubt
    expect(both.inDoubt).toBe(false);
    s.accept('hermes', { ticker: 'BTC', price: 91_000, conf: 5, publishTimeMs: T0 + 1 });
    expect(s.best('BTC')?.inDoubt).toBe(true); // ~110 bps apart
    clock.advance(10_001);
    s.accept('venue', { ticker: 'BTC', price: 91_000, publishTimeMs: T0 + 10_000, marketSlug: 'm' });
    expect(s.best('BTC')).toMatchObject({ quote: { source: 'venue' }, stale: false, divergenceBps: null }); // Hermes went stale
    clock.advance(10_001);
    expect(s.best('BTC')).toMatchObject({ stale: true });
    expect(s.venueView('m')?.price).toBe(91_000);
    expect(s.best('ETH')).toBeNull();
  });

  it('keeps the venue view per market: one market repeating a ticker\'s price is not out of order for another', () => {
    const { s } = store();
    expect(s.accept('venue', { ticker: 'BTC', price: 1, publishTimeMs: T0, marketSlug: 'a' })).not.toBeInstanceOf(UnderlyingRefusal);
    expect(s.accept('venue', { ticker: 'BTC', price: 1, publishTimeMs: T0, marketSlug: 'b' })).not.toBeInstanceOf(UnderlyingRefusal);
    expect(s.accept('venue', { ticker: 'BTC', price: 1, publishTimeMs: T0 - 1, marketSlug: 'b' })).toBeInstanceOf(UnderlyingRefusal);
  });
});
