/**
 * What a backtest returns, and the optional observer hooks it calls while running. Plain data: a result
 * contains no wall-clock figure, so two runs with the same options (and seed) give deep-equal results.
 *
 * Units: raw integers for money and sizes (1e6 = one USDC / one share); fractions in [0, 1]; reward
 * figures in USDC (floats: they come from the venue's reward formula, not from anything booked).
 */
import type { HorizonSummary } from '../markouts/markout.js';
import type { Outcome, Side } from '../core/venue-rules/index.js';
import type { AccountFill, MarketSpec, SimOrder } from '../sim/engine/index.js';
import type { CoreStateCounts } from '../trading/core.js';
import type { BacktestCalibration } from './calibration.js';
import type { SelectionOutcome } from '../markets/selection-loop.js';

export interface MarketResult {
  readonly slug: string;
  /** When the market settles (its expiry); null for a market without one. */
  readonly expiresAtMs: number | null;
  readonly rewardable: boolean;
  readonly dailyRewardRaw: number;
  /** realized − fees + unrealized, the holding marked at the final hidden fair value. */
  readonly pnlRaw: number;
  /** The same, marked at the final book mid; null when the book is one-sided and a mark is needed. */
  readonly pnlAtMidRaw: number | null;
  readonly realizedRaw: number;
  readonly feesRaw: number;
  /** At the final fair value. */
  readonly unrealizedRaw: number;
  readonly fills: number;
  /** Σ collateral of the bot's fills. */
  readonly volumeRaw: number;
  readonly finalYesRaw: number;
  readonly finalNoRaw: number;
  /** Largest |YES − NO| held at any time. */
  readonly maxAbsInventoryRaw: number;
  /** Largest holding of either token at any time. */
  readonly maxTokenRaw: number;
  /** Share of the time with resting orders on both sides (YES terms). */
  readonly twoSidedFraction: number;
  /** Share of the time with at least one resting order. */
  readonly quotingFraction: number;
  /** Time average of the strategy's `expectedRewardPerDay` diagnostic, USDC per day. */
  readonly expectedRewardPerDay: number;
  /** Reward the bot's resting orders would have earned under the venue's formula (src/strategy/rewards.ts), USDC. */
  readonly scoredRewardUsdc: number;
  /** Maker rebates ESTIMATED from the bot's maker fills (taker fee on the fee curve × rebate rate), raw USDC. */
  readonly rebatesRaw: number;
  readonly quoteCycles: number;
  readonly finalFairTicks: number;
  /** Final book mid in millionths; null when a side is empty. */
  readonly finalMidMicros: number | null;
  /** The bot's fills marked against the engine's hidden (true) fair value 1 s, 10 s, 60 s and 5 min later. */
  readonly markouts: readonly HorizonSummary[];
}

/** Capital that came back in one hour of the run (from its start). */
export interface CapitalHour {
  readonly hour: number;
  readonly redeemedRaw: number;
  readonly mergedRaw: number;
  readonly gasUsdcRaw: number;
  readonly transactions: number;
}

/** The capital core's work over the run (src/capital/core.ts through the engine's port). */
export interface CapitalSummary {
  /** USDC redemptions of resolved markets paid. */
  readonly redeemedRaw: number;
  /** USDC complete-set merges paid. */
  readonly mergedRaw: number;
  readonly gasUsdcRaw: number;
  readonly redemptions: number;
  readonly merges: number;
  readonly reverted: number;
  readonly byHour: readonly CapitalHour[];
}

export interface RequestCounts {
  /** Placements that reached the engine: single placements and the placement half of each cancel-replace item. */
  readonly placements: number;
  /** Standalone cancel requests (one per batch of up to `orders.cancelBatchSize` orders). */
  readonly cancelRequests: number;
  /** Orders asked to be canceled: by cancel requests and by cancel-replace items. */
  readonly cancels: number;
  /**
   * placements + cancelRequests: orders placed and cancel requests. The rate limiter sees fewer requests when
   * cancel-replace is on (up to `orders.cancelReplace.batchSize` replacements per request).
   */
  readonly total: number;
  /** Every request through the request model (the rate limiter's count: reads and cancel-replace requests included). */
  readonly sent: number;
  /**
   * Requests withheld unsent as they left the rate limiter by the executor's check (a placement or replacement of a
   * market past its stop before settlement, in a trading mode that refuses it, or while stopping), as the bot's.
   */
  readonly withheld: number;
  /** Placements the venue refused, by engine error code (e.g. POST_ONLY_WOULD_CROSS after a stale quote). */
  readonly rejectedPlacements: number;
  readonly rejectedByCode: Readonly<Record<string, number>>;
}

export interface RunCounters {
  readonly quoteCycles: number;
  readonly strategyErrors: number;
  readonly invalidIntents: number;
  /** Intents funding dropped, by reason. */
  readonly fundingDrops: Readonly<Record<string, number>>;
  /** Intents the risk gate dropped, by reason (halts included). */
  readonly riskDrops: Readonly<Record<string, number>>;
  /** Intents the risk gate trimmed, by reason. */
  readonly riskTrims: Readonly<Record<string, number>>;
  /** Books the view could not be built from (never expected from the engine). */
  readonly rejectedBooks: number;
  /** Order frames of the bot the feed could not read (each resyncs its market, as the bot does); 0 in a sound run. */
  readonly orderEventGaps: number;
}

export interface BacktestResult {
  readonly strategy: string;
  readonly seed: number;
  readonly startMs: number;
  readonly durationMs: number;
  readonly stepMs: number;
  readonly steps: number;
  /** Σ markets: realized − fees + unrealized at the final fair value. */
  readonly pnlRaw: number;
  /** Σ markets, marked at the final mid; null when some market had no mid and needed one. */
  readonly pnlAtMidRaw: number | null;
  readonly realizedRaw: number;
  readonly feesRaw: number;
  readonly unrealizedRaw: number;
  readonly fills: number;
  readonly volumeRaw: number;
  /** Largest |YES − NO| in any market at any time. */
  readonly maxAbsInventoryRaw: number;
  /** Largest holding of one token in any market at any time. */
  readonly maxTokenRaw: number;
  /** Mean over markets. */
  readonly twoSidedFraction: number;
  readonly quotingFraction: number;
  /** Σ markets, USDC per day. */
  readonly expectedRewardPerDay: number;
  /** Σ markets, USDC. */
  readonly scoredRewardUsdc: number;
  /** Σ markets: maker rebates ESTIMATED, raw USDC. */
  readonly rebatesRaw: number;
  readonly requests: RequestCounts;
  readonly counters: RunCounters;
  readonly markets: readonly MarketResult[];
  /** Σ markets: the bot's fills marked against the hidden fair value at each horizon. */
  readonly markouts: readonly HorizonSummary[];
  /** The engine's own consistency check at the end (empty when sound). */
  readonly engineInvariantViolations: readonly string[];
  /** Markets joined and left during the run, and the core's memory hour by hour (./market-roll.ts). */
  readonly roll: RollSummary;
  /** The model's and the book mid's calibration (./calibration.ts) when the `calibration` option is set; else null. */
  readonly calibration: BacktestCalibration | null;
  /** Capital redeemed and merged on-chain through the engine's port (null when the `capital` option is off). */
  readonly capital: CapitalSummary | null;
}

/** One intent a quote cycle submitted, as the order manager got it (the strategy contract's QuoteIntent). */
export interface SubmittedIntent {
  readonly slot: string;
  readonly token: Outcome;
  readonly side: Side;
  readonly priceTicks: number;
  readonly sizeRaw: number;
}

/** What an observer may read of a run while it goes (read-only). */
export interface BacktestView {
  /** The markets traded, as the engine lists them (a crypto world's carry their oracle: ticker, strike, cadence). */
  readonly markets: readonly MarketSpec[];
  /** The bot's resting orders in a market, now. */
  restingOrders(slug: string): readonly SimOrder[];
  /** Calls `listener` after each order event of the bot's account (placement, fill, cancel), with its market. */
  onOrderChange(listener: (slug: string) => void): () => void;
  /** Virtual time now, ms. */
  now(): number;
  /** Requests through the request model so far (RequestCounts.sent). */
  requestsSent(): number;
}

/** Hooks for progress and inspection; every one optional, none may change the run. */
export interface BacktestObserver {
  /** Before the first step: what the observer may read of the run. */
  onStart?(view: BacktestView): void;
  /** The intents a quote cycle submits to the order manager (after the gate; none on a halt). */
  onSubmit?(slug: string, nowMs: number, intents: readonly SubmittedIntent[]): void;
  /** A fill of the bot, after the books were updated (holdings are the new ones). */
  onFill?(fill: AccountFill, holdings: { readonly yesRaw: number; readonly noRaw: number }): void;
  /** A quote cycle ran: intents after the gate, and the halt reason if any. */
  onQuoteCycle?(slug: string, nowMs: number, intents: number, halt: string | null): void;
}

/** The core's memory at one moment (`CoreStateCounts`) and the markets the feed publishes. */
export type StateSample = CoreStateCounts & { readonly atMs: number; readonly feedMarkets: number };

/** What rolled during the run. */
export interface RollSummary {
  /** Joins: the markets listed at the start that were admitted, and every join later (a market the selection took back counts again). */
  readonly joined: number;
  /** Leaves: at the stop before settlement, or by the selection (which may take a market back: each join counts). */
  readonly left: number;
  /** Listed markets `admits` kept out. */
  readonly refused: number;
  /** Leaves that could not confirm every order gone within their budget. */
  readonly uncleanLeaves: number;
  /** The core's memory, sampled half past every virtual hour of the run, and at its end. */
  readonly state: readonly StateSample[];
  /** What the daemon's selection did (the `selection` option); null without it. */
  readonly selection: SelectionOutcome | null;
}
