/**
 * The bot's trading path, wired for a backtest exactly as the composition root (src/app/compose.ts) wires it for
 * the daemon: the strategy runner (src/strategy/runner.ts) → the account view's gate and budget
 * (src/risk/account-view.ts) → the real order executor (src/orders/executor.ts) → a venue port. Nothing here
 * decides anything: every rule lives in those modules, so a backtest quotes, budgets and manages orders as the bot.
 *
 * Owns: the wiring and the start order (executor adopted → book listeners → runner → balance reads every ledger check
 * → expiry requotes). Invariants:
 * the account view's book listener runs before the runner's (departed own liquidity is forgotten before the
 * requote that sees the new book); a booked fill (first report of a fill part) is noted and requotes its market;
 * nothing is quoted before the executor started.
 */
import type { Scheduler } from '../core/clock.js';
import type { AppConfig, RiskConfig } from '../config/types.js';
import { riskLimitsFor } from '../config/index.js';
import { LEDGER_CHECK_EVERY_MS } from '../app/compose.js';
import { ClientOrderIdFactory } from '../orders/client-order-id.js';
import { OrderExecutor } from '../orders/executor.js';
import type { FillEvent, MarketSyncReport } from '../orders/executor-types.js';
import type { SizeTolerance } from '../orders/reconcile.js';
import { TradingModeGate } from '../orders/trading-mode.js';
import type { VenuePort } from '../orders/venue-port.js';
import { AccountView, type AccountLedger } from '../risk/account-view.js';
import type { GateOutcome } from '../risk/gate.js';
import type { RiskLimits } from '../risk/limits.js';
import type { MarketInfo, Strategy } from '../strategy/contract.js';
import { StrategyRunner, type RunnerBooks, type RunnerModelAnswer, type RunnerObserver } from '../strategy/runner.js';

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
}

/**
 * Risk limits as the bot's risk config, for the account view: no per-market overrides; the kill switch and the stale
 * guard (the config's other risk fields) do not run in a backtest.
 */
export function riskConfigOf(limits: RiskLimits): RiskConfig {
  return { ...limits, perMarket: {}, dailyLossLimitRaw: Number.MAX_SAFE_INTEGER, staleGraceMs: 0, socketDownGraceMs: 0 };
}

export class Trader {
  readonly executor: OrderExecutor;
  readonly account: AccountView;
  readonly runner: StrategyRunner;
  private readonly cancels: (() => void)[] = [];

  constructor(private readonly options: TraderOptions) {
    const { scheduler, venue, observer } = options;
    const now = (): number => scheduler.now();
    const slugs = options.markets.map((m) => m.slug);
    const infos = new Map(options.markets.map((m) => [m.slug, m]));
    const modeGate = new TradingModeGate({ scheduler, pollIntervalMs: MODE_POLL_MS, fetchStatus: () => venue.maintenanceStatus() });
    const o = options.orders;
    this.executor = new OrderExecutor({
      venue,
      scheduler,
      modeGate,
      ids: new ClientOrderIdFactory(o.botTag, now),
      markets: options.markets.map((m) => ({ slug: m.slug, tokens: m.tokens })),
      onFill: (fill) => this.filled(fill),
      onOrderChange: (order, previous) => this.account.orderChanged(order, previous),
      reconcile: { priceToleranceTicks: o.priceToleranceTicks, sizeTolerance: o.sizeTolerance, maxOrderAgeMs: o.maxOrderAgeMs, coolOffMs: o.coolOffMs },
      defaultPostOnly: o.postOnly,
      cancelBatchSize: o.cancelBatchSize,
      cancelReplace: o.cancelReplace,
      ...(options.retainTerminalMs === undefined ? {} : { retainTerminalMs: options.retainTerminalMs }),
    });
    this.account = new AccountView({
      ledger: options.ledger,
      orders: () => this.executor.openOrders(),
      markets: { slugs: () => slugs, info: (slug) => infos.get(slug), isResolved: options.isResolved },
      risk: options.risk,
      now,
      halts: () => ({ killSwitch: false, stale: false }),
      onBlocked: () => undefined,
      ...(observer?.onGate === undefined ? {} : { onGate: observer.onGate }),
      log: { info: () => undefined },
    });
    const books: RunnerBooks = options.quoteOnBookChange ? options.books : { books: (slug) => options.books.books(slug), onChange: () => () => undefined };
    this.runner = new StrategyRunner({
      strategy: options.strategy,
      markets: [...options.markets],
      books,
      position: (slug) => this.account.positionView(slug),
      ownOrders: (slug) => this.account.ownOrders(slug),
      recentFills: (slug) => this.account.recentFills(slug),
      gate: (slug, intents) => this.account.gate(slug, intents),
      submit: (slug, intents) => this.executor.submit(slug, intents),
      now,
      ...(options.model === undefined ? {} : { model: options.model }),
      requoteIntervalMs: options.requoteIntervalMs,
      setInterval: (fn, ms) => this.every(ms, fn),
      midHistoryMs: options.midHistory.horizonMs,
      midHistoryMax: options.midHistory.max,
      ...(observer?.runner === undefined ? {} : { observer: observer.runner }),
    });
    this.cancels.push(options.books.onChange((slug) => this.account.bookChanged(slug)));
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
    this.runner.start();
    // The bot re-reads the account at every ledger check, which lifts the balance shortfalls (src/risk/balance-shortfall.ts).
    this.cancels.push(this.every(LEDGER_CHECK_EVERY_MS, () => this.account.balancesRead()));
    const now = this.options.scheduler.now();
    for (const info of this.options.markets) {
      if (info.expiresAtMs === null) continue;
      const at = info.expiresAtMs - riskLimitsFor(this.options.risk, info.slug).stopBeforeExpiryMs;
      this.cancels.push(this.options.scheduler.schedule(at - now, () => this.runner.trigger(info.slug, false)));
    }
  }

  /** Stops quoting and every timer of the wiring (the executor's orders are left as they are). */
  stop(): void {
    this.runner.stop();
    for (const cancel of this.cancels.splice(0)) cancel();
  }

  private filled(fill: FillEvent): void {
    if (fill.update) return;
    this.options.observer?.onFill?.(fill);
    this.account.noteFill(fill);
    this.runner.trigger(fill.marketSlug, false);
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
