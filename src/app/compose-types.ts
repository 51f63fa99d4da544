/**
 * The composition's contracts (src/app/compose.ts builds them): what it is given (`ComposeDeps`), the components of a
 * running bot (`BotComponents`, none null) and the handle it returns (`ComposedBot`). Types only.
 */
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import type { Metrics, ReadinessState } from '../metrics/index.js';
import type { OrderExecutor } from '../orders/executor.js';
import type { TradingModeGate } from '../orders/trading-mode.js';
import type { OrderStreamWatch } from '../orders/order-stream-watch.js';
import type { KillSwitch } from '../risk/kill-switch.js';
import type { StaleGuard } from '../risk/stale-guard.js';
import type { Settler } from '../capital/settler.js';
import type { StrategyRunner } from '../strategy/runner.js';
import type { Strategy } from '../strategy/contract.js';
import type { AccountView } from '../risk/account-view.js';
import type { BotPricing } from '../pricing/live-pricing.js';
import type { FeedReactions } from './feed-reactions.js';
import type { FillRecorder } from '../booking/fill-recorder.js';
import type { MarketFeed } from '../exchange/socket.js';
import type { BookStore } from '../book/book-store.js';
import type { SocketUnits } from '../book/size-units.js';
import type { LedgerSync } from '../booking/ledger-sync.js';
import type { buildCalibrationSampler } from '../calibration/live-calibration.js';
import type { RewardAccrual } from '../rewards/reward-accrual.js';
import type { RebateResolver } from '../rewards/rebate-resolver.js';
import type { VenueRewardsPoller, ReadVenueRewards } from '../rewards/venue-rewards.js';
import type { MarkoutSampler } from '../markouts/sampler.js';
import type { OrderRecorder } from '../booking/order-recorder.js';
import type { PositionPublisher } from '../operator/position-publisher.js';
import type { BotResources } from './resources.js';
import type { StatusLine } from '../operator/status-line.js';
import type { QuotingTotals } from '../operator/quoting-time.js';
import type { Telemetry } from '../operator/telemetry.js';
import type { Timers } from './timers.js';
import type { TradedMarkets } from '../markets/traded-markets.js';
import type { MarketRoster } from '../markets/market-roster.js';
import type { MarketDiscovery } from '../markets/market-discovery.js';

import type { CapitalPort } from '../capital/port.js';
import type { BotCapital } from '../capital/bot-capital.js';

export interface ComposeDeps {
  readonly resources: BotResources;
  readonly strategy: Strategy;
  readonly metrics: Metrics;
  readonly telemetry: Telemetry;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly dryRun: boolean;
  /** True once the bot is stopping: no resync or catch-up starts then, and a start in progress goes no further. */
  readonly stopping: () => boolean;
  /** Aborted when the bot is asked to stop: start-up waits end at once. */
  readonly signal?: AbortSignal;
  /** How often the daily loss is checked besides on every fill (KillSwitch's default when absent). */
  readonly killSwitchCheckIntervalMs?: number;
  /** How often positions, PnL and marks are published besides soon after a fill (PUBLISH_POSITIONS_EVERY_MS when absent). */
  readonly positionsPublishEveryMs?: number;
  /** Reads the venue's own reward figures (the portfolio's `rewards`); absent: they are not read. */
  readonly readVenueRewards?: ReadVenueRewards;
  /** The live chain port (redeem and merge through JSON-RPC); absent: none live (paper uses the simulator's engine). */
  readonly chainPort?: CapitalPort;
}

/** Every component of a running bot; none is null. */
export interface BotComponents {
  readonly markets: TradedMarkets;
  readonly modeGate: TradingModeGate;
  readonly executor: OrderExecutor;
  readonly fills: FillRecorder;
  readonly orders: OrderRecorder;
  readonly account: AccountView;
  readonly ledgerSync: LedgerSync;
  readonly settler: Settler;
  /** On-chain redemption and merges (src/capital/bot-capital.ts). */
  readonly capital: BotCapital;
  readonly units: SocketUnits;
  readonly feed: MarketFeed;
  readonly books: BookStore;
  readonly staleGuard: StaleGuard;
  readonly orderStreamWatch: OrderStreamWatch;
  readonly killSwitch: KillSwitch;
  readonly positions: PositionPublisher;
  readonly reactions: FeedReactions;
  readonly runner: StrategyRunner;
  /** Crypto strike markets priced from their underlying (store, pricer). */
  readonly pricing: BotPricing;
  /** Every booked fill judged at 0 s…5 min against the book mid without own orders and the model (src/markouts/live-markouts.ts). */
  readonly markouts: MarkoutSampler;
  /** Estimated rewards per minute and rebates per maker fill into the ledger (src/rewards/reward-accrual.ts). */
  readonly rewardAccrual: RewardAccrual;
  /** The venue's own reward figures, read on a slow timer (src/rewards/venue-rewards.ts). */
  readonly venueRewards: VenueRewardsPoller;
  /** Maker rebates resolved from the public trade feed (src/rewards/rebate-resolver.ts). */
  readonly rebateResolver: RebateResolver;
  /** Model vs book-mid predictions before each priced market's settlement, scored on resolution (null: off; src/calibration/live-calibration.ts). */
  readonly calibration: ReturnType<typeof buildCalibrationSampler>;
  readonly timers: Timers;
  /** Joins and leaves markets while running (src/markets/market-roster.ts). */
  readonly roster: MarketRoster;
  /** Which markets to trade, re-decided while running (src/markets/market-discovery.ts). */
  readonly discovery: MarketDiscovery;
}

export interface ComposedBot {
  readonly components: BotComponents;
  /** Boot order (see the header). Resolves once the runner started. */
  start(): Promise<void>;
  /** Stop order (see the header); `clean` is false when orders or unknown outcomes were left. */
  /**
   * Stops every component in the stop order; what runs after the cancels (the last rebate pass) gets what is left
   * before `deadlineMs` (scheduler time; default: now + shutdown.budgetMs) less the close's reserve.
   */
  stop(deadlineMs?: number): Promise<{ readonly clean: boolean }>;
  readiness(): ReadinessState;
  /** What the status line would say now, with the reason each unquoted market has no order (`GET /status`). */
  status(): StatusLine;
  /** Where the run's time went so far: quoting, waiting (markets expected, no order), idle (null: not started). */
  quoting(): QuotingTotals | null;
}
