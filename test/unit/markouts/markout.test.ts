import { describe, expect, it } from 'vitest';
import { FairSeries, markoutStandardErrorUsdc, markoutUsdc, MARKOUT_HORIZONS_MS, mergeMarkoutSummaries, summarizeMarkouts, type MarkoutFill } from '../../../src/markouts/markout.js';

describe('markoutUsdc', () => {
  it('a bid fill gains when the fair value rises after it, an ask fill when it falls', () => {
    const bid: MarkoutFill = { atMs: 0, yesSide: 'bid', yesPrice: 0.4, shares: 10 };
    const ask: MarkoutFill = { atMs: 0, yesSide: 'ask', yesPrice: 0.4, shares: 10 };
    expect(markoutUsdc(bid, 0.45)).toBeCloseTo(0.5, 12);
    expect(markoutUsdc(bid, 0.3)).toBeCloseTo(-1, 12);
    expect(markoutUsdc(ask, 0.45)).toBeCloseTo(-0.5, 12);
    expect(markoutUsdc(ask, 0.3)).toBeCloseTo(1, 12);
  });
});

describe('FairSeries', () => {
  it('reads as a step function, unknown before the first sample and past the end', () => {
    const s = new FairSeries();
    s.record(1000, 0.5);
    s.record(2000, 0.6);
    s.record(2000, 0.65); // same instant: replaced
    s.record(5000, 0.7);
    expect(s.size).toBe(3);
    expect(s.at(999)).toBeNull();
    expect(s.at(1000)).toBe(0.5);
    expect(s.at(1999)).toBe(0.5);
    expect(s.at(2000)).toBe(0.65);
    expect(s.at(4999)).toBe(0.65);
    expect(s.at(5000)).toBe(0.7);
    expect(s.at(5001)).toBeNull();
    s.extendTo(9000);
    expect(s.at(9000)).toBe(0.7);
  });

  it('refuses a sample out of order or not finite', () => {
    const s = new FairSeries();
    s.record(10, 0.5);
    expect(() => s.record(9, 0.5)).toThrow(/before the last sample/);
    expect(() => s.record(11, Number.NaN)).toThrow(/finite/);
  });
});

describe('summarizeMarkouts', () => {
  it('averages per fill and per share at each horizon, leaving out fills whose horizon is past the series', () => {
    const series = new FairSeries();
    series.record(0, 0.5);
    series.record(1_000, 0.52);
    series.record(10_000, 0.55);
    series.extendTo(20_000);
    const fills: MarkoutFill[] = [
      { atMs: 0, yesSide: 'bid', yesPrice: 0.49, shares: 10 }, // +1s: 0.52 → +0.3; +10s: 0.55 → +0.6
      { atMs: 0, yesSide: 'ask', yesPrice: 0.51, shares: 30 }, // +1s: −0.3; +10s: −1.2
      { atMs: 15_000, yesSide: 'ask', yesPrice: 0.6, shares: 5 }, // +1s: 0.25; +10s: past the end
    ];
    const [h1, h10, h60] = summarizeMarkouts(fills, (t) => series.at(t), [1_000, 10_000, 60_000]);
    expect(h1?.fills).toBe(3);
    expect(h1?.totalUsdc).toBeCloseTo(0.3 - 0.3 + 0.25, 12);
    expect(h1?.meanPerFillUsdc).toBeCloseTo(0.25 / 3, 12);
    expect(h1?.meanPerShare).toBeCloseTo(0.25 / 45, 12);
    expect(h10?.fills).toBe(2);
    expect(h10?.totalUsdc).toBeCloseTo(0.6 - 1.2, 12);
    expect(h10?.meanPerShare).toBeCloseTo(-0.6 / 40, 12);
    expect(h1?.sumSquaresUsdc).toBeCloseTo(0.09 + 0.09 + 0.0625, 12);
    expect(h60).toEqual({ horizonMs: 60_000, fills: 0, shares: 0, totalUsdc: 0, sumSquaresUsdc: 0, meanPerFillUsdc: 0, meanPerShare: 0 });
  });

  it('uses the standard horizons by default', () => {
    expect(summarizeMarkouts([], () => 0.5).map((h) => h.horizonMs)).toEqual(MARKOUT_HORIZONS_MS);
  });
});

describe('markoutStandardErrorUsdc', () => {
  const at = (fills: MarkoutFill[]): ReturnType<typeof summarizeMarkouts> => summarizeMarkouts(fills, () => 0.5, [1_000]);
  it('is the sample standard deviation over √n, and survives merging summaries', () => {
    // Markouts +1, −1, +3 USDC (100 shares, 1 c, 1 c, 3 c of edge): mean 1, sample variance 4, SE 2 / √3.
    const a = at([
      { atMs: 0, yesSide: 'bid', yesPrice: 0.49, shares: 100 },
      { atMs: 0, yesSide: 'ask', yesPrice: 0.49, shares: 100 },
    ]);
    const b = at([{ atMs: 0, yesSide: 'bid', yesPrice: 0.47, shares: 100 }]);
    const merged = mergeMarkoutSummaries([a, b], [1_000])[0];
    expect(merged?.meanPerFillUsdc).toBeCloseTo(1, 12);
    expect(markoutStandardErrorUsdc(merged!)).toBeCloseTo(2 / Math.sqrt(3), 12);
  });

  it('is NaN below two fills and 0 when every fill marked out the same', () => {
    expect(markoutStandardErrorUsdc(at([{ atMs: 0, yesSide: 'bid', yesPrice: 0.49, shares: 100 }])[0]!)).toBeNaN();
    expect(markoutStandardErrorUsdc(at([{ atMs: 0, yesSide: 'bid', yesPrice: 0.49, shares: 100 }, { atMs: 5, yesSide: 'bid', yesPrice: 0.49, shares: 100 }])[0]!)).toBeCloseTo(0, 9);
  });
});
