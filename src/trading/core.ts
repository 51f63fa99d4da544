/**
 * The trading core: the one wiring of the bot's decision path, shared by the daemon (src/app/compose.ts), the
 * backtests (src/backtest/trader.ts) and the bot ≡ backtest test — the trading-mode gate (src/orders/trading-mode.ts)
 * → the order executor (src/orders/executor.ts, the only writer of order state) → the account view
 * (src/risk/account-view.ts: positions, funding and the risk gate over the executor's open orders) → the strategy
 * runner (src/strategy/runner.ts: quotes through the account's gate into the executor).
 *
 * Owns: how those four are wired to each other, and the moments every caller arms the same way (a market's
 * stop-before-expiry requote; the ledger check period). It decides nothing (every rule lives in those modules) and
 * imports no app or backtest module, so both may build on it; what differs between them (the venue, the fill
 * booking, the observers, the halts, the timers) comes in as options.
 *
 * Markets come and go (`addMarket`, `removeMarket`): the core keeps its own set of traded markets (`markets`, a live
 * view the account reads), seeded with the caller's `markets.infoList()` at construction and changed only by those
 * two calls; the caller's `markets` is read again only for `isResolved`. A join goes executor (registered, the bot's
 * live orders adopted by its tag) → the set (the account's per-market state) → the runner (quoted once its book is
 * there): nothing is quoted before it is adopted. A leave goes the other way: the runner stops quoting it at once,
 * the set and the account forget it, then the executor cancels its orders and confirms them gone within the budget,
 * and retires it (src/orders/market-membership.ts: late events and fills still applied and reported, its state
 * dropped once every order is terminal and old enough). Joins and leaves of one market run one at a time, in call
 * order.
 *
 * Invariants: every order change reaches the account before the caller's `onOrderChange`; the account's book listener
 * is registered here, before the runner's (which subscribes when it starts): departed own liquidity is forgotten
 * before the requote that sees the new book; the runner reads positions, own orders and recent fills from the
 * account, gates through it (after the caller's `capIntents`) and submits to the executor; the runner and the
 * account know a market only while it is in the set; no placement or replacement of a market leaves at or after its
 * stop before expiry (`stopAtMs`, from the same risk config as the gate's near-expiry halt, given to the executor,
 * which checks it when each request leaves the rate limiter: docs/order-manager.md, *The stop before settlement*).
 */
import { orderManagerSettings, REQUOTE_INTERVAL_MS, riskLimitsFor } from '../config/index.js';
import type { AppConfig, RiskConfig } from '../config/types.js';
import type { Scheduler } from '../core/clock.js';
import { ClientOrderIdFactory } from '../orders/client-order-id.js';
import { OrderExecutor } from '../orders/executor.js';
import type { ExecutorOptions, LeaveReport, MarketSyncReport } from '../orders/executor.js';
import type { TrackedOrder } from '../orders/order-record.js';
import { TradingModeGate, type TradingModeGateOptions } from '../orders/trading-mode.js';
import type { VenuePort } from '../orders/venue-port.js';
import { AccountView, type AccountLedger, type AccountMarkets, type AccountViewOptions } from '../risk/account-view.js';
import type { MarketInfo, QuoteIntent, Strategy } from '../strategy/contract.js';
import { StrategyRunner, type RunnerBooks, type RunnerOptions } from '../strategy/runner.js';

/**
 * A backtest rereads the account's balances as often as the bot checks its ledger by default (the balance shortfalls
 * lift then: src/risk/balance-shortfall.ts).
 */
export { LEDGER_CHECK_EVERY_MS } from '../config/index.js';

/** The traded markets: what the account reads of them, and their infos (the runner's markets, the executor's tokens). */
export interface TradingMarkets extends AccountMarkets {
  infoList(): readonly MarketInfo[];
}

/** The core's own set of traded markets (see the header): changed only by the core's `addMarket` / `removeMarket`. */
class CoreMarkets implements TradingMarkets {
  private readonly infos = new Map<string, MarketInfo>();

  readonly resolvedSlugs?: () => Iterable<string>;

  constructor(
    initial: readonly MarketInfo[],
    private readonly resolved: (slug: string) => boolean,
    resolvedSlugs: (() => Iterable<string>) | undefined,
  ) {
    for (const info of initial) this.infos.set(info.slug, info);
    if (resolvedSlugs !== undefined) this.resolvedSlugs = resolvedSlugs;
  }

  slugs(): string[] {
    return [...this.infos.keys()];
  }

  info(slug: string): MarketInfo | undefined {
    return this.infos.get(slug);
  }

  infoList(): MarketInfo[] {
    return [...this.infos.values()];
  }

  isResolved(slug: string): boolean {
    return this.resolved(slug);
  }

  add(info: MarketInfo): void {
    this.infos.set(info.slug, info);
  }

  remove(slug: string): void {
    this.infos.delete(slug);
  }

  get size(): number {
    return this.infos.size;
  }
}

/** Sizes of the core's memory by owner (bounded while markets come and go: the rolling-markets soak checks them). */
export interface CoreStateCounts {
  /** Markets in the core's set (traded now). */
  readonly markets: number;
  readonly runnerMarkets: number;
  /** Markets with per-market state in the account view. */
  readonly accountMarkets: number;
  /** Markets registered in the executor (retired ones until dropped), its tracked orders and cached market keys. */
  readonly executorMarkets: number;
  readonly executorRetiredMarkets: number;
  readonly trackedOrders: number;
  readonly openOrders: number;
  readonly orderIndexMarkets: number;
  readonly marketKeys: number;
  /** Joins and leaves still queued or running. */
  readonly membershipOps: number;
}

/** The executor's settings: everything of ExecutorOptions that is not wiring. */
export type ExecutorSettings = Omit<ExecutorOptions, 'venue' | 'scheduler' | 'modeGate' | 'ids' | 'markets' | 'onFill' | 'onOrderChange'>;

export interface TradingCoreOptions {
  readonly venue: VenuePort;
  readonly scheduler: Scheduler;
  readonly strategy: Strategy;
  readonly markets: TradingMarkets;
  /** Holdings and costs (the bot: its ledger; a backtest: its books of the engine's fills). */
  readonly ledger: AccountLedger;
  readonly risk: RiskConfig;
  /** The trading-mode gate: how often and from where the mode is read. */
  readonly mode: Omit<TradingModeGateOptions, 'scheduler'>;
  /** The bot tag of every clientOrderId, and the executor's settings (src/config/derived.ts `orderManagerSettings`). */
  readonly orders: { readonly botTag: string } & ExecutorSettings;
  /** What the account needs besides the wiring: halts, blocked intents, gate decisions, its log. */
  readonly account: Pick<AccountViewOptions, 'halts' | 'onBlocked' | 'onGate' | 'log'>;
  /** The books the runner quotes from; the account hears every change. */
  readonly books: RunnerBooks;
  /**
   * Whether the venue's book can show the bot's own orders (default true). Not in a dry run: its orders exist only in
   * this process, so the strategy's view must not subtract them from the venue's book.
   */
  readonly ownOrdersInBook?: boolean;
  /** Requote on every book change (default true; the bot always does). */
  readonly quoteOnBookChange?: boolean;
  /** What the runner needs besides the wiring: interval, timers, model, mid history, observer. */
  readonly runner: Pick<RunnerOptions, 'requoteIntervalMs' | 'setInterval' | 'model' | 'adverseSelection' | 'onTouch' | 'midHistoryMs' | 'midHistoryMax' | 'observer'>;
  /** Applied to a market's intents before the account's gate (the bot: pricing's caps). */
  readonly capIntents?: (slug: string, intents: readonly QuoteIntent[]) => readonly QuoteIntent[];
  /** A fill part the executor reports (the caller books it; see each caller for when the account notes it). */
  readonly onFill: ExecutorOptions['onFill'];
  /** Every order change, after the account saw it. */
  readonly onOrderChange?: (order: TrackedOrder, previous: TrackedOrder | null) => void;
}

/** The core's settings that come from the bot's config (the daemon's, and the bot side of the bot ≡ backtest test). */
export function coreSettingsOf(config: AppConfig): {
  readonly orders: TradingCoreOptions['orders'];
  readonly modePollIntervalMs: number;
  readonly requoteIntervalMs: number;
} {
  return {
    orders: { botTag: config.orders.botTag, ...orderManagerSettings(config) },
    modePollIntervalMs: config.maintenance.pollIntervalMs,
    requoteIntervalMs: REQUOTE_INTERVAL_MS,
  };
}

export class TradingCore {
  readonly modeGate: TradingModeGate;
  readonly ids: ClientOrderIdFactory;
  readonly executor: OrderExecutor;
  readonly account: AccountView;
  readonly runner: StrategyRunner;
  /** The markets traded now (a live view: changed by `addMarket` and `removeMarket`). */
  readonly markets: TradingMarkets;
  private readonly set: CoreMarkets;
  private readonly unlistenBooks: () => void;
  /** Per market, the tail of its joins and leaves (they run one at a time); removed once it is done. */
  private readonly membershipOps = new Map<string, Promise<void>>();

  constructor(private readonly options: TradingCoreOptions) {
    const { scheduler } = options;
    const callerMarkets = options.markets;
    const listResolved = callerMarkets.resolvedSlugs === undefined ? undefined : () => callerMarkets.resolvedSlugs?.() ?? [];
    this.set = new CoreMarkets(callerMarkets.infoList(), (slug) => callerMarkets.isResolved(slug), listResolved);
    this.markets = this.set;
    const markets = this.set;
    const now = (): number => scheduler.now();
    const { botTag, ...settings } = options.orders;
    this.modeGate = new TradingModeGate({ scheduler, ...options.mode });
    this.ids = new ClientOrderIdFactory(botTag, now);
    const onOrderChange = options.onOrderChange;
    this.executor = new OrderExecutor({
      ...settings,
      venue: options.venue,
      scheduler,
      modeGate: this.modeGate,
      ids: this.ids,
      markets: markets.infoList().map((m) => ({ slug: m.slug, tokens: m.tokens })),
      // The gate's near-expiry halt, held also at the moment each request leaves (see the header).
      stopAtMs: (slug) => this.stopAtMs(slug),
      onFill: options.onFill,
      onOrderChange: (order, previous) => {
        this.account.orderChanged(order, previous);
        onOrderChange?.(order, previous);
      },
    });
    this.account = new AccountView({ ...options.account, ledger: options.ledger, orders: { openIn: (slug) => this.executor.openOrders(slug), locks: this.executor.locks }, markets, risk: options.risk, now });
    const books = options.books;
    const cap = options.capIntents ?? ((_slug: string, intents: readonly QuoteIntent[]) => intents);
    this.runner = new StrategyRunner({
      ...options.runner,
      strategy: options.strategy,
      markets: [...markets.infoList()],
      books: options.quoteOnBookChange === false ? { books: (slug) => books.books(slug), onChange: () => () => undefined } : books,
      position: (slug) => this.account.positionView(slug),
      ownOrders: (slug) => (options.ownOrdersInBook === false ? [] : this.account.ownOrders(slug)),
      recentFills: (slug) => this.account.recentFills(slug),
      gate: (slug, intents) => this.account.gate(slug, cap(slug, intents)),
      submit: (slug, intents) => this.executor.submit(slug, intents),
      now,
    });
    this.unlistenBooks = books.onChange((slug) => this.account.bookChanged(slug));
  }

  /** Requotes `slug` now (a fill, a halt lifted, a stop-before-expiry moment); nothing for a market not traded. */
  requote(slug: string): void {
    this.runner.trigger(slug, false);
  }

  /**
   * Joins a market while running: registered in the executor (its own live orders adopted first, by the bot's tag,
   * as at start-up: the report says adopted / canceled), the account view and the runner; the runner quotes it once
   * its book is there. Idempotent. Resolves once adopted (no quote before). Once the executor is stopping the market
   * is not joined (the report says so, `ok` false). `noOwnOrders`: the caller's evidence that no order of the bot can
   * be in the market (src/markets/join-evidence.ts): it is then made ready without listing its orders.
   */
  addMarket(info: MarketInfo, options: { readonly noOwnOrders?: string } = {}): Promise<MarketSyncReport> {
    return this.oneAtATime(info.slug, async () => {
      const report = await this.executor.addMarket({ slug: info.slug, tokens: info.tokens, ...(options.noOwnOrders === undefined ? {} : { noOwnOrders: options.noOwnOrders }) });
      if (!this.executor.isActiveMarket(info.slug)) return report;
      this.set.add(info);
      this.runner.addMarket(info);
      return report;
    });
  }

  /**
   * Leaves a market: the runner stops quoting it at once, the executor cancels its orders and confirms them gone
   * (unknown outcomes resolved by clientOrderId), within `budgetMs`; then the market is retired: no plan is accepted,
   * late order events and fills of its orders are still applied and reported (fills are never lost), and its state is
   * dropped once every order is terminal and old enough. `left`: its orders still open (not confirmed ended).
   */
  removeMarket(slug: string, options: { readonly budgetMs: number }): Promise<LeaveReport> {
    return this.oneAtATime(slug, () => {
      this.runner.removeMarket(slug);
      this.set.remove(slug);
      this.account.removeMarket(slug);
      return this.executor.retireMarket(slug, options);
    });
  }

  /**
   * Arms each market's requote at its stop-before-expiry moment (so the gate's halt takes effect then, not at the
   * next cycle) with the caller's one-shot timer `at(atMs, fn)`.
   */
  armExpiryRequotes(at: (atMs: number, fn: () => void) => void): void {
    for (const info of this.set.infoList()) this.armExpiryRequote(info, at);
  }

  /** Arms one market's stop-before-expiry requote (what armExpiryRequotes does for all, for a market joined later). */
  armExpiryRequote(info: MarketInfo, at: (atMs: number, fn: () => void) => void): void {
    const stopAt = this.stopAtMs(info.slug, info);
    if (stopAt !== null) at(stopAt, () => this.requote(info.slug));
  }

  /**
   * A market's stop before expiry (the risk gate's near-expiry halt: `risk.stopBeforeExpirySec`, or the per-market
   * stop the caller's risk config holds, e.g. the pricing stop of a priced market); null without an expiry or a market.
   */
  stopAtMs(slug: string, info: MarketInfo | undefined = this.set.info(slug)): number | null {
    if (info === undefined || info.expiresAtMs === null) return null;
    return info.expiresAtMs - riskLimitsFor(this.options.risk, slug).stopBeforeExpiryMs;
  }

  /** Sizes of what the core's parts hold (memory checks). */
  stateCounts(): CoreStateCounts {
    const executor = this.executor.counts();
    return {
      markets: this.set.size,
      runnerMarkets: this.runner.marketCount(),
      accountMarkets: this.account.marketCount(),
      executorMarkets: executor.markets,
      executorRetiredMarkets: executor.retiredMarkets,
      trackedOrders: executor.trackedOrders,
      openOrders: executor.openOrders,
      orderIndexMarkets: executor.orderIndexMarkets,
      marketKeys: executor.marketKeys,
      membershipOps: this.membershipOps.size,
    };
  }

  /** Stops quoting and the account's book listener (the executor's orders are left as they are). */
  stop(): void {
    this.runner.stop();
    this.unlistenBooks();
  }

  /** Runs `op` after the market's earlier joins and leaves (whatever they came to). */
  private oneAtATime<T>(slug: string, op: () => Promise<T>): Promise<T> {
    const before = this.membershipOps.get(slug) ?? Promise.resolve();
    const run = before.then(op);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.membershipOps.set(slug, tail);
    void tail.then(() => {
      if (this.membershipOps.get(slug) === tail) this.membershipOps.delete(slug);
    });
    return run;
  }
}
