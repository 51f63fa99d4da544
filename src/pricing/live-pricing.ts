/**
 * The bot's pricing wiring: each traded market's terms read when it joins, the underlying price store and its sources (the
 * venue's `oraclePriceData` frames), and the market pricer (src/pricing/market-pricer.ts) whose answer the strategy
 * runner asks for every quote cycle.
 *
 * Owns: the route of a price from a source to the pricer (store → best source → pricer → requote of the ticker's
 * markets), the logs and metrics of pricing (one line per market at start saying how it is priced, one per refused
 * reason, the settlement check after each resolution), and the effective stop of priced markets. Invariants: a refused
 * price changes nothing and is counted; a priced market is never quoted from a stale, doubtful or missing price (the
 * pricer halts it); the reason a market is unpriced is logged once; nothing here speaks to the venue. Markets join and
 * leave while the bot runs (`addMarket`, `removeMarket`): a left market's terms are kept until it resolves (the
 * settlement check), the stop before settlement of every priced market is in the live risk overrides (`riskConfig`),
 * and the Hermes stream follows the priced feeds (restarted when a new one joins).
 */
import type { Logger } from 'pino';
import { expiryStopFor } from '../config/derived.js';
import type { MarketRiskOverride, RiskConfig } from '../config/types.js';
import type { PricingConfig } from '../config/pricing-schema.js';
import type { OraclePriceFrame } from '../exchange/socket-wire.js';
import type { Market } from '../exchange/wire.js';
import type { Metrics } from '../metrics/index.js';
import { MarketPricer } from './market-pricer.js';
import { describeTerms, readMarketTerms, termsInputOf } from './terms.js';
import type { MarketTerms } from './types.js';
import { UnderlyingStore } from './underlying/store.js';
import { HermesSource } from './underlying/hermes-source.js';
import type { Scheduler } from '../core/clock.js';
import { PriceHistory, settlementCheck } from './settlement-check.js';
import type { MarketResolvedFrame } from '../exchange/socket-wire.js';
import type { RunnerModelAnswer } from '../strategy/runner.js';
import type { ModelView, PositionView, QuoteIntent } from '../strategy/contract.js';
import { toYesTerms } from '../strategy/yes-terms.js';
import { touchPrices, type Touch } from '../strategy/own-orders.js';
import { exposureByTicker, sidesUnderCap } from './exposure.js';
import { impliedWeightSentence } from './surface/index.js';

export interface BotPricingDeps {
  readonly config: PricingConfig;
  /** The markets traded at start (more join with `addMarket`). */
  readonly markets: readonly Market[];
  readonly now: () => number;
  readonly log: Logger;
  readonly metrics: Metrics;
  /** Requote one market now (the runner's trigger). */
  readonly requote: (slug: string) => void;
  /** The bot's holdings in a market (the account view's). */
  /** The market's holdings (O(1): the exposure cap reads every priced market's on each quote). */
  readonly position: (slug: string) => Pick<PositionView, 'yesRaw' | 'noRaw'>;
  /** Pyth Hermes (endpoint, key), or null when it is not a source. */
  readonly hermes: { readonly endpoint: string; readonly apiKey: string | null; readonly apiKeyEnv: string } | null;
  readonly scheduler: Scheduler;
}

export class BotPricing {
  readonly pricer: MarketPricer;
  readonly store: UnderlyingStore;
  private readonly refusedLogged = new Set<string>();
  private readonly lastSource = new Map<string, 'model' | 'book' | 'halted'>();
  private readonly haltReasons = new Map<string, string>();
  private hermesSource: HermesSource | null = null;
  /** The feeds the Hermes stream was started for (null: not started). */
  private hermesFeeds: ReadonlyMap<string, string> | null = null;
  /** The model's last view of each priced market (its delta and spot for the exposure). */
  private readonly views = new Map<string, ModelView>();
  /** Per ticker, the recent prices held (for the settlement check). */
  private readonly history = new Map<string, PriceHistory>();
  /** Terms of markets left before they resolved, for the settlement check. */
  private readonly departedTerms = new Map<string, MarketTerms>();
  /** Unpriced traded markets and why (published as counts per reason). */
  private readonly unpriced = new Map<string, string>();
  /** risk.perMarket of the priced markets (their stop before settlement); the object `riskConfig` hands out. */
  private readonly perMarketRisk: Record<string, MarketRiskOverride> = {};
  /** The user's risk config (null until `riskConfig` is called): its per-market overrides win. */
  private userRisk: RiskConfig | null = null;
  private started = false;

  constructor(private readonly deps: BotPricingDeps) {
    const { config, metrics, log } = deps;
    this.pricer = new MarketPricer(config.pricer, {
      onUnpriced: (slug, reason, crypto) => {
        log.info({ market: slug, reason, crypto }, crypto && config.pricer.unpricedCrypto === 'skip' ? 'not pricing this crypto market: left alone' : 'not a priced market: quoted from its book');
        this.unpriced.set(slug, reason);
      },
      onExpiryGone: (ticker, settlesAtMs) => metrics.forgetExpiry(ticker, new Date(settlesAtMs).toISOString()),
      onImpliedWeight: ({ ticker, settlesAtMs, weight, evidence }) =>
        log.info({ ticker, expiry: new Date(settlesAtMs).toISOString(), impliedWeight: Number(weight.toFixed(3)), ...evidence }, impliedWeightSentence(ticker, settlesAtMs, weight, evidence)),
      onGuardTrip: (ticker, atMs) => {
        metrics.fastMarketTrip(ticker);
        log.warn({ ticker, at: new Date(atMs).toISOString() }, 'fast market: quotes on this underlying pulled for the cool-down');
        for (const slug of this.pricer.marketsOf(ticker)) deps.requote(slug);
      },
    });
    for (const market of deps.markets) this.register(market);
    this.publishRegistry();
    const sf = config.pricer.surface;
    log.info(
      { impliedWeight: sf.impliedWeight, evidence: sf.evidence, profile: sf.profile.weights.map((w) => Number(w.toFixed(3))), windowSec: sf.windowMs / 1000, maxSpread: sf.filter.maxSpread, mids: [sf.filter.midMin, sf.filter.midMax], tailFit: sf.tailFit, gapWeight: sf.gapWeight },
      `volatility surface: variance to settlement = (1 − w) × realized + w × the ladder's implied, w = ${sf.impliedWeight} × the evidence of each expiry (strikes, books, spread), over the intraday profile (pricing.surface)`,
    );
    this.store = new UnderlyingStore(config.store, deps.now, {
      onAccepted: (q) => metrics.underlyingUpdate(q.ticker, q.source, q.price),
      onRefused: (refusal) => {
        metrics.underlyingRefusal(refusal.source, refusal.reason);
        const key = `${refusal.source}:${refusal.field}:${refusal.reason}`;
        if (this.refusedLogged.has(key)) return;
        this.refusedLogged.add(key);
        log.warn({ source: refusal.source, field: refusal.field, reason: refusal.reason }, `${refusal.message} (logged once per source, field and reason; counted in outcome_maker_underlying_refusals_total)`);
      },
    });
    this.store.onQuote((quote) => {
      let held = this.history.get(quote.ticker);
      if (!held) this.history.set(quote.ticker, (held = new PriceHistory()));
      held.add({ publishTimeMs: quote.publishTimeMs, price: quote.price, conf: quote.conf });
      const best = this.store.best(quote.ticker);
      if (best === null) return;
      if (best.divergenceBps !== null) metrics.underlyingDivergence(quote.ticker, best.divergenceBps);
      this.pricer.setInDoubt(quote.ticker, best.inDoubt ? `sources ${best.divergenceBps?.toFixed(1) ?? '?'} bps apart` : null);
      this.pricer.observe({ ticker: quote.ticker, price: best.quote.price, conf: best.quote.conf, receiveTimeMs: best.quote.receiveTimeMs });
      for (const slug of this.pricer.marketsOf(quote.ticker)) deps.requote(slug);
    });
  }

  /** A market joined while running: its terms read, its stop before settlement in the risk overrides, Hermes told. */
  addMarket(market: Market): void {
    this.departedTerms.delete(market.slug);
    this.register(market);
    this.publishRegistry();
    if (this.started) this.startHermes();
  }

  /** A market left: no longer priced or published; its terms are kept for the settlement check until it resolves. */
  removeMarket(slug: string): void {
    const terms = this.pricer.terms(slug);
    if (terms !== null) this.departedTerms.set(slug, terms);
    this.pricer.unregister(slug);
    this.unpriced.delete(slug);
    this.views.delete(slug);
    this.lastSource.delete(slug);
    this.haltReasons.delete(slug);
    this.clearPricedStop(slug);
    this.publishRegistry();
  }

  /** The model's fair value of a market the bot may join (null: not a priced market, or no price for its ticker yet). */
  fairOf(market: Market): number | null {
    const terms = this.pricer.terms(market.slug) ?? readTerms(market, this.deps.config);
    return terms === null ? null : this.pricer.fairOf(terms, this.deps.now());
  }

  /**
   * How long before its expiry a market stops being quoted, joined or not yet: the user's own per-market stop, else the
   * pricing stop for a priced market, else `risk.stopBeforeExpirySec`.
   */
  stopBeforeExpiryMs(market: Market, risk: RiskConfig): number {
    const priced = this.pricer.terms(market.slug) !== null || readTerms(market, this.deps.config) !== null;
    return expiryStopFor(risk, this.deps.config.pricer.stopBeforeSettlementMs, market.slug, priced).ms;
  }

  /** Why pricing halts a market at its last quote cycle (null: it does not). */
  haltReason(slug: string): string | null {
    return this.haltReasons.get(slug) ?? null;
  }

  /** Starts Pyth Hermes for the priced markets' feeds (when it is a source and has a key). */
  start(): void {
    this.started = true;
    this.startHermes();
  }

  private register(market: Market): void {
    const result = readMarketTerms(termsInputOf(market), this.deps.config.feedIds);
    this.pricer.register(market.slug, result);
    if (!result.ok) return;
    this.setPricedStop(market.slug);
    this.deps.log.info({ market: market.slug, rule: result.terms.rule, pythFeed: result.terms.feedId }, `pricing ${market.slug} from the model: ${describeTerms(result.terms)}`);
  }

  /** Unpriced markets per reason and the priced tickers, as metrics. */
  private publishRegistry(): void {
    const counts = new Map<string, number>();
    for (const reason of this.unpriced.values()) counts.set(reason, (counts.get(reason) ?? 0) + 1);
    this.deps.metrics.unpricedMarkets(counts);
    this.deps.metrics.pricedTickers(this.pricer.tickerList());
  }

  /** (Re)starts the Hermes stream when the priced feeds are not the ones it streams. */
  private startHermes(): void {
    const hermes = this.deps.hermes;
    const feeds = new Map<string, string>();
    for (const ticker of this.pricer.tickerList()) {
      for (const slug of this.pricer.marketsOf(ticker)) {
        const terms = this.pricer.terms(slug);
        if (terms?.feedId) feeds.set(terms.feedId.slice(2), terms.ticker);
      }
    }
    if (hermes === null || feeds.size === 0) return;
    if (this.hermesFeeds !== null && [...feeds.keys()].every((id) => this.hermesFeeds?.has(id))) return;
    if (hermes.apiKey === null) {
      if (this.hermesFeeds === null) this.deps.log.warn({ env: hermes.apiKeyEnv, endpoint: hermes.endpoint }, `Pyth Hermes not used: $${hermes.apiKeyEnv} is not set (Pyth requires an API key); pricing from the venue's oracle frames only`);
      this.hermesFeeds = feeds;
      return;
    }
    this.hermesSource?.stop();
    this.hermesFeeds = feeds;
    this.hermesSource = new HermesSource({
      endpoint: hermes.endpoint,
      apiKey: hermes.apiKey,
      apiKeyEnv: hermes.apiKeyEnv,
      feeds,
      store: this.store,
      scheduler: this.deps.scheduler,
      log: this.deps.log,
    });
    this.hermesSource.start();
  }

  stop(): void {
    this.started = false;
    this.hermesSource?.stop();
    this.hermesSource = null;
  }

  /** One `oraclePriceData` frame of the venue: into the store under its market's ticker (a frame of an unpriced market is ignored). */
  venueFrame(frame: OraclePriceFrame): void {
    if (!this.deps.config.sources.includes('venue')) return;
    const ticker = this.pricer.terms(frame.slug)?.ticker;
    if (ticker === undefined) return;
    this.store.accept('venue', { ticker, price: frame.value, publishTimeMs: frame.timestampMs, marketSlug: frame.slug });
  }

  /**
   * The exposure cap per underlying: past `pricing.maxExposureUsdc` (Σ net YES × delta × S over the ticker's markets),
   * a market on that ticker keeps only the intents on the side that reduces it. Publishes that ticker's exposure (O(its markets)).
   */
  capIntents(slug: string, intents: readonly QuoteIntent[]): readonly QuoteIntent[] {
    const ticker = this.pricer.terms(slug)?.ticker;
    if (ticker === undefined) return intents;
    // Only this ticker's markets (the decision reads its exposure alone; each ticker's gauge follows its own quotes).
    const exposures = exposureByTicker(
      [...this.views.entries()].flatMap(([s, view]) => {
        if (view.underlying.ticker !== ticker) return [];
        const p = this.deps.position(s);
        return [{ ticker, netYesShares: (p.yesRaw - p.noRaw) / 1e6, delta: view.delta, spot: view.underlying.price }];
      }),
    );
    for (const [t, e] of exposures) this.deps.metrics.underlyingExposure(t, e.units, e.usdc);
    const sides = sidesUnderCap(exposures.get(ticker)?.usdc ?? 0, this.deps.config.maxExposureUsdc);
    if (sides.bids && sides.asks) return intents;
    return intents.filter((i) => (toYesTerms(i.token, i.side, i.priceTicks).side === 'bid' ? sides.bids : sides.asks));
  }

  /**
   * A market resolved: for a priced one, log the print the bot held at the settlement instant beside the venue's
   * outcome (a disagreement means the rule was misread, or another print settles), and count the verdict.
   */
  resolved(frame: MarketResolvedFrame): void {
    const terms = this.pricer.terms(frame.slug) ?? this.departedTerms.get(frame.slug) ?? null;
    this.departedTerms.delete(frame.slug);
    if (terms === null || frame.winningOutcome === null) return;
    const check = settlementCheck(terms, this.history.get(terms.ticker)?.all() ?? [], frame.winningOutcome);
    this.deps.metrics.settlementCheck(check.verdict);
    const line = { market: frame.slug, rule: terms.rule, strike: terms.strike, outcome: frame.winningOutcome, held: check.held, implied: check.implied, verdict: check.verdict };
    if (check.verdict === 'disagree') this.deps.log.warn(line, 'settlement check: the price held implies the other outcome (misread rule, or another print settles)');
    else this.deps.log.info(line, 'settlement check');
  }

  /** A book change of `slug`: the others' touch (the bot's own orders taken out) joins its expiry's ladder samples. */
  observeBook(slug: string, touch: Touch): void {
    this.pricer.observeBook(slug, touchPrices(touch), this.deps.now());
  }

  /** The runner's question: how to quote `slug` now. Publishes the model's figures and where the quote came from. */
  answer(slug: string): RunnerModelAnswer {
    const answer = this.pricer.answer(slug, this.deps.now());
    const source = answer.kind === 'priced' ? 'model' : answer.kind === 'book' ? 'book' : 'halted';
    if (answer.kind === 'halt') this.haltReasons.set(slug, answer.reason);
    else this.haltReasons.delete(slug);
    if (answer.kind === 'priced') {
      this.views.set(slug, answer.view);
      this.deps.metrics.modelFair(slug, answer.view.fair, answer.view.uncertainty);
      const vol = this.pricer.volatilityOf(slug, this.deps.now());
      if (vol !== null) this.deps.metrics.surfaceVolatility(answer.terms.ticker, new Date(vol.settlesAtMs).toISOString(), { realized: vol.realizedVol, implied: vol.impliedVol, blended: vol.blendedVol });
    }
    if (this.lastSource.get(slug) !== source) {
      this.lastSource.set(slug, source);
      this.deps.metrics.quotedFrom(slug, source);
      if (answer.kind === 'halt') this.deps.log.info({ market: slug, reason: answer.reason }, 'pricing halts this market');
      else this.deps.log.info({ market: slug, from: source }, `quoting from the ${source === 'model' ? 'model' : 'book'}`);
    }
    return answer.kind === 'priced' ? { kind: 'priced', view: answer.view } : answer;
  }

  /** Per priced ticker, the age of the price the model uses (the store's best source), or null before any price. */
  underlyingAges(): Record<string, number | null> {
    return Object.fromEntries(this.pricer.tickerList().map((ticker) => [ticker, this.store.best(ticker)?.ageMs ?? null]));
  }

  /** Ages of each priced ticker's latest price per source, published as metrics. */
  publishAges(): Record<string, number> {
    const now = this.deps.now();
    const ages: Record<string, number> = {};
    for (const ticker of this.pricer.tickerList()) {
      for (const source of ['hermes', 'venue'] as const) {
        const q = this.store.quote(ticker, source);
        if (q === null) continue;
        this.deps.metrics.underlyingAge(ticker, source, now - q.receiveTimeMs);
        ages[`${ticker}:${source}`] = now - q.receiveTimeMs;
      }
    }
    return ages;
  }

  /**
   * The risk config with priced markets' stop before expiry set to the pricing stop (risk.stopBeforeExpirySec's default
   * of an hour fits long-dated markets, not hourly ones), unless the user set a per-market one.
   */
  riskConfig(risk: RiskConfig): RiskConfig {
    this.userRisk = risk;
    for (const [slug, own] of Object.entries(risk.perMarket)) this.perMarketRisk[slug] = own;
    for (const ticker of this.pricer.tickerList()) for (const slug of this.pricer.marketsOf(ticker)) this.setPricedStop(slug);
    // Live: markets that join later add their entry to this same object (register), those that leave take it back.
    return { ...risk, perMarket: this.perMarketRisk };
  }

  /** A priced market stops at the pricing stop, unless the user set its own. */
  private setPricedStop(slug: string): void {
    const own = this.userRisk?.perMarket[slug];
    const stopMs = this.userRisk === null ? this.deps.config.pricer.stopBeforeSettlementMs : expiryStopFor(this.userRisk, this.deps.config.pricer.stopBeforeSettlementMs, slug, true).ms;
    this.perMarketRisk[slug] = { ...own, stopBeforeExpiryMs: stopMs };
  }

  /** Back to the user's own override of a market that left (or none). */
  private clearPricedStop(slug: string): void {
    const own = this.userRisk?.perMarket[slug];
    if (own === undefined) delete this.perMarketRisk[slug];
    else this.perMarketRisk[slug] = own;
  }
}

/** A market's terms when the model prices it; null otherwise. */
function readTerms(market: Market, config: PricingConfig): MarketTerms | null {
  const result = readMarketTerms(termsInputOf(market), config.feedIds);
  return result.ok ? result.terms : null;
}
