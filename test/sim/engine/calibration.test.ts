/**
 * Calibration of the model on the simulator's resolved markets: the bot's pricer (fed with the published underlying
 * once a second, as in the bot) and the book's mid (the synthetic maker's, which follows the underlying 20 s late),
 * each sampled 30 minutes before every hourly settlement, scored against the outcomes by log-loss and Brier score.
 * `OM_PRINT_CALIBRATION=1` prints the figures.
 */
import { describe, expect, it } from 'vitest';
import { parseMarket } from '../../../src/exchange/wire.js';
import { DEFAULT_PYTH_FEED_IDS } from '../../../src/pricing/feed-ids.js';
import { DEFAULT_PRICER_SETTINGS, MarketPricer } from '../../../src/pricing/market-pricer.js';
import { brierScore, logLoss, type Prediction } from '../../../src/pricing/model/index.js';
import { readMarketTerms, termsInputOf } from '../../../src/pricing/terms.js';
import { createEngine, DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS, ManualClock } from '../../../src/sim/engine/index.js';
import { marketWire } from '../../../src/sim/server/wire-format.js';
import { hangBound } from '../../support/hang-bound.js';

const T0 = Date.UTC(2026, 0, 1, 0, 0);
const HOURS = 10;
/** The loop's step: the pricer sees the underlying (and the maker requotes) every 5 s. */
const STEP_MS = 5000;

describe('model calibration on resolved simulated markets', () => {
  it('scores the model close to a book made by a maker who knows the true volatility, and far better than a coin', () => {
    const clock = new ManualClock(T0);
    const engine = createEngine({
      seed: 5,
      clock,
      settlementDelayMs: 0,
      markets: [],
      accounts: [],
      synthetic: { autoStep: false, noise: { ratePerMinute: 0 }, informed: { ratePerMinute: 0 } },
      world: {
        underlying: { underlyings: DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC' || u.ticker === 'SOL'), leadMs: 1500, makerLagMs: 20_000 },
        markets: { ...DEFAULT_CRYPTO_MARKETS, cadences: ['hourly'], strikesPerExpiry: 3 },
      },
    });
    const pricer = new MarketPricer({ ...DEFAULT_PRICER_SETTINGS, guard: { ...DEFAULT_PRICER_SETTINGS.guard, enabled: false } });
    const registered = new Set<string>();
    const samples = new Map<string, { model: number; book: number }>();
    const world = engine.underlying()!;
    for (let t = T0; t < T0 + HOURS * 3_600_000; t += STEP_MS) {
      clock.advanceTo(t);
      engine.syntheticStep();
      for (const ticker of ['BTC', 'SOL']) pricer.observe({ ticker, price: world.publishedAt(ticker, t)!, conf: null, receiveTimeMs: t });
      if (t % 1_800_000 !== 0) continue; // markets open on the hour; samples are taken on the half hour
      for (const market of engine.markets()) {
        if (registered.has(market.slug)) continue;
        registered.add(market.slug);
        pricer.register(market.slug, readMarketTerms(termsInputOf(parseMarket(marketWire(market, undefined), { method: 'GET', pathTemplate: '/markets' }, 200)), DEFAULT_PYTH_FEED_IDS));
      }
      for (const market of engine.markets()) {
        if (market.expirationMs - t !== 30 * 60_000 || market.status === 'RESOLVED') continue;
        const answer = pricer.answer(market.slug, t);
        const book = engine.book(market.slug);
        const bid = book?.bids[0]?.priceTicks;
        const ask = book?.asks[0]?.priceTicks;
        if (answer.kind !== 'priced' || bid === undefined || ask === undefined) continue;
        samples.set(market.slug, { model: answer.view.fair, book: (bid + ask) / 2000 });
      }
    }
    const model: Prediction[] = [];
    const book: Prediction[] = [];
    for (const [slug, s] of samples) {
      const market = engine.market(slug);
      if (market?.winningOutcomeIndex === null || market?.winningOutcomeIndex === undefined) continue;
      const outcome = market.winningOutcomeIndex === 0 ? 1 : 0;
      model.push({ p: s.model, outcome });
      book.push({ p: s.book, outcome });
    }
    // 2 tickers × 3 strikes × the hours that settled with a sample 30 minutes before.
    expect(model.length).toBeGreaterThanOrEqual(2 * 3 * (HOURS - 2));
    const scores = { model: { logLoss: logLoss(model), brier: brierScore(model) }, book: { logLoss: logLoss(book), brier: brierScore(book) } };
    if (process.env["OM_PRINT_CALIBRATION"]) console.log(JSON.stringify({ samples: model.length, ...scores }));
    expect(scores.model.brier).toBeLessThan(0.2); // a coin scores 0.25
    expect(scores.model.logLoss).toBeLessThan(Math.LN2);
    // The maker's book is the true digital (the world's own volatility) 20 s late: 30 minutes before settlement the lag
    // hardly matters, so this compares the model's estimated volatility with the truth (seed 5: 0.495 against 0.475).
    expect(scores.model.logLoss).toBeLessThanOrEqual(scores.book.logLoss + 0.03);
    expect(scores.model.brier).toBeLessThanOrEqual(scores.book.brier + 0.01);
    engine.stop();
  }, hangBound(120_000));
});
