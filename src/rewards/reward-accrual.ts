/**
 * The live accrual of what the venue pays makers beside trading PnL, into the ledger (src/ledger/rewards-repo.ts),
 * every figure an ESTIMATE:
 * - liquidity rewards: once per minute and market, the bot's resting orders are scored against the book without them
 *   (src/strategy/rewards.ts `scoreMinute`: the one scorer), and the bot's share of the minute's pool is recorded;
 * - maker rebates: each maker fill gets the taker's fee (the rate its report carried, else the fee curve) × the
 *   market's `rebateRate` (else `rewards.rebateRateFallback`; neither: no estimate) (src/strategy/rebates.ts), the
 *   taker's kind of match blended by the prior share of buying takers (`rewards.takerBuyShare`) until the trade feed
 *   resolves it (src/rewards/rebate-resolver.ts).
 *
 * Owns: when to score and what to record (`tick`, a thin shell over the pure scorer and estimate). Invariants:
 * exactly once across restarts — a minute row is keyed by market + minute, a rebate row by fill id, and the ledger
 * ignores a second write; `rewards.minuteScoring: time-weighted` (the default): every tick (5 s apart) that sees the
 * bot's orders resting in a market and a fresh book adds one sample to the minute's row, worth 5/60 of the minute's
 * pool at that sample's share (a tick without orders or book adds nothing: that part of the minute earned nothing or
 * cannot be judged; the ledger takes a sample once, so a restart inside a minute continues its row); `first-sample`:
 * the first such tick scores the whole minute (orders placed late in it are credited for all of it). A stale or
 * missing book scores nothing; a market without a pool records nothing; a failing ledger write is logged (once a
 * minute) and retried next tick, never thrown into the timer.
 */
import { makerShareOfTakerFee } from './creator-fee.js';
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { FeeCurve } from '../core/venue-rules/index.js';
import type { LedgerStore } from '../ledger/index.js';
import { MINUTE_MS } from '../ledger/index.js';
import type { BookView, MarketInfo, OwnOrderView } from '../strategy/contract.js';
import { estimateMakerRebate } from '../strategy/rebates.js';
import { scoreMinute } from '../strategy/rewards.js';
import type { BookedFill } from '../booking/fill-recorder.js';
import type { MinuteScoring } from '../config/rewards-schema.js';

/** Ticks this often; a market's minute is scored at its first tick that sees the bot's orders resting there. */
export const ACCRUAL_TICK_MS = 5_000;
/** The part of a minute one time-weighted sample stands for. */
const SAMPLE_WEIGHT = ACCRUAL_TICK_MS / MINUTE_MS;

export interface AccrualMetrics {
  /** An estimated reward was recorded for a market's minute (raw USDC, ≥ 0) with the bot's share of the pool. */
  rewardAccrued(slug: string, rewardRaw: number, share: number): void;
  /** An estimated rebate was recorded for a maker fill (raw USDC). */
  rebateAccrued(slug: string, rebateRaw: number): void;
}

export interface RewardAccrualDeps {
  readonly ledger: Pick<LedgerStore, 'rewards' | 'getFill' | 'atomically'>;
  readonly scheduler: Scheduler;
  /** The strategy's label in the ledger (src/markouts/live-markouts.ts `strategyLabel`). */
  readonly strategy: string;
  /** The markets traded now. */
  readonly markets: () => readonly MarketInfo[];
  /** A market's fresh YES book; null when stale or unknown. */
  readonly book: (slug: string) => BookView | null;
  /** The bot's resting orders in a market (remaining sizes). */
  readonly ownOrders: (slug: string) => readonly OwnOrderView[];
  readonly rebateRateFallback: number | null;
  readonly feeCurve: FeeCurve;
  /** The prior share of buying takers (src/config/rewards-schema.ts `takerBuyShare`). */
  readonly takerBuyShare: number;
  /** Every tick of a minute, time-weighted, or its first tick for the whole minute (src/config/rewards-schema.ts). */
  readonly minuteScoring: MinuteScoring;
  readonly metrics: AccrualMetrics;
  readonly log: Pick<Logger, 'warn'>;
}

export class RewardAccrual {
  private cancel: (() => void) | null = null;
  private lastMinute = new Map<string, number>();
  private loggedAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: RewardAccrualDeps) {}

  start(): void {
    if (this.cancel !== null) return;
    const arm = (): void => {
      this.cancel = this.deps.scheduler.schedule(ACCRUAL_TICK_MS, () => {
        this.tick();
        if (this.cancel !== null) arm();
      });
    };
    this.tick();
    arm();
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }

  /**
   * Scores the minute now for every traded market not scored in it yet, and estimates pending maker rebates. The
   * markets' rows are written in ONE transaction (one commit, not one per market: the loop stalls once for a few ms);
   * the metrics and the settled minutes follow its commit. Should it fail, each market is written on its own, so one
   * bad row costs only its market's sample.
   */
  tick(): void {
    const now = this.deps.scheduler.now();
    const minuteMs = now - (now % MINUTE_MS);
    const markets = this.deps.markets();
    const due = markets.filter((market) => this.lastMinute.get(market.slug) !== minuteMs);
    const batch = (list: readonly MarketInfo[]): void => {
      const after: (() => void)[] = [];
      this.deps.ledger.atomically(() => {
        for (const market of list) {
          if (this.scoreMarket(market, minuteMs, after)) after.push(() => this.lastMinute.set(market.slug, minuteMs));
        }
      }, 'process');
      for (const fn of after) fn();
    };
    try {
      batch(due);
    } catch {
      for (const market of due) this.guard(() => batch([market]));
    }
    const traded = new Set(markets.map((m) => m.slug));
    for (const slug of this.lastMinute.keys()) if (!traded.has(slug)) this.lastMinute.delete(slug);
    this.guard(() => this.rebatePending(markets));
  }

  /** A fill was booked: a maker fill's rebate is estimated at once (with the taker fee its report carried, if any). */
  fillBooked(booked: BookedFill): void {
    const market = this.deps.markets().find((m) => m.slug === booked.fill.marketSlug);
    if (market === undefined) return;
    this.guard(() => {
      const record = this.deps.ledger.getFill({ tradeEventId: booked.fill.tradeEventId, orderId: booked.fill.orderId });
      if (record?.role !== 'maker' || record.priceTicks === null) return;
      this.rebate(market, { fillId: record.id, side: record.side, priceTicks: record.priceTicks, sizeRaw: record.sizeRaw, atMs: record.atMs }, booked.takerFeeBps);
    });
  }

  /**
   * True when the minute is settled for this market (recorded now or before, or nothing to score); time-weighted
   * scoring never settles a minute early: every tick samples it.
   */
  private scoreMarket(market: MarketInfo, minuteMs: number, after: (() => void)[]): boolean {
    if (!market.rewardable || !(market.dailyRewardRaw > 0)) return true;
    const own = this.deps.ownOrders(market.slug);
    if (own.length === 0) return false;
    const book = this.deps.book(market.slug);
    if (book === null) return false;
    const score = scoreMinute(market, book, own);
    if (score === null) return false;
    if (this.deps.minuteScoring === 'time-weighted') {
      const rewardRaw = Math.floor(score.share * score.poolRaw * SAMPLE_WEIGHT);
      const sample = { marketSlug: market.slug, minuteMs, sampleMs: this.deps.scheduler.now(), strategy: this.deps.strategy, botScore: score.botScore, othersScore: Math.max(0, score.othersScore), share: score.share, poolRaw: score.poolRaw };
      if (this.deps.ledger.rewards.recordMinuteSample({ ...sample, weight: SAMPLE_WEIGHT, rewardRaw, minGapMs: ACCRUAL_TICK_MS / 2 })) after.push(() => this.deps.metrics.rewardAccrued(market.slug, rewardRaw, score.share));
      return false;
    }
    const inserted = this.deps.ledger.rewards.recordMinute({
      marketSlug: market.slug,
      minuteMs,
      strategy: this.deps.strategy,
      botScore: score.botScore,
      othersScore: Math.max(0, score.othersScore),
      share: score.share,
      poolRaw: score.poolRaw,
      rewardRaw: score.rewardRaw,
    });
    if (inserted) after.push(() => this.deps.metrics.rewardAccrued(market.slug, score.rewardRaw, score.share));
    return true;
  }

  private rebatePending(markets: readonly MarketInfo[]): void {
    const bySlug = new Map(markets.filter((m) => this.rebateRateOf(m) !== null).map((m) => [m.slug, m]));
    if (bySlug.size === 0) return;
    for (const fill of this.deps.ledger.rewards.unrebatedMakerFills([...bySlug.keys()])) {
      const market = bySlug.get(fill.marketSlug);
      if (market !== undefined) this.rebate(market, fill, undefined);
    }
  }

  private rebate(
    market: MarketInfo,
    fill: { readonly fillId: number; readonly side: 'BUY' | 'SELL'; readonly priceTicks: number; readonly sizeRaw: number; readonly atMs: number },
    reportedTakerFeeBps: number | undefined,
  ): void {
    const rate = this.rebateRateOf(market);
    if (rate === null) return;
    const estimate = estimateMakerRebate(fill, rate, { reportedTakerFeeBps, curve: this.deps.feeCurve, takerBuyShare: this.deps.takerBuyShare });
    const inserted = this.deps.ledger.rewards.recordRebate({
      fillId: fill.fillId,
      marketSlug: market.slug,
      strategy: this.deps.strategy,
      atMs: fill.atMs,
      takerFeeBps: estimate.takerFeeBps,
      feeSource: estimate.feeSource === 'event' ? 'event' : 'curve',
      takerFeeRaw: estimate.takerFeeRaw,
      rebateRate: estimate.rebateRate,
      rebateRaw: estimate.rebateRaw,
      takerSide: estimate.takerSide,
      matchKind: estimate.match,
      priorShare: estimate.priorShare,
    });
    if (inserted) this.deps.metrics.rebateAccrued(market.slug, estimate.rebateRaw);
  }

  /**
   * The fraction of a taker fee this market pays back to its maker: the rebate rate (the market's, else the fallback)
   * on what the creator fee of a Community market leaves (src/rewards/creator-fee.ts); null: no estimate. Booked as
   * the row's `rebate_rate`, so the resolution from the trade feed applies the same fraction.
   */
  private rebateRateOf(market: MarketInfo): number | null {
    const rate = market.rebateRate ?? this.deps.rebateRateFallback;
    if (rate === null || !Number.isFinite(rate) || rate <= 0) return null;
    const share = makerShareOfTakerFee(rate, market.creatorFeeShare === undefined ? 0 : market.creatorFeeShare);
    return share !== null && share > 0 ? share : null;
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      const now = this.deps.scheduler.now();
      if (now - this.loggedAtMs < MINUTE_MS) return;
      this.loggedAtMs = now;
      this.deps.log.warn({ err: errorText(error) }, 'reward accrual: a ledger write failed; retried next tick (logged once a minute)');
    }
  }
}
