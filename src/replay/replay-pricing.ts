/**
 * Pricing in a replay: the recorded markets' terms (the venue's fields from a recording, or terms given on import)
 * and the recorded underlying, fed at its recorded times to the bot's own price store and market pricer
 * (src/pricing/), so a replayed crypto market is quoted from the model exactly as live.
 *
 * Owns: the terms of each replayed market and the route of a recorded price (event → store → best source → pricer).
 * Invariants: a recorded price goes through the store's validation like a live one (refused ones are counted); an
 * imported history takes the primary source's place (Hermes's slot); a market without terms is quoted from its book;
 * an up/down market given a window open and no strike takes as strike the first underlying price published in the
 * minute that opens at the window (the candle's open) and answers `no-strike` until then — never a guess.
 * When the config's volatility surface is on (`impliedWeight` or `gapWeight` > 0), a second pricer without it
 * (realized only: both 0) is fed exactly the same prices, books and strikes, so the report can show what the surface
 * contributed (`fairWithoutSurface`); it never quotes. Each change of an expiry's implied weight is kept
 * (`impliedWeights`), as the bot logs it.
 */
import type { PricingConfig } from '../config/pricing-schema.js';
import { MarketPricer, type ImpliedWeightChange } from '../pricing/market-pricer.js';
import { readMarketTerms } from '../pricing/terms.js';
import type { MarketTerms, TermsResult } from '../pricing/types.js';
import { UnderlyingStore } from '../pricing/underlying/store.js';
import type { RunnerModelAnswer } from '../strategy/runner.js';
import { touchPrices, type Touch } from '../strategy/own-orders.js';
import type { GivenTerms, ReplayMarket, UnderlyingEvent } from './format.js';

/** The window-open strike is the first price published within this long after the window opens. */
const OPEN_CANDLE_MS = 60_000;

/** Terms given on import → the pricer's terms (strike markets: strictly above; up/down: at or above the open). */
export function givenTermsOf(slug: string, given: GivenTerms): TermsResult {
  const strikeValue = given.strike === null ? null : Number(given.strike);
  if (given.family === 'strike' && (strikeValue === null || !(strikeValue > 0))) {
    return { ok: false, reason: 'a strike market needs a positive strike', recognisedCrypto: true, ticker: given.ticker };
  }
  if (given.family === 'updown' && given.windowOpenMs === null && strikeValue === null) {
    return { ok: false, reason: 'an up/down market needs its window open or its opening price', recognisedCrypto: true, ticker: given.ticker };
  }
  const terms: MarketTerms = {
    slug,
    ticker: given.ticker,
    feedId: null,
    family: given.family,
    strike: given.strike,
    strikeValue,
    comparison: given.family === 'strike' ? 'above' : 'at-or-above',
    settlesAtMs: given.settlesAtMs,
    windowStartMs: given.windowOpenMs,
    rule: given.family === 'strike' ? 'pyth-candle-open-1m' : 'exchange-candle',
    source: given.family === 'strike' ? 'pyth' : 'exchange',
    cadence: null,
  };
  return { ok: true, terms };
}

/** The terms of a replayed market; null when the stream gives none (quoted from its book). */
export function replayTermsOf(market: ReplayMarket, feedIds: PricingConfig['feedIds']): TermsResult | null {
  const terms = market.terms;
  if (terms === undefined) return null;
  if (terms.kind === 'given') return givenTermsOf(market.slug, terms);
  const { kind: _kind, priceOracleMetadata, ...input } = terms;
  return readMarketTerms({ slug: market.slug, ...input, priceOracleMetadata: oracleFields(priceOracleMetadata) }, feedIds);
}

type OracleFields = { readonly ticker?: string | undefined; readonly pythAddress?: string | undefined; readonly assetType?: string | undefined } | null;

/** The three fields of `priceOracleMetadata` the terms parser reads, absent ones left out (the venue sends more). */
export function oracleFields(meta: OracleFields): { ticker?: string; pythAddress?: string; assetType?: string } | null {
  if (meta === null) return null;
  return {
    ...(meta.ticker === undefined ? {} : { ticker: meta.ticker }),
    ...(meta.pythAddress === undefined ? {} : { pythAddress: meta.pythAddress }),
    ...(meta.assetType === undefined ? {} : { assetType: meta.assetType }),
  };
}

export class ReplayPricing {
  readonly pricer: MarketPricer;
  private readonly store: UnderlyingStore;
  /** Up/down markets still waiting for their opening price. */
  private readonly awaitingOpen = new Map<string, MarketTerms>();
  /** The last accepted price of each ticker (the report's underlying series). */
  private readonly last = new Map<string, number>();
  /** The same pricer without the surface (realized only); null when the config's surface is off already. */
  private readonly withoutSurface: MarketPricer | null;
  refused = 0;
  unpriced: { readonly slug: string; readonly reason: string }[] = [];
  /** Each change of an expiry's implied weight (src/pricing/surface/evidence.ts), in order. */
  readonly impliedWeights: ImpliedWeightChange[] = [];

  constructor(
    config: PricingConfig,
    markets: readonly ReplayMarket[],
    private readonly now: () => number,
    /** Requote these markets (their ticker's price changed). */
    private readonly requote: (slugs: readonly string[]) => void,
  ) {
    this.pricer = new MarketPricer(config.pricer, { onUnpriced: (slug, reason) => this.unpriced.push({ slug, reason }), onImpliedWeight: (change) => this.impliedWeights.push(change) });
    const surface = config.pricer.surface;
    this.withoutSurface = surface.impliedWeight > 0 || surface.gapWeight > 0 ? new MarketPricer({ ...config.pricer, surface: { ...surface, impliedWeight: 0, gapWeight: 0 } }) : null;
    for (const market of markets) {
      const result = replayTermsOf(market, config.feedIds);
      if (result === null) continue;
      this.pricer.register(market.slug, result);
      this.withoutSurface?.register(market.slug, result);
      if (result.ok && result.terms.family === 'updown' && result.terms.strikeValue === null) this.awaitingOpen.set(market.slug, result.terms);
    }
    this.store = new UnderlyingStore(config.store, now, { onRefused: () => (this.refused += 1) });
    this.store.onQuote((quote) => {
      this.last.set(quote.ticker, quote.price);
      this.openStrikes(quote.ticker, quote.price, quote.publishTimeMs);
      const best = this.store.best(quote.ticker);
      if (best === null) return;
      for (const pricer of this.pricers()) {
        pricer.setInDoubt(quote.ticker, best.inDoubt ? `sources ${best.divergenceBps?.toFixed(1) ?? '?'} bps apart` : null);
        pricer.observe({ ticker: quote.ticker, price: best.quote.price, conf: best.quote.conf, receiveTimeMs: best.quote.receiveTimeMs });
      }
      this.requote(this.pricer.marketsOf(quote.ticker));
    });
  }

  /** True when `slug` is priced from the model (it has readable terms). */
  priced(slug: string): boolean {
    return this.pricer.terms(slug) !== null;
  }

  /** The ticker of a priced market; null otherwise. */
  tickerOf(slug: string): string | null {
    return this.pricer.terms(slug)?.ticker ?? null;
  }

  /** The last accepted price of `ticker`; null before the first. */
  underlying(ticker: string): number | null {
    return this.last.get(ticker) ?? null;
  }

  /** A recorded price, at its recorded receive time. */
  onUnderlying(event: UnderlyingEvent): void {
    this.store.accept(event.source === 'venue' ? 'venue' : 'hermes', {
      ticker: event.ticker,
      price: event.price,
      conf: event.conf,
      publishTimeMs: event.publishTs,
      marketSlug: event.market,
    });
  }

  /** The others' touch of a replayed market at a book change: a sample of its expiry's implied variance. */
  observeBook(slug: string, touch: Touch): void {
    for (const pricer of this.pricers()) pricer.observeBook(slug, touchPrices(touch), this.now());
  }

  /** Whether a pricer without the surface runs beside the bot's (the config's surface is on). */
  comparesSurface(): boolean {
    return this.withoutSurface !== null;
  }

  /** The fair value of `slug` now from the pricer without the surface; null when not priced (or no such pricer). */
  fairWithoutSurface(slug: string): number | null {
    const answer = this.withoutSurface?.answer(slug, this.now());
    return answer?.kind === 'priced' ? answer.view.fair : null;
  }

  /** The runner's question for `slug` now. */
  answer(slug: string): RunnerModelAnswer {
    const answer = this.pricer.answer(slug, this.now());
    return answer.kind === 'priced' ? { kind: 'priced', view: answer.view } : answer;
  }

  private openStrikes(ticker: string, price: number, publishMs: number): void {
    for (const [slug, terms] of this.awaitingOpen) {
      const open = terms.windowStartMs;
      if (terms.ticker !== ticker || open === null || publishMs < open || publishMs >= open + OPEN_CANDLE_MS) continue;
      this.awaitingOpen.delete(slug);
      for (const pricer of this.pricers()) pricer.register(slug, { ok: true, terms: { ...terms, strike: String(price), strikeValue: price } });
    }
  }

  private pricers(): MarketPricer[] {
    return this.withoutSurface === null ? [this.pricer] : [this.pricer, this.withoutSurface];
  }
}
