/**
 * The per-market figures of a backtest run: one `MarketRun` per market the bot traded (those of the start and every
 * one joined later), sampled at each step, and each market's result row at the end.
 *
 * Owns: the runs (in the order the markets were joined), their time-weighted figures (two-sided and quoting time,
 * the reward diagnostic and the reward the resting orders score), the true fair value series of each (the markouts'
 * yardstick), the fills in YES terms, and the quote cycles of a market left (frozen when it was left).
 *
 * Invariants: a market is sampled from the step it was joined until its expiry (a market left before expiry is still
 * sampled until then: its quoting time counts against its whole life); a resolved market's fair series ends on its
 * payout (1 or 0) at the resolution; a run is kept to the end (the result has one row per market ever traded); a
 * resolved market's PnL is its payout's (nothing unrealized), an open one's is marked at the true fair value.
 */
import { BookState } from '../book/book-state.js';
import { adjustedMidpoint, ticksToFloat } from '../core/venue-rules/index.js';
import type { ResolvedPayout } from '../ledger/pnl.js';
import { adverseOfSeries, type AdverseFill } from '../markouts/adverse-provider.js';
import { FairSeries, summarizeMarkouts, type MarkoutFill } from '../markouts/markout.js';
import type { MarketSpec, SimEngine, SimMarket } from '../sim/engine/index.js';
import type { MarketInfo } from '../strategy/contract.js';
import { expectedRewardPerDay } from '../strategy/rewards.js';
import { buildView } from '../strategy/view.js';
import { toYesTerms } from '../strategy/yes-terms.js';
import type { BotAccounting } from './accounting.js';
import type { FeedBook } from './engine-feed.js';
import { BacktestInvariantError } from './errors.js';
import type { MarketResult } from './result.js';

const DAY_MS = 86_400_000;

export interface MarketRun {
  readonly info: MarketInfo;
  /** Latest `expectedRewardPerDay` diagnostic, and its time integral (USDC·ms/day). */
  diagReward: number;
  diagRewardMs: number;
  scoredRewardUsdc: number;
  /** Σ the maker fills' rebate estimates, raw USDC. */
  rebatesRaw: number;
  twoSidedMs: number;
  quotingMs: number;
  sampledMs: number;
  /** The engine's hidden (true) fair value, sampled at every step: the yardstick of the markouts. */
  readonly fair: FairSeries;
  lastFairAtMs: number;
  /** The bot's fills in YES terms, for the markouts. */
  readonly markoutFills: MarkoutFill[];
  /** Quote cycles of a market left (the runner forgets it then); null while it is traded. */
  cyclesAtLeave: number | null;
}

/** The strategy's view of a listed market, with the effective price band. */
export function infoOf(spec: MarketSpec, band: { readonly minTicks: number; readonly maxTicks: number }): MarketInfo {
  return {
    slug: spec.slug,
    tokens: { yes: spec.yesTokenId, no: spec.noTokenId },
    minSizeRaw: spec.settings.minSizeRaw,
    maxSpreadTicks: spec.settings.maxSpreadTicks,
    rewardC: spec.settings.c,
    dailyRewardRaw: spec.settings.dailyRewardRaw,
    rewardable: spec.isRewardable,
    expiresAtMs: spec.expirationMs,
    cadence: spec.oracle?.cadence ?? null,
    band: { ...band },
  };
}

/** What a resolved market pays per token; null while it is not resolved. */
export function payoutOf(market: SimMarket | undefined): ResolvedPayout | null {
  if (market?.status !== 'RESOLVED') return null;
  const resolvedAtMs = market.resolvedAtMs ?? market.expirationMs;
  if (market.payoutNumerators !== null) return { payoutYes: market.payoutNumerators[0], payoutNo: market.payoutNumerators[1], resolvedAtMs };
  return { payoutYes: market.winningOutcomeIndex === 0 ? 1 : 0, payoutNo: market.winningOutcomeIndex === 1 ? 1 : 0, resolvedAtMs };
}

export interface MarketRunsDeps {
  readonly engine: SimEngine;
  readonly profileId: number;
  readonly accounting: BotAccounting;
  /** The feed's last book of a market (the bot's view of it); null when none. */
  readonly book: (slug: string) => FeedBook | null;
  readonly now: () => number;
}

export class MarketRuns {
  private readonly bySlug = new Map<string, MarketRun>();
  /** Runs sampled at each step: joined and not expired yet. */
  private readonly sampled = new Set<MarketRun>();

  constructor(private readonly deps: MarketRunsDeps) {}

  /** A market traded from now on (idempotent). */
  add(info: MarketInfo): MarketRun {
    const known = this.bySlug.get(info.slug);
    if (known !== undefined) return known;
    const run: MarketRun = { info, diagReward: 0, diagRewardMs: 0, scoredRewardUsdc: 0, rebatesRaw: 0, twoSidedMs: 0, quotingMs: 0, sampledMs: 0, fair: new FairSeries(), lastFairAtMs: Number.NEGATIVE_INFINITY, markoutFills: [], cyclesAtLeave: null };
    this.bySlug.set(info.slug, run);
    this.sampled.add(run);
    return run;
  }

  get(slug: string): MarketRun {
    const run = this.bySlug.get(slug);
    if (run === undefined) throw new BacktestInvariantError(`market ${slug}, which the backtest does not trade`);
    return run;
  }

  /** A market left: its quote cycles so far are kept (the runner forgets it). */
  left(slug: string, cycles: number): void {
    const run = this.bySlug.get(slug);
    if (run !== undefined) run.cyclesAtLeave = cycles;
  }

  /**
   * Every market's fills made at or after `sinceMs`, with their adverse selection against the hidden fair value as
   * known at `nowMs` (the adverse-selection provider's source, src/markouts/adverse-provider.ts).
   */
  adverseFills(sinceMs: number, nowMs: number): AdverseFill[] {
    const out: AdverseFill[] = [];
    for (const run of this.bySlug.values()) {
      for (let i = run.markoutFills.length - 1; i >= 0; i -= 1) {
        const fill = run.markoutFills[i];
        if (fill === undefined || fill.atMs < sinceMs) break;
        out.push(adverseOfSeries(run.info.slug, fill, (t) => run.fair.at(t), nowMs));
      }
    }
    return out;
  }

  /** How many markets are sampled now (joined, not expired). */
  get sampledCount(): number {
    return this.sampled.size;
  }

  /** Time-weighted figures over the next `dtMs`: two-sided quoting and the reward the resting orders score. */
  sample(dtMs: number): void {
    const { engine, profileId, accounting } = this.deps;
    const now = this.deps.now();
    for (const run of this.sampled) {
      const slug = run.info.slug;
      if (run.info.expiresAtMs !== null && now >= run.info.expiresAtMs) {
        this.expired(run);
        continue;
      }
      const fairTicks = engine.fairValueTicks(slug);
      if (fairTicks !== null) {
        run.fair.record(now, ticksToFloat(fairTicks));
        run.lastFairAtMs = now;
      }
      const resting = engine.orders(profileId, slug, ['LIVE']).filter((o) => o.remainingSizeRaw > 0);
      let bid = false;
      let ask = false;
      for (const order of resting) {
        if (toYesTerms(order.outcome, order.side, order.priceTicks ?? 0).side === 'bid') bid = true;
        else ask = true;
      }
      run.sampledMs += dtMs;
      if (bid && ask) run.twoSidedMs += dtMs;
      if (bid || ask) run.quotingMs += dtMs;
      run.diagRewardMs += run.diagReward * dtMs;
      if (resting.length > 0 && run.info.rewardable && run.info.dailyRewardRaw > 0) {
        const snapshot = this.deps.book(slug)?.snapshot ?? engine.book(slug);
        if (snapshot === undefined) continue;
        let yes: BookState;
        try {
          yes = BookState.fromSnapshot({ bids: snapshot.bids, asks: snapshot.asks, adjustedMidpoint: adjustedMidpoint(snapshot, run.info.minSizeRaw) });
        } catch {
          continue;
        }
        const own = resting.map((o) => ({ token: o.outcome, side: o.side, priceTicks: o.priceTicks ?? 0, sizeRaw: o.remainingSizeRaw }));
        const view = buildView({
          info: run.info,
          books: { yes, no: yes.complement() },
          position: { ...accounting.marketPosition(slug), freeCollateralRaw: 0 },
          recentFills: [],
          midHistory: [],
          ownOrders: own,
          now,
        });
        run.scoredRewardUsdc += (expectedRewardPerDay(view, own, own) * dtMs) / DAY_MS;
      }
    }
  }

  /** One row per market ever traded, in the order they were joined. `cycles`: the runner's count of a market still traded. */
  results(cycles: (slug: string) => number): MarketResult[] {
    const { engine, accounting } = this.deps;
    const balances = engine.balances(this.deps.profileId);
    const now = this.deps.now();
    const rows: MarketResult[] = [];
    for (const run of this.bySlug.values()) {
      const slug = run.info.slug;
      for (const token of ['YES', 'NO'] as const) {
        const held = balances?.tokens[token === 'YES' ? run.info.tokens.yes : run.info.tokens.no]?.totalRaw ?? 0;
        if (held !== accounting.holding(slug, token)) throw new BacktestInvariantError(`${slug} ${token}: books hold ${accounting.holding(slug, token)} raw, the engine ${held}`);
      }
      const payout = payoutOf(engine.market(slug));
      const fairTicks = payout === null ? (engine.fairValueTicks(slug) ?? 500) : Math.round((1000 * payout.payoutYes) / (payout.payoutYes + payout.payoutNo));
      const book = engine.book(slug);
      const bid = book?.bids[0];
      const ask = book?.asks[0];
      const midMicros = bid && ask ? (bid.priceTicks + ask.priceTicks) * 500 : null;
      const atFair = accounting.pnl(slug, fairTicks * 1000, payout);
      const atMid = accounting.pnl(slug, midMicros, payout);
      const extremes = accounting.extremes(slug);
      const span = Math.max(1, run.sampledMs);
      run.fair.extendTo(now);
      rows.push({
        slug,
        expiresAtMs: run.info.expiresAtMs,
        rewardable: run.info.rewardable,
        dailyRewardRaw: run.info.dailyRewardRaw,
        pnlRaw: atFair.netPnlRaw ?? atFair.realizedRaw - atFair.feesRaw,
        pnlAtMidRaw: atMid.netPnlRaw,
        realizedRaw: atFair.realizedRaw,
        feesRaw: atFair.feesRaw,
        unrealizedRaw: atFair.unrealizedRaw ?? 0,
        fills: atFair.fillCount,
        volumeRaw: atFair.volumeRaw,
        finalYesRaw: accounting.holding(slug, 'YES'),
        finalNoRaw: accounting.holding(slug, 'NO'),
        maxAbsInventoryRaw: extremes.maxAbsNetRaw,
        maxTokenRaw: extremes.maxTokenRaw,
        twoSidedFraction: run.twoSidedMs / span,
        quotingFraction: run.quotingMs / span,
        expectedRewardPerDay: run.diagRewardMs / span,
        scoredRewardUsdc: run.scoredRewardUsdc,
        rebatesRaw: run.rebatesRaw,
        quoteCycles: run.cyclesAtLeave ?? cycles(slug),
        finalFairTicks: fairTicks,
        finalMidMicros: midMicros,
        markouts: summarizeMarkouts(run.markoutFills, (t) => run.fair.at(t)),
      });
    }
    return rows;
  }

  /** Sampling ends at expiry; the fair value of a resolved market is its payout from then on. */
  private expired(run: MarketRun): void {
    this.sampled.delete(run);
    const payout = payoutOf(this.deps.engine.market(run.info.slug));
    if (payout !== null) run.fair.record(Math.max(payout.resolvedAtMs, run.lastFairAtMs), payout.payoutYes / (payout.payoutYes + payout.payoutNo));
  }
}
