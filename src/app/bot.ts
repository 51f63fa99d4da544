/**
 * The bot: builds every component from a validated config and starts and stops them in order.
 *
 * Start: venue → client (profile: ownerId, fee rate) → markets → ledger → order manager (adopts the bot's live
 * orders; no quote before) → feed and books → risk → strategy runner → metrics server. Stop: runner stops
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
import { signingMarketOf, type SigningMarket } from '../exchange/signer.js';
import type { Market } from '../exchange/wire.js';
import { MarketFeed } from '../exchange/socket.js';
import { BookStore } from '../book/book-store.js';
import { systemScheduler, type Scheduler } from '../book/scheduler.js';
import { OrderExecutor, type FillEvent } from '../orders/executor.js';
import { ClientOrderIdFactory, isOwnClientOrderId } from '../orders/client-order-id.js';
import { TradingModeGate } from '../orders/trading-mode.js';
import type { Balances } from '../orders/funding.js';
import type { TrackedOrder } from '../orders/order-record.js';
import { isOpen, isResting } from '../orders/order-state.js';
import { marketNotionalRaw, type RiskOrder } from '../risk/limits.js';
import { gateIntents, type GateMarketState } from '../risk/gate.js';
import { KillSwitch } from '../risk/kill-switch.js';
import { StaleGuard } from '../risk/stale-guard.js';
import { openLedger, type LedgerStore } from '../ledger/index.js';
import { StrategyRunner, type GateResult } from '../strategy/runner.js';
import type { FillView, MarketInfo, OwnOrderView, PositionView, QuoteIntent } from '../strategy/contract.js';
import { collateralRaw } from '../core/units.js';
import { openVenue, type OpenVenue } from './venue.js';
import { VenueAdapter } from './venue-adapter.js';
import { DryRunVenue } from './dry-run-venue.js';
import { toOrderEventInput } from './order-event-adapter.js';
import { marketInfoOf, resolveMarkets } from './markets.js';
import { wireTelemetry } from './telemetry.js';
import { LedgerSync } from './ledger-sync.js';
import { Settler } from '../settlement/settler.js';
import { OrderStreamWatch } from '../orders/order-stream-watch.js';

export interface BotOptions {
  readonly dryRun: boolean;
  readonly logger: Logger;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly scheduler?: Scheduler;
  /** Called with each secret once resolved, so the log censor can mask it. */
  readonly onSecret?: (value: string) => void;
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

interface FillDetail {
  readonly collateralRaw: number | undefined;
  readonly feeRaw: number;
  readonly role: 'maker' | 'taker';
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
  private counters = { requests: 0, rateLimited: 0, fills: 0, volumeRaw: 0 };
  private timers: (() => void)[] = [];

  constructor(
    readonly config: AppConfig,
    private readonly options: BotOptions,
  ) {
    this.scheduler = options.scheduler ?? systemScheduler;
    this.log = options.logger;
    this.metrics = createMetrics({ registry: this.registry });
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

    const venue = await openVenue(config, this.options.env);
    this.venue = venue;
    for (const secret of [venue.credentials.secret, venue.privateKey]) this.options.onSecret?.(secret);
    this.log.info({ venue: venue.kind, baseUrl: venue.baseUrl, dryRun: this.options.dryRun }, 'venue open');

    const telemetry = wireTelemetry(this.metrics, this.log, this.counters);
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
    });
    this.client = client;
    this.log.info({ ownerId: client.api.profileId, maker: client.signer.makerAddress }, 'profile loaded');

    const markets = await resolveMarkets(client.api, config.markets, this.log);
    if (markets.length === 0) throw new Error('markets: the selection matched no tradable market');
    this.markets = new Map(markets.map((m) => [m.slug, m]));
    const signing = new Map<string, SigningMarket>(markets.map((m) => [m.slug, signingMarketOf(m)]));
    for (const market of markets) this.infos.set(market.slug, marketInfoOf(market, effectivePriceBand(this.config, market.slug)));
    this.log.info({ markets: markets.map((m) => m.slug) }, 'markets selected');

    const ledger = openLedger({ path: config.database.path, observer: telemetry.ledger });
    this.ledger = ledger;

    const modeGate = new TradingModeGate({
      scheduler: this.scheduler,
      pollIntervalMs: config.maintenance.pollIntervalSec * 1000,
      fetchStatus: () => client.api.getMaintenanceStatus().then((s) => ({ mode: s.mode, resumeAtMs: s.resumeAtMs })),
      observer: telemetry.mode,
    });
    this.modeGate = modeGate;
    const adapter = new VenueAdapter({
      api: client.api,
      signer: client.signer,
      markets: signing,
      recvWindowMs: config.orders.recvWindowMs,
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
      foreignPolicy: config.orders.cancelUnknownOrdersOnStart ? 'cancel' : 'leave',
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
    });
    try {
      const repaired = await ledgerSync.catchUp();
      if (repaired > 0) this.log.warn({ repaired }, 'ledger caught up from the venue before quoting');
    } catch (error) {
      this.log.error({ err: error instanceof Error ? error.message : String(error) }, 'ledger catch-up failed; the periodic check will retry');
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
    }

    const feed = new MarketFeed({
      url: venue.socketUrl,
      namespace: venue.socketNamespace,
      credentials: venue.credentials,
      headerPrefix: venue.headerPrefix,
      scheduler: this.scheduler,
      logger: componentLogger(this.log, 'feed'),
      observer: telemetry.feed,
    });
    this.feed = feed;
    feed.onOrderEvent((frame) => this.handleOrderEvent(frame));
    feed.onMarketResolved((frame) => this.handleResolution(frame));

    const books = new BookStore({
      // A market without a usable book cannot be quoted: its snapshot goes ahead of other markets' placements.
      fetchSnapshot: async (slug, { urgent }) => {
        const snapshot = await client.api.getOrderbook(slug, { priority: urgent ? 'place' : 'read' });
        return { bids: snapshot.bids, asks: snapshot.asks, adjustedMidpoint: snapshot.adjustedMidpoint };
      },
      feed,
      scheduler: this.scheduler,
      watchdog: {
        intervalMs: config.feed.watchdogIntervalSec * 1000,
        quietAfterMs: config.feed.quietThresholdSec * 1000,
        staleAfterMs: config.feed.staleAfterSec * 1000,
        socketDownGraceMs: config.risk.socketDownGraceSec * 1000,
      },
      observer: telemetry.books,
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
        await executor.resync(slug);
        if (!this.stopping) await ledgerSync.afterGap();
      },
      log: componentLogger(this.log, 'orders'),
      onGap: () => this.metrics.orderEventGap(),
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
              executor.resync(slug).catch((error: unknown) => this.log.warn({ market: slug, err: error instanceof Error ? error.message : String(error) }, 'resync after reconnect failed')),
            )
          : [];
        void Promise.all(resyncs)
          .then(() => (this.stopping ? 0 : ledgerSync.afterGap()))
          .catch((error: unknown) => this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'ledger catch-up after (re)connect failed; the periodic check will retry'));
      }
      connectedBefore = true;
    });

    const killSwitch = new KillSwitch({
      scheduler: this.scheduler,
      dailyLossLimitRaw: config.risk.dailyLossLimitRaw,
      dailyPnlRaw: (dayStartMs) => this.dailyPnlRaw(dayStartMs),
      onPnlError: (error) => this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'kill switch: daily PnL unavailable'),
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

    if (config.metrics.enabled) {
      const controlPath = controlFilePath(config.database.path);
      this.metricsServer = await startMetricsServer({
        host: config.metrics.host,
        port: config.metrics.port,
        registry: this.registry,
        readiness: () => ({
          feedConnected: feed.connectionState().status === 'connected',
          staleMarkets: [...this.infos.keys()].filter((slug) => books.isStale(slug) || staleGuard.isHalted(slug)),
          paused: killSwitch.status().tripped,
          pauseReason: killSwitch.status().trip?.reason ?? null,
        }),
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
        .catch((error: unknown) => this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'ledger check failed'))
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
    this.ledger?.close();
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
    if (!executor) return;
    if (frame.source === 'SETTLEMENT') this.rememberFillDetails(frame);
    const event = toOrderEventInput(frame, {
      account: this.client?.signer.makerAddress ?? '',
      isOwnOrder: ({ orderId, clientOrderId }) =>
        (clientOrderId !== undefined && isOwnClientOrderId(clientOrderId, this.config.orders.botTag)) ||
        (orderId !== undefined && executor.openOrders().some((o) => o.orderId === orderId)),
      now: () => this.scheduler.now(),
      onInexactPrice: (tradeEventId, priceMicros) => this.log.warn({ tradeEventId, priceMicros }, 'taker fill average price off the tick grid; rounded'),
    });
    if (event) executor.onOrderEvent(event);
  }

  private rememberFillDetails(frame: Extract<Parameters<Parameters<MarketFeed['onOrderEvent']>[0]>[0], { source: 'SETTLEMENT' }>): void {
    const maker = this.client?.signer.makerAddress.toLowerCase() ?? '';
    if (frame.orderId !== undefined) {
      const feeRaw = frame.feeUnit === 'contracts' ? Math.round(((frame.feeRaw ?? 0) * (frame.priceTicks ?? 500)) / 1000) : (frame.feeRaw ?? 0);
      this.fillDetails.set(`${frame.tradeEventId}|${frame.orderId}`, { collateralRaw: frame.amountCollateralRaw, feeRaw, role: 'taker' });
    }
    for (const match of frame.makerMatches) {
      if (match.account.toLowerCase() === maker) {
        this.fillDetails.set(`${frame.tradeEventId}|${match.orderId}`, { collateralRaw: undefined, feeRaw: 0, role: 'maker' });
      }
    }
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
    if (fill.state === 'failed') {
      ledger.failFill({ tradeEventId: fill.tradeEventId, orderId: fill.orderId }, { reason: 'settlement failed', atMs: fill.atMs });
      return;
    }
    const outcome = ledger.recordFill({
      tradeEventId: fill.tradeEventId,
      orderId: fill.orderId,
      clientOrderId: fill.clientOrderId,
      marketSlug: fill.marketSlug,
      token: fill.token,
      tokenId: fill.tokenId,
      side: fill.side,
      priceTicks: fill.priceTicks,
      sizeRaw: fill.sizeRaw,
      ...(detail?.collateralRaw === undefined ? {} : { collateralRaw: detail.collateralRaw }),
      feeRaw: detail?.feeRaw ?? 0,
      role: detail?.role ?? 'maker',
      state: fill.state,
      atMs: fill.atMs,
    });
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

  /** Collateral the bot may use: the notional budget less the cost of what it holds. */
  private balances(): Balances {
    const ledger = this.ledger;
    const tokens = new Map<string, number>();
    let positionCost = 0;
    if (ledger) {
      for (const balance of ledger.tokenBalances()) {
        const tokenId = ledger.tokenIdFor(balance.marketSlug, balance.token);
        if (tokenId !== null) tokens.set(tokenId, Math.max(0, balance.balanceRaw));
      }
      for (const slug of this.infos.keys()) positionCost += this.positionCostRaw(slug);
    }
    return { collateralRaw: Math.max(0, this.config.risk.maxNotionalRaw - positionCost), tokensRaw: tokens };
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
      stale: this.staleGuard?.isHalted(slug) ?? false,
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

