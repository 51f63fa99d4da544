/**
 * The reward and rebate services of a running bot, built from the config (moved out of src/app/compose.ts, which
 * only starts and stops them): the live accrual of estimated rewards and rebates (src/rewards/reward-accrual.ts), the
 * read of the venue's own figures (src/rewards/venue-rewards.ts), and the resolution of maker rebates from the public
 * trade feed (src/rewards/rebate-resolver.ts).
 *
 * Owns: their wiring to the client, the ledger, the books and the metrics. Invariants: the trade feed is read at the
 * limiter's lowest priority (`read`, the client's default for it); the resolver runs only with `rewards.accrual`
 * and `rewards.tradeResolution.enabled` (compose.ts checks both).
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import type { Scheduler } from '../core/clock.js';
import type { ExchangeClient } from '../exchange/client.js';
import type { LedgerStore } from '../ledger/index.js';
import { componentLogger } from '../log.js';
import type { Metrics } from '../metrics/index.js';
import type { BookView, MarketInfo, OwnOrderView } from '../strategy/contract.js';
import { strategyLabel } from '../markouts/live-markouts.js';
import { RebateResolver, type ReadTradeFeed } from './rebate-resolver.js';
import { RewardAccrual } from './reward-accrual.js';
import { epochJudging, venuePollTimes, venueRewardsOf, VenueRewardsPoller, type ReadVenueRewards } from './venue-rewards.js';

export interface RewardServicesDeps {
  readonly config: AppConfig;
  readonly client: ExchangeClient;
  readonly ledger: LedgerStore;
  readonly scheduler: Scheduler;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** The markets traded now, as the strategies see them. */
  readonly markets: () => readonly MarketInfo[];
  /** A market's fresh YES book; null when stale or unknown. */
  readonly book: (slug: string) => BookView | null;
  /** The bot's orders as the book shows them. */
  readonly ownOrders: (slug: string) => readonly OwnOrderView[];
  /** Reads the venue's own reward figures; absent: the portfolio answer's `rewards`. */
  readonly readVenueRewards?: ReadVenueRewards | undefined;
}

export interface RewardServices {
  readonly rewardAccrual: RewardAccrual;
  readonly venueRewards: VenueRewardsPoller;
  readonly rebateResolver: RebateResolver;
}

export function buildRewardServices(deps: RewardServicesDeps): RewardServices {
  const { config, client, ledger, scheduler, metrics } = deps;
  const log = componentLogger(deps.log, 'rewards');
  const rewardAccrual = new RewardAccrual({
    ledger,
    scheduler,
    strategy: strategyLabel(config.strategy.name),
    markets: deps.markets,
    book: deps.book,
    ownOrders: deps.ownOrders,
    rebateRateFallback: config.rewards.rebateRateFallback,
    feeCurve: config.rewards.feeCurve,
    takerBuyShare: config.rewards.takerBuyShare,
    minuteScoring: config.rewards.minuteScoring,
    metrics,
    log,
  });
  // The venue's own figures: the portfolio answer's `rewards` unless the caller reads them another way.
  const judging = epochJudging(config);
  const readVenueRewards = deps.readVenueRewards ?? (async () => venueRewardsOf(await client.api.getPortfolio(), scheduler.now(), judging));
  const venueRewards = new VenueRewardsPoller({ read: readVenueRewards, ledger, scheduler, ...venuePollTimes(config), metrics, log });
  const readTradeFeed: ReadTradeFeed = (slug, page) => client.api.getMarketTrades(slug, { page, limit: 100 });
  const resolution = config.rewards.tradeResolution;
  const rebateResolver = new RebateResolver({
    read: readTradeFeed,
    ledger,
    scheduler,
    markets: () => deps.markets().map((m) => m.slug),
    feeCurve: config.rewards.feeCurve,
    maxAgeMs: resolution.maxAgeMs,
    maxPages: resolution.maxPages,
    metrics,
    log,
  });
  return { rewardAccrual, venueRewards, rebateResolver };
}
