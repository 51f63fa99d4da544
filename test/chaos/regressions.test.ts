/**
 * Fast, deterministic regressions for the bugs the chaos suite found (each fails without its fix):
 * - a reconciliation stand-in retired by a later, different trade of the same order (crash, then a new fill);
 * - a trade counted twice: by the stand-in a feed-gap read made, and by its MATCHED frame, still in flight when the read
 *   was answered (crash-restart on CI, session 39);
 * - a placement whose answer was lost in a crash, never linked or caught up at restart;
 * - a 429 that exhausted its retries without holding the next requests for its Retry-After.
 * The end-to-end scenarios that found them are the other files of test/chaos.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerSync } from '../../src/booking/ledger-sync.js';
import { ExchangeRateLimitedError } from '../../src/exchange/errors.js';
import { HttpTransport } from '../../src/exchange/http.js';
import { RequestLimiter } from '../../src/exchange/limiter.js';
import { repairLedger } from '../../src/ledger/index.js';
import { formatClientOrderId, marketKey } from '../../src/orders/client-order-id.js';
import { clientSimPerTest, placeLimit, placeRestingBid, startClientSim, type ClientSim } from '../support/client-sim.js';
import { fillInput, memoryLedger, orderInput, T0 } from '../support/ledger-fixtures.js';
import { startRecordingServer, type RecordingServer } from '../support/recording-server.js';

describe('ledger: a stand-in is retired only by the trade it stood for', () => {
  it('a new trade first seen MATCHED leaves the stand-in; the missed trade reported MINED retires it', () => {
    const ledger = memoryLedger();
    ledger.recordOrder(orderInput({ clientOrderId: 'c1', venueOrderId: 'o1', sizeRaw: 10e6 }));
    // Restart: the venue says 4 filled while the bot was down; the ledger had nothing.
    repairLedger(ledger, { orders: [{ orderId: 'o1', filledRaw: 4e6 }] }, { atMs: T0 + 1 });
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(4e6);
    // A new fill after the restart, seen live: MATCHED, then MINED.
    ledger.recordFill(fillInput({ tradeEventId: 'new', orderId: 'o1', sizeRaw: 3e6, state: 'provisional', atMs: T0 + 2 }));
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(7e6);
    ledger.recordFill(fillInput({ tradeEventId: 'new', orderId: 'o1', sizeRaw: 3e6, state: 'mined', atMs: T0 + 2 }));
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(7e6);
    // The MINED report of the trade missed while down arrives: it takes the stand-in's place.
    ledger.recordFill(fillInput({ tradeEventId: 'missed', orderId: 'o1', sizeRaw: 4e6, state: 'mined', atMs: T0 }));
    expect(ledger.tokenPosition('btc-100k', 'YES').positionRaw).toBe(7e6);
    const live = ledger.fillsForOrder('o1').filter((f) => f.state !== 'failed').map((f) => [f.tradeEventId, f.source, f.sizeRaw]);
    expect(live).toEqual([
      ['missed', 'venue', 4e6],
      ['new', 'venue', 3e6],
    ]);
    expect(ledger.verify()).toEqual([]);
  });
});

describe('start-up catch-up: a placement whose answer died with the process', () => {
  let cs: ClientSim;
  beforeAll(async () => {
    cs = await startClientSim({ seed: 23 });
  }, 30_000);
  afterAll(async () => {
    await cs?.close();
  });

  it('is found by clientOrderId, linked, and its fills recorded; one that never reached the venue is closed', async () => {
    const slug = cs.market.slug;
    const tokens = cs.signing.tokens;
    const placed = formatClientOrderId({ botTag: 'chaos', marketKey: marketKey(slug), slot: 'bid-0', sequence: 1 });
    const lost = formatClientOrderId({ botTag: 'chaos', marketKey: marketKey(slug), slot: 'ask-0', sequence: 2 });
    const answer = await placeLimit(cs.demo.client, cs.signing, { outcome: 'YES', side: 'BUY', priceTicks: 400, sizeRaw: 10e6, postOnly: true, clientOrderId: placed });
    // The counterparty takes 4 of it (BUY NO at 0.60 matches BUY YES at 0.40).
    await placeLimit(cs.counterparty.client, cs.signing, { outcome: 'NO', side: 'BUY', priceTicks: 600, sizeRaw: 4e6 });

    // What the killed process had written: both placements pending, no venue id (the answers never came).
    const ledger = memoryLedger({ now: () => cs.clock.now() });
    for (const [clientOrderId, slot] of [[placed, 'bid-0'], [lost, 'ask-0']] as const) {
      ledger.recordOrder(orderInput({ clientOrderId, marketSlug: slug, slot, tokenId: tokens.yes, priceTicks: 400, sizeRaw: 10e6, status: 'pending-new', atMs: cs.clock.now() }));
    }
    const sync = new LedgerSync({ ledger, api: cs.demo.client.api, markets: new Map([[slug, tokens]]), now: () => cs.clock.now(), log: pino({ level: 'silent' }) });
    await sync.catchUp();

    expect(ledger.getOrder({ clientOrderId: placed })).toMatchObject({ venueOrderId: answer.orderId, remainingRaw: 6e6 });
    expect(ledger.getOrder({ clientOrderId: lost })?.status).toBe('rejected');
    expect(ledger.orderFilledTotals([answer.orderId]).get(answer.orderId)).toBe(4e6);
    expect(ledger.tokenPosition(slug, 'YES').positionRaw).toBe(4e6);
  }, 30_000);
});

describe('ledger: a MATCHED frame in flight when a feed-gap read is answered', () => {
  // Its own simulator, closed after the test once it has served no 429 and holds its invariants.
  const startSim = clientSimPerTest({ invariants: true });

  it('is the trade the read\'s stand-in stood for: counted once; a trade matched after the read is a new one', async () => {
    const cs = await startSim({ seed: 29 });
    const { slug, tokens, clientOrderId, answer } = await placeRestingBid(cs, 'chaos');
    const ledger = memoryLedger({ now: () => cs.clock.now() });
    ledger.recordOrder(orderInput({ clientOrderId, venueOrderId: answer.orderId, marketSlug: slug, tokenId: tokens.yes, priceTicks: 400, sizeRaw: 10e6, status: 'live', atMs: cs.clock.now() }));
    const matchOf = async (sizeRaw: number): Promise<{ tradeEventId: string; atMs: number }> => {
      // The counterparty's BUY NO at 0.60 matches the bot's BUY YES at 0.40; its answer names the match and its time.
      const taker = await placeLimit(cs.counterparty.client, cs.signing, { outcome: 'NO', side: 'BUY', priceTicks: 600, sizeRaw });
      const match = taker.makerMatches.find((m) => m.orderId === answer.orderId);
      if (match === undefined || match.createdAt === null) throw new Error('the taker\'s answer names no match of the bot\'s order');
      return { tradeEventId: match.id, atMs: Date.parse(match.createdAt) };
    };
    // The MATCHED frame as the bot books it: provisional, dated at the match.
    const frame = (trade: { tradeEventId: string; atMs: number }, sizeRaw: number) =>
      fillInput({ ...trade, orderId: answer.orderId, marketSlug: slug, tokenId: tokens.yes, priceTicks: 400, sizeRaw, state: 'provisional' });

    const first = await matchOf(4e6);
    cs.clock.jump(5);
    const sync = new LedgerSync({ ledger, api: cs.demo.client.api, markets: new Map([[slug, tokens]]), now: () => cs.clock.now(), log: pino({ level: 'silent' }) });
    expect(await sync.afterGap(), 'the read counts the trade whose frame has not arrived: a stand-in').toBe(1);
    expect(ledger.tokenPosition(slug, 'YES').positionRaw).toBe(4e6);
    ledger.recordFill(frame(first, 4e6));
    expect(ledger.tokenPosition(slug, 'YES').positionRaw, 'the late frame retires the stand-in').toBe(4e6);

    cs.clock.jump(5);
    const second = await matchOf(2e6);
    ledger.recordFill(frame(second, 2e6));
    expect(ledger.tokenPosition(slug, 'YES').positionRaw, 'a trade after the read is added').toBe(6e6);
    expect(ledger.fillsForOrder(answer.orderId).filter((f) => f.state !== 'failed').map((f) => [f.source, f.sizeRaw])).toEqual([
      ['venue', 4e6],
      ['venue', 2e6],
    ]);
    expect(await sync.afterGap(), 'the venue agrees: nothing to repair').toBe(0);
    expect(ledger.verify()).toEqual([]);
  }, 30_000);
});

describe('HTTP: a 429 that gives up still holds the credentials for its Retry-After', () => {
  let server: RecordingServer;
  beforeAll(async () => {
    server = await startRecordingServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the next request waits out the Retry-After', async () => {
    server.enqueue({ status: 429, body: { message: 'ThrottlerException: Too Many Requests' }, headers: { 'retry-after': '1' } }, { status: 200, body: {} });
    const transport = new HttpTransport({
      baseUrl: server.url,
      limiter: new RequestLimiter({ maxConcurrent: 2, minTimeMs: 0 }),
      retry: { maxRateLimitRetries: 0 },
    });
    try {
      const request = { method: 'GET' as const, pathTemplate: '/x', path: '/x', auth: false, priority: 'read' as const, kind: 'read' as const };
      await expect(transport.send(request)).rejects.toBeInstanceOf(ExchangeRateLimitedError);
      await transport.send(request);
      const [first, second] = server.requests;
      expect(second!.arrivedAt - first!.arrivedAt).toBeGreaterThanOrEqual(950);
    } finally {
      transport.close();
    }
  }, 10_000);
});
