/**
 * The running bot's account of itself, built from its components (moved out of src/app/compose.ts, which only wires
 * and starts it): the status line's sources, including the next market expected to be joined, and why a traded
 * market has no open order now (the status line's and the `status` command's reason).
 *
 * It also keeps the run's quoting clock (./quoting-time.ts): sampled every QUOTING_SAMPLE_MS once quoting starts, it
 * splits the run into time quoting, waiting (markets expected, no order) and idle (nothing to quote), for the run
 * summary, and publishes the current waiting stretch (the "nothing quoted" alert's gauge).
 *
 * Owns nothing but the reading: every figure is read from its owner when a line is made. Invariants: a reason is
 * given for every traded market without an order (the first that applies, in the order of the checks below); the
 * next join is said only with a join window (`markets.select.joinBeforeSettlementSec`); a traded market counts as
 * expected to be quoted until its stop before settlement (after it, no order is the plan, not a fault).
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import type { Market } from '../exchange/wire.js';
import { nextExpectedJoin } from '../markets/next-join.js';
import type { StatusPnl, StatusSnapshot } from './status-line.js';
import { StatusReporter } from './status-line.js';
import { QuotingClock, quotingStateOf, type QuotingTotals } from './quoting-time.js';

/** How often the quoting clock samples the bot's orders and markets. */
export const QUOTING_SAMPLE_MS = 1_000;
import type { CapitalStatus } from './capital-view.js';

/** What the bot's status reads, each from its owner. */
export interface BotStatusSources {
  readonly config: AppConfig;
  readonly now: () => number;
  readonly marketSlugs: () => readonly string[];
  readonly openOrders: () => readonly { readonly marketSlug: string }[];
  readonly fills: () => number;
  readonly pnl: () => StatusPnl;
  readonly requests: () => number;
  readonly underlyingAgesMs: () => Readonly<Record<string, number | null>>;
  readonly killSwitchTripped: () => boolean;
  /** The markets the roster holds now (a traded market outside it is still joining). */
  readonly rostered: () => ReadonlySet<string>;
  readonly bookStatus: (slug: string) => { readonly hasBook: boolean; readonly stale: boolean } | null;
  readonly halted: (slug: string) => boolean;
  readonly pricingHalt: (slug: string) => string | null;
  /** The last reason the market was kept from quoting (a risk block, a halt). */
  readonly blockedReason: (slug: string) => string | undefined;
  /** The markets discovery knows as candidates (read lazily: discovery is built after the reporter). */
  readonly candidates: () => readonly Market[];
  /** When the bot leaves a market (its stop before settlement), null when it has no expiry. */
  readonly leaveAtMs: (market: Market) => number | null;
  /** A traded market's details (undefined: not traded). */
  readonly tradedMarket: (slug: string) => Market | undefined;
  /** Publishes how long nothing has been quoted while markets were expected (the alert's gauge). */
  readonly nothingQuotedFor?: (ms: number) => void;
  /** The capital by state and the trims (src/operator/capital-view.ts); absent: the line does not say. */
  readonly capital?: () => CapitalStatus;
}

/** The status line's reporter and the run's quoting clock. */
export interface BotStatus {
  /** Logs the status line. */
  report(): void;
  snapshot(): StatusSnapshot;
  /** Samples the quoting clock now and then every QUOTING_SAMPLE_MS (`every` arms the periodic timer). */
  startQuotingClock(every: (ms: number, fn: () => void) => void): void;
  /** Samples the clock now and returns where the run's time went (null before the clock started). */
  quotingTotals(): QuotingTotals | null;
}

/** Traded markets the bot is expected to quote now: those before their stop before settlement (unknown: expected). */
export function expectedMarkets(sources: Pick<BotStatusSources, 'marketSlugs' | 'tradedMarket' | 'leaveAtMs' | 'now'>): number {
  const nowMs = sources.now();
  return sources.marketSlugs().filter((slug) => {
    const market = sources.tradedMarket(slug);
    const leaveAt = market === undefined ? null : sources.leaveAtMs(market);
    return leaveAt === null || leaveAt > nowMs;
  }).length;
}

/** Why a traded market has no open order now. */
export function unquotedReasonOf(sources: BotStatusSources, slug: string): string {
  if (sources.killSwitchTripped()) return 'kill switch engaged';
  if (!sources.rostered().has(slug)) return 'joining';
  const book = sources.bookStatus(slug);
  if (!book?.hasBook) return 'no book yet';
  if (sources.halted(slug) || book.stale) return 'market data not fresh';
  const halt = sources.pricingHalt(slug);
  if (halt !== null) return `pricing halted: ${halt}`;
  return sources.blockedReason(slug) ?? 'no quote from the strategy';
}

/** The status line's reporter and the quoting clock over the bot's components. */
export function buildBotStatus(sources: BotStatusSources, log: Logger): BotStatus {
  const reporter = buildReporter(sources, log);
  const clock = new QuotingClock();
  let started = false;
  const sample = (): QuotingTotals => {
    clock.observe(sources.now(), quotingStateOf(sources.openOrders().length, expectedMarkets(sources)));
    const totals = clock.totals();
    sources.nothingQuotedFor?.(totals.waitingForMs);
    return totals;
  };
  return {
    report: () => reporter.report(),
    snapshot: () => reporter.snapshot(),
    startQuotingClock: (every) => {
      started = true;
      sample();
      every(QUOTING_SAMPLE_MS, () => void sample());
    },
    quotingTotals: () => (started ? sample() : null),
  };
}

function buildReporter(sources: BotStatusSources, log: Logger): StatusReporter {
  const joinWindowMs = sources.config.markets.select?.joinBeforeSettlementMs ?? null;
  return new StatusReporter(
    {
      now: sources.now,
      marketSlugs: sources.marketSlugs,
      openOrders: sources.openOrders,
      fills: sources.fills,
      pnl: sources.pnl,
      requests: sources.requests,
      minTimeMs: sources.config.rateLimits.minTimeMs,
      underlyingAgesMs: sources.underlyingAgesMs,
      unquotedReason: (slug) => unquotedReasonOf(sources, slug),
      ...(sources.capital === undefined ? {} : { capital: sources.capital }),
      // The listed market whose join window opens first; only with a join window: without one no join is expected by time.
      ...(joinWindowMs === null
        ? {}
        : {
            nextJoin: () => {
              const candidates = sources.candidates();
              return nextExpectedJoin({
                candidates,
                joined: new Set(sources.marketSlugs()),
                nowMs: sources.now(),
                joinBeforeSettlementMs: joinWindowMs,
                leaveAtMs: (slug) => {
                  const market = candidates.find((m) => m.slug === slug);
                  return market === undefined ? null : sources.leaveAtMs(market);
                },
              });
            },
          }),
    },
    log,
  );
}
