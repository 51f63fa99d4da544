/**
 * The bot's trading path for a backtest, wired by the same function as the daemon's (src/trading/core.ts, used by
 * src/app/compose.ts): the strategy runner → the account view's gate and budget → the real order executor → a venue
 * port. Nothing here decides anything: every rule lives in those modules, so a backtest quotes, budgets and manages
 * orders as the bot.
 *
 * Owns: the backtest's options for the core (no kill switch or stale halts, the trading mode read once, the engine's
 * books of fills as the ledger), its timers, the start order (executor adopted → runner → balance reads every
 * ledger check → expiry requotes), and markets joined and left during the run (`addMarket`, `removeMarket`: the
 * core's, with the market's expiry requote armed and disarmed here). Invariants: a booked fill (first report of a
 * fill part) is noted and requotes its market; nothing is quoted before the executor started; a market's expiry
 * requote is armed once quoting started and it is traded, and no timer of a market outlives its leave.
 */
import type { Scheduler } from '../core/clock.js';
import type { AppConfig, RiskConfig } from '../config/types.js';
import type { OrderExecutor } from '../orders/executor.js';
import type { FillEvent, LeaveReport, MarketSyncReport } from '../orders/executor.js';
import type { SizeTolerance } from '../orders/reconcile.js';
import type { VenuePort } from '../orders/venue-port.js';
import type { AccountLedger, AccountView } from '../risk/account-view.js';
import type { GateOutcome } from '../risk/gate.js';
import type { RiskLimits } from '../risk/limits.js';
import type { MarketInfo, Strategy } from '../strategy/contract.js';
import type { RunnerBooks, RunnerModelAnswer, RunnerObserver, RunnerOptions, StrategyRunner } from '../strategy/runner.js';
import type { Touch } from '../strategy/own-orders.js';
import { LEDGER_CHECK_EVERY_MS, TradingCore } from '../trading/core.js';

/** The trading mode is read once at start (the engine has none); polling would only add requests. */
const MODE_POLL_MS = 3_600_000;

/** Order management, as the bot's `orders` config section. */
export interface TraderOrderOptions {
  readonly botTag: string;
  readonly priceToleranceTicks: number;
  readonly sizeTolerance: SizeTolerance;
  readonly maxOrderAgeMs: number;
  readonly coolOffMs: number;
  readonly postOnly: boolean;
  readonly cancelBatchSize: number;
  readonly cancelReplace: { readonly enabled: boolean; readonly batchSize: number };
}

/** Cancel requests batch up to this many orders (the backtest's default; the bot's cancel-batch size). */
export const CANCEL_BATCH_SIZE = 50;

/** The bot config's order management as the trader's options: the one mapping the replay and synthetic runs share. */
export function traderOrdersOf(config: Pick<AppConfig, 'orders'>): TraderOrderOptions {
  const orders = config.orders;
  return {
    botTag: orders.botTag,
    priceToleranceTicks: orders.refreshTolerance.priceTicks,
    sizeTolerance: orders.refreshTolerance.size,
    maxOrderAgeMs: orders.maxOrderAgeMs,
    coolOffMs: orders.filledOrderDelayMs,
    postOnly: orders.postOnly,
    cancelBatchSize: CANCEL_BATCH_SIZE,
    cancelReplace: orders.cancelReplace,
  };
}

export interface TraderObserver {
  readonly runner?: RunnerObserver;
  readonly onGate?: (slug: string, outcome: GateOutcome) => void;
  /** A fill part reported for the first time: book it in the ledger (called before the account notes it and requotes). */
  readonly onFill?: (fill: FillEvent) => void;
}

export interface TraderOptions {
  readonly venue: VenuePort;
  readonly scheduler: Scheduler;
  readonly strategy: Strategy;
  readonly markets: readonly MarketInfo[];
  readonly isResolved: (slug: string) => boolean;
  /** Holdings and costs (the bot: its ledger; the backtest: its books of the engine's fills). */
  readonly ledger: AccountLedger;
  readonly books: RunnerBooks;
  readonly risk: RiskConfig;
  readonly orders: TraderOrderOptions;
  readonly requoteIntervalMs: number;
  /** Requote on every book change (the bot always does). */
  readonly quoteOnBookChange: boolean;
  readonly midHistory: { readonly horizonMs: number; readonly max: number };
  /**
   * How long the executor keeps terminal orders (the bot: its default, 1 h). Only late events of finished orders
   * read them; a backtest's events are never that late, and a shorter memory keeps every lookup short.
   */
  readonly retainTerminalMs?: number;
  readonly observer?: TraderObserver;
  /** The pricing layer's answer per market (src/pricing/market-pricer.ts); absent: every market from its book. */
  readonly model?: (slug: string) => RunnerModelAnswer;
  /** The others' touch at each book change (the pricer's ladder samples). */
  readonly onTouch?: (slug: string, touch: Touch) => void;
  /** The markouts' adverse selection per market and cadence (the backtest's own fills; src/markouts/adverse-provider.ts). */
  readonly adverseSelection?: RunnerOptions['adverseSelection'];
}

/**
 * Risk limits as the bot's risk config, for the account view: no per-market overrides; the kill switch and the stale
 * guard (the config's other risk fields) do not run in a backtest.
 */
export function riskConfigOf(limits: RiskLimits): RiskConfig {
  return { ...limits, perMarket: {}, dailyLossLimitRaw: Number.MAX_SAFE_INTEGER, staleGraceMs: 0, socketDownGraceMs: 0, maxAuthRefusals: Number.MAX_SAFE_INTEGER };
}

export class Trader {
  readonly core: TradingCore;
  readonly executor: OrderExecutor;
  readonly account: AccountView;
  readonly runner: StrategyRunner;
  private readonly cancels: (() => void)[] = [];
  /** Per traded market, its armed stop-before-expiry requote. */
  private readonly expiryTimers = new Map<string, () => void>();
  private quoting = false;

  constructor(private readonly options: TraderOptions) {
    const { scheduler, venue, observer } = options;
    const infos = new Map(options.markets.map((m) => [m.slug, m]));
    const { botTag, priceToleranceTicks, sizeTolerance, maxOrderAgeMs, coolOffMs, postOnly, cancelBatchSize, cancelReplace } = options.orders;
    this.core = new TradingCore({
      venue,
      scheduler,
      strategy: options.strategy,
      markets: { slugs: () => options.markets.map((m) => m.slug), info: (slug) => infos.get(slug), isResolved: options.isResolved, infoList: () => options.markets },
      ledger: options.ledger,
      risk: options.risk,
      mode: { pollIntervalMs: MODE_POLL_MS, fetchStatus: () => venue.maintenanceStatus() },
      orders: {
        botTag,
        reconcile: { priceToleranceTicks, sizeTolerance, maxOrderAgeMs, coolOffMs },
        defaultPostOnly: postOnly,
        cancelBatchSize,
        cancelReplace,
        ...(options.retainTerminalMs === undefined ? {} : { retainTerminalMs: options.retainTerminalMs }),
      },
      account: {
        halts: () => ({ killSwitch: false, stale: false }),
        onBlocked: () => undefined,
        ...(observer?.onGate === undefined ? {} : { onGate: observer.onGate }),
        log: { info: () => undefined },
      },
      books: options.books,
      quoteOnBookChange: options.quoteOnBookChange,
      runner: {
        requoteIntervalMs: options.requoteIntervalMs,
        setInterval: (fn, ms) => this.every(ms, fn),
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.onTouch === undefined ? {} : { onTouch: options.onTouch }),
        ...(options.adverseSelection === undefined ? {} : { adverseSelection: options.adverseSelection }),
        midHistoryMs: options.midHistory.horizonMs,
        midHistoryMax: options.midHistory.max,
        ...(observer?.runner === undefined ? {} : { observer: observer.runner }),
      },
      onFill: (fill) => this.filled(fill),
    });
    ({ executor: this.executor, account: this.account, runner: this.runner } = this.core);
  }

  /** Adopts live orders, then starts quoting. */
  async start(): Promise<readonly MarketSyncReport[]> {
    const reports = await this.adopt();
    this.quote();
    return reports;
  }

  /** The executor's start-up: trading mode read, the bot's live orders adopted. */
  adopt(): Promise<readonly MarketSyncReport[]> {
    return this.executor.start();
  }

  /** Starts quoting (after `adopt`); each market is requoted at its stop-before-expiry time. */
  quote(): void {
    this.quoting = true;
    this.runner.start();
    // The bot re-reads the account at every ledger check, which lifts the balance shortfalls (src/risk/balance-shortfall.ts).
    this.cancels.push(this.every(LEDGER_CHECK_EVERY_MS, () => this.account.balancesRead()));
    for (const info of this.core.markets.infoList()) this.armExpiry(info);
  }

  /** Joins a market during the run (src/trading/core.ts `addMarket`); its expiry requote is armed once it is traded. */
  async addMarket(info: MarketInfo): Promise<MarketSyncReport> {
    const report = await this.core.addMarket(info);
    if (this.quoting && this.core.markets.info(info.slug) !== undefined) this.armExpiry(info);
    return report;
  }

  /** Leaves a market (src/trading/core.ts `removeMarket`): its expiry requote disarmed, its orders canceled and confirmed gone. */
  removeMarket(slug: string, options: { readonly budgetMs: number }): Promise<LeaveReport> {
    this.expiryTimers.get(slug)?.();
    this.expiryTimers.delete(slug);
    return this.core.removeMarket(slug, options);
  }

  /** Stops quoting and every timer of the wiring (the executor's orders are left as they are). */
  stop(): void {
    this.quoting = false;
    this.core.stop();
    for (const cancel of this.cancels.splice(0)) cancel();
    for (const cancel of this.expiryTimers.values()) cancel();
    this.expiryTimers.clear();
  }

  /** Arms the market's stop-before-expiry requote (once): forgotten when it fires or the market is left. */
  private armExpiry(info: MarketInfo): void {
    if (this.expiryTimers.has(info.slug)) return;
    const { scheduler } = this.options;
    this.core.armExpiryRequote(info, (atMs, fn) => {
      const cancel = scheduler.schedule(Math.max(0, atMs - scheduler.now()), () => {
        this.expiryTimers.delete(info.slug);
        fn();
      });
      this.expiryTimers.set(info.slug, cancel);
    });
  }

  private filled(fill: FillEvent): void {
    if (fill.update) return;
    this.options.observer?.onFill?.(fill);
    this.account.noteFill(fill);
    this.core.requote(fill.marketSlug);
  }

  private every(ms: number, fn: () => void): () => void {
    let cancel: () => void = () => undefined;
    const arm = (): void => {
      cancel = this.options.scheduler.schedule(ms, () => {
        arm();
        fn();
      });
    };
    arm();
    return () => cancel();
  }
}
