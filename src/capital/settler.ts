/**
 * Settler: after a market resolves, brings its payout into the ledger and, for a server-managed-wallet account,
 * redeems the winnings once (`POST /portfolio/redeem`), retrying until the venue has posted the payout.
 *
 * One job per resolved market, one attempt at a time, on the injected scheduler. An attempt:
 *   1. the resolution in the ledger (from the `marketResolved` frame; or `GET /markets/{slug}` when the frame had no
 *      winner, e.g. a payout split, or when the market resolved while the bot was down);
 *   2. done when the ledger already holds the redemption, or redemption is off, refused for this account, or a dry run;
 *   3. the venue's token balances of the market (`GET /portfolio/positions`) → redeem, already redeemed, or nothing
 *      (see rules.ts `beforeRedeem`);
 *   4. redeem, and record the payout (the answer's figure, else the one computed from the balances) in the ledger.
 * A failure is retried with a doubling delay (capped), for as long as the process runs; 403 stops API redemption for
 * the account and hands its markets to the on-chain path (src/capital/core.ts redeems them, `apiRedeems()`); a malformed request or an unknown market gives that market up.
 *
 * Owns: the jobs and their timers. Invariants: a redemption is recorded once per market (the ledger's key is the
 * market); a redeem is sent only when the venue shows a redeemable balance, so a repeated attempt after a lost
 * answer finds the tokens gone and records the payout instead of redeeming twice; nothing runs after `stop()`.
 */
import type { Logger } from 'pino';
import type { Scheduler } from '../core/clock.js';
import type { Market } from '../exchange/wire.js';
import type { LedgerStore } from '../ledger/index.js';
import type { ResolutionInput } from '../ledger/types.js';
import type { RedemptionResult } from '../metrics/metrics.js';
import { beforeRedeem, classifyRedeemFailure, payoutFromAnswer, resolutionOfMarket, retryDelayMs } from './settlement-rules.js';
import { errorText } from '../core/errors.js';

/** The venue reads and the one write the settler needs (ExchangeApi has them). */
export interface SettlementApi {
  getMarket(slug: string): Promise<Pick<Market, 'slug' | 'conditionId' | 'winningOutcomeIndex' | 'payoutNumerators'>>;
  /** `known`: a position whose market came without a slug is placed by its condition id (ExchangeApi.getPositions). */
  getPositions(known?: readonly { readonly slug: string; readonly conditionId: string | null }[]): Promise<readonly { readonly marketSlug: string; readonly yesBalanceRaw: number; readonly noBalanceRaw: number }[]>;
  redeem(conditionId: string): Promise<Readonly<Record<string, unknown>> | null>;
}

export type SettlementLedger = Pick<LedgerStore, 'getResolution' | 'recordResolution' | 'recordRedemption' | 'settlement' | 'resolutions' | 'tokenBalances'>;

export interface SettlerObserver {
  onResult?(market: string, result: RedemptionResult, amountRaw?: number): void;
  onPending?(count: number): void;
}

export interface SettlerOptions {
  readonly api: SettlementApi;
  readonly ledger: SettlementLedger;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** 'auto': redeem through the API (a 403 answer turns it off for the account); 'off': never. */
  readonly redeem: 'auto' | 'off';
  /** Log what would be redeemed, send nothing. */
  readonly dryRun: boolean;
  readonly retry: { readonly initialMs: number; readonly maxMs: number };
  /** Condition ids already known (the markets this run trades); others are read with GET /markets/{slug}. */
  readonly conditionIds?: ReadonlyMap<string, string | null>;
  readonly observer?: SettlerObserver;
}

interface Job {
  attempt: number;
  running: boolean;
  cancelTimer: (() => void) | null;
  conditionId: string | null;
  lastSeenRedeemableRaw: number | null;
  knownResolved: boolean;
}

type StepEnd = 'done' | 'retry';

export class Settler {
  private readonly jobs = new Map<string, Job>();
  private refused = false;
  private stopped = false;

  constructor(private readonly options: SettlerOptions) {}

  /** A `marketResolved` frame: records the winner (when the frame names one) and starts the market's job. */
  resolved(slug: string, winningIndex: number | null, resolvedAtMs: number): void {
    if (this.stopped) return;
    if (winningIndex === 0 || winningIndex === 1) this.recordResolution(slug, { winningOutcomeIndex: winningIndex }, resolvedAtMs);
    this.start(slug, true);
  }

  /**
   * Start-up: resumes every market the ledger knows resolved with a payout still receivable, and checks on the venue
   * the markets the ledger holds tokens in that are neither resolved in the ledger nor traded by this run (`traded`):
   * one that resolved while the bot was down is recorded and settled like the others.
   */
  resume(traded: ReadonlySet<string>): void {
    if (this.stopped) return;
    const { ledger } = this.options;
    for (const resolution of ledger.resolutions()) {
      if ((ledger.settlement(resolution.marketSlug)?.receivableRaw ?? 0) > 0) this.start(resolution.marketSlug, true);
    }
    const held = new Set(ledger.tokenBalances().filter((b) => b.balanceRaw > 0).map((b) => b.marketSlug));
    for (const slug of held) if (!traded.has(slug) && ledger.getResolution(slug) === null) this.start(slug, false);
  }

  /**
   * Whether the API redeems for this account: redemption 'auto' and no 403 yet. Once it does not, the capital core
   * (src/capital/core.ts) redeems the resolved markets on-chain.
   */
  apiRedeems(): boolean {
    return this.options.redeem === 'auto' && !this.refused;
  }

  /** Markets whose job is not finished. */
  pending(): string[] {
    return [...this.jobs.keys()];
  }

  stop(): void {
    this.stopped = true;
    for (const job of this.jobs.values()) job.cancelTimer?.();
    this.jobs.clear();
    this.publishPending();
  }

  /** `knownResolved`: a frame or the ledger says the market resolved (else the job only checks whether it did). */
  private start(slug: string, knownResolved: boolean): void {
    const existing = this.jobs.get(slug);
    if (existing) {
      existing.knownResolved ||= knownResolved;
      return;
    }
    this.jobs.set(slug, {
      attempt: 0,
      running: false,
      cancelTimer: null,
      conditionId: this.options.conditionIds?.get(slug) ?? null,
      lastSeenRedeemableRaw: null,
      knownResolved,
    });
    this.publishPending();
    this.schedule(slug, 0);
  }

  private schedule(slug: string, delayMs: number): void {
    const job = this.jobs.get(slug);
    if (!job || this.stopped) return;
    job.cancelTimer = this.options.scheduler.schedule(delayMs, () => {
      job.cancelTimer = null;
      void this.run(slug, job);
    });
  }

  private async run(slug: string, job: Job): Promise<void> {
    if (job.running || this.stopped) return;
    job.running = true;
    job.attempt += 1;
    let end: StepEnd;
    try {
      end = await this.step(slug, job);
    } catch (error) {
      end = this.failed(slug, error);
    } finally {
      job.running = false;
    }
    if (this.stopped || this.jobs.get(slug) !== job) return;
    if (end === 'done') {
      this.jobs.delete(slug);
      this.publishPending();
      return;
    }
    const { initialMs, maxMs } = this.options.retry;
    this.schedule(slug, retryDelayMs(job.attempt, initialMs, maxMs));
  }

  private async step(slug: string, job: Job): Promise<StepEnd> {
    const { api, ledger, log } = this.options;
    if (ledger.getResolution(slug) === null) {
      const market = await api.getMarket(slug);
      job.conditionId ??= market.conditionId;
      const resolution = resolutionOfMarket(market);
      if (resolution === null) {
        // Resolved by the feed but not yet by the venue's REST view (retry), or — at start-up — simply still open.
        if (!job.knownResolved) return 'done';
        this.options.observer?.onResult?.(slug, 'retry');
        log.info({ market: slug, attempt: job.attempt }, 'resolution not visible on the venue yet; will look again');
        return 'retry';
      }
      this.recordResolution(slug, resolution, this.options.scheduler.now());
    }
    const settlement = ledger.settlement(slug);
    if (settlement === null) return 'done';
    if (settlement.redeemedRaw > 0) return 'done';
    if (this.options.redeem === 'off' || this.refused) {
      if (settlement.receivableRaw > 0) log.info({ market: slug, receivableRaw: settlement.receivableRaw }, 'payout receivable; redemption through the API is off for this account (redeem on-chain)');
      return 'done';
    }
    const conditionId = job.conditionId ?? (await api.getMarket(slug)).conditionId;
    job.conditionId = conditionId;
    if (conditionId === null) {
      this.options.observer?.onResult?.(slug, 'failed');
      log.error({ market: slug }, 'cannot redeem: the venue gives the market no conditionId');
      return 'done';
    }
    const position = (await api.getPositions([{ slug, conditionId }])).find((p) => p.marketSlug === slug);
    const resolution = ledger.getResolution(slug);
    if (resolution === null) return 'done';
    const decision = beforeRedeem({
      venueYesRaw: position?.yesBalanceRaw ?? 0,
      venueNoRaw: position?.noBalanceRaw ?? 0,
      rule: resolution,
      ledgerReceivableRaw: settlement.receivableRaw,
      lastSeenRedeemableRaw: job.lastSeenRedeemableRaw,
    });
    if (decision.kind === 'nothing') {
      this.options.observer?.onResult?.(slug, 'nothing');
      log.info({ market: slug, venueYesRaw: position?.yesBalanceRaw ?? 0, venueNoRaw: position?.noBalanceRaw ?? 0 }, 'resolved market: nothing to redeem');
      return 'done';
    }
    if (decision.kind === 'already-redeemed') {
      this.recordRedemption(slug, decision.amountRaw, 'inferred');
      log.warn({ market: slug, amountRaw: decision.amountRaw }, 'the venue holds none of the market\'s tokens any more: the redemption happened (answer lost or not recorded); payout recorded');
      return 'done';
    }
    job.lastSeenRedeemableRaw = decision.expectedRaw;
    if (this.options.dryRun) {
      log.info({ market: slug, conditionId, expectedRaw: decision.expectedRaw }, 'dry run: would redeem');
      return 'done';
    }
    const answer = await api.redeem(conditionId);
    const reported = payoutFromAnswer(answer);
    if (reported !== null && reported !== decision.expectedRaw) {
      log.warn({ market: slug, reportedRaw: reported, expectedRaw: decision.expectedRaw }, 'the venue paid a different amount than the balances imply; its figure is recorded');
    }
    const amountRaw = reported ?? decision.expectedRaw;
    this.recordRedemption(slug, amountRaw, 'redeemed');
    log.info({ market: slug, amountRaw, attempts: job.attempt }, 'redeemed');
    return 'done';
  }

  private failed(slug: string, error: unknown): StepEnd {
    const failure = classifyRedeemFailure(error);
    const log = this.options.log;
    if (failure.action === 'refused') {
      if (!this.refused) log.warn({ market: slug, reason: failure.reason }, 'the venue refuses API redemption for this account (not a server-managed wallet, or the token lacks scope trading): its markets go to the on-chain path (capital.mode)');
      this.refused = true;
      this.options.observer?.onResult?.(slug, 'refused');
      return 'done';
    }
    if (failure.action === 'give-up') {
      log.error({ market: slug, reason: failure.reason }, 'redemption given up for this market: retrying cannot help');
      this.options.observer?.onResult?.(slug, 'failed');
      return 'done';
    }
    this.options.observer?.onResult?.(slug, 'retry');
    const job = this.jobs.get(slug);
    log[job !== undefined && job.attempt <= 1 ? 'info' : 'debug']({ market: slug, attempt: job?.attempt, reason: failure.reason }, 'redemption not possible yet; will retry');
    return 'retry';
  }

  private recordResolution(slug: string, input: ResolutionInput, atMs: number): void {
    try {
      this.options.ledger.recordResolution(slug, input, atMs);
    } catch (error) {
      this.options.log.error({ market: slug, err: errorText(error) }, 'could not record the resolution in the ledger');
    }
  }

  private recordRedemption(slug: string, amountRaw: number, result: 'redeemed' | 'inferred'): void {
    const outcome = this.options.ledger.recordRedemption(slug, amountRaw, { atMs: this.options.scheduler.now() });
    this.options.observer?.onResult?.(slug, result, outcome === 'inserted' ? amountRaw : undefined);
  }

  private publishPending(): void {
    this.options.observer?.onPending?.(this.jobs.size);
  }
}
