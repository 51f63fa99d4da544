/**
 * Order building and signing: from (market, token, side, integer price ticks, raw size) to a signed EIP-712 order
 * and the exact POST /orders body of exchange-facts §3.
 *
 * Owns: order input validation (tick, band, step, minimum, token, options), salts, the per-venue domain cache and
 * the request body's exact shape. Amounts come from src/core/venue-rules (shared with the simulator), the digest from
 * eip712.ts.
 *
 * Signing speed (docs/latency.md): the domain (and with it the EIP-712 domain separator) is built once per venue,
 * the digest from precomputed parts (eip712.ts), and a private key signs through ecdsa.ts (same bytes as viem's
 * account, about twice as fast), on the main thread or (`signingThread: 'worker'`, the live bot) in a worker thread
 * (src/exchange/worker-signer.ts: the same bytes, the loop free while a requote wave signs; `close()` stops it); an
 * injected `account` (a remote signer) is called through its `sign({hash})`.
 *
 * Invariants: nothing off the grid is ever signed (a violation is an OrderBuildError naming code, field and value,
 * and nothing is signed); salts are unique within the process and below 2^53; maker and signer are EIP-55
 * checksummed; the private key is held only inside the signing account's closure (never stored, logged or put in an
 * error).
 */
import { getAddress, isAddress, isHex, type Address, type Hex } from 'viem';
import { localDigestAccount, type DigestSigningAccount } from './ecdsa.js';
import { WorkerDigestSigner } from './worker-signer.js';
import { MAX_TICK, MIN_TICK, SIZE_STEP_RAW, ticksToFloat, UnitError, type OrderType, type Side, limitOrderAmounts, marketOrderAmounts, SIDE_CODE } from '../core/venue-rules/index.js';
import { DEFAULT_CHAIN_ID, DEFAULT_DOMAIN_NAME, orderDigest, orderDigestBytes, orderDomain, ZERO_ADDRESS, type OrderDomain, type OrderStruct } from './eip712.js';
import { OrderBuildError } from './errors.js';
import { DEFAULT_FEE_RATE_BPS, type Market } from './wire.js';

export const STP_POLICIES = ['cancel_maker', 'cancel_taker', 'cancel_both'] as const;
export type StpPolicy = (typeof STP_POLICIES)[number];

export const MAX_CLIENT_ORDER_ID_LENGTH = 128;
export const MAX_RECV_WINDOW_MS = 10_000;
const SALT_LIMIT = 2 ** 53;
const SALT_SPREAD = 1000;
const CLIENT_ORDER_ID = /^[\x21-\x7e]+$/;
const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const TOKEN_ID = /^\d{1,78}$/;

/** Anything that can sign a 32-byte hash for an address (a viem PrivateKeyAccount, or a remote signer). */
export interface OrderSigningAccount {
  readonly address: Address;
  sign(parameters: { hash: Hex }): Promise<Hex>;
}

export interface PriceBand {
  /** Lowest allowed price in ticks (inclusive). */
  readonly minTicks: number;
  /** Highest allowed price in ticks (inclusive). */
  readonly maxTicks: number;
}

export interface OrderSignerOptions {
  /** 0x + 64 hex. Exactly one of privateKey and account. */
  readonly privateKey?: string;
  readonly account?: OrderSigningAccount;
  /** Where a `privateKey` signs: this thread (default) or a worker thread (src/exchange/worker-signer.ts). */
  readonly signingThread?: 'main' | 'worker';
  /** Told once if the signing worker stopped unasked (signing continues on the main thread). */
  readonly onSigningFallback?: (reason: string) => void;
  /** The order's maker (funder) when it differs from the signing key's address (signatureType 1/2). */
  readonly maker?: string;
  /** 0 = EOA (default), 1 = POLY_PROXY, 2 = POLY_GNOSIS_SAFE, 3 accepted by the venue (meaning unconfirmed). */
  readonly signatureType?: number;
  /** The profile's rank.feeRateBps (GET /profiles/{address}); default 300. */
  readonly feeRateBps?: number;
  readonly domainName?: string;
  readonly chainId?: number;
  /** Allowed limit-order price band; default [1, 999] ticks. */
  readonly priceBand?: PriceBand;
  /** Clock for salts (ms). */
  readonly now?: () => number;
  /** Random in [0, 1) for salts. */
  readonly random?: () => number;
}

/** What the signer needs to know about a market. */
export interface SigningMarket {
  readonly slug: string;
  /** The market's `venue.exchange`: the EIP-712 verifyingContract. */
  readonly venueExchange: string;
  readonly tokens: { readonly yes: string; readonly no: string };
}

/** A Market from GET /markets/{slug} → SigningMarket; a market without venue or tokens cannot be traded. */
export function signingMarketOf(market: Market): SigningMarket {
  if (!market.venue) throw new OrderBuildError('MARKET_NOT_TRADABLE', 'market.venue', null, `of ${market.slug} is missing`);
  if (!market.tokens) throw new OrderBuildError('MARKET_NOT_TRADABLE', 'market.tokens', null, `of ${market.slug} are missing`);
  return { slug: market.slug, venueExchange: market.venue.exchange, tokens: market.tokens };
}

interface CommonOrderRequest {
  readonly market: SigningMarket;
  /** `market.tokens.yes` or `market.tokens.no`. */
  readonly tokenId: string;
  readonly side: Side;
  /** ≤ 128 printable ASCII characters; how the order is found again when an answer is lost. */
  readonly clientOrderId?: string;
  readonly stpPolicy?: StpPolicy;
  /** Opt-in receive window (1–10000 ms): the body gets `timestamp` (stamped at send time) and `recvWindow`. */
  readonly recvWindowMs?: number;
}

/** GTC or FAK: a price in ticks and a size in raw shares. */
export interface LimitOrderRequest extends CommonOrderRequest {
  readonly orderType: 'GTC' | 'FAK';
  readonly priceTicks: number;
  readonly sizeRaw: number;
  /** Smallest size accepted (raw); default one size step. */
  readonly minSizeRaw?: number;
  /** GTC only: rejected by the venue instead of crossing. */
  readonly postOnly?: boolean;
}

/** FOK (market) order: BUY spends `amountRaw` collateral, SELL sells `amountRaw` raw shares. No price. */
export interface MarketOrderRequest extends CommonOrderRequest {
  readonly orderType: 'FOK';
  readonly amountRaw: number;
  /** Smallest SELL size accepted (raw shares); default one size step. */
  readonly minSizeRaw?: number;
}

export type OrderRequest = LimitOrderRequest | MarketOrderRequest;

export interface OrderOptions {
  readonly postOnly: boolean;
  readonly clientOrderId: string | null;
  readonly stpPolicy: StpPolicy | null;
  readonly recvWindowMs: number | null;
}

export interface UnsignedOrder {
  readonly marketSlug: string;
  readonly orderType: OrderType;
  readonly side: Side;
  /** null for FOK. */
  readonly priceTicks: number | null;
  readonly domain: OrderDomain;
  readonly struct: OrderStruct;
  readonly options: OrderOptions;
}

export interface SignedOrder extends UnsignedOrder {
  /** 0x + 65 bytes. */
  readonly signature: Hex;
}

/** The `order` object of the POST /orders body. */
export interface WireOrder {
  readonly salt: number;
  readonly maker: Address;
  readonly signer: Address;
  readonly taker: Address;
  readonly tokenId: string;
  readonly makerAmount: number;
  readonly takerAmount: number;
  readonly expiration: '0';
  readonly nonce: number;
  readonly feeRateBps: number;
  readonly side: 0 | 1;
  readonly signatureType: number;
  readonly price?: number;
  readonly signature: Hex;
}

export interface OrderRequestBody {
  readonly order: WireOrder;
  readonly orderType: OrderType;
  readonly marketSlug: string;
  readonly ownerId: number;
  readonly clientOrderId?: string;
  readonly postOnly?: boolean;
  readonly stpPolicy?: StpPolicy;
  readonly timestamp?: number;
  readonly recvWindow?: number;
}

/**
 * Unique salts below 2^53: `now × 1000 + random(0..999)`, forced strictly above the previous salt so two calls in
 * the same millisecond (or a clock step back) never repeat one. Good until the year 2255.
 */
export class SaltSource {
  private last = 0;
  constructor(
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    const candidate = Math.floor(this.now()) * SALT_SPREAD + Math.floor(this.random() * SALT_SPREAD);
    const salt = Math.max(candidate, this.last + 1);
    if (!Number.isSafeInteger(salt) || salt >= SALT_LIMIT) throw new OrderBuildError('AMOUNT_INVALID', 'salt', salt, 'exceeds 2^53');
    this.last = salt;
    return salt;
  }
}

function validInteger(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function checkBand(band: PriceBand): PriceBand {
  if (!validInteger(band.minTicks, MIN_TICK, MAX_TICK) || !validInteger(band.maxTicks, band.minTicks, MAX_TICK)) {
    throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'priceBand', `${band.minTicks}..${band.maxTicks}`, `must be integer ticks with ${MIN_TICK} <= min <= max <= ${MAX_TICK}`);
  }
  return band;
}

function checkFeeRate(feeRateBps: number): number {
  if (!validInteger(feeRateBps, 0, 10_000)) throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'feeRateBps', feeRateBps, 'must be an integer in [0, 10000]');
  return feeRateBps;
}

function accountFrom(options: OrderSignerOptions): OrderSigningAccount | DigestSigningAccount | WorkerDigestSigner {
  if (options.account && options.privateKey !== undefined) {
    throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'privateKey', '[redacted]', 'and account are exclusive');
  }
  if (options.account) return options.account;
  const key = options.privateKey;
  if (key === undefined || !PRIVATE_KEY.test(key)) {
    throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'privateKey', '[redacted]', 'must be 0x followed by 64 hex digits');
  }
  const lowered = key.toLowerCase();
  if (!isHex(lowered)) throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'privateKey', '[redacted]', 'must be hex');
  try {
    if (options.signingThread === 'worker') return new WorkerDigestSigner(lowered, options.onSigningFallback === undefined ? {} : { onFallback: options.onSigningFallback });
    return localDigestAccount(lowered);
  } catch {
    throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'privateKey', '[redacted]', 'is not a valid secp256k1 key');
  }
}

function isDigestAccount(account: OrderSigningAccount | DigestSigningAccount): account is DigestSigningAccount {
  return 'signDigest' in account && typeof account.signDigest === 'function';
}

export class OrderSigner {
  private readonly account: OrderSigningAccount | DigestSigningAccount | WorkerDigestSigner;
  private readonly salts: SaltSource;
  private readonly domains = new Map<string, OrderDomain>();
  private readonly domainName: string;
  private readonly chainId: number;
  private feeRate: number;
  readonly signerAddress: Address;
  readonly makerAddress: Address;
  readonly signatureType: number;
  readonly priceBand: PriceBand;

  constructor(options: OrderSignerOptions) {
    this.account = accountFrom(options);
    this.signerAddress = getAddress(this.account.address);
    if (options.maker !== undefined && !isAddress(options.maker, { strict: false })) {
      throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'maker', options.maker, 'is not an address');
    }
    this.makerAddress = options.maker === undefined ? this.signerAddress : getAddress(options.maker);
    this.signatureType = options.signatureType ?? 0;
    if (!validInteger(this.signatureType, 0, 3)) {
      throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'signatureType', options.signatureType, 'must be 0, 1, 2 or 3');
    }
    if (this.signatureType === 0 && this.makerAddress !== this.signerAddress) {
      throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'maker', this.makerAddress, 'must equal the signer for signatureType 0 (EOA)');
    }
    this.feeRate = checkFeeRate(options.feeRateBps ?? DEFAULT_FEE_RATE_BPS);
    this.priceBand = checkBand(options.priceBand ?? { minTicks: MIN_TICK, maxTicks: MAX_TICK });
    this.domainName = options.domainName ?? DEFAULT_DOMAIN_NAME;
    this.chainId = options.chainId ?? DEFAULT_CHAIN_ID;
    this.salts = new SaltSource(options.now, options.random);
  }

  get feeRateBps(): number {
    return this.feeRate;
  }

  /** Updates the fee rate signed into new orders (from the profile's rank.feeRateBps). */
  setFeeRateBps(feeRateBps: number): void {
    this.feeRate = checkFeeRate(feeRateBps);
  }

  /** The EIP-712 domain of a venue, built once per verifyingContract. */
  domainFor(venueExchange: string): OrderDomain {
    const key = venueExchange.toLowerCase();
    let domain = this.domains.get(key);
    if (!domain) {
      if (!isAddress(venueExchange, { strict: false })) {
        throw new OrderBuildError('MARKET_NOT_TRADABLE', 'market.venueExchange', venueExchange, 'is not an address');
      }
      domain = orderDomain(venueExchange, { name: this.domainName, chainId: this.chainId });
      this.domains.set(key, domain);
    }
    return domain;
  }

  /** Validates the request and builds the unsigned order. Throws OrderBuildError; nothing is signed then. */
  buildOrder(request: OrderRequest): UnsignedOrder {
    const { market } = request;
    if (request.side !== 'BUY' && request.side !== 'SELL') {
      throw new OrderBuildError('SIDE_INVALID', 'side', request.side, 'must be BUY or SELL');
    }
    if (typeof request.tokenId !== 'string' || !TOKEN_ID.test(request.tokenId)) {
      throw new OrderBuildError('UNKNOWN_TOKEN', 'tokenId', request.tokenId, 'is not a decimal token id');
    }
    if (request.tokenId !== market.tokens.yes && request.tokenId !== market.tokens.no) {
      throw new OrderBuildError('UNKNOWN_TOKEN', 'tokenId', request.tokenId, `is neither the YES nor the NO token of ${market.slug}`);
    }
    const options = this.checkOptions(request);
    const domain = this.domainFor(market.venueExchange);
    let priceTicks: number | null;
    let amounts: { makerAmount: number; takerAmount: number };
    if (request.orderType === 'GTC' || request.orderType === 'FAK') {
      priceTicks = this.checkPrice(request.priceTicks);
      this.checkSize('sizeRaw', request.sizeRaw, request.minSizeRaw);
      amounts = this.amounts(() => limitOrderAmounts(request.side, priceTicks ?? 0, request.sizeRaw));
    } else if (request.orderType === 'FOK') {
      priceTicks = null;
      if (request.side === 'SELL') this.checkSize('amountRaw', request.amountRaw, request.minSizeRaw);
      else if (!validInteger(request.amountRaw, 1, Number.MAX_SAFE_INTEGER)) {
        throw new OrderBuildError('AMOUNT_INVALID', 'amountRaw', request.amountRaw, 'must be a positive integer of raw collateral');
      }
      amounts = marketOrderAmounts(request.amountRaw);
    } else {
      const type: unknown = Reflect.get(request, 'orderType');
      throw new OrderBuildError('ORDER_TYPE_INVALID', 'orderType', type, 'must be GTC, FAK or FOK');
    }
    const struct: OrderStruct = {
      salt: BigInt(this.salts.next()),
      maker: this.makerAddress,
      signer: this.signerAddress,
      taker: ZERO_ADDRESS,
      tokenId: BigInt(request.tokenId),
      makerAmount: BigInt(amounts.makerAmount),
      takerAmount: BigInt(amounts.takerAmount),
      expiration: 0n,
      nonce: 0n,
      feeRateBps: BigInt(this.feeRate),
      side: SIDE_CODE[request.side],
      signatureType: this.signatureType,
    };
    return { marketSlug: market.slug, orderType: request.orderType, side: request.side, priceTicks, domain, struct, options };
  }

  /** Signs the EIP-712 digest of a built order. */
  async signOrder(order: UnsignedOrder): Promise<SignedOrder> {
    const account = this.account;
    const signature =
      account instanceof WorkerDigestSigner
        ? await account.signBytes(orderDigestBytes(order.domain, order.struct))
        : isDigestAccount(account)
          ? account.signDigest(orderDigestBytes(order.domain, order.struct))
          : await account.sign({ hash: orderDigest(order.domain, order.struct) });
    if (!SIGNATURE.test(signature)) {
      throw new OrderBuildError('SIGNER_CONFIG_INVALID', 'signature', `${signature.length} chars`, 'is not 65 bytes of hex');
    }
    return { ...order, signature };
  }

  /** Stops the signing worker, if any (what it had in flight is signed on this thread). Idempotent. */
  async close(): Promise<void> {
    if (this.account instanceof WorkerDigestSigner) await this.account.close();
  }

  /** buildOrder + signOrder. */
  async createOrder(request: OrderRequest): Promise<SignedOrder> {
    return this.signOrder(this.buildOrder(request));
  }

  private checkPrice(priceTicks: number): number {
    if (typeof priceTicks !== 'number' || !Number.isInteger(priceTicks)) {
      throw new OrderBuildError('PRICE_OFF_TICK', 'priceTicks', priceTicks, 'must be an integer number of 0.001 ticks');
    }
    const { minTicks, maxTicks } = this.priceBand;
    if (priceTicks < minTicks || priceTicks > maxTicks) {
      throw new OrderBuildError('PRICE_OUT_OF_BAND', 'priceTicks', priceTicks, `must be within [${minTicks}, ${maxTicks}]`);
    }
    return priceTicks;
  }

  private checkSize(field: string, sizeRaw: number, minSizeRaw: number | undefined): void {
    if (typeof sizeRaw !== 'number' || !Number.isSafeInteger(sizeRaw) || sizeRaw % SIZE_STEP_RAW !== 0) {
      throw new OrderBuildError('SIZE_OFF_STEP', field, sizeRaw, `must be a multiple of ${SIZE_STEP_RAW} raw (0.001 share)`);
    }
    const minimum = Math.max(minSizeRaw ?? 0, SIZE_STEP_RAW);
    if (sizeRaw < minimum) {
      throw new OrderBuildError('SIZE_BELOW_MINIMUM', field, sizeRaw, `must be at least ${minimum} raw`);
    }
  }

  private amounts(compute: () => { makerAmount: number; takerAmount: number }): { makerAmount: number; takerAmount: number } {
    try {
      return compute();
    } catch (error) {
      if (error instanceof UnitError) throw new OrderBuildError('AMOUNT_INVALID', error.field, error.value, error.reason);
      throw error;
    }
  }

  private checkOptions(request: OrderRequest): OrderOptions {
    const { clientOrderId, stpPolicy, recvWindowMs } = request;
    // Read untyped so a FOK request carrying postOnly (possible from untyped callers) is refused, not ignored.
    const postOnly: unknown = Reflect.get(request, 'postOnly') ?? false;
    if (typeof postOnly !== 'boolean') throw new OrderBuildError('POST_ONLY_REQUIRES_GTC', 'postOnly', postOnly, 'must be a boolean');
    if (postOnly && request.orderType !== 'GTC') {
      throw new OrderBuildError('POST_ONLY_REQUIRES_GTC', 'postOnly', request.orderType, 'is allowed for GTC orders only');
    }
    if (clientOrderId !== undefined && (clientOrderId.length > MAX_CLIENT_ORDER_ID_LENGTH || !CLIENT_ORDER_ID.test(clientOrderId))) {
      throw new OrderBuildError('CLIENT_ORDER_ID_INVALID', 'clientOrderId', clientOrderId, `must be 1-${MAX_CLIENT_ORDER_ID_LENGTH} printable ASCII characters without spaces`);
    }
    if (stpPolicy !== undefined && !STP_POLICIES.includes(stpPolicy)) {
      throw new OrderBuildError('STP_POLICY_INVALID', 'stpPolicy', stpPolicy, `must be one of ${STP_POLICIES.join(', ')}`);
    }
    if (recvWindowMs !== undefined && !validInteger(recvWindowMs, 1, MAX_RECV_WINDOW_MS)) {
      throw new OrderBuildError('RECV_WINDOW_INVALID', 'recvWindowMs', recvWindowMs, `must be an integer in [1, ${MAX_RECV_WINDOW_MS}]`);
    }
    return { postOnly, clientOrderId: clientOrderId ?? null, stpPolicy: stpPolicy ?? null, recvWindowMs: recvWindowMs ?? null };
  }
}

/**
 * The exact POST /orders body (exchange-facts §3): tokenId as a decimal string, amounts as integer numbers,
 * expiration "0", price as a number for GTC/FAK only, and the receive window's `timestamp` stamped with `nowMs`
 * (call it again for every attempt so a retry after a 425 carries a fresh stamp).
 */
export function orderRequestBody(signed: SignedOrder, ownerId: number, nowMs: number): OrderRequestBody {
  const s = signed.struct;
  const order: WireOrder = {
    salt: Number(s.salt),
    maker: s.maker,
    signer: s.signer,
    taker: s.taker,
    tokenId: s.tokenId.toString(),
    makerAmount: Number(s.makerAmount),
    takerAmount: Number(s.takerAmount),
    expiration: '0',
    nonce: Number(s.nonce),
    feeRateBps: Number(s.feeRateBps),
    side: s.side,
    signatureType: s.signatureType,
    ...(signed.priceTicks === null ? {} : { price: ticksToFloat(signed.priceTicks) }),
    signature: signed.signature,
  };
  const { options } = signed;
  return {
    order,
    orderType: signed.orderType,
    marketSlug: signed.marketSlug,
    ownerId,
    ...(options.clientOrderId === null ? {} : { clientOrderId: options.clientOrderId }),
    ...(options.postOnly ? { postOnly: true } : {}),
    ...(options.stpPolicy === null ? {} : { stpPolicy: options.stpPolicy }),
    ...(options.recvWindowMs === null ? {} : { timestamp: Math.floor(nowMs), recvWindow: options.recvWindowMs }),
  };
}
