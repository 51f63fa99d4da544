/**
 * Rolling markets in the engine's crypto world: 15-minute and weekly cadences beside hourly and daily (expiries,
 * opening instants, tags), `marketCreated` notices for every market listed after the engine was built (recurring
 * successors, `listStrikeMarket`) and none for the first sets, `type` on `marketResolved`, and run-time listing of a
 * strike market (at the money or at a strike, its checks, the Pyth rule at settlement, no successor, redemption).
 */
import { describe, expect, it } from 'vitest';
import {
  cadenceCovering,
  createEngine,
  cryptoWorldOptions,
  EngineConfigError,
  ManualClock,
  nextExpiry,
  type Cadence,
  type MarketCreatedFrame,
  type MarketResolvedFrame,
  type SimEngine,
} from '../../../src/sim/engine/index.js';
import { account, ALICE, BOB, expectSound, limit, ok, SHARE, tokens, usdc } from './helpers.js';

const T0 = Date.UTC(2026, 0, 1, 12, 20); // Thursday 12:20 UTC
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function cryptoEngine(clock: ManualClock, cadences: readonly Cadence[], extra: { tickers?: readonly string[]; strikesPerExpiry?: number } = {}): SimEngine {
  return createEngine({
    seed: 11,
    clock,
    settlementDelayMs: 0,
    payoutDelayMs: 1000,
    markets: [],
    accounts: [account(ALICE, 1000, { serverManagedWallet: true }), account(BOB, 1000, { serverManagedWallet: true })],
    world: cryptoWorldOptions({ cadences, tickers: extra.tickers ?? ['BTC', 'XRP'], strikesPerExpiry: extra.strikesPerExpiry ?? 2 }),
  });
}

function record(engine: SimEngine): { created: MarketCreatedFrame[]; resolved: MarketResolvedFrame[] } {
  const created: MarketCreatedFrame[] = [];
  const resolved: MarketResolvedFrame[] = [];
  engine.on({ marketCreated: (f) => created.push(f), marketResolved: (f) => resolved.push(f) });
  return { created, resolved };
}

describe('cadences', () => {
  it('finds the next quarter hour, hour, daily and weekly expiry strictly after an instant', () => {
    expect(nextExpiry('15m', T0, 16)).toBe(Date.UTC(2026, 0, 1, 12, 30));
    expect(nextExpiry('15m', Date.UTC(2026, 0, 1, 12, 30), 16)).toBe(Date.UTC(2026, 0, 1, 12, 45));
    expect(nextExpiry('hourly', T0, 16)).toBe(Date.UTC(2026, 0, 1, 13));
    expect(nextExpiry('daily', T0, 16)).toBe(Date.UTC(2026, 0, 1, 16));
    // 2026-01-01 is a Thursday: the next Wednesday 16:00 is Jan 7; from Wednesday 16:00 itself, a week later.
    expect(nextExpiry('weekly', T0, 16)).toBe(Date.UTC(2026, 0, 7, 16));
    expect(nextExpiry('weekly', Date.UTC(2026, 0, 7, 16), 16)).toBe(Date.UTC(2026, 0, 14, 16));
    expect(nextExpiry('weekly', Date.UTC(2026, 0, 7, 15, 59), 16)).toBe(Date.UTC(2026, 0, 7, 16));
    expect(nextExpiry('weekly', T0, 10, 0)).toBe(Date.UTC(2026, 0, 4, 10)); // a Sunday
  });

  it('classifies a lifetime by the shortest cadence that covers it', () => {
    expect(cadenceCovering(5 * 60_000)).toBe('15m');
    expect(cadenceCovering(15 * 60_000)).toBe('15m');
    expect(cadenceCovering(16 * 60_000)).toBe('hourly');
    expect(cadenceCovering(25 * 3_600_000)).toBe('weekly');
    expect(cadenceCovering(30 * 86_400_000)).toBe('weekly');
  });

  it('lists 15-minute and weekly ladders that opened one period before they settle, tagged as the venue tags them', () => {
    const engine = cryptoEngine(new ManualClock(T0), ['15m', 'weekly']);
    const markets = engine.markets();
    expect(markets).toHaveLength(2 * 2 * 2);
    const quarter = markets.filter((m) => m.oracle?.cadence === '15m');
    expect(new Set(quarter.map((m) => m.expirationMs))).toEqual(new Set([Date.UTC(2026, 0, 1, 12, 30)]));
    expect(new Set(quarter.map((m) => m.createdAtMs))).toEqual(new Set([Date.UTC(2026, 0, 1, 12, 15)]));
    for (const m of quarter) {
      expect(m.tags).toEqual(['Pricechart', '15 Min', 'Recurring']);
      expect(m.categories).toEqual(['15 Min']);
      expect(m.title).toMatch(/ on Jan 1, 12:30 UTC\?$/);
    }
    const weekly = markets.filter((m) => m.oracle?.cadence === 'weekly');
    expect(new Set(weekly.map((m) => m.expirationMs))).toEqual(new Set([Date.UTC(2026, 0, 7, 16)]));
    expect(new Set(weekly.map((m) => m.createdAtMs))).toEqual(new Set([Date.UTC(2025, 11, 31, 16)]));
    for (const m of weekly) expect(m.tags).toEqual(['Pricechart', 'Weekly', 'Recurring']);
    engine.stop();
  });

  it('settles a 15-minute ladder by the rule, opens the next one 15 minutes later and tells marketCreated listeners', () => {
    const clock = new ManualClock(T0);
    const engine = cryptoEngine(clock, ['15m']);
    const seen = record(engine);
    const first = engine.markets();
    expect(seen.created).toEqual([]); // the first sets were listed before anyone could listen
    clock.advanceTo(Date.UTC(2026, 0, 1, 12, 30));
    const u = engine.underlying();
    if (!u) throw new Error('no world');
    for (const m of first) {
      const after = engine.market(m.slug);
      expect(after?.status).toBe('RESOLVED');
      expect(after?.winningOutcomeIndex).toBe((u.priceAt(m.oracle?.ticker ?? '', m.expirationMs) ?? 0) > Number(m.oracle?.strike) ? 0 : 1);
    }
    expect(seen.resolved.map((f) => f.slug).sort()).toEqual(first.map((m) => m.slug).sort());
    for (const f of seen.resolved) expect(f.type).toBe('CLOB');
    const next = engine.markets().filter((m) => m.status !== 'RESOLVED');
    expect(next).toHaveLength(4);
    expect(new Set(next.map((m) => m.expirationMs))).toEqual(new Set([Date.UTC(2026, 0, 1, 12, 45)]));
    expect(seen.created.map((f) => f.slug).sort()).toEqual(next.map((m) => m.slug).sort());
    const frame = seen.created[0];
    const market = next.find((m) => m.slug === frame?.slug);
    expect(frame).toEqual({ slug: market?.slug, title: market?.title, type: 'CLOB', categoryIds: [40], createdAt: new Date(Date.UTC(2026, 0, 1, 12, 30)).toISOString() });
    expect(frame?.createdAt).toMatch(ISO_MS);
    engine.stop();
  });
});

describe('listing a strike market at run time', () => {
  it('lists at the money (the published spot with the ticker decimals) or at a strike, tells listeners, and answers the market', () => {
    const clock = new ManualClock(T0);
    const engine = cryptoEngine(clock, ['hourly']);
    const seen = record(engine);
    clock.advance(90_000);
    const u = engine.underlying();
    if (!u) throw new Error('no world');
    const atm = engine.listStrikeMarket({ ticker: 'XRP', settlesAt: Date.UTC(2026, 0, 1, 12, 30) });
    if (!atm.ok) throw new Error(JSON.stringify(atm.body));
    expect(atm.market.oracle?.strike).toBe((u.publishedAt('XRP', clock.now()) ?? 0).toFixed(4));
    expect(atm.market.oracle?.cadence).toBe('15m');
    expect(atm.market.oracle?.recurring).toBe(false);
    expect(atm.market.tags).toEqual(['Pricechart', '15 Min']);
    expect(atm.market.createdAtMs).toBe(clock.now());
    expect(atm.market.slug).toMatch(new RegExp(`^dollarxrp-above-dollar\\d+-on-jan-1-1230-utc-${clock.now()}$`));
    const given = engine.listStrikeMarket({ ticker: 'BTC', settlesAt: Date.UTC(2026, 0, 2, 9), strike: '90000.5' });
    if (!given.ok) throw new Error(JSON.stringify(given.body));
    expect(given.market.oracle?.strike).toBe('90000.50');
    expect(given.market.title).toBe('💎 $BTC above $90000.50 on Jan 2, 09:00 UTC?');
    expect(given.market.tags).toEqual(['Pricechart', 'Daily']);
    expect(engine.market(given.market.slug)?.tradable).toBe(true);
    expect(seen.created.map((f) => f.slug)).toEqual([atm.market.slug, given.market.slug]);
    expect(seen.created[1]).toEqual({ slug: given.market.slug, title: given.market.title, type: 'CLOB', categoryIds: [43], createdAt: new Date(clock.now()).toISOString() });
    engine.stop();
  });

  it('refuses a bad listing with 400 naming the field, a slug already listed with 409, and changes nothing', () => {
    const clock = new ManualClock(T0);
    const engine = cryptoEngine(clock, ['hourly']);
    const before = engine.markets().length;
    const field = (input: Parameters<SimEngine['listStrikeMarket']>[0]): string => {
      const outcome = engine.listStrikeMarket(input);
      if (outcome.ok || typeof outcome.body.message === 'string') throw new Error(`expected a field failure, got ${JSON.stringify(outcome)}`);
      expect(outcome.status).toBe(400);
      return outcome.body.message.map((m) => m.field).join(',');
    };
    const future = Date.UTC(2026, 0, 1, 13, 5);
    expect(field({ ticker: 'DOGE', settlesAt: future })).toBe('ticker');
    expect(field({ ticker: 'ETH', settlesAt: future })).toBe('ticker'); // not one of this world's tickers
    expect(field({ ticker: 'BTC', settlesAt: T0 })).toBe('settlesAt');
    expect(field({ ticker: 'BTC', settlesAt: T0 - 60_000 })).toBe('settlesAt');
    expect(field({ ticker: 'BTC', settlesAt: future + 1 })).toBe('settlesAt');
    expect(field({ ticker: 'BTC', settlesAt: Number.NaN })).toBe('settlesAt');
    expect(field({ ticker: 'BTC', settlesAt: future, strike: '0' })).toBe('strike');
    expect(field({ ticker: 'BTC', settlesAt: future, strike: '-5' })).toBe('strike');
    expect(field({ ticker: 'BTC', settlesAt: future, strike: '90000.123' })).toBe('strike');
    expect(field({ ticker: 'XRP', settlesAt: future, strike: '0.00001' })).toBe('strike');
    expect(field({ ticker: 'BTC', settlesAt: future, strike: '1e5' })).toBe('strike');
    expect(engine.markets()).toHaveLength(before);
    const listed = engine.listStrikeMarket({ ticker: 'BTC', settlesAt: future, strike: '90000' });
    expect(listed.ok).toBe(true);
    const again = engine.listStrikeMarket({ ticker: 'BTC', settlesAt: future, strike: '90000.00' });
    expect(again.ok ? 0 : again.status).toBe(409);
    expect(engine.markets()).toHaveLength(before + 1);
    engine.stop();

    const generic = createEngine({ seed: 1, clock: new ManualClock(T0), settlementDelayMs: 0, markets: [], accounts: [] });
    const outcome = generic.listStrikeMarket({ ticker: 'BTC', settlesAt: future });
    expect(JSON.stringify(outcome.ok ? null : outcome.body.message)).toMatch(/^\[\{"field":"ticker","message":"[^"]*no crypto world[^"]*"\}\]$/);
    generic.stop();
  });

  it('settles by the Pyth rule at its minute, opens no successor, and redeems', () => {
    const clock = new ManualClock(T0);
    const engine = cryptoEngine(clock, ['daily'], { tickers: ['BTC'], strikesPerExpiry: 1 });
    const settlesAt = Date.UTC(2026, 0, 1, 12, 27);
    const listed = engine.listStrikeMarket({ ticker: 'BTC', settlesAt });
    if (!listed.ok) throw new Error(JSON.stringify(listed.body));
    const m = listed.market;
    // A pair minted between two accounts: ALICE holds YES, BOB NO.
    ok(engine.place(limit(m, ALICE, 'YES', 'BUY', 500, 10)));
    ok(engine.place(limit(m, BOB, 'NO', 'BUY', 500, 10)));
    expect(tokens(engine, ALICE, m.yesTokenId).total).toBe(10 * SHARE);
    const count = engine.markets().length;
    clock.advanceTo(settlesAt);
    const price = engine.underlying()?.priceAt('BTC', settlesAt) ?? 0;
    const after = engine.market(m.slug);
    expect(after?.status).toBe('RESOLVED');
    const yesWon = price > Number(m.oracle?.strike);
    expect(after?.winningOutcomeIndex).toBe(yesWon ? 0 : 1);
    expect(engine.markets()).toHaveLength(count); // no successor for a one-off listing
    clock.advance(1000); // the payout is posted
    const winner = yesWon ? ALICE : BOB;
    const before = usdc(engine, winner).total;
    const redeemed = engine.redeem(winner, m.conditionId);
    expect(redeemed.ok).toBe(true);
    expect(usdc(engine, winner).total - before).toBe(10 * SHARE);
    expectSound(engine);
    engine.stop();
  });
});

describe('crypto world options', () => {
  it('builds the paper world by default and refuses bad settings naming the field', () => {
    const world = cryptoWorldOptions();
    expect(world.underlying.underlyings.map((u) => u.ticker)).toEqual(['BTC', 'ETH', 'SOL', 'XRP']);
    expect(world.markets.cadences).toEqual(['hourly', 'daily']);
    expect(world.markets.strikesPerExpiry).toBe(3);
    expect(world.underlying.leadMs).toBe(1500);
    expect(world.underlying.makerLagMs).toBe(20_000);
    const fieldOf = (fn: () => unknown): string => {
      try {
        fn();
      } catch (error) {
        if (error instanceof EngineConfigError) return error.field;
      }
      return 'no error';
    };
    expect(fieldOf(() => cryptoWorldOptions({ tickers: ['DOGE'] }))).toBe('tickers');
    expect(fieldOf(() => cryptoWorldOptions({ tickers: [] }))).toBe('tickers');
    expect(fieldOf(() => cryptoWorldOptions({ cadences: ['hourly', 'hourly'] }))).toBe('cadences');
    expect(fieldOf(() => cryptoWorldOptions({ strikesPerExpiry: 0 }))).toBe('strikesPerExpiry');
    expect(fieldOf(() => cryptoWorldOptions({ informedLeadMs: -1 }))).toBe('informedLeadMs');
  });
});
