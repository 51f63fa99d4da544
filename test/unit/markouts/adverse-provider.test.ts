/**
 * The adverse-selection provider (src/markouts/adverse-provider.ts): exposure from the runner's asks, fills and
 * their markouts per market and per cadence (the asking market left out of its cadence), the first-seen rule of the
 * fill rate, the refresh period, a failing source, the lookback's memory bound, and the two converters (a ledger
 * fill judged against the mid, a backtest fill against a series).
 */
import { describe, expect, it } from 'vitest';
import type { StoredJudgedFill } from '../../../src/ledger/markouts-repo.js';
import { AdverseSelectionProvider, adverseOfJudged, adverseOfSeries, type AdverseFill } from '../../../src/markouts/adverse-provider.js';
import { FairSeries } from '../../../src/markouts/markout.js';

const T0 = Date.UTC(2026, 0, 1, 12);
const MIN = 60_000;

function fill(slug: string, atMs: number, adverseUsdc: number | null, yesSide: 'bid' | 'ask' = 'bid', shares = 10): AdverseFill {
  return { marketSlug: slug, yesSide, atMs, shares, adverseUsdc };
}

/** Asks about `slug` every `stepMs` from `from` to `to` (inclusive). */
function quote(p: AdverseSelectionProvider, market: { slug: string; cadence?: string | null }, from: number, to: number, stepMs = 5_000): void {
  for (let t = from; t <= to; t += stepMs) p.view(market, t);
}

describe('AdverseSelectionProvider', () => {
  it('counts the minutes quoted, the fills after the market was first seen and the judged fills\' adverse selection', () => {
    const fills = [fill('a', T0 - 5 * MIN, 0.4), fill('a', T0 + 2 * MIN, 0.2), fill('a', T0 + 3 * MIN, null), fill('a', T0 + 4 * MIN, -0.1, 'ask', 20)];
    const p = new AdverseSelectionProvider({ read: (since, now) => fills.filter((f) => f.atMs >= since && f.atMs <= now), refreshMs: 0 });
    quote(p, { slug: 'a', cadence: 'hourly' }, T0, T0 + 10 * MIN);
    const v = p.view({ slug: 'a' }, T0 + 10 * MIN + 5_000);
    expect(v.cadenceName).toBe('hourly');
    expect(v.market.bid.exposureMinutes).toBeCloseTo(10 + 5 / 60, 9);
    // The fill before the market was first seen counts for the adverse selection, not for the rate.
    expect(v.market.bid).toMatchObject({ fills: 2, judgedFills: 2, judgedShares: 20 });
    expect(v.market.bid.adverseUsdc).toBeCloseTo(0.6, 12);
    expect(v.market.ask).toMatchObject({ fills: 1, judgedFills: 1, judgedShares: 20, adverseUsdc: -0.1 });
  });

  it('does not count a gap longer than maxGapMs as quoting', () => {
    const p = new AdverseSelectionProvider({ read: () => [], refreshMs: 0, maxGapMs: 120_000 });
    quote(p, { slug: 'a' }, T0, T0 + MIN);
    quote(p, { slug: 'a' }, T0 + 10 * MIN, T0 + 11 * MIN);
    expect(p.view({ slug: 'a' }, T0 + 11 * MIN).market.bid.exposureMinutes).toBeCloseTo(2, 9);
  });

  it('sums the other markets of the cadence, never the asking one nor another cadence', () => {
    const fills = [fill('h1', T0 + MIN, 1), fill('h2', T0 + MIN, 2), fill('h2', T0 + 2 * MIN, 3), fill('d1', T0 + MIN, 50)];
    const p = new AdverseSelectionProvider({ read: () => fills, refreshMs: 0 });
    for (let t = T0; t <= T0 + 5 * MIN; t += 5_000) {
      p.view({ slug: 'h1', cadence: 'hourly' }, t);
      p.view({ slug: 'h2', cadence: 'hourly' }, t);
      p.view({ slug: 'd1', cadence: 'daily' }, t);
    }
    const v = p.view({ slug: 'h1' }, T0 + 5 * MIN);
    expect(v.market.bid).toMatchObject({ fills: 1, adverseUsdc: 1 });
    expect(v.cadence.bid).toMatchObject({ fills: 2, judgedFills: 2, adverseUsdc: 5 });
    expect(v.cadence.bid.exposureMinutes).toBeCloseTo(5, 6);
    const unknown = p.view({ slug: 'x' }, T0 + 5 * MIN);
    expect(unknown.cadenceName).toBeNull();
    expect(unknown.cadence.bid.fills).toBe(0);
  });

  it('reads its source at most every refreshMs; a failing read keeps the last figures', () => {
    let reads = 0;
    let fail = false;
    const errors: unknown[] = [];
    const p = new AdverseSelectionProvider({
      read: () => {
        reads += 1;
        if (fail) throw new Error('disk');
        return [fill('a', T0 + 1_000, 0.5)];
      },
      refreshMs: 30_000,
      onError: (e) => errors.push(e),
    });
    quote(p, { slug: 'a' }, T0, T0 + 59_000, 1_000);
    expect(reads).toBe(2);
    fail = true;
    const v = p.view({ slug: 'a' }, T0 + 60_000);
    expect(reads).toBe(3);
    expect(errors).toHaveLength(1);
    expect(v.market.bid.adverseUsdc).toBe(0.5);
  });

  it('forgets markets not asked about within the lookback', () => {
    const p = new AdverseSelectionProvider({ read: () => [], refreshMs: 0, lookbackMs: 10 * MIN });
    for (let i = 0; i < 50; i += 1) quote(p, { slug: `m${i}` }, T0 + i * MIN, T0 + i * MIN + 30_000);
    expect(p.size).toBeLessThanOrEqual(12);
  });
});

describe('converters', () => {
  it('adverseOfSeries: markout at 0 − markout at 60 s, unknown until the series and the clock reach the horizon', () => {
    const series = new FairSeries();
    series.record(T0, 0.5);
    series.record(T0 + 30_000, 0.45);
    series.record(T0 + 90_000, 0.46);
    const bid = { atMs: T0, yesSide: 'bid' as const, yesPrice: 0.49, shares: 10 };
    expect(adverseOfSeries('a', bid, (t) => series.at(t), T0 + 59_000).adverseUsdc).toBeNull();
    const got = adverseOfSeries('a', bid, (t) => series.at(t), T0 + 90_000);
    // (0.5 − 0.49)·10 − (0.45 − 0.49)·10 = 0.5: the mid fell 5 cents through a bid.
    expect(got.adverseUsdc).toBeCloseTo(0.5, 12);
    expect(got).toMatchObject({ marketSlug: 'a', yesSide: 'bid', shares: 10 });
  });

  it('adverseOfJudged: the ledger\'s mid samples in YES terms (BUY NO is an ask)', () => {
    const judged: StoredJudgedFill = {
      fillId: 1, marketSlug: 'a', token: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 10_000_000, feeRaw: 0, atMs: T0, strategy: 's', references: ['mid'],
      samples: [{ horizonMs: 0, reference: 'mid', refMicros: 590_000 }, { horizonMs: 60_000, reference: 'mid', refMicros: 620_000 }],
    };
    // BUY NO at 0.400 = sell YES at 0.600: at fill +0.1 USDC (0.600 − 0.590)·10, at 60 s −0.2: adverse 0.3.
    expect(adverseOfJudged(judged)).toEqual({ marketSlug: 'a', yesSide: 'ask', atMs: T0, shares: 10, adverseUsdc: 0.3 });
    expect(adverseOfJudged({ ...judged, samples: judged.samples.slice(0, 1) }).adverseUsdc).toBeNull();
  });
});
