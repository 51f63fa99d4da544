import { describe, expect, it } from 'vitest';
import { DEFAULT_PYTH_FEED_IDS } from '../../../src/pricing/feed-ids.js';
import { FastMarketGuard } from '../../../src/pricing/guard.js';
import { DEFAULT_PRICER_SETTINGS, MarketPricer, type ModelAnswer } from '../../../src/pricing/market-pricer.js';
import { digitalFairValue } from '../../../src/pricing/model/index.js';
import { FLAT_PROFILE } from '../../../src/pricing/surface/index.js';
import { readMarketTerms, termsInputOfJson } from '../../../src/pricing/terms.js';
import type { TermsResult } from '../../../src/pricing/types.js';
import { activeMarketRecordings } from '../../contract/samples.js';

const SETTLES = Date.parse('2025-12-17T01:00:00Z');
const T0 = SETTLES - 30 * 60_000;

/** The three recorded BTC strikes of the 01:00 ladder (86885.46, 87850.54, 88640.73). */
function btcLadder(): { slug: string; strike: number; terms: TermsResult }[] {
  return activeMarketRecordings()
    .map((r) => r.body as { slug: string; title: string })
    .filter((b) => b.title.includes('$BTC'))
    .map((b) => {
      const terms = readMarketTerms(termsInputOfJson(b), DEFAULT_PYTH_FEED_IDS);
      return { slug: b.slug, strike: terms.ok ? (terms.terms.strikeValue ?? 0) : 0, terms };
    })
    .sort((a, b) => a.strike - b.strike);
}

function priced(answer: ModelAnswer): number {
  if (answer.kind !== 'priced') throw new Error(`not priced: ${JSON.stringify(answer)}`);
  return answer.view.fair;
}

describe('MarketPricer', () => {
  it('watch: a ticker followed before its first market is warm when the market comes (unwatched prices are ignored)', () => {
    const watched = new MarketPricer(DEFAULT_PRICER_SETTINGS);
    const cold = new MarketPricer(DEFAULT_PRICER_SETTINGS);
    watched.watch('BTC');
    watched.watch('BTC');
    expect(watched.tickerList()).toEqual(['BTC']);
    expect(watched.marketsOf('BTC')).toEqual([]);
    // A quiet tape (about 5 %/yr) for 20 minutes, far below the estimator's 60 %/yr prior.
    for (let s = 0; s < 1200; s += 1) {
      const quote = { ticker: 'BTC', price: 87_800 * (1 + 1e-5 * ((s % 2) * 2 - 1)), conf: null, receiveTimeMs: T0 - 1_200_000 + s * 1000 };
      watched.observe(quote);
      cold.observe(quote);
    }
    expect(cold.latest('BTC', T0)).toBeNull();
    const m = btcLadder()[1]!;
    watched.register(m.slug, m.terms);
    cold.register(m.slug, m.terms);
    expect(watched.latest('BTC', T0)!.annualVol).toBeLessThan(0.3);
    expect(watched.answer(m.slug, T0).kind).toBe('priced');
    expect(cold.answer(m.slug, T0)).toEqual({ kind: 'halt', reason: 'no-underlying-price' });
  });

  it('prices a strike ladder from one spot and one variance: fair values fall as the strike rises', () => {
    // A flat clock and no ladder samples: the surface is the realized estimate itself.
    const surface = { ...DEFAULT_PRICER_SETTINGS.surface, profile: FLAT_PROFILE };
    const pricer = new MarketPricer({ ...DEFAULT_PRICER_SETTINGS, surface, guard: { ...DEFAULT_PRICER_SETTINGS.guard, enabled: false } });
    const ladder = btcLadder();
    expect(ladder).toHaveLength(3);
    for (const m of ladder) pricer.register(m.slug, m.terms);
    for (let s = 0; s < 120; s += 1) pricer.observe({ ticker: 'BTC', price: 87_800 + (s % 7) * 3, conf: null, receiveTimeMs: T0 - 120_000 + s * 1000 });
    const fairs = ladder.map((m) => priced(pricer.answer(m.slug, T0 - 500)));
    expect(fairs[0]!).toBeGreaterThan(fairs[1]!);
    expect(fairs[1]!).toBeGreaterThan(fairs[2]!);
    // Exactly the model's value for the spot it holds.
    const answer = pricer.answer(ladder[1]!.slug, T0 - 500);
    if (answer.kind !== 'priced') throw new Error('not priced');
    const latest = pricer.latest('BTC', T0 - 500)!;
    expect(answer.view.fair).toBeCloseTo(
      digitalFairValue({
        spot: latest.quote.price,
        strike: ladder[1]!.strike,
        comparison: 'above',
        secondsLeft: (SETTLES - (T0 - 500)) / 1000,
        variancePerSecond: (latest.annualVol * latest.annualVol) / (365 * 86_400),
        settlementNoiseVariance: DEFAULT_PRICER_SETTINGS.settlementNoiseVariance,
        spotConf: null,
        spotAgeMs: latest.ageMs,
        volRelErr: DEFAULT_PRICER_SETTINGS.volRelErr,
        tails: { kind: 'normal' },
        floor: 0.001,
        cap: 0.999,
      }).fair,
      12,
    );
    expect(answer.view.underlying).toMatchObject({ ticker: 'BTC', price: latest.quote.price, ageMs: 500 });
  });

  it('halts a priced market with no price, a stale price, a doubtful price, in a fast market, and near settlement', () => {
    const pricer = new MarketPricer({ ...DEFAULT_PRICER_SETTINGS, staleMs: 5_000, stopBeforeSettlementMs: 60_000, guard: { enabled: true, k: 4, windowMs: 5_000, cooldownMs: 10_000 } });
    const [m] = btcLadder();
    pricer.register(m!.slug, m!.terms);
    expect(pricer.answer(m!.slug, T0)).toEqual({ kind: 'halt', reason: 'no-underlying-price' });
    for (let s = 0; s < 60; s += 1) pricer.observe({ ticker: 'BTC', price: 87_000, conf: null, receiveTimeMs: T0 + s * 1000 });
    expect(pricer.answer(m!.slug, T0 + 60_000).kind).toBe('priced');
    expect(pricer.answer(m!.slug, T0 + 59_000 + 5_001)).toEqual({ kind: 'halt', reason: 'underlying-stale' });
    pricer.setInDoubt('BTC', 'sources 80 bps apart');
    expect(pricer.answer(m!.slug, T0 + 60_000)).toEqual({ kind: 'halt', reason: 'underlying-in-doubt' });
    pricer.setInDoubt('BTC', null);
    // A 2 % move in one second: far beyond 4σ of a 5 s window.
    expect(pricer.observe({ ticker: 'BTC', price: 88_740, conf: null, receiveTimeMs: T0 + 61_000 })).toBe(true);
    expect(pricer.answer(m!.slug, T0 + 62_000)).toEqual({ kind: 'halt', reason: 'fast-market' });
    expect(pricer.answer(m!.slug, T0 + 71_001)).toEqual({ kind: 'halt', reason: 'underlying-stale' });
    pricer.observe({ ticker: 'BTC', price: 88_740, conf: null, receiveTimeMs: T0 + 71_500 });
    expect(pricer.answer(m!.slug, T0 + 72_000).kind).toBe('priced');
    for (let t = T0 + 72_000; t < SETTLES; t += 1000) pricer.observe({ ticker: 'BTC', price: 88_740, conf: null, receiveTimeMs: t });
    expect(pricer.answer(m!.slug, SETTLES - 60_001).kind).toBe('priced');
    expect(pricer.answer(m!.slug, SETTLES - 60_000)).toEqual({ kind: 'halt', reason: 'near-settlement' });
  });

  it('leaves an unpriced crypto market alone by default, quotes it from the book when told, and any other market from its book', () => {
    const notes: string[] = [];
    const skip = new MarketPricer(DEFAULT_PRICER_SETTINGS, { onUnpriced: (slug, reason) => notes.push(`${slug}: ${reason}`) });
    const book = new MarketPricer({ ...DEFAULT_PRICER_SETTINGS, unpricedCrypto: 'book' });
    const twap: TermsResult = { ok: false, reason: 'an up/down market settled on a Chainlink TWAP', recognisedCrypto: true, ticker: 'BTC' };
    const other: TermsResult = { ok: false, reason: 'not a crypto market', recognisedCrypto: false, ticker: null };
    for (const p of [skip, book]) {
      p.register('updown', twap);
      p.register('fed', other);
    }
    expect(skip.answer('updown', T0)).toEqual({ kind: 'halt', reason: 'unpriced' });
    expect(book.answer('updown', T0)).toEqual({ kind: 'book' });
    expect(skip.answer('fed', T0)).toEqual({ kind: 'book' });
    expect(skip.answer('never-registered', T0)).toEqual({ kind: 'book' });
    expect(notes).toEqual(['updown: an up/down market settled on a Chainlink TWAP', 'fed: not a crypto market']);
  });
});

describe('FastMarketGuard', () => {
  it('trips on a move beyond k standard deviations of its window and holds for the cool-down', () => {
    const variance = 1e-8; // σ = 1e-4 per second: over a 4 s window, 4σ√4 = 8e-4
    const guard = new FastMarketGuard({ enabled: true, k: 4, windowMs: 4_000, cooldownMs: 10_000 });
    expect(guard.observe(0, 100, variance)).toBe(false);
    expect(guard.observe(1000, 100.07, variance)).toBe(false); // 7.0e-4
    expect(guard.observe(2000, 100.09, variance)).toBe(true); // 9.0e-4 from the start of the window
    expect(guard.holding(11_999)).toBe(true);
    expect(guard.holding(12_000)).toBe(false);
    expect(guard.tripCount()).toBe(1);
    // Old points leave the window: the same level later is no move.
    expect(guard.observe(20_000, 100.09, variance)).toBe(false);
    const off = new FastMarketGuard({ enabled: false, k: 4, windowMs: 4_000, cooldownMs: 10_000 });
    off.observe(0, 100, variance);
    expect(off.observe(1000, 150, variance)).toBe(false);
  });

  it('refuses nonsense settings', () => {
    expect(() => new FastMarketGuard({ enabled: true, k: 0, windowMs: 1000, cooldownMs: 0 })).toThrow(/k and windowMs/);
  });
});
