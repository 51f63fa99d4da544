/**
 * Test helper (tests only): builds POST /orders bodies signed with viem exactly as exchange-facts §2–3
 * describe (amounts from src/exchange/eip712.ts), with knobs to break one thing at a time.
 */
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { ORDER_TYPES, orderDomain, ZERO_ADDRESS } from '../../src/exchange/eip712.js';
import { type Side, limitOrderAmounts, marketOrderAmounts } from '../../src/core/venue-rules/index.js';

export interface OrderMarket {
  readonly slug: string;
  readonly yesTokenId: string;
  readonly noTokenId: string;
  readonly venue: { readonly exchange: string };
}

export interface SignedOrderInput {
  readonly privateKey: Hex;
  readonly market: OrderMarket;
  readonly ownerId: number;
  readonly outcome?: 'YES' | 'NO';
  readonly side: Side;
  readonly orderType?: 'GTC' | 'FAK' | 'FOK';
  /** Limit price in ticks (GTC/FAK). */
  readonly priceTicks?: number;
  /** Size in raw shares (GTC/FAK). */
  readonly sizeRaw?: number;
  /** FOK: collateral to spend (BUY) or shares to sell (SELL), raw. */
  readonly amountRaw?: number;
  readonly feeRateBps?: number;
  readonly salt?: number;
  readonly postOnly?: boolean;
  readonly clientOrderId?: string;
  readonly stpPolicy?: 'cancel_maker' | 'cancel_taker' | 'cancel_both';
  readonly timestamp?: number;
  readonly recvWindow?: number;
  /** Signed expiration, unix seconds (default 0 = none). */
  readonly expirationSec?: number;
  /** Signing knobs for negative tests. */
  readonly verifyingContract?: string;
  readonly domainName?: string;
  readonly chainId?: number;
  /** Overrides applied to the order object AFTER signing. */
  readonly tamper?: Readonly<Record<string, unknown>>;
}

let saltCounter = 1;

export async function signedOrderBody(input: SignedOrderInput): Promise<Record<string, unknown>> {
  const account = privateKeyToAccount(input.privateKey);
  const orderType = input.orderType ?? 'GTC';
  const tokenId = (input.outcome ?? 'YES') === 'YES' ? input.market.yesTokenId : input.market.noTokenId;
  const amounts =
    orderType === 'FOK'
      ? marketOrderAmounts(input.amountRaw ?? 0)
      : limitOrderAmounts(input.side, input.priceTicks ?? 500, input.sizeRaw ?? 10_000_000);
  const salt = input.salt ?? saltCounter++;
  const feeRateBps = input.feeRateBps ?? 300;
  const side = input.side === 'BUY' ? 0 : 1;
  const domain = orderDomain(input.verifyingContract ?? input.market.venue.exchange, {
    ...(input.domainName === undefined ? {} : { name: input.domainName }),
    ...(input.chainId === undefined ? {} : { chainId: input.chainId }),
  });
  const signature = await account.signTypedData({
    domain,
    types: ORDER_TYPES,
    primaryType: 'Order',
    message: {
      salt: BigInt(salt),
      maker: account.address,
      signer: account.address,
      taker: ZERO_ADDRESS,
      tokenId: BigInt(tokenId),
      makerAmount: BigInt(amounts.makerAmount),
      takerAmount: BigInt(amounts.takerAmount),
      expiration: BigInt(input.expirationSec ?? 0),
      nonce: 0n,
      feeRateBps: BigInt(feeRateBps),
      side,
      signatureType: 0,
    },
  });
  const order: Record<string, unknown> = {
    salt,
    maker: account.address,
    signer: account.address,
    taker: ZERO_ADDRESS,
    tokenId,
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    expiration: String(input.expirationSec ?? 0),
    nonce: 0,
    feeRateBps,
    side,
    signatureType: 0,
    ...(orderType === 'FOK' ? {} : { price: (input.priceTicks ?? 500) / 1000 }),
    signature,
    ...input.tamper,
  };
  return {
    order,
    orderType,
    marketSlug: input.market.slug,
    ownerId: input.ownerId,
    ...(input.postOnly === undefined ? {} : { postOnly: input.postOnly }),
    ...(input.clientOrderId === undefined ? {} : { clientOrderId: input.clientOrderId }),
    ...(input.stpPolicy === undefined ? {} : { stpPolicy: input.stpPolicy }),
    ...(input.timestamp === undefined ? {} : { timestamp: input.timestamp }),
    ...(input.recvWindow === undefined ? {} : { recvWindow: input.recvWindow }),
  };
}
