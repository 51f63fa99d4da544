/**
 * The volatility surface through the bot's pricer (MarketPricer.observeBook / answer / volatilityOf): the ladder's
 * books make an implied part per expiry, blended with the realized one by the config; a book is never inverted
 * against a later spot, nothing from the future is used, an expiry whose last market left is forgotten; the ladder
 * stays monotone in the strike and its total variance never falls with a later settlement (properties); the quote's
 * uncertainty widens where realized and implied disagree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICER_SETTINGS, MarketPricer, type ImpliedWeightChange, type PricerSettings } from '../../../../src/pricing/market-pricer.js';
import { normalCdf, SECONDS_PER_YEAR } from '../../../../src/pricing/model/index.js';
import { FLAT_PROFILE, impliedWeightOf, impliedWeightSentence, type EvidenceSettings } from '../../../../src/pricing/surface/index.js';
import type { MarketTerms } from '../../../../src/pricing/types.js';

const T0 = Date.UTC(2025, 11, 17, 1, 0);
const HOUR = 3_600_000;

function terms(slug: string, strike: number, settlesAtMs: number): MarketTerms {
  return { slug, ticker: 'BTC', feedId: null, family: 'strike', strike: String(strike), strikeValue: strike, comparison: 'above', settlesAtMs, windowStartMs: null, rule: 'pyth-candle-open-1m', source: 'pyth', cadence: 'hourly' };
}

/** Evidence that never lowers the weight: the blend is α itself. */
const FULL_TRUST: EvidenceSettings = { minStrikes: 1, fullStrikes: 1, fullBooks: 1, spreadHalf: 1e9 };

/** A flat clock, the prior only (no price history: σ_realized = 0.6), no guard; the evidence rule as configured unless given. */
function settings(impliedWeight: number, evidence: EvidenceSettings = DEFAULT_PRICER_SETTINGS.surface.evidence): PricerSettings {
  return {
    ...DEFAULT_PRICER_SETTINGS,
    staleMs: 120_000,
    guard: { ...DEFAULT_PRICER_SETTINGS.guard, enabled: false },
    surface: { ...DEFAULT_PRICER_SETTINGS.surface, impliedWeight, evidence, profile: FLAT_PROFILE, sampleEveryMs: 0 },
  };
}

/** The mid a market quoting a normal digital at annual vol σ shows for `strike`, spot S, at `atMs`. */
function midAt(sigma: number, spot: number, strike: number, atMs: number, settlesAtMs: number): number {
  return normalCdf(Math.log(spot / strike) / Math.sqrt(((sigma * sigma) / SECONDS_PER_YEAR) * ((settlesAtMs - atMs) / 1000)));
}

/** A ladder of 3 strikes settling at `settlesAtMs`, its books quoting σ_market around their mid (±1 tick… 2 cents wide). */
function feedLadder(pricer: MarketPricer, sigma: number, spot: number, settlesAtMs: number, prefix: string, fromMs: number, count: number): string[] {
  const slugs = [87_600, 88_000, 88_400].map((k) => {
    const slug = `${prefix}-${k}`;
    pricer.register(slug, { ok: true, terms: terms(slug, k, settlesAtMs) });
    return slug;
  });
  for (let i = 0; i < count; i++) {
    const at = fromMs + i * 5_000;
    pricer.observe({ ticker: 'BTC', price: spot, conf: null, receiveTimeMs: at });
    for (const slug of slugs) {
      const strike = Number(slug.split('-').at(-1));
      const mid = midAt(sigma, spot, strike, at, settlesAtMs);
      pricer.observeBook(slug, { bid: mid - 0.01, ask: mid + 0.01 }, at);
    }
  }
  return slugs;
}

describe('the surface in the pricer', () => {
  it('implies each expiry its own volatility from its ladder and blends it with the realized one by the config', () => {
    const pricer = new MarketPricer(settings(0.8));
    const spot = 87_900;
    const near = feedLadder(pricer, 0.4, spot, T0 + HOUR, 'near', T0, 12);
    // (Fed after the near one: a book seen before the latest spot is never inverted against it.)
    const far = feedLadder(pricer, 0.9, spot, T0 + 9 * HOUR, 'far', T0 + 60_000, 12);
    const now = T0 + 120_000;
    const v = pricer.volatilityOf(near[1]!, now)!;
    const rv = pricer.latest('BTC', now)!.annualVol;
    expect(v.realizedVol).toBeCloseTo(rv, 6);
    expect(v.impliedVol).toBeCloseTo(0.4, 2);
    expect(v.samples).toBeGreaterThanOrEqual(3);
    // The weight is α × the evidence behind the expiry (its strikes inside the mid band, their books, 2 cents wide).
    expect(v.evidence?.meanSpread).toBeCloseTo(0.02, 9);
    expect(v.evidence?.books).toBeGreaterThanOrEqual(12);
    expect(v.impliedWeight).toBeCloseTo(impliedWeightOf(0.8, v.evidence!, DEFAULT_PRICER_SETTINGS.surface.evidence), 12);
    expect(v.blendedVol).toBeCloseTo(Math.sqrt((1 - v.impliedWeight) * rv * rv + v.impliedWeight * 0.4 ** 2), 2);
    const w = pricer.volatilityOf(far[0]!, now)!;
    expect(w.impliedVol).toBeCloseTo(0.9, 2);
    expect(w.blendedVol).toBeCloseTo(Math.sqrt((1 - w.impliedWeight) * rv * rv + w.impliedWeight * 0.81), 2);
    // Full trust in the evidence: the blend is α itself.
    const trusting = new MarketPricer(settings(0.8, FULL_TRUST));
    feedLadder(trusting, 0.4, spot, T0 + HOUR, 'near', T0, 12);
    const trv = trusting.latest('BTC', now)!.annualVol;
    expect(trusting.volatilityOf(near[1]!, now)?.blendedVol).toBeCloseTo(Math.sqrt(0.2 * trv * trv + 0.8 * 0.4 ** 2), 2);
    // The realized-only pricer (α = 0) ignores the books.
    const realized = new MarketPricer(settings(0));
    feedLadder(realized, 0.4, spot, T0 + HOUR, 'near', T0, 12);
    expect(realized.volatilityOf(near[1]!, now)?.blendedVol).toBeCloseTo(realized.latest('BTC', now)!.annualVol, 6);
    // The fair value is the digital at the blended variance.
    const answer = pricer.answer(near[1]!, now);
    if (answer.kind !== 'priced') throw new Error(JSON.stringify(answer));
    expect(answer.view.underlying.volatility).toBeCloseTo(v.blendedVol!, 9);
  });

  it('widens the uncertainty where realized and implied disagree (gapWeight), and not where they agree', () => {
    const spot = 87_900;
    const now = T0 + 60_000;
    const priced = (sigmaMarket: number, gapWeight: number): { uncertainty: number; realized: number; gap: number } => {
      const s = settings(0.5, FULL_TRUST);
      const pricer = new MarketPricer({ ...s, surface: { ...s.surface, gapWeight } });
      const slugs = feedLadder(pricer, sigmaMarket, spot, T0 + HOUR, 'm', T0, 12);
      const a = pricer.answer(slugs[2]!, now);
      if (a.kind !== 'priced') throw new Error('not priced');
      return { uncertainty: a.view.uncertainty, realized: pricer.latest('BTC', now)!.annualVol, gap: pricer.volatilityOf(slugs[2]!, now)!.gapRel };
    };
    const market = 0.2;
    const wide = priced(market, 1);
    expect(wide.gap).toBeGreaterThan(0.5);
    expect(wide.uncertainty).toBeGreaterThan(priced(market, 0).uncertainty * 1.5);
    // A ladder that agrees with the realized volatility adds (almost) nothing.
    const agree = priced(wide.realized, 1);
    expect(agree.gap).toBeLessThan(0.02);
    expect(agree.uncertainty).toBeCloseTo(priced(wide.realized, 0).uncertainty, 4);
  });

  it('reports which expiries use implied variance and with what weight, once per change (not per answer)', () => {
    const changes: ImpliedWeightChange[] = [];
    // One strike counts here (minStrikes 1; the default, 2, gives a lone strike no implied part at all).
    const evidence = { ...DEFAULT_PRICER_SETTINGS.surface.evidence, minStrikes: 1 };
    const pricer = new MarketPricer(settings(0.8, evidence), { onImpliedWeight: (c) => changes.push(c) });
    const settles = T0 + HOUR;
    pricer.register('a', { ok: true, terms: terms('a', 88_000, settles) });
    pricer.register('b', { ok: true, terms: terms('b', 88_400, settles) });
    const spot = 87_900;
    for (let i = 0; i < 30; i++) {
      const at = T0 + i * 5_000;
      pricer.observe({ ticker: 'BTC', price: spot, conf: null, receiveTimeMs: at });
      const mid = midAt(0.5, spot, 88_000, at, settles);
      pricer.observeBook('a', { bid: mid - 0.005, ask: mid + 0.005 }, at);
      for (let k = 0; k < 5; k++) pricer.answer('a', at); // answers every tick: reports only on a change
    }
    // One strike: its weight climbs with its books to 0.8 × 1/3 × 0.05/0.06 = 0.22, reported by tenths, then stays.
    expect(changes.length).toBeGreaterThanOrEqual(1);
    expect(changes.length).toBeLessThanOrEqual(4);
    const last = changes.at(-1)!;
    expect(last.evidence?.strikes).toBe(1);
    const now = pricer.volatilityOf('a', T0 + 29 * 5_000)!;
    expect(now.impliedWeight).toBeCloseTo(impliedWeightOf(0.8, { strikes: 1, books: 12, meanSpread: 0.01 }, evidence), 6);
    expect(now.impliedWeight).toBeCloseTo(0.2222, 4);
    expect(Math.round(last.weight * 10)).toBe(Math.round(now.impliedWeight * 10)); // the last report is within a tenth
    expect(impliedWeightSentence('BTC', settles, 0.2222, { strikes: 1, books: 12, meanSpread: 0.01 })).toBe(
      "volatility surface: BTC 2025-12-17T02:00:00.000Z prices with the ladder's implied variance at weight 0.22 (1 strike, 12 books, mean spread 0.010)",
    );
    expect(impliedWeightSentence('BTC', settles, 0, null)).toBe('volatility surface: BTC 2025-12-17T02:00:00.000Z prices with the realized variance only (no implied part that counts)');
    // A second strike's books: one more report, with 2 strikes.
    const before = changes.length;
    for (let i = 30; i < 45; i++) {
      const at = T0 + i * 5_000;
      pricer.observe({ ticker: 'BTC', price: spot, conf: null, receiveTimeMs: at });
      pricer.observeBook('a', { bid: midAt(0.5, spot, 88_000, at, settles) - 0.005, ask: midAt(0.5, spot, 88_000, at, settles) + 0.005 }, at);
      pricer.observeBook('b', { bid: midAt(0.5, spot, 88_400, at, settles) - 0.005, ask: midAt(0.5, spot, 88_400, at, settles) + 0.005 }, at);
      pricer.answer('a', at);
    }
    expect(changes.length).toBeGreaterThan(before);
    expect(changes.at(-1)?.evidence?.strikes).toBe(2);
  });

  it("answers, beside the model, the model without the surface: exactly a pricer's with impliedWeight 0 and gapWeight 0", () => {
    const spot = 87_900;
    const withSurface = new MarketPricer(settings(0.8));
    const off = new MarketPricer({ ...settings(0.8), surface: { ...settings(0.8).surface, impliedWeight: 0, gapWeight: 0 } });
    const near = feedLadder(withSurface, 0.9, spot, T0 + HOUR, 'near', T0, 12);
    feedLadder(off, 0.9, spot, T0 + HOUR, 'near', T0, 12);
    const now = T0 + 60_000;
    for (const slug of near) {
      const a = withSurface.answer(slug, now);
      const b = off.answer(slug, now);
      if (a.kind !== 'priced' || b.kind !== 'priced') throw new Error('not priced');
      expect(a.view.withoutSurface).toEqual({ fair: b.view.fair, delta: b.view.delta, uncertainty: b.view.uncertainty, volatility: b.view.underlying.volatility });
    }
    const a = withSurface.answer(near[1]!, now);
    if (a.kind !== 'priced') throw new Error('not priced');
    expect(Math.abs(a.view.fair - (a.view.withoutSurface?.fair ?? 0))).toBeGreaterThan(0.001); // the surface is at work
  });

  it('never inverts a book against a later spot, uses nothing from the future, and needs minSamples', () => {
    const pricer = new MarketPricer(settings(1));
    const settles = T0 + HOUR;
    pricer.register('a', { ok: true, terms: terms('a', 88_000, settles) });
    expect(pricer.observeBook('a', { bid: 0.3, ask: 0.32 }, T0)).toBe('no-spot');
    pricer.observe({ ticker: 'BTC', price: 87_900, conf: null, receiveTimeMs: T0 + 10_000 });
    expect(pricer.observeBook('a', { bid: 0.3, ask: 0.32 }, T0 + 5_000)).toBe('spot-newer');
    expect(pricer.observeBook('a', { bid: 0.3, ask: 0.32 }, T0 + 10_000 + 61_000)).toBe('spot-too-old');
    expect(pricer.observeBook('a', { bid: 0.3, ask: 0.4 }, T0 + 11_000)).toBe('unusable-book');
    expect(pricer.observeBook('a', { bid: 0.3, ask: null }, T0 + 11_000)).toBe('unusable-book');
    expect(pricer.observeBook('unknown', { bid: 0.3, ask: 0.32 }, T0 + 11_000)).toBe('not-priced');
    for (const at of [11_000, 12_000, 13_000]) expect(pricer.observeBook('a', { bid: 0.3, ask: 0.32 }, T0 + at)).toBe('used');
    // Seen at 12 s and 13 s: at 12.5 s only two samples are known, fewer than minSamples (3).
    expect(pricer.volatilityOf('a', T0 + 12_500)?.impliedVol).toBeNull();
    expect(pricer.volatilityOf('a', T0 + 13_000)?.impliedVol).not.toBeNull();
  });

  it('forgets an expiry when its last market leaves (reported once), and keeps it while one stays', () => {
    const gone: number[] = [];
    const pricer = new MarketPricer(settings(1), { onExpiryGone: (_ticker, at) => gone.push(at) });
    const slugs = feedLadder(pricer, 0.4, 87_900, T0 + HOUR, 'x', T0, 6);
    const now = T0 + 30_000;
    expect(pricer.volatilityOf(slugs[0]!, now)?.impliedVol).not.toBeNull();
    pricer.unregister(slugs[0]!);
    pricer.unregister(slugs[1]!);
    expect(gone).toEqual([]);
    expect(pricer.volatilityOf(slugs[2]!, now)?.impliedVol).not.toBeNull();
    pricer.unregister(slugs[2]!);
    expect(gone).toEqual([T0 + HOUR]);
    pricer.register(slugs[2]!, { ok: true, terms: terms(slugs[2]!, 88_400, T0 + HOUR) });
    expect(pricer.volatilityOf(slugs[2]!, now)?.impliedVol).toBeNull();
  });

  it('keeps every ladder monotone in the strike and the total variance non-decreasing in the settlement (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ hours: fc.integer({ min: 1, max: 30 }), sigma: fc.double({ min: 0.2, max: 1.5, noNaN: true }) }), { minLength: 2, maxLength: 4 }),
        fc.double({ min: 87_000, max: 89_000, noNaN: true }),
        (expiries, spot) => {
          const pricer = new MarketPricer(settings(1));
          const ladders = expiries.map((e, i) => ({ settles: T0 + e.hours * HOUR + i, slugs: feedLadder(pricer, e.sigma, spot, T0 + e.hours * HOUR + i, `e${i}`, T0, 4) }));
          const now = T0 + 20_000;
          const byExpiry = ladders.map(({ settles, slugs }) => {
            const fairs = slugs.map((slug) => {
              const a = pricer.answer(slug, now);
              if (a.kind !== 'priced') throw new Error('not priced');
              return a.view.fair;
            });
            for (let k = 1; k < fairs.length; k++) expect(fairs[k]!).toBeLessThanOrEqual(fairs[k - 1]!);
            return { settles, variance: pricer.volatilityOf(slugs[0]!, now)!.totalVariance };
          });
          byExpiry.sort((a, b) => a.settles - b.settles);
          for (let k = 1; k < byExpiry.length; k++) expect(byExpiry[k]!.variance).toBeGreaterThanOrEqual(byExpiry[k - 1]!.variance);
        },
      ),
      { numRuns: 25 },
    );
  });
});
