/**
 * Pricing in a replay (src/replay/replay-pricing.ts): terms given on import become the pricer's terms; an up/down
 * market given only its window open takes as strike the first underlying price published in the minute that opens
 * at the window, and halts with `no-strike` before it (never a guess); recorded prices go through the store's
 * validation (a refused one is counted and changes nothing); a market without terms is quoted from its book.
 */
import { describe, expect, it } from 'vitest';
import { pricingSchema, toPricingConfig } from '../../../src/config/pricing-schema.js';
import type { ReplayMarket, UnderlyingEvent } from '../../../src/replay/format.js';
import { givenTermsOf, ReplayPricing } from '../../../src/replay/replay-pricing.js';

const OPEN = Date.UTC(2025, 11, 11, 11, 0);
const SETTLES = OPEN + 15 * 60_000;
const config = toPricingConfig(pricingSchema.parse({}));
const price = (t: number, value: number, publishTs = t): UnderlyingEvent => ({ kind: 'underlying', t, ticker: 'SOL', source: 'import', price: value, conf: null, publishTs, market: null });

describe('ReplayPricing', () => {
  it('an up/down market takes its strike from the first price of the opening minute, and halts until then', () => {
    let now = OPEN - 120_000;
    const requoted: string[] = [];
    const markets: ReplayMarket[] = [
      { slug: 'updown', yesTokenId: null, noTokenId: null, tickTicks: 10, terms: { kind: 'given', ticker: 'SOL', family: 'updown', strike: null, windowOpenMs: OPEN, settlesAtMs: SETTLES } },
      { slug: 'plain', yesTokenId: null, noTokenId: null, tickTicks: 10 },
    ];
    const pricing = new ReplayPricing(config, markets, () => now, (slugs) => requoted.push(...slugs));
    expect(pricing.answer('plain')).toEqual({ kind: 'book' });
    for (let t = OPEN - 120_000; t < OPEN; t += 1000) {
      now = t;
      pricing.onUnderlying(price(t, 131.2 + (t - OPEN) / 1e8));
    }
    expect(pricing.answer('updown')).toEqual({ kind: 'halt', reason: 'no-strike' });
    now = OPEN + 500;
    pricing.onUnderlying(price(OPEN + 500, 131.25));
    expect(pricing.pricer.terms('updown')).toMatchObject({ strike: '131.25', strikeValue: 131.25, comparison: 'at-or-above' });
    now = OPEN + 1500;
    pricing.onUnderlying(price(OPEN + 1500, 131.3));
    const answer = pricing.answer('updown');
    expect(answer).toMatchObject({ kind: 'priced' });
    if (answer.kind === 'priced') expect(answer.view.fair).toBeGreaterThan(0.5); // spot above the opening price
    expect(requoted).toContain('updown');
    expect(pricing.underlying('SOL')).toBe(131.3);

    pricing.onUnderlying(price(OPEN + 2000, 131.4, OPEN + 10_000)); // published 8 s in the future: refused
    expect(pricing.refused).toBe(1);
    expect(pricing.underlying('SOL')).toBe(131.3);
  });

  it('terms without what they need are unpriced with the reason', () => {
    expect(givenTermsOf('s', { kind: 'given', ticker: 'SOL', family: 'strike', strike: null, windowOpenMs: null, settlesAtMs: SETTLES })).toMatchObject({ ok: false, reason: 'a strike market needs a positive strike' });
    expect(givenTermsOf('u', { kind: 'given', ticker: 'SOL', family: 'updown', strike: null, windowOpenMs: null, settlesAtMs: SETTLES })).toMatchObject({ ok: false });
    expect(givenTermsOf('k', { kind: 'given', ticker: 'SOL', family: 'strike', strike: '130.8', windowOpenMs: null, settlesAtMs: SETTLES })).toMatchObject({ ok: true, terms: { comparison: 'above', strikeValue: 130.8 } });
  });
});
