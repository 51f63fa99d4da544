/**
 * Deferred own-order listings: "listing deferred, not skipped". A market the caller lets quote before its listing
 * (`ExecutorOptions.deferListing`: the bot's ledger knows no open order of it there) is made ready at once
 * (market-sync.ts `readyBeforeListing`); its listing (`GET /markets/{slug}/user-orders`) is read here in the background,
 * off the market's queue, and applied on the market's queue by market-sync.ts `applyDeferredListing`: an order of the
 * bot this run does not know is adopted or canceled as at start-up, counted and logged. The listing is sent once the
 * market's first plan ran to its end (its first quotes are out: it never holds them back), or `RAISE_AFTER_MS` after the
 * market was made ready if no plan ran by then, and goes in the limiter's PROBE class (ListOptions.deferred): ahead of
 * every placement and requote, behind cancels only, so each deferred listing starts within about one limiter slot per
 * market of its market's first quote however saturated the limit is; its answer is applied right after the market's
 * plan in flight, ahead of a plan still waiting on the market's queue.
 *
 * Owns: the background listings, their retries, the count of those still to do, and the one summary line once the
 * last of a burst is done (how many, how long, what they found).
 *
 * Invariants: a deferred market is always listed — a failed listing is tried again (the lookup backoff, doubling up to
 * `unknownOrders.maxBackoffMs`) for as long as the executor runs and the market is not being left (a leave's or a
 * shutdown's sweep then lists the market itself and cancels any order of the bot it finds); at most one deferred
 * listing per market at a time; the listing's answer is applied after the plan in flight and never once stopping; no
 * deferred listing is sent before its market's first plan ended or `RAISE_AFTER_MS` passed.
 */
import type { Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import { isActive, sleep, type ExecutorContext } from './executor-context.js';
import type { MarketState } from './market-state.js';
import type { MarketSync } from './market-sync.js';
import type { OutcomeResolver } from './outcome-resolver.js';

/** The longest a deferred listing waits for its market's first plan (a market that does not quote is listed anyway). */
export const RAISE_AFTER_MS = 10_000;

interface Burst {
  readonly startedAtMs: number;
  markets: number;
  adopted: number;
  canceled: number;
  foreign: number;
  failedAttempts: number;
}

export class DeferredListings {
  private readonly pending = new Set<string>();
  /** Markets whose deferred listing was never applied (kept while registered, whether or not one is under way). */
  private readonly unlisted = new Set<string>();
  private burst: Burst | null = null;

  constructor(
    private readonly ctx: ExecutorContext,
    private readonly sync: MarketSync,
    private readonly resolver: Pick<OutcomeResolver, 'backoff'>,
  ) {}

  /** Markets made ready whose deferred listing is not applied yet. */
  get outstanding(): number {
    return this.pending.size;
  }

  /** True while the market's deferred listing was not applied: the executor does not know all of the bot's orders there. */
  isUnlisted(slug: string): boolean {
    return this.unlisted.has(slug);
  }

  /** Lists the market in the background and applies what it finds (no-op when its listing is already under way). */
  schedule(market: MarketState): void {
    if (this.pending.has(market.slug)) return;
    this.pending.add(market.slug);
    this.unlisted.add(market.slug);
    this.burst ??= { startedAtMs: this.ctx.scheduler.now(), markets: 0, adopted: 0, canceled: 0, foreign: 0, failedAttempts: 0 };
    this.burst.markets += 1;
    void this.run(market, this.ctx.scheduler.now())
      .catch((error: unknown) => this.ctx.log.error({ market: market.slug, err: errorText(error, { withName: true }) }, 'deferred listing failed'))
      .finally(() => this.done(market.slug));
  }

  private async run(market: MarketState, readyAtMs: number): Promise<void> {
    const { venue, scheduler, observer } = this.ctx;
    // After the market's first quotes: then ahead of every requote (probe class), never holding a first quote back.
    await firstPlanOrTimeout(scheduler, market);
    for (let attempt = 0; this.wanted(market); attempt += 1) {
      const listedAtMs = scheduler.now();
      const listed = await venue.listLiveOrders(market.slug, { deferred: true }).catch((error: unknown) => {
        observer.onRequestError('listLiveOrders', market.slug, error);
        return null;
      });
      if (listed === null) {
        observer.onDeferredListing(market.slug, { failedAttempt: attempt + 1 });
        if (this.burst !== null) this.burst.failedAttempts += 1;
        await sleep(scheduler, this.resolver.backoff(attempt));
        continue;
      }
      // Right after the plan in flight, ahead of a plan still waiting (it is computed when it starts: it sees the result).
      const report = await market.queue.add(async () => (this.wanted(market) ? this.sync.applyDeferredListing(market, listed, listedAtMs) : null), { priority: 1 });
      if (report === null || report === undefined) return;
      this.unlisted.delete(market.slug);
      if (this.burst !== null) {
        this.burst.adopted += report.adopted;
        this.burst.canceled += report.canceled;
        this.burst.foreign += report.foreign;
      }
      observer.onDeferredListing(market.slug, { report, delayMs: scheduler.now() - readyAtMs });
      return;
    }
  }

  /** Running (or starting), the market still registered and not being left. */
  private wanted(market: MarketState): boolean {
    return isActive(this.ctx.lifecycle()) && this.ctx.markets.get(market.slug) === market && !market.retired;
  }

  private done(slug: string): void {
    this.pending.delete(slug);
    if (this.ctx.markets.get(slug) === undefined) this.unlisted.delete(slug);
    const burst = this.burst;
    if (this.pending.size > 0 || burst === null) return;
    this.burst = null;
    const { markets, adopted, canceled, foreign, failedAttempts } = burst;
    this.ctx.log.info({ markets, durationMs: this.ctx.scheduler.now() - burst.startedAtMs, adopted, canceled, foreign, failedAttempts }, 'deferred own-order listings done');
  }
}

/** Resolves when the market's first plan ended or `RAISE_AFTER_MS` passed, whichever first (the timer disarmed then). */
function firstPlanOrTimeout(scheduler: Scheduler, market: MarketState): Promise<void> {
  return new Promise((resolve) => {
    const cancel = scheduler.schedule(RAISE_AFTER_MS, resolve);
    void market.firstPlanDone.then(() => {
      cancel();
      resolve();
    });
  });
}
