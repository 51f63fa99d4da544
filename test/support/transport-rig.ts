/**
 * Per-test rig for the REST client's unit tests (HttpTransport and what sits on it): before each test a fresh
 * recording server (recording-server.ts) and a fresh fake clock (fake-time.ts), the server closed after the test;
 * `transport()` builds an HttpTransport aimed at that server, on that clock, with a limiter that never waits and
 * an answer timeout on the fake clock (`time.deadline`): an attempt times out only when the test moves the clock past
 * `timeoutMs` (e.g. a handler that hangs after `time.advance(timeoutMs)`), never because the machine is slow.
 *
 * Call `useTransportRig` at the top level of a test file (it registers the beforeEach/afterEach hooks there) and read
 * `server` and `time` inside tests only: they are new for every test.
 */
import type { ApiCredentials } from '../../src/exchange/auth.js';
import { HttpTransport, type HttpTransportOptions } from '../../src/exchange/http.js';
import { RequestLimiter } from '../../src/exchange/limiter.js';
import { OrderSigner, type SignedOrder } from '../../src/exchange/signer.js';
import { fakeTime, type FakeTime } from './fake-time.js';
import { perTest } from './lifecycle.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

export interface TransportRig {
  /** The current test's recording server. */
  readonly server: RecordingServer;
  /** The current test's fake clock. */
  readonly time: FakeTime;
  /** A new HttpTransport on the current server and clock, signing with the rig's credentials; `overrides` win. */
  transport(overrides?: Partial<HttpTransportOptions>): HttpTransport;
}

/** Registers the per-test server and clock in the calling test file; see the header. */
export function useTransportRig(credentials: ApiCredentials): TransportRig {
  const current = perTest(
    async () => ({ server: await startRecordingServer(), time: fakeTime() }),
    ({ server }) => server.close(),
  );
  return {
    get server() {
      return current().server;
    },
    get time() {
      return current().time;
    },
    transport(overrides = {}) {
      const { server, time } = current();
      return new HttpTransport({
        baseUrl: server.url,
        credentials,
        limiter: new RequestLimiter({ minTimeMs: 0 }, { now: time.now, setTimer: time.setTimer }),
        now: time.now,
        sleep: time.sleep,
        setTimer: time.deadline,
        ...overrides,
      });
    },
  };
}

/** Awaits `promise`, which must reject with an instance of `type`: returns that error, narrowed; rethrows any other. */
export async function rejection<T extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected ${type.name}`);
}

/** The wallet key and venue contract of the client unit tests' signed orders. */
export const TEST_ORDER_KEY = `0x${'11'.repeat(32)}`;
export const TEST_VENUE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3';

/** A signed post-only GTC BUY of 10 YES at 0.450 in `btc-100k` (tokens 101/102), stamped by `now`. */
export function signedTestOrder(now: () => number, clientOrderId?: string): Promise<SignedOrder> {
  const signer = new OrderSigner({ privateKey: TEST_ORDER_KEY, now, random: () => 0 });
  return signer.createOrder({
    market: { slug: 'btc-100k', venueExchange: TEST_VENUE, tokens: { yes: '101', no: '102' } },
    tokenId: '101',
    side: 'BUY',
    orderType: 'GTC',
    priceTicks: 450,
    sizeRaw: 10_000_000,
    postOnly: true,
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
  });
}
