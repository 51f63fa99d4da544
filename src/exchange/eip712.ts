/**
 * The signed order of exchange-facts §1–2: EIP-712 domain and `Order` struct, and the exact amounts
 * derived from an integer price (ticks) and a raw size.
 *
 * Owns: the struct's field order, the domain, the amount rounding (BUY collateral up, SELL down).
 * Shared by the client's signer and the simulator's verifier. No floats: amounts are computed in bigint.
 */
import { getAddress, hashTypedData, type Address, type Hex } from 'viem';
import { collateralRaw, type Side } from '../core/units.js';

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

export const SIDE_CODE: Readonly<Record<Side, 0 | 1>> = { BUY: 0, SELL: 1 };

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

export function orderDomain(verifyingContract: string, options: { name?: string; chainId?: number } = {}): OrderDomain {
  return {
    name: options.name ?? DEFAULT_DOMAIN_NAME,
    version: '1',
    chainId: options.chainId ?? DEFAULT_CHAIN_ID,
    verifyingContract: getAddress(verifyingContract),
  };
}

export function orderDigest(domain: OrderDomain, order: OrderStruct): Hex {
  return hashTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: order });
}

export interface LimitAmounts {
  readonly makerAmount: number;
  readonly takerAmount: number;
}

/**
 * GTC/FAK amounts: collateral = size × ticks / 1000, rounded up for BUY, down for SELL.
 * BUY: maker gives collateral, takes shares. SELL: maker gives shares, takes collateral.
 */
export function limitOrderAmounts(side: Side, priceTicks: number, sizeRaw: number): LimitAmounts {
  const collateral = collateralRaw(sizeRaw, priceTicks, side);
  return side === 'BUY'
    ? { makerAmount: collateral, takerAmount: sizeRaw }
    : { makerAmount: sizeRaw, takerAmount: collateral };
}

/** FOK (market) amounts: makerAmount = collateral to spend (BUY) or shares to sell (SELL); takerAmount = 1. */
export function marketOrderAmounts(amountRaw: number): LimitAmounts {
  return { makerAmount: amountRaw, takerAmount: 1 };
}
