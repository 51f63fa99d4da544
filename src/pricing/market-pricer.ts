/**
 * The bot's market pricer: for every traded market, what the model says it is worth now, or why it must not be
 * quoted, from the market's terms (src/pricing/terms.ts), the underlying's latest price and one volatility estimate
 * per underlying (src/pricing/model/).
 *
 * Owns: the terms of each market, one estimator and one fast-market guard per ticker, the latest usable price of
 * each ticker, and the answer per market. A thin shell: the maths is in model/ and guard.ts; prices come in through
 * `observe` from whatever source the caller wires (Pyth Hermes, the venue's oracle frames, a backtest's engine).
 * Invariants: every market on one ticker is priced from the same spot and variance at the same instant, so a strike
 * ladder's fair values fall as the strike rises and never cross; a priced market with no usable price (none yet,
 * stale, in doubt, a fast market, near settlement) answers a halt with its reason, never a guess; an unpriced market
 * answers 'book' or a halt by the unpriced policy; the reason a market is unpriced is reported once; a market
 * forgotten (`forget`) answers as one never registered, and the per-ticker state outlives it.
 */
import type { ModelView } from '../strategy/contract.js';
import { FastMarketGuard, type GuardSettings, DEFAULT_GUARD } from './guard.js';
import { DEFAULT_VOLATILITY, digitalFairValue, VolatilityEstimator, type Tails, type VolatilitySettings } from './model/index.js';
import type { MarketTerms, TermsResult } from './types.js';

export interface PricerSettings {
  readonly volatility: VolatilitySettings;
  readonly tails: Tails;
  /** Clamp of the fair value. */
  readonly floor: number;
  readonly cap: number;
  /** Variance floor of the last seconds (ln units): the settlement print's own noise. */
  readonly settlementNoiseVariance: number;
  /** Relative standard error of the volatility estimate, for the uncertainty. */
  readonly volRelErr: number;
  /** A price received longer ago than this is stale: the ticker's markets halt. */
  readonly staleMs: number;
  /** Quoting stops this long before the settlement instant. */
  readonly stopBeforeSettlementMs: number;
  readonly guard: GuardSettings;
  /** A crypto market the model cannot price: 'skip' (leave it alone) or 'book' (quote it from its book). */
  readonly unpricedCrypto: 'skip' | 'book';
}

export const DEFAULT_PRICER_SETTINGS: PricerSettings = {
  volatility: DEFAULT_VOLATILITY,
  tails: { kind: 'normal' },
  floor: 0.001,
  cap: 0.999,
  settlementNoiseVariance: 2e-4 ** 2,
  volRelErr: 0.2,
  staleMs: 10_000,
  stopBeforeSettlementMs: 60_000,
  guard: DEFAULT_GUARD,
  unpricedCrypto: 'skip',
};

export type ModelAnswer =
  | { readonly kind: 'priced'; readonly view: ModelView; readonly terms: MarketTerms }
  /** Not a market the model prices: quote it from the book. */
  | { readonly kind: 'book' }
  /** Do not quote it now (its resting quotes are pulled); `reason` says why. */
  | { readonly kind: 'halt'; readonly reason: string };

/** An underlying price as the pricer uses it (a source's validated quote). */
export interface PricerQuote {
  readonly ticker: string;
  readonly price: number;
  /** USD; null when the source gives none. */
  readonly conf: number | null;
  readonly receiveTimeMs: number;
}

export interface PricerObserver {
  /** Once per market the model cannot price. */
  onUnpriced?(slug: string, reason: string, recognisedCrypto: boolean): void;
  /** The fast-market guard of `ticker` tripped. */
  onGuardTrip?(ticker: string, atMs: number): void;
}

interface TickerState {
  readonly estimator: VolatilityEstimator;
  readonly guard: FastMarketGuard;
  latest: PricerQuote | null;
  /** Set by the caller when its sources disagree (src/pricing/underlying): halts the ticker's markets. */
  inDoubt: string | null;
}

type MarketEntry = { readonly kind: 'priced'; readonly terms: MarketTerms } | { readonly kind: 'unpriced'; readonly reason: string; readonly crypto: boolean };

export class MarketPricer {
  private readonly markets = new Map<string, MarketEntry>();
  private readonly tickers = new Map<string, TickerState>();

  constructor(
    private readonly settings: PricerSettings = DEFAULT_PRICER_SETTINGS,
    private readonly observer: PricerObserver = {},
  ) {}

  /** Registers a market with its parsed terms (once; a second call replaces the first). */
  register(slug: string, result: TermsResult): void {
    if (result.ok) {
      this.markets.set(slug, { kind: 'priced', terms: result.terms });
      this.ticker(result.terms.ticker);
      return;
    }
    this.markets.set(slug, { kind: 'unpriced', reason: result.reason, crypto: result.recognisedCrypto });
    this.observer.onUnpriced?.(slug, result.reason, result.recognisedCrypto);
  }

  /** Forgets a market (one the bot left); its ticker's estimator and guard stay, for the ticker's other markets. */
  unregister(slug: string): void {
    this.markets.delete(slug);
  }

  /**
   * The model's fair value of `terms` at `nowMs` from the ticker's latest price, for judging a market the bot has not
   * joined (the selection's fair band). Null when the ticker has no price yet or the market has settled; no halt
   * rule applies here (a quote is never made from it).
   */
  fairOf(terms: MarketTerms, nowMs: number): number | null {
    const state = this.tickers.get(terms.ticker);
    const latest = state?.latest;
    if (!state || !latest || terms.strikeValue === null || nowMs >= terms.settlesAtMs) return null;
    return this.value(terms, terms.strikeValue, state, latest, nowMs).fair;
  }

  /** The terms of a priced market; null otherwise. */
  terms(slug: string): MarketTerms | null {
    const entry = this.markets.get(slug);
    return entry?.kind === 'priced' ? entry.terms : null;
  }

  /** Tickers of the priced markets. */
  tickerList(): string[] {
    return [...this.tickers.keys()];
  }

  /** Slugs of the priced markets on `ticker`. */
  marketsOf(ticker: string): string[] {
    return [...this.markets.entries()].flatMap(([slug, e]) => (e.kind === 'priced' && e.terms.ticker === ticker ? [slug] : []));
  }

  /** A validated price of one underlying. Returns true when it tripped the fast-market guard. */
  observe(quote: PricerQuote): boolean {
    const state = this.tickers.get(quote.ticker);
    if (!state) return false;
    if (state.latest !== null && quote.receiveTimeMs < state.latest.receiveTimeMs) return false;
    state.latest = quote;
    state.estimator.observe(quote.receiveTimeMs, quote.price);
    const tripped = state.guard.observe(quote.receiveTimeMs, quote.price, state.estimator.variancePerSecond());
    if (tripped) this.observer.onGuardTrip?.(quote.ticker, quote.receiveTimeMs);
    return tripped;
  }

  /** The caller's sources disagree on `ticker` (reason), or agree again (null). */
  setInDoubt(ticker: string, reason: string | null): void {
    const state = this.tickers.get(ticker);
    if (state) state.inDoubt = reason;
  }

  /** The latest price of a ticker and its age at `nowMs`; null before the first. */
  latest(ticker: string, nowMs: number): { readonly quote: PricerQuote; readonly ageMs: number; readonly annualVol: number } | null {
    const state = this.tickers.get(ticker);
    if (!state?.latest) return null;
    return { quote: state.latest, ageMs: Math.max(0, nowMs - state.latest.receiveTimeMs), annualVol: state.estimator.annualizedVolatility() };
  }

  /** What the bot may do with `slug` at `nowMs`. */
  answer(slug: string, nowMs: number): ModelAnswer {
    const entry = this.markets.get(slug);
    if (!entry) return { kind: 'book' };
    if (entry.kind === 'unpriced') {
      return entry.crypto && this.settings.unpricedCrypto === 'skip' ? { kind: 'halt', reason: 'unpriced' } : { kind: 'book' };
    }
    const terms = entry.terms;
    const s = this.settings;
    if (nowMs >= terms.settlesAtMs - s.stopBeforeSettlementMs) return { kind: 'halt', reason: 'near-settlement' };
    const state = this.tickers.get(terms.ticker);
    const latest = state?.latest;
    if (!state || !latest) return { kind: 'halt', reason: 'no-underlying-price' };
    const ageMs = Math.max(0, nowMs - latest.receiveTimeMs);
    if (ageMs > s.staleMs) return { kind: 'halt', reason: 'underlying-stale' };
    if (state.inDoubt !== null) return { kind: 'halt', reason: 'underlying-in-doubt' };
    if (state.guard.holding(nowMs)) return { kind: 'halt', reason: 'fast-market' };
    if (terms.strikeValue === null) return { kind: 'halt', reason: 'no-strike' };
    const value = this.value(terms, terms.strikeValue, state, latest, nowMs);
    return {
      kind: 'priced',
      terms,
      view: {
        fair: value.fair,
        delta: value.delta,
        uncertainty: value.uncertainty,
        secondsToSettlement: Math.max(0, (terms.settlesAtMs - nowMs) / 1000),
        underlying: { ticker: terms.ticker, price: latest.price, ageMs, volatility: state.estimator.annualizedVolatility() },
      },
    };
  }

  private value(terms: MarketTerms, strike: number, state: TickerState, latest: PricerQuote, nowMs: number): ReturnType<typeof digitalFairValue> {
    const s = this.settings;
    return digitalFairValue({
      spot: latest.price,
      strike,
      comparison: terms.comparison,
      secondsLeft: Math.max(0, (terms.settlesAtMs - nowMs) / 1000),
      variancePerSecond: state.estimator.variancePerSecond(),
      settlementNoiseVariance: s.settlementNoiseVariance,
      spotConf: latest.conf,
      spotAgeMs: Math.max(0, nowMs - latest.receiveTimeMs),
      volRelErr: s.volRelErr,
      tails: s.tails,
      floor: s.floor,
      cap: s.cap,
    });
  }

  private ticker(ticker: string): TickerState {
    let state = this.tickers.get(ticker);
    if (!state) {
      state = { estimator: new VolatilityEstimator(this.settings.volatility), guard: new FastMarketGuard(this.settings.guard), latest: null, inDoubt: null };
      this.tickers.set(ticker, state);
    }
    return state;
  }
}
