/**
 * The strategy contract: `quote(view) → QuoteIntent[]`, pure and synchronous.
 *
 * A strategy never calls the exchange, never sleeps and reads the clock only through `view.now`.
 * Intents are already on the venue's grid (integer ticks, raw sizes on the step): strategies do their
 * maths in floats and cross the rounding boundary once through `src/strategy/rounding.ts`
 * (bids down, asks up). The runner validates every intent again before it reaches the order manager.
 */
import type { z } from 'zod';
import type { Level, Outcome, Side } from '../core/venue-rules/index.js';
import type { AdverseSelectionView } from './adverse-selection.js';

/** One price level (the venue's rule, src/core/venue-rules/book.ts); re-exported as part of the strategy contract. */
export type { Level } from '../core/venue-rules/index.js';

/** A read-only view of one side-ordered book (YES book, or the NO view derived from it). */
export interface BookView {
  /** Bids, best (highest) first. */
  readonly bids: readonly Level[];
  /** Asks, best (lowest) first. */
  readonly asks: readonly Level[];
  readonly bestBidTicks: number | null;
  readonly bestAskTicks: number | null;
  /** (bestBid + bestAsk) / 2 in price units (0..1); null when a side is empty. */
  readonly mid: number | null;
  /** Size-weighted price at the touch, in price units; null when a side is empty. */
  readonly microprice: number | null;
  /** The venue's adjusted midpoint (counts only orders above minSize), price units; null if unknown. */
  readonly adjustedMidpoint: number | null;
  /** Total raw size resting within `ticks` of the touch on each side. */
  depthWithin(ticks: number): { readonly bidRaw: number; readonly askRaw: number };
}

export interface MarketInfo {
  readonly slug: string;
  readonly tokens: { readonly yes: string; readonly no: string };
  /** Reward minimum order size, raw. */
  readonly minSizeRaw: number;
  /** Reward band around the midpoint, in ticks. */
  readonly maxSpreadTicks: number;
  /** Reward single-sided divisor `c` (default 3). */
  readonly rewardC: number;
  /** Daily reward pool in raw USDC (0 when not rewardable). */
  readonly dailyRewardRaw: number;
  readonly rewardable: boolean;
  /**
   * The venue's maker rebate rate (`settings.rebateRate`, a fraction of the taker fees paid back to makers); absent
   * when the venue does not say (the rebate accrual then uses `rewards.rebateRateFallback`).
   */
  readonly rebateRate?: number;
  /**
   * The creator's fraction of the taker fee, taken before the maker-rebate pool is funded (src/rewards/creator-fee.ts):
   * 0 or absent on the venue's own markets; null on a Community market whose share is not configured (no rebate
   * estimate there).
   */
  readonly creatorFeeShare?: number | null;
  /** The reward scheme's unconfirmed parts as configured (`rewards.scoring`); absent: the documented defaults. */
  readonly rewardRules?: RewardRules;
  /** Expiry in ms since epoch; null if the market has none. */
  readonly expiresAtMs: number | null;
  /** How often the market is listed anew (15m, hourly, daily, weekly); absent or null: unknown. */
  readonly cadence?: string | null;
  /** Allowed price band in ticks (inclusive), from config and venue rules. */
  readonly band: { readonly minTicks: number; readonly maxTicks: number };
}

/** The parts of the reward scheme the venue has not confirmed (exchange-facts §8), as settings. */
export interface RewardRules {
  /** An order scores size × closeness^exponent (documented scheme: 2). */
  readonly exponent: number;
  /** One-sided quotes earn (1/c of their score) only while the midpoint is within [min, max] (documented: 0.05–0.95). */
  readonly singleSidedMin: number;
  readonly singleSidedMax: number;
}

export interface PositionView {
  /** Raw YES tokens held (free, not locked in resting SELLs). */
  readonly yesRaw: number;
  /** Raw NO tokens held. */
  readonly noRaw: number;
  /** Average cost per YES share in price units, null when flat. */
  readonly yesAvgCost: number | null;
  readonly noAvgCost: number | null;
  /** Free collateral (raw USDC) available to this market's quotes. */
  readonly freeCollateralRaw: number;
}

export interface FillView {
  readonly token: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly atMs: number;
}

/**
 * The model's view of a market it prices (src/pricing): the fair value from the underlying that settles the market.
 * Absent (undefined or null) on a market the model does not price; the strategy then uses book references, if
 * the config lets it quote that market at all.
 */
export interface ModelView {
  /** Probability of YES, price units, strictly inside (0, 1). */
  readonly fair: number;
  /** d fair / d S, per 1 USD of the underlying. */
  readonly delta: number;
  /** One standard deviation of the fair value's error, price units (>= 0); quotes keep at least this far away. */
  readonly uncertainty: number;
  /** Seconds until the settlement instant (>= 0). */
  readonly secondsToSettlement: number;
  readonly underlying: {
    readonly ticker: string;
    /** USD. */
    readonly price: number;
    /** ms since the price was received. */
    readonly ageMs: number;
    /** Annualized volatility of the underlying (fraction, e.g. 0.6 = 60 %). */
    readonly volatility: number;
  };
  /**
   * The same model without the volatility surface's ladder part (realized variance only: what the pricer answers with
   * `pricing.surface.impliedWeight: 0, gapWeight: 0`). A book-referenced strategy's guard reads this one by default
   * (src/strategy/model-spread.ts `readModel`), so the surface never reaches it. Absent: the same as the model.
   */
  readonly withoutSurface?: { readonly fair: number; readonly delta: number; readonly uncertainty: number; readonly volatility: number };
}

export interface MarketView {
  readonly market: MarketInfo;
  /** The model's fair value where the market is priced from its underlying (see ModelView). */
  readonly model?: ModelView | null;
  /** The YES book. */
  readonly yes: BookView;
  /** The NO view derived from the YES book (NO bid at 1 − YES ask, NO ask at 1 − YES bid). */
  readonly no: BookView;
  readonly position: PositionView;
  /** Recent fills of this bot in this market, oldest first. */
  readonly recentFills: readonly FillView[];
  /** Mid prices (price units) observed recently, oldest first, with their times: for volatility estimates. */
  readonly midHistory: readonly { readonly atMs: number; readonly mid: number }[];
  /** Injected clock, ms since epoch. */
  readonly now: number;
  /**
   * What the markouts of past fills say about adverse selection in this market and its cadence (the ledger's live,
   * the backtest's own; src/markouts/adverse-provider.ts); absent or null: no provider (the strategy's own view).
   */
  readonly adverseSelection?: AdverseSelectionView | null;
}

/**
 * One of this bot's own resting orders in the market (remaining size). ADDED for strategies: a runner
 * that knows the bot's live orders passes a `MarketViewWithOwnOrders`, so strategies can subtract their
 * own liquidity from the book (no quoting around, or competing for rewards with, themselves).
 */
export interface OwnOrderView {
  readonly token: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  /** Remaining (unfilled) raw size. */
  readonly sizeRaw: number;
}

/** A MarketView that also carries the bot's own resting orders in this market (optional extension). */
export interface MarketViewWithOwnOrders extends MarketView {
  readonly ownOrders: readonly OwnOrderView[];
}

export interface QuoteIntent {
  /** Stable name that survives from one quote to the next, e.g. `bid-0`, `ask-2`. [a-z0-9-], ≤ 24 chars. */
  readonly slot: string;
  readonly token: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
  readonly postOnly?: boolean;
}

/**
 * A strategy module. `create(params)` receives parameters already validated by `paramsSchema`
 * and returns the quoting function (which may keep online state such as a volatility estimate,
 * updated only from what the view carries, so a replay of the same views gives the same quotes).
 */
export interface StrategyModule<P = unknown> {
  readonly name: string;
  readonly description: string;
  readonly paramsSchema: z.ZodType<P>;
  create(params: P): Strategy;
}

export interface Strategy {
  quote(view: MarketView): QuoteIntent[];
  /** Optional figures for metrics (e.g. expected reward per day), from the last quote. */
  diagnostics?(view: MarketView): Readonly<Record<string, number>>;
}
