import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { recoverTypedDataAddress } from 'viem';
import { ORDER_TYPES, orderDigest, orderDomain, ZERO_ADDRESS } from '../../../src/exchange/eip712.js';
import { limitOrderAmounts, marketOrderAmounts } from '../../../src/core/venue-rules/index.js';

const KEY = `0x${'11'.repeat(32)}` as const;
const VENUE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3';

describe('order amounts (exchange-facts §1)', () => {
  it('BUY 10 @ 0.50 → 5,000,000 / 10,000,000', () => {
    expect(limitOrderAmounts('BUY', 500, 10_000_000)).toEqual({ makerAmount: 5_000_000, takerAmount: 10_000_000 });
  });
  it('SELL 10 @ 0.50 → 10,000,000 / 5,000,000', () => {
    expect(limitOrderAmounts('SELL', 500, 10_000_000)).toEqual({ makerAmount: 10_000_000, takerAmount: 5_000_000 });
  });
  it('BUY 7.123 @ 0.555 → 3,953,265 / 7,123,000', () => {
    expect(limitOrderAmounts('BUY', 555, 7_123_000)).toEqual({ makerAmount: 3_953_265, takerAmount: 7_123_000 });
  });
  it('rounds BUY collateral up and SELL collateral down', () => {
    // 0.001 share at 0.555 = 0.000555 USDC = 555 raw exactly; 1 raw share at 0.555 = 0.555 raw.
    expect(limitOrderAmounts('BUY', 555, 1).makerAmount).toBe(1);
    expect(limitOrderAmounts('SELL', 555, 1).takerAmount).toBe(0);
    expect(limitOrderAmounts('BUY', 333, 1_001).makerAmount).toBe(334); // 333.333 → 334
    expect(limitOrderAmounts('SELL', 333, 1_001).takerAmount).toBe(333);
  });
  it('FOK form: takerAmount is 1', () => {
    expect(marketOrderAmounts(5_000_000)).toEqual({ makerAmount: 5_000_000, takerAmount: 1 });
  });
});

describe('EIP-712 order (exchange-facts §2)', () => {
  const account = privateKeyToAccount(KEY);
  const order = {
    salt: 1n,
    maker: account.address,
    signer: account.address,
    taker: ZERO_ADDRESS,
    tokenId: 123n,
    makerAmount: 5_000_000n,
    takerAmount: 10_000_000n,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: 300n,
    side: 0 as const,
    signatureType: 0,
  };

  it('derives the vector address from the 0x11… key', () => {
    expect(account.address).toBe('0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A');
  });

  it('matches the published digest', () => {
    expect(orderDigest(orderDomain(VENUE.toLowerCase()), order)).toBe(
      '0x140315b67a747e2301a6308b711569c19549cceb898ad8ab930b3edb3972fa43',
    );
  });

  it('a signature recovers to the maker', async () => {
    const domain = orderDomain(VENUE);
    const signature = await account.signTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: order });
    const recovered = await recoverTypedDataAddress({ domain, types: ORDER_TYPES, primaryType: 'Order', message: order, signature });
    expect(recovered).toBe(account.address);
  });

  it('a different domain name or chain gives a different digest', () => {
    const base = orderDigest(orderDomain(VENUE), order);
    expect(orderDigest(orderDomain(VENUE, { name: 'Other' }), order)).not.toBe(base);
    expect(orderDigest(orderDomain(VENUE, { chainId: 1 }), order)).not.toBe(base);
  });
});
