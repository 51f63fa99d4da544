/**
 * The bot's REST adapter starts each venue-port call in the limiter class the shared table names
 * (src/orders/request-class.ts), the same table the backtest's request model orders by: every operation, the urgent
 * listing and a cancel-replace without cancels included. The class is read where it reaches the limiter (its
 * `schedule`); the transport's fetch is a stub answering 503 (no socket: a unit test).
 */
import { describe, expect, it } from 'vitest';
import { VenueAdapter } from '../../../src/venue/venue-adapter.js';
import { ExchangeApi } from '../../../src/exchange/api.js';
import { RequestLimiter } from '../../../src/exchange/limiter.js';
import { OrderSigner, type SigningMarket } from '../../../src/exchange/signer.js';
import type { RequestPriority } from '../../../src/core/request-priority.js';
import { requestClass, type VenueCall } from '../../../src/orders/request-class.js';
import { PlacementWithheldError, type CancelReplaceBatch, type VenuePort } from '../../../src/orders/venue-port.js';
import { HttpTransport } from '../../../src/exchange/http.js';
import { fakeTime } from '../../support/fake-time.js';

const CREDS = { tokenId: 'tok-1', secret: Buffer.from('adapter-test-secret').toString('base64') };
const KEY = `0x${'11'.repeat(32)}`;
const BTC: SigningMarket = { slug: 'btc', venueExchange: '0xa4409D988CA2218d956BeEFD3874100F444f0DC3', tokens: { yes: '101', no: '102' } };
const ORDER = '0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d';
const PLACE = { marketSlug: 'btc', clientOrderId: 'om-btc-bid-0-k1', token: 'YES', tokenId: '101', side: 'BUY', priceTicks: 450, sizeRaw: 5_000_000, postOnly: true, orderType: 'GTC' } as const;
const REPLACE: Omit<CancelReplaceBatch, 'beforeSend'> = { marketSlug: 'btc', mode: 'STOP_ON_FAILURE', items: [{ cancelOrderId: ORDER, place: PLACE }] };

/** The limiter of the adapter's transport, noting the class of every request it is asked to start. */
class RecordingLimiter extends RequestLimiter {
  readonly classes: RequestPriority[] = [];
  override schedule<T>(priority: RequestPriority, task: (markSent: () => void, onTime: () => boolean, markNotSent: () => void) => Promise<T>): Promise<T> {
    this.classes.push(priority);
    return super.schedule(priority, task);
  }
}

function adapter(): { port: VenueAdapter; limiter: RecordingLimiter; fetches: () => number } {
  const time = fakeTime();
  let fetches = 0;
  const limiter = new RecordingLimiter({ minTimeMs: 0 }, { now: time.now, setTimer: time.setTimer });
  const transport = new HttpTransport({
    baseUrl: 'http://127.0.0.1:9',
    credentials: CREDS,
    limiter,
    fetch: () => {
      fetches += 1;
      return Promise.resolve(new Response('{"message":"internal"}', { status: 500, headers: { 'content-type': 'application/json' } }));
    },
    now: time.now,
    sleep: time.sleep,
    setTimer: time.deadline,
    retry: { maxServerErrorRetries: 0, maxRateLimitRetries: 0, maxReceiveWindowRetries: 0 },
    timeoutMs: 5_000,
  });
  const port = new VenueAdapter({
    api: new ExchangeApi({ transport, profileId: 9 }),
    signer: new OrderSigner({ privateKey: KEY, now: time.now, random: () => 0.25 }),
    markets: new Map([['btc', BTC]]),
    recvWindowMs: null,
  });
  return { port, limiter, fetches: () => fetches };
}

const CALLS: readonly (readonly [string, VenueCall, (port: VenuePort) => Promise<unknown>])[] = [
  ['placeOrder', { operation: 'placeOrder' }, (port) => port.placeOrder(PLACE)],
  ['cancelOrders', { operation: 'cancelOrders' }, (port) => port.cancelOrders('btc', [ORDER])],
  ['cancelAll', { operation: 'cancelAll' }, (port) => port.cancelAll('btc')],
  ['cancelAcrossMarkets', { operation: 'cancelAcrossMarkets' }, (port) => port.cancelAcrossMarkets?.(new Map([['btc', [ORDER]]])) ?? Promise.resolve()],
  ['statusBatch', { operation: 'statusBatch' }, (port) => port.statusBatch([{ clientOrderId: PLACE.clientOrderId }])],
  ['statusBatch sweep', { operation: 'statusBatch', sweep: true }, (port) => port.statusBatch([{ clientOrderId: PLACE.clientOrderId }], { sweep: true })],
  ['listLiveOrders', { operation: 'listLiveOrders' }, (port) => port.listLiveOrders('btc')],
  ['listLiveOrders urgent', { operation: 'listLiveOrders', urgent: true }, (port) => port.listLiveOrders('btc', { urgent: true })],
  ['listLiveOrders deferred', { operation: 'listLiveOrders', deferred: true }, (port) => port.listLiveOrders('btc', { deferred: true })],
  ['maintenanceStatus', { operation: 'maintenanceStatus' }, (port) => port.maintenanceStatus()],
  ['cancelReplace', { operation: 'cancelReplace' }, (port) => port.cancelReplace?.(REPLACE) ?? Promise.resolve()],
];

describe('the venue adapter\'s limiter classes are the shared table\'s', () => {
  it.each(CALLS)('%s', async (_name, call, run) => {
    const { port, limiter } = adapter();
    await run(port).catch(() => undefined);
    expect(limiter.classes).toEqual([requestClass(call)]);
  });

  it('the shutdown sweep\'s cancels across markets and confirming lookups go first of all (class sweep); a plan\'s cancel withheld by its check sends nothing', async () => {
    const { port, limiter, fetches } = adapter();
    await port.cancelAcrossMarkets(new Map([['btc', [ORDER]], ['eth', ['1c6c3b5f-7f1b-4d2f-8e3c-4f5a6b7c8d9e']]])).catch(() => undefined);
    await port.statusBatch([{ orderId: ORDER }], { sweep: true }).catch(() => undefined);
    expect(limiter.classes).toEqual(['sweep', 'sweep']);
    const sent = fetches();
    const withheld = port.cancelOrders('btc', [ORDER], {
      beforeSend: () => {
        throw new PlacementWithheldError('stopping', { operation: 'cancelOrders' });
      },
    });
    await expect(withheld).rejects.toBeInstanceOf(PlacementWithheldError);
    await expect(withheld).rejects.toThrow('cancelOrders: withheld before sending (stopping)');
    expect(fetches()).toBe(sent);
    expect(limiter.classes).toEqual(['sweep', 'sweep', 'cancel']);
  });

  it('a deferred own-order listing goes in the cancel class (FIFO with cancels and cancel-replace requotes), a plain one last', async () => {
    const { port, limiter } = adapter();
    await port.listLiveOrders('btc', { deferred: true }).catch(() => undefined);
    await port.listLiveOrders('btc').catch(() => undefined);
    expect(limiter.classes).toEqual(['cancel', 'read']);
  });

  it('a cross-market request expected to carry placements only goes as a placement, one with cancels as a cancel', async () => {
    const { port, limiter } = adapter();
    const prepared = await port.crossMarket.prepare(REPLACE);
    await port.crossMarket.send(() => [prepared], { cancels: false }).catch(() => undefined);
    await port.crossMarket.send(() => [prepared], { cancels: true }).catch(() => undefined);
    expect(limiter.classes).toEqual(['place', 'cancel']);
    expect(limiter.classes).toEqual([requestClass({ operation: 'cancelReplace', cancels: false }), requestClass({ operation: 'cancelReplace' })]);
  });
});
