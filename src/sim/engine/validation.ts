/**
 * Placement checks that need no book: order type, side, token of the market, price on tick and inside
 * the band, amounts that agree exactly with price and size (exchange-facts §1), size step, signed fee
 * rate, clientOrderId shape, post-only only on GTC. Pure: returns the normalised order or a failure.
 */
import { SIZE_STEP_RAW, TICKS_PER_UNIT, type Outcome, limitOrderAmounts } from '../../core/venue-rules/index.js';
import { fieldFailure } from './errors.js';
import type { AccountState } from './ledger.js';
import type { BookSide } from './order-book.js';
import type { MarketState } from './state.js';
import type { EngineFailure, OrderType, PlaceInput, PriceBand, Side, StpPolicy } from './types.js';

export const MAX_CLIENT_ORDER_ID_LENGTH = 128;
const ORDER_TYPES: readonly OrderType[] = ['GTC', 'FAK', 'FOK'];
const SIDES: readonly Side[] = ['BUY', 'SELL'];
const STP_POLICIES: readonly StpPolicy[] = ['cancel_maker', 'cancel_taker', 'cancel_both'];

export interface ValidPlacement {
  readonly outcome: Outcome;
  readonly tokenId: string;
  readonly type: OrderType;
  readonly side: Side;
  readonly priceTicks: number | null;
  /** Shares; null for a FOK BUY (its size is a collateral budget). */
  readonly sizeRaw: number | null;
  /** FOK BUY only. */
  readonly budgetRaw: number | null;
  readonly bookSide: BookSide;
  /** Limit on the YES book; null for FOK. */
  readonly yesLimit: number | null;
  readonly clientOrderId: string | null;
  readonly stpPolicy: StpPolicy;
}

function isPositiveSafeInt(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0;
}

/** Which side of the YES book an order of `outcome`/`side` sits on. */
export function bookSideOf(outcome: Outcome, side: Side): BookSide {
  return (outcome === 'YES') === (side === 'BUY') ? 'bid' : 'ask';
}

export function validatePlacement(
  input: PlaceInput,
  account: AccountState,
  market: MarketState,
  band: PriceBand,
): ValidPlacement | EngineFailure {
  if (!ORDER_TYPES.includes(input.orderType)) {
    return fieldFailure('INVALID_ORDER', 'orderType', `orderType must be one of ${ORDER_TYPES.join(', ')}`);
  }
  if (!SIDES.includes(input.side)) return fieldFailure('INVALID_ORDER', 'order.side', 'side must be BUY or SELL');
  if (!STP_POLICIES.includes(input.stpPolicy)) {
    return fieldFailure('INVALID_ORDER', 'stpPolicy', `stpPolicy must be one of ${STP_POLICIES.join(', ')}`);
  }
  const outcome = market.outcomeOf(input.tokenId);
  if (outcome === null) {
    return fieldFailure('TOKEN_NOT_IN_MARKET', 'order.tokenId', `token ${input.tokenId} does not belong to market ${market.spec.slug}`);
  }
  if (input.feeRateBps !== account.feeRateBps) {
    return fieldFailure(
      'FEE_RATE_MISMATCH',
      'order.feeRateBps',
      `feeRateBps must equal the profile's fee rate ${account.feeRateBps} (got ${input.feeRateBps})`,
    );
  }
  if (input.clientOrderId !== undefined) {
    if (typeof input.clientOrderId !== 'string' || input.clientOrderId.length === 0 || input.clientOrderId.length > MAX_CLIENT_ORDER_ID_LENGTH) {
      return fieldFailure('INVALID_ORDER', 'clientOrderId', `clientOrderId must be 1 to ${MAX_CLIENT_ORDER_ID_LENGTH} characters`);
    }
  }
  if (input.postOnly && input.orderType !== 'GTC') {
    return fieldFailure('INVALID_ORDER', 'postOnly', 'postOnly is only allowed on GTC orders');
  }
  if (!isPositiveSafeInt(input.makerAmount)) {
    return fieldFailure('INVALID_ORDER', 'order.makerAmount', `makerAmount must be a positive integer (got ${input.makerAmount})`);
  }
  if (!isPositiveSafeInt(input.takerAmount)) {
    return fieldFailure('INVALID_ORDER', 'order.takerAmount', `takerAmount must be a positive integer (got ${input.takerAmount})`);
  }
  const bookSide = bookSideOf(outcome, input.side);
  const common = {
    outcome,
    tokenId: input.tokenId,
    type: input.orderType,
    side: input.side,
    bookSide,
    clientOrderId: input.clientOrderId ?? null,
    stpPolicy: input.stpPolicy,
  };

  if (input.orderType === 'FOK') {
    if (input.priceTicks !== null) return fieldFailure('INVALID_ORDER', 'order.price', 'FOK orders carry no price');
    if (input.takerAmount !== 1) {
      return fieldFailure('AMOUNTS_MISMATCH', 'order.takerAmount', `FOK takerAmount must be 1 (got ${input.takerAmount})`);
    }
    if (input.side === 'SELL') {
      if (input.makerAmount % SIZE_STEP_RAW !== 0) {
        return fieldFailure('SIZE_NOT_ON_STEP', 'order.makerAmount', `size must be a multiple of ${SIZE_STEP_RAW} (got ${input.makerAmount})`);
      }
      return { ...common, priceTicks: null, sizeRaw: input.makerAmount, budgetRaw: null, yesLimit: null };
    }
    return { ...common, priceTicks: null, sizeRaw: null, budgetRaw: input.makerAmount, yesLimit: null };
  }

  const ticks = input.priceTicks;
  if (ticks === null || !Number.isInteger(ticks)) {
    return fieldFailure('INVALID_ORDER', 'order.price', `${input.orderType} orders need a price on the 0.001 tick`);
  }
  if (ticks < band.minTicks || ticks > band.maxTicks) {
    return fieldFailure(
      'PRICE_OUT_OF_BAND',
      'order.price',
      `price must be between ${band.minTicks / TICKS_PER_UNIT} and ${band.maxTicks / TICKS_PER_UNIT} (got ${ticks / TICKS_PER_UNIT})`,
    );
  }
  const sizeRaw = input.side === 'BUY' ? input.takerAmount : input.makerAmount;
  const sizeField = input.side === 'BUY' ? 'order.takerAmount' : 'order.makerAmount';
  if (sizeRaw % SIZE_STEP_RAW !== 0) {
    return fieldFailure('SIZE_NOT_ON_STEP', sizeField, `size must be a multiple of ${SIZE_STEP_RAW} (got ${sizeRaw})`);
  }
  const expected = limitOrderAmounts(input.side, ticks, sizeRaw);
  if (expected.makerAmount !== input.makerAmount || expected.takerAmount !== input.takerAmount) {
    return fieldFailure(
      'AMOUNTS_MISMATCH',
      'order.makerAmount',
      `amounts do not match price ${ticks / TICKS_PER_UNIT} and size ${sizeRaw}: expected makerAmount ${expected.makerAmount}, takerAmount ${expected.takerAmount} (got ${input.makerAmount}, ${input.takerAmount})`,
    );
  }
  const yesLimit = outcome === 'YES' ? ticks : TICKS_PER_UNIT - ticks;
  return { ...common, priceTicks: ticks, sizeRaw, budgetRaw: null, yesLimit };
}
