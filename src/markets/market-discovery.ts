/**
 * Discovery: which markets the bot should trade, re-decided while it runs. The venue lists a new hourly ladder every
 * hour and each market lives a fixed time, so the set worth quoting keeps changing.
 *
 * Sources of candidates: the start-up selection; the venue's lifecycle channel (`marketCreated` → the market's details
 * read once; `marketResolved` → dropped); and a slow poll of `GET /markets/active` (paged, at the limiter's lowest
 * priority), which also catches whatever a disconnect made the socket miss. Every `evaluateIntervalMs` (and soon after
 * any change of the candidates) the selection rules (src/markets/market-selection.ts, pure) are run over the candidates
 * with each one's model fair value, and the difference with the joined set goes to the roster as one plan: joins, and
 * leaves with their reason. A joined market also leaves at its stop before settlement (`leaveAtMs`): quoting has
 * stopped there, and its book, guard and metric series are released.
 *
 * Owns: the candidates and the moment of each evaluation. Invariants: at most one evaluation runs at a time (a change
 * meanwhile asks for one more); a listing or details read that fails changes nothing (logged, retried at the next
 * poll); a candidate whose details show it resolved or expired is dropped; nothing runs after `stop()`.
 */
import type { Logger } from 'pino';
import type { CancelTimer, Scheduler } from '../core/clock.js';
import { errorText } from '../core/errors.js';
import type { Market } from '../exchange/wire.js';
import type { MarketCreatedFrame } from '../exchange/lifecycle-wire.js';
import type { RosterPlan } from './market-roster.js';

/** What the selection needs of a candidate, and what it answers (src/markets/market-selection.ts). */
export interface DiscoveryCandidate {
  readonly market: Market;
  readonly fair: number | null;
  /** A listing entry without its venue and tokens: selected provisionally, its details read before it joins. */
  readonly detailsPending: boolean;
}
export interface DiscoverySelection {
  readonly selected: readonly Market[];
  readonly skipped: ReadonlyMap<string, string>;
}

export interface DiscoveryOptions {
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** Every active market (paged), at the lowest priority. */
  readonly listActive: () => Promise<readonly Market[]>;
  /** One market's details (GET /markets/{slug}). */
  readonly details: (slug: string) => Promise<Market>;
  /** The selection rules over the candidates (bound to the config). */
  readonly select: (input: { readonly candidates: readonly DiscoveryCandidate[]; readonly nowMs: number; readonly current: ReadonlySet<string> }) => DiscoverySelection;
  /** The model's fair value of a market (null: not priced, or no price yet). */
  readonly fairOf: (market: Market) => number | null;
  /** When a joined market stops being quoted (its stop before settlement); null when it has no expiry. */
  readonly leaveAtMs: (market: Market) => number | null;
  /** The joined markets, and where plans go. */
  readonly roster: { current(): ReadonlySet<string>; apply(plan: RosterPlan): Promise<void> };
  readonly pollIntervalMs: number;
  readonly evaluateIntervalMs: number;
}

/** How soon after a change of the candidates the selection runs again. */
export const EVALUATE_SOON_MS = 250;
/** How often the selection runs anyway (a market reaching its stop, a fair value leaving the band). */
export const SELECTION_EVERY_MS = 5_000;

export class MarketDiscovery {
  private readonly candidates = new Map<string, Market>();
  /** Details reads of `marketCreated` markets in flight, and whether one of them added a candidate not judged yet. */
  private detailsReading = 0;
  private createdPending = false;
  /** Candidates whose details were read: judged as they are, never read again (a listing entry is read once). */
  private readonly detailed = new Set<string>();
  private skipped: ReadonlyMap<string, string> = new Map();
  private pollTimer: CancelTimer | null = null;
  private evaluateTimer: CancelTimer | null = null;
  private soon: CancelTimer | null = null;
  private evaluating = false;
  private again = false;
  private stopped = false;
  private lastPlan: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: DiscoveryOptions,
    initial: readonly Market[],
  ) {
    for (const market of initial) this.candidates.set(market.slug, market);
  }

  /** Arms the poll and the periodic evaluation. */
  start(): void {
    const { scheduler } = this.options;
    const poll = (): void => {
      this.pollTimer = this.stopped ? null : scheduler.schedule(this.options.pollIntervalMs, poll);
      void this.poll();
    };
    const evaluate = (): void => {
      this.evaluateTimer = this.stopped ? null : scheduler.schedule(this.options.evaluateIntervalMs, evaluate);
      // New markets read but not judged while others of the same listing are still being read: judged with them.
      if (this.createdPending && this.detailsReading > 0) return;
      void this.evaluate();
    };
    this.pollTimer = scheduler.schedule(this.options.pollIntervalMs, poll);
    this.evaluateTimer = scheduler.schedule(this.options.evaluateIntervalMs, evaluate);
  }

  /** No poll or evaluation starts after this; resolves once a plan in flight ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pollTimer?.();
    this.evaluateTimer?.();
    this.soon?.();
    await this.lastPlan;
  }

  /** Why each candidate not joined is not (the last evaluation's). */
  skippedReasons(): ReadonlyMap<string, string> {
    return this.skipped;
  }

  candidateCount(): number {
    return this.candidates.size;
  }

  /** The listed candidates (read-only: the next expected join is read from them). */
  candidateMarkets(): readonly Market[] {
    return [...this.candidates.values()];
  }

  /** A `marketCreated` frame of the lifecycle channel: the market's details read, then the selection re-run. */
  async created(frame: MarketCreatedFrame): Promise<void> {
    if (this.stopped || frame.type !== 'CLOB' || this.candidates.has(frame.slug)) return;
    this.detailsReading += 1;
    try {
      const market = await this.options.details(frame.slug);
      if (this.stopped || market.resolved || market.expired) return;
      this.candidates.set(market.slug, market);
      this.detailed.add(market.slug);
      this.options.log.info({ market: market.slug, title: market.title }, 'new market listed');
      this.createdPending = true;
    } catch (error) {
      this.options.log.warn({ market: frame.slug, err: errorText(error) }, 'a new market could not be read: the next listing poll picks it up');
    } finally {
      this.detailsReading -= 1;
      // A ladder listed at once is judged at once, after the last of its details reads: its markets join together and
      // their first quotes share cancel-replace requests (the periodic evaluation still runs meanwhile).
      if (this.detailsReading === 0 && this.createdPending) {
        this.createdPending = false;
        this.evaluateSoon();
      }
    }
  }

  /** A market resolved: no longer a candidate. */
  resolved(slug: string): void {
    this.detailed.delete(slug);
    if (this.candidates.delete(slug)) this.evaluateSoon();
  }

  /** One read of the active listing: candidates replaced by what it lists (joined markets are kept until they end). */
  async poll(): Promise<void> {
    if (this.stopped) return;
    let listed: readonly Market[];
    try {
      listed = await this.options.listActive();
    } catch (error) {
      this.options.log.warn({ err: errorText(error) }, 'listing the active markets failed: retried at the next poll');
      return;
    }
    if (this.stopped) return;
    const joined = this.options.roster.current();
    const seen = new Set(listed.map((m) => m.slug));
    for (const slug of [...this.candidates.keys()]) {
      if (seen.has(slug) || joined.has(slug)) continue;
      this.candidates.delete(slug);
      this.detailed.delete(slug);
    }
    for (const market of listed) {
      const known = this.candidates.get(market.slug);
      // A listing entry may lack the venue and tokens: keep the detailed record when there is one.
      if (known === undefined || (known.venue === null && market.venue !== null)) this.candidates.set(market.slug, market);
      else if (market.resolved || market.expired) this.candidates.set(market.slug, { ...known, resolved: market.resolved, expired: market.expired });
    }
    await this.evaluate();
  }

  /** Runs the selection now (or once more after the running one) and hands the difference to the roster. */
  async evaluate(): Promise<void> {
    if (this.stopped) return;
    if (this.evaluating) {
      this.again = true;
      return;
    }
    this.evaluating = true;
    try {
      do {
        this.again = false;
        await this.evaluateOnce();
      } while (this.again && !this.stopped);
    } finally {
      this.evaluating = false;
    }
  }

  private async evaluateOnce(): Promise<void> {
    const { scheduler, roster } = this.options;
    const nowMs = scheduler.now();
    const current = roster.current();
    const open = [...this.candidates.values()].filter((m) => {
      const leaveAt = this.options.leaveAtMs(m);
      return leaveAt === null || nowMs < leaveAt;
    });
    const result = this.options.select({
      candidates: open.map((market) => ({ market, fair: this.options.fairOf(market), detailsPending: !this.detailed.has(market.slug) && (market.venue === null || market.tokens === null) })),
      nowMs,
      current,
    });
    this.skipped = result.skipped;
    const wanted = new Set(result.selected.map((m) => m.slug));
    const leave: { slug: string; reason: string }[] = [];
    for (const slug of current) {
      if (wanted.has(slug)) continue;
      const market = this.candidates.get(slug);
      const leaveAt = market === undefined ? null : this.options.leaveAtMs(market);
      const reason = market === undefined ? 'no longer listed' : leaveAt !== null && nowMs >= leaveAt ? 'stop before settlement' : (result.skipped.get(slug) ?? 'no longer selected');
      leave.push({ slug, reason });
    }
    const join: Market[] = [];
    for (const market of result.selected) {
      if (current.has(market.slug)) continue;
      const detailed = market.venue !== null && market.tokens !== null ? market : await this.detailsOf(market.slug);
      if (detailed !== null && !detailed.resolved && !detailed.expired && detailed.venue !== null && detailed.tokens !== null) join.push(detailed);
    }
    if (join.length === 0 && leave.length === 0) return;
    this.lastPlan = roster.apply({ join, leave });
    await this.lastPlan;
  }

  private async detailsOf(slug: string): Promise<Market | null> {
    try {
      const market = await this.options.details(slug);
      this.candidates.set(slug, market);
      this.detailed.add(slug);
      return market;
    } catch (error) {
      this.options.log.warn({ market: slug, err: errorText(error) }, 'reading a market before joining it failed: retried at the next evaluation');
      return null;
    }
  }

  private evaluateSoon(): void {
    if (this.stopped || this.soon !== null) return;
    this.soon = this.options.scheduler.schedule(EVALUATE_SOON_MS, () => {
      this.soon = null;
      void this.evaluate();
    });
  }
}
