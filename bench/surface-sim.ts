/**
 * The volatility surface on the simulator: one seeded crypto world (BTC and SOL, hourly ladders of 3 strikes, the
 * synthetic maker quoting the TRUE digital at the world's own volatility 20 s late), three pricers fed alike — the
 * published underlying every 5 s and each market's book touch (no orders of ours in it) — that differ only in
 * `pricing.surface`: realized only (α 0, flat clock), the surface on a flat clock (α 0.8), and the default (α 0.8 and
 * the intraday profile). Each is sampled 30 minutes before every settlement and scored against the outcomes
 * (log-loss, Brier), beside the book's mid; and on every 5 s step, the share of books whose fair value lies inside
 * [bid, ask]. Seeds 5, 6, 7 (10 virtual hours each). The simulator's world has no intraday profile (a flat clock is
 * its truth), so the profile can only cost here.
 * Run: npx tsx bench/surface-sim.ts [--hours 10]
 */
import { pathToFileURL } from 'node:url';
import { parseMarket } from '../src/exchange/wire.js';
import { DEFAULT_PYTH_FEED_IDS } from '../src/pricing/feed-ids.js';
import { DEFAULT_PRICER_SETTINGS, MarketPricer, type PricerSettings } from '../src/pricing/market-pricer.js';
import { brierScore, logLoss, type Prediction } from '../src/pricing/model/index.js';
import { FLAT_PROFILE } from '../src/pricing/surface/index.js';
import { readMarketTerms, termsInputOf } from '../src/pricing/terms.js';
import { createEngine, DEFAULT_CRYPTO_MARKETS, DEFAULT_UNDERLYINGS, ManualClock } from '../src/sim/engine/index.js';
import { marketWire } from '../src/sim/server/wire-format.js';

const i = process.argv.indexOf('--hours');
const HOURS = i >= 0 ? Number(process.argv[i + 1]) : 10;
const T0 = Date.UTC(2026, 0, 1, 0, 0);
const STEP_MS = 5000;
const SEEDS = [5, 6, 7];

const base: PricerSettings = { ...DEFAULT_PRICER_SETTINGS, guard: { ...DEFAULT_PRICER_SETTINGS.guard, enabled: false } };
const VARIANTS: readonly { readonly name: string; readonly settings: PricerSettings }[] = [
  { name: 'realized only (α 0, flat clock)', settings: { ...base, surface: { ...base.surface, impliedWeight: 0, profile: FLAT_PROFILE } } },
  { name: 'surface α 0.8, flat clock', settings: { ...base, surface: { ...base.surface, impliedWeight: 0.8, profile: FLAT_PROFILE } } },
  { name: 'surface α 0.8 + profile (default)', settings: base },
];

export interface SimRow {
  readonly variant: string;
  readonly seed: number;
  readonly samples: number;
  readonly logLoss: number;
  readonly brier: number;
  readonly bookLogLoss: number;
  readonly bookBrier: number;
  readonly inside: number;
}

function runSeed(seed: number): SimRow[] {
  const clock = new ManualClock(T0);
  const engine = createEngine({
    seed,
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
  const pricers = VARIANTS.map((v) => ({ ...v, pricer: new MarketPricer(v.settings), samples: new Map<string, { model: number; book: number }>(), inside: 0, judged: 0 }));
  const registered = new Set<string>();
  const world = engine.underlying();
  if (world === null) throw new Error('no crypto world');
  for (let t = T0; t < T0 + HOURS * 3_600_000; t += STEP_MS) {
    clock.advanceTo(t);
    engine.syntheticStep();
    for (const market of engine.markets()) {
      if (registered.has(market.slug)) continue;
      registered.add(market.slug);
      const terms = readMarketTerms(termsInputOf(parseMarket(marketWire(market, undefined), { method: 'GET', pathTemplate: '/markets' }, 200)), DEFAULT_PYTH_FEED_IDS);
      for (const p of pricers) p.pricer.register(market.slug, terms);
    }
    for (const ticker of ['BTC', 'SOL']) for (const p of pricers) p.pricer.observe({ ticker, price: world.publishedAt(ticker, t) ?? 1, conf: null, receiveTimeMs: t });
    for (const market of engine.markets()) {
      if (market.status === 'RESOLVED' || market.expirationMs <= t) continue;
      const book = engine.book(market.slug);
      const bid = book?.bids[0]?.priceTicks;
      const ask = book?.asks[0]?.priceTicks;
      const touch = { bid: bid === undefined ? null : bid / 1000, ask: ask === undefined ? null : ask / 1000 };
      for (const p of pricers) {
        const answer = p.pricer.answer(market.slug, t);
        if (answer.kind === 'priced' && touch.bid !== null && touch.ask !== null && touch.ask - touch.bid <= 0.05 + 1e-9) {
          p.judged += 1;
          if (answer.view.fair >= touch.bid && answer.view.fair <= touch.ask) p.inside += 1;
        }
        if (answer.kind === 'priced' && market.expirationMs - t === 30 * 60_000 && touch.bid !== null && touch.ask !== null) p.samples.set(market.slug, { model: answer.view.fair, book: (touch.bid + touch.ask) / 2 });
        p.pricer.observeBook(market.slug, touch, t);
      }
    }
  }
  const rows = pricers.map((p) => {
    const model: Prediction[] = [];
    const book: Prediction[] = [];
    for (const [slug, s] of p.samples) {
      const index = engine.market(slug)?.winningOutcomeIndex;
      if (index === null || index === undefined) continue;
      model.push({ p: s.model, outcome: index === 0 ? 1 : 0 });
      book.push({ p: s.book, outcome: index === 0 ? 1 : 0 });
    }
    return { variant: p.name, seed, samples: model.length, logLoss: logLoss(model), brier: brierScore(model), bookLogLoss: logLoss(book), bookBrier: brierScore(book), inside: p.inside / Math.max(1, p.judged) };
  });
  engine.stop();
  return rows;
}

export function run(): SimRow[] {
  return SEEDS.flatMap(runSeed);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = run();
  process.stdout.write('| variant | seed | resolved samples | log-loss model / book | Brier model / book | fair inside [bid, ask] |\n|---|---|---|---|---|---|\n');
  for (const r of rows) process.stdout.write(`| ${r.variant} | ${r.seed} | ${r.samples} | ${r.logLoss.toFixed(3)} / ${r.bookLogLoss.toFixed(3)} | ${r.brier.toFixed(3)} / ${r.bookBrier.toFixed(3)} | ${(100 * r.inside).toFixed(0)} % |\n`);
  for (const v of VARIANTS) {
    const mine = rows.filter((r) => r.variant === v.name);
    const mean = (f: (r: SimRow) => number): string => (mine.reduce((a, r) => a + f(r), 0) / mine.length).toFixed(3);
    process.stdout.write(`| **${v.name}: mean** | 5–7 | ${mine.reduce((a, r) => a + r.samples, 0)} | ${mean((r) => r.logLoss)} / ${mean((r) => r.bookLogLoss)} | ${mean((r) => r.brier)} / ${mean((r) => r.bookBrier)} | ${(100 * Number(mean((r) => r.inside))).toFixed(0)} % |\n`);
  }
}
