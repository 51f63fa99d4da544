import { afterEach, describe, expect, it } from 'vitest';
import type { FeedConnectionState } from '../../../src/book/feed-port.js';
import { systemScheduler, type Scheduler } from '../../../src/core/clock.js';
import type { BookSnapshot } from '../../../src/book/snapshot.js';
import { isoTimestamp } from '../../../src/exchange/auth.js';
import { mulberry32 } from '../../../src/core/random.js';
import {
  backoffDelay,
  MarketFeed,
  resolveBackoff,
  type MarketFeedObserver,
  type MarketFeedOptions,
} from '../../../src/exchange/socket.js';
import { snap } from '../book/helpers/books.js';
import { TestSocketServer, waitFor, type TestServerOptions } from '../book/helpers/socket-server.js';
import type { OrderEvent } from '../../../src/core/venue-rules/index.js';

const CREDENTIALS = { tokenId: 'tok-1', secret: Buffer.from('feed-test-secret').toString('base64') };
const FAST_BACKOFF = { initialMs: 20, maxMs: 200, jitter: 0.5, seed: 7, resetAfterMs: 60_000 };

/** Real timers, but a clock the test moves (for handshake timestamps). */
class SteppedClock implements Scheduler {
  constructor(public nowMs: number) {}
  now(): number {
    return this.nowMs;
  }
  schedule(delayMs: number, callback: () => void): () => void {
    return systemScheduler.schedule(delayMs, callback);
  }
}

interface Counters extends MarketFeedObserver {
  malformed: Array<[string, string]>;
  unknown: string[];
  frames: string[];
  connectErrors: string[];
  reconnectRequests: string[];
}

function counters(): Counters {
  const c: Counters = {
    malformed: [],
    unknown: [],
    frames: [],
    connectErrors: [],
    reconnectRequests: [],
    onMalformedFrame: (event, path) => c.malformed.push([event, path]),
    onUnknownEvent: (event) => c.unknown.push(event),
    onFrame: (event) => c.frames.push(event),
    onConnectError: (message) => c.connectErrors.push(message),
    onReconnectRequested: (reason) => c.reconnectRequests.push(reason),
  };
  return c;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function server(options: TestServerOptions = {}): Promise<TestSocketServer> {
  const s = await TestSocketServer.start(options);
  cleanups.push(() => s.close());
  return s;
}

function feed(options: MarketFeedOptions): MarketFeed {
  const f = new MarketFeed(options);
  cleanups.push(() => f.close());
  return f;
}

function recordStates(f: MarketFeed): FeedConnectionState[] {
  const states: FeedConnectionState[] = [];
  f.onStateChange((s) => states.push(s));
  return states;
}

describe('MarketFeed (public mode) against a Socket.IO server on 127.0.0.1:0', () => {
  it('connects over websocket to /markets, subscribes the full market set on connect, and delivers typed books', async () => {
    const srv = await server();
    const f = feed({ url: srv.url, backoff: FAST_BACKOFF });
    const books: Array<[string, BookSnapshot]> = [];
    f.onBook((slug, snapshot) => books.push([slug, snapshot]));
    const states = recordStates(f);
    f.setMarkets(['m1', 'm2']);
    f.start();
    await waitFor(() => f.connectionState().status === 'connected', 3_000, 'connected');
    await waitFor(() => srv.emitsOf('subscribe_market_prices').length === 1);
    expect(srv.emitsOf('subscribe_market_prices')).toEqual([{ marketSlugs: ['m1', 'm2'] }]);
    expect(srv.emitsOf('subscribe_positions')).toEqual([]); // public mode
    expect(srv.emitsOf('subscribe_order_events')).toEqual([]);
    expect(states.map((s) => s.status)).toEqual(['connecting', 'connected']);
    expect(f.connectionState()).toMatchObject({ status: 'connected', downSinceMs: null, connects: 1 });

    srv.setBook('m1', snap([[555, 7.123]], [[560, 1]], 0.5575));
    await waitFor(() => books.length === 1);
    expect(books[0]).toEqual(['m1', { bids: [{ priceTicks: 555, sizeRaw: 7_123_000 }], asks: [{ priceTicks: 560, sizeRaw: 1_000_000 }], adjustedMidpoint: 0.5575, tokenId: '123' }]);
  });

  it('subscribes to the market lifecycle channel on every connect when asked, and delivers typed marketCreated frames', async () => {
    const srv = await server();
    const c = counters();
    const f = feed({ url: srv.url, backoff: FAST_BACKOFF, subscribeLifecycle: true, observer: c });
    const created: unknown[] = [];
    f.onMarketCreated((frame) => created.push(frame));
    f.start();
    await waitFor(() => srv.emitsOf('subscribe_market_lifecycle').length === 1, 3_000, 'lifecycle subscribed');
    srv.emitToAll('marketCreated', { slug: 'btc-above-90000', title: '$BTC above $90000?', type: 'clob', categoryIds: [41], createdAt: '2026-11-26T19:00:00.000Z' });
    srv.emitToAll('marketCreated', { slug: 'bad', title: 'bad', type: 'ORDERBOOK', createdAt: 1 });
    await waitFor(() => created.length === 1 && c.malformed.length === 1, 3_000, 'frames handled');
    expect(created).toEqual([{ slug: 'btc-above-90000', title: '$BTC above $90000?', type: 'CLOB', groupSlug: null, categoryIds: [41], createdAtMs: Date.parse('2026-11-26T19:00:00.000Z') }]);
    expect(c.malformed).toEqual([['marketCreated', 'type']]);
    srv.dropAll();
    await waitFor(() => srv.emitsOf('subscribe_market_lifecycle').length === 2, 5_000, 'lifecycle subscribed again after the reconnect');
  });

  it('does not subscribe to the lifecycle channel unless asked', async () => {
    const srv = await server();
    const f = feed({ url: srv.url, backoff: FAST_BACKOFF });
    f.setMarkets(['a']);
    f.start();
    await waitFor(() => srv.emitsOf('subscribe_market_prices').length === 1);
    expect(srv.emitsOf('subscribe_market_lifecycle')).toEqual([]);
  });

  it('re-emits the FULL set when the subscription changes while connected', async () => {
    const srv = await server();
    const f = feed({ url: srv.url, backoff: FAST_BACKOFF });
    f.setMarkets(['a']);
    f.start();
    await waitFor(() => srv.emitsOf('subscribe_market_prices').length === 1);
    f.setMarkets(['a', 'b']);
    f.setMarkets(['a', 'b']); // unchanged: nothing sent
    f.setMarkets(['b']);
    await waitFor(() => srv.emitsOf('subscribe_market_prices').length === 3);
    expect(srv.emitsOf('subscribe_market_prices')).toEqual([{ marketSlugs: ['a'] }, { marketSlugs: ['a', 'b'] }, { marketSlugs: ['b'] }]);
    expect(() => f.setMarkets(['ok', ' '])).toThrow(/markets\[1\]/);
  });

  it('reconnects after the server drops every connection and resubscribes the full set', async () => {
    const srv = await server();
    const f = feed({ url: srv.url, backoff: FAST_BACKOFF });
    const states = recordStates(f);
    f.setMarkets(['a', 'b']);
    f.start();
    await waitFor(() => srv.emitsOf('subscribe_market_prices').length === 1);
    srv.dropAll();
    await waitFor(() => f.connectionState().connects === 2, 3_000, 'second connection');
    await waitFor(() => srv.emitsOf('subscribe_market_prices').length === 2);
    expect(srv.emitsOf('subscribe_market_prices')).toEqual([{ marketSlugs: ['a', 'b'] }, { marketSlugs: ['a', 'b'] }]);
    expect(states.map((s) => s.status)).toEqual(['connecting', 'connected', 'disconnected', 'connecting', 'connected']);
    // downSinceMs stayed at the moment the first connection was lost, across disconnected → connecting.
    expect(states[3]!.downSinceMs).toBe(states[2]!.sinceMs);
    expect(srv.connectedCount()).toBe(1);
  });

  it('drops malformed frames (counted every time, logged once per kind), ignores unknown events, and keeps going', async () => {
    const srv = await server();
    const c = counters();
    const warnings: Array<Record<string, unknown>> = [];
    const f = feed({
      url: srv.url,
      backoff: FAST_BACKOFF,
      observer: c,
      logger: { info: () => undefined, warn: (obj, msg) => void (msg.includes('malformed') && warnings.push(obj)) },
    });
    const books: string[] = [];
    f.onBook((slug) => books.push(slug));
    f.setMarkets(['m']);
    f.start();
    await waitFor(() => f.connectionState().status === 'connected');
    const bad = (price: string) => ({ marketSlug: 'm', orderbook: { bids: [{ price, size: '1' }], asks: [] } });
    srv.emitToAll('orderbookUpdate', bad('0.1234'));
    srv.emitToAll('orderbookUpdate', bad('1.5'));
    srv.emitToAll('orderbookUpdate', 'garbage');
    srv.emitToAll('orderEvent', { source: 'OME', type: 'NOPE' });
    srv.emitToAll('newPriceData', { whatever: 1 });
    srv.emitToAll('newPriceData', { whatever: 2 });
    srv.emitToAll('orderbookUpdate', { marketSlug: 'm', orderbook: { bids: [{ price: '0.5', size: '1' }], asks: [] } });
    await waitFor(() => books.length === 1);
    expect(c.malformed).toEqual([
      ['orderbookUpdate', 'orderbook.bids[0].price'],
      ['orderbookUpdate', 'orderbook.bids[0].price'],
      ['orderbookUpdate', '(frame)'],
      ['orderEvent', 'type'],
    ]);
    expect(c.unknown).toEqual(['newPriceData', 'newPriceData']);
    // One log line per (event, field path) kind, carrying the offending value.
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatchObject({ event: 'orderbookUpdate', path: 'orderbook.bids[0].price', value: '"0.1234"' });
    expect(f.connectionState().status).toBe('connected');
  });

  it('keeps delivering when a listener throws', async () => {
    const srv = await server();
    const errors: string[] = [];
    const f = feed({ url: srv.url, backoff: FAST_BACKOFF, observer: { onListenerError: (e) => errors.push(e) } });
    const got: string[] = [];
    f.onBook(() => {
      throw new Error('consumer bug');
    });
    f.onBook((slug) => got.push(slug));
    f.setMarkets(['m']);
    f.start();
    await waitFor(() => srv.emitsOf('subscribe_market_prices').length === 1);
    srv.setBook('m', snap([[500, 1]], []));
    srv.setBook('m', snap([[501, 1]], []));
    await waitFor(() => got.length === 2);
    expect(errors).toEqual(['orderbookUpdate', 'orderbookUpdate']);
  });

  it('reconnect() replaces a live connection; close() stops for good', async () => {
    const srv = await server();
    const c = counters();
    const f = feed({ url: srv.url, backoff: FAST_BACKOFF, observer: c });
    f.setMarkets(['m']);
    f.start();
    await waitFor(() => f.connectionState().status === 'connected');
    f.reconnect('frozen feed detected on m');
    await waitFor(() => f.connectionState().connects === 2);
    expect(c.reconnectRequests).toEqual(['frozen feed detected on m']);
    await waitFor(() => srv.emitsOf('subscribe_market_prices').length === 2);
    f.close();
    expect(f.connectionState()).toMatchObject({ status: 'disconnected', closed: true });
    await waitFor(() => srv.connectedCount() === 0);
    srv.dropAll();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(f.connectionState().connects).toBe(2);
    f.reconnect('ignored after close');
    expect(c.reconnectRequests).toHaveLength(1);
  });

  it('keeps retrying with backoff while nothing listens, and close() ends the retries', async () => {
    const srv = await server();
    const url = srv.url;
    await srv.close();
    const attempts: number[] = [];
    const c = counters();
    const f = feed({ url, backoff: FAST_BACKOFF, observer: { ...c, onConnectAttempt: (n) => attempts.push(n) } });
    f.start();
    await waitFor(() => attempts.length >= 4, 5_000, 'four attempts');
    expect(attempts.slice(0, 4)).toEqual([0, 1, 2, 3]);
    expect(c.connectErrors.length).toBeGreaterThanOrEqual(3);
    expect(f.connectionState().status).not.toBe('connected');
    f.close();
    const after = attempts.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(attempts.length).toBe(after);
  });

  it('validates its options with typed errors', () => {
    expect(() => new MarketFeed({ url: 'ftp://x' })).toThrow(/feed\.url/);
    expect(() => new MarketFeed({ url: 'http://127.0.0.1:1', connectTimeoutMs: 0 })).toThrow(/connectTimeoutMs/);
    expect(() => resolveBackoff({ jitter: 2 })).toThrow(/jitter/);
    expect(() => resolveBackoff({ initialMs: 100, maxMs: 50 })).toThrow(/maxMs/);
  });
});

describe('MarketFeed (authenticated mode)', () => {
  it('signs every handshake afresh: a reconnect 31 s later is accepted with a new timestamp', async () => {
    const clock = new SteppedClock(Date.parse('2026-03-23T12:00:00.000Z'));
    const srv = await server({ auth: { credentials: CREDENTIALS, now: () => clock.now() } });
    const f = feed({ url: srv.url, credentials: CREDENTIALS, scheduler: clock, backoff: FAST_BACKOFF });
    f.setMarkets(['m']);
    f.start();
    await waitFor(() => f.connectionState().connects === 1);
    clock.nowMs += 31_000;
    srv.dropAll();
    await waitFor(() => f.connectionState().connects === 2, 3_000, 'reconnect accepted');
    const accepted = srv.handshakes.filter((h) => h.accepted);
    expect(accepted.map((h) => h.timestamp)).toEqual([
      isoTimestamp(Date.parse('2026-03-23T12:00:00.000Z')),
      isoTimestamp(Date.parse('2026-03-23T12:00:31.000Z')),
    ]);
    expect(srv.handshakes.every((h) => h.accepted)).toBe(true);
  });

  it('retries a rejected handshake with fresh headers instead of replaying the stale ones', async () => {
    const serverNow = { ms: Date.parse('2026-03-23T12:00:00.000Z') };
    const clock = new SteppedClock(serverNow.ms - 120_000); // client clock two minutes behind
    const srv = await server({ auth: { credentials: CREDENTIALS, now: () => serverNow.ms } });
    const c = counters();
    const logged: string[] = [];
    const logger = {
      info: (obj: Record<string, unknown>, msg: string) => logged.push(JSON.stringify([obj, msg])),
      warn: (obj: Record<string, unknown>, msg: string) => logged.push(JSON.stringify([obj, msg])),
    };
    const f = feed({ url: srv.url, credentials: CREDENTIALS, scheduler: clock, backoff: FAST_BACKOFF, observer: c, logger });
    f.start();
    await waitFor(() => c.connectErrors.length >= 1, 3_000, 'first rejection');
    clock.nowMs = serverNow.ms; // clock fixed (e.g. NTP)
    await waitFor(() => f.connectionState().status === 'connected', 3_000, 'connected after fix');
    expect(srv.handshakes[0]!.accepted).toBe(false);
    expect(srv.handshakes.at(-1)).toMatchObject({ accepted: true, timestamp: isoTimestamp(serverNow.ms) });
    // The failure was logged, without the secret or any signed header.
    expect(logged.some((line) => line.includes('connection attempt failed'))).toBe(true);
    expect(logged.join('\n')).not.toContain(CREDENTIALS.secret);
    expect(logged.join('\n')).not.toMatch(/signature/i);
  });

  it('subscribes positions and order events, and delivers typed order events, positions and resolutions', async () => {
    const clock = new SteppedClock(Date.now());
    const srv = await server({ auth: { credentials: CREDENTIALS, now: () => clock.now() } });
    const f = feed({ url: srv.url, credentials: CREDENTIALS, scheduler: clock, backoff: FAST_BACKOFF });
    const events: OrderEvent[] = [];
    const positions: string[] = [];
    const resolved: string[] = [];
    const exceptions: Array<string | null> = [];
    f.onOrderEvent((e) => events.push(e));
    f.onPositions((p) => positions.push(p.marketSlug));
    f.onMarketResolved((r) => resolved.push(`${r.slug}:${r.winningOutcome}`));
    f.onException((e) => exceptions.push(e.message));
    f.setMarkets(['m']);
    f.start();
    await waitFor(() => srv.emitsOf('subscribe_order_events').length === 1);
    expect(srv.emitsOf('subscribe_market_prices')).toEqual([{ marketSlugs: ['m'] }]);
    expect(srv.emitsOf('subscribe_positions')).toEqual([{ marketSlugs: ['m'] }]);
    expect(srv.emitsOf('subscribe_order_events')).toEqual([undefined]);

    srv.emitToAll('orderEvent', {
      source: 'OME', type: 'PLACEMENT', eventId: 1, orderId: 'o1', clientOrderId: 'c1', marketId: '9', token: '123',
      side: 'BUY', price: '0.41', remainingSize: '5000000', timestamp: '2026-03-23T12:00:00.000Z',
    });
    srv.emitToAll('orderEvent', {
      source: 'SETTLEMENT', type: 'MINED', eventId: 'settlement:t1', makerMatches: [], marketSlug: 'm', tokenId: '123',
      side: 'BUY', price: '0.41', amountContracts: '5000000', amountCollateral: '2050000', txHash: '0x01', timestamp: '2026-03-23T12:00:01.000Z',
    });
    srv.emitToAll('positions', { account: '0xabc', marketSlug: 'm', positions: [], type: 'CLOB' });
    srv.emitToAll('marketResolved', { slug: 'm', winningOutcome: 'NO', winningIndex: 1, resolutionDate: '2026-03-24T00:00:00Z' });
    srv.emitToAll('exception', { message: 'Unauthorized' });
    await waitFor(() => exceptions.length === 1);
    expect(events.map((e) => `${e.source}:${e.type}:${e.eventId}`)).toEqual(['OME:PLACEMENT:1', 'SETTLEMENT:MINED:settlement:t1']);
    const [ome, settlement] = events;
    expect(ome).toMatchObject({ remainingRaw: 5_000_000, priceTicks: 410, clientOrderId: 'c1' });
    expect(settlement).toMatchObject({ tradeEventId: 't1', amountCollateralRaw: 2_050_000, txHash: '0x01' });
    expect(positions).toEqual(['m']);
    expect(resolved).toEqual(['m:NO']);
    expect(exceptions).toEqual(['Unauthorized']);
  });
});

describe('backoff', () => {
  it('grows exponentially to the cap, minus a seeded jitter', () => {
    const b = resolveBackoff({ initialMs: 100, maxMs: 1_000, multiplier: 2, jitter: 0.5 });
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelay(b, n, 0))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(backoffDelay(b, 2, 0.999999)).toBe(200);
    expect(backoffDelay(resolveBackoff({ jitter: 0 }), 0, 0.9)).toBe(500);
  });

  it('draws the same jitter sequence for the same seed', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const seqA = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(seqA);
    expect(Array.from({ length: 5 }, c)).not.toEqual(seqA);
    expect(seqA.every((u) => u >= 0 && u < 1)).toBe(true);
  });
});
