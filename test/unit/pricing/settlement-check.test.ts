import { describe, expect, it } from 'vitest';
import { PriceHistory, settlementCheck } from '../../../src/pricing/settlement-check.js';
import type { MarketTerms } from '../../../src/pricing/types.js';

const T = Date.parse('2025-12-17T01:00:00Z');
const TERMS: MarketTerms = {
  slug: 'btc-88640',
  ticker: 'BTC',
  feedId: `0x${'e6'.repeat(32)}`,
  family: 'strike',
  strike: '88640.73',
  strikeValue: 88_640.73,
  comparison: 'above',
  settlesAtMs: T,
  windowStartMs: null,
  rule: 'pyth-candle-open-1m',
  source: 'pyth',
  cadence: 'hourly',
};

describe('settlementCheck', () => {
  it('applies the rule to the first print at or after the instant', () => {
    const history = [
      { publishTimeMs: T - 1000, price: 88_500, conf: 10 },
      { publishTimeMs: T, price: 88_700, conf: 10 },
      { publishTimeMs: T + 1000, price: 88_400, conf: 10 },
    ];
    expect(settlementCheck(TERMS, history, 'YES')).toEqual({ verdict: 'agree', held: history[1], implied: 'YES' });
    expect(settlementCheck(TERMS, history, 'NO').verdict).toBe('disagree');
  });

  it('falls back to the last print before, within the window; none near: no price', () => {
    expect(settlementCheck(TERMS, [{ publishTimeMs: T - 2000, price: 88_000, conf: null }], 'NO')).toMatchObject({ verdict: 'agree', implied: 'NO' });
    expect(settlementCheck(TERMS, [{ publishTimeMs: T - 120_000, price: 88_000, conf: null }], 'NO')).toEqual({ verdict: 'no-price', held: null, implied: null });
  });

  it('calls nothing within the confidence (or 1 bp) of the strike', () => {
    expect(settlementCheck(TERMS, [{ publishTimeMs: T, price: 88_645, conf: 20 }], 'NO').verdict).toBe('too-close');
    expect(settlementCheck(TERMS, [{ publishTimeMs: T, price: 88_641, conf: null }], 'NO').verdict).toBe('too-close');
    expect(settlementCheck(TERMS, [{ publishTimeMs: T, price: 88_700, conf: 1 }], 'NO').verdict).toBe('disagree');
  });
});

describe('PriceHistory', () => {
  it('keeps increasing publish times, at most max', () => {
    const h = new PriceHistory(3);
    for (const t of [1, 2, 2, 3, 1, 4, 5]) h.add({ publishTimeMs: t, price: t, conf: null });
    expect(h.all().map((p) => p.publishTimeMs)).toEqual([3, 4, 5]);
  });
});
