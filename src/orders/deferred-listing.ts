/**
 * Deferred own-order listings: "listing deferred, not skipped". A market the caller lets quote before its listing
 * (`ExecutorOptions.deferListing`: the bot's ledger knows no open order of it there) is made ready at once
 * (market-sync.ts `readyBeforeListing`); its listing (`GET /markets/{slug}/user-orders`) is read here in the background,
 * off the market's queue, in the limiter's read class — behind every cancel, probe, placement and first-quote read, so
 * it never holds back a quote — and applied on the market's queue by market-sync.ts `applyDeferredListing`: an order of
 * the bot this run does not know is adopted or canceled as at start-up, counted and logged.
 *
 * Owns: the background listings, their retries, the count of those still to do, and the one summary line once the
 * last of a burst is done (how many, how long, what they found).
 *
 * Invariants: a deferred market is always listed — a failed listing is tried again (the lookup backoff, doubling up to
 * `unknownOrders.maxBackoffMs`) for as long as the executor runs and the market is not being left (a leave's or a
 * shutdown's sweep then lists the market itself and cancels any order of the bot it finds); at most one deferred
 * listing per market at a time; the listing's answer is applied after the plan in flight and never once stopping.
 */
import { errorText } from '../core/errors.js';
import { isActive, sleep, type ExecutorContext } from './executor-context.js';
import type { MarketState } from './market-state.js';
import type { MarketSync } from './market-sync.js';
import type { OutcomeResolver } from './outcome-resolver.js';

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

  /** Lists the market in the background and applies what it finds (no-op when its listing is already under way). */
  schedule(market: MarketState): void {
    if (this.pending.has(market.slug)) return;
    this.pending.add(market.slug);
    this.burst ??= { startedAtMs: this.ctx.scheduler.now(), markets: 0, adopted: 0, canceled: 0, foreign: 0, failedAttempts: 0 };
    this.burst.markets += 1;
    void this.run(market, this.ctx.scheduler.now())
      .catch((error: unknown) => this.ctx.log.error({ market: market.slug, err: errorText(error, { withName: true }) }, 'deferred listing failed'))
      .finally(() => this.done(market.slug));
  }

  private async run(market: MarketState, readyAtMs: number): Promise<void> {
    const { venue, scheduler, observer } = this.ctx;
    for (let attempt = 0; this.wanted(market); attempt += 1) {
      const listedAtMs = scheduler.now();
      const listed = await venue.listLiveOrders(market.slug).catch((error: unknown) => {
        observer.onRequestError('listLiveOrders', market.slug, error);
        return null;
      });
      if (listed === null) {
        observer.onDeferredListing(market.slug, { failedAttempt: attempt + 1 });
        if (this.burst !== null) this.burst.failedAttempts += 1;
        await sleep(scheduler, this.resolver.backoff(attempt));
        continue;
      }
      const report = await market.queue.add(async () => (this.wanted(market) ? this.sync.applyDeferredListing(market, listed, listedAtMs) : null));
      if (report === null || report === undefined) return;
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
    const burst = this.burst;
    if (this.pending.size > 0 || burst === null) return;
    this.burst = null;
    const { markets, adopted, canceled, foreign, failedAttempts } = burst;
    this.ctx.log.info({ markets, durationMs: this.ctx.scheduler.now() - burst.startedAtMs, adopted, canceled, foreign, failedAttempts }, 'deferred own-order listings done');
  }
}
