/**
 * The replay backtest: a replay stream (./format.ts) played on a virtual clock through the configured strategy, the
 * real account view (gate and budget) and the real order executor, wired as the bot wires them
 * (src/backtest/trader.ts), against one replay venue per recorded market (./replay-venue.ts: the queue model over
 * the recorded books and trades, behind ./replay-venues.ts) behind the backtest's latency and rate-limit decorator
 * (src/backtest/latency-venue.ts). Every market of the stream replays together under one bot, as the live process
 * runs them (`market` picks one). Markets with terms are priced from the recorded underlying (./replay-pricing.ts).
 * What is traded is the config's own bot: its `markets` section (slugs, groups, `select` with every rule, `exclude`;
 * `market` narrows it to one slug) run by the daemon's selection, discovery and roster (src/markets/selection-loop.ts)
 * over the markets the stream has listed so far (format version 3 lists them over time), with the model's fair values;
 * a market is joined when the selection wants it and left when it no longer does, at its stop before settlement or at
 * its resolution (./replay-roll.ts plans those moments), through the trader's `addMarket` / `removeMarket` as the
 * synthetic backtest and the bot do; a market's figures cover its life (first join → last leave, else the stream's
 * end). A selection that joins nothing is a `ReplayBacktestError` saying why each market was skipped.
 *
 * Owns: the schedule of the recorded events, the sampling of the report's series and the figures. Invariants:
 * deterministic for its inputs (virtual clock, no wall time, no randomness); recorded events act at their time `t`
 * (file order among equal times); the last recorded book is carried forward until the next one, and the time a book
 * older than `feed.quietThresholdMs` was used is reported; underlying prices recorded before the first book play
 * from the clock's start (the volatility estimate warms up as live); markouts are measured against the recorded
 * mid (the market without our orders) and, where priced, the model's fair value; spread captured + adverse
 * selection = realized + unrealized PnL exactly.
 */
import { inventoryStepRawMs, timeWeightedInventoryRaw } from './inventory-time.js';
import type { AppConfig } from '../config/types.js';
import { effectivePriceBand, REQUOTE_INTERVAL_MS } from '../config/index.js';
import { errorText } from '../core/errors.js';
import { TICKS_PER_UNIT } from '../core/venue-rules/index.js';
import { BookState } from '../book/book-state.js';
import { parseFillPartId } from '../orders/fill-part-id.js';
import type { OrderEventInput } from '../orders/order-events.js';
import type { BookView, MarketInfo, Strategy } from '../strategy/contract.js';
import { estimateMakerRebate } from '../strategy/rebates.js';
import { expectedRewardPerDay } from '../strategy/rewards.js';
import { buildView } from '../strategy/view.js';
import { toYesTerms } from '../strategy/yes-terms.js';
import { cadenceOfTags } from '../markets/market-selection.js';
import { AdverseSelectionProvider, adverseOfSeries } from '../markouts/adverse-provider.js';
import { FairSeries, markoutUsdc, summarizeMarkouts, type MarkoutFill } from '../markouts/markout.js';
import { adjustedMidpoint } from '../core/venue-rules/index.js';
import { BotAccounting } from '../backtest/accounting.js';
import { LatencyVenue } from '../backtest/latency-venue.js';
import { CrossMarketVenue, crossMarketTiming } from '../orders/cross-market-venue.js';
import { Trader, traderOrdersOf } from '../backtest/trader.js';
import { VirtualTime } from '../backtest/virtual-time.js';
import type { ReplayEvent, ReplayHeader, ReplayMarket } from './format.js';
import { QueueMatcher, type QueueModel } from './queue-matcher.js';
import { ReplayPricing, replayTermsOf } from './replay-pricing.js';
import { SurfaceTracker } from './surface-report.js';
import { planReplayMarkets, REPLAY_LEAVE_BUDGET_MS, replayRisk, type PlannedMarket } from './replay-roll.js';
import { marketOfReplay } from '../markets/listed-market.js';
import { describeSelection, reasonSummary, SelectionLoop, type SelectionOutcome } from '../markets/selection-loop.js';
import type { MarketsConfig } from '../config/types.js';
import type { Market } from '../exchange/wire.js';
import { ReplayVenue, type ReplayFill } from './replay-venue.js';
import { ReplayVenues } from './replay-venues.js';
import type { MarketReplay, ReplayFigures, ReplayFillPoint, ReplayReport, ReplaySelection } from './report.js';
import { markoutFigures, totalFigures } from './replay-totals.js';

export interface ReplayBacktestOptions {
  readonly config: AppConfig;
  readonly strategy: Strategy;
  readonly header: ReplayHeader;
  readonly events: readonly ReplayEvent[];
  /** Default: every market of the stream, together. */
  readonly market?: string;
  /** One way; a request acts this long after it leaves the limiter, and its answer is back as long after. */
  readonly latencyMs: number;
  readonly queueModel: QueueModel;
  /** Taker fee rate of the account (maker fills are free). */
  readonly feeRateBps: number;
  /** Series points this often (default 1000 ms). */
  readonly sampleEveryMs?: number;
  /** Parts of the recording that did not read to their end, as the reports say it (src/replay/reader.ts). */
  readonly truncated?: readonly string[];
}

export class ReplayBacktestError extends Error {
  override readonly name: string = 'ReplayBacktestError';
}

/** The config's selection joined no market of the stream (a config problem for this recording: the CLI exits 2). */
export class ReplaySelectionError extends ReplayBacktestError {
  override readonly name = 'ReplaySelectionError';
}

const DAY_MS = 86_400_000;
/** Reward scoring's single-sided divisor when the stream does not give one (the venue's default). */
const REWARD_C = 3;

/** Inclusive tick levels → the book store's snapshot shape (throws on a crossed or locked book). */
function bookView(bids: readonly (readonly [number, number])[], asks: readonly (readonly [number, number])[], minSizeRaw: number): { yes: BookView; no: BookView } {
  const snapshot = { bids: bids.map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw })), asks: asks.map(([priceTicks, sizeRaw]) => ({ priceTicks, sizeRaw })) };
  const yes = BookState.fromSnapshot({ ...snapshot, adjustedMidpoint: adjustedMidpoint(snapshot, minSizeRaw) });
  return { yes, no: yes.complement() };
}

/** One replayed market: its venue, its book, its report's series and counters. */
class MarketRun {
  readonly tokens: { readonly yes: string; readonly no: string };
  readonly info: MarketInfo;
  readonly matcher: QueueMatcher;
  venue!: ReplayVenue;
  /** When the trader joined it (the stream's start for a market there from the start); null: not (yet) joined. */
  joinedAtMs: number | null = null;
  leftAtMs: number | null = null;
  /** The last sample of this market (its time-weighted figures integrate from there). */
  sampledAtMs = 0;
  views: { yes: BookView; no: BookView } | null = null;
  resolved = false;
  lastBookAtMs: number | null = null;
  unusableBooks = 0;
  carriedForwardMs = 0;
  readonly mid = new FairSeries();
  readonly fair = new FairSeries();
  readonly fills: ReplayFillPoint[] = [];
  readonly markoutFills: MarkoutFill[] = [];
  spreadCapturedUsdc = 0;
  rewardsUsdc = 0;
  /** Σ the maker fills' rebate estimates, raw USDC (src/strategy/rebates.ts). */
  rebatesRaw = 0;
  quotedMs = 0;
  modelMs = 0;
  twoSidedMs = 0;
  spreadTickMs = 0;
  inventoryRawMs = 0;
  readonly series = { t: [] as number[], mid: [] as (number | null)[], bid: [] as (number | null)[], ask: [] as (number | null)[], fair: [] as (number | null)[], underlying: [] as (number | null)[], pnl: [] as number[], spread: [] as number[], adverse: [] as number[], inventory: [] as number[] };

  constructor(
    readonly entry: ReplayMarket,
    config: AppConfig,
    queueModel: QueueModel,
    readonly planned: PlannedMarket,
  ) {
    const slug = entry.slug;
    this.tokens = { yes: entry.yesTokenId ?? `${slug}:yes`, no: entry.noTokenId ?? `${slug}:no` };
    const rewards = entry.rewards;
    this.info = {
      slug,
      tokens: this.tokens,
      minSizeRaw: rewards?.minSizeRaw ?? 0,
      maxSpreadTicks: rewards?.maxSpreadTicks ?? 0,
      rewardC: REWARD_C,
      dailyRewardRaw: rewards?.dailyRewardRaw ?? 0,
      rewardable: rewards !== undefined && rewards.dailyRewardRaw > 0,
      expiresAtMs: entry.expiresAtMs ?? null,
      // The venue's tags name the cadence (Hourly, Daily, …) of a recorded market; an imported one has none.
      cadence: entry.terms?.kind === 'venue' ? cadenceOfTags(entry.terms.tags) : null,
      band: effectivePriceBand(config, slug),
    };
    this.matcher = new QueueMatcher(queueModel);
  }

  get slug(): string {
    return this.entry.slug;
  }

  /** Joined and not left: quoted by the trader. */
  get trading(): boolean {
    return this.joinedAtMs !== null && this.leftAtMs === null;
  }

  /** How long it was traded, up to `endMs`. */
  lifeMs(endMs: number): number {
    return this.joinedAtMs === null ? 0 : (this.leftAtMs ?? endMs) - this.joinedAtMs;
  }

  /** The market's name from its data: the title, else the slug. */
  get name(): string {
    return this.entry.title ?? (this.entry.terms?.kind === 'venue' && this.entry.terms.title !== '' ? this.entry.terms.title : this.entry.slug);
  }
}

export async function runReplayBacktest(options: ReplayBacktestOptions): Promise<ReplayReport> {
  const { config, header, events } = options;
  const all = [...header.markets, ...events.flatMap((e) => (e.kind === 'listed' && !header.markets.some((m) => m.slug === e.entry.slug) ? [e.entry] : []))];
  const entries = options.market === undefined ? all : all.filter((m) => m.slug === options.market);
  if (entries.length === 0) throw new ReplayBacktestError(`market ${options.market ?? '(any)'} is not in the stream (it has ${all.map((m) => m.slug).join(', ')})`);
  const slugs = new Set(entries.map((entry) => entry.slug));
  const marketEvents = events.filter((e) => e.kind !== 'underlying' && e.kind !== 'listed' && (!('market' in e) || e.market === null || slugs.has(e.market)));
  if (!marketEvents.some((e) => e.kind === 'book' || e.kind === 'trade')) throw new ReplayBacktestError(`the stream has no books or trades of ${[...slugs].join(', ')}`);
  // Trades of a recording were written when read, after the books of their time: the replay orders by `t`.
  const startMs = Math.min(...marketEvents.map((e) => e.t));
  const endMs = Math.max(...marketEvents.map((e) => e.t));
  const plan = planReplayMarkets({
    initial: header.markets.filter((m) => slugs.has(m.slug)),
    events: events.filter((e) => e.kind === 'listed' && slugs.has(e.entry.slug)),
    startMs,
    endMs,
    risk: config.risk,
    stopBeforeSettlementMs: config.pricing.pricer.stopBeforeSettlementMs,
    priced: (entry) => replayTermsOf(entry, config.pricing.feedIds)?.ok === true,
  });
  if (plan.length === 0) throw new ReplayBacktestError(`no market of ${[...slugs].join(', ')} is listed before its stop or the stream's end`);
  const risk = replayRisk(config.risk, plan);
  const runs = new Map(plan.map((p) => [p.entry.slug, new MarketRun(p.entry, config, options.queueModel, p)] as const));
  const prices = events.flatMap((e) => (e.kind === 'underlying' && e.t <= endMs ? [e] : []));
  const clockStartMs = Math.min(startMs, ...prices.map((e) => e.t));

  const time = new VirtualTime(clockStartMs);
  const accounting = new BotAccounting([...runs.values()].map((run) => ({ slug: run.slug, tokens: run.tokens })));
  const unbooked = new Map<string, ReplayFill>();
  let trader: Trader | null = null;
  const requote = (slugs: readonly string[]): void => {
    for (const slug of slugs) if (runs.get(slug)?.trading === true) trader?.runner.trigger(slug, false);
  };
  const pricing = new ReplayPricing(config.pricing, [...runs.values()].map((run) => run.entry), () => time.now(), requote);
  // What the volatility surface contributed (./surface-report.ts): a realized-only pricer runs beside the bot's.
  const surface = pricing.comparesSurface() ? new SurfaceTracker(startMs) : null;
  let index = 0;
  // The recording carries no rebate rate: the market's where given, else `rewards.rebateRateFallback` (null: no estimate).
  const rebateRate = (run: MarketRun): number | null => run.info.rebateRate ?? options.config.rewards.rebateRateFallback;
  for (const run of runs.values()) {
    run.venue = new ReplayVenue({
      marketSlug: run.slug,
      tokens: run.tokens,
      matcher: run.matcher,
      now: () => time.now(),
      feeRateBps: options.feeRateBps,
      ids: runs.size === 1 ? '' : String(index),
      // The socket's frames arrive after the engine command that caused them, never inside it.
      onOrderEvent: (event: OrderEventInput) => void time.schedule(0, () => trader?.executor.onOrderEvent(event)),
      onFill: (fill) => {
        unbooked.set(fill.tradeEventId, fill);
        const yesPrice = fill.outcome === 'YES' ? fill.priceTicks : TICKS_PER_UNIT - fill.priceTicks;
        const yesSide = fill.outcome === 'YES' ? fill.side : fill.side === 'BUY' ? 'SELL' : 'BUY';
        run.fills.push({ t: (fill.atMs - startMs) / 1000, price: yesPrice / TICKS_PER_UNIT, side: yesSide, size: fill.sizeRaw / 1e6, liquidity: fill.liquidity });
        const markout: MarkoutFill = { atMs: fill.atMs, yesSide: yesSide === 'BUY' ? 'bid' : 'ask', yesPrice: yesPrice / TICKS_PER_UNIT, shares: fill.sizeRaw / 1e6 };
        run.markoutFills.push(markout);
        run.mid.extendTo(fill.atMs); // the last recorded book stands until the next one
        const midNow = run.mid.at(fill.atMs);
        if (midNow !== null) run.spreadCapturedUsdc += markoutUsdc(markout, midNow);
        const modelNow = surface === null ? null : pricing.answer(run.slug);
        surface?.fill(run.slug, markout, modelNow?.kind === 'priced' ? modelNow.view.fair : null, pricing.fairWithoutSurface(run.slug));
        // A maker fill's rebate estimate: the taker's fee on the fee curve × the market's rate (else the config's fallback).
        if (fill.liquidity === 'maker' && rebateRate(run) !== null) run.rebatesRaw += estimateMakerRebate(fill, rebateRate(run) ?? 0, { curve: options.config.rewards.feeCurve }).rebateRaw;
      },
    });
    index += 1;
  }
  const book = (fill: ReplayFill): void => {
    if (!unbooked.delete(fill.tradeEventId)) return;
    accounting.apply({ marketSlug: fill.marketSlug, outcome: fill.outcome, side: fill.side, sizeRaw: fill.sizeRaw, collateralRaw: fill.collateralRaw, feeRaw: fill.feeRaw });
  };
  const venues = new ReplayVenues(new Map([...runs.values()].map((run) => [run.slug, run.venue] as const)));
  const latency = new LatencyVenue(venues, time, { oneWayMs: options.latencyMs, maxConcurrent: config.rateLimits.maxConcurrent, minRequestSpacingMs: config.rateLimits.minTimeMs });

  // The bot's cross-market batcher, as the daemon wires it (src/app/compose.ts), with the backtest's lingering (./harness.ts).
  const venue = new CrossMarketVenue(latency, {
    maxOperations: config.orders.cancelReplace.batchSize,
    lingerMs: 0,
    holdOffMs: crossMarketTiming(config.rateLimits.minTimeMs).holdOffMs,
    othersWaiting: () => latency.queued() > 0,
    scheduler: time,
  });

  const listeners = new Set<(slug: string) => void>();
  const adverse = new AdverseSelectionProvider({
    read: (sinceMs, nowMs) => [...runs.values()].flatMap((run) => run.markoutFills.filter((f) => f.atMs >= sinceMs).map((f) => adverseOfSeries(run.slug, f, (t) => run.mid.at(t), nowMs))),
  });
  // ── the config's selection over the markets listed so far: joined and left by the daemon's roster ──
  let rollError: unknown = null;
  const track = (work: Promise<unknown>): void => void work.catch((error: unknown) => (rollError ??= error));
  const listedAt = new Map<string, number>();
  for (const run of runs.values()) listedAt.set(run.slug, run.planned.joinAtMs ?? clockStartMs);
  const listedMarket = (run: MarketRun): Market => ({ ...marketOfReplay(run.entry), resolved: run.resolved });
  const selection = new SelectionLoop({
    rules: options.market === undefined ? config.markets : onlyMarket(config.markets, options.market),
    feedIds: config.pricing.feedIds,
    scheduler: time,
    listed: () => [...runs.values()].filter((run) => (listedAt.get(run.slug) ?? Infinity) <= time.now()).map(listedMarket),
    details: (slug) => {
      const run = runs.get(slug);
      if (run === undefined) throw new ReplayBacktestError(`market ${slug} is not in the stream`);
      return listedMarket(run);
    },
    fairOf: (market) => {
      const answer = pricing.answer(market.slug);
      return answer.kind === 'priced' ? answer.view.fair : null;
    },
    leaveAtMs: (market) => runs.get(market.slug)?.planned.leaveAtMs ?? null,
    steps: {
      register: (market) => {
        const run = runs.get(market.slug);
        if (run === undefined) return;
        run.joinedAtMs ??= time.now();
        run.leftAtMs = null;
        run.sampledAtMs = time.now();
      },
      adopt: (market) => {
        const run = runs.get(market.slug);
        if (run === undefined || trader === null) return Promise.reject(new ReplayBacktestError(`market ${market.slug} joined before the trader was built`));
        return trader.addMarket(run.info);
      },
      drain: async (slug) => {
        const run = runs.get(slug);
        if (run === undefined || trader === null || !run.trading) return { clean: true };
        sampleMarket(run, time.now());
        run.leftAtMs = time.now();
        return trader.removeMarket(slug, { budgetMs: REPLAY_LEAVE_BUDGET_MS });
      },
      unregister: () => undefined,
    },
    pollIntervalMs: config.markets.discovery.pollIntervalMs,
  });
  const initial = selection.initial().flatMap((market) => {
    const run = runs.get(market.slug);
    if (run === undefined) return [];
    run.joinedAtMs = startMs;
    return [run];
  });
  trader = new Trader({
    venue,
    scheduler: time,
    strategy: options.strategy,
    markets: initial.map((run) => run.info),
    isResolved: (slug) => runs.get(slug)?.resolved ?? false,
    ledger: accounting,
    books: {
      books: (slug) => runs.get(slug)?.views ?? null,
      onChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    risk,
    orders: traderOrdersOf(config),
    requoteIntervalMs: REQUOTE_INTERVAL_MS,
    quoteOnBookChange: true,
    midHistory: { horizonMs: 3_600_000, max: 2000 },
    // Only late events of finished orders read them; a replay's events are never that late (keeps lookups short).
    retainTerminalMs: 60_000,
    model: (slug) => pricing.answer(slug),
    onTouch: (slug, touch) => pricing.observeBook(slug, touch),
    // Adverse selection from the replay's own markouts (its fills against the recorded mid), per market and cadence.
    adverseSelection: (info, now) => adverse.view(info, now),
    observer: {
      onFill: (fill) => {
        const booked = unbooked.get(parseFillPartId(fill.tradeEventId).tradeEventId);
        if (booked !== undefined) book(booked);
      },
    },
  });

  // ── the recorded events, at their receive times ──
  const quiet = config.feed.quietThresholdMs;
  for (const event of [...prices, ...marketEvents]) {
    time.schedule(Math.max(0, event.t - clockStartMs), () => {
      switch (event.kind) {
        case 'book': {
          const run = runs.get(event.market);
          if (run === undefined) break;
          if (run.lastBookAtMs !== null) run.carriedForwardMs += Math.max(0, event.t - run.lastBookAtMs - quiet);
          run.lastBookAtMs = event.t;
          run.matcher.onBook({ bids: event.bids, asks: event.asks });
          try {
            run.views = bookView(event.bids, event.asks, run.info.minSizeRaw);
            const mid = run.views.yes.mid;
            if (mid !== null) run.mid.record(event.t, mid);
          } catch {
            run.views = null; // a crossed or locked recorded book: nothing is quoted on it (counted in the report)
            run.unusableBooks += 1;
          }
          for (const listener of [...listeners]) listener(run.slug);
          break;
        }
        case 'trade':
          runs.get(event.market)?.venue.onTrade({ priceTicks: event.priceTicks, sizeRaw: event.sizeRaw, takerSide: event.takerSide });
          break;
        case 'mode':
          for (const run of runs.values()) run.venue.setMode(event.mode);
          break;
        case 'resolved': {
          const run = runs.get(event.market);
          if (run === undefined) break;
          run.resolved = true;
          if (run.trading) trader?.runner.trigger(run.slug, false);
          selection.resolved(run.slug);
          if (run.planned.joinAtMs !== null || run.entry.expiresAtMs !== undefined) leave(run, 'resolved'); // a market that rolls
          break;
        }
        case 'underlying':
          pricing.onUnderlying(event);
          break;
        case 'gap':
        case 'listed':
          break;
      }
    });
  }

  const leave = (run: MarketRun, reason: string): void => {
    if (run.trading) track(selection.leave(run.slug, reason));
  };
  for (const run of runs.values()) {
    const { joinAtMs, leaveAtMs } = run.planned;
    if (joinAtMs !== null) time.schedule(joinAtMs - clockStartMs, () => selection.listedNow(run.slug));
    if (leaveAtMs !== null && leaveAtMs < endMs) time.schedule(Math.max(0, leaveAtMs - clockStartMs), () => leave(run, 'stop before settlement'));
  }

  // ── sampling ──
  const every = options.sampleEveryMs ?? 1000;
  const markMicros = (run: MarketRun): number | null => {
    const mid = run.views?.yes.mid ?? null;
    return mid === null ? null : Math.round(mid * 1e6);
  };
  const sample = (): void => {
    // A market left is still sampled: its series shows its orders gone.
    for (const run of runs.values()) if (run.joinedAtMs !== null) sampleMarket(run, time.now());
  };
  function sampleMarket(run: MarketRun, now: number): void {
    const dt = now - run.sampledAtMs;
    run.sampledAtMs = now;
    const slug = run.slug;
    const own = run.venue.resting().map((o) => ({ token: o.tokenId === run.tokens.no ? ('NO' as const) : ('YES' as const), side: o.side, priceTicks: o.priceTicks, sizeRaw: o.remainingRaw }));
    let bid: number | null = null;
    let ask: number | null = null;
    for (const order of own) {
      const yes = toYesTerms(order.token, order.side, order.priceTicks);
      if (yes.side === 'bid') bid = bid === null ? yes.priceTicks : Math.max(bid, yes.priceTicks);
      else ask = ask === null ? yes.priceTicks : Math.min(ask, yes.priceTicks);
    }
    const answer = pricing.answer(slug);
    const fair = answer.kind === 'priced' ? answer.view.fair : null;
    if (fair !== null) run.fair.record(now, fair);
    surface?.sample(slug, now, pricing.fairWithoutSurface(slug));
    if (bid !== null || ask !== null) {
      run.quotedMs += dt;
      if (fair !== null) run.modelMs += dt;
    }
    if (bid !== null && ask !== null) {
      run.twoSidedMs += dt;
      run.spreadTickMs += (ask - bid) * dt;
    }
    const net = accounting.holding(slug, 'YES') - accounting.holding(slug, 'NO');
    run.inventoryRawMs += inventoryStepRawMs(net, dt, run.trading);
    if (own.length > 0 && run.info.rewardable && run.views !== null) {
      const view = buildView({ info: run.info, books: run.views, position: { ...accounting.marketPosition(slug), freeCollateralRaw: 0 }, recentFills: [], midHistory: [], ownOrders: own, now });
      run.rewardsUsdc += (expectedRewardPerDay(view, own, own) * dt) / DAY_MS;
    }
    const pnl = accounting.pnl(slug, markMicros(run));
    const trading = (pnl.realizedRaw + (pnl.unrealizedRaw ?? 0)) / 1e6;
    const ticker = pricing.tickerOf(slug);
    const s = run.series;
    s.t.push((now - startMs) / 1000);
    s.mid.push(run.views?.yes.mid ?? null);
    s.bid.push(bid === null ? null : bid / TICKS_PER_UNIT);
    s.ask.push(ask === null ? null : ask / TICKS_PER_UNIT);
    s.fair.push(fair);
    s.underlying.push(ticker === null ? null : pricing.underlying(ticker));
    s.pnl.push(trading - pnl.feesRaw / 1e6 + run.rewardsUsdc + run.rebatesRaw / 1e6);
    s.spread.push(run.spreadCapturedUsdc);
    s.adverse.push(trading - run.spreadCapturedUsdc);
    s.inventory.push(net / 1e6);
  }
  for (const run of runs.values()) run.sampledAtMs = startMs;
  for (let at = startMs; at <= endMs; at += every) time.schedule(at - clockStartMs, sample);

  // ── run ──
  selection.start(initial.map(listedMarket));
  const adopting = trader.adopt();
  await time.runUntil(startMs);
  await adopting;
  latency.begin();
  trader.quote();
  await time.runUntil(endMs);
  sample();
  void selection.stop(); // no join or leave starts from now on (synchronously); a change in flight settles below
  trader.stop();
  await time.runUntil(endMs);
  for (const fill of [...unbooked.values()]) book(fill); // fills the executor never reported (none expected)
  if (rollError !== null) throw rollError instanceof Error ? rollError : new ReplayBacktestError(`a join or leave failed: ${errorText(rollError)}`);
  const rules = describeSelection(options.market === undefined ? config.markets : onlyMarket(config.markets, options.market));
  const chosen = selectionOf(rules, selection.outcome());
  if (chosen.joined === 0) throw new ReplaySelectionError(`the selection (${rules}${options.market === undefined ? '' : ', from --market'}) joined none of the ${chosen.listed} markets of the stream: ${chosen.notJoined}`);

  const markets: MarketReplay[] = [...runs.values()].filter((run) => run.joinedAtMs !== null).map((run) => {
    const duration = Math.max(1, run.lifeMs(endMs));
    run.mid.extendTo(endMs);
    run.fair.extendTo(endMs);
    const pnl = accounting.pnl(run.slug, markMicros(run));
    const yes = accounting.tokenPosition(run.slug, 'YES');
    const no = accounting.tokenPosition(run.slug, 'NO');
    const priced = pricing.priced(run.slug);
    const trading = pnl.realizedRaw + (pnl.unrealizedRaw ?? 0);
    const figures: ReplayFigures = {
      market: run.name,
      slugs: [run.slug],
      queueModel: options.queueModel,
      latencyMs: options.latencyMs,
      durationMs: run.lifeMs(endMs),
      fills: yes.fillCount + no.fillCount,
      makerFills: run.fills.length - run.venue.takerFills,
      volumeRaw: run.venue.filledRaw,
      feesRaw: yes.feesRaw + no.feesRaw,
      realizedPnlRaw: pnl.realizedRaw,
      unrealizedPnlRaw: pnl.unrealizedRaw ?? 0,
      rewardsUsdc: run.rewardsUsdc,
      rebatesRaw: run.rebatesRaw,
      rebateRate: rebateRate(run),
      totalPnlUsdc: (trading - (yes.feesRaw + no.feesRaw) + run.rebatesRaw) / 1e6 + run.rewardsUsdc,
      spreadCapturedUsdc: run.spreadCapturedUsdc,
      adverseSelectionUsdc: trading / 1e6 - run.spreadCapturedUsdc,
      markouts: markoutFigures(summarizeMarkouts(run.markoutFills, (t) => run.mid.at(t))),
      fairMarkouts: priced ? markoutFigures(summarizeMarkouts(run.markoutFills, (t) => run.fair.at(t))) : null,
      maxInventoryRaw: accounting.extremes(run.slug).maxAbsNetRaw,
      timeWeightedInventoryRaw: timeWeightedInventoryRaw(run.inventoryRawMs, duration),
      quotedSpreadTicks: run.twoSidedMs === 0 ? null : run.spreadTickMs / run.twoSidedMs,
      fillRatio: run.venue.placedRaw === 0 ? 0 : run.venue.filledRaw / run.venue.placedRaw,
      requests: run.venue.requests,
      timeQuotedMs: run.quotedMs,
      marketTimeMs: run.lifeMs(endMs),
      timeCarriedForwardMs: run.carriedForwardMs,
      unusableBooks: run.unusableBooks,
      underlyingPrices: priced ? prices.filter((p) => p.ticker === pricing.tickerOf(run.slug)).length : 0,
      refusedPrices: 0,
      timeFromModelMs: run.modelMs,
      queue: run.matcher.queueStats(),
      truncated: options.truncated ?? [],
    };
    return { slug: run.slug, ticker: pricing.tickerOf(run.slug), figures, series: run.series, fills: run.fills, joinedAtMs: run.joinedAtMs ?? startMs, leftAtMs: run.leftAtMs };
  });
  const placedRaw = [...runs.values()].reduce((sum, run) => sum + run.venue.placedRaw, 0);
  const surfaceReport = surface?.report(markets.map((m) => m.slug), endMs, (slug) => runs.get(slug)?.fair ?? new FairSeries(), pricing.impliedWeights) ?? null;
  if (markets.length === 0) throw new ReplayBacktestError('no market was replayed');
  return { figures: totalFigures(markets, { requests: latency.requests, placedRaw, underlyingPrices: prices.length, refusedPrices: pricing.refused, runs: [...runs.values()] }), markets, surface: surfaceReport, selection: chosen };
}

function selectionOf(rules: string, outcome: SelectionOutcome): ReplaySelection {
  return { rules, joined: outcome.joined.length, peakJoined: outcome.peakJoined, listed: outcome.candidates, notJoined: reasonSummary(outcome.neverJoined) };
}

/** `--market`: that one market, named, whatever the config's section selects. */
function onlyMarket(rules: MarketsConfig, slug: string): MarketsConfig {
  return { ...rules, slugs: [slug], groups: [], select: null, exclude: [] };
}
