/**
 * Conformance: the Socket.IO `/markets` namespace over a plain socket.io-client (exchange-facts §5):
 * handshake HMAC auth (exception on failure, public data still served), subscribe_market_prices (snapshot,
 * full-book updates, coalescing, REPLACE semantics), subscribe_order_events (OME and SETTLEMENT frames),
 * subscribe_positions, marketResolved, system confirmations, exception on bad payloads.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/sim/engine/index.js';
import { arr, obj, waitUntil } from '../../support/sim-http.js';
import { type SocketRecorder } from '../../support/sim-socket.js';
import { connectMarkets, BOB, placedId, placeOrder, startTestSim, type TestSim } from '../fixtures.js';
import { limitOrderAmounts } from '../../../src/core/venue-rules/index.js';

let t: TestSim;
const open: SocketRecorder[] = [];
beforeAll(async () => {
  t = await startTestSim();
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(async () => {
  await t.sim.close();
});

async function connect(options: Parameters<typeof connectMarkets>[1] = {}): Promise<SocketRecorder> {
  const s = await connectMarkets(t.sim.socketUrl, options);
  open.push(s);
  return s;
}

const bookOf = (payload: unknown) => obj(obj(payload)['orderbook']);
const isBookFor = (slug: string) => (payload: unknown) => obj(payload)['marketSlug'] === slug;

/** Places directly on the engine (no signature) so several changes land within one coalescing tick. */
function enginePlace(slug: string, tokenId: string, priceTicks: number, sizeRaw: number): void {
  const { makerAmount, takerAmount } = limitOrderAmounts('BUY', priceTicks, sizeRaw);
  const outcome = t.sim.engine.place({
    profileId: BOB.profileId,
    marketSlug: slug,
    orderType: 'GTC',
    tokenId,
    side: 'BUY',
    makerAmount,
    takerAmount,
    priceTicks,
    feeRateBps: 300,
    salt: priceTicks,
    postOnly: false,
    stpPolicy: 'cancel_maker',
    signature: '0x',
    signedOrderEcho: {},
  });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.body));
}

describe('market prices', () => {
  it('confirms the subscription, pushes a snapshot, then the full book on every change', async () => {
    const s = await connect();
    await s.waitFor('system', (p) => obj(p)['message'] === 'Connected' && obj(p)['authenticated'] === false);
    s.socket.emit('subscribe_market_prices', { marketSlugs: [t.market.slug, 'no-such-market'] });
    const confirm = obj(await s.waitFor('system', (p) => obj(p)['event'] === 'subscribe_market_prices'));
    expect(confirm['marketSlugs']).toEqual([t.market.slug]);
    expect(confirm['unknownMarketSlugs']).toEqual(['no-such-market']);
    const snapshot = obj(await s.waitFor('orderbookUpdate', isBookFor(t.market.slug)));
    expect(Object.keys(snapshot).sort()).toEqual(['marketSlug', 'orderbook', 'timestamp']);
    expect(Object.keys(bookOf(snapshot)).sort()).toEqual(['adjustedMidpoint', 'asks', 'bids', 'maxSpread', 'minSize', 'tokenId']);
    expect(bookOf(snapshot)['tokenId']).toBe(t.market.yesTokenId);
    expect(typeof snapshot['timestamp']).toBe('number');

    const mark = s.mark();
    placedId(await placeOrder(t.sim, t.demo, { market: t.market, side: 'BUY', priceTicks: 410, sizeRaw: 3_000_000 }));
    const update = await s.waitFor('orderbookUpdate', (p) => arr(bookOf(p)['bids']).length > 0, 3_000, mark);
    // Default socketBookSizeUnit 'shares'; every level carries its side (the official client's OrderbookEntry).
    expect(bookOf(update)['bids']).toEqual([{ price: 0.41, size: 3, side: 'BUY' }]);
    placedId(await placeOrder(t.sim, t.demo, { market: t.market, outcome: 'NO', side: 'BUY', priceTicks: 400, sizeRaw: 2_000_000 }));
    const folded = await s.waitFor('orderbookUpdate', (p) => arr(bookOf(p)['asks']).length > 0, 3_000, mark);
    expect(bookOf(folded)['asks']).toEqual([{ price: 0.6, size: 2, side: 'SELL' }]);
    expect(bookOf(folded)['bids']).toEqual([{ price: 0.41, size: 3, side: 'BUY' }]);
    // The OrderbookData types: maxSpread and minSize numbers (minSize raw).
    expect(bookOf(folded)['maxSpread']).toBe(t.market.settings.maxSpreadTicks / 1000);
    expect(bookOf(folded)['minSize']).toBe(t.market.settings.minSizeRaw);
  });

  it('coalesces changes within one tick into one full-book frame per market', async () => {
    const s = await connect();
    s.socket.emit('subscribe_market_prices', { marketSlugs: [t.market2.slug] });
    await s.waitFor('orderbookUpdate', isBookFor(t.market2.slug));
    const mark = s.mark();
    for (const ticks of [301, 302, 303, 304, 305]) enginePlace(t.market2.slug, t.market2.yesTokenId, ticks, 1_000_000);
    const frame = await s.waitFor('orderbookUpdate', isBookFor(t.market2.slug), 3_000, mark);
    expect(arr(bookOf(frame)['bids']).map((l) => obj(l)['price'])).toEqual([0.305, 0.304, 0.303, 0.302, 0.301]);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.events.slice(mark).filter((e) => e.name === 'orderbookUpdate')).toHaveLength(1);
  });

  it('holds bursts to one frame per market per coalescing tick (manual clock)', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const other = await startTestSim({ clock, feedCoalesceMs: 50 });
    try {
      const s = await connectMarkets(other.sim.socketUrl);
      open.push(s);
      s.socket.emit('subscribe_market_prices', { marketSlugs: [other.market.slug] });
      await s.waitFor('orderbookUpdate');
      const place = (ticks: number) => {
        const { makerAmount, takerAmount } = limitOrderAmounts('BUY', ticks, 1_000_000);
        const r = other.sim.engine.place({
          profileId: BOB.profileId, marketSlug: other.market.slug, orderType: 'GTC', tokenId: other.market.yesTokenId, side: 'BUY',
          makerAmount, takerAmount, priceTicks: ticks, feeRateBps: 300, salt: ticks, postOnly: false, stpPolicy: 'cancel_maker', signature: '0x', signedOrderEcho: {},
        });
        expect(r.ok).toBe(true);
      };
      const frames = () => s.named('orderbookUpdate').length;
      place(201);
      clock.advance(0);
      await waitUntil(() => (frames() === 2 ? true : undefined), 3_000, 'leading-edge frame');
      clock.advance(10);
      place(202);
      clock.advance(39);
      await new Promise((r) => setTimeout(r, 80));
      expect(frames()).toBe(2);
      clock.advance(1);
      await waitUntil(() => (frames() === 3 ? true : undefined), 3_000, 'trailing frame');
      expect(arr(bookOf(s.named('orderbookUpdate')[2]!.payload)['bids'])).toHaveLength(2);
    } finally {
      await other.sim.close();
    }
  });

  it('each subscribe REPLACES the previous set', async () => {
    const s = await connect();
    s.socket.emit('subscribe_market_prices', { marketSlugs: [t.market.slug] });
    await s.waitFor('orderbookUpdate', isBookFor(t.market.slug));
    s.socket.emit('subscribe_market_prices', { marketSlugs: [t.market2.slug] });
    await s.waitFor('orderbookUpdate', isBookFor(t.market2.slug));
    const mark = s.mark();
    enginePlace(t.market.slug, t.market.yesTokenId, 350, 1_000_000);
    enginePlace(t.market2.slug, t.market2.yesTokenId, 350, 1_000_000);
    await s.waitFor('orderbookUpdate', isBookFor(t.market2.slug), 3_000, mark);
    await new Promise((r) => setTimeout(r, 60));
    expect(s.events.slice(mark).filter((e) => e.name === 'orderbookUpdate' && isBookFor(t.market.slug)(e.payload))).toEqual([]);
  });

  it('answers a malformed subscribe payload with exception', async () => {
    const s = await connect();
    s.socket.emit('subscribe_market_prices', 'btc');
    const ex = obj(await s.waitFor('exception'));
    expect(ex['status']).toBe('error');
    expect(String(ex['message'])).toMatch(/marketSlugs/);
  });
});

describe('authenticated feed', () => {
  it('rejects a bad handshake with exception but keeps public data', async () => {
    const s = await connect({ creds: { tokenId: t.demo.creds.tokenId, secret: BOB.creds.secret } });
    expect(String(obj(await s.waitFor('exception'))['message'])).toMatch(/^Authentication failed: Invalid signature/);
    expect(obj(await s.waitFor('system'))['authenticated']).toBe(false);
    s.socket.emit('subscribe_order_events');
    await s.waitFor('exception', (p) => /subscribe_order_events/.test(String(obj(p)['message'])));
    s.socket.emit('subscribe_market_prices', { marketSlugs: [t.market.slug] });
    await s.waitFor('orderbookUpdate', isBookFor(t.market.slug));
    const stale = await connect({ creds: t.demo.creds, nowMs: Date.now() - 31_000 });
    expect(String(obj(await stale.waitFor('exception'))['message'])).toMatch(/Authentication failed/);
  });

  it('streams OME and SETTLEMENT order events and positions for the account', async () => {
    const s = await connect({ creds: t.demo.creds });
    expect(obj(await s.waitFor('system', (p) => obj(p)['message'] === 'Connected'))['authenticated']).toBe(true);
    s.socket.emit('subscribe_order_events');
    await s.waitFor('system', (p) => obj(p)['event'] === 'subscribe_order_events');
    s.socket.emit('subscribe_positions', { marketSlugs: [t.market2.slug] });
    const initial = obj(await s.waitFor('positions'));
    expect(initial).toMatchObject({ account: t.demo.address, marketSlug: t.market2.slug, type: 'CLOB' });
    expect(arr(initial['positions']).map((p) => Object.keys(obj(p)).sort())[0]).toEqual(['averageFillPrice', 'costBasis', 'ctfBalance', 'marketId', 'marketValue', 'tokenId']);

    const makerId = placedId(await placeOrder(t.sim, t.demo, { market: t.market2, side: 'BUY', priceTicks: 480, sizeRaw: 4_000_000, clientOrderId: 'sock-1' }));
    const placement = obj(await s.waitFor('orderEvent', (p) => obj(p)['source'] === 'OME' && obj(p)['type'] === 'PLACEMENT' && obj(p)['orderId'] === makerId));
    // The official client's OmeOrderEvent: userId (the owner's profile id), price and remainingSize numbers, ISO timestamp.
    expect(placement).toMatchObject({ clientOrderId: 'sock-1', side: 'BUY', price: 0.48, remainingSize: 4_000_000, userId: t.demo.profileId });
    expect(typeof placement['eventId']).toBe('number');
    expect(Number.isNaN(Date.parse(String(placement['timestamp'])))).toBe(false);

    placedId(await placeOrder(t.sim, BOB, { market: t.market2, outcome: 'NO', side: 'BUY', priceTicks: 520, sizeRaw: 4_000_000 }));
    const execution = obj(await s.waitFor('orderEvent', (p) => obj(p)['type'] === 'EXECUTION' && obj(p)['orderId'] === makerId));
    expect(execution['status']).toBe('FILLED');
    const mined = obj(await s.waitFor('orderEvent', (p) => obj(p)['source'] === 'SETTLEMENT' && obj(p)['type'] === 'MINED'));
    // The maker's copy of the SETTLEMENT frame names the taker (SettlementOrderEvent.takerOrderId / takerAccount) and the fee.
    expect(mined).toMatchObject({ takerAccount: BOB.address, token: 'NO', isEstimate: false, feeAmountContracts: '0', configuredFeeRateBps: 300 });
    expect(typeof mined['takerOrderId']).toBe('string');
    expect(mined['feeAmountCollateral']).toMatch(/^\d+$/);
    expect(mined['orderId']).toBeUndefined();
    const positions = obj(await s.waitFor('positions', (p) => arr(obj(p)['positions']).some((x) => obj(x)['ctfBalance'] === '4000000')));
    expect(positions['marketSlug']).toBe(t.market2.slug);
  });

  it('broadcasts marketResolved', async () => {
    const other = await startTestSim();
    try {
      const s = await connectMarkets(other.sim.socketUrl);
      open.push(s);
      await s.waitFor('system');
      other.sim.control.resolveMarket(other.market.slug, { winningOutcomeIndex: 1 });
      const frame = obj(await s.waitFor('marketResolved'));
      expect(frame).toMatchObject({ slug: other.market.slug, winningOutcome: 'NO', winningIndex: 1 });
      expect(typeof frame['resolutionDate']).toBe('string');
    } finally {
      await other.sim.close();
    }
  });

  it('rejects subscribe_positions on a public connection', async () => {
    const s = await connect();
    s.socket.emit('subscribe_positions', { marketSlugs: [t.market.slug] });
    await s.waitFor('exception', (p) => /subscribe_positions/.test(String(obj(p)['message'])));
    await waitUntil(() => (s.named('positions').length === 0 ? true : undefined));
  });
});
