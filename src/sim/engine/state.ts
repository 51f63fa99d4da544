/**
 * The engine's mutable records: orders and markets. Only the engine mutates them; the outside world
 * gets immutable snapshots through `view()`.
 *
 * Invariants: a LIVE order rests on its market's book with remainingSizeRaw > 0 and `lockedRaw` equal to
 * what its remainder needs (BUY: collateralRaw(remaining, price), SELL: remaining tokens); terminal
 * orders hold no lock and are off the book.
 */
import type { Outcome } from '../../core/venue-rules/index.js';
import { OrderBook, type BookEntry, type BookSide } from './order-book.js';
import type {
  CancelReason,
  MarketSpec,
  MarketStatus,
  MarketTrade,
  OrderStatus,
  OrderType,
  Side,
  SimMarket,
  SimOrder,
  StpPolicy,
} from './types.js';

export interface OrderInit {
  readonly id: string;
  readonly profileId: number;
  readonly market: MarketState;
  readonly tokenId: string;
  readonly outcome: Outcome;
  readonly type: OrderType;
  readonly side: Side;
  readonly priceTicks: number | null;
  readonly makerAmount: number;
  readonly takerAmount: number;
  readonly originalSizeRaw: number;
  readonly createdAtMs: number;
  readonly clientOrderId: string | null;
  readonly feeRateBps: number;
  readonly postOnly: boolean;
  readonly stpPolicy: StpPolicy;
  readonly salt: number;
  readonly signature: string;
  readonly signedOrderEcho: Readonly<Record<string, unknown>>;
  readonly bookSide: BookSide;
  readonly yesTicks: number;
  readonly expiresAtMs: number | null;
}

export class OrderRecord implements BookEntry {
  readonly id: string;
  readonly profileId: number;
  readonly marketId: number;
  readonly marketSlug: string;
  readonly tokenId: string;
  readonly outcome: Outcome;
  readonly type: OrderType;
  readonly side: Side;
  readonly priceTicks: number | null;
  readonly makerAmount: number;
  readonly takerAmount: number;
  originalSizeRaw: number;
  remainingSizeRaw: number;
  filledSizeRaw = 0;
  filledCollateralRaw = 0;
  feePaidRaw = 0;
  status: OrderStatus = 'LIVE';
  cancelReason: CancelReason | null = null;
  readonly createdAtMs: number;
  updatedAtMs: number;
  readonly clientOrderId: string | null;
  readonly feeRateBps: number;
  readonly postOnly: boolean;
  readonly stpPolicy: StpPolicy;
  readonly salt: number;
  readonly signature: string;
  readonly signedOrderEcho: Readonly<Record<string, unknown>>;
  readonly bookSide: BookSide;
  readonly yesTicks: number;
  readonly expiresAtMs: number | null;
  /** Collateral (BUY) or tokens (SELL) reserved by the resting remainder. */
  lockedRaw = 0;

  constructor(init: OrderInit) {
    this.id = init.id;
    this.profileId = init.profileId;
    this.marketId = init.market.spec.id;
    this.marketSlug = init.market.spec.slug;
    this.tokenId = init.tokenId;
    this.outcome = init.outcome;
    this.type = init.type;
    this.side = init.side;
    this.priceTicks = init.priceTicks;
    this.makerAmount = init.makerAmount;
    this.takerAmount = init.takerAmount;
    this.originalSizeRaw = init.originalSizeRaw;
    this.remainingSizeRaw = init.originalSizeRaw;
    this.createdAtMs = init.createdAtMs;
    this.updatedAtMs = init.createdAtMs;
    this.clientOrderId = init.clientOrderId;
    this.feeRateBps = init.feeRateBps;
    this.postOnly = init.postOnly;
    this.stpPolicy = init.stpPolicy;
    this.salt = init.salt;
    this.signature = init.signature;
    this.signedOrderEcho = init.signedOrderEcho;
    this.bookSide = init.bookSide;
    this.yesTicks = init.yesTicks;
    this.expiresAtMs = init.expiresAtMs;
  }

  view(): SimOrder {
    return {
      id: this.id,
      profileId: this.profileId,
      marketId: this.marketId,
      marketSlug: this.marketSlug,
      tokenId: this.tokenId,
      outcome: this.outcome,
      type: this.type,
      side: this.side,
      priceTicks: this.priceTicks,
      makerAmount: this.makerAmount,
      takerAmount: this.takerAmount,
      originalSizeRaw: this.originalSizeRaw,
      remainingSizeRaw: this.remainingSizeRaw,
      filledSizeRaw: this.filledSizeRaw,
      filledCollateralRaw: this.filledCollateralRaw,
      feePaidRaw: this.feePaidRaw,
      status: this.status,
      cancelReason: this.cancelReason,
      createdAtMs: this.createdAtMs,
      updatedAtMs: this.updatedAtMs,
      clientOrderId: this.clientOrderId,
      feeRateBps: this.feeRateBps,
      postOnly: this.postOnly,
      stpPolicy: this.stpPolicy,
      salt: this.salt,
      signature: this.signature,
      signedOrderEcho: this.signedOrderEcho,
      expiresAtMs: this.expiresAtMs,
    };
  }
}

/** One MINED trade in the public feed, with a global sequence for merging feeds newest first. */
export interface FeedEntry {
  readonly seq: number;
  readonly trade: MarketTrade;
}

export class MarketState {
  readonly book = new OrderBook<OrderRecord>();
  status: MarketStatus = 'FUNDED';
  expired = false;
  winningOutcomeIndex: 0 | 1 | null = null;
  payoutNumerators: readonly [number, number] | null = null;
  resolvedAtMs: number | null = null;
  payoutPosted = false;
  volumeRaw = 0;
  lastTradeTicks: number | null = null;
  /** Hidden fair value of YES, log-odds (crypto world: from the true underlying). */
  fairLogOdds: number;
  /** Crypto world: the fair value from the PUBLISHED underlying, which the synthetic maker quotes around; null elsewhere. */
  makerFairLogOdds: number | null = null;
  /** Crypto world: the underlying's price at the settlement instant, once settled. */
  settlementPrice: number | null = null;
  feed: FeedEntry[] = [];
  /** Collateral backing outstanding pairs: +mint, −merge, −redemption payouts. */
  poolRaw = 0;
  /** Pairs minted minus pairs merged. */
  mintedNetRaw = 0;
  yesGrantedRaw = 0;
  noGrantedRaw = 0;
  yesBurnedRaw = 0;
  noBurnedRaw = 0;

  constructor(
    readonly spec: MarketSpec,
    readonly createdAtMs: number,
  ) {
    const p = (spec.initialFairValueTicks ?? 500) / 1000;
    this.fairLogOdds = Math.log(p / (1 - p));
  }

  get tradable(): boolean {
    return !this.expired && this.status !== 'RESOLVED';
  }

  outcomeOf(tokenId: string): Outcome | null {
    if (tokenId === this.spec.yesTokenId) return 'YES';
    if (tokenId === this.spec.noTokenId) return 'NO';
    return null;
  }

  tokenOf(outcome: Outcome): string {
    return outcome === 'YES' ? this.spec.yesTokenId : this.spec.noTokenId;
  }

  view(): SimMarket {
    return {
      ...this.spec,
      createdAtMs: this.createdAtMs,
      status: this.status,
      expired: this.expired,
      tradable: this.tradable,
      winningOutcomeIndex: this.winningOutcomeIndex,
      payoutNumerators: this.payoutNumerators,
      resolvedAtMs: this.resolvedAtMs,
      payoutPosted: this.payoutPosted,
      volumeRaw: this.volumeRaw,
      lastTradeTicks: this.lastTradeTicks,
    };
  }
}
