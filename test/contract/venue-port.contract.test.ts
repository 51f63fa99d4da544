/**
 * The VenuePort contract (venue-port-cases.ts) run against both implementations of the port:
 * - the test double the executor tests use (test/support/fake-venue.ts), arranged through its fault controls;
 * - the real adapter (src/venue/venue-adapter.ts) over the bot's REST client and the embedded simulator on loopback
 *   (test/support/client-sim.ts), arranged through the simulator's control surface (trading modes, faults, a
 *   counterparty account that rests and takes orders).
 * Where they disagree, the real adapter over the simulator is the truth and the double is fixed to match.
 */
import { describe } from 'vitest';
import { VenueAdapter } from '../../src/venue/venue-adapter.js';
import { ManualClock } from '../../src/core/clock.js';
import { FakeReplaceVenue } from '../support/fake-venue.js';
import { placeLimit, startClientSim } from '../support/client-sim.js';
import { venuePortCases, type VenueUnderTest } from './venue-port-cases.js';

/** The simulator's MATCHED → MINED delay in these tests. */
const SETTLEMENT_DELAY_MS = 1_000;
/**
 * The client's retries of a 429 (the bot's default is 4, each waiting out the venue's Retry-After): one here, so the
 * rate-limit case waits 1 s rather than 4 s. The mapping to RateLimitedError after the last retry is the same.
 */
const RATE_LIMIT_RETRIES = 1;
/** The client's retries of a 5xx on a cancel (the bot's default count), with short backoffs so the case is quick. */
const SERVER_ERROR_RETRIES = 3;
const RETRY = { maxRateLimitRetries: RATE_LIMIT_RETRIES, maxServerErrorRetries: SERVER_ERROR_RETRIES, serverErrorBaseMs: 10, serverErrorMaxMs: 40 };

async function startFake(): Promise<VenueUnderTest> {
  const clock = new ManualClock(1_767_225_600_000);
  const venue = new FakeReplaceVenue(() => clock.now());
  let trades = 0;
  return {
    port: venue,
    market: { slug: 'contract-market', yesTokenId: '1001', noTokenId: '1002' },
    now: () => clock.now(),
    setTradingMode: (mode, resumeAtMs) => {
      venue.mode = { mode, resumeAtMs };
    },
    clearTradingMode: () => {
      venue.mode = { mode: 'normal', resumeAtMs: null };
    },
    arrangePostOnlyCross: async () => venue.failNextPlace({ kind: 'rejected', reason: 'post-only-would-cross' }),
    arrangeTakerFill: async (_priceTicks, sizeRaw) => venue.failNextPlace({ kind: 'fill-at-placement', sizeRaw, tradeEventId: `contract-trade-${++trades}` }),
    arrangeInsufficientBalance: () => venue.failNextPlace({ kind: 'rejected', reason: 'insufficient-balance' }),
    hitOurBid: async (order, sizeRaw) => {
      venue.fill(order.orderId, sizeRaw, `contract-trade-${++trades}`);
    },
    settleTrades: async () => {
      for (const order of venue.orders.values()) {
        for (const fill of order.fills) if (fill.settlement === 'provisional') venue.settle(order.orderId, fill.tradeEventId, 'MINED');
      }
    },
    forceNextReplaceCancelFailure: () => venue.failNextReplace({ cancel: 'FAILURE' }),
    loseNextPlacementAnswer: (applied) => venue.failNextPlace({ kind: 'unknown', applied }),
    loseCancelAnswers: (applied) => venue.failNext('cancelOrders', { kind: 'unknown', applied }),
    rateLimitNextPlacement: () => venue.failNextPlace({ kind: 'rate-limited' }),
    close: async () => undefined,
  };
}

async function startRealOverSimulator(): Promise<VenueUnderTest> {
  const h = await startClientSim({ sim: { settlementDelayMs: SETTLEMENT_DELAY_MS }, retry: RETRY });
  const { sim, clock, demo, counterparty, signing } = h;
  const port = new VenueAdapter({ api: demo.client.api, signer: demo.client.signer, markets: new Map([[signing.slug, signing]]), recvWindowMs: null });
  /** A counterparty's YES ask at `priceTicks` is its NO bid at 1000 − p (one book for both tokens). */
  const counterpartyAsk = async (priceTicks: number, sizeRaw: number, postOnly: boolean): Promise<void> => {
    await placeLimit(counterparty.client, signing, { outcome: 'NO', side: 'BUY', priceTicks: 1000 - priceTicks, sizeRaw, postOnly });
  };
  return {
    port,
    market: { slug: signing.slug, yesTokenId: signing.tokens.yes, noTokenId: signing.tokens.no },
    now: () => clock.now(),
    setTradingMode: (mode, resumeAtMs) => {
      sim.control.setTradingMode({ mode, resumeAtMs });
    },
    clearTradingMode: () => {
      sim.control.clearTradingMode();
    },
    arrangePostOnlyCross: (priceTicks) => counterpartyAsk(priceTicks, 10_000_000, true),
    arrangeTakerFill: (priceTicks, sizeRaw) => counterpartyAsk(priceTicks, sizeRaw, true),
    arrangeInsufficientBalance: () => undefined,
    hitOurBid: (order, sizeRaw) => counterpartyAsk(order.priceTicks, sizeRaw, false),
    settleTrades: async () => {
      clock.jump(SETTLEMENT_DELAY_MS);
    },
    forceNextReplaceCancelFailure: () => {
      sim.control.failCancelReplace({ cancel: 'FAILURE' });
    },
    loseNextPlacementAnswer: (applied) => {
      sim.control.failNextRequests({ status: 500, count: 1, pathPrefix: '/orders', phase: applied ? 'after' : 'before' });
    },
    loseCancelAnswers: (applied) => {
      sim.control.failNextRequests({ status: 500, count: 1 + SERVER_ERROR_RETRIES, pathPrefix: '/orders/batch-cancel', phase: applied ? 'after' : 'before' });
    },
    rateLimitNextPlacement: () => {
      sim.control.failNextRequests({ status: 429, count: 1 + RATE_LIMIT_RETRIES, pathPrefix: '/orders', retryAfterSeconds: 1 });
    },
    close: () => h.close(),
  };
}

describe('VenuePort contract: the test double (FakeReplaceVenue)', () => {
  venuePortCases(startFake);
});

describe('VenuePort contract: the real adapter over the simulator (VenueAdapter → REST client → sim)', () => {
  venuePortCases(startRealOverSimulator);
});
