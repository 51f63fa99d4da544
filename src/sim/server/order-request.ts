/**
 * POST /orders request checks the venue makes before any business rule (exchange-facts §2–3): the body
 * schema, the receive window, the addresses' EIP-55 form, the expiration (unix seconds, "0" = none, never in
 * the past; it is part of the signed struct), and the EIP-712 signature over the market's
 * `venue.exchange` on chain 8453 recovering to `order.signer` (= `order.maker`).
 *
 * Owns: the body schema and signature verification. Business checks (token in market, amounts vs price
 * and step, balances, duplicates, post-only crossing, STP) belong to the engine. Invariants: wrong types
 * give a 400 validation body naming every bad field; nothing here changes state; the amounts are taken
 * as integers and handed on unchanged (no floats).
 */
import { getAddress, recoverTypedDataAddress, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { priceToTicks, UnitError, type Side } from '../../core/venue-rules/index.js';
import { ORDER_TYPES, orderDomain, ZERO_ADDRESS, type OrderStruct } from '../../exchange/eip712.js';
import type { PlaceInput } from '../engine/index.js';
import { frameworkError, HttpError, invalidField, validationError, type ValidationIssue } from './http-errors.js';
import { MAX_PROFILE_ID } from './delegation.js';
import { zodIssues } from './validation.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT_STRING = /^\d{1,78}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
/** 9999-12-31T23:59:59Z: a larger expiration is surely milliseconds or garbage (it is unix seconds). */
export const MAX_EXPIRATION_SEC = 253_402_300_799;

const safeUint = (what: string) =>
  z.number({ error: `must be ${what}` }).int({ error: `must be ${what}` }).min(0, { error: `must be ${what}` });

const uintString = z.string({ error: 'must be a decimal integer string' }).regex(UINT_STRING, { error: 'must be a decimal integer string' });

const address = z.string({ error: 'must be a 0x-prefixed 20-byte hex address' }).regex(ADDRESS, { error: 'must be a 0x-prefixed 20-byte hex address' });

export const signedOrderSchema = z.strictObject({
  salt: safeUint('a non-negative integer number below 2^53'),
  maker: address,
  signer: address,
  taker: address,
  tokenId: uintString,
  makerAmount: safeUint('a non-negative integer number').refine((v) => v > 0, { error: 'must be greater than 0' }),
  takerAmount: safeUint('a non-negative integer number').refine((v) => v > 0, { error: 'must be greater than 0' }),
  expiration: z.union([uintString, safeUint('a non-negative integer')], { error: 'must be a decimal integer string' }),
  nonce: z.union([safeUint('a non-negative integer'), uintString], { error: 'must be a non-negative integer' }),
  feeRateBps: safeUint('an integer between 0 and 10000').max(10_000, { error: 'must be an integer between 0 and 10000' }),
  side: z.union([z.literal(0), z.literal(1)], { error: 'must be 0 (BUY) or 1 (SELL)' }),
  signatureType: safeUint('an integer between 0 and 3').max(3, { error: 'must be an integer between 0 and 3' }),
  price: z.number({ error: 'must be a number' }).gt(0, { error: 'must be between 0 and 1 (exclusive)' }).lt(1, { error: 'must be between 0 and 1 (exclusive)' }).optional(),
  signature: z.string({ error: 'must be a 0x-prefixed 65-byte hex string' }).regex(SIGNATURE, { error: 'must be a 0x-prefixed 65-byte hex string' }),
});

export const placeOrderBodySchema = z.strictObject({
  order: signedOrderSchema,
  orderType: z.enum(['GTC', 'FAK', 'FOK'], { error: 'must be one of GTC, FAK, FOK' }),
  marketSlug: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
  ownerId: safeUint(`an integer between 1 and ${MAX_PROFILE_ID}`).min(1, { error: `must be an integer between 1 and ${MAX_PROFILE_ID}` }).max(MAX_PROFILE_ID, { error: `must be an integer between 1 and ${MAX_PROFILE_ID}` }),
  postOnly: z.boolean({ error: 'must be a boolean' }).optional(),
  clientOrderId: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(128, { error: 'must be at most 128 characters' }).optional(),
  stpPolicy: z.enum(['cancel_maker', 'cancel_taker', 'cancel_both'], { error: 'must be one of cancel_maker, cancel_taker, cancel_both' }).optional(),
  timestamp: safeUint('an integer number of milliseconds').optional(),
  recvWindow: safeUint('an integer between 1 and 10000').min(1, { error: 'must be an integer between 1 and 10000' }).max(10_000, { error: 'must be an integer between 1 and 10000' }).optional(),
});

export type SignedOrderBody = z.infer<typeof signedOrderSchema>;
export type PlaceOrderBody = z.infer<typeof placeOrderBodySchema>;

/** A schema-valid, internally consistent placement request (still unsigned-checked). */
export interface ParsedPlacement {
  readonly body: PlaceOrderBody;
  readonly side: Side;
  /** Ticks of `order.tokenId` for GTC/FAK, null for FOK. */
  readonly priceTicks: number | null;
  readonly maker: Address;
  readonly signer: Address;
}

/** Schema + cross-field rules. Throws the 400 validation answer listing every problem. */
export function parsePlacement(json: unknown): ParsedPlacement {
  const result = placeOrderBodySchema.safeParse(json);
  if (!result.success) throw validationError(zodIssues(result.error));
  const body = result.data;
  const order = body.order;
  const issues: ValidationIssue[] = [];
  let priceTicks: number | null = null;
  if (body.orderType !== 'FOK') {
    if (order.price === undefined) issues.push({ field: 'order.price', message: `order.price is required for ${body.orderType} orders` });
    else {
      try {
        priceTicks = priceToTicks('order.price', order.price);
      } catch (error) {
        if (!(error instanceof UnitError)) throw error;
        issues.push({ field: 'order.price', message: `order.price ${error.reason}; the tick is 0.001` });
      }
    }
  }
  if (body.postOnly === true && body.orderType !== 'GTC') issues.push({ field: 'postOnly', message: 'postOnly is allowed only with GTC orders' });
  for (const field of ['maker', 'signer'] as const) {
    const value = order[field];
    if (getAddress(value) !== value) issues.push({ field: `order.${field}`, message: `order.${field} must be an EIP-55 checksummed address` });
  }
  if (order.taker.toLowerCase() !== ZERO_ADDRESS) issues.push({ field: 'order.taker', message: 'order.taker must be the zero address' });
  const expiration = Number(order.expiration);
  if (!Number.isSafeInteger(expiration) || expiration > MAX_EXPIRATION_SEC) {
    issues.push({ field: 'order.expiration', message: `order.expiration must be unix seconds up to ${MAX_EXPIRATION_SEC} (9999-12-31), or "0" for no expiry; got ${String(order.expiration)}` });
  }
  if (order.signatureType !== 0) issues.push({ field: 'order.signatureType', message: 'order.signatureType must be 0 (EOA): the simulator supports EOA signing only' });
  if (issues.length === 0 && order.maker !== order.signer) issues.push({ field: 'order.signer', message: 'order.signer must equal order.maker for EOA orders' });
  if (issues.length > 0) throw validationError(issues);
  return { body, side: order.side === 0 ? 'BUY' : 'SELL', priceTicks, maker: getAddress(order.maker), signer: getAddress(order.signer) };
}

/** The signed expiration in unix seconds; 0 = none. */
export function expirationSeconds(body: PlaceOrderBody): number {
  return Number(body.order.expiration);
}

/**
 * 400 naming `order.expiration` when it is set and not in the future. The official client signs it as unix SECONDS
 * (UnsignedOrder.expiration, a decimal string; "0" = no expiry); a resting order is canceled when it passes.
 */
export function assertExpiration(body: PlaceOrderBody, nowMs: number): void {
  const seconds = expirationSeconds(body);
  if (seconds !== 0 && seconds * 1000 <= nowMs) {
    throw validationError([
      {
        field: 'order.expiration',
        message: `order.expiration ${seconds} (${new Date(seconds * 1000).toISOString()}) is in the past: server time is ${new Date(nowMs).toISOString()}; it is unix seconds, "0" for no expiry`,
      },
    ]);
  }
}

/** 425 when the opt-in receive window has passed (`timestamp` + `recvWindow` both given). */
export function assertReceiveWindow(body: PlaceOrderBody, nowMs: number): void {
  if (body.timestamp === undefined || body.recvWindow === undefined) return;
  const age = nowMs - body.timestamp;
  if (age > body.recvWindow) {
    throw frameworkError(425, `Order is outside its receive window: ${age} ms old, recvWindow ${body.recvWindow} ms; re-stamp and retry`);
  }
}

export interface SignatureDomainOptions {
  readonly verifyingContract: string;
  readonly domainName: string;
  readonly chainId: number;
}

export function orderStruct(order: SignedOrderBody): OrderStruct {
  return {
    salt: BigInt(order.salt),
    maker: getAddress(order.maker),
    signer: getAddress(order.signer),
    taker: getAddress(order.taker),
    tokenId: BigInt(order.tokenId),
    makerAmount: BigInt(order.makerAmount),
    takerAmount: BigInt(order.takerAmount),
    expiration: BigInt(order.expiration),
    nonce: BigInt(order.nonce),
    feeRateBps: BigInt(order.feeRateBps),
    side: order.side,
    signatureType: order.signatureType,
  };
}

/** Recovers the EIP-712 signer and requires it to be `order.signer`. 400 otherwise. */
export async function verifyOrderSignature(placement: ParsedPlacement, domainOptions: SignatureDomainOptions): Promise<void> {
  const domain = orderDomain(domainOptions.verifyingContract, { name: domainOptions.domainName, chainId: domainOptions.chainId });
  const signature = placement.body.order.signature;
  if (!isHex(signature)) throw invalidField('order.signature', 'order.signature must be a 0x-prefixed 65-byte hex string');
  let recovered: Address;
  try {
    recovered = await recoverTypedDataAddress({
      domain,
      types: ORDER_TYPES,
      primaryType: 'Order',
      message: orderStruct(placement.body.order),
      signature,
    });
  } catch {
    throw invalidField('order.signature', 'order.signature is not a valid secp256k1 signature');
  }
  if (recovered !== placement.signer) {
    throw new HttpError(400, {
      message: 'Invalid order signature: the EIP-712 signature does not recover to order.signer for this market (check verifyingContract, chainId, domain name and every signed field)',
      error: 'Bad Request',
      statusCode: 400,
    });
  }
}

function isHex(value: string): value is Hex {
  return SIGNATURE.test(value);
}

/** The engine's input for a verified placement acting for `profileId`. */
export function placeInput(placement: ParsedPlacement, profileId: number): PlaceInput {
  const { body } = placement;
  const order = body.order;
  return {
    profileId,
    marketSlug: body.marketSlug,
    orderType: body.orderType,
    tokenId: order.tokenId,
    side: placement.side,
    makerAmount: order.makerAmount,
    takerAmount: order.takerAmount,
    priceTicks: placement.priceTicks,
    feeRateBps: order.feeRateBps,
    salt: order.salt,
    postOnly: body.postOnly ?? false,
    ...(body.clientOrderId === undefined ? {} : { clientOrderId: body.clientOrderId }),
    stpPolicy: body.stpPolicy ?? 'cancel_maker',
    signature: order.signature,
    signedOrderEcho: { ...order },
    expirationSec: expirationSeconds(body),
  };
}
