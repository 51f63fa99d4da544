/**
 * The signed order of exchange-facts §1–2: EIP-712 domain and `Order` struct.
 *
 * Owns: the struct's field order, the domain and the digest. The amounts themselves are the venue's rule
 * (src/core/venue-rules/amounts.ts). Shared by the client's signer and the simulator's verifier.
 *
 * The digest is computed from precomputed parts rather than by viem's generic `hashTypedData` (which re-derives
 * the type string, the type hash and the domain separator and validates every field on each call, about 150 µs):
 * the `Order` type hash once per process, the domain separator once per frozen domain object (orderDomain()
 * returns frozen objects, and the signer caches one per venue), each address's 32-byte word once, and per order
 * only the 13-word abi encoding written into one buffer and two keccak-256 calls. Byte-identical to
 * `hashTypedData` by construction, checked against it on random orders in test/unit/exchange/eip712-digest.test.ts.
 */
import { keccak_256 } from '@noble/hashes/sha3';
import { domainSeparator, getAddress, isAddress, type Address, type Hex } from 'viem';

export const DEFAULT_DOMAIN_NAME = 'Limitless CTF Exchange';
export const DEFAULT_CHAIN_ID = 8453;
export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

export const ORDER_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'expiration', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'feeRateBps', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
  ],
} as const;

export interface OrderDomain {
  readonly name: string;
  readonly version: '1';
  readonly chainId: number;
  readonly verifyingContract: Address;
}

/** The struct as it is signed (uint256 fields as bigint). */
export interface OrderStruct {
  readonly salt: bigint;
  readonly maker: Address;
  readonly signer: Address;
  readonly taker: Address;
  readonly tokenId: bigint;
  readonly makerAmount: bigint;
  readonly takerAmount: bigint;
  readonly expiration: bigint;
  readonly nonce: bigint;
  readonly feeRateBps: bigint;
  readonly side: 0 | 1;
  readonly signatureType: number;
}

/** The domain of one venue, frozen (so its separator can be cached against the object). */
export function orderDomain(verifyingContract: string, options: { name?: string; chainId?: number } = {}): OrderDomain {
  return Object.freeze({
    name: options.name ?? DEFAULT_DOMAIN_NAME,
    version: '1',
    chainId: options.chainId ?? DEFAULT_CHAIN_ID,
    verifyingContract: getAddress(verifyingContract),
  });
}

/** A value that cannot be abi-encoded as its EIP-712 field type (viem's hashTypedData throws for it too). */
export class OrderEncodingError extends Error {
  override readonly name = 'OrderEncodingError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    reason: string,
  ) {
    super(`order.${field} ${typeof value === 'bigint' ? `${value}n` : JSON.stringify(value)} ${reason}`);
  }
}

/** `Order(uint256 salt,address maker,...)`: the EIP-712 encodeType of the one struct, from ORDER_TYPES. */
export const ORDER_TYPE_STRING = `Order(${ORDER_TYPES.Order.map((f) => `${f.type} ${f.name}`).join(',')})`;
const ORDER_TYPE_HASH = keccak_256(new TextEncoder().encode(ORDER_TYPE_STRING));
const WORD = 32;
const STRUCT_BYTES = WORD * (1 + ORDER_TYPES.Order.length);
const UINT256_LIMIT = 1n << 256n;
const UINT64_LIMIT = 1n << 64n;
const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const MAX_CACHED_ADDRESSES = 1024;

const separators = new WeakMap<OrderDomain, Uint8Array>();
const addressWords = new Map<string, Uint8Array>();

function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}

export function bytesToHex(bytes: Uint8Array): Hex {
  let out = '0x';
  for (let i = 0; i < bytes.length; i++) out += HEX_BYTE[bytes[i] ?? 0];
  return out as Hex;
}

/** The domain separator (hashStruct of EIP712Domain), once per frozen domain object. */
export function orderDomainSeparator(domain: OrderDomain): Uint8Array {
  const cached = separators.get(domain);
  if (cached) return cached;
  const separator = hexToBytes(domainSeparator({ domain }));
  if (Object.isFrozen(domain)) separators.set(domain, separator);
  return separator;
}

/** The 20 address bytes (cached per spelling; the struct's maker and signer are the same few addresses). */
function addressWord(field: string, address: string): Uint8Array {
  let word = addressWords.get(address);
  if (word) return word;
  if (!isAddress(address, { strict: false })) throw new OrderEncodingError(field, address, 'is not an address');
  word = hexToBytes(address);
  if (addressWords.size >= MAX_CACHED_ADDRESSES) addressWords.clear();
  addressWords.set(address, word);
  return word;
}

function writeUint(out: Uint8Array, view: DataView, offset: number, field: string, value: bigint, limit: bigint): void {
  if (typeof value !== 'bigint' || value < 0n || value >= limit) {
    throw new OrderEncodingError(field, value, `is not a uint${limit === UINT256_LIMIT ? 256 : 8}`);
  }
  if (value < UINT64_LIMIT) {
    view.setBigUint64(offset + 24, value);
  } else {
    out.set(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'), offset);
  }
}

function writeSmall(view: DataView, offset: number, field: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > 255) throw new OrderEncodingError(field, value, 'is not a uint8');
  view.setUint8(offset + 31, value);
}

/** hashStruct(Order): keccak-256 of the type hash and the 12 abi-encoded words, written into one buffer. */
export function orderStructHash(order: OrderStruct): Uint8Array {
  const out = new Uint8Array(STRUCT_BYTES);
  const view = new DataView(out.buffer);
  out.set(ORDER_TYPE_HASH, 0);
  writeUint(out, view, 32, 'salt', order.salt, UINT256_LIMIT);
  out.set(addressWord('maker', order.maker), 64 + 12);
  out.set(addressWord('signer', order.signer), 96 + 12);
  out.set(addressWord('taker', order.taker), 128 + 12);
  writeUint(out, view, 160, 'tokenId', order.tokenId, UINT256_LIMIT);
  writeUint(out, view, 192, 'makerAmount', order.makerAmount, UINT256_LIMIT);
  writeUint(out, view, 224, 'takerAmount', order.takerAmount, UINT256_LIMIT);
  writeUint(out, view, 256, 'expiration', order.expiration, UINT256_LIMIT);
  writeUint(out, view, 288, 'nonce', order.nonce, UINT256_LIMIT);
  writeUint(out, view, 320, 'feeRateBps', order.feeRateBps, UINT256_LIMIT);
  writeSmall(view, 352, 'side', order.side);
  writeSmall(view, 384, 'signatureType', order.signatureType);
  return keccak_256(out);
}

/** The EIP-712 digest keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(order)), as bytes. */
export function orderDigestBytes(domain: OrderDomain, order: OrderStruct): Uint8Array {
  const input = new Uint8Array(2 + WORD + WORD);
  input[0] = 0x19;
  input[1] = 0x01;
  input.set(orderDomainSeparator(domain), 2);
  input.set(orderStructHash(order), 2 + WORD);
  return keccak_256(input);
}

/** The EIP-712 digest as 0x-hex: what `hashTypedData({domain, types: ORDER_TYPES, primaryType: 'Order', message})` returns. */
export function orderDigest(domain: OrderDomain, order: OrderStruct): Hex {
  return bytesToHex(orderDigestBytes(domain, order));
}
