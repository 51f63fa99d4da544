/**
 * Markets that come and go in a backtest, as the daemon's do: the trader joins a market when the engine lists it
 * (the crypto world's next ladder opens as one settles: src/sim/engine/lifecycle.ts, heard through the feed's
 * `onMarketListed`) and leaves it just after its stop before settlement.
 *
 * Owns: which listed markets are joined — with `selection` (a bot config's `markets` section), the daemon's own
 * registry decides (src/markets/selection-loop.ts: the start-up selection, then the discovery loop's joins and leaves
 * through its roster, every rule of the section: slugs, groups, `select`'s tickers, cadences, join window, fair band,
 * `top`, `max`, and `exclude`), the markets as the venue serves them and their fair values from the bot's pricer;
 * without it the `admits(market, nowMs)` predicate, default all; none once the run is ending or too close to its stop
 * to be quoted —, what a join opens (the run's figures, the books, the pricer's terms
 * read by the bot's own terms parser from the market as the venue serves it, the feed's book) before the trader's
 * `addMarket` (src/trading/core.ts: adopted, then quoted), the leave timers, what a leave closes (the feed's book and
 * the pricer's terms at once, with the trader's `removeMarket`), the counts, and the samples of the core's memory.
 *
 * Invariants: without a selection a market is joined at most once and left at most once; with one, the selection may
 * leave a market (its fair out of band) and take it back later, as the daemon's roster does: each join and each leave
 * counts in `summary()`. Its quoting stops at `expiresAtMs −
 * stopBeforeExpiryMs` (the trader's expiry requote: the gate halts it and its quotes are canceled, as the bot's), and it
 * is left LEAVE_AFTER_STOP_MS later with the leave budget (the leave confirms nothing of the bot's is left there); a join or leave that throws is the run's error (reported to
 * `onError`, never unhandled); after `stop()` nothing joins and no leave timer is armed.
 */
import type { MarketsConfig } from '../config/types.js';
import type { Scheduler } from '../core/clock.js';
import { marketOfSim, type ListedMarket as Market } from '../markets/listed-market.js';
import { SelectionLoop } from '../markets/selection-loop.js';
import type { MarketPricer } from '../pricing/market-pricer.js';
import { DEFAULT_PYTH_FEED_IDS } from '../pricing/feed-ids.js';
import { readMarketTerms, termsInputOf, termsInputOfJson } from '../pricing/terms.js';
import type { FeedId, TermsResult } from '../pricing/types.js';
import type { SimEngine, SimMarket } from '../sim/engine/index.js';
import { marketWire } from '../sim/server/wire-format.js';
import type { MarketInfo } from '../strategy/contract.js';
import type { BotAccounting } from './accounting.js';
import type { EngineFeed } from './engine-feed.js';
import { BacktestInvariantError } from './errors.js';
import { infoOf, type MarketRuns } from './market-runs.js';
import type { RollSummary, StateSample } from './result.js';
import type { Trader } from './trader.js';

/** A market is left this long after its stop before expiry (the gate's halt goes first). */
export const LEAVE_AFTER_STOP_MS = 1000;

/** When a market that settles at `expiresAtMs` and stops quoting `stopBeforeExpiryMs` before is left. Pure. */
export function leaveAtMs(expiresAtMs: number, stopBeforeExpiryMs: number): number {
  return expiresAtMs - stopBeforeExpiryMs + LEAVE_AFTER_STOP_MS;
}

/** Which listed markets the trader joins, one at a time (without a `selection`). */
export type MarketAdmission = (market: MarketInfo, nowMs: number) => boolean;

/** A bot config's market selection, run by the daemon's own code (src/markets/selection-loop.ts). */
export interface MarketSelectionSpec {
  /** The config's `markets` section. */
  readonly rules: MarketsConfig;
  /** `pricing.feedIds`; default: the built-in map. */
  readonly feedIds?: Readonly<Record<string, FeedId>>;
}

export interface MarketRollDeps {
  readonly engine: SimEngine;
  readonly scheduler: Scheduler;
  readonly runs: MarketRuns;
  readonly accounting: BotAccounting;
  readonly pricer: MarketPricer | null;
  /** The effective price band of every market (the venue's within the risk config's). */
  readonly band: { readonly minTicks: number; readonly maxTicks: number };
  readonly admits: MarketAdmission;
  /** The daemon's selection over the engine's listing; null: `admits`. */
  readonly selection: MarketSelectionSpec | null;
  readonly stopBeforeExpiryMs: number;
  readonly leaveBudgetMs: number;
  /** Listings at or after this moment are not joined (the run ends). */
  readonly endMs: number;
  readonly onError: (error: unknown) => void;
}

export class MarketRoll {
  private trader: Trader | null = null;
  private feed: EngineFeed | null = null;
  private readonly leaves = new Map<string, () => void>();
  private readonly seen = new Set<string>();
  private stopped = false;
  private joined = 0;
  private leftCount = 0;
  private refused = 0;
  private unclean = 0;
  private readonly samples: StateSample[] = [];
  private readonly selection: SelectionLoop | null;
  /** Pricing terms of each market the selection judged (read once). */
  private readonly terms = new Map<string, TermsResult>();
  /** Each tradable market as the daemon reads it (converted once; dropped once it is no longer tradable or left). */
  private readonly listings = new Map<string, Market>();

  constructor(private readonly deps: MarketRollDeps) {
    this.selection = deps.selection === null ? null : this.selectionLoop(deps.selection);
  }

  /**
   * The markets listed at the start that are admitted, opened (figures, books, terms) for the trader to start with.
   * Their feed books are the feed's own from the start.
   */
  initial(): MarketInfo[] {
    const now = this.deps.scheduler.now();
    const infos: MarketInfo[] = [];
    if (this.selection !== null) {
      for (const market of this.deps.engine.markets()) this.seen.add(market.slug);
      for (const market of this.selection.initial()) {
        const info = this.infoOf(market.slug);
        this.open(info);
        infos.push(info);
      }
      return infos;
    }
    for (const market of this.deps.engine.markets()) {
      this.seen.add(market.slug);
      const info = infoOf(market, this.deps.band);
      if (!this.deps.admits(info, now)) {
        this.refused += 1;
        continue;
      }
      this.open(info);
      infos.push(info);
    }
    return infos;
  }

  /** The trader and the feed, once built (they are built with the initial markets); arms the initial leaves. */
  start(trader: Trader, feed: EngineFeed): void {
    this.trader = trader;
    this.feed = feed;
    for (const info of trader.core.markets.infoList()) this.armLeave(info);
    this.selection?.start(trader.core.markets.infoList().map((info) => marketOfSim(this.listedMarket(info.slug))));
  }

  /** A market the engine listed while running: joined when admitted and still worth quoting. */
  listed(slug: string): void {
    const { trader, feed } = this;
    const now = this.deps.scheduler.now();
    if (this.stopped || trader === null || feed === null || this.seen.has(slug) || now >= this.deps.endMs) return;
    this.seen.add(slug);
    if (this.selection !== null) {
      this.selection.listedNow(slug);
      return;
    }
    const market = this.deps.engine.market(slug);
    if (market === undefined || !market.tradable) return;
    const info = infoOf(market, this.deps.band);
    if (info.expiresAtMs !== null && now >= info.expiresAtMs - this.deps.stopBeforeExpiryMs) return;
    if (!this.deps.admits(info, now)) {
      this.refused += 1;
      return;
    }
    this.open(info);
    feed.addMarket({ slug, minSizeRaw: info.minSizeRaw });
    this.track(trader.addMarket(info));
    this.armLeave(info);
  }

  /** The core's memory now, with the feed's published markets (kept in `summary().state`). */
  sample(): void {
    if (this.trader === null || this.feed === null) return;
    this.samples.push({ atMs: this.deps.scheduler.now(), ...this.trader.core.stateCounts(), feedMarkets: this.feed.marketCount });
  }

  /** Nothing joins from now on; leave timers not fired yet are disarmed. */
  stop(): void {
    this.stopped = true;
    // Synchronously stopped (no join or leave starts); a change in flight ends as the run's clock settles.
    void this.selection?.stop();
    for (const cancel of this.leaves.values()) cancel();
    this.leaves.clear();
  }

  summary(): RollSummary {
    const selection = this.selection?.outcome() ?? null;
    const refused = selection === null ? this.refused : selection.neverJoined.size;
    return { joined: this.joined, left: this.leftCount, refused, uncleanLeaves: this.unclean, state: [...this.samples], selection };
  }

  /** The daemon's registry over the engine's listing; its roster's steps are this roll's join and leave. */
  private selectionLoop(spec: MarketSelectionSpec): SelectionLoop {
    const feedIds = spec.feedIds ?? DEFAULT_PYTH_FEED_IDS;
    const { engine, scheduler } = this.deps;
    return new SelectionLoop({
      rules: spec.rules,
      feedIds,
      scheduler,
      // As GET /markets/active: the markets still tradable (each read once: a tradable market's listing does not change).
      listed: () => engine.markets().flatMap((market) => {
        if (market.tradable) return [this.listing(market)];
        this.listings.delete(market.slug);
        return [];
      }),
      details: (slug) => this.listing(this.listedMarket(slug)),
      fairOf: (market) => {
        const pricer = this.deps.pricer;
        if (pricer === null) return null;
        let terms = this.terms.get(market.slug);
        if (terms === undefined) this.terms.set(market.slug, (terms = readMarketTerms(termsInputOf(market), feedIds)));
        return terms.ok ? pricer.fairOf(terms.terms, scheduler.now()) : null;
      },
      leaveAtMs: (market) => (market.expirationMs === null ? null : leaveAtMs(market.expirationMs, this.deps.stopBeforeExpiryMs)),
      steps: {
        register: (market) => {
          const info = this.infoOf(market.slug);
          this.open(info);
          this.feed?.addMarket({ slug: info.slug, minSizeRaw: info.minSizeRaw });
          this.armLeave(info);
        },
        adopt: (market) => {
          const trader = this.trader;
          if (trader === null) return Promise.reject(new BacktestInvariantError(`market ${market.slug} joined before the trader was built`));
          return trader.addMarket(this.infoOf(market.slug));
        },
        drain: (slug) => this.drain(slug),
        unregister: (slug) => {
          this.terms.delete(slug);
          this.listings.delete(slug);
        },
      },
      pollIntervalMs: spec.rules.discovery.pollIntervalMs,
    });
  }

  private listing(market: SimMarket): Market {
    if (!market.tradable) {
      this.listings.delete(market.slug);
      return marketOfSim(market);
    }
    let listed = this.listings.get(market.slug);
    if (listed === undefined) this.listings.set(market.slug, (listed = marketOfSim(market)));
    return listed;
  }

  private listedMarket(slug: string): SimMarket {
    const market = this.deps.engine.market(slug);
    if (market === undefined) throw new BacktestInvariantError(`market ${slug} is not listed by the engine`);
    return market;
  }

  private infoOf(slug: string): MarketInfo {
    return infoOf(this.listedMarket(slug), this.deps.band);
  }

  /** The run's figures, the books and the pricer's terms of a market about to be traded. */
  private open(info: MarketInfo): void {
    this.joined += 1;
    this.deps.runs.add(info);
    this.deps.accounting.addMarket(info);
    const pricer = this.deps.pricer;
    if (pricer === null) return;
    // The bot's own terms parser on the venue's market object (as the simulator serves it), without the wire layer.
    const listed = this.deps.engine.market(info.slug);
    if (listed === undefined) throw new BacktestInvariantError(`market ${info.slug} is not listed by the engine`);
    pricer.register(info.slug, readMarketTerms(termsInputOfJson(marketWire(listed, undefined)), DEFAULT_PYTH_FEED_IDS));
  }

  private armLeave(info: MarketInfo): void {
    if (info.expiresAtMs === null || this.stopped || this.leaves.has(info.slug)) return;
    const { scheduler } = this.deps;
    const delay = Math.max(0, leaveAtMs(info.expiresAtMs, this.deps.stopBeforeExpiryMs) - scheduler.now());
    this.leaves.set(
      info.slug,
      scheduler.schedule(delay, () => {
        this.leaves.delete(info.slug);
        if (this.selection === null) this.track(this.drain(info.slug));
        else this.track(this.selection.leave(info.slug, 'stop before settlement'));
      }),
    );
  }

  /** A leave: the run's figures closed, the feed's book and the pricer's terms dropped, the trader's orders canceled. */
  private async drain(slug: string): Promise<{ readonly clean: boolean }> {
    const { trader, feed } = this;
    if (trader === null || feed === null) return { clean: true };
    this.leaves.get(slug)?.();
    this.leaves.delete(slug);
    this.deps.runs.left(slug, trader.runner.cycles(slug));
    feed.removeMarket(slug);
    this.deps.pricer?.unregister(slug);
    const report = await trader.removeMarket(slug, { budgetMs: this.deps.leaveBudgetMs });
    this.leftCount += 1;
    if (!report.clean) this.unclean += 1;
    return { clean: report.clean };
  }

  private track(work: Promise<unknown>): void {
    work.catch((error: unknown) => this.deps.onError(error));
  }
}
