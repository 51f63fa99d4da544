/**
 * The venue's own reward figures beside the bot's estimates: on a slow timer (`rewards.venuePollSec`, lowest
 * priority), what the venue reports (the portfolio's `rewards`: today's total, and per market where it says) is
 * stored per UTC day in the ledger (src/ledger/rewards-repo.ts `venue_rewards`, the day's latest reading wins) and
 * published as a gauge, so `report` shows the estimate's error.
 *
 * Owns: the poll and the narrow typed input it takes (`VenueRewardsReport`, produced by whoever reads the wire: the
 * exchange client's portfolio parser). Invariants: one read in flight at a time; a failed read or write is logged
 * (at most once per poll interval) and tried again at the next poll, never thrown into the timer; amounts are raw 1e6.
 */
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import type { PortfolioPositions } from '../exchange/wire-account.js';
import { errorText } from '../core/errors.js';
import type { LedgerStore } from '../ledger/index.js';
import { utcDayStart, VENUE_TOTAL_MARKET } from '../ledger/index.js';

/** What the venue reports of the account's liquidity rewards, raw USDC. */
export interface VenueRewardsReport {
  /** Today's rewards in total (`rewards.todaysRewards`); null when the answer has none. */
  readonly todayTotalRaw: number | null;
  /** Today's rewards per market, where the venue gives a per-market figure. */
  readonly markets: readonly { readonly marketSlug: string; readonly todayRaw: number }[];
}

export type ReadVenueRewards = () => Promise<VenueRewardsReport>;

/**
 * The portfolio answer's reward figures (`GET /portfolio/positions`, src/exchange/wire-rewards.ts) as this poller reads
 * them: today's total (`rewards.todaysRewards`) and, per market, the open epoch's rewards (an epoch with no end).
 */
export function venueRewardsOf(portfolio: Pick<PortfolioPositions, 'clob' | 'rewards'>): VenueRewardsReport {
  const markets = portfolio.clob.flatMap((position) => {
    const open = position.rewards?.epochs.find((epoch) => epoch.endMs === null);
    return open?.rewardsRaw === null || open?.rewardsRaw === undefined ? [] : [{ marketSlug: position.marketSlug, todayRaw: open.rewardsRaw }];
  });
  return { todayTotalRaw: portfolio.rewards?.todaysRewardsRaw ?? null, markets };
}

export interface VenueRewardsPollerDeps {
  readonly read: ReadVenueRewards;
  readonly ledger: Pick<LedgerStore, 'rewards'>;
  readonly scheduler: Scheduler;
  readonly intervalMs: number;
  readonly metrics: { venueRewards(market: string, rewardRaw: number): void };
  readonly log: Pick<Logger, 'warn'>;
}

export class VenueRewardsPoller {
  private cancel: (() => void) | null = null;
  private inFlight: Promise<void> | null = null;

  constructor(private readonly deps: VenueRewardsPollerDeps) {}

  start(): void {
    if (this.cancel !== null || !(this.deps.intervalMs > 0)) return;
    const arm = (): void => {
      this.cancel = this.deps.scheduler.schedule(this.deps.intervalMs, () => {
        void this.poll();
        if (this.cancel !== null) arm();
      });
    };
    arm();
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }

  /** Reads the venue's figures once and stores them under today (UTC). */
  poll(): Promise<void> {
    this.inFlight ??= this.read().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async read(): Promise<void> {
    try {
      const report = await this.deps.read();
      const readAtMs = this.deps.scheduler.now();
      const dayStartMs = utcDayStart(readAtMs);
      const rows = [...report.markets.map((m) => ({ market: m.marketSlug, raw: m.todayRaw })), ...(report.todayTotalRaw === null ? [] : [{ market: VENUE_TOTAL_MARKET, raw: report.todayTotalRaw }])];
      for (const row of rows) {
        this.deps.ledger.rewards.recordVenueReward({ dayStartMs, marketSlug: row.market, rewardRaw: row.raw, readAtMs });
        this.deps.metrics.venueRewards(row.market, row.raw);
      }
    } catch (error) {
      this.deps.log.warn({ err: errorText(error) }, 'venue rewards: read or write failed; tried again at the next poll');
    }
  }
}
