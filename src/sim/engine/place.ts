/**
 * The place command: the spec's checks in order (validation.ts for the order itself, then expiration, duplicate
 * clientOrderId, post-only, funds), the execution plan, and the commit: the order registered, STP cancels, fills
 * (execute.ts), then the order's end state (rest, MATCHED, CANCELED, UNMATCHED) and the placement answer.
 *
 * Invariants: a rejected placement changes nothing; a FOK that cannot fill in full changes nothing (unless STP
 * rejected it); a BUY needs free USDC for its maker amount plus the taker fee of what it fills at once; a resting
 * order locks exactly what it still needs, and is expired at its signed expiration.
 */
import { rawToDecimal } from '../../core/venue-rules/index.js';
import { clientKey, isFailure, type EngineCore } from './core.js';
import { EngineInvariantError, failure, fieldFailure, MESSAGES } from './errors.js';
import { executeFills } from './execute.js';
import { fillFees } from './fees.js';
import { lock, type AccountState } from './ledger.js';
import { refreshExpiry } from './lifecycle.js';
import { planExecution, stepCollateral, type ExecutionPlan } from './matching.js';
import { cancelResting, expireOrder, finish } from './order-exit.js';
import { emitSettlement } from './settle.js';
import { OrderRecord, type MarketState } from './state.js';
import { validatePlacement, type ValidPlacement } from './validation.js';
import { executionTotals, isoTime } from './wire.js';
import type { EngineFailure, MakerMatch, PlaceInput, PlaceOutcome } from './types.js';

export function place(core: EngineCore, input: PlaceInput): PlaceOutcome {
  return core.command(() => {
    const synthetic = core.accountsById.get(input.profileId)?.synthetic ?? false;
    const outcome = placeChecked(core, input);
    if (outcome.ok) {
      core.ordersPlaced += 1;
      core.observer.onPlaceAccepted?.(outcome.order.type, outcome.order.status, synthetic);
    } else {
      core.observer.onPlaceRejected?.(outcome.code, synthetic);
    }
    return outcome;
  });
}

function placeChecked(core: EngineCore, input: PlaceInput): PlaceOutcome {
  const account = core.accountsById.get(input.profileId);
  if (!account) return failure(404, 'PROFILE_NOT_FOUND', MESSAGES.profileNotFound);
  const market = core.marketsBySlug.get(input.marketSlug);
  if (!market) return failure(404, 'MARKET_NOT_FOUND', MESSAGES.marketNotFound);
  refreshExpiry(core, market);
  if (market.status === 'RESOLVED') return failure(400, 'MARKET_RESOLVED', MESSAGES.marketResolved);
  if (market.expired) return failure(400, 'MARKET_EXPIRED', MESSAGES.marketExpired);
  const valid = validatePlacement(input, account, market, core.band);
  if (isFailure(valid)) return valid;
  const expiration = input.expirationSec ?? 0;
  if (!Number.isSafeInteger(expiration) || expiration < 0) {
    return fieldFailure('INVALID_ORDER', 'order.expiration', `order.expiration must be unix seconds or 0 (got ${expiration})`);
  }
  if (expiration !== 0 && expiration * 1000 <= core.clock.now()) {
    return fieldFailure(
      'INVALID_ORDER',
      'order.expiration',
      `order.expiration ${expiration} (${isoTime(expiration * 1000)}) is not in the future (server time ${isoTime(core.clock.now())}); it is unix seconds, 0 = no expiry`,
    );
  }
  if (valid.clientOrderId !== null && core.ordersByClientId.has(clientKey(account.profileId, valid.clientOrderId))) {
    return failure(409, 'DUPLICATE_CLIENT_ORDER_ID', `Order with clientOrderId ${valid.clientOrderId} already exists`);
  }
  if (input.postOnly && valid.yesLimit !== null && market.book.wouldCross(valid.bookSide, valid.yesLimit)) {
    return failure(400, 'POST_ONLY_WOULD_CROSS', 'Post-only order would cross the book');
  }
  if (valid.side === 'SELL') {
    const size = valid.sizeRaw ?? 0;
    const free = account.freeToken(valid.tokenId);
    if (free < size) return insufficient(`${valid.outcome} tokens`, size, free);
  } else if (account.freeUsdc() < input.makerAmount) {
    return insufficient('USDC', input.makerAmount, account.freeUsdc());
  }
  const plan = planExecution(market.book, {
    profileId: account.profileId,
    outcome: valid.outcome,
    side: valid.side,
    type: valid.type,
    bookSide: valid.bookSide,
    yesLimit: valid.yesLimit,
    sizeRaw: valid.sizeRaw,
    budgetRaw: valid.budgetRaw,
    stpPolicy: valid.stpPolicy,
  });
  // A FOK executes only when it fills in full (fokComplete is false when STP rejected it).
  const executes = valid.type !== 'FOK' || plan.fokComplete;
  // Each fill pays the rate at its own price (fees.ts: the venue's curve, or the flat signed rate).
  const fees = executes && plan.filledRaw > 0 ? fillFees(core.fees, valid.side, plan.fills, account.feeRateBps) : [];
  const fee = fees.reduce((sum, f) => sum + f, 0);
  if (valid.side === 'BUY' && account.freeUsdc() < input.makerAmount + fee) {
    return insufficient('USDC (incl. taker fee)', input.makerAmount + fee, account.freeUsdc());
  }
  return commitPlacement(core, input, account, market, valid, plan, executes, fees);
}

function commitPlacement(
  core: EngineCore,
  input: PlaceInput,
  account: AccountState,
  market: MarketState,
  valid: ValidPlacement,
  plan: ExecutionPlan,
  executes: boolean,
  fees: readonly number[],
): PlaceOutcome {
  const now = core.clock.now();
  const fee = fees.reduce((sum, f) => sum + f, 0);
  const isFokBuy = valid.type === 'FOK' && valid.side === 'BUY';
  const order = new OrderRecord({
    id: core.newOrderId(),
    profileId: account.profileId,
    market,
    tokenId: valid.tokenId,
    outcome: valid.outcome,
    type: valid.type,
    side: valid.side,
    priceTicks: valid.priceTicks,
    makerAmount: input.makerAmount,
    takerAmount: input.takerAmount,
    originalSizeRaw: isFokBuy ? (executes ? plan.filledRaw : 0) : (valid.sizeRaw ?? 0),
    createdAtMs: now,
    clientOrderId: valid.clientOrderId,
    feeRateBps: input.feeRateBps,
    postOnly: input.postOnly,
    stpPolicy: valid.stpPolicy,
    salt: input.salt,
    signature: input.signature,
    signedOrderEcho: input.signedOrderEcho,
    bookSide: valid.bookSide,
    yesTicks: valid.yesLimit ?? 0,
    expiresAtMs: input.expirationSec !== undefined && input.expirationSec > 0 ? input.expirationSec * 1000 : null,
  });
  core.registerOrder(order);
  core.emitOme(order, 'PLACEMENT');

  // A FOK that cannot fill in full changes nothing, unless STP rejected it (then its STP cancels apply).
  const stpCancels = executes || plan.takerRejected ? plan.stpMakerCancels : [];
  for (const maker of stpCancels) cancelResting(core, maker, 'STP_MAKER_CANCELLED');

  const makerMatches: MakerMatch[] = [];
  const trade = executes && plan.fills.length > 0 ? executeFills(core, order, account, market, plan, fees, now, makerMatches) : null;

  if (plan.takerRejected) {
    // STP stops the taker only while it still has size left, so the remainder is canceled.
    finish(core, order, 'CANCELED', 'STP_TAKER_REJECTED');
  } else if (order.remainingSizeRaw === 0 && order.filledSizeRaw > 0) {
    finish(core, order, 'MATCHED', null);
  } else if (order.type === 'GTC') {
    rest(core, order, account, market);
  } else {
    finish(core, order, order.filledSizeRaw > 0 ? 'CANCELED' : 'UNMATCHED', 'UNFILLED_REMAINDER');
  }
  if (trade) emitSettlement(core, trade, 'MATCHED');

  const contracts = order.filledSizeRaw;
  const collateral = order.filledCollateralRaw;
  return {
    ok: true,
    order: order.view(),
    makerMatches,
    execution: {
      matched: contracts > 0,
      settlementStatus: contracts > 0 ? 'MATCHED' : 'UNMATCHED',
      ...(trade ? { tradeEventId: trade.tradeEventId } : {}),
      ...(order.clientOrderId !== null ? { clientOrderId: order.clientOrderId } : {}),
      feeRateBps: order.feeRateBps,
      effectiveFeeBps: collateral > 0 ? Math.round((fee * 10_000) / collateral) : 0,
      totalsRaw: executionTotals(order.side, contracts, collateral, fee),
      ...(plan.takerRejected ? { reason: 'STP_TAKER_REJECTED' } : {}),
      ...(stpCancels.length > 0 ? { stpMakerCancels: stpCancels.map((o) => o.id) } : {}),
    },
  };
}

function rest(core: EngineCore, order: OrderRecord, account: AccountState, market: MarketState): void {
  const price = order.priceTicks;
  if (price === null) throw new EngineInvariantError(`order ${order.id} rests without a price`);
  if (order.side === 'BUY') {
    const need = stepCollateral(order.remainingSizeRaw, price);
    lock(account.usdc, need, 'rest buy');
    order.lockedRaw = need;
  } else {
    lock(account.token(order.tokenId), order.remainingSizeRaw, 'rest sell');
    order.lockedRaw = order.remainingSizeRaw;
  }
  market.book.add(order);
  if (order.filledSizeRaw > 0) core.emitOme(order, 'UPDATE');
  core.enqueue({ kind: 'book', slug: market.spec.slug });
  const expiresAtMs = order.expiresAtMs;
  if (expiresAtMs !== null) {
    core.schedule(Math.max(0, expiresAtMs - core.clock.now()), () => core.command(() => expireOrder(core, order)));
  }
}

function insufficient(what: string, need: number, free: number): EngineFailure {
  return failure(400, 'INSUFFICIENT_BALANCE', `Insufficient balance: order needs ${rawToDecimal(need)} ${what}, ${rawToDecimal(free)} available`);
}
