/**
 * The running bot's account of itself, built from its components (moved out of src/app/compose.ts, which only wires
 * and starts it): the status line's sources, including the next market expected to be joined, and why a traded
 * market has no open order now (the status line's and the `status` command's reason).
 *
 * Owns nothing but the reading: every figure is read from its owner when a line is made. Invariants: a reason is
 * given for every traded market without an order (the first that applies, in the order of the checks below); the
 * next join is said only with a join window (`markets.select.joinBeforeSettlementSec`).
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/types.js';
import type { Market } from '../exchange/wire.js';
import { nextExpectedJoin } from '../markets/next-join.js';
import type { StatusPnl } from './status-line.js';
import { StatusReporter } from './status-line.js';
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
  /** The capital by state and the trims (src/operator/capital-view.ts); absent: the line does not say. */
  readonly capital?: () => CapitalStatus;
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

/** The status line's reporter over the bot's components. */
export function buildBotStatus(sources: BotStatusSources, log: Logger): StatusReporter {
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
