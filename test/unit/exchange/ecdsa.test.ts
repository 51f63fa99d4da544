import { describe, expect, it } from 'vitest';
import { recoverAddress, recoverTypedDataAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount, sign as viemSign } from 'viem/accounts';
import { secp256k1 } from '@noble/curves/secp256k1';
import { adoptBaseTable, BASE_POINT_WINDOW_BITS, BASE_TABLE_BYTES, baseTable, baseTableBytes, decodeBaseTable, DigestSigningError, hasBaseTable, localDigestAccount, multiplyBase } from '../../../src/exchange/ecdsa.js';
import { ORDER_TYPES, orderDomain, ZERO_ADDRESS, type OrderStruct } from '../../../src/exchange/eip712.js';
import { OrderSigner, type LimitOrderRequest, type SigningMarket } from '../../../src/exchange/signer.js';
import { seededRandom } from '../../support/fake-time.js';

function randomHex(random: () => number, bytes: number): Hex {
  let out = '0x';
  for (let i = 0; i < bytes; i++) out += Math.floor(random() * 256).toString(16).padStart(2, '0');
  return out as Hex;
}

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function randomKey(random: () => number): Hex {
  for (;;) {
    const key = randomHex(random, 32);
    const value = BigInt(key);
    if (value > 0n && value < N) return key;
  }
}

describe('k·G over the affine base table', () => {
  it('equals noble on edge and seeded random scalars', () => {
    const random = seededRandom(99);
    const w = BigInt(BASE_POINT_WINDOW_BITS);
    const edges = [1n, 2n, 3n, (1n << (w - 1n)) + 1n, 1n << w, (1n << w) - 1n, 1n << 255n, N - 1n, N - 2n, (N - 1n) >> 1n];
    const randoms = Array.from({ length: 60 }, () => BigInt(randomKey(random)));
    for (const k of [...edges, ...randoms]) {
      const expected = secp256k1.ProjectivePoint.BASE.multiply(k).toAffine();
      expect(multiplyBase(k), `k = ${k}`).toEqual({ x: expected.x, y: expected.y });
    }
  });

  it('refuses 0 and n', () => {
    expect(() => multiplyBase(0n)).toThrow(RangeError);
    expect(() => multiplyBase(N)).toThrow(RangeError);
  });

  it('over a table handed from another thread (encoded, decoded point by point as it is read): the same points', () => {
    const bytes = baseTableBytes();
    expect(bytes.length).toBe(BASE_TABLE_BYTES);
    const decoded = decodeBaseTable(bytes);
    expect(decoded.xs.filter((x) => x !== undefined)).toHaveLength(1); // only G, read by the check
    const random = seededRandom(5);
    for (const k of [1n, 2n, N - 1n, ...Array.from({ length: 30 }, () => BigInt(randomKey(random)))]) {
      const expected = secp256k1.ProjectivePoint.BASE.multiply(k).toAffine();
      expect(multiplyBase(k, decoded), `k = ${k}`).toEqual({ x: expected.x, y: expected.y });
    }
    // A signature reads one point per window (27), not the table's 13,824.
    expect(decoded.xs.filter((x) => x !== undefined).length).toBeLessThan(33 * 28);
    // Encoded again, this thread's table gives the same bytes.
    expect(Buffer.from(baseTableBytes()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses an encoding of the wrong length or not starting at G, and keeps a thread\'s own table', () => {
    const bytes = baseTableBytes();
    expect(() => decodeBaseTable(bytes.subarray(0, BASE_TABLE_BYTES - 64))).toThrow(/is 884736 bytes, got 884672/);
    const shifted = bytes.slice();
    shifted[31] = (shifted[31] ?? 0) ^ 1;
    expect(() => decodeBaseTable(shifted)).toThrow(/does not start at G/);
    expect(() => adoptBaseTable(shifted)).toThrow(RangeError);
    baseTable();
    expect(hasBaseTable()).toBe(true);
    expect(adoptBaseTable(bytes)).toBe(false);
  });
});

describe('local digest signing (byte-identical to viem)', () => {
  it('signs 200 seeded random digests with 20 random keys exactly as viem sign() does, and recovers the address', async () => {
    const random = seededRandom(7);
    for (let k = 0; k < 20; k++) {
      const key = randomKey(random);
      const account = localDigestAccount(key);
      expect(account.address).toBe(privateKeyToAccount(key).address);
      for (let i = 0; i < 10; i++) {
        const hash = randomHex(random, 32);
        const ours = await account.sign({ hash });
        expect(ours, `key ${k} digest ${i}`).toBe(await viemSign({ hash, privateKey: key, to: 'hex' }));
        expect(await recoverAddress({ hash, signature: ours })).toBe(account.address);
      }
    }
  });

  it('accepts an upper-case key and signs the same as the lower-case one', async () => {
    const key = `0x${'ab'.repeat(32)}` as const;
    const hash = `0x${'cd'.repeat(32)}` as const;
    const upper = localDigestAccount(`0x${'AB'.repeat(32)}`);
    expect(await upper.sign({ hash })).toBe(await viemSign({ hash, privateKey: key, to: 'hex' }));
  });

  it('refuses keys outside the curve order without echoing them', () => {
    for (const key of [`0x${'00'.repeat(32)}`, `0x${N.toString(16)}`, `0x${'ff'.repeat(32)}`] as const) {
      let message = '';
      try {
        localDigestAccount(key);
      } catch (error) {
        message = error instanceof Error ? error.message : String(error);
      }
      expect(message).not.toBe('');
      expect(message).not.toContain(key.slice(2));
      if (BigInt(key) > 9n) expect(message).not.toContain(BigInt(key).toString()); // viem's refusal prints it in decimal
    }
  });

  it('refuses a digest that is not 32 bytes', async () => {
    const account = localDigestAccount(`0x${'11'.repeat(32)}`);
    await expect(account.sign({ hash: '0x1234' })).rejects.toBeInstanceOf(DigestSigningError);
    expect(() => account.signDigest(new Uint8Array(31))).toThrow(DigestSigningError);
  });
});

describe('OrderSigner signatures equal viem signTypedData on the same order', () => {
  const random = seededRandom(424242);
  const venues = Array.from({ length: 4 }, () => randomHex(random, 20));

  it('for 150 seeded random orders over 4 venues and 3 keys (GTC/FAK/FOK, both sides, both tokens)', async () => {
    for (let k = 0; k < 3; k++) {
      const key = randomKey(random);
      const viemAccount = privateKeyToAccount(key);
      const signer = new OrderSigner({ privateKey: key, feeRateBps: Math.floor(random() * 1000), now: () => 1_790_000_000_000, random });
      for (let i = 0; i < 50; i++) {
        const market: SigningMarket = {
          slug: `m-${i % 4}`,
          venueExchange: venues[i % 4] ?? ZERO_ADDRESS,
          tokens: { yes: BigInt(randomHex(random, 32)).toString(), no: String(Math.floor(random() * 1e15)) },
        };
        const side = random() < 0.5 ? 'BUY' : 'SELL';
        const tokenId = random() < 0.5 ? market.tokens.yes : market.tokens.no;
        const kind = Math.floor(random() * 3);
        const signed =
          kind === 2
            ? await signer.createOrder({ market, tokenId, side, orderType: 'FOK', amountRaw: 1000 * (1 + Math.floor(random() * 100_000)) })
            : await signer.createOrder({
                market,
                tokenId,
                side,
                orderType: kind === 0 ? 'GTC' : 'FAK',
                priceTicks: 1 + Math.floor(random() * 999),
                sizeRaw: 1000 * (1 + Math.floor(random() * 1_000_000)),
              } satisfies LimitOrderRequest);
        const expected = await viemAccount.signTypedData({ domain: signed.domain, types: ORDER_TYPES, primaryType: 'Order', message: signed.struct });
        expect(signed.signature, `key ${k} order ${i}`).toBe(expected);
        const recovered = await recoverTypedDataAddress({ domain: signed.domain, types: ORDER_TYPES, primaryType: 'Order', message: signed.struct, signature: signed.signature });
        expect(recovered).toBe(viemAccount.address);
      }
    }
  });

  it('the exchange-facts §2 vector order is signed exactly as viem signs it', async () => {
    const key = `0x${'11'.repeat(32)}` as const;
    const viemAccount = privateKeyToAccount(key);
    const address: Address = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
    const order: OrderStruct = {
      salt: 1n, maker: address, signer: address, taker: ZERO_ADDRESS, tokenId: 123n, makerAmount: 5_000_000n, takerAmount: 10_000_000n,
      expiration: 0n, nonce: 0n, feeRateBps: 300n, side: 0, signatureType: 0,
    };
    const domain = orderDomain('0xa4409D988CA2218d956BeEFD3874100F444f0DC3');
    const signer = new OrderSigner({ privateKey: key });
    const signed = await signer.signOrder({ marketSlug: 'v', orderType: 'GTC', side: 'BUY', priceTicks: 500, domain, struct: order, options: { postOnly: false, clientOrderId: null, stpPolicy: null, recvWindowMs: null } });
    expect(signed.signature).toBe(await viemAccount.signTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: order }));
  });

  it('an injected account (remote signer) is still called with the digest', async () => {
    const key = `0x${'22'.repeat(32)}` as const;
    const viemAccount = privateKeyToAccount(key);
    const hashes: Hex[] = [];
    const signer = new OrderSigner({ account: { address: viemAccount.address, sign: (p) => (hashes.push(p.hash), viemAccount.sign(p)) } });
    const market: SigningMarket = { slug: 'r', venueExchange: venues[0] ?? ZERO_ADDRESS, tokens: { yes: '1', no: '2' } };
    const signed = await signer.createOrder({ market, tokenId: '1', side: 'BUY', orderType: 'GTC', priceTicks: 400, sizeRaw: 1_000_000 });
    expect(hashes).toHaveLength(1);
    expect(signed.signature).toBe(await viemAccount.signTypedData({ domain: signed.domain, types: ORDER_TYPES, primaryType: 'Order', message: signed.struct }));
  });
});
