/**
 * The bot: builds every component from a validated config and starts and stops them in order.
 *
 * Start: local resources first (ledger opened and migrated, metrics port bound, control file; a failure here stops
 * the bot before its first request) → venue → client (profile: ownerId, fee rate) → markets → order manager (adopts
 * the bot's live orders, by its tag only; no quote before) → feed and books → risk → strategy runner. Stop: runner stops
 * quoting → executor cancels the bot's orders (confirmed, within the budget) → feed, books, ledger, metrics,
 * venue close. Owns: the wiring only — every rule lives in the module that owns it.
 *
 * Invariants: one owner per fact (books: BookStore; order state: OrderExecutor; fills and positions: the
 * ledger); every fill the executor reports reaches the ledger; nothing is quoted while the executor is not
 * started, the book is missing or stale, or the kill switch is engaged.
 */
import { Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import { effectivePriceBand, riskLimitsFor, validateStrategy } from '../config/index.js';
import { componentLogger } from '../log.js';
import { controlFilePath, createMetrics, startMetricsServer, type Metrics } from '../metrics/index.js';
import { connectExchange, type ExchangeClient } from '../exchange/client.js';
import { sharedLimitDegraded, sharedTransportOptions } from '../exchange/shared-limiter-config.js';
import { signingMarketOf, type SigningMarket } from '../exchange/signer.js';
import type { Market } from '../exchange/wire.js';
import { MarketFeed, type FeedAuthState } from '../exchange/socket.js';
import { BookStore } from '../book/book-store.js';
import { amountUnitFromSize, SocketUnits } from '../book/size-units.js';
import { systemScheduler, type Scheduler } from '../core/clock.js';
import { OrderExecutor, type FillEvent } from '../orders/executor.js';
import { ClientOrderIdFactory, isOwnClientOrderId, tryParseClientOrderId } from '../orders/client-order-id.js';
import { TradingModeGate } from '../orders/trading-mode.js';
import type { Balances } from '../orders/funding.js';
import type { TrackedOrder } from '../orders/order-record.js';
import { isOpen, isResting } from '../orders/order-state.js';
import { marketNotionalRaw, type RiskOrder } from '../risk/limits.js';
import { gateIntents, type GateMarketState } from '../risk/gate.js';
import { KillSwitch } from '../risk/kill-switch.js';
import { StaleGuard } from '../risk/stale-guard.js';
import { compareAccount, KV_ACCOUNT_POSITIONS, openLedger, type LedgerStore, type VenuePosition } from '../ledger/index.js';
import { BalanceShortfalls, INSUFFICIENT_BALANCE } from '../risk/balance-shortfall.js';
import type { MarketSyncReport } from '../orders/executor-types.js';
import { StrategyRunner, type GateResult } from '../strategy/runner.js';
import type { FillView, MarketInfo, OwnOrderView, PositionView, QuoteIntent } from '../strategy/contract.js';
import { collateralRaw } from '../core/units.js';
import { openVenue, type OpenVenue } from './venue.js';
import { portMaintenanceOf, VenueAdapter } from './venue-adapter.js';
import { bookFill, takerFillDetail, type FillDetail } from './fill-booking.js';
import { DryRunVenue } from './dry-run-venue.js';
import { OrderEventAdapter, orderEventHints, type OrderEventHints, type OrderIds } from './order-event-adapter.js';
import { marketInfoOf, resolveMarkets } from './markets.js';
import { wireTelemetry } from './telemetry.js';
import { LedgerSync } from './ledger-sync.js';
import { retryStartupRead, STARTUP_READ_BUDGET_MS } from './startup-retry.js';
import { Settler } from '../settlement/settler.js';
import { OrderStreamWatch } from '../orders/order-stream-watch.js';
import { errorText } from '../core/errors.js';

export interface BotOptions {
  readonly dryRun: boolean;
  readonly logger: Logger;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly scheduler?: Scheduler;
  /** Called with each secret once resolved, so the log censor can mask it. */
  readonly onSecret?: (value: string) => void;
  /** How often the daily loss is checked besides on every fill (default 5 s; tests lengthen it to pin the moment). */
  readonly killSwitchCheckIntervalMs?: number;
}

export interface BotSummary {
  readonly fills: number;
  readonly volumeRaw: number;
  readonly realizedPnlRaw: number;
  readonly unrealizedPnlRaw: number;
  readonly requests: number;
  readonly rateLimited: number;
  readonly openOrders: number;
}


const FILL_MEMORY_MS = 30 * 60_000;

export class Bot {
  readonly registry = new Registry();
  readonly metrics: Metrics;
  private venue: OpenVenue | null = null;
  private client: ExchangeClient | null = null;
  private ledger: LedgerStore | null = null;
  private executor: OrderExecutor | null = null;
  private feed: MarketFeed | null = null;
  private books: BookStore | null = null;
  private runner: StrategyRunner | null = null;
  private modeGate: TradingModeGate | null = null;
  private killSwitch: KillSwitch | null = null;
  private staleGuard: StaleGuard | null = null;
  private settler: Settler | null = null;
  private orderEvents: OrderEventAdapter | null = null;
  private orderStreamWatch: OrderStreamWatch | null = null;
  private metricsServer: { close(): Promise<void>; url: string } | null = null;
  private readonly fillDetails = new Map<string, FillDetail>();
  private readonly recentFills = new Map<string, FillView[]>();
  /** Markets with a fill since their last book update: the next update re-marks positions (and the kill switch). */
  private readonly markAfterFill = new Set<string>();
  /** Per market, the BUY collateral of its latest gate decision (see committedBuyCollateralRaw). */
  private readonly committedBuysRaw = new Map<string, number>();
  /** Per market, own liquidity that just left the book and may still show in its last book frame (see rememberDeparted). */
  private readonly departedOwn = new Map<string, OwnOrderView[]>();
  private markets = new Map<string, Market>();
  private infos = new Map<string, MarketInfo>();
  private resolved = new Set<string>();
  private readonly scheduler: Scheduler;
  private readonly log: Logger;
  private stopping = false;
  private ledgerSync: LedgerSync | null = null;
  /** Placements refused for want of balance (several bots may share the account's balances): see BalanceShortfalls. */
  private readonly shortfalls: BalanceShortfalls;
  private counters = { requests: 0, rateLimited: 0, fills: 0, volumeRaw: 0 };
  private timers: (() => void)[] = [];

  constructor(
    readonly config: AppConfig,
    private readonly options: BotOptions,
  ) {
    this.scheduler = options.scheduler ?? systemScheduler;
    this.log = options.logger;
    this.metrics = createMetrics({ registry: this.registry });
    this.shortfalls = new BalanceShortfalls(() => this.scheduler.now());
  }

  get simulator(): OpenVenue['simulator'] {
    return this.venue?.simulator ?? null;
  }

  get metricsUrl(): string | null {
    return this.metricsServer?.url ?? null;
  }

  /** Starts everything; resolves once the first quote cycle ran in every market (or the bot is dry-running). */
  async start(): Promise<void> {
    const config = this.config;
    const strategyCheck = await validateStrategy(config);
    if (!strategyCheck.ok) throw new Error(`strategy: ${strategyCheck.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    const strategy = strategyCheck.module.create(strategyCheck.params);

    // Preflight: every local resource before the first request to the venue. The ledger file is opened and migrated,
    // the metrics port bound and the control file written here; any of them failing stops the bot having sent nothing
    // (no cancel, no read) to the exchange.
    const telemetry = wireTelemetry(this.metrics, this.log, this.counters);
    const ledger = openLedger({ path: config.database.path, observer: telemetry.ledger });
    this.ledger = ledger;
    if (config.metrics.enabled) await this.startMetricsServer();

    const venue = await openVenue(config, this.options.env);
    this.venue = venue;
    for (const secret of [venue.credentials.secret, venue.privateKey]) this.options.onSecret?.(secret);
    this.log.info({ venue: venue.kind, baseUrl: venue.baseUrl, dryRun: this.options.dryRun }, 'venue open');

    const client = await connectExchange({
      baseUrl: venue.baseUrl,
      credentials: venue.credentials,
      headerPrefix: venue.headerPrefix,
      signer: {
        privateKey: venue.privateKey,
        signatureType: venue.signatureType,
        priceBand: config.venue.priceBand,
        ...(venue.domainName === undefined ? {} : { domainName: venue.domainName }),
        ...(venue.chainId === undefined ? {} : { chainId: venue.chainId }),
      },
      transport: {
        limits: { maxConcurrent: config.rateLimits.maxConcurrent, minTimeMs: config.rateLimits.minTimeMs },
        // One limit per API token across every bot on it (Redis), when configured: docs/rate-limits.md.
        ...sharedTransportOptions(config.rateLimits.shared, this.options.env),
        retry: {
          maxRateLimitRetries: config.rateLimits.retry.maxRetries,
          maxServerErrorRetries: config.rateLimits.retry.maxRetries,
          rateLimitBaseMs: config.rateLimits.retry.initialBackoffMs,
          serverErrorBaseMs: config.rateLimits.retry.initialBackoffMs,
          rateLimitMaxMs: config.rateLimits.retry.maxBackoffMs,
          serverErrorMaxMs: config.rateLimits.retry.maxBackoffMs,
          maxRetryAfterMs: config.rateLimits.retry.maxRetryAfterSec * 1000,
        },
        timeoutMs: config.rateLimits.timeoutMs,
        observer: telemetry.http,
      },
      ...(venue.onBehalfOf === null ? {} : { onBehalfOf: venue.onBehalfOf }),
      startupRead: (read) => this.startupRead('profile', read),
    });
    this.client = client;
    this.log.info({ ownerId: client.api.profileId, maker: client.signer.makerAddress }, 'profile loaded');

    const markets = await this.startupRead('markets', () => resolveMarkets(client.api, config.markets, this.log));
    if (markets.length === 0) throw new Error('markets: the selection matched no tradable market');
    this.markets = new Map(markets.map((m) => [m.slug, m]));
    const signing = new Map<string, SigningMarket>(markets.map((m) => [m.slug, signingMarketOf(m)]));
    for (const market of markets) this.infos.set(market.slug, marketInfoOf(market, effectivePriceBand(this.config, market.slug)));
    this.log.info({ markets: markets.map((m) => m.slug) }, 'markets selected');

    const modeGate = new TradingModeGate({
      scheduler: this.scheduler,
      pollIntervalMs: config.maintenance.pollIntervalSec * 1000,
      fetchStatus: () => client.api.getMaintenanceStatus().then(portMaintenanceOf),
      observer: telemetry.mode,
    });
    this.modeGate = modeGate;
    const adapter = new VenueAdapter({
      api: client.api,
      signer: client.signer,
      markets: signing,
      recvWindowMs: config.orders.recvWindowMs,
      // A taker fill in a placement or lookup answer: its exact collateral and fee, keyed like a settlement frame's.
      onTakerFill: (d) => this.rememberFillDetail(`${d.tradeEventId}|${d.orderId}`, takerFillDetail(d)),
    });
    const port = this.options.dryRun ? new DryRunVenue(adapter, this.log, this.metrics) : adapter;
    const ids = new ClientOrderIdFactory(config.orders.botTag, () => this.scheduler.now());
    const executor = new OrderExecutor({
      venue: port,
      scheduler: this.scheduler,
      modeGate,
      ids,
      markets: markets.map((m) => ({ slug: m.slug, tokens: signing.get(m.slug)!.tokens })),
      onFill: (fill) => this.recordFill(fill),
      onOrderChange: (order, previous) => this.recordOrder(order, previous),
      observer: telemetry.executor,
      log: componentLogger(this.log, 'orders'),
      reconcile: {
        priceToleranceTicks: config.orders.refreshTolerance.priceTicks,
        sizeTolerance: config.orders.refreshTolerance.size,
        maxOrderAgeMs: config.orders.maxOrderAgeSec * 1000,
        coolOffMs: config.orders.filledOrderDelaySec * 1000,
      },
      defaultPostOnly: config.orders.postOnly,
      foreignPolicy: config.orders.foreignOrders === 'cancel' ? 'cancel' : 'leave',
      exclusiveMarkets: config.markets.exclusive,
      cancelReplace: config.orders.cancelReplace,
      // Listing the live orders at start-up is retried with backoff (0.5 s doubling to 10 s: about 45 s in all, on top
      // of the client's own 429/5xx retries), so a bot can join an account other bots keep busy.
      startupAttempts: 8,
    });
    this.executor = executor;

    // Start-up: the ledger catches up from the venue (fills while the bot was down), the mode (a 425 answer would
    // tell us anyway), then the bot's live orders are adopted. No quote before all three.
    const ledgerSync = new LedgerSync({
      ledger,
      api: client.api,
      markets: new Map([...signing.values()].map((m) => [m.slug, m.tokens])),
      now: () => this.scheduler.now(),
      log: componentLogger(this.log, 'ledger'),
      exclusive: config.markets.exclusive,
      onAccount: (positions) => this.onAccountBalances(positions),
    });
    this.ledgerSync = ledgerSync;
    try {
      const repaired = await this.startupRead('ledger catch-up', () => ledgerSync.catchUp());
      if (repaired > 0) this.log.warn({ repaired }, 'ledger caught up from the venue before quoting');
    } catch (error) {
      this.log.error({ err: errorText(error) }, 'ledger catch-up failed; the periodic check will retry');
    }
    // Resolved markets: their payout into the ledger and, for a server-managed wallet, redeemed once (src/settlement).
    // Once quoting runs (end of start), it resumes what the previous run left unredeemed and checks the held
    // markets this run does not trade.
    const settler = new Settler({
      api: client.api,
      ledger,
      scheduler: this.scheduler,
      log: componentLogger(this.log, 'settlement'),
      redeem: config.redemption.mode,
      dryRun: this.options.dryRun,
      retry: { initialMs: config.redemption.retryInitialSec * 1000, maxMs: config.redemption.retryMaxSec * 1000 },
      conditionIds: new Map(markets.map((m) => [m.slug, m.conditionId])),
      observer: { onResult: (market, result, amountRaw) => this.metrics.redemption(market, result, amountRaw), onPending: (count) => this.metrics.redemptionsPending(count) },
    });
    this.settler = settler;
    // executor.start() reads the trading mode first; periodic polling starts once quoting does (below).
    const sync = await executor.start();
    for (const report of sync) {
      if (!report.ok) this.log.warn({ market: report.marketSlug, error: report.error }, 'start-up sync failed');
      else if (report.adopted + report.canceled > 0) this.log.info(report, 'adopted live orders');
      this.noteForeign(report);
    }

    // Units of the socket's sizes: configured, or settled from evidence (src/book/size-units.ts) and logged.
    const units = new SocketUnits(config.venue.units);
    this.log.info({ units: units.describe() }, 'socket units at start');
    units.onSettled((settled) => {
      this.log.warn({ what: settled.what, unit: settled.unit, switched: settled.switched, evidence: settled.evidence }, 'socket unit settled from evidence');
      if (settled.switched) this.metrics.feedUnitSwitch(settled.what);
      // Amounts read in the assumed unit before the evidence: re-read every market's orders from REST.
      if (settled.what === 'amounts' && settled.switched) for (const slug of this.infos.keys()) this.orderStreamWatch?.reportGap(slug, 'socket amount unit switched');
    });
    const feed = new MarketFeed({
      units,
      amountEvidence: (payload) => this.amountEvidence(payload),
      url: venue.socketUrl,
      namespace: venue.socketNamespace,
      credentials: venue.credentials,
      headerPrefix: venue.headerPrefix,
      scheduler: this.scheduler,
      logger: componentLogger(this.log, 'feed'),
      observer: { ...telemetry.feed, onAuthFailure: () => this.metrics.feedAuthFailure() },
    });
    this.feed = feed;
    const marketByKey = new Map(markets.map((m) => [ids.keyOf(m.slug), m.slug]));
    const marketOfOrder = ({ orderId, clientOrderId }: OrderIds): string | null =>
      executor.openOrders().find((o) => (orderId !== undefined && o.orderId === orderId) || (clientOrderId !== undefined && o.clientOrderId === clientOrderId))?.marketSlug ??
      (clientOrderId === undefined ? null : (marketByKey.get(tryParseClientOrderId(clientOrderId)?.marketKey ?? '') ?? null));
    this.orderEvents = new OrderEventAdapter({
      account: client.signer.makerAddress,
      isOwnOrder: ({ orderId, clientOrderId }) =>
        (clientOrderId !== undefined && isOwnClientOrderId(clientOrderId, this.config.orders.botTag)) ||
        (orderId !== undefined && executor.openOrders().some((o) => o.orderId === orderId)),
      marketOf: marketOfOrder,
      now: () => this.scheduler.now(),
      onInexactPrice: (tradeEventId, priceMicros) => this.log.warn({ tradeEventId, priceMicros }, 'taker fill average price off the tick grid; rounded'),
    });
    feed.onOrderEvent((frame) => this.handleOrderEvent(frame));
    // An order frame that fails validation is a lost event: resync its market (every market when it names none).
    feed.onUnreadableOrderEvent((lost) =>
      this.orderEventGap(this.marketOfHints(orderEventHints(lost.payload), marketOfOrder), `unreadable order event (${lost.path}: ${lost.reason})`, 'unreadable'),
    );
    // A refused socket authentication: no order event can reach the bot, so no market is quoted until it is accepted.
    feed.onAuthChange((state, message) => this.feedAuthChanged(state, message));
    feed.onMarketResolved((frame) => this.handleResolution(frame));

    const books = new BookStore({
      // A market without a usable book cannot be quoted: its snapshot goes ahead of other markets' placements.
      fetchSnapshot: async (slug, { urgent }) => {
        const snapshot = await client.api.getOrderbook(slug, { priority: urgent ? 'place' : 'read' });
        return { bids: snapshot.bids, asks: snapshot.asks, adjustedMidpoint: snapshot.adjustedMidpoint, tokenId: snapshot.tokenId };
      },
      // A book of another token than the market's YES token would invert every quote: rejected (src/book).
      yesTokenOf: (slug) => signing.get(slug)?.tokens.yes ?? null,
      units,
      feed,
      scheduler: this.scheduler,
      watchdog: {
        intervalMs: config.feed.watchdogIntervalSec * 1000,
        quietAfterMs: config.feed.quietThresholdSec * 1000,
        staleAfterMs: config.feed.staleAfterSec * 1000,
        socketDownGraceMs: config.risk.socketDownGraceSec * 1000,
      },
      observer: { ...telemetry.books, onTokenMismatch: (_slug, source) => this.metrics.bookTokenMismatch(source) },
      logger: componentLogger(this.log, 'books'),
    });
    this.books = books;
    books.setMarkets(markets.map((m) => m.slug));

    const staleGuard = new StaleGuard({
      scheduler: this.scheduler,
      staleGraceMs: config.risk.staleGraceSec * 1000,
      socketDownGraceMs: config.risk.socketDownGraceSec * 1000,
      onHalt: (slug, reason) => {
        this.log.warn({ market: slug, reason }, 'market halted: data not fresh; canceling its orders');
        this.metrics.riskBlocked(slug, reason);
        void executor.submit(slug, []);
      },
      onResume: (slug) => {
        this.log.info({ market: slug }, 'market data fresh again; quoting resumes');
        this.runner?.trigger(slug, false);
      },
    });
    this.staleGuard = staleGuard;
    for (const market of markets) staleGuard.track(market.slug);
    // The book store judges staleness (a quiet market is fresh while the watchdog can confirm it over REST);
    // the guard adds the grace period after the store says stale, then halts the market.
    const confirmFreshness = (): void => {
      for (const slug of this.infos.keys()) {
        const status = books.status(slug);
        if (status && status.hasBook && !status.stale) staleGuard.markFresh(slug);
      }
    };
    books.onChange(() => confirmFreshness());
    // A book that arrives after an own order left it no longer shows that order (the feed is one ordered stream).
    books.onChange((slug) => this.departedOwn.delete(slug));
    // A book that keeps showing less than the bot's own resting orders: their order events were lost (the stream can
    // go silent while the connection and the books look healthy). Resync that market at once, as after a reconnect.
    const orderStreamWatch = new OrderStreamWatch({
      scheduler: this.scheduler,
      ownOrders: (slug) => executor.openOrders(slug),
      book: (slug) => (books.isStale(slug) ? null : (books.books(slug)?.yes ?? null)),
      resync: async (slug) => {
        this.noteForeign(await executor.resync(slug));
        if (!this.stopping) await ledgerSync.afterGap();
      },
      log: componentLogger(this.log, 'orders'),
      onGap: () => this.metrics.orderEventGap('book-shortfall'),
    });
    this.orderStreamWatch = orderStreamWatch;
    books.onChange((slug) => orderStreamWatch.onBook(slug));
    this.every(1_000, () => orderStreamWatch.sweep(this.infos.keys()));
    // A fill often comes just before the price moves against it: mark again on the book that follows.
    books.onChange((slug) => {
      if (this.markAfterFill.delete(slug)) this.publishPositions();
    });
    books.onStaleChange((slug, stale) => {
      if (!stale) confirmFreshness();
      else this.runner?.trigger(slug, false);
    });
    // More often than the guard's grace, or a quiet but healthy market flaps to halted between two confirmations.
    this.every(Math.min(1_000, Math.max(100, Math.floor((config.risk.staleGraceSec * 1000) / 2))), confirmFreshness);
    // Order events sent while the socket was down (or frozen until the watchdog reconnected it) are never redelivered:
    // after every RE-connect the executor re-reads its orders and the ledger catches up from REST. After the FIRST
    // connect the ledger catches up once more too: fills between the start-up catch-up and the subscription had no
    // socket to arrive on.
    let connectedBefore = false;
    feed.onStateChange((state) => {
      if (state.status !== 'connected') {
        staleGuard.socketDown();
        return;
      }
      staleGuard.socketUp();
      if (!this.stopping) {
        const resyncs = connectedBefore
          ? [...this.infos.keys()].map((slug) =>
              executor.resync(slug).then((report) => this.noteForeign(report)).catch((error: unknown) => this.log.warn({ market: slug, err: errorText(error) }, 'resync after reconnect failed')),
            )
          : [];
        void Promise.all(resyncs)
          .then(() => (this.stopping ? 0 : ledgerSync.afterGap()))
          .catch((error: unknown) => this.log.warn({ err: errorText(error) }, 'ledger catch-up after (re)connect failed; the periodic check will retry'));
      }
      connectedBefore = true;
    });

    const killSwitch = new KillSwitch({
      scheduler: this.scheduler,
      ...(this.options.killSwitchCheckIntervalMs === undefined ? {} : { checkIntervalMs: this.options.killSwitchCheckIntervalMs }),
      dailyLossLimitRaw: config.risk.dailyLossLimitRaw,
      dailyPnlRaw: (dayStartMs) => this.dailyPnlRaw(dayStartMs),
      onPnlError: (error) => this.log.warn({ err: errorText(error) }, 'kill switch: daily PnL unavailable'),
      onTrip: (trip) => {
        this.log.error({ trip }, 'kill switch engaged: canceling everything, quoting paused');
        this.metrics.killSwitch(true, trip.reason);
        void executor.haltAll();
      },
      onResume: () => {
        this.log.warn('kill switch lifted: quoting resumes');
        this.metrics.killSwitch(false);
        for (const slug of this.infos.keys()) this.runner?.trigger(slug, false);
      },
    });
    this.killSwitch = killSwitch;
    this.metrics.killSwitch(false);

    const runner = new StrategyRunner({
      strategy,
      markets: [...this.infos.values()],
      books: {
        books: (slug) => (books.isStale(slug) ? null : books.books(slug)),
        onChange: (listener) => books.onChange(listener),
      },
      position: (slug) => this.positionView(slug),
      ownOrders: (slug) => this.ownOrders(slug),
      recentFills: (slug) => this.recentFills.get(slug) ?? [],
      gate: (slug, intents) => this.gate(slug, intents),
      submit: (slug, intents) => executor.submit(slug, intents),
      now: () => this.scheduler.now(),
      requoteIntervalMs: 5_000,
      setInterval: (fn, ms) => this.every(ms, fn),
      observer: telemetry.runner,
    });
    this.runner = runner;


    feed.start();
    books.start();
    killSwitch.start();
    this.publishPositions();
    this.every(10_000, () => this.publishPositions());
    let checking = false;
    this.every(60_000, () => {
      if (checking || this.stopping) return;
      checking = true;
      ledgerSync
        .check()
        .then((result) => this.log.debug(result, 'ledger check done'))
        // A check that shutdown cut short (its reads aborted, the ledger closed to it) is not a failure.
        .catch((error: unknown) => {
          const err = errorText(error);
          if (this.stopping) this.log.debug({ err }, 'ledger check cut short by shutdown');
          else this.log.warn({ err }, 'ledger check failed');
        })
        .finally(() => {
          checking = false;
        });
    });
    runner.start();
    modeGate.start();
    this.armExpiryStops(runner);
    settler.resume(new Set(this.markets.keys()));
  }

  /** Resolves after the first quote cycle in every market with a book. */
  whenQuoting(): Promise<void> {
    return this.runner?.whenFirstCycleDone() ?? Promise.resolve();
  }

  /** Lifts a kill-switch pause (the `resume` command and SIGUSR2 land here). */
  resume(): boolean {
    if (!this.killSwitch?.status().tripped) return false;
    this.killSwitch.resume();
    return true;
  }

  /** Stop quoting, cancel the bot's orders (unless configured to leave them), flush, close. Idempotent. */
  async stop(): Promise<{ clean: boolean; summary: BotSummary }> {
    if (this.stopping) return { clean: false, summary: this.summary() };
    this.stopping = true;
    this.runner?.stop();
    for (const cancel of this.timers) cancel();
    this.killSwitch?.stop();
    this.staleGuard?.stop();
    this.settler?.stop();
    this.orderStreamWatch?.stop();
    this.modeGate?.stop();
    let clean = true;
    if (this.executor) {
      const report = await this.executor.shutdown({
        budgetMs: Math.max(1000, this.config.shutdown.budgetMs - 1500),
        leaveOrdersResting: this.config.shutdown.leaveOrdersResting,
      });
      clean = report.clean;
      this.log[clean ? 'info' : 'error'](report, clean ? 'orders canceled' : 'shutdown left orders or unknowns');
    }
    this.books?.stop();
    this.feed?.close();
    const summary = this.summary();
    // Nothing touches the ledger once it is closed: passes still in flight (periodic check, feed-gap catch-up) end
    // without writing, and every later callback sees no ledger.
    this.ledgerSync?.close();
    this.ledger?.close();
    this.ledger = null;
    await this.metricsServer?.close();
    this.client?.transport.close();
    await this.venue?.close();
    return { clean, summary };
  }

  summary(): BotSummary {
    let realized = 0;
    let unrealized = 0;
    try {
      const pnl = this.ledger?.pnl();
      realized = pnl?.totals.realizedRaw ?? 0;
      unrealized = pnl?.totals.unrealizedRaw ?? 0;
    } catch {
      // a closed ledger: figures stay 0
    }
    return {
      fills: this.counters.fills,
      volumeRaw: this.counters.volumeRaw,
      realizedPnlRaw: realized,
      unrealizedPnlRaw: unrealized,
      requests: this.counters.requests,
      rateLimited: this.counters.rateLimited,
      openOrders: this.executor?.openOrders().length ?? 0,
    };
  }

  // ─────────────── wiring helpers ───────────────

  /** A start-up read, retried with the limiter's backoff while the account is busy (src/app/startup-retry.ts). */
  private startupRead<T>(what: string, read: () => Promise<T>): Promise<T> {
    const retry = this.config.rateLimits.retry;
    return retryStartupRead(what, read, {
      initialBackoffMs: retry.initialBackoffMs,
      maxBackoffMs: retry.maxBackoffMs,
      budgetMs: STARTUP_READ_BUDGET_MS,
      sleep: (ms) => new Promise((resolve) => this.scheduler.schedule(ms, () => resolve())),
      onRetry: (step, attempt, waitMs, error) =>
        this.log.warn({ step, attempt, waitMs, err: errorText(error) }, 'start-up read refused or failed: retrying (the account may be busy)'),
    });
  }

  /**
   * Binds the metrics port and writes the control file (preflight: before any request to the venue). Readiness is
   * read from the components as they come up: not ready until the feed is connected.
   */
  private async startMetricsServer(): Promise<void> {
    const config = this.config;
    const controlPath = controlFilePath(config.database.path);
    this.metricsServer = await startMetricsServer({
      host: config.metrics.host,
      port: config.metrics.port,
      registry: this.registry,
      readiness: () => {
        const books = this.books;
        const kill = this.killSwitch?.status();
        return {
          feedConnected: this.feed?.connectionState().status === 'connected' && this.feed.authState() === 'ok',
          staleMarkets: [...this.infos.keys()].filter((slug) => books === null || books.isStale(slug) || this.staleGuard?.isHalted(slug) === true),
          paused: kill?.tripped ?? false,
          pauseReason: kill?.trip?.reason ?? null,
          degraded: sharedLimitDegraded(this.client?.transport.limiter.sharedState() ?? null),
        };
      },
      ...(controlPath === null
        ? {}
        : {
            control: {
              filePath: controlPath,
              resume: () => (this.resume() ? { resumed: true as const, wasPaused: true } : { resumed: false as const, reason: 'not paused' }),
            },
          }),
    });
    this.log.info({ url: this.metricsServer.url }, 'metrics server listening');
  }

  /** Orders of other bot tags (or without clientOrderId) seen in a market's listing: left alone, counted, shown. */
  private noteForeign(report: MarketSyncReport): void {
    if (!report.ok) return;
    this.metrics.foreignOrders(report.marketSlug, report.foreign);
    if (report.foreign > 0) {
      this.log.info(
        { market: report.marketSlug, foreign: report.foreign, policy: this.config.orders.foreignOrders },
        'orders of other bots (other tags or no clientOrderId) in this market: not adopted, canceled or booked',
      );
    }
  }

  /**
   * A read of the account's balances (the whole account, every bot of it): lifts balance shortfalls (funding sees
   * fresh figures), and reports what the account holds beyond this bot's ledger, per traded market (a metric, and a
   * snapshot in the ledger's key-value table that `outcome-maker report --account` reads). Never booked.
   */
  private onAccountBalances(positions: readonly VenuePosition[]): void {
    this.shortfalls.balancesRead();
    const ledger = this.ledger;
    if (!ledger) return;
    for (const row of compareAccount(positions, [ledger.tokenBalances()], new Set(this.infos.keys()))) {
      this.metrics.accountUnbooked(row.marketSlug, row.token, row.unbookedRaw);
    }
    const snapshot = { atMs: this.scheduler.now(), positions: positions.map((p) => ({ marketSlug: p.marketSlug, yesRaw: p.yesRaw, noRaw: p.noRaw })) };
    ledger.setKv(KV_ACCOUNT_POSITIONS, JSON.stringify(snapshot));
  }

  /**
   * Requotes each market at its stop-before-expiry time, so the risk gate's halt (cancel everything, quote nothing)
   * takes effect then rather than at the next periodic requote. Timers longer than setTimeout's limit re-arm.
   */
  private armExpiryStops(runner: StrategyRunner): void {
    const maxDelayMs = 2 ** 31 - 1;
    for (const [slug, info] of this.infos) {
      if (info.expiresAtMs === null) continue;
      const stopAtMs = info.expiresAtMs - riskLimitsFor(this.config.risk, slug).stopBeforeExpirySec * 1000;
      const arm = (): void => {
        const delayMs = stopAtMs - this.scheduler.now();
        if (delayMs < 0) return; // already inside the window: every quote cycle halts the market
        this.timers.push(this.scheduler.schedule(Math.min(delayMs, maxDelayMs), () => (this.scheduler.now() >= stopAtMs ? runner.trigger(slug, false) : arm())));
      };
      arm();
    }
  }

  private every(ms: number, fn: () => void): () => void {
    let cancelled = false;
    let cancel: () => void = () => undefined;
    const arm = (): void => {
      cancel = this.scheduler.schedule(ms, () => {
        if (cancelled) return;
        try {
          fn();
        } finally {
          arm();
        }
      });
    };
    arm();
    const stop = (): void => {
      cancelled = true;
      cancel();
    };
    this.timers.push(stop);
    return stop;
  }


  private handleOrderEvent(frame: Parameters<Parameters<MarketFeed['onOrderEvent']>[0]>[0]): void {
    const executor = this.executor;
    const adapter = this.orderEvents;
    if (!executor || !adapter) return;
    const adapted = adapter.adapt(frame);
    if (adapted.kind === 'none') return;
    if (adapted.kind === 'gap') {
      this.orderEventGap(adapted.marketSlug, adapted.reason, 'unattributable');
      return;
    }
    for (const d of adapted.details) {
      this.rememberFillDetail(`${d.tradeEventId}|${d.orderId}`, {
        collateralRaw: d.collateralRaw,
        feeRaw: d.feeRaw,
        role: d.role,
        ...(d.feeContractsRaw === undefined ? {} : { feeContractsRaw: d.feeContractsRaw }),
      });
    }
    executor.onOrderEvent(adapted.event);
  }

  /**
   * The unit of the socket's amounts shown by a PLACEMENT frame of one of the bot's own orders: its remaining size is
   * the order's size, known exactly. Null for any other frame.
   */
  private amountEvidence(payload: unknown): { unit: 'raw' | 'shares'; evidence: Record<string, unknown> } | null {
    if (payload === null || typeof payload !== 'object') return null;
    if (Reflect.get(payload, 'source') !== 'OME' || String(Reflect.get(payload, 'type')).toUpperCase() !== 'PLACEMENT') return null;
    const hints = orderEventHints(payload);
    const order = this.executor
      ?.openOrders()
      .find((o) => (hints.clientOrderId !== null && o.clientOrderId === hints.clientOrderId) || (o.orderId !== null && hints.orderIds.includes(o.orderId)));
    if (order === undefined) return null;
    const sent: unknown = Reflect.get(payload, 'remainingSize');
    const unit = amountUnitFromSize(sent, order.sizeRaw);
    return unit === null ? null : { unit, evidence: { clientOrderId: order.clientOrderId, remainingSizeSent: sent, orderSizeRaw: order.sizeRaw } };
  }

  /** The market an unreadable order frame was about, from what it still names; null when unknown. */
  private marketOfHints(hints: OrderEventHints, marketOfOrder: (ids: OrderIds) => string | null): string | null {
    if (hints.marketSlug !== null) return hints.marketSlug;
    if (hints.marketId !== null) {
      for (const market of this.markets.values()) if (String(market.id) === hints.marketId) return market.slug;
    }
    for (const orderId of hints.orderIds) {
      const slug = marketOfOrder({ orderId });
      if (slug !== null) return slug;
    }
    return hints.clientOrderId === null ? null : marketOfOrder({ clientOrderId: hints.clientOrderId });
  }

  /**
   * Order events lost or unreadable (src/app/order-event-adapter.ts): the market's orders are re-read and the ledger
   * caught up at once (src/orders/order-stream-watch.ts), every market's when the market is unknown. A market this bot
   * does not trade is none of its business.
   */
  private orderEventGap(slug: string | null, reason: string, cause: 'unreadable' | 'unattributable'): void {
    const watch = this.orderStreamWatch;
    if (slug !== null && !this.infos.has(slug)) {
      this.log.debug({ market: slug, reason }, 'order event of a market this bot does not trade ignored');
      return;
    }
    this.metrics.orderEventGap(cause);
    const slugs = slug === null ? [...this.infos.keys()] : [slug];
    this.log.warn({ market: slug, reason, resync: slugs }, 'order event lost or unreadable: resyncing and catching the ledger up');
    if (!watch || this.stopping) return;
    for (const market of slugs) watch.reportGap(market, reason);
  }

  /** The venue refused (or accepted again) the socket's authentication. */
  private feedAuthChanged(state: FeedAuthState, message: string | null): void {
    if (state === 'failed') {
      this.log.error({ message }, 'feed authentication refused: no order events can arrive; every market halted and its orders canceled');
      for (const slug of this.infos.keys()) {
        this.metrics.riskBlocked(slug, 'feed-auth');
        void this.executor?.submit(slug, []);
      }
      return;
    }
    this.log.warn('feed authenticated again: quoting resumes');
    for (const slug of this.infos.keys()) this.runner?.trigger(slug, false);
  }

  private rememberFillDetail(key: string, detail: FillDetail): void {
    this.fillDetails.set(key, detail);
    if (this.fillDetails.size > 10_000) {
      const oldest = this.fillDetails.keys().next().value;
      if (oldest !== undefined) this.fillDetails.delete(oldest);
    }
  }

  private recordFill(fill: FillEvent): void {
    const ledger = this.ledger;
    if (!ledger || fill.orderId === null) {
      this.log.warn({ fill }, 'fill without a venue order id; the periodic reconciliation will record it');
      return;
    }
    const detail = this.fillDetails.get(`${fill.tradeEventId.split('/')[0]}|${fill.orderId}`);
    // Fee in USDC → fee; fee in contracts → fee at its value and the contracts removed (src/app/fill-booking.ts).
    const outcome = bookFill(ledger, { ...fill, orderId: fill.orderId }, detail);
    if (outcome === 'failed') return;
    if (outcome === 'inserted') {
      const notional = collateralRaw(fill.sizeRaw, fill.priceTicks, fill.side);
      this.counters.fills += 1;
      this.counters.volumeRaw += notional;
      this.metrics.fill(fill.marketSlug, fill.side, fill.sizeRaw, notional);
      const list = this.recentFills.get(fill.marketSlug) ?? [];
      list.push({ token: fill.token, side: fill.side, priceTicks: fill.priceTicks, sizeRaw: fill.sizeRaw, atMs: fill.atMs });
      const horizon = this.scheduler.now() - FILL_MEMORY_MS;
      while (list.length > 0 && (list[0]!.atMs < horizon || list.length > 500)) list.shift();
      this.recentFills.set(fill.marketSlug, list);
      this.log.info({ market: fill.marketSlug, slot: fill.slot, token: fill.token, side: fill.side, price: fill.priceTicks / 1000, size: fill.sizeRaw / 1e6 }, 'fill');
      this.publishPositions();
      this.markAfterFill.add(fill.marketSlug);
      this.runner?.trigger(fill.marketSlug, false);
    }
  }

  private recordOrder(order: TrackedOrder, previous: TrackedOrder | null): void {
    if (previous !== null) this.rememberDeparted(order, previous);
    if (order.state === 'rejected' && previous !== null && previous.state !== 'rejected' && order.reason === INSUFFICIENT_BALANCE) this.noteShortfall(order);
    if (previous !== null && previous.state !== order.state) {
      const accepted = order.state === 'live' || order.state === 'partially-filled' || order.state === 'filled';
      if (accepted && (previous.state === 'pending-new' || previous.state === 'unknown')) this.metrics.orderPlaced(order.marketSlug, order.side);
      this.metrics.openOrders(order.marketSlug, this.riskOrders(order.marketSlug).length);
    }
    const ledger = this.ledger;
    if (!ledger) return;
    // An order adopted after a restart is already in the ledger, with details the venue's listing does not carry
    // (postOnly, order type): bring its state up to date instead of recording it anew (which would be a conflict).
    const adoptedKnown = previous === null && ledger.getOrder({ clientOrderId: order.clientOrderId }) !== null;
    if (previous === null && !adoptedKnown) {
      ledger.recordOrder({
        clientOrderId: order.clientOrderId,
        ...(order.orderId === null ? {} : { venueOrderId: order.orderId }),
        marketSlug: order.marketSlug,
        slot: order.slot,
        token: order.token,
        tokenId: order.tokenId,
        side: order.side,
        orderType: order.orderType,
        postOnly: order.postOnly,
        priceTicks: order.priceTicks,
        sizeRaw: order.sizeRaw,
        remainingRaw: order.remainingRaw,
        status: order.state,
        atMs: order.createdAtMs,
      });
      return;
    }
    ledger.updateOrder(
      { clientOrderId: order.clientOrderId },
      { status: order.state, remainingRaw: order.remainingRaw, ...(order.orderId === null ? {} : { venueOrderId: order.orderId }), atMs: order.updatedAtMs },
    );
  }

  private handleResolution(frame: { readonly slug: string; readonly winningIndex: number | null; readonly resolutionDateMs: number | null }): void {
    const slug = frame.slug;
    if (!this.infos.has(slug) || this.resolved.has(slug)) return;
    this.resolved.add(slug);
    this.log.warn({ market: slug }, 'market resolved: canceling its orders, no more quotes');
    void this.executor?.submit(slug, []);
    // The ledger values the holdings at the payout from now on (winner 1, loser 0) instead of the last mid; the
    // settler records it (reading the venue when the frame names no winner) and redeems once the payout is posted.
    this.settler?.resolved(slug, frame.winningIndex, frame.resolutionDateMs ?? this.scheduler.now());
  }

  private openOrders(): TrackedOrder[] {
    return this.executor?.openOrders().filter((o) => isOpen(o.state)) ?? [];
  }

  /** The market's open orders as the risk gate counts them (unknown outcomes included). */
  private riskOrders(slug: string, open: readonly TrackedOrder[] = this.openOrders()): RiskOrder[] {
    return open
      .filter((o) => o.marketSlug === slug)
      .map((o) => ({ slot: o.slot, token: o.token, side: o.side, priceTicks: o.priceTicks, sizeRaw: o.sizeRaw, remainingRaw: o.remainingRaw, state: o.state }));
  }

  /**
   * Own liquidity that just left the book (filled, canceled, reduced). The order event often comes before the book
   * frame that shows it gone: until that frame, the strategy must still see it as the bot's own, or it would take
   * its own filled order for someone else's and quote around it. Cleared by the market's next book update.
   */
  private rememberDeparted(order: TrackedOrder, previous: TrackedOrder): void {
    if (!isResting(previous.state) && previous.state !== 'pending-cancel') return;
    const left = isOpen(order.state) ? previous.remainingRaw - order.remainingRaw : previous.remainingRaw;
    if (!(left > 0)) return;
    const list = this.departedOwn.get(order.marketSlug) ?? [];
    list.push({ token: previous.token, side: previous.side, priceTicks: previous.priceTicks, sizeRaw: left });
    this.departedOwn.set(order.marketSlug, list);
  }

  private ownOrders(slug: string): OwnOrderView[] {
    const open = this.openOrders()
      .filter((o) => o.marketSlug === slug && o.remainingRaw > 0)
      .map((o) => ({ token: o.token, side: o.side, priceTicks: o.priceTicks, sizeRaw: o.remainingRaw }));
    return [...open, ...(this.departedOwn.get(slug) ?? [])];
  }

  /**
   * The venue refused a placement for want of balance: the account's USDC or tokens are shared with other bots, so
   * this is a normal outcome, counted, and the refused side leaves the bot's funding until the balances are read
   * again (no retry of the same order: funding quotes the other way, or not at all).
   */
  private noteShortfall(order: TrackedOrder): void {
    this.metrics.riskBlocked(order.marketSlug, INSUFFICIENT_BALANCE);
    if (!this.shortfalls.note({ marketSlug: order.marketSlug, tokenId: order.tokenId, side: order.side })) return;
    this.log.info(
      { market: order.marketSlug, token: order.token, side: order.side, clientOrderId: order.clientOrderId },
      `placement refused for insufficient ${order.side === 'BUY' ? 'collateral' : 'tokens'} (shared by the account's bots): that side is not quoted until balances are read again`,
    );
  }

  /** Collateral the bot may use: the notional budget less the cost of what it holds. */
  private balances(): Balances {
    const ledger = this.ledger;
    const tokens = new Map<string, number>();
    let positionCost = 0;
    if (ledger) {
      for (const balance of ledger.tokenBalances()) {
        const tokenId = ledger.tokenIdFor(balance.marketSlug, balance.token);
        if (tokenId !== null) tokens.set(tokenId, this.shortfalls.tokenShort(tokenId) ? 0 : Math.max(0, balance.balanceRaw));
      }
      for (const slug of this.infos.keys()) positionCost += this.positionCostRaw(slug);
    }
    const budgetRaw = Math.max(0, this.config.risk.maxNotionalRaw - positionCost);
    if (!this.shortfalls.collateralShort()) return { collateralRaw: budgetRaw, tokensRaw: tokens };
    // Short of USDC: no BUY beyond what the bot's resting BUYs already lock.
    let lockedRaw = 0;
    for (const order of this.openOrders()) if (order.side === 'BUY') lockedRaw += collateralRaw(order.remainingRaw, order.priceTicks, 'BUY');
    return { collateralRaw: Math.min(budgetRaw, lockedRaw), tokensRaw: tokens };
  }

  private positionCostRaw(slug: string): number {
    const ledger = this.ledger;
    if (!ledger) return 0;
    const yes = ledger.tokenPosition(slug, 'YES');
    const no = ledger.tokenPosition(slug, 'NO');
    return Math.max(0, yes.costRaw) + Math.max(0, no.costRaw);
  }

  private positionView(slug: string): PositionView {
    const ledgerView = this.ledger?.marketPosition(slug) ?? { yesRaw: 0, noRaw: 0, yesAvgCost: null, noAvgCost: null };
    const balances = this.balances();
    let lockedBuys = 0;
    for (const order of this.openOrders()) {
      if (order.side === 'BUY') lockedBuys += collateralRaw(order.state === 'unknown' || order.state === 'pending-new' ? order.sizeRaw : order.remainingRaw, order.priceTicks, 'BUY');
    }
    return { ...ledgerView, freeCollateralRaw: Math.max(0, balances.collateralRaw - lockedBuys) };
  }

  /** Funding (complement-aware, never beyond free collateral or tokens held) then the risk gate. */
  /** Funding (complement-aware, never beyond free collateral or tokens held) then the risk gate: src/risk/gate.ts. */
  private gate(slug: string, intents: readonly QuoteIntent[]): GateResult {
    const info = this.infos.get(slug);
    const ledger = this.ledger;
    if (!info || !ledger) return { intents: [], halt: 'not-ready' };
    if (this.resolved.has(slug)) {
      this.committedBuysRaw.delete(slug);
      return { intents: [], halt: 'market-resolved' };
    }
    const holdings = new Map<string, GateMarketState>();
    for (const market of this.infos.keys()) {
      const position = ledger.marketPosition(market);
      holdings.set(market, { yesRaw: position.yesRaw, noRaw: position.noRaw, costRaw: this.positionCostRaw(market) });
    }
    const limits = riskLimitsFor(this.config.risk, slug);
    const outcome = gateIntents({
      market: info,
      resolved: false,
      intents,
      openOrders: this.openOrders(),
      holdings,
      balances: this.balances(),
      limits: {
        maxPositionPerTokenRaw: limits.maxPositionPerTokenRaw,
        maxNetPositionRaw: limits.maxNetPositionRaw,
        maxOpenOrders: limits.maxOpenOrders,
        stopBeforeExpiryMs: limits.stopBeforeExpirySec * 1000,
        maxNotionalRaw: this.config.risk.maxNotionalRaw,
      },
      nowMs: this.scheduler.now(),
      killSwitchTripped: this.killSwitch?.status().tripped ?? false,
      // A feed whose authentication the venue refused carries no order events: halted like a stale one.
      stale: (this.staleGuard?.isHalted(slug) ?? false) || this.feed?.authState() === 'failed',
      committedBuysRaw: this.committedBuysRaw,
    });
    for (const adjustment of outcome.funding) if (adjustment.action === 'dropped') this.metrics.riskBlocked(slug, `funding-${adjustment.reason}`);
    for (const dropped of outcome.risk.dropped) this.metrics.riskBlocked(slug, dropped.reason);
    this.committedBuysRaw.set(slug, outcome.committedBuyRaw);
    return { intents: outcome.intents, halt: outcome.halt };
  }

  private dailyPnlRaw(dayStartMs: number): number {
    const ledger = this.ledger;
    if (!ledger) return 0;
    return ledger.dailyPnl(dayStartMs).totalRaw;
  }

  /** Marks (mids) into the ledger and position/PnL gauges: every few seconds, not per book update. */
  private publishPositions(): void {
    const ledger = this.ledger;
    const books = this.books;
    if (!ledger || !books) return;
    const now = this.scheduler.now();
    for (const slug of this.infos.keys()) {
      const mid = books.books(slug)?.yes.mid ?? null;
      if (mid !== null && mid > 0 && mid < 1) ledger.recordMark({ marketSlug: slug, mid, atMs: now });
      const position = ledger.marketPosition(slug);
      this.metrics.position(slug, position.yesRaw, position.noRaw);
      const orders = this.riskOrders(slug);
      this.metrics.openOrders(slug, orders.length);
      this.metrics.exposure(slug, marketNotionalRaw(this.positionCostRaw(slug), orders));
    }
    try {
      const pnl = ledger.pnl();
      for (const market of pnl.markets) this.metrics.pnl(market.marketSlug, market.realizedRaw, market.unrealizedRaw ?? 0);
      this.metrics.dailyPnl(ledger.dailyPnl(Math.floor(now / 86_400_000) * 86_400_000).totalRaw);
    } catch (error) {
      this.log.warn({ err: String(error) }, 'PnL unavailable');
    }
    // Fresh marks (or a fill): judge the daily loss now rather than at the kill switch's next periodic check.
    this.killSwitch?.check();
  }
}

