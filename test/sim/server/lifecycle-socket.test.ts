/**
 * The market lifecycle channel on a real simulator (127.0.0.1, free port, a manual clock) over a plain
 * socket.io-client: `subscribe_market_lifecycle` confirmed by `system`; `marketCreated` for markets listed by
 * `POST /_sim/markets` and for recurring successors, only to subscribers; `marketResolved` once per socket with its
 * `type`; unsubscribing (the event and the official client's acknowledged `unsubscribe`); subscriptions forgotten on
 * disconnect; the `lifecycleAuth` and `marketResolvedAudience` settings. A socket's events arrive in order, so a
 * `system` confirmation asked for after an action proves what did NOT arrive before it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cryptoWorldOptions, ManualClock } from '../../../src/sim/engine/index.js';
import { DEFAULT_SIM_SETTINGS, startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { call, obj } from '../../support/sim-http.js';
import { connectMarkets, type SocketRecorder } from '../../support/sim-socket.js';

const T0 = Date.UTC(2026, 0, 1, 12, 20);
let clock: ManualClock;
let sim: RunningSimulator;
const open: SocketRecorder[] = [];
let minute = 0;

beforeAll(async () => {
  clock = new ManualClock(T0);
  sim = await startSimulator({
    seed: 5,
    clock,
    world: cryptoWorldOptions({ tickers: ['BTC', 'ETH'], cadences: ['hourly'], strikesPerExpiry: 1 }),
    rateLimit: false,
    feedCoalesceMs: 20,
    settlementDelayMs: 20,
    payoutDelayMs: 20,
  });
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  sim.control.updateSettings(DEFAULT_SIM_SETTINGS);
});
afterAll(async () => {
  await sim.close();
});

async function connect(options: Parameters<typeof connectMarkets>[1] = {}): Promise<SocketRecorder> {
  const s = await connectMarkets(sim.socketUrl, options);
  open.push(s);
  await s.waitFor('system', (p) => obj(p)['message'] === 'Connected');
  return s;
}

async function subscribeLifecycle(s: SocketRecorder): Promise<void> {
  const mark = s.mark();
  s.socket.emit('subscribe_market_lifecycle');
  await s.waitFor('system', (p) => obj(p)['event'] === 'subscribe_market_lifecycle', 3_000, mark);
}

/** Everything sent to `s` before this call has arrived once it resolves. */
async function barrier(s: SocketRecorder): Promise<void> {
  const mark = s.mark();
  s.socket.emit('subscribe_market_prices', { marketSlugs: [] });
  await s.waitFor('system', (p) => obj(p)['event'] === 'subscribe_market_prices', 3_000, mark);
}

/** Lists a BTC strike market settling a few minutes from the clock's now (a fresh minute each time). */
async function listMarket(): Promise<Record<string, unknown>> {
  minute += 1;
  const settlesAt = (Math.floor(clock.now() / 60_000) + 2 + minute) * 60_000;
  const r = await call(sim.baseUrl, 'POST', '/_sim/markets', { body: { ticker: 'BTC', settlesAt } });
  expect(r.status, r.text).toBe(201);
  return obj(r.body);
}

const createdSlugs = (s: SocketRecorder, from = 0): string[] => s.events.slice(from).filter((e) => e.name === 'marketCreated').map((e) => String(obj(e.payload)['slug']));

describe('market lifecycle channel', () => {
  it('confirms the subscription and sends marketCreated, in the official client shape, to subscribers only', async () => {
    const s = await connect();
    const bystander = await connect();
    await subscribeLifecycle(s);
    const listed = await listMarket();
    const frame = obj(await s.waitFor('marketCreated'));
    expect(frame).toEqual({ slug: listed['slug'], title: listed['title'], type: 'CLOB', categoryIds: [40], createdAt: listed['createdAt'] });
    expect(frame['createdAt']).toBe(new Date(clock.now()).toISOString());
    await barrier(bystander);
    expect(bystander.named('marketCreated')).toEqual([]);
  });

  it('sends marketCreated for every recurring successor and marketResolved once per market, with its type', async () => {
    const s = await connect();
    await subscribeLifecycle(s);
    const live = sim.engine.markets().filter((m) => m.tradable);
    const listed = await listMarket();
    const mark = s.mark();
    clock.advanceTo(Date.UTC(2026, 0, 1, 13));
    const successors = sim.engine.markets().filter((m) => m.tradable && m.expirationMs === Date.UTC(2026, 0, 1, 14));
    expect(successors.map((m) => m.oracle?.ticker).sort()).toEqual(['BTC', 'ETH']);
    await barrier(s);
    expect(createdSlugs(s, mark).sort()).toEqual(successors.map((m) => m.slug).sort());
    const resolved = s.events.slice(mark).filter((e) => e.name === 'marketResolved').map((e) => obj(e.payload));
    expect(resolved.map((f) => f['slug']).sort()).toEqual([...live.map((m) => m.slug), String(listed['slug'])].sort());
    for (const f of resolved) {
      expect(f['type']).toBe('CLOB');
      expect(['YES', 'NO']).toContain(f['winningOutcome']);
      expect(f['resolutionDate']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('stops after unsubscribe_market_lifecycle, and after the official client\'s acknowledged unsubscribe', async () => {
    const s = await connect();
    await subscribeLifecycle(s);
    let mark = s.mark();
    s.socket.emit('unsubscribe_market_lifecycle');
    await s.waitFor('system', (p) => obj(p)['event'] === 'unsubscribe_market_lifecycle', 3_000, mark);
    await listMarket();
    await barrier(s);
    expect(createdSlugs(s, mark)).toEqual([]);

    await subscribeLifecycle(s);
    const ack: unknown = await s.socket.timeout(3_000).emitWithAck('unsubscribe', { channel: 'subscribe_market_lifecycle' });
    expect(ack).toEqual({ channel: 'subscribe_market_lifecycle', unsubscribed: true });
    mark = s.mark();
    await listMarket();
    await barrier(s);
    expect(createdSlugs(s, mark)).toEqual([]);
    const refused: unknown = await s.socket.timeout(3_000).emitWithAck('unsubscribe', { channel: 'subscribe_weather' });
    expect(obj(refused)['error']).toMatch(/unknown channel/);
  });

  it('forgets the subscription when the connection drops, like every other subscription', async () => {
    const s = await connect({ reconnection: true });
    await subscribeLifecycle(s);
    const mark = s.mark();
    expect((await call(sim.baseUrl, 'POST', '/_sim/socket/drop', { body: { kind: 'transport' } })).status).toBe(200);
    await s.waitFor('system', (p) => obj(p)['message'] === 'Connected', 5_000, mark);
    await listMarket();
    await barrier(s);
    expect(createdSlugs(s, mark)).toEqual([]);
    await subscribeLifecycle(s);
    const again = await listMarket();
    await s.waitFor('marketCreated', (p) => obj(p)['slug'] === again['slug'], 3_000, mark);
  });

  it('refuses a payload, and a public connection when the lifecycleAuth setting is authenticated', async () => {
    const s = await connect();
    s.socket.emit('subscribe_market_lifecycle', { marketSlugs: ['x'] });
    await s.waitFor('exception', (p) => /subscribe_market_lifecycle: takes no payload/.test(String(obj(p)['message'])));

    const put = await call(sim.baseUrl, 'PUT', '/_sim/settings', { body: { lifecycleAuth: 'authenticated' } });
    expect(put.status).toBe(200);
    expect(obj(put.body)['lifecycleAuth']).toBe('authenticated');
    expect(obj(sim.control.state().settings)['lifecycleAuth']).toBe('authenticated');
    const mark = s.mark();
    s.socket.emit('subscribe_market_lifecycle');
    await s.waitFor('exception', (p) => /requires an authenticated connection/.test(String(obj(p)['message'])), 3_000, mark);
    const d = sim.demoAccount;
    const authed = await connect({ creds: { tokenId: d.tokenId, secret: d.secret }, nowMs: clock.now() });
    expect(obj(authed.named('system')[0]?.payload)['authenticated']).toBe(true);
    await subscribeLifecycle(authed);
    const listed = await listMarket();
    await authed.waitFor('marketCreated', (p) => obj(p)['slug'] === listed['slug']);
    await barrier(s);
    expect(createdSlugs(s, mark)).toEqual([]);

    const bad = await call(sim.baseUrl, 'PUT', '/_sim/settings', { body: { lifecycleAuth: 'sometimes' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('lifecycleAuth');
    expect(sim.control.settings().lifecycleAuth).toBe('authenticated');
  });

  it('with marketResolvedAudience subscribers, sends marketResolved to lifecycle and price subscribers only', async () => {
    sim.control.updateSettings({ marketResolvedAudience: 'subscribers' });
    const lifecycle = await connect();
    const prices = await connect();
    const neither = await connect();
    await subscribeLifecycle(lifecycle);
    const listed = await listMarket();
    const slug = String(listed['slug']);
    prices.socket.emit('subscribe_market_prices', { marketSlugs: [slug] });
    await prices.waitFor('orderbookUpdate', (p) => obj(p)['marketSlug'] === slug);
    sim.control.resolveMarket(slug, { winningOutcomeIndex: 0 });
    for (const s of [lifecycle, prices]) expect(obj(await s.waitFor('marketResolved'))).toMatchObject({ slug, type: 'CLOB', winningOutcome: 'YES', winningIndex: 0 });
    await barrier(neither);
    await barrier(lifecycle);
    expect(neither.named('marketResolved')).toEqual([]);
    expect(lifecycle.named('marketResolved')).toHaveLength(1);
  });
});
