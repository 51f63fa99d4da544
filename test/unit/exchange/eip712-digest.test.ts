import { describe, expect, it } from 'vitest';
import { hashTypedData, type Address } from 'viem';
import {
  ORDER_TYPE_STRING,
  ORDER_TYPES,
  OrderEncodingError,
  orderDigest,
  orderDomain,
  orderDomainSeparator,
  ZERO_ADDRESS,
  type OrderDomain,
  type OrderStruct,
} from '../../../src/exchange/eip712.js';
import { seededRandom } from '../../support/fake-time.js';

const VENUE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3';
const VECTOR_ADDRESS: Address = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const VECTOR: OrderStruct = {
  salt: 1n,
  maker: VECTOR_ADDRESS,
  signer: VECTOR_ADDRESS,
  taker: ZERO_ADDRESS,
  tokenId: 123n,
  makerAmount: 5_000_000n,
  takerAmount: 10_000_000n,
  expiration: 0n,
  nonce: 0n,
  feeRateBps: 300n,
  side: 0,
  signatureType: 0,
};

function viemDigest(domain: OrderDomain, order: OrderStruct): string {
  return hashTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: order });
}

/** Random bigint below 2^bits from a seeded source (32 bits at a time). */
function randomBig(random: () => number, bits: number): bigint {
  let value = 0n;
  for (let done = 0; done < bits; done += 32) value = (value << 32n) | BigInt(Math.floor(random() * 2 ** 32));
  return value & ((1n << BigInt(bits)) - 1n);
}

function randomAddress(random: () => number): Address {
  return `0x${randomBig(random, 160).toString(16).padStart(40, '0')}`;
}

function randomOrder(random: () => number): OrderStruct {
  const maker = randomAddress(random);
  return {
    salt: randomBig(random, 53),
    maker,
    signer: random() < 0.5 ? maker : randomAddress(random),
    taker: random() < 0.9 ? ZERO_ADDRESS : randomAddress(random),
    // Token ids are up to 78 decimal digits on the venue: cover small, 64-bit and full 256-bit values.
    tokenId: randomBig(random, [8, 64, 65, 200, 256][Math.floor(random() * 5)] ?? 256),
    makerAmount: randomBig(random, 40),
    takerAmount: randomBig(random, 40),
    expiration: random() < 0.8 ? 0n : randomBig(random, 64),
    nonce: random() < 0.8 ? 0n : randomBig(random, 256),
    feeRateBps: BigInt(Math.floor(random() * 10_001)),
    side: random() < 0.5 ? 0 : 1,
    signatureType: Math.floor(random() * 4),
  };
}

describe('order digest from precomputed parts (byte-identical to viem hashTypedData)', () => {
  it('gives the published digest of exchange-facts §2', () => {
    expect(orderDigest(orderDomain(VENUE.toLowerCase()), VECTOR)).toBe('0x140315b67a747e2301a6308b711569c19549cceb898ad8ab930b3edb3972fa43');
    expect(viemDigest(orderDomain(VENUE), VECTOR)).toBe('0x140315b67a747e2301a6308b711569c19549cceb898ad8ab930b3edb3972fa43');
  });

  it('the type string is the EIP-712 encodeType of the Order struct', () => {
    expect(ORDER_TYPE_STRING).toBe(
      'Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,' +
        'uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)',
    );
  });

  it('equals viem on 500 seeded random orders over random domains', () => {
    const random = seededRandom(20261123);
    for (let i = 0; i < 500; i++) {
      const domain = orderDomain(randomAddress(random), { name: i % 3 === 0 ? 'Limitless CTF Exchange' : `Venue ${i}`, chainId: [8453, 84532, 1][i % 3] ?? 1 });
      const order = randomOrder(random);
      expect(orderDigest(domain, order), `order ${i}`).toBe(viemDigest(domain, order));
    }
  });

  it('extreme values: zero and 2^256 − 1 in every uint256, 255 in the uint8 fields', () => {
    const max = (1n << 256n) - 1n;
    const domain = orderDomain(VENUE);
    for (const value of [0n, 1n, (1n << 64n) - 1n, 1n << 64n, max]) {
      const order: OrderStruct = { ...VECTOR, salt: value, tokenId: value, makerAmount: value, takerAmount: value, expiration: value, nonce: value, feeRateBps: value, side: 1, signatureType: 255 };
      expect(orderDigest(domain, order)).toBe(viemDigest(domain, order));
    }
  });

  it('computes the domain separator once per frozen domain, and afresh for an unfrozen copy', () => {
    const domain = orderDomain(VENUE);
    expect(Object.isFrozen(domain)).toBe(true);
    expect(orderDomainSeparator(domain)).toBe(orderDomainSeparator(domain));
    const copy: OrderDomain = { ...domain };
    expect(orderDomainSeparator(copy)).not.toBe(orderDomainSeparator(copy));
    expect(orderDomainSeparator(copy)).toEqual(orderDomainSeparator(domain));
    expect(orderDigest(copy, VECTOR)).toBe(orderDigest(domain, VECTOR));
  });

  it.each([
    ['salt', { salt: -1n }],
    ['tokenId', { tokenId: 1n << 256n }],
    ['side', { side: 256 as 0 }],
    ['signatureType', { signatureType: 256 }],
    ['signatureType', { signatureType: 1.5 }],
    ['maker', { maker: '0x1234' }],
  ] as const)('refuses a value its field cannot encode: %s', (field, patch) => {
    const order = { ...VECTOR, ...patch };
    let caught: unknown;
    try {
      orderDigest(orderDomain(VENUE), order);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(OrderEncodingError);
    expect((caught as OrderEncodingError).field).toBe(field);
    expect((caught as OrderEncodingError).message).toContain(field);
  });
});
