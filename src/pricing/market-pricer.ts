/**
 * The bot's market pricer: for every traded market, what the model says it is worth now, or why it must not be
 * quoted, from the market's terms (src/pricing/terms.ts), the underlying's latest price, one realized volatility
 * estimate per underlying (src/pricing/model/) and the volatility surface per underlying and expiry
 * (src/pricing/surface/: the ladder's own books, taken in through `observeBook`, and the intraday profile).
 *
 * Owns: the terms of each market, one estimator, one surface and one fast-market guard per ticker, the latest usable
 * price of each ticker, and the answer per market. A thin shell: the maths is in model/, surface/ and guard.ts;
 * prices come in through `observe` and books through `observeBook` from whatever source the caller wires (Pyth
 * Hermes, the venue's oracle frames and books, a backtest's engine, a recording).
 * Invariants: every market of one expiry on one ticker is priced from the same spot, total variance and tails at the
 * same instant, so a strike ladder's fair values fall as the strike rises and never cross, and the total variance
 * never falls as the settlement moves later; a book is inverted only against a spot already received (never a
 * later one); a priced market with no usable price (none yet,
 * stale, in doubt, a fast market, near settlement) answers a halt with its reason, never a guess; an unpriced market
 * answers 'book' or a halt by the unpriced policy; the reason a market is unpriced is reported once; a market
 * forgotten (`unregister`) answers as one never registered, and the per-ticker state outlives it, except the
 * surface's samples of an expiry whose last market left (reported through `onExpiryGone`).
 */
import type { ModelView } from '../strategy/contract.js';
import { FastMarketGuard, type GuardSettings, DEFAULT_GUARD } from './guard.js';
import { DEFAULT_VOLATILITY, digitalFairValue, VolatilityEstimator, type Tails, type VolatilitySettings } from './model/index.js';
import { DEFAULT_SURFACE, VolSurface, type ExpiryVolatility, type ImpliedEvidence, type SampleVerdict, type SurfaceSettings } from './surface/index.js';
import type { MarketTerms, TermsResult } from './types.js';

export interface PricerSettings {
  readonly volatility: VolatilitySettings;
  /** The volatility surface per expiry (src/pricing/surface/). */
  readonly surface: SurfaceSettings;
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
  surface: DEFAULT_SURFACE,
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

/**
 * An expiry's implied weight changed (the first answer after a change of its strikes, or of its weight by a tenth):
 * which expiries price with the ladder's implied variance, and how much. Not per tick.
 */
export interface ImpliedWeightChange {
  readonly ticker: string;
  readonly settlesAtMs: number;
  /** The weight of the implied variance (α × evidence); 0: realized only. */
  readonly weight: number;
  /** What it was inverted from (null: no implied part now). */
  readonly evidence: ImpliedEvidence | null;
  readonly atMs: number;
}

export interface PricerObserver {
  /** Once per market the model cannot price. */
  onUnpriced?(slug: string, reason: string, recognisedCrypto: boolean): void;
  /** The fast-market guard of `ticker` tripped. */
  onGuardTrip?(ticker: string, atMs: number): void;
  /** The last market of an expiry on `ticker` left: its surface samples are gone (forget its metrics). */
  onExpiryGone?(ticker: string, settlesAtMs: number): void;
  /** An expiry's implied weight changed (see ImpliedWeightChange). */
  onImpliedWeight?(change: ImpliedWeightChange): void;
}

interface TickerState {
  readonly estimator: VolatilityEstimator;
  readonly surface: VolSurface;
  readonly guard: FastMarketGuard;
  latest: PricerQuote | null;
  /** Set by the caller when its sources disagree (src/pricing/underlying): halts the ticker's markets. */
  inDoubt: string | null;
}

type MarketEntry = { readonly kind: 'priced'; readonly terms: MarketTerms } | { readonly kind: 'unpriced'; readonly reason: string; readonly crypto: boolean };

export class MarketPricer {
  private readonly markets = new Map<string, MarketEntry>();
  /** `expiriesOf` per ticker, dropped whenever `markets` changes (an answer per quote must not walk every market). */
  private readonly expiriesCache = new Map<string, readonly number[]>();
  private readonly tickers = new Map<string, TickerState>();
  /** Per `ticker|settlesAtMs`, the implied weight last reported (strikes and weight to a tenth). */
  private readonly reportedWeights = new Map<string, string>();

  constructor(
    private readonly settings: PricerSettings = DEFAULT_PRICER_SETTINGS,
    private readonly observer: PricerObserver = {},
  ) {}

  /** Registers a market with its parsed terms (once; a second call replaces the first). */
  register(slug: string, result: TermsResult): void {
    if (result.ok) {
      this.markets.set(slug, { kind: 'priced', terms: result.terms });
      this.expiriesCache.clear();
      this.ticker(result.terms.ticker);
      return;
    }
    this.markets.set(slug, { kind: 'unpriced', reason: result.reason, crypto: result.recognisedCrypto });
    this.expiriesCache.clear();
    this.observer.onUnpriced?.(slug, result.reason, result.recognisedCrypto);
  }

  /**
   * Starts following `ticker` before any of its markets is registered (its prices are observed from now on, so its
   * volatility estimate is warm when its first market comes). Idempotent.
   */
  watch(ticker: string): void {
    this.ticker(ticker);
  }

  /** Forgets a market (one the bot left); its ticker's estimator and guard stay, for the ticker's other markets. */
  unregister(slug: string): void {
    const entry = this.markets.get(slug);
    this.markets.delete(slug);
    this.expiriesCache.clear();
    if (entry?.kind !== 'priced') return;
    const { ticker, settlesAtMs } = entry.terms;
    if (this.expiriesOf(ticker).includes(settlesAtMs)) return;
    this.tickers.get(ticker)?.surface.forgetExpiry(settlesAtMs);
    this.reportedWeights.delete(`${ticker}|${settlesAtMs}`);
    this.observer.onExpiryGone?.(ticker, settlesAtMs);
  }

  /**
   * One book of a priced market (the others' touch: the bot's own orders taken out by the caller), seen at `atMs`:
   * a sample of its expiry's implied variance when usable, inverted against the ticker's latest spot.
   */
  observeBook(slug: string, touch: { readonly bid: number | null; readonly ask: number | null }, atMs: number): SampleVerdict | 'not-priced' {
    const entry = this.markets.get(slug);
    if (entry?.kind !== 'priced' || entry.terms.strikeValue === null) return 'not-priced';
    const state = this.tickers.get(entry.terms.ticker);
    if (!state) return 'not-priced';
    const latest = state.latest;
    return state.surface.observe(
      { slug, strike: entry.terms.strikeValue, settlesAtMs: entry.terms.settlesAtMs, atMs, bid: touch.bid, ask: touch.ask },
      latest === null ? null : { price: latest.price, atMs: latest.receiveTimeMs },
    );
  }

  /** The surface's answer for the expiry of priced market `slug` at `nowMs` (null: not priced, or settled). */
  volatilityOf(slug: string, nowMs: number): ExpiryVolatility | null {
    const terms = this.terms(slug);
    const state = terms === null ? undefined : this.tickers.get(terms.ticker);
    if (terms === null || !state || nowMs >= terms.settlesAtMs) return null;
    return this.expiryVolatility(terms, state, nowMs);
  }

  /** The settlement instants of the priced markets on `ticker`. */
  private expiriesOf(ticker: string): readonly number[] {
    let expiries = this.expiriesCache.get(ticker);
    if (expiries === undefined) {
      expiries = [...new Set([...this.markets.values()].flatMap((e) => (e.kind === 'priced' && e.terms.ticker === ticker ? [e.terms.settlesAtMs] : [])))];
      this.expiriesCache.set(ticker, expiries);
    }
    return expiries;
  }

  private expiryVolatility(terms: MarketTerms, state: TickerState, nowMs: number): ExpiryVolatility | null {
    const expiries = this.expiriesOf(terms.ticker).filter((t) => t > nowMs);
    if (!expiries.includes(terms.settlesAtMs)) expiries.push(terms.settlesAtMs);
    const vol = state.surface.at(nowMs, state.estimator.variancePerSecond(), expiries).get(terms.settlesAtMs) ?? null;
    if (vol !== null) this.reportWeight(terms.ticker, vol, nowMs);
    return vol;
  }

  /** Reports an expiry's implied weight when its strikes or its weight (to a tenth) changed since the last report. */
  private reportWeight(ticker: string, vol: ExpiryVolatility, nowMs: number): void {
    if (this.observer.onImpliedWeight === undefined) return;
    const id = `${ticker}|${vol.settlesAtMs}`;
    const key = vol.evidence === null || vol.impliedWeight === 0 ? 'none' : `${vol.evidence.strikes}|${Math.round(vol.impliedWeight * 10)}`;
    const last = this.reportedWeights.get(id);
    if (last === key || (last === undefined && key === 'none')) return;
    this.reportedWeights.set(id, key);
    this.observer.onImpliedWeight({ ticker, settlesAtMs: vol.settlesAtMs, weight: vol.impliedWeight, evidence: vol.evidence, atMs: nowMs });
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

  /** Tickers of the priced markets (and those watched). */
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
    const realized = this.value(terms, terms.strikeValue, state, latest, nowMs, 'realized-only');
    return {
      kind: 'priced',
      terms,
      view: {
        fair: value.fair,
        delta: value.delta,
        uncertainty: value.uncertainty,
        secondsToSettlement: Math.max(0, (terms.settlesAtMs - nowMs) / 1000),
        underlying: { ticker: terms.ticker, price: latest.price, ageMs, volatility: value.vol?.blendedVol ?? state.estimator.annualizedVolatility() },
        withoutSurface: { fair: realized.fair, delta: realized.delta, uncertainty: realized.uncertainty, volatility: realized.vol?.realizedVol ?? state.estimator.annualizedVolatility() },
      },
    };
  }

  /**
   * The digital at the expiry's total variance (its variance per second over the time left) and tails; 'realized-only':
   * at its realized variance with no gap term — exactly the answer of a pricer with impliedWeight 0 and gapWeight 0
   * (the realized variance never falls with a later settlement, so the calendar floor leaves it as it is).
   */
  private value(terms: MarketTerms, strike: number, state: TickerState, latest: PricerQuote, nowMs: number, part: 'surface' | 'realized-only' = 'surface'): ReturnType<typeof digitalFairValue> & { readonly vol: ExpiryVolatility | null } {
    const s = this.settings;
    const secondsLeft = Math.max(0, (terms.settlesAtMs - nowMs) / 1000);
    const vol = secondsLeft > 0 ? this.expiryVolatility(terms, state, nowMs) : null;
    const value = digitalFairValue({
      spot: latest.price,
      strike,
      comparison: terms.comparison,
      secondsLeft,
      variancePerSecond: vol === null ? state.estimator.variancePerSecond() : (part === 'surface' ? vol.totalVariance : vol.realizedVariance) / secondsLeft,
      settlementNoiseVariance: s.settlementNoiseVariance,
      spotConf: latest.conf,
      spotAgeMs: Math.max(0, nowMs - latest.receiveTimeMs),
      volRelErr: s.volRelErr,
      volGapRel: part === 'surface' ? (vol?.gapRel ?? 0) : 0,
      tails: vol?.tails ?? s.tails,
      floor: s.floor,
      cap: s.cap,
    });
    return { ...value, vol };
  }

  private ticker(ticker: string): TickerState {
    let state = this.tickers.get(ticker);
    if (!state) {
      state = { estimator: new VolatilityEstimator(this.settings.volatility), surface: new VolSurface(this.settings.surface, this.settings.tails), guard: new FastMarketGuard(this.settings.guard), latest: null, inDoubt: null };
      this.tickers.set(ticker, state);
    }
    return state;
  }
}
