/**
 * The virtual-time backtest: a strategy quoting on the REAL matching engine (src/sim/engine: price-time queues,
 * complementary matching, fees, locks) against synthetic flow, through the bot's own trading path (./trader.ts):
 * the strategy runner, the account view's gate and budget (src/risk/account-view.ts) and the REAL order executor
 * (src/orders/executor.ts). The backtest has no order management of its own: the executor talks to a venue port
 * served by the engine (./engine-venue.ts), wrapped in the request model (./latency-venue.ts: the account's rate
 * limit and a one-way delay), and hears of its orders through the bot's own frame parser and order-event adapter
 * (./engine-feed.ts).
 *
 * Time: virtual (./virtual-time.ts). The clock moves in steps of `stepMs`; between steps it runs every timer in due
 * order (request landings and answers, feed deliveries, the runner's requote interval, the executor's lookups and
 * reviews), settling the promise work each one starts. At each step the synthetic traders act, then the time-weighted
 * figures are sampled from the engine's resting orders.
 *
 * Owns: the run (engine, clock, feed, books of the fills, counters) and the result. Invariants: deterministic for
 * the options (the seed drives every random choice, the clock is virtual, iteration orders are fixed, promise work
 * is settled to quiescence at every timer); nothing here reads wall time; the bot's positions equal the engine's
 * token balances at the end (checked).
 */
import { errorText } from '../core/errors.js';
import { isOwnClientOrderId } from '../orders/client-order-id.js';
import { OrderEventAdapter, type OrderIds } from '../venue/order-event-adapter.js';
import { toYesTerms } from '../strategy/yes-terms.js';
import { touchPrices, type Touch } from '../strategy/own-orders.js';
import { AdverseSelectionProvider } from '../markouts/adverse-provider.js';
import { mergeMarkoutSummaries } from '../markouts/markout.js';
import { MarketPricer } from '../pricing/market-pricer.js';
import { createEngine, EngineConfigError, generateMarkets, type SimEngine } from '../sim/engine/index.js';
import { BotAccounting } from './accounting.js';
import { BacktestCalibrationSampler } from './calibration.js';
import { EngineFeed } from './engine-feed.js';
import { EngineFills } from './engine-fills.js';
import { EngineVenue } from './engine-venue.js';
import { BacktestConfigError, BacktestInvariantError } from './errors.js';
import type { BacktestCapitalBook } from './capital-books.js';
import { createBacktestCapital } from './capital-run.js';
import type { CapitalCore } from '../capital/core.js';
import type { GateOutcome } from '../risk/gate.js';
import { LatencyVenue } from './latency-venue.js';
import { MarketRoll } from './market-roll.js';
import { MarketRuns } from './market-runs.js';
import { CrossMarketVenue, crossMarketTiming } from '../orders/cross-market-venue.js';
import { resolveOptions, type BacktestOptions, type ResolvedOptions } from './options.js';
import type { BacktestResult, MarketResult } from './result.js';
import { riskConfigOf, Trader } from './trader.js';
import { VirtualTime } from './virtual-time.js';
import { rawToFloat, ticksToFloat } from '../core/venue-rules/index.js';
import { estimateMakerRebate } from '../strategy/rebates.js';

const HOUR_MS = 3_600_000;
/** The bot's account on the engine. */
const BOT_PROFILE_ID = 1;
const BOT_ADDRESS = '0x00000000000000000000000000000000000B0071';
/** Fills the engine keeps per account: far more than are ever waiting for their order event. */
const FILL_RETENTION = 5000;
/**
 * Terminal orders the executor keeps beyond the settlement delay: a minute (the bot keeps an hour, for late events of
 * a real venue). Every event of the engine reaches the executor within the request model's delays and the settlement.
 */
const RETAIN_TERMINAL_MS = 60_000;

/**
 * Runs one backtest to the end. Throws `BacktestConfigError` (naming the option) at once, before anything runs;
 * the run itself is asynchronous (the order executor is).
 */
export function runBacktest<P>(options: BacktestOptions<P>): Promise<BacktestResult> {
  return new BacktestRun(resolveOptions(options)).run();
}

interface RunStats {
  placements: number;
  cancelRequests: number;
  cancels: number;
  rejectedPlacements: number;
  readonly rejectedByCode: Record<string, number>;
  strategyErrors: number;
  invalidIntents: number;
  readonly fundingDrops: Record<string, number>;
  readonly riskDrops: Record<string, number>;
  readonly riskTrims: Record<string, number>;
  rejectedBooks: number;
  orderEventGaps: number;
}

class BacktestRun {
  private readonly time: VirtualTime;
  private readonly engine: SimEngine;
  private readonly runs: MarketRuns;
  private readonly roll: MarketRoll;
  /** Markets the engine resolved (the account's `isResolved`). */
  private readonly resolved = new Set<string>();
  private readonly unlistenResolutions: () => void;
  private readonly accounting: BotAccounting;
  private readonly latency: LatencyVenue;
  private readonly feed: EngineFeed;
  private readonly trader: Trader;
  private readonly fills: EngineFills;
  /** The bot's pricer, fed with the world's published underlying once a step; null: quoted from the book. */
  private readonly pricer: MarketPricer | null;
  /** Calibration as the bot records it (the `calibration` option); null: off. */
  private readonly calibration: BacktestCalibrationSampler | null;
  /** The capital core over the engine's port (the `capital` option); null when off. */
  private readonly capital: { readonly core: CapitalCore; readonly book: BacktestCapitalBook } | null;
  private steps = 0;
  private cycleError: unknown = null;
  private readonly stats: RunStats = {
    placements: 0,
    cancelRequests: 0,
    cancels: 0,
    rejectedPlacements: 0,
    rejectedByCode: {},
    strategyErrors: 0,
    invalidIntents: 0,
    fundingDrops: {},
    riskDrops: {},
    riskTrims: {},
    rejectedBooks: 0,
    orderEventGaps: 0,
  };

  constructor(private readonly o: ResolvedOptions) {
    this.time = new VirtualTime(o.startMs);
    const given = o.world !== null ? [] : 'count' in o.markets ? generateMarkets(o.markets.count, o.seed, o.startMs) : [...o.markets];
    const band = {
      minTicks: Math.max(o.venuePriceBand.minTicks, o.risk.priceBand.minTicks),
      maxTicks: Math.min(o.venuePriceBand.maxTicks, o.risk.priceBand.maxTicks),
    };
    if (band.minTicks >= band.maxTicks) throw new BacktestConfigError('risk.priceBand', o.risk.priceBand, 'does not overlap venuePriceBand');
    try {
      this.engine = createEngine({
        seed: o.seed,
        clock: this.time,
        settlementDelayMs: o.settlementDelayMs,
        markets: given,
        ...(o.world === null ? {} : { world: o.world }),
        accounts: [{ profileId: BOT_PROFILE_ID, address: BOT_ADDRESS, usdcRaw: o.account.usdcRaw, feeRateBps: o.account.feeRateBps, serverManagedWallet: o.account.serverManagedWallet }],
        synthetic: { ...o.synthetic, stepMs: o.stepMs, autoStep: false },
        priceBand: o.venuePriceBand,
        retention: { fillsPerAccount: FILL_RETENTION },
      });
    } catch (error) {
      if (error instanceof EngineConfigError) throw new BacktestConfigError(error.field, error.value, error.reason);
      throw error;
    }
    this.accounting = new BotAccounting([]);
    this.runs = new MarketRuns({ engine: this.engine, profileId: BOT_PROFILE_ID, accounting: this.accounting, book: (slug) => this.feed.book(slug), now: () => this.time.now() });
    this.pricer = o.pricing === null ? null : new MarketPricer(o.pricing);
    // Every ticker of the world is followed from the start (as the bot's feed would be): an estimate is warm before
    // its first market is joined.
    for (const spec of this.engine.underlying()?.tickers() ?? []) this.pricer?.watch(spec.ticker);
    this.roll = new MarketRoll({
      engine: this.engine,
      scheduler: this.time,
      runs: this.runs,
      accounting: this.accounting,
      pricer: this.pricer,
      band,
      admits: o.admits,
      selection: o.selection,
      stopBeforeExpiryMs: o.risk.stopBeforeExpiryMs,
      leaveBudgetMs: o.leaveBudgetMs,
      endMs: o.startMs + o.durationMs,
      onError: (error) => (this.cycleError ??= error),
    });
    const infos = this.roll.initial();
    // The account asks of every market it holds at each gate: answered from the engine's resolutions as they come.
    for (const market of this.engine.markets()) if (market.status === 'RESOLVED') this.resolved.add(market.slug);
    this.unlistenResolutions = this.engine.on({ marketResolved: (frame) => this.resolved.add(frame.slug) });
    this.fills = new EngineFills(this.engine, BOT_PROFILE_ID, this.accounting, (fill) => {
      const run = this.runs.get(fill.marketSlug);
      const yes = toYesTerms(fill.outcome, fill.side, fill.priceTicks);
      run.markoutFills.push({ atMs: fill.matchedAtMs, yesSide: yes.side, yesPrice: ticksToFloat(yes.priceTicks), shares: rawToFloat(fill.sizeRaw) });
      // A maker fill's rebate estimate: the taker's fee on the fee curve × the market's rate (else the account's).
      if (fill.role === 'MAKER') run.rebatesRaw += estimateMakerRebate(fill, run.info.rebateRate ?? o.account.rebateRate).rebateRaw;
      this.o.observer.onFill?.(fill, { yesRaw: this.accounting.holding(fill.marketSlug, 'YES'), noRaw: this.accounting.holding(fill.marketSlug, 'NO') });
    });
    const engineVenue = new EngineVenue({
      engine: this.engine,
      profileId: BOT_PROFILE_ID,
      feeRateBps: o.account.feeRateBps,
      observer: {
        onPlacement: (code) => {
          this.stats.placements += 1;
          if (code === null) return;
          this.stats.rejectedPlacements += 1;
          bump(this.stats.rejectedByCode, code);
        },
        onCancelRequest: (orders) => {
          this.stats.cancelRequests += 1;
          this.stats.cancels += orders;
        },
        onCancelReplace: (items) => {
          this.stats.cancels += items;
        },
      },
    });
    this.latency = new LatencyVenue(engineVenue, this.time, o.latency);
    const listeners: ((slug: string) => void)[] = [];
    // The bot's cross-market batcher over the request model, with the bot's hold-off while other requests wait (the
    // model starts cancel-replace requests first, as the bot's limiter); a request lingers until the instant's work is
    // done, so the plans one step starts in every market reach it (the bot lingers CROSS_MARKET_LINGER_MS).
    const latency = this.latency;
    const venue = o.crossMarketBatches
      ? new CrossMarketVenue(latency, {
          maxOperations: o.orders.cancelReplace.batchSize,
          lingerMs: 0,
          holdOffMs: crossMarketTiming(o.latency.minRequestSpacingMs).holdOffMs,
          othersWaiting: () => latency.queued() > 0,
          scheduler: this.time,
        })
      : latency;
    const adverse = new AdverseSelectionProvider({ read: (sinceMs, nowMs) => this.runs.adverseFills(sinceMs, nowMs) });
    this.trader = new Trader({
      venue,
      scheduler: this.time,
      strategy: o.strategy,
      markets: infos,
      isResolved: (slug) => this.resolved.has(slug),
      ledger: this.accounting,
      books: {
        books: (slug) => this.feed.book(slug)?.views ?? null,
        onChange: (listener) => {
          listeners.push(listener);
          return () => listeners.splice(listeners.indexOf(listener), 1);
        },
      },
      risk: riskConfigOf(o.risk),
      orders: o.orders,
      requoteIntervalMs: o.requoteIntervalMs,
      quoteOnBookChange: o.quoteOnBookChange,
      midHistory: o.midHistory,
      retainTerminalMs: o.settlementDelayMs + RETAIN_TERMINAL_MS,
      // Adverse selection from the run's own markouts (its fills against the hidden fair value), per market and cadence.
      adverseSelection: (info, now) => adverse.view(info, now),
      ...(this.pricer === null
        ? {}
        : {
            model: (slug: string) => this.pricer?.answer(slug, this.time.now()) ?? { kind: 'book' as const },
            onTouch: (slug: string, touch: Touch) => this.pricer?.observeBook(slug, touchPrices(touch), this.time.now()),
          }),
      observer: {
        onFill: (fill) => this.fills.book(fill),
        onGate: (_slug, outcome) => this.countGate(outcome),
        runner: {
          onQuoteCycle: (slug, _latencyMs, submitted, halt) => this.o.observer.onQuoteCycle?.(slug, this.time.now(), submitted, halt),
          onSubmit: (slug, intents) => this.o.observer.onSubmit?.(slug, this.time.now(), intents),
          onStrategyError: () => (this.stats.strategyErrors += 1),
          onCycleError: (_slug, error) => (this.cycleError ??= error),
          onInvalidIntents: (_slug, rejected) => (this.stats.invalidIntents += rejected.length),
          onDiagnostics: (slug, figures) => {
            const reward = figures['expectedRewardPerDay'];
            this.runs.get(slug).diagReward = typeof reward === 'number' && Number.isFinite(reward) ? reward : 0;
          },
        },
      },
    });
    const executor = this.trader.executor;
    this.capital = o.capital.enabled
      ? createBacktestCapital({ engine: this.engine, profileId: BOT_PROFILE_ID, accounting: this.accounting, scheduler: this.time, openOrders: () => executor.openOrders(), options: o })
      : null;
    const isOwnOrder = ({ orderId, clientOrderId }: OrderIds): boolean =>
      (clientOrderId !== undefined && isOwnClientOrderId(clientOrderId, o.orders.botTag)) || (orderId !== undefined && executor.openOrders().some((x) => x.orderId === orderId));
    // The market of one of the bot's orders (for a gap's resync): the executor's, else the engine's record of it.
    const marketOf = ({ orderId, clientOrderId }: OrderIds): string | null =>
      executor.openOrders().find((x) => (orderId !== undefined && x.orderId === orderId) || (clientOrderId !== undefined && x.clientOrderId === clientOrderId))?.marketSlug ??
      (clientOrderId === undefined ? undefined : this.engine.orderByClientOrderId(BOT_PROFILE_ID, clientOrderId)?.marketSlug) ??
      (orderId === undefined ? undefined : this.engine.orderById(orderId)?.marketSlug) ??
      null;
    this.feed = new EngineFeed({
      engine: this.engine,
      profileId: BOT_PROFILE_ID,
      scheduler: this.time,
      markets: infos.map((i) => ({ slug: i.slug, minSizeRaw: i.minSizeRaw })),
      adapter: new OrderEventAdapter({ account: BOT_ADDRESS, isOwnOrder, marketOf, now: () => this.time.now() }),
      onOrderEvent: (event) => executor.onOrderEvent(event),
      onGap: (slug) => {
        this.stats.orderEventGaps += 1;
        if (slug !== null && this.trader.core.markets.info(slug) !== undefined) executor.resync(slug).catch((error: unknown) => (this.cycleError ??= error));
      },
      onBookChange: (slug) => {
        for (const listener of [...listeners]) listener(slug);
      },
      onRejectedBook: () => (this.stats.rejectedBooks += 1),
      onMarketListed: (slug) => this.roll.listed(slug),
    });
    this.roll.start(this.trader, this.feed);
    this.calibration =
      this.pricer === null || o.calibration === null || o.pricing === null
        ? null
        : new BacktestCalibrationSampler({
            scheduler: this.time,
            pricer: this.pricer,
            staleMs: o.pricing.staleMs,
            book: (slug) => this.feed.book(slug)?.views?.yes ?? null,
            ownOrders: (slug) => this.engine.orders(BOT_PROFILE_ID, slug, ['LIVE']).map((x) => ({ token: x.outcome, side: x.side, priceTicks: x.priceTicks ?? 0, sizeRaw: x.remainingSizeRaw })),
            outcomeOf: (slug) => {
              const index = this.engine.market(slug)?.winningOutcomeIndex;
              return index === 0 ? 1 : index === 1 ? 0 : null;
            },
            ...(o.calibration.offsetsMs === undefined ? {} : { offsetsMs: o.calibration.offsetsMs }),
          });
  }

  async run(): Promise<BacktestResult> {
    // Connected before the first step: the start-up reads (trading mode, live orders) act at once.
    this.feed.prime();
    this.o.observer.onStart?.({
      markets: this.trader.core.markets.infoList().map((info) => this.engine.market(info.slug)).filter((m): m is NonNullable<typeof m> => m !== undefined),
      restingOrders: (slug) => this.engine.orders(BOT_PROFILE_ID, slug, ['LIVE']),
      onOrderChange: (listener) =>
        this.engine.on({
          orderEvent: (profileId, frame) => {
            if (profileId === BOT_PROFILE_ID) listener(frame.marketSlug);
          },
        }),
      now: () => this.time.now(),
      requestsSent: () => this.latency.requests,
    });
    const adopting = this.trader.adopt();
    await this.time.runUntil(this.o.startMs);
    await adopting;
    this.latency.begin();
    this.trader.quote();
    this.capital?.core.start();
    this.calibration?.start();
    const end = this.o.startMs + this.o.durationMs;
    // The core's memory half past each hour: between one ladder's join and the next's (not at the handover).
    let nextStateSampleAt = this.o.startMs + HOUR_MS / 2;
    for (let t = this.o.startMs; t < end; t += this.o.stepMs) {
      await this.time.runUntil(t);
      this.engine.syntheticStep();
      this.feedUnderlying();
      await this.time.runUntil(t);
      this.runs.sample(Math.min(this.o.stepMs, end - t));
      this.steps += 1;
      if (t >= nextStateSampleAt) {
        this.roll.sample();
        nextStateSampleAt += HOUR_MS;
      }
    }
    await this.time.runUntil(end);
    this.roll.sample();
    this.roll.stop();
    this.capital?.core.stop();
    this.trader.stop();
    this.feed.deliver();
    await this.time.runUntil(end);
    this.fills.drain();
    this.feed.stop();
    this.unlistenResolutions();
    if (this.cycleError !== null) throw new BacktestInvariantError(`a quote cycle failed: ${errorText(this.cycleError, { withName: true })}`, { cause: this.cycleError });
    return this.finish();
  }

  /** The world's published price of each priced ticker reaches the pricer (as a feed would, once a second), and requotes its markets. */
  private feedUnderlying(): void {
    const world = this.engine.underlying();
    if (this.pricer === null || world === null) return;
    const now = this.time.now();
    for (const ticker of this.pricer.tickerList()) {
      const price = world.publishedAt(ticker, now);
      if (price === null) continue;
      this.pricer.observe({ ticker, price, conf: null, receiveTimeMs: now });
      for (const slug of this.pricer.marketsOf(ticker)) this.trader.runner.trigger(slug, false);
    }
  }

  private countGate(outcome: GateOutcome): void {
    for (const adjustment of outcome.funding) if (adjustment.action === 'dropped') bump(this.stats.fundingDrops, adjustment.reason);
    for (const dropped of outcome.risk.dropped) bump(this.stats.riskDrops, dropped.reason);
    for (const trimmed of outcome.risk.trimmed) bump(this.stats.riskTrims, trimmed.reason);
  }

  // ───────────────────────── the result ─────────────────────────

  private finish(): BacktestResult {
    const markets = this.runs.results((slug) => this.trader.runner.cycles(slug));
    const violations = this.engine.checkInvariants();
    const calibration = this.calibration?.finish() ?? null;
    this.engine.stop();
    const sum = (pick: (m: MarketResult) => number): number => markets.reduce((acc, m) => acc + pick(m), 0);
    const mean = (pick: (m: MarketResult) => number): number => (markets.length === 0 ? 0 : sum(pick) / markets.length);
    const s = this.stats;
    return {
      strategy: this.o.strategyName,
      seed: this.o.seed,
      startMs: this.o.startMs,
      durationMs: this.o.durationMs,
      stepMs: this.o.stepMs,
      steps: this.steps,
      pnlRaw: sum((m) => m.pnlRaw),
      pnlAtMidRaw: markets.some((m) => m.pnlAtMidRaw === null) ? null : sum((m) => m.pnlAtMidRaw ?? 0),
      realizedRaw: sum((m) => m.realizedRaw),
      feesRaw: sum((m) => m.feesRaw),
      unrealizedRaw: sum((m) => m.unrealizedRaw),
      fills: sum((m) => m.fills),
      volumeRaw: sum((m) => m.volumeRaw),
      maxAbsInventoryRaw: Math.max(0, ...markets.map((m) => m.maxAbsInventoryRaw)),
      maxTokenRaw: Math.max(0, ...markets.map((m) => m.maxTokenRaw)),
      twoSidedFraction: mean((m) => m.twoSidedFraction),
      quotingFraction: mean((m) => m.quotingFraction),
      expectedRewardPerDay: sum((m) => m.expectedRewardPerDay),
      scoredRewardUsdc: sum((m) => m.scoredRewardUsdc),
      rebatesRaw: sum((m) => m.rebatesRaw),
      requests: {
        placements: s.placements,
        cancelRequests: s.cancelRequests,
        cancels: s.cancels,
        total: s.placements + s.cancelRequests,
        sent: this.latency.requests,
        withheld: this.latency.withheld,
        rejectedPlacements: s.rejectedPlacements,
        rejectedByCode: { ...s.rejectedByCode },
      },
      counters: {
        quoteCycles: sum((m) => m.quoteCycles),
        strategyErrors: s.strategyErrors,
        invalidIntents: s.invalidIntents,
        fundingDrops: { ...s.fundingDrops },
        riskDrops: { ...s.riskDrops },
        riskTrims: { ...s.riskTrims },
        rejectedBooks: s.rejectedBooks,
        orderEventGaps: s.orderEventGaps,
      },
      markets,
      markouts: mergeMarkoutSummaries(markets.map((m) => m.markouts)),
      engineInvariantViolations: violations,
      roll: this.roll.summary(),
      calibration,
      capital: this.capital?.book.summary(this.o.durationMs) ?? null,
    };
  }
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
