/**
 * Execution planning: given the book and a taker, which resting orders it trades with, how much, at
 * what price, and what self-trade prevention does. Pure with respect to state: it only reads the book,
 * so a plan can be checked (balances, FOK all-or-nothing) before anything is committed.
 *
 * Rules: price-time priority; the maker's price is the execution price; complementary matching on the
 * one YES book (BUY vs BUY mints a pair, SELL vs SELL merges one, BUY vs SELL of one token transfers);
 * sizes move in whole size steps, so every collateral amount n × ticks / 1000 is an exact integer.
 */
import { SIZE_STEP_RAW, TICKS_PER_UNIT, type Outcome } from '../../core/venue-rules/index.js';
import type { BookSide, OrderBook } from './order-book.js';
import type { OrderRecord } from './state.js';
import type { FillKind, OrderType, Side, StpPolicy } from './types.js';

export interface TakerRequest {
  readonly profileId: number;
  readonly outcome: Outcome;
  readonly side: Side;
  readonly type: OrderType;
  readonly bookSide: BookSide;
  /** Worst YES price the taker accepts; null for FOK (no price). */
  readonly yesLimit: number | null;
  /** Shares to trade; null for a FOK BUY, which has a collateral budget instead. */
  readonly sizeRaw: number | null;
  /** FOK BUY: collateral to spend (fee excluded). */
  readonly budgetRaw: number | null;
  readonly stpPolicy: StpPolicy;
}

export interface PlannedFill {
  readonly maker: OrderRecord;
  readonly sizeRaw: number;
  /** Execution price on the YES book (the maker's price). */
  readonly yesTicks: number;
  /** Execution price in the taker's token. */
  readonly takerTicks: number;
  /** Collateral the taker pays (BUY) or receives (SELL), before fee. */
  readonly takerCollateralRaw: number;
  /** Collateral the maker pays (BUY) or receives (SELL). */
  readonly makerCollateralRaw: number;
  readonly kind: FillKind;
}

export interface ExecutionPlan {
  readonly fills: readonly PlannedFill[];
  readonly filledRaw: number;
  readonly takerCollateralRaw: number;
  /** Own resting orders met on the way that STP cancels (cancel_maker, cancel_both). */
  readonly stpMakerCancels: readonly OrderRecord[];
  /** STP stopped the taker (cancel_taker, cancel_both). */
  readonly takerRejected: boolean;
  /** FOK only: the order can execute in full (fill-or-kill satisfied). */
  readonly fokComplete: boolean;
}

/** Price of `outcome` for a YES-book price. */
export function outcomeTicks(outcome: Outcome, yesTicks: number): number {
  return outcome === 'YES' ? yesTicks : TICKS_PER_UNIT - yesTicks;
}

/** Exact collateral of `sizeRaw` shares (a multiple of the step) at `ticks`. */
export function stepCollateral(sizeRaw: number, ticks: number): number {
  return (sizeRaw / TICKS_PER_UNIT) * ticks;
}

export function fillKind(takerOutcome: Outcome, takerSide: Side, makerOutcome: Outcome, makerSide: Side): FillKind {
  if (takerOutcome === makerOutcome) return 'TRANSFER';
  return takerSide === 'BUY' && makerSide === 'BUY' ? 'MINT' : 'MERGE';
}

export function planExecution(book: OrderBook<OrderRecord>, req: TakerRequest): ExecutionPlan {
  const fills: PlannedFill[] = [];
  const stpMakerCancels: OrderRecord[] = [];
  let takerRejected = false;
  let remainingSize = req.sizeRaw ?? Number.POSITIVE_INFINITY;
  let remainingBudget = req.budgetRaw ?? Number.POSITIVE_INFINITY;
  let filledRaw = 0;
  let takerCollateralRaw = 0;
  let budgetBound = false;
  let lastTakerTicks = 0;

  for (const maker of book.crossing(req.bookSide, req.yesLimit)) {
    if (maker.profileId === req.profileId) {
      if (req.stpPolicy !== 'cancel_taker') stpMakerCancels.push(maker);
      if (req.stpPolicy !== 'cancel_maker') {
        takerRejected = true;
        break;
      }
      continue;
    }
    const takerTicks = outcomeTicks(req.outcome, maker.yesTicks);
    let size = Math.min(maker.remainingSizeRaw, remainingSize);
    if (req.budgetRaw !== null) {
      const affordable = Math.floor(remainingBudget / stepCollateral(SIZE_STEP_RAW, takerTicks)) * SIZE_STEP_RAW;
      size = Math.min(size, affordable);
      if (size === 0) {
        budgetBound = true;
        break;
      }
    }
    const takerCollateral = stepCollateral(size, takerTicks);
    fills.push({
      maker,
      sizeRaw: size,
      yesTicks: maker.yesTicks,
      takerTicks,
      takerCollateralRaw: takerCollateral,
      makerCollateralRaw: stepCollateral(size, outcomeTicks(maker.outcome, maker.yesTicks)),
      kind: fillKind(req.outcome, req.side, maker.outcome, maker.side),
    });
    lastTakerTicks = takerTicks;
    filledRaw += size;
    takerCollateralRaw += takerCollateral;
    remainingSize -= size;
    remainingBudget -= takerCollateral;
    if (remainingSize === 0 || remainingBudget === 0) break;
  }

  let fokComplete = false;
  if (req.type === 'FOK' && !takerRejected && filledRaw > 0) {
    // A budget counts as spent when what is left cannot buy one more size step at the marginal price.
    fokComplete =
      req.budgetRaw !== null
        ? budgetBound || remainingBudget < stepCollateral(SIZE_STEP_RAW, lastTakerTicks)
        : remainingSize === 0;
  }
  return { fills, filledRaw, takerCollateralRaw, stpMakerCancels, takerRejected, fokComplete };
}
