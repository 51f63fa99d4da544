/**
 * The composition root: every component of a running bot built from the config and the opened resources
 * (src/app/resources.ts), wired to each other, and started and stopped in one stated order. It only wires: every
 * rule lives in the module that owns it. The trading path (trading-mode gate → executor → account view → strategy
 * runner) is built by src/trading/core.ts, the same function the backtest uses; here it gets the daemon's options.
 *
 * Boot order (`start`, run by ./lifecycle.ts with the stop):
 *   1. ledger catch-up from the venue (fills while the bot was down; a failure is logged, the periodic check retries);
 *   2. market data: the books' markets, then pricing (its Pyth Hermes stream, src/pricing/live-pricing.ts) → feed → books, so
 *      the feed's first frames are the markets' first books while step 3 reads (no REST book per market);
 *   3. order manager: `executor.start()` reads the trading mode and adopts the bot's live orders (by its tag only);
 *      then the stale guard's markets → kill switch;
 *   4. positions published, periodic timers armed (marks 10 s, ledger check 60 s, order-stream sweep 1 s, freshness,
 *      the status line every log.statusIntervalMs), the markout sampler resumed (src/markouts/live-markouts.ts);
 *   5. strategy runner (first quotes) → trading-mode polling → expiry stops → settler resumes unredeemed markets;
 *   6. market discovery (src/markets/market-discovery.ts): markets join and leave while the bot runs, through the roster
 *      (src/markets/market-roster.ts), each in the same order as at start (registered → adopted → quoted; drained →
 *      released). A departed market is forgotten once it resolved and settled (checked every DEPARTED_SWEEP_MS; one
 *      whose resolution never came on the socket is read over REST after its settlement).
 * Nothing is quoted before step 5, and nothing in steps 4–6 runs before the executor started (the feed of step 2 only
 * fills the books; an order event it brings before the adoption waits in the executor for its order).
 *
 * Stop order (`stop`): discovery and roster (no market joins or leaves) → runner (no more quotes) → pricing (Hermes stream closed) → timers → kill switch, stale guard, settler, order-stream watch,
 * mode polling → executor shutdown (cancels the bot's orders, confirmed, within the budget) → markout sampler → books → feed →
 * ledger writers closed (ledger sync, fill and order recorders). The caller then closes the resources.
 *
 * Book listeners (`books.onChange`), registered in this order: (1) freshness confirmed to the stale guard (right
 * after the books are built), (2) departed own liquidity forgotten (the account; the trading core registers it), (3) the order-stream watch compares the book with own orders,
 * (4) positions re-marked after a fill; the strategy runner subscribes last, when it starts (its requote sees 1–4).
 *
 * A dry run's orders are imaginary: the venue's book never shows them, so nothing that compares the book with the
 * bot's own orders is given them (`ownInBook`: the order-stream watch, and the strategy's view, which subtracts own
 * orders from the book to see the others').
 *
 * Invariants: the record is complete (no component is null); one owner per fact (books: BookStore; order state:
 * OrderExecutor; fills and positions: the ledger, written through FillRecorder and OrderRecorder); every fill the
 * executor reports reaches the FillRecorder; nothing is quoted while the executor is not started, the book is
 * missing or stale, or the kill switch is engaged.
 */
import { AccountHistorySync } from '../capital/account-history.js';
import type { AppConfig, RiskConfig } from '../config/types.js';
import { effectivePriceBand } from '../config/index.js';
import { errorText } from '../core/errors.js';
import { componentLogger } from '../log.js';
import type { ReadinessState } from '../metrics/index.js';
import { sharedLimitDegraded } from '../exchange/shared-limiter-config.js';
import { signingMarketOf, type SigningMarket } from '../exchange/signer.js';
import { isOwnClientOrderId, tryParseClientOrderId } from '../orders/client-order-id.js';
import { OrderStreamWatch } from '../orders/order-stream-watch.js';
import { CrossMarketVenue, crossMarketTiming } from '../orders/cross-market-venue.js';
import { buildKillSwitch, buildStaleGuard, type BotGuardParts } from '../risk/bot-guards.js';
import { Settler } from '../capital/settler.js';
import { wireBotCapital } from '../capital/bot-capital.js';
import { createCapitalView } from '../operator/capital-view.js';
import type { OwnOrderView } from '../strategy/contract.js';
import { coreSettingsOf, TradingCore } from '../trading/core.js';
import { BotPricing } from '../pricing/live-pricing.js';
import { DryRunVenue } from '../venue/dry-run-venue.js';
import { FeedReactions } from './feed-reactions.js';
import { takerFillDetail } from '../booking/fill-booking.js';
import { FillRecorder } from '../booking/fill-recorder.js';
import { LedgerSync } from '../booking/ledger-sync.js';
import { buildMarketData } from '../venue/market-data.js';
import { buildAdverseProvider, buildMarkoutSampler } from '../markouts/live-markouts.js';
import { buildCalibrationSampler } from '../calibration/live-calibration.js';
import { buildRewardServices } from '../rewards/reward-services.js';
import { marketInfoOf } from '../markets/venue-markets.js';
import type { MarkoutSampler } from '../markouts/sampler.js';
import { OrderEventAdapter, type OrderIds } from '../venue/order-event-adapter.js';
import { OrderRecorder } from '../booking/order-recorder.js';
import { PositionPublisher } from '../operator/position-publisher.js';
import { statusLine } from '../operator/status-line.js';
import { buildBotStatus } from '../operator/bot-status.js';
import { Timers } from './timers.js';
import { botLifecycle } from './lifecycle.js';
import { TradedMarkets } from '../markets/traded-markets.js';
import { MarketRoster } from '../markets/market-roster.js';
import { noOwnOrdersEvidence } from '../markets/join-evidence.js';
import { decideStartupListing, quotesBeforeListing, withDeferredForeign } from '../markets/startup-listing.js';
import { MarketDiscovery, SELECTION_EVERY_MS } from '../markets/market-discovery.js';
import { sweepDepartedMarkets } from '../markets/departed-markets.js';
import { isStaticSelection, selectMarkets } from '../markets/market-selection.js';
import { activeMarkets } from '../markets/venue-markets.js';
import type { Market } from '../exchange/wire.js';
import { portMaintenanceOf, VenueAdapter } from '../venue/venue-adapter.js';

/**
 * Listing the live orders at start-up is tried this many times, with the executor's backoff between attempts (on top
 * of the client's own 429/5xx retries), so a bot can join an account other bots keep busy.
 */
export const STARTUP_LISTING_ATTEMPTS = 8;
/** The joined markets are re-selected this often (fair band, join window, stop before settlement): market-discovery.ts. */
export { SELECTION_EVERY_MS };
/** A market that joined less than this long ago does not make /readyz fail for want of a book. */
export const JOIN_GRACE_MS = 30_000;
export { CLOSE_RESERVE_MS, ORDER_STREAM_SWEEP_EVERY_MS, PUBLISH_POSITIONS_EVERY_MS, REBATE_FLUSH_BUDGET_MS, UNDERLYING_AGES_EVERY_MS } from './lifecycle.js';

export type { BotComponents, ComposeDeps, ComposedBot } from './compose-types.js';
import type { BotComponents, ComposeDeps, ComposedBot } from './compose-types.js';

/** Builds and wires every component; starts nothing (see `start`). */
export function composeBot(config: AppConfig, deps: ComposeDeps): ComposedBot {
  const { resources, metrics, telemetry, scheduler, log } = deps;
  const { client, ledger, venue } = resources;
  const now = (): number => scheduler.now();
  /** This run's start, for the evidence that a market listed later holds no order of the bot. */
  const composedAtMs = now();
  const startupListing = decideStartupListing(config.orders.startupListing, ledger.counts().orders);
  const markets = new TradedMarkets(resources.markets, (m) => marketInfoOf(m, effectivePriceBand(config, m.slug), config.rewards.scoring, config.rewards.creatorFee));
  // Maps keyed by market grow as markets join (the roster) and shrink when a departed market is forgotten.
  const signing = new Map<string, SigningMarket>(resources.markets.map((m) => [m.slug, signingMarketOf(m)]));
  const ledgerTokens = new Map([...signing.values()].map((m) => [m.slug, m.tokens]));
  const joinedAt = new Map<string, number>();
  /** The last reason each traded market was kept from quoting (a risk block, a halt), for the status line. */
  const blockedReasons = new Map<string, string>();
  const capitalView = createCapitalView({ ledger, metrics, now, tradedMarkets: () => markets.slugs(), log }); // src/operator/capital-view.ts
  const timers = new Timers(scheduler);
  const requote = (slug: string): void => core.requote(slug);
  /** Whether the venue's book can show the bot's own orders: not in a dry run, where they exist only in this process. */
  const ownInBook = !deps.dryRun;
  // Crypto strike markets are priced from their underlying (src/pricing/live-pricing.ts); their stop before expiry is pricing's.
  const pricing: BotPricing = new BotPricing({
    config: config.pricing,
    markets: resources.markets,
    now,
    log: componentLogger(log, 'pricing'),
    metrics,
    requote,
    position: (slug) => core.account.holdings(slug),
    hermes: resources.venue.hermes,
    scheduler,
  });
  const risk: RiskConfig = pricing.riskConfig(config.risk);

  const fills = new FillRecorder({
    ledger,
    log,
    onBooked: (booked) => {
      const { fill, notionalRaw } = booked;
      metrics.fill(fill.marketSlug, fill.side, fill.token, fill.sizeRaw, notionalRaw);
      account.noteFill(fill);
      positions.filled(fill.marketSlug);
      markouts.fillBooked();
      if (config.rewards.accrual) rewardAccrual.fillBooked(booked);
      requote(fill.marketSlug);
    },
  });
  const adapter = new VenueAdapter({
    api: client.api,
    signer: client.signer,
    markets: signing,
    recvWindowMs: config.orders.recvWindowMs,
    onCancelFact: (fact) => log.info({ fact }, 'batchCancel' in fact ? 'the venue does not serve POST /orders/batch-cancel: cancels go through POST /orders/cancel-batch' : `POST /orders/batch-cancel ${fact.spansMarkets ? 'accepts' : 'refuses'} orders of several markets in one request`),
    // A taker fill in a placement or lookup answer: its exact collateral and fee, keyed like a settlement frame's.
    onTakerFill: (d) => fills.rememberDetail(d.tradeEventId, d.orderId, takerFillDetail(d)),
  });
  const orders = new OrderRecorder(ledger, { onError: (error, order) => log.error({ err: errorText(error), clientOrderId: order.clientOrderId }, 'order row not written to the ledger') });

  // Feed, books and the socket's units (settled from evidence and logged): src/venue/market-data.ts.
  const { units, feed, books } = buildMarketData({
    config,
    venue,
    client,
    yesTokenOf: (slug) => signing.get(slug)?.tokens.yes ?? null,
    scheduler,
    log,
    feedObserver: { ...telemetry.feed, onAuthFailure: () => metrics.feedAuthFailure() },
    booksObserver: { ...telemetry.books, onTokenMismatch: (_slug, source) => metrics.bookTokenMismatch(source) },
    amountEvidence: (payload) => reactions.amountEvidence(payload),
    marketCount: resources.markets.length,
  });
  const confirmFreshness = (): void => {
    for (const slug of markets.slugs()) {
      const status = books.status(slug);
      if (status && status.hasBook && !status.stale) staleGuard.markFresh(slug);
    }
  };
  // Book listener (1); the trading core registers (2), the account's (see the header).
  books.onChange(() => confirmFreshness());

  // Trading mode → executor → account → strategy runner, wired as the backtest wires them (src/trading/core.ts).
  const settings = coreSettingsOf(config);
  const adverse = buildAdverseProvider(ledger, componentLogger(log, 'markouts'), { now, every: (ms, fn) => timers.every(ms, fn) });
  const core = new TradingCore({
    ownOrdersInBook: ownInBook,
    // Cancel-replace batches of several markets share requests (src/orders/cross-market-venue.ts); a dry run sends nothing.
    venue: deps.dryRun
      ? new DryRunVenue(adapter, log, metrics)
      : new CrossMarketVenue(adapter, {
          ...crossMarketTiming(config.rateLimits.minTimeMs),
          maxOperations: config.orders.cancelReplace.batchSize,
          othersWaiting: () => client.transport.limiter.queued() > 0,
          scheduler,
          log: componentLogger(log, 'orders'),
          onMixedMarketsRefused: () => metrics.venueAnomaly('cancel_replace_mixed_markets'),
        }),
    scheduler,
    strategy: deps.strategy,
    markets,
    // The holdings in memory (src/ledger/position-book.ts): the quoting path never reads SQLite.
    ledger: ledger.positionBook,
    risk,
    mode: { pollIntervalMs: settings.modePollIntervalMs, fetchStatus: () => client.api.getMaintenanceStatus().then(portMaintenanceOf), observer: telemetry.mode },
    orders: {
      ...settings.orders,
      observer: withDeferredForeign(telemetry.executor, (report) => reactions.noteForeign(report)),
      log: componentLogger(log, 'orders'),
      startupAttempts: STARTUP_LISTING_ATTEMPTS,
      deferListing: (slug) => quotesBeforeListing({ mode: startupListing.mode, slug, openOrderMarkets: new Set(ledger.openOrders().map((o) => o.marketSlug)) }),
    },
    account: {
      // A feed whose authentication the venue refused carries no order events: halted like a stale one.
      halts: (slug) => ({ killSwitch: killSwitch.status().tripped, stale: staleGuard.isHalted(slug) || feed.authState() === 'failed' }),
      onGate: (slug, outcome) => capitalView.trims.noteGate(slug, outcome),
      onBlocked: (slug, reason) => (blockedReasons.set(slug, reason), capitalView.trims.noteBlocked(slug, reason), metrics.riskBlocked(slug, reason)),
      log,
    },
    books: { books: (slug) => (books.isStale(slug) ? null : books.books(slug)), onChange: (listener) => books.onChange(listener) },
    runner: { requoteIntervalMs: settings.requoteIntervalMs, setInterval: (fn, ms) => timers.every(ms, fn), model: (slug) => pricing.answer(slug), adverseSelection: (info, now) => adverse.view(info, now), onTouch: (slug, touch) => pricing.observeBook(slug, touch), observer: telemetry.runner },
    capIntents: (slug, intents) => pricing.capIntents(slug, intents),
    onFill: (fill) => void fills.record(fill),
    onOrderChange: (order, previous) => {
      telemetry.orderChanged(order, previous, () => account.riskOrders(order.marketSlug).length);
      orders.record(order, previous);
    },
  });
  const { modeGate, executor, account, runner, ids } = core;
  const ledgerSync = new LedgerSync({
    ledger,
    api: client.api,
    markets: ledgerTokens,
    now,
    log: componentLogger(log, 'ledger'),
    exclusive: config.markets.exclusive,
    stopping: deps.stopping,
    onAccount: (held) => {
      account.balancesRead();
      positions.accountRead(held);
    },
  });
  // Resolved markets: their payout into the ledger and, for a server-managed wallet, redeemed once (src/settlement).
  const settler = new Settler({
    api: client.api,
    ledger,
    scheduler,
    log: componentLogger(log, 'settlement'),
    redeem: config.redemption.mode,
    dryRun: deps.dryRun,
    retry: { initialMs: config.redemption.retryInitialMs, maxMs: config.redemption.retryMaxMs },
    conditionIds: new Map(resources.markets.map((m) => [m.slug, m.conditionId])),  // joined later: read when they resolve
    observer: { onResult: (market, result, amountRaw) => metrics.redemption(market, result, amountRaw), onPending: (count) => metrics.redemptionsPending(count) },
  });
  const capital = wireBotCapital({ config, resources, chainPort: deps.chainPort ?? null, scheduler, log: componentLogger(log, 'capital'), openOrders: () => executor.openOrders(), apiRedeems: () => settler.apiRedeems(), observer: capitalView.observer });

  const marketByKey = new Map(resources.markets.map((m) => [ids.keyOf(m.slug), m.slug]));
  const marketOfOrder = ({ orderId, clientOrderId }: OrderIds): string | null =>
    executor.openOrders().find((o) => (orderId !== undefined && o.orderId === orderId) || (clientOrderId !== undefined && o.clientOrderId === clientOrderId))?.marketSlug ??
    (clientOrderId === undefined ? null : (marketByKey.get(tryParseClientOrderId(clientOrderId)?.marketKey ?? '') ?? null));
  const orderEvents = new OrderEventAdapter({
    account: client.signer.makerAddress,
    isOwnOrder: ({ orderId, clientOrderId }) =>
      (clientOrderId !== undefined && isOwnClientOrderId(clientOrderId, config.orders.botTag)) || (orderId !== undefined && executor.openOrders().some((o) => o.orderId === orderId)),
    marketOf: marketOfOrder,
    now,
    onInexactPrice: (tradeEventId, priceMicros) => log.warn({ tradeEventId, priceMicros }, 'taker fill average price off the tick grid; rounded'),
  });
  // The book store judges staleness (a quiet market is fresh while the watchdog can confirm it over REST); the guard
  // adds the grace period after the store says stale, then halts the market (cancels its orders).
  const guardParts: BotGuardParts = {
    scheduler, risk: config.risk, log, metrics, executor, requote, blockedReasons,
    hasBook: (slug) => books.status(slug)?.hasBook === true,
    marketSlugs: () => markets.slugs(),
    dailyPnlRaw: (dayStartMs) => ledger.dailyPnl(dayStartMs).totalRaw,
    ...(deps.killSwitchCheckIntervalMs === undefined ? {} : { killSwitchCheckIntervalMs: deps.killSwitchCheckIntervalMs }),
  };
  const staleGuard = buildStaleGuard(guardParts);
  // A book that keeps showing less than the bot's own resting orders: their order events were lost (the stream can
  // go silent while the connection and the books look healthy). Resync that market at once, as after a reconnect.
  const orderStreamWatch: OrderStreamWatch = new OrderStreamWatch({
    scheduler,
    ownOrders: (slug) => (ownInBook ? executor.openOrders(slug) : []),
    book: (slug) => (books.isStale(slug) ? null : (books.books(slug)?.yes ?? null)),
    resync: async (slug) => {
      reactions.noteForeign(await executor.resync(slug));
      if (!deps.stopping()) await ledgerSync.afterGap();
    },
    log: componentLogger(log, 'orders'),
    onGap: () => metrics.orderEventGap('book-shortfall'),
  });
  const killSwitch = buildKillSwitch(guardParts);
  const positions = new PositionPublisher({
    ledger,
    scheduler,
    markets: () => markets.slugs(),
    mid: (slug) => books.books(slug)?.yes.mid ?? null,
    riskOrders: (slug) => account.riskOrders(slug),
    positionCostRaw: (slug) => account.positionCostRaw(slug),
    metrics,
    now,
    checkLoss: (dailyPnlRaw) => void killSwitch.check(dailyPnlRaw),
    log,
  });
  const reactions: FeedReactions = new FeedReactions({
    executor,
    adapter: orderEvents,
    marketOfOrder,
    fills,
    markets,
    watch: orderStreamWatch,
    settler,
    staleGuard,
    ledgerSync,
    requote,
    metrics,
    log,
    now,
    stopping: deps.stopping,
    foreignPolicy: config.orders.foreignOrders,
  });
  const ownOrders = (slug: string): readonly OwnOrderView[] => (ownInBook ? account.ownOrders(slug) : []);
  const markouts: MarkoutSampler = buildMarkoutSampler({ ledger, scheduler, strategyName: config.strategy.name, books, ownOrders, pricing, metrics, log: componentLogger(log, 'markouts') });
  const calibration = buildCalibrationSampler({ config: config.calibration, ledger, scheduler, books, ownOrders, pricing, staleMs: config.pricing.pricer.staleMs, metrics, log: componentLogger(log, 'calibration') });
  // Rewards and rebates beside trading PnL, as estimates; the venue's own figures and the trade feed beside them.
  const { rewardAccrual, venueRewards, rebateResolver } = buildRewardServices({
    config, client, ledger, scheduler, metrics, log, readVenueRewards: deps.readVenueRewards,
    markets: () => markets.slugs().flatMap((slug) => markets.info(slug) ?? []),
    book: (slug) => (books.isStale(slug) ? null : (books.books(slug)?.yes ?? null)),
    // The bot's orders as the book shows them (a dry run's exist only here: the book holds none of them).
    ownOrders,
  });
  const resolving = config.rewards.accrual && config.rewards.tradeResolution.enabled;
  // Outside changes (a claim, merge or split by hand) booked from the venue's history; the bot's own are matched away.
  const accountHistory = new AccountHistorySync({
    read: (cursor) => client.api.getHistory({ cursor, limit: 100 }),
    ledger,
    scheduler,
    intervalMs: config.maintenance.historyPollMs,
    maxPages: 10,
    log: componentLogger(log, 'account-history'),
  });

  // Listeners, in this order (see the header; (1) and (2) are registered where the books and the core are built).
  units.onSettled((settled) => reactions.unitsSettled(settled));
  feed.onOrderEvent((frame) => reactions.orderEvent(frame));
  feed.onUnreadableOrderEvent((lost) => reactions.unreadableOrderEvent(lost));
  feed.onAuthChange((state, message) => reactions.authChanged(state, message));
  feed.onMarketResolved((frame) => reactions.resolved(frame));
  feed.onOraclePrice((frame) => pricing.venueFrame(frame));
  feed.onMarketResolved((frame) => pricing.resolved(frame));
  feed.onStateChange((state) => reactions.connectionChanged(state));
  books.onChange((slug) => orderStreamWatch.onBook(slug));
  books.onChange((slug) => positions.bookChanged(slug));
  books.onStaleChange((slug, stale) => (stale ? requote(slug) : confirmFreshness()));

  // The status line every log.statusIntervalMs (src/operator/bot-status.ts): every figure read from its owner.
  const leaveAtMs = (market: Market): number | null => (market.expirationMs === null ? null : market.expirationMs - pricing.stopBeforeExpiryMs(market, config.risk));
  const status = buildBotStatus(
    {
      config,
      now,
      marketSlugs: () => markets.slugs(),
      openOrders: () => executor.openOrders(),
      fills: () => fills.tally().fills,
      pnl: () => {
        const { realizedRaw, unrealizedRaw } = ledger.pnl().totals;
        const earned = ledger.rewards.totals();
        return { realizedRaw, unrealizedRaw, ...(config.rewards.accrual ? { rewardRaw: earned.rewardRaw, rebateRaw: earned.rebateRaw } : {}) };
      },
      requests: () => telemetry.tally().requests,
      underlyingAgesMs: () => pricing.underlyingAges(),
      killSwitchTripped: () => killSwitch.status().tripped,
      rostered: () => roster.current(),
      bookStatus: (slug) => books.status(slug),
      halted: (slug) => staleGuard.isHalted(slug),
      pricingHalt: (slug) => pricing.haltReason(slug),
      blockedReason: (slug) => blockedReasons.get(slug),
      candidates: () => discovery.candidateMarkets(),
      leaveAtMs,
      tradedMarket: (slug) => markets.market(slug),
      nothingQuotedFor: (ms) => metrics.nothingQuotedFor(ms),
      capital: capitalView.status,
    },
    log,
  );

  // Markets join and leave while running: each step in the order of the start-up (see the header).
  const roster: MarketRoster = new MarketRoster(
    {
      register: (market) => {
        signing.set(market.slug, signingMarketOf(market));
        capital.remember(market);
        ledgerTokens.set(market.slug, signingMarketOf(market).tokens);
        marketByKey.set(ids.keyOf(market.slug), market.slug);
        pricing.addMarket(market);
        markets.add(market);
        joinedAt.set(market.slug, now());
        books.setMarkets(markets.slugs());
        staleGuard.track(market.slug);
      },
      adopt: async (market) => {
        const info = markets.info(market.slug);
        if (info === undefined) throw new Error(`market ${market.slug} is not registered`);
        // A market the venue listed after this run started, with no open order of the bot in the ledger, holds none:
        // no listing of its orders (src/markets/join-evidence.ts), so a new ladder's first quotes wait for nothing else.
        const openOrderMarkets = new Set(ledger.openOrders().map((o) => o.marketSlug));
        const evidence = noOwnOrdersEvidence({ slug: market.slug, createdAtMs: market.createdAtMs, startedAtMs: composedAtMs, clockMarginMs: config.markets.discovery.clockMarginMs, openOrderMarkets });
        const report = await core.addMarket(info, evidence === null ? {} : { noOwnOrders: evidence });
        // A market quoting before its listing: its foreign orders are counted once that listing ran (startup-listing.ts).
        if (report.deferred !== true) reactions.noteForeign(report);
        core.armExpiryRequote(info, (atMs, fn) => timers.at(atMs, fn));
        return report;
      },
      drain: (slug) => core.removeMarket(slug, { budgetMs: Math.max(1000, config.shutdown.budgetMs - 1500) }),
      unregister: (slug) => {
        // An offset due at the leave (the 1-minute one, at the default 60 s stop) is taken while the book is still there.
        calibration?.takeNow(slug);
        staleGuard.untrack(slug);
        markets.remove(slug);
        books.setMarkets(markets.slugs());
        pricing.removeMarket(slug);
        metrics.forgetMarket(slug);
        blockedReasons.delete(slug);
        joinedAt.delete(slug);
      },
    },
    componentLogger(log, 'markets'),
    markets.slugs(),
  );
  const discovery = new MarketDiscovery(
    {
      scheduler,
      log: componentLogger(log, 'markets'),
      listActive: () => activeMarkets(client.api),
      // A market about to be joined: its read goes before routine placements and reads (its first quotes wait for it).
      details: (slug) => client.api.getMarket(slug, { priority: 'place' }),
      select: ({ candidates, nowMs, current }) => selectMarkets({ rules: config.markets, candidates, nowMs, current, feedIds: config.pricing.feedIds }),
      fairOf: (market) => pricing.fairOf(market),
      leaveAtMs,
      roster,
      // A static list of slugs needs no listing poll (a day): its markets only leave at their stop.
      pollIntervalMs: isStaticSelection(config.markets) ? 86_400_000 : config.markets.discovery.pollIntervalMs,
      evaluateIntervalMs: SELECTION_EVERY_MS,
    },
    resources.markets,
  );

  /** Departed markets: forgotten once resolved and settled; a resolution the socket never brought is read over REST. */
  const sweepDeparted = (): Promise<void> =>
    sweepDepartedMarkets({
      markets,
      settling: () => settler.pending(),
      forget: (slug) => {
        signing.delete(slug);
        ledgerTokens.delete(slug);
        marketByKey.delete(ids.keyOf(slug));
        metrics.forgetMarket(slug);
      },
      getMarket: (slug) => client.api.getMarket(slug),
      resolved: (slug, winningIndex) => reactions.resolved({ slug, winningIndex, resolutionDateMs: now() }),
      now,
      stopping: deps.stopping,
      log,
    });

  const components: BotComponents = {
    markets, modeGate, executor, fills, orders, account, ledgerSync, settler, capital, units, feed, books, staleGuard, orderStreamWatch, killSwitch, positions, reactions, runner, timers, pricing, markouts, rewardAccrual, venueRewards, rebateResolver, calibration, roster, discovery,
  };

  const lifecycle = botLifecycle({
    config, components, accountHistory, ledger, metrics, scheduler, log, stopping: deps.stopping, startupListing, resolving, confirmFreshness, sweepDeparted,
    ...(deps.signal === undefined ? {} : { signal: deps.signal }),
    ...(deps.positionsPublishEveryMs === undefined ? {} : { positionsPublishEveryMs: deps.positionsPublishEveryMs }),
    reportStatus: () => status.report(),
    startQuotingClock: () => status.startQuotingClock((ms, fn) => timers.every(ms, fn)),
    armExpiryRequotes: () => core.armExpiryRequotes((atMs, fn) => timers.at(atMs, fn)),
  });

  const readiness = (): ReadinessState => {
    const kill = killSwitch.status();
    return {
      feedConnected: feed.connectionState().status === 'connected' && feed.authState() === 'ok',
      // A market that joined moments ago has no book yet: not a reason to report the bot unready.
      staleMarkets: markets.slugs().filter((slug) => (books.isStale(slug) && now() - (joinedAt.get(slug) ?? 0) > JOIN_GRACE_MS) || staleGuard.isHalted(slug)),
      paused: kill.tripped,
      pauseReason: kill.trip?.reason ?? null,
      degraded: sharedLimitDegraded(client.transport.limiter.sharedState()),
    };
  };

  return { components, start: () => lifecycle.start(), stop: (deadlineMs) => lifecycle.stop(deadlineMs), readiness, status: () => statusLine(status.snapshot()), quoting: () => status.quotingTotals() };
}
