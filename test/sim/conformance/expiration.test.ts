/**
 * Conformance: order `expiration` (unix seconds in the signed struct, the official client's UnsignedOrder) and
 * `postOnly: false`. A future expiration rests and is canceled when it passes (OME CANCELLATION reason
 * ORDER_EXPIRED, book and locks released); a past one is a 400 naming `order.expiration`; the expiration is signed,
 * so changing it after signing breaks the signature. Runs on an injected manual clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, type OmeFrame, type OrderEventFrame } from '../../../src/sim/engine/index.js';
import { arr, obj } from '../../support/sim-http.js';
import { signedOrderBody, type SignedOrderInput } from '../../support/sim-orders.js';
import { call, placedId, startTestSim, type TestSim } from '../fixtures.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
let t: TestSim;
let clock: ManualClock;
const frames: { profileId: number; frame: OrderEventFrame }[] = [];

beforeAll(async () => {
  clock = new ManualClock(START);
  t = await startTestSim({ clock });
  t.sim.engine.on({ orderEvent: (profileId, frame) => frames.push({ profileId, frame }) });
});
afterAll(async () => {
  await t.sim.close();
});

type Args = Omit<SignedOrderInput, 'privateKey' | 'ownerId' | 'market' | 'side'> & Partial<Pick<SignedOrderInput, 'side'>>;
async function place(args: Args) {
  const body = await signedOrderBody({ privateKey: t.demo.privateKey, ownerId: t.demo.profileId, market: t.market, side: 'BUY', ...args });
  return call(t.sim.baseUrl, 'POST', '/orders', { creds: t.demo.creds, nowMs: clock.now(), body });
}
const lockedUsdc = () => t.sim.control.balances(t.demo.profileId).usdc.lockedRaw;
const bookBids = async () => arr(obj((await call(t.sim.baseUrl, 'GET', `/markets/${t.market.slug}/orderbook`)).body)['bids']).map(obj);

describe('order expiration', () => {
  it('rests until its expiration, then leaves the book with an OME CANCELLATION and its lock released', async () => {
    const lockedBefore = lockedUsdc();
    const expiresSec = START / 1000 + 90;
    const r = await place({ priceTicks: 300, sizeRaw: 10_000_000, expirationSec: expiresSec, postOnly: false, clientOrderId: 'exp-1' });
    const id = placedId(r);
    expect(obj(obj(r.body)['order'])['expiration']).toBe(String(expiresSec));
    expect(lockedUsdc()).toBe(lockedBefore + 3_000_000);
    expect(await bookBids()).toContainEqual({ price: 0.3, size: 10_000_000, side: 'BUY' });

    clock.advance(89_999);
    expect(t.sim.engine.orderById(id)?.status).toBe('LIVE');
    clock.advance(1);
    const order = t.sim.engine.orderById(id);
    expect(order?.status).toBe('CANCELED');
    expect(order?.cancelReason).toBe('ORDER_EXPIRED');
    expect(lockedUsdc()).toBe(lockedBefore);
    expect(await bookBids()).not.toContainEqual({ price: 0.3, size: 10_000_000, side: 'BUY' });
    const cancellation = frames.map((f) => f.frame).find((f): f is OmeFrame => f.source === 'OME' && f.orderId === id && f.type === 'CANCELLATION');
    expect(cancellation).toMatchObject({ reason: 'ORDER_EXPIRED', clientOrderId: 'exp-1', userId: t.demo.profileId, remainingSize: 10_000_000 });
  });

  it('an order filled or canceled before its expiration is left alone', async () => {
    const id = placedId(await place({ priceTicks: 310, sizeRaw: 1_000_000, expirationSec: clock.now() / 1000 + 10 }));
    const canceled = await call(t.sim.baseUrl, 'DELETE', `/orders/${id}`, { creds: t.demo.creds, nowMs: clock.now() });
    expect(canceled.status).toBe(200);
    const before = frames.length;
    clock.advance(10_000);
    expect(t.sim.engine.orderById(id)?.cancelReason).toBe('USER_CANCELED');
    expect(frames.slice(before).filter((f) => f.frame.source === 'OME' && f.frame.orderId === id)).toEqual([]);
  });

  it('refuses an expiration that is not in the future with a 400 naming order.expiration, changing nothing', async () => {
    const lockedBefore = lockedUsdc();
    for (const expirationSec of [clock.now() / 1000, clock.now() / 1000 - 3600]) {
      const r = await place({ priceTicks: 300, sizeRaw: 1_000_000, expirationSec });
      expect(r.status).toBe(400);
      const issues = arr(obj(r.body)['message']).map(obj);
      expect(issues.map((i) => i['field'])).toEqual(['order.expiration']);
      expect(String(issues[0]?.['message'])).toMatch(/in the past/);
    }
    // Milliseconds by mistake (past year 9999 as seconds) is refused too.
    const ms = await place({ priceTicks: 300, sizeRaw: 1_000_000, expirationSec: clock.now() + 60_000 });
    expect(ms.status).toBe(400);
    expect(arr(obj(ms.body)['message']).map((i) => obj(i)['field'])).toEqual(['order.expiration']);
    expect(lockedUsdc()).toBe(lockedBefore);
  });

  it('signs the expiration: one changed after signing is an invalid signature', async () => {
    const future = clock.now() / 1000 + 600;
    const r = await place({ priceTicks: 300, sizeRaw: 1_000_000, expirationSec: future, tamper: { expiration: String(future + 1) } });
    expect(r.status).toBe(400);
    expect(String(obj(r.body)['message'])).toMatch(/signature/i);
  });

  it('accepts GTC with postOnly false and without postOnly', async () => {
    placedId(await place({ priceTicks: 250, sizeRaw: 1_000_000, postOnly: false }));
    placedId(await place({ priceTicks: 251, sizeRaw: 1_000_000 }));
  });
});
