/**
 * The virtual-time backtest: a strategy quoting on the REAL matching engine (src/sim/engine: price-time
 * queues, complementary matching, fees, locks) against synthetic flow, with the bot's own pure decision
 * path in between — view (src/strategy/view.ts) → strategy → validation (src/strategy/validate.ts) →
 * funding + risk limits (./gate.ts) → reconcile (src/orders/reconcile.ts) → requests to the engine.
 *
 * Time: a ManualClock moves in steps of `stepMs`. At each step the synthetic traders act, then every market
 * whose book changed (or that filled, or whose requote interval or review time came) is quoted, exactly as
 * the live runner triggers it: at most one plan per market in flight, a trigger during a plan runs one more
 * cycle after it. A plan runs like the executor's: cancels first (one request per batch), then a re-plan on
 * the state after them, then placements one at a time; every request waits for the account's rate limiter
 * and acts `oneWayMs` after it starts (./request-pipe.ts), so quotes can be stale, get picked off, or be
 * refused as post-only crossing — as on the venue. Fills count only when the engine matched them, behind
 * whatever queue was ahead.
 *
 * Invariants: deterministic for the options (the seed drives every random choice, the clock is virtual,
 * iteration orders are fixed); nothing here reads wall time; the bot's positions equal the engine's token
 * balances at the end (checked).
 */
import { BookState } from '../book/book-state.js';
import { limitOrderAmounts } from '../exchange/eip712.js';
import { ClientOrderIdFactory, tryParseClientOrderId } from '../orders/client-order-id.js';
import { isResting } from '../orders/order-state.js';
import { reconcile, type Plan, type PlannedCancel, type PlannedPlace } from '../orders/reconcile.js';
import type { FillView, MarketInfo, QuoteIntent } from '../strategy/contract.js';
import { expectedRewardPerDay } from '../strategy/rewards.js';
import { validateIntents } from '../strategy/validate.js';
import { buildView, recordMid, type MidPointRecord } from '../strategy/view.js';
import { toYesTerms } from '../strategy/yes-terms.js';
import { adjustedMidpoint } from '../sim/server/wire-format.js';
import {
  createEngine,
  EngineConfigError,
  generateMarkets,
  ManualClock,
  type AccountFill,
  type BookSnapshot,
  type Level,
  type MarketSpec,
  type SimEngine,
} from '../sim/engine/index.js';
import { BotAccounting } from './accounting.js';
import { BotOrders } from './bot-orders.js';
import { BacktestConfigError, BacktestInvariantError } from './errors.js';
import { gateIntents, type GateMarketState } from '../risk/gate.js';
import { resolveOptions, type BacktestOptions, type ResolvedOptions } from './options.js';
import { RequestPipe } from './request-pipe.js';
import type { BacktestResult, MarketResult } from './result.js';

const DAY_MS = 86_400_000;
/** The bot's account on the engine. */
const BOT_PROFILE_ID = 1;
const BOT_ADDRESS = '0x00000000000000000000000000000000000B0071';
/** The engine does not verify signatures (the server does); placements carry this placeholder. */
const UNSIGNED = '0x';
/** Fills the engine keeps per account: more than any step can produce, so none is missed between reads. */
const FILL_RETENTION = 500;

/** Runs one backtest to the end. Throws `BacktestConfigError` (naming the option) before anything runs. */
export function runBacktest<P>(options: BacktestOptions<P>): BacktestResult {
  return new BacktestRun(resolveOptions(options)).run();
}

interface MarketRun {
  readonly info: MarketInfo;
  readonly mids: MidPointRecord[];
  readonly recentFills: FillView[];
  readonly lastFillAtBySlot: Map<string, number>;
  /** The book as last seen (to notice changes, as the feed would push them). */
  lastBook: BookSnapshot | null;
  bookChanged: boolean;
  filled: boolean;
  lastQuoteAtMs: number | null;
  reviewAtMs: number | null;
  busy: boolean;
  again: boolean;
  cycles: number;
  /** Latest `expectedRewardPerDay` diagnostic, and its time integral (USDC·ms/day). */
  diagReward: number;
  diagRewardMs: number;
  scoredRewardUsdc: number;
  twoSidedMs: number;
  quotingMs: number;
  sampledMs: number;
}

interface RunStats {
  placements: number;
  cancelRequests: number;
  cancels: number;
  rejectedPlacements: number;
  readonly rejectedByCode: Record<string, number>;
  quoteCycles: number;
  strategyErrors: number;
  invalidIntents: number;
  readonly fundingDrops: Record<string, number>;
  readonly riskDrops: Record<string, number>;
  readonly riskTrims: Record<string, number>;
  rejectedBooks: number;
}

class BacktestRun {
  private readonly clock: ManualClock;
  private readonly engine: SimEngine;
  private readonly runs: MarketRun[];
  private readonly bySlug = new Map<string, MarketRun>();
  private readonly orders: BotOrders;
  private readonly accounting: BotAccounting;
  private readonly pipe: RequestPipe;
  private readonly ids: ClientOrderIdFactory;
  private salt = 0;
  private lastFillKey: string | null = null;
  private steps = 0;
  private readonly stats: RunStats = {
    placements: 0,
    cancelRequests: 0,
    cancels: 0,
    rejectedPlacements: 0,
    rejectedByCode: {},
    quoteCycles: 0,
    strategyErrors: 0,
    invalidIntents: 0,
    fundingDrops: {},
    riskDrops: {},
    riskTrims: {},
    rejectedBooks: 0,
  };

  constructor(private readonly o: ResolvedOptions) {
    this.clock = new ManualClock(o.startMs);
    const specs = 'count' in o.markets ? generateMarkets(o.markets.count, o.seed, o.startMs) : [...o.markets];
    const band = {
      minTicks: Math.max(o.venuePriceBand.minTicks, o.risk.priceBand.minTicks),
      maxTicks: Math.min(o.venuePriceBand.maxTicks, o.risk.priceBand.maxTicks),
    };
    if (band.minTicks >= band.maxTicks) throw new BacktestConfigError('risk.priceBand', o.risk.priceBand, 'does not overlap venuePriceBand');
    try {
      this.engine = createEngine({
        seed: o.seed,
        clock: this.clock,
        settlementDelayMs: o.settlementDelayMs,
        markets: specs,
        accounts: [{ profileId: BOT_PROFILE_ID, address: BOT_ADDRESS, usdcRaw: o.account.usdcRaw, feeRateBps: o.account.feeRateBps }],
        synthetic: { ...o.synthetic, stepMs: o.stepMs, autoStep: false },
        priceBand: o.venuePriceBand,
        retention: { fillsPerAccount: FILL_RETENTION },
      });
    } catch (error) {
      if (error instanceof EngineConfigError) throw new BacktestConfigError(error.field, error.value, error.reason);
      throw error;
    }
    this.runs = specs.map((spec) => newRun(spec, band));
    for (const run of this.runs) this.bySlug.set(run.info.slug, run);
    const slugs = this.runs.map((r) => r.info.slug);
    this.orders = new BotOrders(this.engine, BOT_PROFILE_ID, slugs);
    this.accounting = new BotAccounting(slugs);
    this.pipe = new RequestPipe(o.latency);
    this.ids = new ClientOrderIdFactory(o.orders.botTag, () => this.clock.now());
    // No engine listener on purpose: with one, the engine formats a socket frame for every synthetic order
    // event. Book changes and fills are detected by reading the engine after each command instead.
  }

  run(): BacktestResult {
    const end = this.o.startMs + this.o.durationMs;
    for (let t = this.o.startMs; t < end; t += this.o.stepMs) {
      this.clock.advanceTo(t);
      this.engine.syntheticStep();
      this.afterEngineActivity(null);
      for (const run of this.runs) this.maybeQuote(run);
      this.sample(Math.min(this.o.stepMs, end - t));
      this.steps += 1;
    }
    this.clock.advanceTo(end);
    this.afterEngineActivity(null);
    return this.finish();
  }

  // ───────────────────────── quoting ─────────────────────────

  private maybeQuote(run: MarketRun): void {
    const now = this.clock.now();
    const due =
      run.lastQuoteAtMs === null ||
      now - run.lastQuoteAtMs >= this.o.requoteIntervalMs ||
      (this.o.quoteOnBookChange && run.bookChanged) ||
      run.filled ||
      (run.reviewAtMs !== null && now >= run.reviewAtMs);
    if (!due) return;
    if (run.busy) {
      run.again = true;
      return;
    }
    this.cycle(run);
  }

  /** One quote cycle, as the runner's: view → strategy → validate → gate → plan. */
  private cycle(run: MarketRun): void {
    const now = this.clock.now();
    const slug = run.info.slug;
    run.lastQuoteAtMs = now;
    run.filled = false;
    run.reviewAtMs = null;
    run.cycles += 1;
    this.stats.quoteCycles += 1;
    const snapshot = this.observeBook(run);
    run.bookChanged = false;
    let yes: BookState;
    try {
      yes = BookState.fromSnapshot({ bids: snapshot.bids, asks: snapshot.asks, adjustedMidpoint: adjustedMidpoint(snapshot, run.info.minSizeRaw) });
    } catch {
      this.stats.rejectedBooks += 1;
      return;
    }
    if (run.mids.length === 0) recordMid(run.mids, now, yes.mid, this.o.midHistory);
    const view = buildView({
      info: run.info,
      books: { yes, no: yes.complement() },
      position: this.accounting.positionView(slug, this.freeCollateralRaw()),
      recentFills: run.recentFills.slice(),
      midHistory: run.mids,
      ownOrders: this.orders.ownOrders(slug),
      now,
    });
    const strategy = this.o.strategy;
    let proposed: unknown;
    try {
      proposed = strategy.quote(view);
    } catch {
      this.stats.strategyErrors += 1;
      return;
    }
    const { valid, rejected } = validateIntents(proposed, run.info);
    this.stats.invalidIntents += rejected.length;
    if (strategy.diagnostics) {
      try {
        const reward = strategy.diagnostics(view)['expectedRewardPerDay'];
        run.diagReward = typeof reward === 'number' && Number.isFinite(reward) ? reward : 0;
      } catch {
        this.stats.strategyErrors += 1;
      }
    }
    const gated = this.gate(run, valid);
    const intents = gated.halt === null ? gated.intents : [];
    this.o.observer.onQuoteCycle?.(slug, now, intents.length, gated.halt);
    this.execute(run, intents, now);
  }

  private gate(run: MarketRun, intents: readonly QuoteIntent[]): { intents: readonly QuoteIntent[]; halt: string | null } {
    const holdings = new Map<string, GateMarketState>();
    for (const r of this.runs) {
      const slug = r.info.slug;
      holdings.set(slug, { yesRaw: this.accounting.holding(slug, 'YES'), noRaw: this.accounting.holding(slug, 'NO'), costRaw: this.accounting.positionCostRaw(slug) });
    }
    const outcome = gateIntents({
      market: run.info,
      resolved: this.engine.market(run.info.slug)?.status === 'RESOLVED',
      intents,
      openOrders: this.orders.all(),
      holdings,
      balances: this.balances(),
      limits: this.o.risk,
      nowMs: this.clock.now(),
      killSwitchTripped: false,
      stale: false,
    });
    for (const adjustment of outcome.funding) if (adjustment.action === 'dropped') bump(this.stats.fundingDrops, adjustment.reason);
    for (const dropped of outcome.risk.dropped) bump(this.stats.riskDrops, dropped.reason);
    for (const trimmed of outcome.risk.trimmed) bump(this.stats.riskTrims, trimmed.reason);
    return outcome;
  }

  /** Collateral and tokens the bot may use, as the bot reckons them: the notional budget less what it holds (capped by the account). */
  private balances(): { collateralRaw: number; tokensRaw: Map<string, number> } {
    let positionCost = 0;
    const tokens = new Map<string, number>();
    for (const run of this.runs) {
      const slug = run.info.slug;
      positionCost += this.accounting.positionCostRaw(slug);
      tokens.set(run.info.tokens.yes, Math.max(0, this.accounting.holding(slug, 'YES')));
      tokens.set(run.info.tokens.no, Math.max(0, this.accounting.holding(slug, 'NO')));
    }
    const usdc = this.engine.balances(BOT_PROFILE_ID)?.usdc.totalRaw ?? 0;
    return { collateralRaw: Math.max(0, Math.min(usdc, this.o.risk.maxNotionalRaw - positionCost)), tokensRaw: tokens };
  }

  /** The position view's free collateral: the budget less what open BUYs lock (pending ones at full size). */
  private freeCollateralRaw(): number {
    let locked = 0;
    for (const order of this.orders.all()) {
      if (order.side !== 'BUY') continue;
      const size = order.state === 'pending-new' ? order.sizeRaw : order.remainingRaw;
      locked += limitOrderAmounts('BUY', order.priceTicks, size).makerAmount;
    }
    return Math.max(0, this.balances().collateralRaw - locked);
  }

  // ───────────────────────── plans (the executor's order of work) ─────────────────────────

  private plan(run: MarketRun, intents: readonly QuoteIntent[], issuedAtMs: number): Plan {
    const o = this.o.orders;
    return reconcile(intents, this.orders.open(run.info.slug), {
      nowMs: this.clock.now(),
      priceToleranceTicks: o.priceToleranceTicks,
      sizeTolerance: o.sizeTolerance,
      maxOrderAgeMs: o.maxOrderAgeMs,
      coolOffMs: o.coolOffMs,
      lastFillAtBySlot: run.lastFillAtBySlot,
      intentsIssuedAtMs: issuedAtMs,
    });
  }

  private execute(run: MarketRun, intents: readonly QuoteIntent[], issuedAtMs: number): void {
    run.busy = true;
    const attempted = new Set<string>();
    const first = this.plan(run, intents, issuedAtMs);
    this.cancelInBatches(run, first.cancels, attempted, () => {
      const second = this.plan(run, intents, issuedAtMs);
      const fresh = second.cancels.filter((c) => !attempted.has(c.clientOrderId));
      this.cancelInBatches(run, fresh, attempted, () => {
        this.placeInTurn(run, second.places, 0, () => this.planDone(run, intents, issuedAtMs, second.nextReviewAtMs, fresh.length > 0));
      });
    });
  }

  private planDone(run: MarketRun, intents: readonly QuoteIntent[], issuedAtMs: number, reviewAtMs: number | null, kick: boolean): void {
    run.busy = false;
    run.reviewAtMs = reviewAtMs;
    if (run.again) {
      // A trigger arrived during the plan: one more cycle now, with a fresh quote (supersedes a kick).
      run.again = false;
      this.cycle(run);
    } else if (kick) {
      // Slots emptied by late cancels: re-run the same intents (the executor's follow-up run).
      this.execute(run, intents, issuedAtMs);
    }
  }

  private cancelInBatches(run: MarketRun, cancels: readonly PlannedCancel[], attempted: Set<string>, then: () => void): void {
    const size = this.o.orders.cancelBatchSize;
    const batches: PlannedCancel[][] = [];
    for (let i = 0; i < cancels.length; i += size) batches.push(cancels.slice(i, i + size));
    const next = (index: number): void => {
      const batch = batches[index];
      if (batch === undefined) {
        then();
        return;
      }
      const open = new Map(this.orders.open(run.info.slug).map((o) => [o.clientOrderId, o]));
      const ids: string[] = [];
      for (const cancel of batch) {
        const order = open.get(cancel.clientOrderId);
        if (order === undefined || order.orderId === null || !isResting(order.state)) continue;
        attempted.add(cancel.clientOrderId);
        ids.push(order.orderId);
      }
      if (ids.length === 0) {
        next(index + 1);
        return;
      }
      this.orders.cancelSent(ids);
      const timing = this.pipe.send(this.clock.now());
      this.stats.cancelRequests += 1;
      this.stats.cancels += ids.length;
      this.at(timing.landMs, () => {
        for (const id of ids) this.engine.cancel(BOT_PROFILE_ID, id);
        this.afterEngineActivity(run.info.slug);
        this.at(timing.answerMs, () => {
          this.orders.cancelAnswered(ids);
          next(index + 1);
        });
      });
    };
    next(0);
  }

  private placeInTurn(run: MarketRun, places: readonly PlannedPlace[], index: number, then: () => void): void {
    const place = places[index];
    if (place === undefined) {
      then();
      return;
    }
    const slug = run.info.slug;
    // Re-check the slot, as the executor does: an event may have changed it while earlier requests were in flight.
    if (this.orders.open(slug).some((o) => o.slot === place.slot)) {
      this.placeInTurn(run, places, index + 1, then);
      return;
    }
    const intent = place.intent;
    const postOnly = intent.postOnly ?? this.o.orders.postOnly;
    const tokenId = intent.token === 'YES' ? run.info.tokens.yes : run.info.tokens.no;
    const clientOrderId = this.ids.next(slug, place.slot);
    const now = this.clock.now();
    this.orders.sent(slug, { clientOrderId, slot: place.slot, token: intent.token, tokenId, side: intent.side, priceTicks: intent.priceTicks, sizeRaw: intent.sizeRaw, sentAtMs: now });
    const timing = this.pipe.send(now);
    this.stats.placements += 1;
    this.at(timing.landMs, () => {
      const amounts = limitOrderAmounts(intent.side, intent.priceTicks, intent.sizeRaw);
      this.salt += 1;
      const result = this.engine.place({
        profileId: BOT_PROFILE_ID,
        marketSlug: slug,
        orderType: 'GTC',
        tokenId,
        side: intent.side,
        makerAmount: amounts.makerAmount,
        takerAmount: amounts.takerAmount,
        priceTicks: intent.priceTicks,
        feeRateBps: this.o.account.feeRateBps,
        salt: this.salt,
        postOnly,
        clientOrderId,
        stpPolicy: 'cancel_maker',
        signature: UNSIGNED,
        signedOrderEcho: {},
      });
      this.orders.landed(slug, clientOrderId, place.slot, result.ok ? result.order : null);
      if (!result.ok) {
        this.stats.rejectedPlacements += 1;
        bump(this.stats.rejectedByCode, result.code);
      }
      this.afterEngineActivity(slug);
      this.at(timing.answerMs, () => this.placeInTurn(run, places, index + 1, then));
    });
  }

  /** Runs `fn` at virtual time `atMs`: now if it is due, else from the clock. */
  private at(atMs: number, fn: () => void): void {
    const now = this.clock.now();
    if (atMs <= now) fn();
    else this.clock.schedule(atMs - now, fn);
  }

  // ───────────────────────── observing the engine ─────────────────────────

  /**
   * After anything that may have changed the engine: new fills into the books, then the book of `slug` (or of
   * every market) re-read to notice a change, as the feed would push it, and record the mid.
   */
  private afterEngineActivity(slug: string | null): void {
    if (this.orders.takeFillSignal()) this.drainFills();
    if (slug === null) for (const run of this.runs) this.observeBook(run);
    else {
      const run = this.bySlug.get(slug);
      if (run) this.observeBook(run);
    }
  }

  /** The market's current book; notes a change and records the mid (the runner records one per book change). */
  private observeBook(run: MarketRun): BookSnapshot {
    const book = this.engine.book(run.info.slug);
    if (book === undefined) throw new BacktestInvariantError(`engine lost market ${run.info.slug}`);
    const last = run.lastBook;
    if (last !== null && sameLevels(last.bids, book.bids) && sameLevels(last.asks, book.asks)) return last;
    run.lastBook = book;
    run.bookChanged = true;
    const bid = book.bids[0];
    const ask = book.asks[0];
    recordMid(run.mids, this.clock.now(), bid && ask ? (bid.priceTicks + ask.priceTicks) / 2000 : null, this.o.midHistory);
    return book;
  }

  /** New fills of the bot, oldest first, into the books, the strategy's memory and the reconcile inputs. */
  private drainFills(): void {
    const newestFirst = this.engine.accountTrades(BOT_PROFILE_ID);
    const fresh: AccountFill[] = [];
    let reachedSeen = this.lastFillKey === null;
    for (const fill of newestFirst) {
      if (fillKey(fill) === this.lastFillKey) {
        reachedSeen = true;
        break;
      }
      fresh.push(fill);
    }
    if (!reachedSeen) throw new BacktestInvariantError(`more than ${FILL_RETENTION} fills between two reads: fills were lost`);
    const first = newestFirst[0];
    if (first !== undefined) this.lastFillKey = fillKey(first);
    const windowMs = this.o.recentFills.windowMs;
    for (let i = fresh.length - 1; i >= 0; i -= 1) {
      const fill = fresh[i]!;
      const run = this.bySlug.get(fill.marketSlug);
      if (run === undefined) throw new BacktestInvariantError(`fill in market ${fill.marketSlug}, which the backtest does not trade`);
      this.accounting.apply(fill);
      run.recentFills.push({ token: fill.outcome, side: fill.side, priceTicks: fill.priceTicks, sizeRaw: fill.sizeRaw, atMs: fill.matchedAtMs });
      const horizon = this.clock.now() - windowMs;
      while (run.recentFills.length > 0 && (run.recentFills[0]!.atMs < horizon || run.recentFills.length > this.o.recentFills.max)) run.recentFills.shift();
      const slot = fill.clientOrderId === null ? null : (tryParseClientOrderId(fill.clientOrderId)?.slot ?? null);
      if (slot !== null) run.lastFillAtBySlot.set(slot, Math.max(run.lastFillAtBySlot.get(slot) ?? fill.matchedAtMs, fill.matchedAtMs));
      run.filled = true;
      this.o.observer.onFill?.(fill, { yesRaw: this.accounting.holding(fill.marketSlug, 'YES'), noRaw: this.accounting.holding(fill.marketSlug, 'NO') });
    }
  }

  /** Time-weighted figures over the next `dtMs`: two-sided quoting and the reward the resting orders score. */
  private sample(dtMs: number): void {
    for (const run of this.runs) {
      const slug = run.info.slug;
      const resting = this.orders.restingNow(slug).filter((o) => o.remainingRaw > 0);
      let bid = false;
      let ask = false;
      for (const order of resting) {
        if (toYesTerms(order.token, order.side, order.priceTicks).side === 'bid') bid = true;
        else ask = true;
      }
      run.sampledMs += dtMs;
      if (bid && ask) run.twoSidedMs += dtMs;
      if (bid || ask) run.quotingMs += dtMs;
      run.diagRewardMs += run.diagReward * dtMs;
      if (resting.length > 0 && run.info.rewardable && run.info.dailyRewardRaw > 0) {
        const snapshot = run.lastBook ?? this.observeBook(run);
        const yes = BookState.fromSnapshot({ bids: snapshot.bids, asks: snapshot.asks, adjustedMidpoint: adjustedMidpoint(snapshot, run.info.minSizeRaw) });
        const own = resting.map((o) => ({ token: o.token, side: o.side, priceTicks: o.priceTicks, sizeRaw: o.remainingRaw }));
        const view = buildView({
          info: run.info,
          books: { yes, no: yes.complement() },
          position: this.accounting.positionView(slug, 0),
          recentFills: [],
          midHistory: [],
          ownOrders: own,
          now: this.clock.now(),
        });
        run.scoredRewardUsdc += (expectedRewardPerDay(view, own, own) * dtMs) / DAY_MS;
      }
    }
  }

  // ───────────────────────── the result ─────────────────────────

  private finish(): BacktestResult {
    const markets: MarketResult[] = [];
    for (const run of this.runs) {
      const slug = run.info.slug;
      const balances = this.engine.balances(BOT_PROFILE_ID);
      for (const token of ['YES', 'NO'] as const) {
        const id = token === 'YES' ? run.info.tokens.yes : run.info.tokens.no;
        const held = balances?.tokens[id]?.totalRaw ?? 0;
        if (held !== this.accounting.holding(slug, token)) {
          throw new BacktestInvariantError(`${slug} ${token}: books hold ${this.accounting.holding(slug, token)} raw, the engine ${held}`);
        }
      }
      const fairTicks = this.engine.fairValueTicks(slug) ?? 500;
      const book = this.engine.book(slug);
      const bid = book?.bids[0];
      const ask = book?.asks[0];
      const midMicros = bid && ask ? (bid.priceTicks + ask.priceTicks) * 500 : null;
      const atFair = this.accounting.pnl(slug, fairTicks * 1000);
      const atMid = this.accounting.pnl(slug, midMicros);
      const extremes = this.accounting.extremes(slug);
      const span = Math.max(1, run.sampledMs);
      markets.push({
        slug,
        rewardable: run.info.rewardable,
        dailyRewardRaw: run.info.dailyRewardRaw,
        pnlRaw: atFair.netPnlRaw ?? atFair.realizedRaw - atFair.feesRaw,
        pnlAtMidRaw: atMid.netPnlRaw,
        realizedRaw: atFair.realizedRaw,
        feesRaw: atFair.feesRaw,
        unrealizedRaw: atFair.unrealizedRaw ?? 0,
        fills: atFair.fillCount,
        volumeRaw: atFair.volumeRaw,
        finalYesRaw: this.accounting.holding(slug, 'YES'),
        finalNoRaw: this.accounting.holding(slug, 'NO'),
        maxAbsInventoryRaw: extremes.maxAbsNetRaw,
        maxTokenRaw: extremes.maxTokenRaw,
        twoSidedFraction: run.twoSidedMs / span,
        quotingFraction: run.quotingMs / span,
        expectedRewardPerDay: run.diagRewardMs / span,
        scoredRewardUsdc: run.scoredRewardUsdc,
        quoteCycles: run.cycles,
        finalFairTicks: fairTicks,
        finalMidMicros: midMicros,
      });
    }
    const violations = this.engine.checkInvariants();
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
      requests: {
        placements: s.placements,
        cancelRequests: s.cancelRequests,
        cancels: s.cancels,
        total: s.placements + s.cancelRequests,
        rejectedPlacements: s.rejectedPlacements,
        rejectedByCode: { ...s.rejectedByCode },
      },
      counters: {
        quoteCycles: s.quoteCycles,
        strategyErrors: s.strategyErrors,
        invalidIntents: s.invalidIntents,
        fundingDrops: { ...s.fundingDrops },
        riskDrops: { ...s.riskDrops },
        riskTrims: { ...s.riskTrims },
        rejectedBooks: s.rejectedBooks,
      },
      markets,
      engineInvariantViolations: violations,
    };
  }
}

function newRun(spec: MarketSpec, band: { minTicks: number; maxTicks: number }): MarketRun {
  return {
    info: {
      slug: spec.slug,
      tokens: { yes: spec.yesTokenId, no: spec.noTokenId },
      minSizeRaw: spec.settings.minSizeRaw,
      maxSpreadTicks: spec.settings.maxSpreadTicks,
      rewardC: spec.settings.c,
      dailyRewardRaw: spec.settings.dailyRewardRaw,
      rewardable: spec.isRewardable,
      expiresAtMs: spec.expirationMs,
      band,
    },
    mids: [],
    recentFills: [],
    lastFillAtBySlot: new Map(),
    lastBook: null,
    bookChanged: true,
    filled: false,
    lastQuoteAtMs: null,
    reviewAtMs: null,
    busy: false,
    again: false,
    cycles: 0,
    diagReward: 0,
    diagRewardMs: 0,
    scoredRewardUsdc: 0,
    twoSidedMs: 0,
    quotingMs: 0,
    sampledMs: 0,
  };
}

function sameLevels(a: readonly Level[], b: readonly Level[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.priceTicks !== y.priceTicks || x.sizeRaw !== y.sizeRaw) return false;
  }
  return true;
}

function fillKey(fill: AccountFill): string {
  return `${fill.tradeEventId}|${fill.matchId}|${fill.orderId}`;
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
