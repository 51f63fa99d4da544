/**
 * `POST /_sim/markets {ticker, settlesAt, strike?}` on a real simulator (127.0.0.1, free port, a manual clock): 201
 * with the market in the `GET /markets/{slug}` shape, listed among the active markets, at the money or at a strike;
 * 400 validation bodies naming the field and the value; 409 for a slug already listed; settled at its minute by the
 * Pyth rule. And `createdAt` (ISO-8601 with milliseconds, as recorded) in every answer that carries a market.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cryptoWorldOptions, ManualClock } from '../../../src/sim/engine/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { arr, call, obj, onlyValidationIssue } from '../../support/sim-http.js';

const T0 = Date.UTC(2026, 0, 1, 12, 20);
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
let clock: ManualClock;
let sim: RunningSimulator;

beforeAll(async () => {
  clock = new ManualClock(T0);
  sim = await startSimulator({ seed: 9, clock, world: cryptoWorldOptions({ tickers: ['BTC', 'XRP'], cadences: ['hourly', 'daily'], strikesPerExpiry: 2 }), rateLimit: false });
});
afterAll(async () => {
  await sim.close();
});

const list = (body: unknown) => call(sim.baseUrl, 'POST', '/_sim/markets', { body });

describe('POST /_sim/markets', () => {
  it('lists a strike market at the money: 201 with the GET /markets/{slug} answer, among the active markets', async () => {
    clock.advance(30_000);
    const settlesAt = Date.UTC(2026, 0, 1, 13, 10);
    const r = await list({ ticker: 'BTC', settlesAt });
    expect(r.status).toBe(201);
    const market = obj(r.body);
    const slug = String(market['slug']);
    expect(slug).toMatch(new RegExp(`^dollarbtc-above-dollar\\d+-on-jan-1-1310-utc-${clock.now()}$`));
    const read = await call(sim.baseUrl, 'GET', `/markets/${slug}`);
    expect(read.status).toBe(200);
    expect(market).toEqual(read.body);
    const strike = obj(market['metadata'])['openPrice'];
    const spot = sim.engine.underlying()?.publishedAt('BTC', clock.now()) ?? 0;
    expect(strike).toBe(spot.toFixed(2));
    expect(market['title']).toBe(`💎 $BTC above $${String(strike)} on Jan 1, 13:10 UTC?`);
    expect(market['expirationTimestamp']).toBe(settlesAt);
    expect(market['createdAt']).toBe(new Date(clock.now()).toISOString());
    expect(market['tags']).toEqual(['Pricechart', 'Hourly']);
    expect(market['status']).toBe('FUNDED');
    expect(obj(market['priceOracleMetadata'])['ticker']).toBe('BTC');
    const active = obj((await call(sim.baseUrl, 'GET', '/markets/active?sortBy=newest&limit=25')).body);
    expect(arr(active['data']).map((m) => obj(m)['slug'])[0]).toBe(slug);
  });

  it('lists at a given strike (a number or a string), written with the ticker decimals', async () => {
    const settlesAt = Date.UTC(2026, 0, 2, 0, 0);
    const xrp = await list({ ticker: 'XRP', settlesAt, strike: 2.1 });
    expect(xrp.status).toBe(201);
    expect(obj(obj(xrp.body)['metadata'])['openPrice']).toBe('2.1000');
    expect(obj(xrp.body)['tags']).toEqual(['Pricechart', 'Daily']);
    const btc = await list({ ticker: 'BTC', settlesAt, strike: '95000' });
    expect(obj(obj(btc.body)['metadata'])['openPrice']).toBe('95000.00');
    const again = await list({ ticker: 'BTC', settlesAt, strike: '95000.0' });
    expect(again.status).toBe(409);
  });

  it('refuses bad input with a 400 naming the field and the value, and lists nothing', async () => {
    const before = sim.engine.markets().length;
    const future = Date.UTC(2026, 0, 1, 14);
    const cases: [unknown, string, RegExp][] = [
      [{ ticker: 'DOGE', settlesAt: future }, 'ticker', /one of BTC, XRP.*"DOGE"/],
      [{ ticker: 'BTC', settlesAt: clock.now() - 60_000 }, 'settlesAt', /in the future/],
      [{ ticker: 'BTC', settlesAt: future + 30_000 }, 'settlesAt', new RegExp(`whole minute.*${future + 30_000}`)],
      [{ ticker: 'BTC', settlesAt: future, strike: 0 }, 'strike', /positive/],
      [{ ticker: 'BTC', settlesAt: future, strike: '-1' }, 'strike', /positive decimal.*"-1"/],
      [{ ticker: 'XRP', settlesAt: future, strike: '2.12345' }, 'strike', /at most 4 decimals/],
      [{ ticker: 'BTC', settlesAt: String(future) }, 'settlesAt', /./],
      [{ ticker: 'BTC', settlesAt: future, cadence: 'hourly' }, 'cadence', /should not exist/],
      [{ settlesAt: future }, 'ticker', /./],
    ];
    for (const [body, field, message] of cases) {
      const r = await list(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      const found = onlyValidationIssue(r.body);
      expect(found.field, JSON.stringify(body)).toBe(field);
      expect(found.message, JSON.stringify(body)).toMatch(message);
    }
    expect(sim.engine.markets()).toHaveLength(before);
  });

  it('settles at its minute by the Pyth rule (YES iff the candle opens strictly above the strike)', async () => {
    const settlesAt = Date.UTC(2026, 0, 1, 12, 40);
    const listed = obj((await list({ ticker: 'XRP', settlesAt })).body);
    const slug = String(listed['slug']);
    clock.advanceTo(settlesAt);
    const read = obj((await call(sim.baseUrl, 'GET', `/markets/${slug}`)).body);
    const price = sim.engine.underlying()?.priceAt('XRP', settlesAt) ?? 0;
    expect(read['status']).toBe('RESOLVED');
    expect(read['winningOutcomeIndex']).toBe(price > Number(obj(listed['metadata'])['openPrice']) ? 0 : 1);
  });

  it('needs the crypto world', async () => {
    const generic = await startSimulator({ seed: 3, rateLimit: false });
    try {
      const r = await call(generic.baseUrl, 'POST', '/_sim/markets', { body: { ticker: 'BTC', settlesAt: Math.ceil(Date.now() / 60_000 + 5) * 60_000 } });
      expect(r.status).toBe(400);
      const found = onlyValidationIssue(r.body);
      expect(found.field).toBe('ticker');
      expect(found.message).toMatch(/no crypto world/);
    } finally {
      await generic.close();
    }
  });
});

describe('createdAt in every answer that carries a market', () => {
  it('is the ISO-8601 instant of listing, with milliseconds, in GET /markets/active and GET /markets/{slug}', async () => {
    const page = obj((await call(sim.baseUrl, 'GET', '/markets/active?limit=25')).body);
    const data = arr(page['data']).map(obj);
    expect(data.length).toBeGreaterThan(0);
    for (const entry of data) {
      const market = sim.engine.market(String(entry['slug']));
      expect(entry['createdAt']).toMatch(ISO_MS);
      expect(entry['createdAt']).toBe(new Date(market?.createdAtMs ?? 0).toISOString());
      expect(obj((await call(sim.baseUrl, 'GET', `/markets/${String(entry['slug'])}`)).body)['createdAt']).toBe(entry['createdAt']);
    }
  });

  it('is carried by groups and their submarkets (generic world)', async () => {
    const generic = await startSimulator({ seed: 3, rateLimit: false });
    try {
      const group = generic.engine.groups()[0];
      if (!group) throw new Error('no group');
      const body = obj((await call(generic.baseUrl, 'GET', `/markets/${group.slug}`)).body);
      expect(body['createdAt']).toMatch(ISO_MS);
      for (const sub of arr(body['markets']).map(obj)) expect(sub['createdAt']).toMatch(ISO_MS);
    } finally {
      await generic.close();
    }
  });
});
