/**
 * The bot's lifecycle: the start and stop order of the components `composeBot` (./compose.ts) built and wired. It
 * starts and stops; it builds nothing. The boot and stop orders, and why, are stated in compose.ts's header.
 *
 * Invariants: nothing is quoted before the executor started and adopted the bot's live orders (the runner starts after
 * it); a stop during start-up ends the start at the next step (`throwIfStopping`); the stop cancels the bot's orders
 * (executor shutdown) after every producer of quotes, joins and leaves has stopped, and closes the ledger's writers
 * last; the stop keeps CLOSE_RESERVE_MS of its deadline for closing the resources.
 */
import type { Logger } from 'pino';
import type { AccountHistorySync } from '../capital/account-history.js';
import type { AppConfig } from '../config/types.js';
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { LedgerStore } from '../ledger/index.js';
import type { Metrics } from '../metrics/index.js';
import { checkPositionBook } from '../booking/position-book-check.js';
import { DEPARTED_SWEEP_MS } from '../markets/departed-markets.js';
import { startupListingSummary, type StartupListingDecision } from '../markets/startup-listing.js';
import type { BotComponents } from './compose-types.js';
import { retryStartup } from './resources.js';
import { StartAbortedError, throwIfStopping } from './start-abort.js';

/** Positions and PnL gauges are published this often (and after each fill). */
export const PUBLISH_POSITIONS_EVERY_MS = 10_000;
/** The underlying prices' ages are published this often. */
export const UNDERLYING_AGES_EVERY_MS = 1_000;
/** Own orders the book keeps not showing are looked for this often (src/orders/order-stream-watch.ts). */
export const ORDER_STREAM_SWEEP_EVERY_MS = 1_000;
/** The last read of the trade feed at shutdown (src/rewards/rebate-resolver.ts) gets at most this long. */
export const REBATE_FLUSH_BUDGET_MS = 2_000;
/** What a stop keeps, after its components stopped, for closing the resources (ledger, metrics server, client drain, venue). */
export const CLOSE_RESERVE_MS = 1_000;

/** What the lifecycle needs besides the components: the config, the shell's services, and a few wiring closures. */
export interface LifecycleParts {
  readonly config: AppConfig;
  readonly components: BotComponents;
  readonly accountHistory: AccountHistorySync;
  readonly ledger: LedgerStore;
  readonly metrics: Metrics;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly signal?: AbortSignal;
  /** How often positions are published besides soon after a fill (PUBLISH_POSITIONS_EVERY_MS when absent). */
  readonly positionsPublishEveryMs?: number;
  readonly stopping: () => boolean;
  readonly startupListing: StartupListingDecision;
  /** Whether the trade feed resolves rebates (started, and flushed at the stop). */
  readonly resolving: boolean;
  /** Confirms fresh books to the stale guard. */
  readonly confirmFreshness: () => void;
  /** Forgets departed markets once resolved and settled (src/markets/departed-markets.ts). */
  readonly sweepDeparted: () => Promise<void>;
  /** Logs the status line. */
  readonly reportStatus: () => void;
  /** Starts sampling where the run's time goes (quoting, waiting, idle: src/operator/quoting-time.ts). */
  readonly startQuotingClock: () => void;
  /** Arms each market's requote at its stop before expiry. */
  readonly armExpiryRequotes: () => void;
}

export interface BotLifecycle {
  start(): Promise<void>;
  stop(deadlineMs?: number): Promise<{ clean: boolean }>;
}

export function botLifecycle(parts: LifecycleParts): BotLifecycle {
  const { config, components, accountHistory, ledger, metrics, scheduler, log, resolving, confirmFreshness, startupListing } = parts;
  const { markets, modeGate, executor, fills, orders, ledgerSync, settler, capital, units, feed, books, staleGuard, orderStreamWatch, killSwitch, positions, reactions, runner, timers, pricing, markouts, rewardAccrual, venueRewards, rebateResolver, calibration, roster, discovery } = components;
  const now = (): number => scheduler.now();
  /** The event-loop sampler (src/metrics/loop-metrics.ts), started with the timers. */
  let stopLoopWatch = (): void => undefined;
  const start = async (): Promise<void> => {
    try {
      const repaired = await retryStartup(config, { scheduler, log, ...(parts.signal === undefined ? {} : { signal: parts.signal }) }, 'ledger catch-up', () => ledgerSync.catchUp());
      if (repaired > 0) log.warn({ repaired }, 'ledger caught up from the venue before quoting');
    } catch (error) {
      if (error instanceof StartAbortedError) throw error;
      log.error({ err: errorText(error) }, 'ledger catch-up failed; the periodic check will retry');
    }
    throwIfStopping(parts.signal, 'the ledger catch-up');
    // Market data first: the feed's frames bring the books while the adoption reads each market's own orders, so
    // nothing but those reads stands between the start and the first quotes (the book store reads REST only for a
    // market whose frame does not come, and one book for the socket's unit). Order events met meanwhile wait in the
    // executor for the orders they name (adopted, or a resync of their market). Nothing is quoted before the runner.
    books.setMarkets(markets.slugs());
    pricing.start();
    feed.start();
    books.start();
    // executor.start() reads the trading mode first; periodic polling starts once quoting does (below).
    const adoption = await executor.start();
    // A stop during adoption: the executor's shutdown (running beside) cancels what it adopted; nothing more starts.
    throwIfStopping(parts.signal, 'the adoption of live orders');
    for (const report of adoption) {
      if (!report.ok) log.warn({ market: report.marketSlug, error: report.error }, 'start-up sync failed');
      else if (report.adopted + report.canceled > 0) log.info(report, 'adopted live orders');
      if (report.deferred !== true) reactions.noteForeign(report);
    }
    const listing = startupListingSummary(startupListing, adoption);
    log.info(listing.fields, listing.msg);
    // Whether the venue pushes a book on subscribe is unconfirmed (exchange-facts §5): the choice is the config's, said once.
    const firstBooks = config.feed.firstBookWaitMs > 0 ? `the feed's first frame (a full book), REST after ${config.feed.firstBookWaitMs / 1000} s without one` : 'REST on every subscribe';
    log.info({ units: units.describe(), firstBooks }, 'socket units at start');
    for (const slug of markets.slugs()) staleGuard.track(slug);
    timers.every(ORDER_STREAM_SWEEP_EVERY_MS, () => orderStreamWatch.sweep(markets.slugs()));
    // More often than the guard's grace, or a quiet but healthy market flaps to halted between two confirmations.
    timers.every(Math.min(1_000, Math.max(100, Math.floor(config.risk.staleGraceMs / 2))), confirmFreshness);
    metrics.killSwitch(false);
    killSwitch.start();
    positions.publish();
    timers.every(parts.positionsPublishEveryMs ?? PUBLISH_POSITIONS_EVERY_MS, () => positions.publish());
    timers.every(UNDERLYING_AGES_EVERY_MS, () => pricing.publishAges());
    timers.every(config.maintenance.ledgerCheckMs, () => {
      ledgerSync.periodicCheck(parts.stopping);
      checkPositionBook(ledger, metrics, log);
    });
    metrics.sqliteTimeSource(() => ledger.sqliteMs());
    stopLoopWatch = metrics.watchEventLoop();
    if (config.log.statusIntervalMs > 0) timers.every(config.log.statusIntervalMs, parts.reportStatus);
    markouts.start();
    if (config.rewards.accrual) rewardAccrual.start();
    venueRewards.start();
    if (resolving) rebateResolver.start();
    accountHistory.start();
    calibration?.start();
    runner.start();
    parts.startQuotingClock();
    modeGate.start();
    // Each market requoted at its stop-before-expiry time, so the gate's halt takes effect then, not at the next cycle.
    parts.armExpiryRequotes();
    // Resumes what the previous run left unredeemed and checks the held markets this run does not trade.
    settler.resume(new Set(markets.slugs()));
    capital.start();
    // Markets join and leave from now on (step 6).
    feed.onMarketCreated((frame) => void discovery.created(frame));
    feed.onMarketResolved((frame) => discovery.resolved(frame.slug));
    timers.every(DEPARTED_SWEEP_MS, () => void parts.sweepDeparted());
    discovery.start();
  };

  const stop = async (deadlineMs = now() + config.shutdown.budgetMs): Promise<{ clean: boolean }> => {
    await discovery.stop();
    await roster.stop();
    runner.stop();
    pricing.stop();
    timers.cancelAll();
    positions.stop();
    stopLoopWatch();
    killSwitch.stop();
    staleGuard.stop();
    settler.stop();
    capital.stop();
    venueRewards.stop();
    rebateResolver.stop();
    accountHistory.stop();
    orderStreamWatch.stop();
    modeGate.stop();
    const report = await executor.shutdown({
      budgetMs: Math.max(1000, Math.min(config.shutdown.budgetMs, deadlineMs - now()) - 1500),
      leaveOrdersResting: config.shutdown.leaveOrdersResting,
    });
    log[report.clean ? 'info' : 'error'](report, report.clean ? 'orders canceled' : 'shutdown left orders or unknowns');
    // After the cancels: fills booked while they ran are judged too (at the horizons reached before the stop).
    markouts.stop();
    // The last fills' rebates before the ledger closes (the minute rows are already in), then their trades once more.
    if (config.rewards.accrual) rewardAccrual.tick();
    rewardAccrual.stop();
    // Within what the stop has left (the resources' close keeps CLOSE_RESERVE_MS), never the whole flush budget blindly.
    if (resolving) await rebateResolver.flush(Math.min(REBATE_FLUSH_BUDGET_MS, Math.max(0, deadlineMs - now() - CLOSE_RESERVE_MS)));
    calibration?.stop();
    books.stop();
    feed.close();
    // Nothing writes the ledger once it is closed: passes still in flight (periodic check, feed-gap catch-up) end
    // without writing, and later fills and order changes are not recorded.
    ledgerSync.close();
    fills.close();
    orders.close();
    return { clean: report.clean };
  };

  return { start, stop };
}
