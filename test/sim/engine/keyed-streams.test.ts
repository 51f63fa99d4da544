/**
 * Common random numbers: with `world.underlying.streams: 'per-ticker'` and `synthetic.streams: 'per-market'`, the
 * markets a 4-market and a 36-market crypto world of the same seed share (each ticker's at-the-money hourly strike)
 * get the same underlying path, the same taker arrivals and so the same trades; with the default shared streams they
 * do not (listing more markets changes everyone's draws).
 */
import { describe, expect, it } from 'vitest';
import {
  createEngine,
  DEFAULT_CRYPTO_MARKETS,
  DEFAULT_UNDERLYINGS,
  keyedStream,
  ManualClock,
  Prng,
  type Cadence,
  type SimEngine,
} from '../../../src/sim/engine/index.js';

const T0 = Date.UTC(2026, 0, 1, 0, 0);
const NOISE_PROFILE = 900_001;

function world(strikes: Partial<Record<Cadence, number>>, keyed: boolean, tickers = DEFAULT_UNDERLYINGS): { engine: SimEngine; clock: ManualClock } {
  const clock = new ManualClock(T0);
  const cadences = (Object.keys(strikes) as Cadence[]).filter((c) => (strikes[c] ?? 0) > 0);
  const engine = createEngine({
    seed: 17,
    clock,
    settlementDelayMs: 0,
    markets: [],
    accounts: [],
    world: {
      underlying: { underlyings: tickers, leadMs: 1500, ...(keyed ? { streams: 'per-ticker' as const } : {}) },
      markets: { ...DEFAULT_CRYPTO_MARKETS, cadences, strikesPerExpiry: 1, strikesPerCadence: strikes, strikeSpacingSigmas: 0.5, recurring: false },
    },
    synthetic: { autoStep: false, noise: { ratePerMinute: 20 }, informed: { ratePerMinute: 20 }, ...(keyed ? { streams: 'per-market' as const } : {}) },
  });
  return { engine, clock };
}

/** The at-the-money hourly strike of each ticker (the middle of its odd-sized hourly ladder). */
function common(engine: SimEngine): string[] {
  const out: string[] = [];
  for (const { ticker } of DEFAULT_UNDERLYINGS) {
    const ladder = engine.markets().filter((m) => m.oracle?.ticker === ticker && m.oracle.cadence === 'hourly').sort((a, b) => Number(a.oracle?.strike) - Number(b.oracle?.strike));
    const middle = ladder[(ladder.length - 1) / 2];
    if (middle !== undefined) out.push(middle.slug);
  }
  return out;
}

/** What happened on the common markets, free of ids (order and token ids come from a stream shared by every market). */
function history(run: { engine: SimEngine; clock: ManualClock }, seconds: number): { prices: string[]; arrivals: string[]; trades: string[] } {
  const { engine, clock } = run;
  const slugs = common(engine);
  const prices: string[] = [];
  for (let i = 0; i < seconds; i += 1) {
    clock.advance(1000);
    engine.syntheticStep();
    for (const { ticker } of DEFAULT_UNDERLYINGS) prices.push(`${ticker} ${engine.underlying()?.priceAt(ticker, clock.now())}`);
  }
  const arrivals = slugs.flatMap((slug) =>
    engine
      .orders(NOISE_PROFILE, slug, ['LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'], 100_000)
      .map((o) => `${slug} ${o.createdAtMs} ${o.outcome} ${o.side} ${o.priceTicks} ${o.originalSizeRaw}`)
      .sort(),
  );
  const trades = slugs.flatMap((slug) => {
    const yes = engine.market(slug)?.yesTokenId;
    return engine.trades([slug]).map((t) => `${slug} ${t.createdAt} ${t.tokenId === yes ? 'YES' : 'NO'} ${t.side} ${t.price} ${t.matchedSize}`);
  });
  return { prices, arrivals, trades };
}

describe('keyed streams (common random numbers)', () => {
  it('give the common markets of a 4- and a 36-market world the same path, arrivals and trades', () => {
    const small = world({ hourly: 1 }, true);
    const large = world({ hourly: 5, daily: 4 }, true);
    expect(small.engine.markets()).toHaveLength(4);
    expect(large.engine.markets()).toHaveLength(36);
    expect(common(large.engine)).toEqual(common(small.engine));
    const a = history(small, 90);
    const b = history(large, 90);
    expect(a.arrivals.length).toBeGreaterThan(20);
    expect(a.trades.length).toBeGreaterThan(5);
    expect(b.prices).toEqual(a.prices);
    expect(b.arrivals).toEqual(a.arrivals);
    expect(b.trades).toEqual(a.trades);
  });

  it('are opt-in: with the default shared streams the common markets see different arrivals', () => {
    const a = history(world({ hourly: 1 }, false), 60);
    const b = history(world({ hourly: 3 }, false), 60);
    expect(b.prices).toEqual(a.prices); // the same four tickers step the one underlying stream alike
    expect(b.arrivals).not.toEqual(a.arrivals);
  });

  it('keep a ticker path whatever other tickers the world has', () => {
    const btcOnly = DEFAULT_UNDERLYINGS.filter((u) => u.ticker === 'BTC');
    const path = (underlyings: typeof DEFAULT_UNDERLYINGS, keyed: boolean): (number | null | undefined)[] => {
      const run = world({ hourly: 1 }, keyed, underlyings);
      const out: (number | null | undefined)[] = [];
      for (let i = 0; i < 120; i += 1) {
        run.clock.advance(1000);
        run.engine.syntheticStep();
        out.push(run.engine.underlying()?.priceAt('BTC', run.clock.now()));
      }
      return out;
    };
    expect(path(btcOnly, true)).toEqual(path(DEFAULT_UNDERLYINGS, true));
    expect(path(btcOnly, false)).not.toEqual(path(DEFAULT_UNDERLYINGS, false));
  });

  it('keyedStream: the same base and key give the same stream, another key another one', () => {
    const draw = (p: Prng): number[] => Array.from({ length: 4 }, () => p.nextU32());
    expect(draw(keyedStream(5, 'btc'))).toEqual(draw(keyedStream(5, 'btc')));
    expect(draw(keyedStream(5, 'btc'))).not.toEqual(draw(keyedStream(5, 'eth')));
    expect(draw(keyedStream(5, 'btc'))).not.toEqual(draw(keyedStream(6, 'btc')));
  });
});
