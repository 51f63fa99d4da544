/**
 * The crypto world of the engine: seeded underlyings, recurring strike markets shaped like the live venue's, resolved
 * by the strict rule from the simulated price, and a hidden fair value that is the digital on the underlying.
 */
import { describe, expect, it } from 'vitest';
import { parseMarket } from '../../../src/exchange/wire.js';
import { DEFAULT_PYTH_FEED_IDS } from '../../../src/pricing/feed-ids.js';
import { readMarketTerms, termsInputOf } from '../../../src/pricing/terms.js';
import {
  createEngine,
  DEFAULT_CRYPTO_MARKETS,
  DEFAULT_UNDERLYINGS,
  ManualClock,
  nextExpiry,
  strikeLadder,
  trueDigital,
  type EngineOptions,
  type SimEngine,
} from '../../../src/sim/engine/index.js';
import { marketWire } from '../../../src/sim/server/wire-format.js';
import { activeMarketRecordings } from '../../contract/samples.js';

const T0 = Date.UTC(2026, 0, 1, 12, 20); // 12:20 UTC: the hourly set expires at 13:00, the daily at 16:00

function world(clock: ManualClock, overrides: Partial<EngineOptions> = {}): SimEngine {
  return createEngine({
    seed: 7,
    clock,
    settlementDelayMs: 0,
    markets: [],
    accounts: [],
    world: { underlying: { underlyings: DEFAULT_UNDERLYINGS, leadMs: 1500 }, markets: DEFAULT_CRYPTO_MARKETS },
    ...overrides,
  });
}

describe('crypto world: markets', () => {
  it('lists hourly and daily strike ladders for BTC, ETH, SOL and XRP', () => {
    const engine = world(new ManualClock(T0));
    const markets = engine.markets();
    expect(markets).toHaveLength(4 * 2 * 3);
    const hourly = markets.filter((m) => m.oracle?.cadence === 'hourly');
    expect(new Set(hourly.map((m) => m.expirationMs))).toEqual(new Set([Date.UTC(2026, 0, 1, 13)]));
    expect(new Set(markets.filter((m) => m.oracle?.cadence === 'daily').map((m) => m.expirationMs))).toEqual(new Set([Date.UTC(2026, 0, 1, 16)]));
    const btc = hourly.filter((m) => m.oracle?.ticker === 'BTC').map((m) => Number(m.oracle?.strike));
    expect(btc).toEqual([...btc].sort((a, b) => a - b));
    expect(btc[1]).toBeCloseTo(90_000, 0); // the middle strike at the spot
    engine.stop();
  });

  it('answers in the live venue shape: every key of a recorded market, with the same JSON type, and terms the bot reads', () => {
    const engine = world(new ManualClock(T0));
    const live = activeMarketRecordings()[0]!.body as Record<string, unknown>;
    for (const market of engine.markets()) {
      const wire = marketWire(market, engine.book(market.slug));
      for (const [key, value] of Object.entries(live)) {
        expect(wire, `key ${key}`).toHaveProperty(key);
        const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
        // Live nulls are the simulator's nulls or a value (e.g. a NegRisk id); everything else has the same type.
        if (value !== null) expect(kind(wire[key]), `type of ${key}`).toBe(kind(value));
      }
      const parsed = parseMarket(wire, { method: 'GET', pathTemplate: '/markets/active' }, 200);
      const terms = readMarketTerms(termsInputOf(parsed), DEFAULT_PYTH_FEED_IDS);
      if (!terms.ok) throw new Error(`${market.slug}: ${terms.reason}`);
      expect(terms.terms.strike).toBe(market.oracle?.strike);
      expect(terms.terms.settlesAtMs).toBe(market.expirationMs);
      expect(terms.terms.feedId).toBe(DEFAULT_PYTH_FEED_IDS[terms.terms.ticker]);
      expect(wire['tags']).toEqual(['Pricechart', market.oracle?.cadence === 'hourly' ? 'Hourly' : 'Daily', 'Recurring']);
      expect(String(wire['title'])).toMatch(/^💎 \$[A-Z]+ above \$[0-9.]+ on Jan 1, (13|16):00 UTC\?$/);
    }
    engine.stop();
  });

  it('writes strikes with the ticker decimals and spaces a ladder by sigma', () => {
    expect(strikeLadder(90_000, 0.005, 3, 0.5, 2)).toEqual(['89775.00', '90000.00', '90225.00']);
    expect(strikeLadder(2, 0.005, 3, 0.5, 4)).toEqual(['1.9950', '2.0000', '2.0050']);
    expect(nextExpiry('hourly', Date.UTC(2026, 0, 1, 13), 16)).toBe(Date.UTC(2026, 0, 1, 14));
    expect(nextExpiry('daily', Date.UTC(2026, 0, 1, 16), 16)).toBe(Date.UTC(2026, 0, 2, 16));
  });
});

describe('crypto world: underlying and fair value', () => {
  it('is deterministic for a seed and does not depend on how often it is read', () => {
    const a = world(new ManualClock(T0));
    const b = world(new ManualClock(T0));
    a.underlying()?.advanceTo(T0 + 600_000);
    for (let t = T0; t <= T0 + 600_000; t += 7_300) b.underlying()?.advanceTo(t);
    b.underlying()?.advanceTo(T0 + 600_000);
    expect(a.underlying()?.priceAt('BTC', T0 + 600_000)).toBe(b.underlying()?.priceAt('BTC', T0 + 600_000));
    a.stop();
    b.stop();
  });

  it('has the configured volatility (realised over a seeded day)', () => {
    const clock = new ManualClock(T0);
    const engine = createEngine({
      seed: 3,
      clock,
      settlementDelayMs: 0,
      markets: [],
      accounts: [],
      world: { underlying: { underlyings: [{ ...DEFAULT_UNDERLYINGS[0]!, jumpsPerDay: 0 }], leadMs: 0, historyMs: 90_000_000 }, markets: { ...DEFAULT_CRYPTO_MARKETS, recurring: false } },
    });
    const u = engine.underlying()!;
    u.advanceTo(T0 + 86_400_000);
    let sum = 0;
    for (let s = 1; s <= 86_400; s += 1) sum += Math.log(u.priceAt('BTC', T0 + s * 1000)! / u.priceAt('BTC', T0 + (s - 1) * 1000)!) ** 2;
    const realised = Math.sqrt((sum / 86_400) * 365 * 86_400);
    expect(realised).toBeGreaterThan(0.48);
    expect(realised).toBeLessThan(0.52);
    engine.stop();
  });

  it('publishes the price leadMs late, and the hidden fair value is the digital on the TRUE price', () => {
    const clock = new ManualClock(T0);
    const engine = world(clock);
    clock.advance(120_000);
    const u = engine.underlying()!;
    u.advanceTo(clock.now());
    expect(u.publishedAt('BTC', clock.now())).toBe(u.priceAt('BTC', clock.now() - 1500));
    const market = engine.markets().find((m) => m.oracle?.ticker === 'BTC' && m.oracle.cadence === 'hourly')!;
    const expected = trueDigital(u.priceAt('BTC', clock.now())!, Number(market.oracle!.strike), (market.expirationMs - clock.now()) / 1000, u.variancePerSecond('BTC')!);
    expect(engine.fairValueTicks(market.slug)).toBe(Math.round(expected * 1000));
    engine.stop();
  });
});

describe('crypto world: settlement and recurrence', () => {
  it('resolves each market at its instant by the strict rule, and opens the next hour', () => {
    const clock = new ManualClock(T0);
    const engine = world(clock);
    const hourly = engine.markets().filter((m) => m.oracle?.cadence === 'hourly');
    clock.advanceTo(Date.UTC(2026, 0, 1, 13));
    const u = engine.underlying()!;
    for (const m of hourly) {
      const after = engine.market(m.slug)!;
      const price = u.priceAt(m.oracle!.ticker, m.expirationMs)!;
      expect(after.status).toBe('RESOLVED');
      expect(after.winningOutcomeIndex).toBe(price > Number(m.oracle!.strike) ? 0 : 1);
    }
    const next = engine.markets().filter((m) => m.oracle?.cadence === 'hourly' && m.status !== 'RESOLVED');
    expect(next).toHaveLength(12);
    expect(new Set(next.map((m) => m.expirationMs))).toEqual(new Set([Date.UTC(2026, 0, 1, 14)]));
    // The daily set is untouched.
    expect(engine.markets().filter((m) => m.oracle?.cadence === 'daily' && m.status === 'RESOLVED')).toHaveLength(0);
    engine.stop();
  });

  it('tells its listeners of each market it lists while running (marketListed), after the settlement that opened it', () => {
    const clock = new ManualClock(T0);
    const engine = world(clock);
    const heard: string[] = [];
    engine.on({
      marketListed: (slug) => heard.push(`listed ${engine.market(slug)?.status} ${engine.market(slug)?.expirationMs === Date.UTC(2026, 0, 1, 14)}`),
      marketResolved: (frame) => heard.push(`resolved ${frame.slug.slice(0, 6)}`),
    });
    clock.advanceTo(Date.UTC(2026, 0, 1, 12, 59));
    expect(heard).toEqual([]);
    clock.advanceTo(Date.UTC(2026, 0, 1, 13));
    // Each ticker's ladder opens once the first of its expiring markets settles: 4 tickers × 3 strikes.
    expect(heard.filter((h) => h.startsWith('listed'))).toEqual(Array.from({ length: 12 }, () => 'listed FUNDED true'));
    expect(heard.filter((h) => h.startsWith('resolved'))).toHaveLength(12);
    expect(heard.findIndex((h) => h.startsWith('resolved'))).toBeLessThan(heard.findIndex((h) => h.startsWith('listed')));
    engine.stop();
  });

  it('settles an exact tie as NO (above is strict)', () => {
    const clock = new ManualClock(T0);
    const probe = world(new ManualClock(T0));
    const price = (() => {
      probe.underlying()!.advanceTo(Date.UTC(2026, 0, 1, 13));
      return probe.underlying()!.priceAt('BTC', Date.UTC(2026, 0, 1, 13))!;
    })();
    probe.stop();
    // A market whose strike is exactly the settlement price (as a float): NO.
    const engine = world(clock);
    const template = engine.markets().find((m) => m.oracle?.ticker === 'BTC' && m.oracle.cadence === 'hourly')!;
    engine.stop();
    const tie = { ...template, id: 99, slug: 'btc-tie', conditionId: `0x${'11'.repeat(32)}`, yesTokenId: '901', noTokenId: '902', oracle: { ...template.oracle!, strike: String(price) } };
    const clock2 = new ManualClock(T0);
    const engine2 = world(clock2, { markets: [tie] });
    clock2.advanceTo(Date.UTC(2026, 0, 1, 13));
    expect(engine2.underlying()!.priceAt('BTC', Date.UTC(2026, 0, 1, 13))).toBe(price);
    expect(engine2.market('btc-tie')?.winningOutcomeIndex).toBe(1);
    engine2.stop();
  });
});
