/**
 * The REST adapter's cross-market cancel-replace (VenueAdapter.crossMarket) on a recording server: one
 * POST /orders/cancel-replace/batch carrying several markets' operations, each with its own market, cancel target and
 * mode (a placement item: its own clientOrderId, ALLOW_FAILURE), answers split back per batch; a 400 naming
 * `operations[i].replacement.marketSlug` of a request naming several markets is MixedMarketsRefusedError; an empty
 * take sends nothing.
 */
import { describe, expect, it } from 'vitest';
import { replacementRefusal, VenueAdapter } from '../../../src/venue/venue-adapter.js';
import { ExchangeApi } from '../../../src/exchange/api.js';
import { OrderSigner, type SigningMarket } from '../../../src/exchange/signer.js';
import { MixedMarketsRefusedError, VenueRequestError, type CancelReplaceBatch, type PreparedBatch } from '../../../src/orders/venue-port.js';
import { rejection, useTransportRig } from '../../support/transport-rig.js';

const CREDS = { tokenId: 'tok-1', secret: Buffer.from('adapter-test-secret').toString('base64') };
const KEY = `0x${'11'.repeat(32)}`;
const VENUE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3';
const OLD_BTC = '0b5b2a4e-6f0a-4c1e-9d2b-3f4e5a6b7c8d';
const NEW_BTC = '1c6c3b5f-7a1b-4d2f-8e3c-4a5b6c7d8e9f';
const NEW_ETH = '2d7d4c6a-8b2c-4e3a-9f4d-5b6c7d8e9fa0';
const BTC: SigningMarket = { slug: 'btc', venueExchange: VENUE, tokens: { yes: '101', no: '102' } };
const ETH: SigningMarket = { slug: 'eth', venueExchange: VENUE, tokens: { yes: '201', no: '202' } };

const rig = useTransportRig(CREDS);

function adapter(): VenueAdapter {
  const transport = rig.transport({ retry: { maxServerErrorRetries: 0, maxRateLimitRetries: 0, maxReceiveWindowRetries: 0 }, timeoutMs: 5_000 });
  return new VenueAdapter({
    api: new ExchangeApi({ transport, profileId: 9 }),
    signer: new OrderSigner({ privateKey: KEY, now: rig.time.now, random: () => 0.25 }),
    markets: new Map([
      ['btc', BTC],
      ['eth', ETH],
    ]),
    recvWindowMs: null,
  });
}

const place = (market: SigningMarket, clientOrderId: string, priceTicks: number) =>
  ({ marketSlug: market.slug, clientOrderId, token: 'YES', tokenId: market.tokens.yes, side: 'BUY', priceTicks, sizeRaw: 5_000_000, postOnly: true, orderType: 'GTC' }) as const;

const BTC_REPLACE: Omit<CancelReplaceBatch, 'beforeSend'> = { marketSlug: 'btc', mode: 'STOP_ON_FAILURE', items: [{ cancelOrderId: OLD_BTC, place: place(BTC, 'om-btc-bid-0-k2', 450) }] };
const ETH_PLACE: Omit<CancelReplaceBatch, 'beforeSend'> = { marketSlug: 'eth', mode: 'STOP_ON_FAILURE', items: [{ cancelOrderId: null, place: place(ETH, 'om-eth-bid-0-k1', 300) }] };

function placed(id: string, clientOrderId: string): Record<string, unknown> {
  return {
    status: 'SUCCESS',
    data: {
      order: { id, status: 'LIVE', clientOrderId, side: 'BUY', price: '0.45', originalSize: '5000000', remainingSize: '5000000', tokenId: '101', orderType: 'GTC' },
      execution: { matched: false, settlementStatus: 'UNMATCHED', totalsRaw: { contractsGross: '0', contractsNet: '0', contractsFee: '0', usdGross: '0', usdNet: '0', usdFee: '0' } },
    },
  };
}

function operationsOf(body: string): Record<string, unknown>[] {
  const parsed: unknown = JSON.parse(body);
  const operations: unknown = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'operations') : undefined;
  if (!Array.isArray(operations)) throw new Error('no operations array');
  return operations.map((op: unknown) => (typeof op === 'object' && op !== null ? Object.fromEntries(Object.entries(op)) : {}));
}

describe('VenueAdapter.crossMarket', () => {
  it("sends several markets' batches as ONE request, each operation with its own market, target and mode; answers split per batch", async () => {
    rig.server.setHandler(() => ({
      status: 200,
      body: {
        results: [
          { index: 0, cancel: { status: 'SUCCESS', orderId: OLD_BTC }, replacement: placed(NEW_BTC, 'om-btc-bid-0-k2') },
          { index: 1, cancel: { status: 'FAILURE', error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } }, replacement: placed(NEW_ETH, 'om-eth-bid-0-k1') },
        ],
      },
    }));
    const port = adapter();
    const btc = await port.crossMarket.prepare(BTC_REPLACE);
    const eth = await port.crossMarket.prepare(ETH_PLACE);
    let takes = 0;
    const answers = await port.crossMarket.send(() => {
      takes += 1;
      return [btc, eth];
    });
    expect(takes).toBe(1);
    expect(rig.server.requests.map((r) => `${r.method} ${r.pathname}`)).toEqual(['POST /orders/cancel-replace/batch']);
    const operations = operationsOf(rig.server.requests[0]!.body);
    const summary = operations.map((op): unknown[] => {
      const replacement: unknown = op['replacement'];
      return [op['cancel'], op['mode'], typeof replacement === 'object' && replacement !== null ? Reflect.get(replacement, 'marketSlug') : undefined];
    });
    expect(summary).toEqual([
      [{ orderId: OLD_BTC }, 'STOP_ON_FAILURE', 'btc'],
      [{ clientOrderId: 'om-eth-bid-0-k1' }, 'ALLOW_FAILURE', 'eth'],
    ]);
    expect(answers.map((a) => a.batch)).toEqual([btc, eth]);
    expect(answers[0]?.results).toMatchObject([{ cancelOrderId: OLD_BTC, cancel: { status: 'SUCCESS' }, replacement: { status: 'SUCCESS', placed: { orderId: NEW_BTC } } }]);
    expect(answers[1]?.results).toMatchObject([{ cancelOrderId: null, cancel: { status: 'FAILURE' }, replacement: { status: 'SUCCESS', placed: { orderId: NEW_ETH } } }]);
  });

  it('a 400 naming operations[i].replacement.marketSlug of a request naming two markets → MixedMarketsRefusedError', async () => {
    const refusal = { message: [{ field: 'operations.1.replacement.marketSlug', message: 'must name the market of operations.0' }], error: 'Bad Request', statusCode: 400 };
    rig.server.setHandler(() => ({ status: 400, body: refusal }));
    const port = adapter();
    const btc = await port.crossMarket.prepare(BTC_REPLACE);
    const eth = await port.crossMarket.prepare(ETH_PLACE);
    const mixed = await rejection(port.crossMarket.send(() => [btc, eth]), MixedMarketsRefusedError);
    expect(mixed.operation).toBe('cancelReplace');
    // The same answer to a request of one market is a plain refusal (the marketSlug itself was refused).
    const single = await rejection(port.crossMarket.send(() => [btc]), VenueRequestError);
    expect(single.status).toBe(400);
  });

  it('an empty take sends nothing and resolves no answer; a batch not prepared by this adapter is refused unsent', async () => {
    const port = adapter();
    expect(await port.crossMarket.send(() => [])).toEqual([]);
    const foreign: PreparedBatch = { batch: BTC_REPLACE };
    await rejection(port.crossMarket.send(() => [foreign]), VenueRequestError);
    expect(rig.server.requests).toEqual([]);
  });

  it('cancelReplace of one market is the same request with its one batch, its own check run when it leaves', async () => {
    rig.server.setHandler(() => ({ status: 200, body: { results: [{ index: 0, cancel: { status: 'SUCCESS', orderId: OLD_BTC }, replacement: placed(NEW_BTC, 'om-btc-bid-0-k2') }] } }));
    let checks = 0;
    const results = await adapter().cancelReplace({ ...BTC_REPLACE, beforeSend: () => void (checks += 1) });
    expect(checks).toBe(1);
    expect(results).toMatchObject([{ cancelOrderId: OLD_BTC, replacement: { status: 'SUCCESS' } }]);
  });
});

describe('replacementRefusal', () => {
  it("reads a refused replacement's reason as a refused placement's: the refusal its error names, else code and message", () => {
    expect(replacementRefusal({ code: 'INSUFFICIENT_BALANCE', message: 'Insufficient token balance for this order' })).toBe('insufficient-balance');
    expect(replacementRefusal({ code: 'POST_ONLY_WOULD_CROSS', message: 'Post-only order would cross the book' })).toBe('post-only-would-cross');
    expect(replacementRefusal({ code: 'MARKET_RESOLVED', message: 'Market has already been resolved' })).toBe('market-closed');
    expect(replacementRefusal({ code: 'INTERNAL_ERROR', message: 'Simulated failure' })).toBe('INTERNAL_ERROR: Simulated failure');
    expect(replacementRefusal(null)).toBe('no reason given');
  });
});
