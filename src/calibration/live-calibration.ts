/**
 * The live bot's calibration wiring: the sampler (src/calibration/sampler.ts) on the bot's ledger and scheduler,
 * tracking every market the pricer prices, reading the model's fair value from the pricer (`fairOf`: the value the
 * model gives at that instant, with no quoting halt applied, so a market the bot has just left at its stop before
 * settlement is still predicted) and the YES book's mid without the bot's own orders from the book store, and
 * publishing every prediction and score as metrics.
 *
 * Invariants: a model prediction is never taken from a missing or stale underlying price (`no-underlying-price`,
 * `stale-underlying`, or `unpriced` when the model gives no value); a mid is never taken from a missing, stale,
 * one-sided or locked book (`no-book` — e.g. a market left before the offset, its book unsubscribed; an offset due at the
 * leave is taken just before the unsubscription, `takeNow` in compose.ts —, `stale-book`, `one-sided`); nothing here
 * writes but the sampler, and only through the ledger.
 */
import type { Logger } from 'pino';
import type { BookStore } from '../book/book-store.js';
import { CalibrationSampler, type CalibrationMarket, type CalibrationReading } from './sampler.js';
import type { CalibrationConfig } from '../config/types.js';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { LedgerStore } from '../ledger/index.js';
import { fairMicros, othersMidMicros } from '../markouts/value.js';
import type { Metrics } from '../metrics/index.js';
import type { MarketTerms } from '../pricing/types.js';
import type { OwnOrderView } from '../strategy/contract.js';
import type { BotPricing } from '../pricing/live-pricing.js';

export interface BotCalibrationDeps {
  readonly config: CalibrationConfig;
  readonly ledger: Pick<LedgerStore, 'calibration'>;
  readonly scheduler: Scheduler;
  readonly books: Pick<BookStore, 'books' | 'isStale'>;
  readonly ownOrders: (slug: string) => readonly OwnOrderView[];
  readonly pricing: Pick<BotPricing, 'pricer'>;
  /** An underlying price older than this is stale (pricing.staleSec). */
  readonly staleMs: number;
  readonly metrics: Pick<Metrics, 'calibrationTracked' | 'calibrationPrediction' | 'calibrationScored'>;
  readonly log: Pick<Logger, 'warn'>;
}

/** A failing ledger write is logged at most this often (the sampler retries every tick). */
const ERROR_LOG_EVERY_MS = 60_000;

/** The model's prediction of a market now, millionths, or why there is none. */
export function modelReading(pricer: BotPricing['pricer'], terms: MarketTerms, nowMs: number, staleMs: number): Pick<CalibrationReading, 'modelMicros' | 'modelMissing'> {
  const latest = pricer.latest(terms.ticker, nowMs);
  if (latest === null) return { modelMicros: null, modelMissing: 'no-underlying-price' };
  if (latest.ageMs > staleMs) return { modelMicros: null, modelMissing: 'stale-underlying' };
  const fair = pricer.fairOf(terms, nowMs);
  const micros = fair === null ? null : fairMicros(fair);
  return micros === null ? { modelMicros: null, modelMissing: 'unpriced' } : { modelMicros: micros, modelMissing: null };
}

/**
 * The markets the pricer prices now, as calibration tracks them. `terms` keeps each one's terms until it settles (the
 * sampler may ask of a market the bot has left); `onNew` hears of each market the first time it is seen.
 */
export function pricedMarkets(pricer: BotPricing['pricer'], terms: Map<string, MarketTerms>, nowMs: number, onNew?: (terms: MarketTerms) => void): CalibrationMarket[] {
  for (const [slug, t] of terms) if (t.settlesAtMs <= nowMs) terms.delete(slug);
  const list: CalibrationMarket[] = [];
  for (const ticker of pricer.tickerList()) {
    for (const slug of pricer.marketsOf(ticker)) {
      const t = pricer.terms(slug);
      if (t === null) continue;
      if (!terms.has(slug)) onNew?.(t);
      terms.set(slug, t);
      list.push({ slug, underlying: t.ticker, cadence: t.cadence ?? 'other', settlesAtMs: t.settlesAtMs });
    }
  }
  return list;
}

/** The sampler, or null when calibration is off. */
export function buildCalibrationSampler(deps: BotCalibrationDeps): CalibrationSampler | null {
  if (!deps.config.enabled) return null;
  const { books, pricing, metrics, scheduler } = deps;
  /** Terms of the markets seen priced, kept while the sampler may still ask (dropped once settled). */
  const terms = new Map<string, MarketTerms>();
  let loggedAtMs = Number.NEGATIVE_INFINITY;
  return new CalibrationSampler({
    ledger: deps.ledger.calibration,
    scheduler,
    offsetsMs: deps.config.offsetsMs,
    markets: () => pricedMarkets(pricing.pricer, terms, scheduler.now(), (t) => metrics.calibrationTracked(t.ticker, t.cadence ?? 'other')),
    read: (market) => {
      const t = terms.get(market.slug);
      const model = t === undefined ? { modelMicros: null, modelMissing: 'unpriced' } : modelReading(pricing.pricer, t, scheduler.now(), deps.staleMs);
      const book = books.books(market.slug);
      if (book === undefined || book === null) return { ...model, midMicros: null, midMissing: 'no-book' };
      if (books.isStale(market.slug)) return { ...model, midMicros: null, midMissing: 'stale-book' };
      const mid = othersMidMicros(book.yes, deps.ownOrders(market.slug));
      return mid === null ? { ...model, midMicros: null, midMissing: 'one-sided' } : { ...model, midMicros: mid, midMissing: null };
    },
    observer: {
      onPrediction: (_market, source, result) => metrics.calibrationPrediction(source, result),
      onScored: (row) => {
        if (row.modelLogLossMicro !== null && row.modelBrierMicro !== null) metrics.calibrationScored(row.underlying, row.cadence, 'model', row.modelLogLossMicro / 1e6, row.modelBrierMicro / 1e6);
        if (row.midLogLossMicro !== null && row.midBrierMicro !== null) metrics.calibrationScored(row.underlying, row.cadence, 'mid', row.midLogLossMicro / 1e6, row.midBrierMicro / 1e6);
      },
      onError: (error) => {
        if (scheduler.now() - loggedAtMs < ERROR_LOG_EVERY_MS) return;
        loggedAtMs = scheduler.now();
        deps.log.warn({ err: errorText(error) }, 'calibration: ledger write failed; retried every tick (logged once a minute)');
      },
    },
  });
}
