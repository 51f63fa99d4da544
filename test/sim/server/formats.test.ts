/**
 * Unit tests: wire formatting (adjusted midpoint, average price), placement parsing, demo credentials,
 * accounts and markets file parsing, the placement store.
 */
import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import type { Execution, SettlementFrame, SimOrder } from '../../../src/sim/engine/index.js';
import { accountSpecOf, AccountConfigError, parseAccountConfig } from '../../../src/sim/server/accounts-config.js';
import { ConfigFileError, parseMarketsFile } from '../../../src/sim/server/config-files.js';
import { demoAccount } from '../../../src/sim/server/demo-account.js';
import { HttpError } from '../../../src/sim/server/http-errors.js';
import { parsePlacement } from '../../../src/sim/server/order-request.js';
import { PlacementStore } from '../../../src/sim/server/placement-store.js';
import { averagePrice } from '../../../src/sim/server/wire-format.js';
import { adjustedMidpoint } from '../../../src/core/venue-rules/index.js';

describe('adjustedMidpoint', () => {
  const lvl = (priceTicks: number, shares: number) => ({ priceTicks, sizeRaw: shares * 1_000_000 });
  it('uses the best levels of at least minSize, else the touch, else null', () => {
    expect(adjustedMidpoint({ bids: [lvl(450, 1), lvl(400, 100)], asks: [lvl(500, 1), lvl(560, 100)] }, 50_000_000)).toBe(0.48);
    expect(adjustedMidpoint({ bids: [lvl(450, 1)], asks: [lvl(500, 1)] }, 50_000_000)).toBe(0.475);
    expect(adjustedMidpoint({ bids: [lvl(451, 100)], asks: [lvl(500, 100)] }, 50_000_000)).toBe(0.4755);
    expect(adjustedMidpoint({ bids: [], asks: [lvl(500, 100)] }, 0)).toBeNull();
  });
  it('averagePrice is exact to 6 places and null when flat', () => {
    const pos = { tokenId: '1', lockedRaw: 0, realisedPnlRaw: 0, averageFillPrice: null };
    expect(averagePrice({ ...pos, balanceRaw: 3_000_000, costBasisRaw: 1_000_000 })).toBe('0.333333');
    expect(averagePrice({ ...pos, balanceRaw: 0, costBasisRaw: 0 })).toBeNull();
  });
});

describe('parsePlacement', () => {
  const address = privateKeyToAccount(`0x${'11'.repeat(32)}`).address;
  const order = {
    salt: 1, maker: address, signer: address, taker: '0x0000000000000000000000000000000000000000', tokenId: '123',
    makerAmount: 5_000_000, takerAmount: 10_000_000, expiration: '0', nonce: 0, feeRateBps: 300, side: 0, signatureType: 0,
    price: 0.5, signature: `0x${'ab'.repeat(65)}`,
  };
  const body = { order, orderType: 'GTC', marketSlug: 'm', ownerId: 1 };
  const issuesOf = (value: unknown): unknown => {
    try {
      parsePlacement(value);
      return null;
    } catch (error) {
      if (error instanceof HttpError) return error.body;
      throw error;
    }
  };

  it('accepts a valid body and derives side and ticks', () => {
    const p = parsePlacement(body);
    expect(p.side).toBe('BUY');
    expect(p.priceTicks).toBe(500);
    expect(parsePlacement({ ...body, orderType: 'FOK', order: { ...order, price: undefined } }).priceTicks).toBeNull();
  });

  it('names every problem', () => {
    expect(issuesOf({ ...body, order: { ...order, side: 'BUY', makerAmount: 1.5 } })).toEqual({
      message: [
        { field: 'order.makerAmount', message: 'order.makerAmount must be a non-negative integer number' },
        { field: 'order.side', message: 'order.side must be 0 (BUY) or 1 (SELL)' },
      ],
      error: 'Bad Request',
      statusCode: 400,
    });
    // A non-zero expiration is accepted here (unix seconds; assertExpiration refuses a past one); an unsafe one is not.
    expect(issuesOf({ ...body, order: { ...order, expiration: '9'.repeat(20), signatureType: 2 } })).toMatchObject({
      message: [{ field: 'order.expiration' }, { field: 'order.signatureType' }],
    });
    expect(issuesOf({ ...body, clientOrderId: 'x'.repeat(129) })).toMatchObject({ message: [{ field: 'clientOrderId' }] });
    expect(issuesOf({ ...body, order: { ...order, price: 1 } })).toMatchObject({ message: [{ field: 'order.price' }] });
  });
});

describe('demo credentials', () => {
  it('are deterministic per seed, valid, and differ across seeds', () => {
    const a = demoAccount(1);
    expect(demoAccount(1)).toEqual(a);
    expect(demoAccount(2).privateKey).not.toBe(a.privateKey);
    expect(privateKeyToAccount(a.privateKey).address).toBe(a.address);
    expect(a.tokenId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Buffer.from(a.secret, 'base64')).toHaveLength(32);
  });
});

describe('account and market files', () => {
  it('converts decimal units exactly and rejects unknown keys without echoing secrets', () => {
    const config = parseAccountConfig({ profileId: 5, address: `0x${'12'.repeat(20)}`, usdc: '0.000001', tokens: { '7': 2.5 } });
    expect(accountSpecOf(config)).toMatchObject({ profileId: 5, usdcRaw: 1, tokens: { '7': 2_500_000 } });
    expect(() => accountSpecOf(parseAccountConfig({ profileId: 5, address: `0x${'12'.repeat(20)}`, usdc: '1.0000001' }))).toThrow(AccountConfigError);
    expect(() => parseAccountConfig({ profileId: 5, address: `0x${'12'.repeat(20)}`, colour: 'red' })).toThrow(AccountConfigError);
    try {
      parseAccountConfig({ profileId: 5, address: `0x${'12'.repeat(20)}`, apiTokens: [{ tokenId: 't', secret: 42 }] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AccountConfigError);
      if (error instanceof AccountConfigError) expect(error.field).toBe('account.apiTokens.0.secret');
    }
  });

  it('parses a markets file with relative or absolute expiry', () => {
    const entry = {
      id: 1, slug: 'm-1', title: 'T', conditionId: `0x${'a'.repeat(64)}`, yesTokenId: '1', noTokenId: '2',
      venue: { exchange: `0x${'1'.repeat(40)}`, adapter: `0x${'2'.repeat(40)}` },
      settings: { minSizeRaw: 1, maxSpreadTicks: 10, dailyRewardRaw: 0 },
    };
    const [m] = parseMarketsFile({ markets: [{ ...entry, expiresInMs: 1_000 }] }, 5_000);
    expect(m?.expirationMs).toBe(6_000);
    expect(m?.settings.c).toBe(3);
    expect(() => parseMarketsFile([{ ...entry }], 0)).toThrow(ConfigFileError);
    expect(() => parseMarketsFile([{ ...entry, expirationMs: 1, expiresInMs: 1 }], 0)).toThrow(/exactly one/);
    expect(() => parseMarketsFile([{ ...entry, expirationMs: 1, slug: 'Bad Slug' }], 0)).toThrow(/slug/);
  });
});

describe('PlacementStore', () => {
  const execution: Execution = {
    matched: true, settlementStatus: 'MATCHED', tradeEventId: 'te-1', feeRateBps: 300, effectiveFeeBps: 300,
    totalsRaw: { contractsGross: '1', contractsFee: '0', contractsNet: '1', usdGross: '1', usdFee: '0', usdNet: '1' },
  };
  it('tracks settlement status of the taker order and evicts the oldest past capacity', () => {
    const store = new PlacementStore(2);
    store.remember('a', [], execution);
    const frame: SettlementFrame = {
      source: 'SETTLEMENT', type: 'MINED', eventId: 'settlement:te-1', orderId: 'a', makerMatches: [], marketSlug: 'm', tokenId: '1',
      side: 'BUY', token: 'YES', price: '0.5', amountContracts: '1', amountCollateral: '1', takerOrderId: 'a', takerAccount: '0x0000000000000000000000000000000000000001',
      configuredFeeRateBps: 300, effectiveFeeBps: 0, feeAmountCollateral: '0', feeAmountContracts: '0', isEstimate: false, tradeEventId: 'te-1', timestamp: 0,
    };
    store.onSettlement({ ...frame, tradeEventId: 'other' });
    expect(store.get('a')?.execution.settlementStatus).toBe('MATCHED');
    store.onSettlement(frame);
    expect(store.get('a')?.execution.settlementStatus).toBe('MINED');
    store.remember('b', [], execution);
    store.remember('c', [], execution);
    expect(store.get('a')).toBeUndefined();
    const order: SimOrder = {
      id: 'z', profileId: 1, marketId: 1, marketSlug: 'm', tokenId: '1', outcome: 'YES', type: 'GTC', side: 'BUY', priceTicks: 500,
      makerAmount: 1, takerAmount: 2, originalSizeRaw: 2, remainingSizeRaw: 0, filledSizeRaw: 2, filledCollateralRaw: 100, feePaidRaw: 3,
      status: 'MATCHED', cancelReason: null, createdAtMs: 0, updatedAtMs: 0, clientOrderId: null, feeRateBps: 300, postOnly: false,
      stpPolicy: 'cancel_maker', salt: 1, signature: '0x', signedOrderEcho: {}, expiresAtMs: null,
    };
    expect(store.placementOf(order).execution).toMatchObject({ matched: true, settlementStatus: 'MATCHED', totalsRaw: { usdNet: '103' } });
  });
});
