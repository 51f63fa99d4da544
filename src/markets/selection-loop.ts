/**
 * The daemon's market registry run over a listing that is not the venue's REST API: the backtests' (the synthetic
 * engine's markets, a replay stream's). The choice is the daemon's own code, imported, never re-implemented: the
 * start-up selection (`selectMarkets` with nothing joined and no fair value known, as src/markets/venue-markets.ts does at
 * start), then the run-time discovery loop (src/markets/market-discovery.ts: a market listed → its details read → the
 * selection re-run soon; a periodic evaluation every SELECTION_EVERY_MS; a slow poll of the listing) handing its
 * joins and leaves to the roster (src/markets/market-roster.ts), whose steps the caller supplies (what a join opens and a
 * leave closes in its run).
 *
 * Owns: the wiring and what the run learns of the selection (markets joined, the most joined at once, the last reason
 * each market never joined was skipped). Invariants: every time is the given scheduler's (a virtual clock in a
 * backtest: deterministic); the selection function is exactly the daemon's, bound to the config's `markets` section
 * and its `pricing.feedIds`; after `stop()` nothing joins or leaves.
 */
import pino, { type Logger } from 'pino';
import type { MarketsConfig } from '../config/types.js';
import type { Scheduler } from '../core/clock.js';
import type { Market } from '../exchange/wire.js';
import type { FeedId } from '../pricing/types.js';
import { MarketDiscovery, SELECTION_EVERY_MS, type DiscoveryCandidate, type DiscoverySelection } from './market-discovery.js';
import { MarketRoster, type RosterSteps } from './market-roster.js';
import { selectMarkets } from './market-selection.js';

export interface SelectionLoopOptions {
  /** The config's `markets` section. */
  readonly rules: MarketsConfig;
  /** `pricing.feedIds` (the ticker rule reads the pricing terms with it). */
  readonly feedIds: Readonly<Record<string, FeedId>>;
  readonly scheduler: Scheduler;
  /** Every market listed now (the backtest's "GET /markets/active"). */
  readonly listed: () => readonly Market[];
  /** One listed market (the backtest's "GET /markets/{slug}"); throws when it is not listed. */
  readonly details: (slug: string) => Market;
  /** The model's fair value of YES (null: not priced, or no price yet). */
  readonly fairOf: (market: Market) => number | null;
  /** When a joined market stops being quoted and leaves (its stop before settlement); null: never. */
  readonly leaveAtMs: (market: Market) => number | null;
  /** What a join opens and a leave closes in the run. */
  readonly steps: RosterSteps;
  /** The slow poll of the listing (the config's `markets.discovery.pollIntervalMs`). */
  readonly pollIntervalMs: number;
  /** Default: silent (a backtest's report says what the selection did). */
  readonly log?: Logger;
}

/** What the selection did over a run. */
export interface SelectionOutcome {
  /** Every market joined, in join order. */
  readonly joined: readonly string[];
  /** The most markets joined at one time. */
  readonly peakJoined: number;
  /** Every market the listing held over the run. */
  readonly candidates: number;
  /** Markets never joined → the last reason the selection gave. */
  readonly neverJoined: ReadonlyMap<string, string>;
}

export class SelectionLoop {
  private discovery: MarketDiscovery | null = null;
  private roster: MarketRoster | null = null;
  private readonly log: Logger;
  private readonly joinedOrder: string[] = [];
  private readonly joinedNow = new Set<string>();
  private peak = 0;
  private readonly seen = new Set<string>();
  private readonly reasons = new Map<string, string>();

  constructor(private readonly options: SelectionLoopOptions) {
    this.log = options.log ?? pino({ level: 'silent' });
  }

  /** The start-up selection (as the daemon's: nothing joined, no fair value known yet); not joined by this call. */
  initial(): readonly Market[] {
    const result = this.select({ candidates: this.options.listed().map((market) => ({ market, fair: null, detailsPending: false })), nowMs: this.options.scheduler.now(), current: new Set() });
    return result.selected;
  }

  /** The markets of `initial()` are joined (their steps already taken by the caller); the discovery loop starts. */
  start(initial: readonly Market[]): void {
    for (const market of initial) this.noteJoin(market.slug);
    const steps = this.options.steps;
    const roster = new MarketRoster(
      {
        register: (market) => {
          steps.register(market);
          this.noteJoin(market.slug);
        },
        adopt: (market) => steps.adopt(market),
        drain: (slug) => steps.drain(slug),
        unregister: (slug) => {
          steps.unregister(slug);
          this.joinedNow.delete(slug);
        },
      },
      this.log,
      initial.map((m) => m.slug),
    );
    this.roster = roster;
    this.discovery = new MarketDiscovery(
      {
        scheduler: this.options.scheduler,
        log: this.log,
        listActive: () => Promise.resolve(this.options.listed()),
        details: (slug) => Promise.resolve().then(() => this.options.details(slug)),
        select: (input) => this.select(input),
        fairOf: this.options.fairOf,
        leaveAtMs: this.options.leaveAtMs,
        roster,
        pollIntervalMs: this.options.pollIntervalMs,
        evaluateIntervalMs: SELECTION_EVERY_MS,
      },
      this.options.listed(),
    );
    this.discovery.start();
  }

  /** A market the venue just listed (the lifecycle channel's `marketCreated`). */
  listedNow(slug: string): void {
    void this.discovery?.created({ slug, title: slug, type: 'CLOB', groupSlug: null, categoryIds: [], createdAtMs: this.options.scheduler.now() });
  }

  /** A market resolved: no longer a candidate. */
  resolved(slug: string): void {
    this.discovery?.resolved(slug);
  }

  /** Leaves a joined market now (its stop before settlement came), through the roster as any other leave. */
  leave(slug: string, reason: string): Promise<void> {
    return this.roster?.apply({ join: [], leave: [{ slug, reason }] }) ?? Promise.resolve();
  }

  /** Markets joined now. */
  current(): ReadonlySet<string> {
    return this.joinedNow;
  }

  /** Nothing joins or leaves from now on; resolves once a change in flight ended. */
  async stop(): Promise<void> {
    await this.discovery?.stop();
    await this.roster?.stop();
  }

  outcome(): SelectionOutcome {
    const joined = new Set(this.joinedOrder);
    const neverJoined = new Map([...this.reasons].filter(([slug]) => !joined.has(slug)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return { joined: [...this.joinedOrder], peakJoined: this.peak, candidates: this.seen.size, neverJoined };
  }

  /** The daemon's selection (as src/app/compose.ts binds it), recording why each market is skipped. */
  private select(input: { readonly candidates: readonly DiscoveryCandidate[]; readonly nowMs: number; readonly current: ReadonlySet<string> }): DiscoverySelection {
    const result = selectMarkets({ rules: this.options.rules, candidates: input.candidates, nowMs: input.nowMs, current: input.current, feedIds: this.options.feedIds });
    for (const candidate of input.candidates) this.seen.add(candidate.market.slug);
    for (const [slug, reason] of result.skipped) if (this.seen.has(slug)) this.reasons.set(slug, reason);
    return result;
  }

  private noteJoin(slug: string): void {
    if (!this.joinedOrder.includes(slug)) this.joinedOrder.push(slug);
    this.joinedNow.add(slug);
    this.peak = Math.max(this.peak, this.joinedNow.size);
  }
}

/** Reasons of markets never joined, most frequent first, as one line: `12× cadence daily not in [hourly]; …`. Pure. */
export function reasonSummary(neverJoined: ReadonlyMap<string, string>, limit = 4): string {
  const counts = new Map<string, number>();
  for (const reason of neverJoined.values()) {
    // Figures that differ per market (a fair value, a time left) would split one reason into many.
    const kind = reason.replace(/\b\d+\.\d+\b|\b\d+(?:h|min|s)(?: \d+(?:min|s))?\b/g, '…');
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = sorted.slice(0, limit).map(([reason, n]) => `${n}× ${reason}`);
  return sorted.length > limit ? `${shown.join('; ')}; …` : shown.join('; ');
}

/** The `markets` section in one line, as a report names the selection it ran. Pure. */
export function describeSelection(rules: MarketsConfig): string {
  const parts: string[] = [];
  if (rules.slugs.length > 0) parts.push(`slugs ${rules.slugs.join(', ')}`);
  if (rules.groups.length > 0) parts.push(`groups ${rules.groups.join(', ')}`);
  const s = rules.select;
  if (s !== null) {
    const rule: string[] = [];
    if (s.tickers !== null) rule.push(`tickers ${s.tickers.join(', ')}`);
    if (s.cadences !== null) rule.push(`cadences ${s.cadences.join(', ')}`);
    if (s.joinBeforeSettlementMs !== null) rule.push(`joined ${s.joinBeforeSettlementMs / 1000} s before settlement`);
    if (s.minFairTicks !== null || s.maxFairTicks !== null) {
      const band = `fair ${s.minFairTicks === null ? '0' : s.minFairTicks / 1000}–${s.maxFairTicks === null ? '1' : s.maxFairTicks / 1000}`;
      rule.push(s.fairHysteresisTicks > 0 ? `${band} (hysteresis ${s.fairHysteresisTicks / 1000})` : band);
    }
    if (s.rewardableOnly) rule.push('rewardable only');
    if (s.minDailyRewardRaw > 0) rule.push(`daily reward ≥ ${s.minDailyRewardRaw / 1e6} USDC`);
    if (s.top !== null) rule.push(`top ${s.top} by ${s.by}`);
    if (s.max !== null) rule.push(`max ${s.max}`);
    parts.push(`select ${rule.length === 0 ? 'every market' : rule.join(', ')}`);
  }
  if (rules.exclude.length > 0) parts.push(`exclude ${rules.exclude.join(', ')}`);
  return parts.length === 0 ? 'every market listed (no markets section)' : `markets: ${parts.join('; ')}`;
}
