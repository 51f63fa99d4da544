/**
 * The venue's own reward figures beside the bot's estimates. Two timers, both reading the portfolio at the limiter's
 * lowest priority: the payout cycle (`rewards.payoutCycleSec`, a day on the live venue; the read comes
 * `rewards.payoutReadDelaySec` after each boundary) and, optionally, today's running figure (`rewards.venuePollSec`).
 * Each read stores today's figure per UTC day (`venue_rewards`, the day's latest reading wins), books every epoch the
 * venue reports PAID (per market and in total: src/ledger/payouts-repo.ts `venue_payouts`, once per market and epoch
 * across restarts), publishes the reconciliation of the paid against the estimates (src/ledger/reconcile-rewards.ts)
 * as metrics, and logs the names the unconfirmed epoch lists were read under (once, and whenever they change).
 *
 * Owns: the polls and the narrow typed input they take (`VenueRewardsReport`, from the exchange client's portfolio
 * answer through `venueRewardsOf`). Invariants: one read in flight at a time; a failed read or write is logged (at most
 * once per interval) and tried again at the next poll, never thrown into the timer; amounts are raw 1e6; an answer
 * that comes after `stop` is dropped, not written (the ledger closes after the stop).
 */
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import type { PortfolioPositions, PortfolioRewards } from '../exchange/wire.js';
import { DEFAULT_EPOCH_READ, readRewardEpochs, type EpochReadOptions, type ReadRewardEpoch } from '../exchange/wire-reward-epochs.js';
import { reconcileLedger } from '../ledger/reconcile-rewards.js';
import type { ReconciliationMetrics } from '../metrics/reconciliation-metrics.js';
import { errorText } from '../core/errors.js';
import { isTransportClosed } from '../exchange/errors.js';
import type { LedgerStore } from '../ledger/index.js';
import { DAY_MS, utcDayStart, VENUE_TOTAL_MARKET } from '../ledger/index.js';
import type { AppConfig } from '../config/index.js';

/** An epoch the venue reports PAID, for one market or the account ('*'), raw USDC. */
export interface PaidEpoch {
  readonly marketSlug: string;
  readonly epochStartMs: number | null;
  readonly epochEndMs: number;
  readonly rewardsRaw: number | null;
  readonly rebatesRaw: number | null;
  readonly paidAtMs: number | null;
  /** Which list of the answer said so. */
  readonly source: 'rewardsByEpoch' | 'rewardsByEpoch.markets' | 'clob.rewards.epochs';
}

/** What the venue reports of the account's liquidity rewards, raw USDC. */
export interface VenueRewardsReport {
  /** Today's rewards in total (`rewards.todaysRewards`); null when the answer has none. */
  readonly todayTotalRaw: number | null;
  /** Today's rewards per market, where the venue gives a per-market figure. */
  readonly markets: readonly { readonly marketSlug: string; readonly todayRaw: number }[];
  /** Paid epochs, per market and in total. */
  readonly paid?: readonly PaidEpoch[];
  /** The names the epoch lists were read under (src/exchange/wire-reward-epochs.ts), per list; null: nothing read. */
  readonly shapes?: { readonly account: string | null; readonly market: string | null };
  /** Epoch-list elements that could not be read. */
  readonly unreadableEpochs?: number;
  /** Each of them: its path in the answer and why. */
  readonly unreadablePaths?: readonly string[];
}

export type ReadVenueRewards = () => Promise<VenueRewardsReport>;

/** How the epoch lists are read and judged: the configured names and length, and the venue's payout schedule. */
export interface EpochJudging {
  readonly read: EpochReadOptions;
  /** The payout cycle and the time of day (ms after 00:00 UTC) its boundaries fall on. */
  readonly payoutCycleMs: number;
  readonly payoutAtUtcMs: number;
}

/** The documented shape read with the documented schedule: daily epochs, paid at 22:30 UTC. */
export const DEFAULT_EPOCH_JUDGING: EpochJudging = { read: DEFAULT_EPOCH_READ, payoutCycleMs: DAY_MS, payoutAtUtcMs: 22.5 * 3_600_000 };

/**
 * Whether the venue has paid an epoch as of `nowMs`: what the element says, else (the documented element says
 * nothing) its end is at or before the latest payout boundary.
 */
function paidBy(e: ReadRewardEpoch, latestPayoutMs: number): boolean {
  if (e.paid !== null) return e.paid && (e.endMs ?? e.paidAtMs) !== null;
  return e.endMs !== null && e.endMs <= latestPayoutMs;
}

/**
 * The portfolio answer's reward figures (`GET /portfolio/positions`, src/exchange/wire-rewards.ts) as this poller reads
 * them at `nowMs`: today's total (`rewards.todaysRewards`) and, per market, the open epoch's rewards; the paid epochs
 * of the account (`rewardsByEpoch`: the documented `{epochId, timestamp, totalRewards, userRewards, earnedPercent}`,
 * `userRewards` being the account's; a per-market breakdown where it has one) and of each market
 * (`clob[].rewards.epochs`). Unreadable elements are counted and named by their path.
 */
export function venueRewardsOf(portfolio: Pick<PortfolioPositions, 'clob'> & { readonly rewards?: PortfolioRewards | undefined }, nowMs: number, judging: EpochJudging = DEFAULT_EPOCH_JUDGING): VenueRewardsReport {
  const options = judging.read;
  const latest = latestPayoutMs(nowMs, judging.payoutCycleMs, judging.payoutAtUtcMs);
  const paid: PaidEpoch[] = [];
  const markets: { marketSlug: string; todayRaw: number }[] = [];
  const unreadablePaths: string[] = [];
  let marketShape: string | null = null;
  for (const position of portfolio.clob) {
    if (position.rewards === undefined) continue;
    const reading = readRewardEpochs(position.rewards.rawEpochs, options);
    for (const item of reading.unreadableItems) unreadablePaths.push(`${position.list ?? 'clob'}[${position.marketSlug}].rewards.epochs[${item.index}]: ${item.reason}`);
    marketShape ??= reading.shape;
    const open = reading.epochs.find((e) => !paidBy(e, latest) && (e.startMs ?? Number.NEGATIVE_INFINITY) <= nowMs);
    if (open?.rewardsRaw !== null && open?.rewardsRaw !== undefined) markets.push({ marketSlug: position.marketSlug, todayRaw: open.rewardsRaw });
    for (const e of reading.epochs.filter((x) => paidBy(x, latest))) {
      paid.push({ marketSlug: position.marketSlug, epochStartMs: e.startMs, epochEndMs: e.endMs ?? e.paidAtMs ?? 0, rewardsRaw: e.rewardsRaw, rebatesRaw: e.rebatesRaw, paidAtMs: e.paidAtMs, source: 'clob.rewards.epochs' });
    }
  }
  const account = readRewardEpochs(portfolio.rewards?.rawEpochs ?? [], options);
  for (const item of account.unreadableItems) unreadablePaths.push(`rewards.rewardsByEpoch[${item.index}]: ${item.reason}`);
  for (const e of account.epochs.filter((x) => paidBy(x, latest))) {
    const epochEndMs = e.endMs ?? e.paidAtMs ?? 0;
    paid.push({ marketSlug: VENUE_TOTAL_MARKET, epochStartMs: e.startMs, epochEndMs, rewardsRaw: e.rewardsRaw, rebatesRaw: e.rebatesRaw, paidAtMs: e.paidAtMs, source: 'rewardsByEpoch' });
    for (const m of e.markets) paid.push({ marketSlug: m.marketSlug, epochStartMs: e.startMs, epochEndMs, rewardsRaw: m.rewardsRaw, rebatesRaw: m.rebatesRaw, paidAtMs: e.paidAtMs, source: 'rewardsByEpoch.markets' });
  }
  return {
    todayTotalRaw: portfolio.rewards?.todaysRewardsRaw ?? null,
    markets,
    paid,
    shapes: { account: account.shape, market: marketShape },
    unreadableEpochs: unreadablePaths.length,
    unreadablePaths,
  };
}

export interface VenueRewardsMetrics extends Pick<ReconciliationMetrics, 'rewardReconciled' | 'venueEpochsUnreadable'> {
  venueRewards(market: string, rewardRaw: number): void;
}

export interface VenueRewardsPollerDeps {
  readonly read: ReadVenueRewards;
  readonly ledger: Pick<LedgerStore, 'rewards' | 'payouts'>;
  readonly scheduler: Scheduler;
  /** How often today's running figure is read; 0: only on the payout cycle. */
  readonly intervalMs: number;
  /** The venue's payout cycle: a read follows each boundary (`payoutAtUtcMs` plus whole cycles) by `payoutReadDelayMs`. */
  readonly payoutCycleMs: number;
  /** The time of day (ms after 00:00 UTC) the payouts fall on: 22:30 UTC on the live venue. */
  readonly payoutAtUtcMs: number;
  readonly payoutReadDelayMs: number;
  readonly metrics: VenueRewardsMetrics;
  readonly log: Pick<Logger, 'warn' | 'info'>;
}

export class VenueRewardsPoller {
  private cancels: (() => void)[] = [];
  private inFlight: Promise<void> | null = null;
  private loggedShapes = '';
  private loggedFailAtMs = Number.NEGATIVE_INFINITY;
  /** Set by `stop`: a read still in flight then writes nothing (the ledger closes after the stop). */
  private stopped = false;

  constructor(private readonly deps: VenueRewardsPollerDeps) {}

  start(): void {
    this.stopped = false;
    if (this.cancels.length > 0) return;
    const every = (delayOf: () => number): void => {
      const arm = (): void => {
        const cancel = this.deps.scheduler.schedule(delayOf(), () => {
          void this.poll();
          if (this.cancels.includes(cancel)) {
            this.cancels = this.cancels.filter((c) => c !== cancel);
            arm();
          }
        });
        this.cancels.push(cancel);
      };
      arm();
    };
    if (this.deps.intervalMs > 0) every(() => this.deps.intervalMs);
    if (this.deps.payoutCycleMs > 0) every(() => nextPayoutReadMs(this.deps.scheduler.now(), this.deps.payoutCycleMs, this.deps.payoutReadDelayMs, this.deps.payoutAtUtcMs) - this.deps.scheduler.now());
  }

  stop(): void {
    this.stopped = true;
    for (const cancel of this.cancels) cancel();
    this.cancels = [];
  }

  /** Reads the venue's figures once: today's under today (UTC), each newly paid epoch once, then the reconciliation. */
  poll(): Promise<void> {
    this.inFlight ??= this.read().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async read(): Promise<void> {
    try {
      const report = await this.deps.read();
      // An answer that comes after the stop is not written: the ledger closes once the stop is done.
      if (this.stopped) return;
      const readAtMs = this.deps.scheduler.now();
      const dayStartMs = utcDayStart(readAtMs);
      const rows = [...report.markets.map((m) => ({ market: m.marketSlug, raw: m.todayRaw })), ...(report.todayTotalRaw === null ? [] : [{ market: VENUE_TOTAL_MARKET, raw: report.todayTotalRaw }])];
      for (const row of rows) {
        this.deps.ledger.rewards.recordVenueReward({ dayStartMs, marketSlug: row.market, rewardRaw: row.raw, readAtMs });
        this.deps.metrics.venueRewards(row.market, row.raw);
      }
      this.noteShapes(report);
      let booked = 0;
      for (const epoch of report.paid ?? []) if (this.deps.ledger.payouts.recordPayout(epoch)) booked += 1;
      if (booked > 0) this.publishReconciliation();
    } catch (error) {
      // A read caught by the stop (the client closed under it) is not a failure: nothing is written, nothing to retry.
      if (isTransportClosed(error) || this.stopped) return;
      const now = this.deps.scheduler.now();
      if (now - this.loggedFailAtMs < Math.max(this.deps.intervalMs, this.deps.payoutCycleMs, 1)) return;
      this.loggedFailAtMs = now;
      this.deps.log.warn({ err: errorText(error) }, 'venue rewards: read or write failed; tried again at the next poll');
    }
  }

  /** The epoch lists' shape is unconfirmed: say which names matched, once and again whenever it changes. */
  private noteShapes(report: VenueRewardsReport): void {
    const unreadable = report.unreadableEpochs ?? 0;
    this.deps.metrics.venueEpochsUnreadable(unreadable);
    const shapes = report.shapes ?? { account: null, market: null };
    const key = `${shapes.account ?? '-'}|${shapes.market ?? '-'}|${unreadable > 0}`;
    if (key === this.loggedShapes || (shapes.account === null && shapes.market === null && unreadable === 0)) return;
    this.loggedShapes = key;
    this.deps.log.info({ rewardsByEpoch: shapes.account, marketEpochs: shapes.market, unreadableEpochs: unreadable }, 'venue rewards: the epoch lists were read under these names (unconfirmed shape; rewards.venueEpochs)');
  }

  private publishReconciliation(): void {
    for (const row of reconcileLedger(this.deps.ledger.payouts).markets) {
      this.deps.metrics.rewardReconciled(row.marketSlug, 'rewards', row.rewards.estimateRaw, row.rewards.paidRaw);
      this.deps.metrics.rewardReconciled(row.marketSlug, 'rebates', row.rebates.estimateRaw, row.rebates.paidRaw);
    }
  }
}

/**
 * The polls' timing from the config: the payout cycle is the configured one, else a day live and the simulator's own;
 * its boundaries fall on the configured time of day (the venue pays at 22:30 UTC; on the embedded simulator, the
 * simulator's own payout time); the read comes the configured delay after each boundary, else a fifth of the cycle
 * (at most 300 s).
 */
export function venuePollTimes(config: Pick<AppConfig, 'rewards' | 'venue'>): Pick<VenueRewardsPollerDeps, 'intervalMs' | 'payoutCycleMs' | 'payoutReadDelayMs' | 'payoutAtUtcMs'> {
  const sim = config.venue.kind === 'sim' ? config.venue.rewards : null;
  const payoutCycleMs = config.rewards.payoutCycleMs ?? sim?.payoutIntervalMs ?? DAY_MS;
  const payoutAtUtcMs = sim?.payoutAtUtcMs ?? config.rewards.payoutAtUtcMs;
  return { intervalMs: config.rewards.venuePollMs, payoutCycleMs, payoutAtUtcMs, payoutReadDelayMs: config.rewards.payoutReadDelayMs ?? Math.min(300_000, Math.round(payoutCycleMs / 5)) };
}

/** How the epoch lists are judged under this config (venuePollTimes' cycle and payout time; the configured names). */
export function epochJudging(config: Pick<AppConfig, 'rewards' | 'venue'>): EpochJudging {
  const times = venuePollTimes(config);
  const { fields, epochLengthMs } = config.rewards.venueEpochs;
  return { read: { fields, epochLengthMs: epochLengthMs ?? times.payoutCycleMs }, payoutCycleMs: times.payoutCycleMs, payoutAtUtcMs: times.payoutAtUtcMs };
}

/** The latest payout boundary at or before `nowMs`: `atMs` (a time of day) plus whole cycles since 00:00 UTC 1970. */
export function latestPayoutMs(nowMs: number, cycleMs: number, atMs = 0): number {
  return Math.floor((nowMs - atMs) / cycleMs) * cycleMs + atMs;
}

/** When the paid figures are next read: `delayMs` after the next payout boundary (`atMs` plus whole cycles). */
export function nextPayoutReadMs(nowMs: number, cycleMs: number, delayMs: number, atMs = 0): number {
  return latestPayoutMs(nowMs - delayMs, cycleMs, atMs) + cycleMs + delayMs;
}
