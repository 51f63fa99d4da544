import { describe, expect, it } from 'vitest';
import { recoverTypedDataAddress } from 'viem';
import { ORDER_TYPES } from '../../../src/exchange/eip712.js';
import { OrderBuildError } from '../../../src/exchange/errors.js';
import {
  orderRequestBody,
  OrderSigner,
  SaltSource,
  signingMarketOf,
  type LimitOrderRequest,
  type OrderRequest,
  type SigningMarket,
} from '../../../src/exchange/signer.js';
import type { Market } from '../../../src/exchange/wire.js';

const KEY = `0x${'11'.repeat(32)}`;
const ADDRESS = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const VENUE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3';
const NOW = Date.parse('2026-03-23T12:34:56.789Z');
const MARKET: SigningMarket = { slug: 'btc-above-100k', venueExchange: VENUE.toLowerCase(), tokens: { yes: '123', no: '456' } };

function signer(overrides: Partial<ConstructorParameters<typeof OrderSigner>[0]> = {}): OrderSigner {
  return new OrderSigner({ privateKey: KEY, now: () => NOW, random: () => 0, ...overrides });
}

function gtc(overrides: Partial<LimitOrderRequest> = {}): LimitOrderRequest {
  return { market: MARKET, tokenId: '123', side: 'BUY', orderType: 'GTC', priceTicks: 500, sizeRaw: 10_000_000, ...overrides };
}

function buildError(run: () => unknown): OrderBuildError {
  try {
    run();
  } catch (error) {
    if (error instanceof OrderBuildError) return error;
    throw error;
  }
  throw new Error('expected an OrderBuildError');
}

describe('order amounts through buildOrder (exchange-facts §1)', () => {
  it.each([
    ['BUY', 500, 10_000_000, 5_000_000n, 10_000_000n],
    ['SELL', 500, 10_000_000, 10_000_000n, 5_000_000n],
    ['BUY', 555, 7_123_000, 3_953_265n, 7_123_000n],
    ['SELL', 555, 7_123_000, 7_123_000n, 3_953_265n],
  ] as const)('%s %i ticks × %i raw → maker %s / taker %s', (side, priceTicks, sizeRaw, maker, taker) => {
    const order = signer().buildOrder(gtc({ side, priceTicks, sizeRaw }));
    expect(order.struct.makerAmount).toBe(maker);
    expect(order.struct.takerAmount).toBe(taker);
    expect(order.struct.side).toBe(side === 'BUY' ? 0 : 1);
    expect(order.priceTicks).toBe(priceTicks);
  });

  it('FOK: makerAmount is the collateral (BUY) or the shares (SELL), takerAmount 1, no price', () => {
    const s = signer();
    const buy = s.buildOrder({ market: MARKET, tokenId: '456', side: 'BUY', orderType: 'FOK', amountRaw: 5_000_000 });
    expect([buy.struct.makerAmount, buy.struct.takerAmount, buy.priceTicks]).toEqual([5_000_000n, 1n, null]);
    const sell = s.buildOrder({ market: MARKET, tokenId: '456', side: 'SELL', orderType: 'FOK', amountRaw: 2_000_000 });
    expect([sell.struct.makerAmount, sell.struct.takerAmount, sell.priceTicks]).toEqual([2_000_000n, 1n, null]);
  });

  it('fills the fixed struct fields: zero taker, no expiry, nonce 0, token id, fee rate, EOA', () => {
    const order = signer({ feeRateBps: 150 }).buildOrder(gtc({ tokenId: '456' }));
    expect(order.struct).toMatchObject({
      maker: ADDRESS,
      signer: ADDRESS,
      taker: '0x0000000000000000000000000000000000000000',
      tokenId: 456n,
      expiration: 0n,
      nonce: 0n,
      feeRateBps: 150n,
      signatureType: 0,
    });
  });
});

describe('order validation: one error class with code, field and value', () => {
  const cases: [string, OrderRequest, string, string, unknown][] = [
    ['price off the tick', gtc({ priceTicks: 500.5 }), 'PRICE_OFF_TICK', 'priceTicks', 500.5],
    ['price below the band', gtc({ priceTicks: 9 }), 'PRICE_OUT_OF_BAND', 'priceTicks', 9],
    ['price above the band', gtc({ priceTicks: 991 }), 'PRICE_OUT_OF_BAND', 'priceTicks', 991],
    ['size off the step', gtc({ sizeRaw: 10_000_500 }), 'SIZE_OFF_STEP', 'sizeRaw', 10_000_500],
    ['size below the minimum', gtc({ sizeRaw: 4_000_000, minSizeRaw: 5_000_000 }), 'SIZE_BELOW_MINIMUM', 'sizeRaw', 4_000_000],
    ['zero size', gtc({ sizeRaw: 0 }), 'SIZE_BELOW_MINIMUM', 'sizeRaw', 0],
    ['unknown token', gtc({ tokenId: '789' }), 'UNKNOWN_TOKEN', 'tokenId', '789'],
    ['non-decimal token id', gtc({ tokenId: 'yes', market: { ...MARKET, tokens: { yes: 'yes', no: 'no' } } }), 'UNKNOWN_TOKEN', 'tokenId', 'yes'],
    ['postOnly on FAK', gtc({ orderType: 'FAK', postOnly: true }), 'POST_ONLY_REQUIRES_GTC', 'postOnly', 'FAK'],
    ['postOnly on FOK', { market: MARKET, tokenId: '123', side: 'BUY', orderType: 'FOK', amountRaw: 1_000_000, ...{ postOnly: true } }, 'POST_ONLY_REQUIRES_GTC', 'postOnly', 'FOK'],
    ['clientOrderId over 128 chars', gtc({ clientOrderId: 'x'.repeat(129) }), 'CLIENT_ORDER_ID_INVALID', 'clientOrderId', 'x'.repeat(129)],
    ['empty clientOrderId', gtc({ clientOrderId: '' }), 'CLIENT_ORDER_ID_INVALID', 'clientOrderId', ''],
    ['recvWindow 0', gtc({ recvWindowMs: 0 }), 'RECV_WINDOW_INVALID', 'recvWindowMs', 0],
    ['recvWindow over 10 s', gtc({ recvWindowMs: 10_001 }), 'RECV_WINDOW_INVALID', 'recvWindowMs', 10_001],
    ['FOK BUY of a fractional amount', { market: MARKET, tokenId: '123', side: 'BUY', orderType: 'FOK', amountRaw: 1.5 }, 'AMOUNT_INVALID', 'amountRaw', 1.5],
    ['FOK SELL off the step', { market: MARKET, tokenId: '123', side: 'SELL', orderType: 'FOK', amountRaw: 1_500 }, 'SIZE_OFF_STEP', 'amountRaw', 1_500],
  ];

  it.each(cases)('%s', (_name, request, code, field, value) => {
    const s = signer({ priceBand: { minTicks: 10, maxTicks: 990 } });
    const error = buildError(() => s.buildOrder(request));
    expect(error.code).toBe(code);
    expect(error.field).toBe(field);
    expect(error.value).toStrictEqual(value);
    expect(error.message).toContain(field);
  });

  it('the default band is the whole (0, 1) grid', () => {
    expect(signer().buildOrder(gtc({ priceTicks: 1 })).priceTicks).toBe(1);
    expect(signer().buildOrder(gtc({ priceTicks: 999 })).priceTicks).toBe(999);
    expect(buildError(() => signer().buildOrder(gtc({ priceTicks: 1000 }))).code).toBe('PRICE_OUT_OF_BAND');
  });

  it('accepts the 128-char clientOrderId and the 10 s receive window at the limits', () => {
    const order = signer().buildOrder(gtc({ clientOrderId: 'a'.repeat(128), recvWindowMs: 10_000 }));
    expect(order.options).toMatchObject({ clientOrderId: 'a'.repeat(128), recvWindowMs: 10_000 });
  });

  it('refuses a market without venue or tokens', () => {
    const market: Market = {
      id: 1, slug: 'amm', title: 'AMM market', conditionId: null, negRiskRequestId: null, status: null, expired: false,
      expirationMs: null, createdAtMs: null, tokens: null, venue: null, isRewardable: false, settings: null, tradeType: 'amm', marketType: null,
      winningOutcomeIndex: null, payoutNumerators: null, resolved: false, categories: [], collateral: null, groupSlug: null, metadata: {},
      description: null, tags: [], priceOracleMetadata: null,
    };
    expect(buildError(() => signingMarketOf(market)).code).toBe('MARKET_NOT_TRADABLE');
    const tradable = signingMarketOf({ ...market, venue: { exchange: VENUE, adapter: null }, tokens: { yes: '1', no: '2' } });
    expect(tradable).toEqual({ slug: 'amm', venueExchange: VENUE, tokens: { yes: '1', no: '2' } });
  });
});

describe('signer configuration', () => {
  it('rejects a malformed private key without echoing it', () => {
    const bad = `0x${'zz'.repeat(32)}`;
    const error = buildError(() => new OrderSigner({ privateKey: bad }));
    expect(error.code).toBe('SIGNER_CONFIG_INVALID');
    expect(error.message).not.toContain('zz');
    expect(JSON.stringify(error)).not.toContain('zz');
  });

  it('rejects fee rates, signature types and bands it cannot sign', () => {
    expect(buildError(() => signer({ feeRateBps: -1 })).field).toBe('feeRateBps');
    expect(buildError(() => signer({ signatureType: 4 })).field).toBe('signatureType');
    expect(buildError(() => signer({ priceBand: { minTicks: 500, maxTicks: 400 } })).field).toBe('priceBand');
    expect(buildError(() => signer({ maker: '0x0000000000000000000000000000000000000001' })).field).toBe('maker');
    const s = signer();
    expect(buildError(() => s.setFeeRateBps(10_001)).code).toBe('SIGNER_CONFIG_INVALID');
  });

  it('checksums a proxy maker for signatureType 1 and keeps the key address as signer', () => {
    const proxy = '0x8ba1f109551bd432803012645ac136ddd64dba72';
    const order = signer({ signatureType: 1, maker: proxy }).buildOrder(gtc());
    expect(order.struct.maker).toBe('0x8ba1f109551bD432803012645Ac136ddd64DBA72');
    expect(order.struct.signer).toBe(ADDRESS);
    expect(order.struct.signatureType).toBe(1);
  });

  it('applies a fee rate update to new orders', () => {
    const s = signer();
    expect(s.buildOrder(gtc()).struct.feeRateBps).toBe(300n);
    s.setFeeRateBps(0);
    expect(s.buildOrder(gtc()).struct.feeRateBps).toBe(0n);
  });

  it('caches one domain per venue, with the configured name and chain', () => {
    const s = signer({ domainName: 'Test Exchange', chainId: 84532 });
    const a = s.domainFor(VENUE.toLowerCase());
    expect(s.domainFor(VENUE)).toBe(a);
    expect(a).toEqual({ name: 'Test Exchange', version: '1', chainId: 84532, verifyingContract: VENUE });
    expect(s.domainFor('0x0000000000000000000000000000000000000001')).not.toBe(a);
  });
});

describe('salts', () => {
  it('are unique and increasing within one millisecond, and below 2^53', () => {
    const source = new SaltSource(() => NOW, () => 0.999);
    const salts = Array.from({ length: 5000 }, () => source.next());
    expect(new Set(salts).size).toBe(salts.length);
    for (let i = 1; i < salts.length; i++) expect(salts[i]!).toBeGreaterThan(salts[i - 1]!);
    expect(Math.max(...salts)).toBeLessThan(2 ** 53);
  });

  it('stay increasing when the clock steps back', () => {
    let now = NOW;
    const source = new SaltSource(() => now, () => 0.5);
    const first = source.next();
    now -= 60_000;
    expect(source.next()).toBe(first + 1);
  });

  it('differ between two orders built in the same millisecond', () => {
    const s = signer();
    expect(s.buildOrder(gtc()).struct.salt).not.toBe(s.buildOrder(gtc()).struct.salt);
  });
});

describe('signing end to end', () => {
  it('the signature recovers to the maker over the venue domain', async () => {
    const s = signer();
    const signed = await s.createOrder(gtc({ side: 'SELL', priceTicks: 555, sizeRaw: 7_123_000 }));
    expect(signed.signature).toMatch(/^0x[0-9a-f]{130}$/);
    const recovered = await recoverTypedDataAddress({
      domain: signed.domain,
      types: ORDER_TYPES,
      primaryType: 'Order',
      message: signed.struct,
      signature: signed.signature,
    });
    expect(recovered).toBe(ADDRESS);
    expect(recovered).toBe(signed.struct.maker);
  });

  it('a signature does not verify for another venue', async () => {
    const signed = await signer().createOrder(gtc());
    const recovered = await recoverTypedDataAddress({
      domain: { ...signed.domain, verifyingContract: '0x0000000000000000000000000000000000000001' },
      types: ORDER_TYPES,
      primaryType: 'Order',
      message: signed.struct,
      signature: signed.signature,
    });
    expect(recovered).not.toBe(ADDRESS);
  });
});

describe('POST /orders body (exchange-facts §3)', () => {
  it('is exactly the documented JSON for a GTC order with every option', async () => {
    const signed = await signer().createOrder(
      gtc({ side: 'BUY', priceTicks: 555, sizeRaw: 7_123_000, postOnly: true, clientOrderId: 'om-abc-bid-0-1', stpPolicy: 'cancel_taker', recvWindowMs: 5000 }),
    );
    const text = JSON.stringify(orderRequestBody(signed, 42, NOW + 7));
    expect(text).toBe(
      '{"order":{"salt":' + String(NOW * 1000) + ',"maker":"' + ADDRESS + '","signer":"' + ADDRESS + '",' +
        '"taker":"0x0000000000000000000000000000000000000000","tokenId":"123","makerAmount":3953265,"takerAmount":7123000,' +
        '"expiration":"0","nonce":0,"feeRateBps":300,"side":0,"signatureType":0,"price":0.555,"signature":"' + signed.signature + '"},' +
        '"orderType":"GTC","marketSlug":"btc-above-100k","ownerId":42,"clientOrderId":"om-abc-bid-0-1","postOnly":true,' +
        '"stpPolicy":"cancel_taker","timestamp":' + String(NOW + 7) + ',"recvWindow":5000}',
    );
  });

  it('omits what was not asked for, and a FOK order has no price', async () => {
    const signed = await signer().createOrder({ market: MARKET, tokenId: '456', side: 'SELL', orderType: 'FOK', amountRaw: 3_000_000 });
    const body = orderRequestBody(signed, 7, NOW);
    expect(Object.keys(body)).toEqual(['order', 'orderType', 'marketSlug', 'ownerId']);
    expect('price' in body.order).toBe(false);
    expect(body.order).toMatchObject({ tokenId: '456', makerAmount: 3_000_000, takerAmount: 1, side: 1, expiration: '0' });
  });

  it('stamps the receive window with the time of each call', async () => {
    const signed = await signer().createOrder(gtc({ recvWindowMs: 2000 }));
    expect(orderRequestBody(signed, 1, 1000).timestamp).toBe(1000);
    expect(orderRequestBody(signed, 1, 2500).timestamp).toBe(2500);
  });

  it('prints every grid price as its shortest decimal', () => {
    const s = signer();
    for (let ticks = 1; ticks <= 999; ticks++) {
      const body = orderRequestBody({ ...s.buildOrder(gtc({ priceTicks: ticks })), signature: `0x${'ab'.repeat(65)}` }, 1, NOW);
      expect(JSON.stringify(body.order.price)).toBe((ticks / 1000).toFixed(3).replace(/0+$/, ''));
    }
  });
});
